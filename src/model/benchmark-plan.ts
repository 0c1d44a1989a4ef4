// The benchmark plan as the settings define it: the perftest commands, the resources each pod
// requests and the pass rule. plan prints it; the benchmark builds its pods from it. With
// GPUDirect, each node side is one container holding all of the node's GPUs (the workload
// snippet with N GPUs), running one perftest per NIC with --use_cuda=<the GPU local to that NIC>
// (CUDA_DEVICE_ORDER=PCI_BUS_ID, so the index is the GPU's rank in PCI order, as the probe reads it).
import type { Settings } from '../settings/settings.js'
import { findRdmaVmSize } from '../settings/vm-sizes.js'
import { workloadResources } from './workload.js'

/** The placeholder of the CUDA device in the perftest arguments. */
export const CUDA_DEVICE = '<NIC-local GPU>'

export interface BenchmarkPlan {
  enabled: boolean
  scope: Settings['benchmark']['scope']
  image: string
  gpudirect: boolean
  tests: Array<{ tool: 'ib_write_bw' | 'ib_write_lat'; serverArgs: string[]; clientArgs: string[] }>
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
  const cuda = gpus > 0 ? [`--use_cuda=${CUDA_DEVICE}`] : []
  const bw = [
    '-d',
    '<device>',
    '-p',
    '<port>',
    '-s',
    '8388608',
    '-n',
    '2000',
    '-F',
    '--report_gbits',
    ...cuda
  ]
  const lat = ['-d', '<device>', '-p', '<port>', '-s', '2', '-n', '10000', '-F', ...cuda]
  return {
    enabled: s.benchmark.enabled,
    scope: s.benchmark.scope,
    image: s.benchmark.image,
    gpudirect: s.benchmark.gpudirect,
    tests: [
      { tool: 'ib_write_bw', serverArgs: bw, clientArgs: [...bw, '<server-pod-ip>'] },
      { tool: 'ib_write_lat', serverArgs: lat, clientArgs: [...lat, '<server-pod-ip>'] }
    ],
    resources: workloadResources(s, gpus),
    gpuPlacement:
      gpus > 0
        ? `one container per node side holds the node's ${gpus} GPUs and runs one perftest per InfiniBand NIC (port 18515 + i) with --use_cuda=<the GPU local to that NIC> (CUDA_DEVICE_ORDER=PCI_BUS_ID; the probe reads the NIC–GPU locality from the node's PCI topology and NUMA nodes)`
        : s.benchmark.gpudirect
          ? `${s.nodePool.vmSize} has no GPUs: host memory`
          : 'benchmark-gpudirect is false: host memory',
    passRule:
      s.benchmark.scope === 'fleet'
        ? `every node measured against two others in parallel rounds of disjoint pairs; each device ≥ ${s.benchmark.minBandwidthRatio} × its link rate; outliers far below the fleet median named`
        : `two RDMA nodes, every IB device pair ≥ ${s.benchmark.minBandwidthRatio} × its link rate`
  }
}
