// Benchmark pairing (fixed rounds of disjoint pairs, two partners per node, per-device ports) and
// analysis (line-rate and median rules, outliers named as node, node/NIC or pair).

import {
  analyseBenchmark,
  toReportBenchmark,
  type BenchMeasurement
} from '../../../src/benchmark/analysis.js'
import { outlierName } from '../../../src/util/outliers.js'
import { devicePairs, fleetSchedule, pairScope, type PairSchedule } from '../../../src/benchmark/pairing.js'
import { naturalCompare } from '../../../src/util/compare.js'

const names = (n: number) => Array.from({ length: n }, (_, i) => `aks-rdma-${String(i).padStart(3, '0')}`)

function checkSchedule(s: PairSchedule, nodes: string[]): void {
  for (const round of s.rounds) {
    const seen = round.flatMap(p => [p.server, p.client])
    expect(new Set(seen).size).toBe(seen.length) // disjoint within a round
  }
  const edges = s.rounds.flat().map(p => [p.server, p.client].sort().join('|'))
  expect(new Set(edges).size).toBe(edges.length) // no pair measured twice
  for (const n of nodes) expect(s.partners[n].length).toBeGreaterThanOrEqual(1)
}

describe('fleet pairing', () => {
  it('measures 64 nodes in 2 rounds; every node in every round, with 2 different partners', () => {
    const nodes = names(64)
    const s = fleetSchedule(nodes)
    expect(s.rounds).toHaveLength(2)
    checkSchedule(s, nodes)
    for (const round of s.rounds) {
      expect(round).toHaveLength(32)
      expect(new Set(round.flatMap(p => [p.server, p.client]))).toEqual(new Set(nodes))
    }
    for (const n of nodes) expect(new Set(s.partners[n]).size).toBe(2)
    expect(s.unpaired).toEqual([])
    expect(s.rounds[0][0]).toEqual({ round: 1, server: nodes[0], client: nodes[1] })
    expect(s.rounds[1][0]).toEqual({ round: 2, server: nodes[1], client: nodes[2] })
    expect(s.rounds[1][31]).toEqual({ round: 2, server: nodes[63], client: nodes[0] })
  })

  it('keeps the number of rounds fixed whatever the fleet size', () => {
    for (const n of [4, 10, 64, 256, 1000]) expect(fleetSchedule(names(n)).rounds).toHaveLength(2)
    for (const n of [3, 5, 7, 63, 999]) {
      const nodes = names(n)
      const s = fleetSchedule(nodes)
      expect(s.rounds).toHaveLength(3)
      checkSchedule(s, nodes)
      // rounds 1 and 2 leave exactly one node idle each (the best an odd fleet allows)
      expect(s.rounds[0].length * 2).toBe(n - 1)
      expect(s.rounds[1].length * 2).toBe(n - 1)
      for (const node of nodes) expect(new Set(s.partners[node]).size).toBe(2)
    }
  })

  it('is deterministic: input order and duplicates do not matter', () => {
    const nodes = names(12)
    const shuffled = [...nodes].reverse().concat(nodes[3])
    expect(fleetSchedule(shuffled)).toEqual(fleetSchedule(nodes))
  })

  it('handles tiny fleets', () => {
    expect(fleetSchedule([]).rounds).toEqual([])
    expect(fleetSchedule(['a'])).toMatchObject({ rounds: [], unpaired: ['a'] })
    expect(fleetSchedule(['b', 'a']).rounds).toEqual([[{ round: 1, server: 'a', client: 'b' }]])
  })

  it('pair scope takes the first two nodes in natural order', () => {
    const s = pairScope(['node-10', 'node-2', 'node-1'])
    expect(s.rounds).toEqual([[{ round: 1, server: 'node-1', client: 'node-2' }]])
    expect(s.unpaired).toEqual(['node-10'])
    expect(pairScope(['only']).rounds).toEqual([])
  })

  it('pairs device i with device i on port 18515+i', () => {
    const devs = Array.from({ length: 10 }, (_, i) => `mlx5_ib${i}`)
    const pairs = devicePairs([...devs].reverse(), devs)
    expect(pairs).toHaveLength(10)
    expect(pairs[2]).toEqual({ index: 2, serverDevice: 'mlx5_ib2', clientDevice: 'mlx5_ib2', port: 18517 })
    expect(pairs[9]).toEqual({ index: 9, serverDevice: 'mlx5_ib9', clientDevice: 'mlx5_ib9', port: 18524 })
    expect(devicePairs(['mlx5_0', 'mlx5_1'], ['mlx5_0']).map(p => p.port)).toEqual([18515])
    expect(['mlx5_10', 'mlx5_2', 'mlx5_1'].sort(naturalCompare)).toEqual(['mlx5_1', 'mlx5_2', 'mlx5_10'])
  })
})

