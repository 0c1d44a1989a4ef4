// The verification checks and the benchmark plan, as the desired state defines them. The verify
// step runs these (by name); plan prints them; drift runs the ones that only read state.
import type { Settings } from '../settings/settings.js'
import { LABELS } from './types.js'

export interface CheckSpec {
  name: string
  description: string
  /** Reads state only (drift runs it); false: creates short-lived probe pods. */
  readOnly: boolean
}

export function verificationChecks(s: Settings): CheckSpec[] {
  const resource = `rdma/${s.stack.rdmaResourceName}`
  return [
    {
      name: 'nodes-ready',
      readOnly: true,
      description: `every RDMA node Ready, labelled ${LABELS.pci15b3}=true and ${LABELS.mofedWait}=false`
    },
    {
      name: 'ofed-driver',
      readOnly: true,
      description: `OFED driver pods (-l ${LABELS.ofedDriverPod}) Ready on every RDMA node; NicClusterPolicy ready`
    },
    {
      name: 'ib-node-config',
      readOnly: true,
      description: 'ib-node-config init container completed on every RDMA node'
    },
    {
      name: 'rdma-device-plugin',
      readOnly: true,
      description: `device plugin Ready; allocatable ${resource} on every RDMA node`
    },
    {
      name: 'gpu-operator',
      readOnly: true,
      description:
        'cluster-policy ready; nvidia-peermem-ctr Ready and allocatable nvidia.com/gpu on every RDMA node'
    },
    {
      name: 'node-probe',
      readOnly: false,
      description: `a short-lived pod per RDMA node (requests ${resource}: 1): IB ports Active with their rate (ibstat), ulimit -l unlimited, nvidia_peermem loaded`
    }
  ]
}

export interface BenchmarkPlan {
  enabled: boolean
  scope: Settings['benchmark']['scope']
  image: string
  gpudirect: boolean
  tests: Array<{ tool: 'ib_write_bw' | 'ib_write_lat'; serverArgs: string[]; clientArgs: string[] }>
  resources: Record<string, string>
  passRule: string
}

export function benchmarkPlan(s: Settings): BenchmarkPlan {
  const cuda = s.benchmark.gpudirect ? ['--use_cuda=0'] : []
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
    resources: {
      [`rdma/${s.stack.rdmaResourceName}`]: '1',
      ...(s.benchmark.gpudirect ? { 'nvidia.com/gpu': '1' } : {})
    },
    passRule:
      s.benchmark.scope === 'fleet'
        ? `every node measured against two others in parallel rounds of disjoint pairs; each device ≥ ${s.benchmark.minBandwidthRatio} × its link rate; outliers far below the fleet median named`
        : `two RDMA nodes, every IB device pair ≥ ${s.benchmark.minBandwidthRatio} × its link rate`
  }
}
