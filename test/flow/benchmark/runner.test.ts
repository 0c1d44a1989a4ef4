// The benchmark runner against the simulated cluster: pair scope over all NICs with GPUDirect,
// each NIC with its NIC-local GPU on both sides (the CUDA devices in every measurement); a wrong
// NIC↔GPU pairing fails on ND H100 v5 as it would on hardware; a degraded NIC named
// node/mlx5_ibN; a degraded node named an outlier in fleet scope; 64 nodes in a fixed number of
// rounds and an odd fleet in three, no node ever serving two pairs at once (the simulator notes a
// node that does, and splits its NIC's bandwidth among the runs through it); a perftest image without CUDA detected and replaced by a host-memory run; missing
// nvidia_peermem failing every GPU measurement, as perftest does; GPUDirect by nvidia_peermem and by
// DMA-BUF each passing; and no benchmark pod left behind, also when the run
// times out.
import { describe, expect, it, jest } from '@jest/globals'
import { runBenchmark } from '../../../src/benchmark/runner.js'
import { deriveResult, emptyReport } from '../../../src/report/report.js'
import { renderSummary } from '../../../src/report/summary.js'
import { renderReportText } from '../../../src/report/text.js'
import {
  holdEveryGpu,
  ibDevices,
  rdmaWorldForTests,
  requestStats,
  verifyOn,
  withRdmaWorld,
  workPods,
  type RdmaWorldOptions
} from '../../support/verify-world.js'

jest.setTimeout(300_000)

/** A fleet-scope world of `nodes` HB120rs v3 nodes (one NIC each, no GPU). */
const fleetWorld = (nodes: number, scenario?: Record<string, unknown>): RdmaWorldOptions => ({
  nodes,
  vmSize: 'Standard_HB120rs_v3',
  inputs: { 'benchmark-scope': 'fleet' },
  ...(scenario ? { scenario } : {})
})

describe.each(['peermem', 'dmabuf'])('pair scope on a healthy A100 pool, gpudirect %s', gpudirect => {
  const w = rdmaWorldForTests({ nodes: 3, inputs: { 'benchmark-scope': 'pair', gpudirect } })

  it('measures all 8 NIC pairs with GPUDirect, bandwidth and latency, as fractions of the line rate', async () => {
    const v = await verifyOn(w)
    // What the nodes show: the path the mode asks for (dmabuf: the open kernel modules, no peermem sidecar).
    expect(v.gpudirect).toMatchObject({
      mode: gpudirect,
      path: gpudirect === 'dmabuf' ? 'dma-buf' : 'nvidia_peermem'
    })
    expect(v.checks.find(c => c.name === 'node-probe')?.status).toBe('pass')
    w.recorder.reset()
    const run = await runBenchmark({ settings: w.settings, kube: w.kube, facts: v.facts })
    expect(run.verdict).toBe('pass')
    expect(run.rounds).toBe(1)
    expect(run.gpudirect).toBe('on')
    expect(run.gpudirectDetail).toMatch(gpudirect === 'dmabuf' ? /DMA-BUF/ : /nvidia_peermem loaded/)
    expect(run.lineRateGbps).toBe(200)
    const [a, b] = w.rdmaNodes()
    const bw = run.pairs.filter(p => p.test === 'ib_write_bw')
    const lat = run.pairs.filter(p => p.test === 'ib_write_lat')
    expect(bw.map(p => p.device)).toEqual(ibDevices(8))
    expect(lat).toHaveLength(8)
    const minimum = w.settings.benchmark.minBandwidthRatio
    for (const p of bw) {
      expect(p).toMatchObject({ server: a, client: b, linkGbps: 200, verdict: 'pass', reasons: [] })
      // the ratio is the measured bandwidth over the line rate, and passing means it meets the minimum
      expect(p.ratio).toBe(Math.round((p.bwAvgGbps! / 200) * 10_000) / 10_000)
      expect(p.ratio!).toBeGreaterThanOrEqual(minimum)
    }
    // Latency from host memory, the only memory perftest's write latency takes: every pair measured.
    for (const p of lat)
      expect(p).toMatchObject({ verdict: 'pass', reasons: [], tTypicalUs: expect.any(Number) })
    expect(lat.map(p => p.cuda)).toEqual(Array(8).fill(undefined))
    // Bandwidth: each NIC with the GPU local to it (ND A100 v4: NIC i and GPU i share a PCIe switch) on both sides.
    expect(bw.map(p => p.cuda)).toEqual(
      bw.map(p => ({ server: Number(p.device!.slice(-1)), client: Number(p.device!.slice(-1)) }))
    )
    // the outputs: the slowest pair's bandwidth and the worst typical latency
    expect(run.bandwidthGbps).toBe(Math.min(...bw.map(p => p.bwAvgGbps!)).toFixed(2))
    expect(run.latencyUs).toBe(Math.max(...lat.map(p => p.tTypicalUs!)).toFixed(2))
    expect(run.outliers).toEqual([])
    expect(workPods(w)).toHaveLength(0)
    // One server and one client pod per test (one container each; the bandwidth pods hold the node's 8 GPUs).
    expect(requestStats(w).byResource['POST pods']).toBe(4)
    // One log read per client pod, whatever the NIC count.
    expect(w.recorder.records.filter(r => r.path.endsWith('/log'))).toHaveLength(2)
  })

  it('probes by itself when given no facts', async () => {
    const run = await runBenchmark({ settings: w.settings, kube: w.kube })
    expect(run.verdict).toBe('pass')
    expect(run.gpudirect).toBe('on')
    expect(run.pairs).toHaveLength(16)
    expect(workPods(w)).toHaveLength(0)
  })

  it('deletes every pod even when its waits time out, and says what did not finish', async () => {
    const v = await verifyOn(w)
    const run = await runBenchmark({ settings: w.settings, kube: w.kube, facts: v.facts, timeoutMs: 1 })
    expect(run.verdict).toBe('fail')
    expect(run.pairs.length).toBeGreaterThan(0)
    expect(run.pairs.every(p => p.verdict === 'fail')).toBe(true)
    expect(run.pairs[0].reasons!.join(' ')).toMatch(/did not (start|finish) within/)
    expect(workPods(w)).toHaveLength(0)
  })
})

