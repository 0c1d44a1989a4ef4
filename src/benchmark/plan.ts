// The benchmark plan from the settings: perftest commands, memory, pod resources and the pass rule.
// `plan` prints it and the benchmark builds its pods from it. Rules: docs/benchmark.md.
import { perftestCudaFlags } from '../model/gpudirect.js'
import type { Settings } from '../settings/settings.js'
import { findRdmaVmSize } from '../settings/vm-sizes.js'
import { workloadResources } from '../model/workload.js'

/** The placeholder of the CUDA device in the perftest arguments. */
export const CUDA_DEVICE = '<NIC-local GPU>'

/** ib_write_bw's message size and iterations: Azure NHC's GPU-direct check (perftest's default count). */
export const BW_MESSAGE_BYTES = 8388608
export const BW_ITERATIONS = 5000
/** ib_write_lat's message size and iterations: perftest's defaults, as Azure's AKS RDMA tests run it. */
export const LAT_MESSAGE_BYTES = 2
export const LAT_ITERATIONS = 1000

export interface PlannedTest {
  tool: 'ib_write_bw' | 'ib_write_lat'
  /** GPU memory (--use_cuda=<NIC-local GPU>) when the benchmark uses GPUs; host memory otherwise. */
  gpuMemory: boolean
  serverArgs: string[]
  clientArgs: string[]
}

export interface BenchmarkPlan {
  enabled: boolean
  scope: Settings['benchmark']['scope']
  image: string
  gpudirect: boolean
  tests: PlannedTest[]
  /** What one benchmark container (one per node side) requests. */
  resources: Record<string, string>
  /** How GPU memory is placed (GPUDirect), or why it is not used. */
  gpuPlacement: string
  passRule: string
}

/** GPUs one benchmark container asks for: every GPU of the node (GPUDirect), else none. */
export function benchmarkGpus(s: Settings): number {
  if (!s.benchmark.gpudirect) return 0
  return findRdmaVmSize(s.nodePool.vmSize)?.gpus ?? 0
}

export function benchmarkPlan(s: Settings): BenchmarkPlan {
  const gpus = benchmarkGpus(s)
  const cuda = gpus > 0 ? perftestCudaFlags(s.gpudirect, CUDA_DEVICE) : []
  const target = ['-d', '<device>', '-p', '<port>']
  const bw = [
    ...target,
    '-s',
    String(BW_MESSAGE_BYTES),
    '-n',
    String(BW_ITERATIONS),
    '-F',
    '--report_gbits',
    '--perform_warm_up',
    ...cuda
  ]
  // Host memory: perftest refuses --use_cuda on write latency (read/send only up to 25.10, and
  // with --write_with_imm only from 26.01).
  const lat = [...target, '-s', String(LAT_MESSAGE_BYTES), '-n', String(LAT_ITERATIONS), '-F']
  return {
    enabled: s.benchmark.enabled,
    scope: s.benchmark.scope,
    image: s.benchmark.image,
    gpudirect: s.benchmark.gpudirect,
    tests: [
      { tool: 'ib_write_bw', gpuMemory: gpus > 0, serverArgs: bw, clientArgs: [...bw, '<server-pod-ip>'] },
      { tool: 'ib_write_lat', gpuMemory: false, serverArgs: lat, clientArgs: [...lat, '<server-pod-ip>'] }
    ],
    resources: workloadResources(s, gpus),
    gpuPlacement:
      gpus > 0
        ? `one container per node side holds the node's ${gpus} GPUs and runs one perftest per InfiniBand NIC (port 18515 + i); ib_write_bw with --use_cuda=<the GPU local to that NIC>${s.gpudirect === 'dmabuf' ? ' --use_cuda_dmabuf (GPU memory registered by DMA-BUF)' : ' (GPU memory registered through nvidia_peermem)'} (CUDA_DEVICE_ORDER=PCI_BUS_ID; the probe reads the NIC–GPU locality from the node's PCI topology and NUMA nodes), ib_write_lat from host memory (perftest refuses GPU memory for write latency)`
        : s.benchmark.gpudirect
          ? `${s.nodePool.vmSize} has no GPUs: host memory`
          : 'benchmark-gpudirect is false: host memory',
    passRule:
      s.benchmark.scope === 'fleet'
        ? `every node measured against two others in parallel rounds of disjoint pairs; each device ≥ ${s.benchmark.minBandwidthRatio} × its link rate; outliers far below the fleet median named`
        : `two RDMA nodes, every IB device pair ≥ ${s.benchmark.minBandwidthRatio} × its link rate`
  }
}
