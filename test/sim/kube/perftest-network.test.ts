// The perftest network's view of the ports: bandwidth runs through one NIC at the same time split
// its rate (as a bidirectional run does, about 1.04 × the one-way rate in all), by the time they
// overlap; latency runs take nothing; and a node whose pods talk to two different partners at
// once — a round whose pairs are not disjoint — is noted, while the eight NICs of one node pair
// running together are not.
import { describe, expect, it } from '@jest/globals'
import { checkPerftestArgv, perftestBuildOf } from '../../../sim/kube/workloads/perftest-params.js'
import {
  bwRows,
  PerftestNetwork,
  portShare,
  type PeerSide,
  type PerftestRun,
  type PerftestTool
} from '../../../sim/kube/workloads/perftest.js'

function run(
  tool: PerftestTool,
  client: [string, string],
  server: [string, string],
  start: number,
  end?: number,
  live = () => true
): PerftestRun {
  return {
    tool,
    client: { node: client[0], device: client[1] },
    server: { node: server[0], device: server[1] },
    start,
    ...(end === undefined ? {} : { end }),
    podsLive: live
  }
}

describe('bandwidth through a shared port', () => {
  it('a run alone gets its whole rate; two at once through one NIC get 0.52 each', () => {
    expect(portShare(1)).toBe(1)
    expect(portShare(2)).toBe(0.52)
    expect(portShare(4)).toBe(0.26)
    const net = new PerftestNetwork()
    const a = run('ib_write_bw', ['n1', 'mlx5_ib0'], ['n0', 'mlx5_ib0'], 0, 10_000)
    const b = run('ib_write_bw', ['n2', 'mlx5_ib0'], ['n1', 'mlx5_ib0'], 0, 10_000)
    const elsewhere = run('ib_write_bw', ['n4', 'mlx5_ib0'], ['n3', 'mlx5_ib0'], 0, 10_000)
    for (const r of [a, b, elsewhere]) net.connect(r)
    expect(net.shareOf(a, 10_000)).toBe(0.52)
    expect(net.shareOf(b, 10_000)).toBe(0.52)
    expect(net.shareOf(elsewhere, 10_000)).toBe(1)
  })

  it('by the time they overlap: half of the run shared, half alone', () => {
    const net = new PerftestNetwork()
    const a = run('ib_write_bw', ['n1', 'mlx5_ib0'], ['n0', 'mlx5_ib0'], 0, 10_000)
    const b = run('ib_write_bw', ['n2', 'mlx5_ib0'], ['n1', 'mlx5_ib0'], 5_000, 15_000)
    net.connect(a)
    net.connect(b)
    expect(net.shareOf(a, 10_000)).toBeCloseTo((0.52 + 1) / 2, 10)
    expect(net.shareOf(b, 15_000)).toBeCloseTo((0.52 + 1) / 2, 10)
  })

  it('another NIC of the same node, and latency runs, take nothing', () => {
    const net = new PerftestNetwork()
    const a = run('ib_write_bw', ['n1', 'mlx5_ib0'], ['n0', 'mlx5_ib0'], 0, 10_000)
    const otherNic = run('ib_write_bw', ['n1', 'mlx5_ib1'], ['n0', 'mlx5_ib1'], 0, 10_000)
    const lat = run('ib_write_lat', ['n2', 'mlx5_ib0'], ['n1', 'mlx5_ib0'], 0, 10_000)
    for (const r of [a, otherNic, lat]) net.connect(r)
    expect(net.shareOf(a, 10_000)).toBe(1)
  })

  it('the share scales the bandwidth table', () => {
    const argv = checkPerftestArgv(
      ['ib_write_bw', '-s', '8388608', '--report_gbits'],
      perftestBuildOf('perftest')
    )
    if (!argv.ok) throw new Error(argv.refusal.stderr)
    const o = argv.options
    const side = { nic: { gbps: 200 } } as unknown as PeerSide
    const alone = bwRows(o, side, side, 'seed')[0].avg
    const shared = bwRows(o, side, side, 'seed', portShare(2))[0].avg
    expect(shared / alone).toBeCloseTo(0.52, 2)
  })
})

describe('nodes in two pairs at once', () => {
  it('a node whose pods talk to two partners is noted; one node pair over eight NICs is not', () => {
    const pair = new PerftestNetwork()
    for (let i = 0; i < 8; i++)
      pair.connect(run('ib_write_bw', ['n1', `mlx5_ib${i}`], ['n0', `mlx5_ib${i}`], 0, 1000))
    expect(pair.doubleBooked).toEqual([])
    // the odd fleet's closing edge (n2 → n0) in the round of n1 → n2: n2 serves two pairs,
    // though the two runs did not overlap in time (their pods were both there)
    const round = new PerftestNetwork()
    round.connect(run('ib_write_bw', ['n2', 'mlx5_ib0'], ['n1', 'mlx5_ib0'], 5000, 6000))
    round.connect(run('ib_write_bw', ['n0', 'mlx5_ib0'], ['n2', 'mlx5_ib0'], 9000, 10_000))
    expect(round.doubleBooked).toEqual(['n2: n0 + n1'])
  })

  it('runs whose pods are gone (an earlier round, cleaned up) are not double-booking', () => {
    const net = new PerftestNetwork()
    let round1 = true
    net.connect(run('ib_write_bw', ['n1', 'mlx5_ib0'], ['n0', 'mlx5_ib0'], 0, 1000, () => round1))
    round1 = false // the round's pods were deleted before the next round began
    net.connect(run('ib_write_bw', ['n2', 'mlx5_ib0'], ['n1', 'mlx5_ib0'], 5000, 6000))
    expect(net.doubleBooked).toEqual([])
    expect(net.runs).toHaveLength(1)
  })
})