describe('a busy pool: workload pods hold every GPU', () => {
  it('names the pool busy and the pods holding its GPUs, never a slow link', () =>
    withRdmaWorld({ nodes: 2, inputs: { 'benchmark-scope': 'pair' } }, async w => {
      const holders = await holdEveryGpu(w)
      // The read-only checks and the node probe still run on a busy pool.
      const v = await verifyOn(w)
      expect(v.facts?.size).toBe(2)
      const run = await runBenchmark({ settings: w.settings, kube: w.kube, facts: v.facts })
      expect(run.verdict).toBe('fail')
      expect(run.outliers).toEqual([])
      expect(run.report.busy?.holders).toEqual(
        holders.map(h => ({ node: h.node, namespace: 'default', name: h.name }))
      )
      // The GPUDirect bandwidth pods need the GPUs and cannot be placed; host-memory latency still runs.
      const bw = run.pairs.filter(p => p.test === 'ib_write_bw')
      expect(bw).toHaveLength(8)
      for (const p of bw) expect(p).toMatchObject({ verdict: 'fail', busy: true })
      expect(bw[0].reasons?.[0]).toContain('Insufficient nvidia.com/gpu')
      expect(run.summary).toContain('busy')
      for (const h of holders) expect(run.summary).toContain(`default/${h.name}`)
      expect(workPods(w)).toHaveLength(0)

      const report = { ...emptyReport('verify'), benchmark: run.report }
      report.result = deriveResult(report)
      expect(report.result).toBe('failure')
      for (const out of [renderSummary(report), renderReportText(report)]) {
        expect(out).toContain('busy')
        for (const h of holders) expect(out).toContain(`default/${h.name}`)
        expect(out).not.toMatch(/slow link|slow NIC|slow node/)
      }
      // The grid marks the unmeasured NICs as not run, not as below the pass mark.
      expect(renderSummary(report)).toContain('⏸️ not run: the pool is busy')
    }))
})

