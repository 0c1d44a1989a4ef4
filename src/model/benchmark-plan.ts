// The benchmark plan as the settings define it: the perftest commands, the resources each pod
// requests and the pass rule. plan prints it; the benchmark builds its pods from it.
import type { Settings } from '../settings/settings.js'

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
