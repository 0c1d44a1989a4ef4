// A busy pool (perftest pods unschedulable for want of GPUs or RDMA devices) is told apart from a
// slow link: the classification of the scheduler's message, and the analysis blaming no one for it.
import { describe, expect, it } from '@jest/globals'
import {
  analyseBenchmark,
  toReportBenchmark,
  type BenchMeasurement
} from '../../../src/benchmark/analysis.js'
import { busyReason, busyResource } from '../../../src/benchmark/busy.js'
import { outlierReasons } from '../../../src/report/benchmark-summary.js'

const RESOURCES = ['nvidia.com/gpu', 'rdma/hca_shared_devices_a']
const GPU_SHORT =
  'server pod unschedulable: 0/2 nodes are available: 2 Insufficient nvidia.com/gpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.'

describe('busyResource', () => {
  it('names the GPU or RDMA resource an unschedulable pod was short of', () => {
    expect(busyResource(GPU_SHORT, RESOURCES)).toBe('nvidia.com/gpu')
    expect(
      busyResource(
        "client pod unschedulable: 0/4 nodes are available: 2 Insufficient rdma/hca_shared_devices_a, 2 node(s) didn't match Pod's node affinity/selector.",
        RESOURCES
      )
    ).toBe('rdma/hca_shared_devices_a')
  })

  it('is not a busy pool: another unschedulable reason, another resource, or a perftest error', () => {
    expect(
      busyResource(
        'server pod unschedulable: 0/2 nodes are available: 2 node(s) had untolerated taint {sku: gpu}.',
        RESOURCES
      )
    ).toBeUndefined()
    expect(
      busyResource('server pod unschedulable: 0/2 nodes are available: 2 Insufficient memory.', RESOURCES)
    ).toBeUndefined()
    expect(busyResource('Insufficient nvidia.com/gpu', RESOURCES)).toBeUndefined()
    expect(busyResource("Couldn't connect to 10.0.0.4:18515", RESOURCES)).toBeUndefined()
    expect(busyResource(null, RESOURCES)).toBeUndefined()
  })
})

describe('a busy measurement in the analysis', () => {
  const m = (server: string, client: string, device: string): BenchMeasurement => ({
    server,
    client,
    device,
    test: 'ib_write_bw',
    bwAvgGbps: null,
    bwPeakGbps: null,
    linkGbps: 200,
    error: GPU_SHORT,
    busy: true
  })

  it('fails, but names no slow link, NIC or node', () => {
    const input = [
      m('a', 'b', 'mlx5_ib0'),
      m('a', 'b', 'mlx5_ib1'),
      m('b', 'c', 'mlx5_ib0'),
      m('c', 'a', 'mlx5_ib0')
    ]
    const a = analyseBenchmark(input, { minBandwidthRatio: 0.9 })
    expect(a.verdict).toBe('fail')
    expect(a.outliers).toEqual([])
    expect(a.measurements.map(x => x.reasons[0])).toEqual(input.map(() => `pool busy: ${GPU_SHORT}`))
    expect(a.nodes.every(n => !n.blamed && n.detail.includes('busy'))).toBe(true)
    const report = toReportBenchmark(a)
    expect(report.pairs.every(p => p.busy === true && p.verdict === 'fail')).toBe(true)
    expect(outlierReasons(report)).toBeUndefined()
  })

  it('the same measurements failing without the busy mark are named slow links (the old headline)', () => {
    const input = [m('a', 'b', 'mlx5_ib0')].map(x => ({ ...x, busy: false }))
    const a = analyseBenchmark(input, { minBandwidthRatio: 0.9 })
    expect(outlierReasons(toReportBenchmark(a))).toMatch(/slow link/)
  })
})

describe('busyReason', () => {
  it('lists the holders per node and what still runs on a pool in use', () => {
    const text = busyReason('nvidia.com/gpu', [
      { node: 'node-0', namespace: 'ml', name: 'trainer-0' },
      { node: 'node-1', namespace: 'ml', name: 'trainer-1' }
    ])
    expect(text).toContain('ml/trainer-0 on node-0')
    expect(text).toContain('ml/trainer-1 on node-1')
    expect(text).toContain('benchmark: false')
    expect(text).not.toMatch(/slow/)
  })
})