describe('degraded hardware', () => {
  it('pair scope: one slow NIC is named node/mlx5_ibN and fails the run', () =>
    withRdmaWorld(
      {
        nodes: 2,
        scenario: { nodes: { degraded: [{ index: 1, nic: 3, gbps: 100 }], noInfiniband: [] } }
      },
      async w => {
        const run = await runBenchmark({ settings: w.settings, kube: w.kube })
        const bad = w.rdmaNodes()[1]
        expect(run.verdict).toBe('fail')
        expect(run.outliers).toEqual([`${bad}/mlx5_ib3`])
        const slow = run.pairs.filter(p => p.test === 'ib_write_bw' && p.verdict === 'fail')
        expect(slow.map(p => p.device)).toEqual(['mlx5_ib3'])
        // it fails on the action's rule: its bandwidth is under the minimum fraction of the line rate
        expect(slow[0].ratio!).toBeLessThan(w.settings.benchmark.minBandwidthRatio)
        const minimum = Math.round(w.settings.benchmark.minBandwidthRatio * 100)
        expect(slow[0].reasons!.join(' ')).toContain(
          `${slow[0].bwAvgGbps} Gb/s is ${Math.round(slow[0].ratio! * 100)}% of the 200 Gb/s line rate (minimum ${minimum}%)`
        )
        expect(run.summary).toMatch(new RegExp(`outliers: ${bad}/mlx5_ib3`))
        expect(workPods(w)).toHaveLength(0)
      }
    ))

  it('fleet scope: a slow node is an outlier in both its pairs, its neighbours are not', () =>
    withRdmaWorld(
      fleetWorld(6, { nodes: { degraded: [{ index: 2, gbps: 100 }], noInfiniband: [] } }),
      async w => {
        const run = await runBenchmark({ settings: w.settings, kube: w.kube })
        const nodes = w.rdmaNodes()
        expect(run.rounds).toBe(2)
        expect(run.verdict).toBe('fail')
        expect(run.outliers).toEqual([nodes[2]])
        expect(w.sim.controllers.perftest.doubleBooked).toEqual([])
        const view = run.report.nodes!
        expect(view.find(n => n.node === nodes[2])!.verdict).toBe('fail')
        expect(view.filter(n => n.verdict === 'fail').map(n => n.node)).toEqual([nodes[2]])
        expect(run.gpudirect).toBe('off')
        expect(workPods(w)).toHaveLength(0)
      }
    ))
})