/** Measurements for every scheduled pair and device; `bw` picks the result of each. */
function measure(
  schedule: PairSchedule,
  devices: Array<string | null>,
  bw: (server: string, client: string, device: string | null) => number | null,
  link = 200
): BenchMeasurement[] {
  return schedule.rounds.flat().flatMap(p =>
    devices.map(device => ({
      server: p.server,
      client: p.client,
      device,
      test: 'ib_write_bw',
      bwAvgGbps: bw(p.server, p.client, device),
      bwPeakGbps: null,
      linkGbps: link
    }))
  )
}

describe('benchmark analysis', () => {
  const nodes = names(8)
  const ring = fleetSchedule(nodes)

  it('names a degraded node: slow with both partners', () => {
    const bad = nodes[3]
    const a = analyseBenchmark(
      measure(ring, [null], (s, c) => (s === bad || c === bad ? 120 : 196.5)),
      { minBandwidthRatio: 0.9 }
    )
    expect(a.verdict).toBe('fail')
    expect(a.outliers.map(outlierName)).toEqual([bad])
    const view = a.nodes.find(n => n.node === bad)!
    expect(view).toMatchObject({ verdict: 'fail', blamed: true, bandwidthGbps: 120, ratio: 0.6, failing: 2 })
    // its neighbours were slow only with it: they pass and their own bandwidth is not dragged down
    for (const n of [nodes[2], nodes[4]]) {
      const v = a.nodes.find(x => x.node === n)!
      expect(v).toMatchObject({ verdict: 'pass', failing: 1, bandwidthGbps: 196.5, worstGbps: 120 })
      expect(v.detail).toContain(`slow only with outlier partner(s) ${bad}`)
    }
    expect(a.nodes[0].node).toBe(bad) // worst first
    expect(a.outputs.bandwidthGbps).toBe('120.00')
    expect(a.summary).toContain(bad)
  })

  it('names a node slow in bandwidth even when its latency with the same partners is fine (blame per test)', () => {
    const bad = nodes[3]
    const bw = measure(ring, [null], (s, c) => (s === bad || c === bad ? 120 : 196.5))
    const lat: BenchMeasurement[] = ring.rounds.flat().map(p => ({
      server: p.server,
      client: p.client,
      test: 'ib_write_lat',
      device: null,
      bwAvgGbps: null,
      bwPeakGbps: null,
      linkGbps: 200,
      tTypicalUs: 1.6,
      tAvgUs: 1.7
    }))
    const a = analyseBenchmark([...bw, ...lat], { minBandwidthRatio: 0.9 })
    expect(a.outliers.map(outlierName)).toEqual([bad])
    expect(a.nodes.find(n => n.node === bad)).toMatchObject({ verdict: 'fail', blamed: true })
  })

  it('names one bad NIC as node/mlx5_ibN', () => {
    const devices = Array.from({ length: 8 }, (_, i) => `mlx5_ib${i}`)
    const bad = nodes[5]
    const a = analyseBenchmark(
      measure(ring, devices, (s, c, d) => ((s === bad || c === bad) && d === 'mlx5_ib3' ? 97 : 195)),
      { minBandwidthRatio: 0.9 }
    )
    expect(a.outliers.map(outlierName)).toEqual([`${bad}/mlx5_ib3`])
    expect(a.nodes.find(n => n.node === bad)).toMatchObject({
      verdict: 'fail',
      blamed: false,
      badDevices: ['mlx5_ib3']
    })
    expect(a.measurements.filter(m => m.verdict === 'fail')).toHaveLength(2)
  })

  it('names a slow link when neither end is slow with its other partner', () => {
    const [x, y] = [nodes[0], nodes[1]]
    const a = analyseBenchmark(
      measure(ring, [null], (s, c) => ((s === x && c === y) || (s === y && c === x) ? 100 : 195)),
      { minBandwidthRatio: 0.9 }
    )
    expect(a.outliers.map(outlierName)).toEqual([`${x} ↔ ${y}`])
    expect(a.nodes.filter(n => n.verdict === 'fail')).toEqual([])
    expect(
      a.nodes
        .filter(n => n.verdict === 'warn')
        .map(n => n.node)
        .sort()
    ).toEqual([x, y])
  })

  it('fails a measurement far below the fleet median even above the line-rate floor', () => {
    const slow = nodes[6]
    const a = analyseBenchmark(
      measure(ring, [null], (s, c) => (s === slow || c === slow ? 140 : 195)),
      { minBandwidthRatio: 0.5 }
    )
    expect(a.medianGbps.ib_write_bw).toBe(195)
    expect(a.outliers.map(outlierName)).toEqual([slow])
    const failed = a.measurements.find(m => m.verdict === 'fail')!
    expect(failed.reasons.join()).toMatch(/fleet median 195/)
    expect(failed.ratio).toBe(0.7)
  })

  it('passes a healthy fleet and reports the lowest bandwidth and worst typical latency', () => {
    const bw = measure(ring, [null], (s, c) => 190 + ((s.length + c.length) % 3))
    const lat: BenchMeasurement[] = ring.rounds.flat().map((p, i) => ({
      server: p.server,
      client: p.client,
      device: null,
      test: 'ib_read_lat',
      bwAvgGbps: null,
      bwPeakGbps: null,
      linkGbps: 200,
      tTypicalUs: 5.4 + i / 100,
      tAvgUs: 5.5
    }))
    const a = analyseBenchmark([...bw, ...lat], { minBandwidthRatio: 0.9 })
    expect(a.verdict).toBe('pass')
    expect(a.outliers.map(outlierName)).toEqual([])
    expect(a.outputs.bandwidthGbps).toBe(Math.min(...bw.map(m => m.bwAvgGbps!)).toFixed(2))
    expect(a.outputs.latencyUs).toBe((5.4 + (lat.length - 1) / 100).toFixed(2))
    expect(a.nodes.every(n => n.verdict === 'pass')).toBe(true)
  })

  it('counts a perftest failure as a failing measurement, and bidirectional against twice the line rate', () => {
    const pair = pairScope(nodes)
    const a = analyseBenchmark(
      [
        { ...measure(pair, ['mlx5_ib0'], () => null)[0], error: "Couldn't connect to 10.0.0.5:18515" },
        { ...measure(pair, ['mlx5_ib1'], () => 390)[0], bidirectional: true }
      ],
      { minBandwidthRatio: 0.9 }
    )
    expect(a.measurements[0]).toMatchObject({
      verdict: 'fail',
      reasons: ["perftest failed: Couldn't connect to 10.0.0.5:18515"]
    })
    expect(a.measurements[1]).toMatchObject({ verdict: 'pass', ratio: 0.975 })
    // only two nodes: the slow device cannot be pinned on either end
    expect(a.outliers.map(outlierName)).toEqual([`${nodes[0]}/mlx5_ib0 ↔ ${nodes[1]}/mlx5_ib0`])
  })

  it('converts to the report section', () => {
    const a = analyseBenchmark(
      measure(ring, [null], () => 195),
      { minBandwidthRatio: 0.9 }
    )
    const section = toReportBenchmark(a, { scope: 'fleet', minBandwidthRatio: 0.9 })
    expect(section.pairs).toHaveLength(8)
    expect(section.pairs[0]).toMatchObject({
      test: 'ib_write_bw',
      bwAvgGbps: 195,
      linkGbps: 200,
      ratio: 0.975,
      verdict: 'pass'
    })
    expect(section.nodes).toHaveLength(8)
    expect(section.scope).toBe('fleet')
  })
})