describe('GPUDirect', () => {
  it.each([
    // perftest 23.07 and later know --use_cuda in every build and refuse it without CUDA.
    ['ghcr.io/example/perftest-nocuda:24.04', /no CUDA support \(Unsupported memory type\).*host memory/],
    // Before 23.07 a build without CUDA has no such option.
    [
      'ghcr.io/example/perftest-nocuda:4.5-0.17',
      /no CUDA support \(.*unrecognized option '--use_cuda=0'\).*host memory/
    ]
  ])(
    'a perftest without CUDA (%s) is detected, reported, and replaced by a host-memory run',
    (image, detail) =>
      withRdmaWorld({ nodes: 2, inputs: { 'benchmark-image': image } }, async w => {
        const run = await runBenchmark({ settings: w.settings, kube: w.kube })
        expect(run.gpudirect).toBe('unsupported')
        expect(run.gpudirectDetail).toMatch(detail)
        expect(run.verdict).toBe('warn')
        expect(run.pairs.filter(p => p.test === 'ib_write_bw')).toHaveLength(8)
        expect(run.pairs.every(p => p.verdict === 'pass')).toBe(true)
        expect(run.phases).toBe(3) // bw with --use_cuda (rejected by the servers), bw from host memory, lat from host memory
        expect(workPods(w)).toHaveLength(0)
      })
  )

  it('without nvidia_peermem perftest cannot register GPU memory: reported, every bandwidth pair fails', () =>
    withRdmaWorld({ nodes: 2, inputs: { 'use-host-mofed': 'true' } }, async w => {
      const run = await runBenchmark({ settings: w.settings, kube: w.kube })
      expect(run.gpudirect).toBe('host-staged')
      expect(run.gpudirectDetail).toMatch(/nvidia_peermem not loaded on/)
      expect(run.verdict).toBe('fail')
      // every bandwidth pair fails: ibv_reg_mr on GPU memory fails without the peer-memory client
      const bw = run.pairs.filter(p => p.test === 'ib_write_bw')
      expect(bw.map(p => [p.verdict, p.bwAvgGbps])).toEqual(Array(8).fill(['fail', null]))
      expect(bw[0].reasons?.join(' ')).toMatch(/Couldn't allocate MR/)
    }))
})

describe('GPU–NIC locality on ND H100 v5', () => {
  it('each NIC with its NIC-local GPU passes; the same run with the GPUs paired wrongly fails', () =>
    withRdmaWorld(
      {
        nodes: 2,
        vmSize: 'Standard_ND96isr_H100_v5',
        inputs: { 'benchmark-scope': 'pair' }
      },
      async w => {
        const v = await verifyOn(w)
        const f = v.facts!.get(w.rdmaNodes()[0])!
        // Azure's ND H100 v5 layout: GPUs 0001/0002/0003/0008 with NICs 0101–0104 on NUMA 0, the rest on NUMA 1.
        expect(f.gpus.map(g => [g.pciAddress, g.numaNode])).toEqual([
          ['0001:00:00.0', 0],
          ['0002:00:00.0', 0],
          ['0003:00:00.0', 0],
          ['0008:00:00.0', 0],
          ['0009:00:00.0', 1],
          ['000a:00:00.0', 1],
          ['000b:00:00.0', 1],
          ['000c:00:00.0', 1]
        ])
        expect(f.nics.map(n => [n.device, n.pciAddress, n.localGpu])).toEqual(
          f.activeDevices.map((d, i) => [d, `010${i + 1}:00:00.0`, i])
        )
        const good = await runBenchmark({ settings: w.settings, kube: w.kube, facts: v.facts })
        expect(good.verdict).toBe('pass')
        expect(good.lineRateGbps).toBe(400)
        const gdr = good.pairs.filter(p => p.test === 'ib_write_bw')
        expect(gdr.map(p => p.cuda)).toEqual([0, 1, 2, 3, 4, 5, 6, 7].map(i => ({ server: i, client: i })))
        expect(gdr.every(p => p.ratio! >= 0.9)).toBe(true)

        // Pair each NIC with the next GPU instead (another PCIe switch, or the other socket).
        const wrong = new Map(
          [...v.facts!].map(([node, x]) => [
            node,
            { ...x, nics: x.nics.map(n => ({ ...n, localGpu: ((n.localGpu ?? 0) + 1) % 8 })) }
          ])
        )
        const bad = await runBenchmark({ settings: w.settings, kube: w.kube, facts: wrong })
        expect(bad.verdict).toBe('fail')
        const slow = bad.pairs.filter(p => p.test === 'ib_write_bw')
        expect(slow.every(p => p.verdict === 'fail' && p.ratio! < 0.9)).toBe(true)
        expect(slow.map(p => p.cuda)).toEqual([1, 2, 3, 4, 5, 6, 7, 0].map(i => ({ server: i, client: i })))
        expect(workPods(w)).toHaveLength(0)
      }
    ))
})

describe('fleet scope at scale', () => {
  it('64 nodes finish in 2 rounds of 32 disjoint pairs, every node measured against two others', () =>
    withRdmaWorld(fleetWorld(64), async w => {
      const v = await verifyOn(w)
      w.recorder.reset()
      const run = await runBenchmark({ settings: w.settings, kube: w.kube, facts: v.facts })
      expect(run.rounds).toBe(2)
      expect(run.schedule.rounds.map(r => r.length)).toEqual([32, 32])
      expect(run.phases).toBe(4)
      expect(run.verdict).toBe('pass')
      expect(Object.values(run.schedule.partners).every(p => p.length === 2)).toBe(true)
      expect(run.pairs.filter(p => p.test === 'ib_write_bw')).toHaveLength(64)
      const stats = requestStats(w)
      expect(stats.byResource['POST pods']).toBe(4 * 64) // per phase: 32 servers + 32 clients
      expect(stats.lists).toBeLessThan(20) // a list + a watch per wait, never per pod
      expect(w.sim.controllers.perftest.doubleBooked).toEqual([])
      expect(workPods(w)).toHaveLength(0)
    }))

  it('an odd fleet runs its closing edge in a third round: no node serves two pairs at once', () =>
    withRdmaWorld(fleetWorld(3), async w => {
      const run = await runBenchmark({ settings: w.settings, kube: w.kube })
      const n = w.rdmaNodes()
      // what the simulated nodes saw: each node with one partner at a time, every NIC at full rate
      expect(w.sim.controllers.perftest.doubleBooked).toEqual([])
      expect(run.verdict).toBe('pass')
      const bw = run.pairs.filter(p => p.test === 'ib_write_bw')
      expect(bw).toHaveLength(3)
      expect(bw.every(p => p.ratio! >= w.settings.benchmark.minBandwidthRatio)).toBe(true)
      expect(run.schedule.rounds.map(r => r.map(p => [p.server, p.client]))).toEqual([
        [[n[0], n[1]]],
        [[n[1], n[2]]],
        [[n[2], n[0]]]
      ])
      expect(workPods(w)).toHaveLength(0)
    }))
})
