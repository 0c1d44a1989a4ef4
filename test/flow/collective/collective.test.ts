// The collective check against the simulated cluster: nccl-tests pods the action creates (all GPUs
// and rdma/<name> each, the ssh Secret and the ND v5 topology ConfigMap), NCCL's own table and
// INFO lines read back. A healthy ND H100 v5 pool passes as ib-gdr above both pass marks; then each
// way NCCL's path breaks while perftest still passes, each made by a scenario key of the world:
// an admission policy stripping rdma/<name> from the NCCL pods only (socket), GPU memory that
// cannot be registered (ib, host-staged), a degraded NIC (ib-gdr, low busbw, the NIC named), a
// degraded NVLink (the node named). Nothing the check created is left behind.
import { beforeAll, describe, expect, it, jest } from '@jest/globals'
import { runCollectiveCheck } from '../../../src/collective/runner.js'
import type { Settings } from '../../../src/settings/settings.js'
import type { NodeFacts } from '../../../src/verify/probe-output.js'
import {
  expectPerftestPasses,
  probeFacts,
  rdmaWorldForTests,
  withRdmaWorld,
  workPods,
  type RdmaWorld
} from '../../support/verify-world.js'

jest.setTimeout(300_000)

const H100 = 'Standard_ND96isr_H100_v5'
const IMAGE = 'ghcr.io/azure/aks-rdma-infiniband/nccl-tests:latest'

/** What the check created and must have deleted: pods, its Secret, its ConfigMap. */
function leftovers(w: RdmaWorld): string[] {
  const kinds = ['pods', 'secrets', 'configmaps']
  return kinds.flatMap(k => {
    const t = w.sim.store.type('', k)!
    return (
      w.sim.store.list(t, { namespace: 'aks-rdma-verify' }).items as Array<{ metadata: { name: string } }>
    )
      .map(o => `${k}/${o.metadata.name}`)
      .filter(n => n.includes('nccl-'))
  })
}

async function check(w: RdmaWorld, f: Map<string, NodeFacts>, s: Settings = w.settings) {
  const run = await runCollectiveCheck({ settings: s, kube: w.kube, facts: f })
  expect(leftovers(w)).toEqual([])
  return run
}

describe('a healthy ND H100 v5 pair, and the NCCL pods stripped of rdma/<name>', () => {
  const w = rdmaWorldForTests({
    nodes: 2,
    vmSize: H100,
    inputs: { 'vm-size': H100, 'collective-check': 'nccl' },
    scenario: {
      kube: { mutatePods: [{ image: 'nccl-tests:nordma', dropResources: ['rdma/hca_shared_devices_a'] }] }
    }
  })
  let f: Map<string, NodeFacts>
  beforeAll(async () => {
    f = await probeFacts(w)
  })

  it('passes as ib-gdr above both marks, every size in the report, per node results', async () => {
    const run = await check(w, f)
    const c = run.collective
    expect(c).toMatchObject({
      check: 'nccl',
      mode: 'ib-gdr',
      verdict: 'pass',
      passMarkGBps: 360,
      network: 'IB'
    })
    expect(c.busbwGBps).toBeGreaterThan(360)
    expect(c.sizes.map(x => x.bytes)).toEqual([1, 4, 16, 64, 256, 1024, 4096, 16384].map(m => m * 1024 ** 2))
    expect(c.ibDevices).toHaveLength(8)
    expect(c.ncclEnv.NCCL_TOPO_FILE).toBe('/opt/aks-rdma-action/topology/ndv5-topo.xml')
    expect(c.pair).toEqual({ launcher: w.rdmaNodes()[0], worker: w.rdmaNodes()[1] })
    expect(c.nodes.map(n => [n.node, n.gpus, n.verdict, n.passMarkGBps])).toEqual([
      [w.rdmaNodes()[0], 8, 'pass', 460],
      [w.rdmaNodes()[1], 8, 'pass', 460]
    ])
    expect(c.nodes.every(n => n.busbwGBps! > 460)).toBe(true)
  })

  it('the pods admitted without rdma/<name>: socket, failed, naming the pods and the policy, while perftest passes', async () => {
    const s: Settings = {
      ...w.settings,
      collective: { ...w.settings.collective, image: `${IMAGE.split(':')[0]}:nordma` }
    }
    const run = await check(w, f, s)
    const c = run.collective
    expect(c.mode).toBe('socket')
    expect(c.verdict).toBe('fail')
    expect(c.reason).toContain('admitted without rdma/hca_shared_devices_a')
    expect(c.reason).toContain(c.nodes[0].pod)
    expect(c.fix).toContain('admission policy')
    expect(c.busbwGBps).toBeLessThan(10)
    await expectPerftestPasses(w, f, { ...w.settings, benchmark: { ...w.settings.benchmark, enabled: true } })
    expect(workPods(w)).toHaveLength(0)
  })
})

describe('a pair whose GPU memory cannot be registered, one with a degraded NIC and NVLink', () => {
  it('no nvidia_peermem and no dma-buf: ib through host memory, failed, with the fix', () =>
    withRdmaWorld(
      {
        nodes: 2,
        vmSize: H100,
        inputs: { 'vm-size': H100, 'collective-check': 'nccl' },
        scenario: { nodes: { peermemFails: [0, 1], dmabuf: false } }
      },
      async w => {
        const c = (await check(w, await probeFacts(w))).collective
        expect(c.mode).toBe('ib')
        expect(c.verdict).toBe('fail')
        expect(c.gpudirect).toBeNull()
        expect(c.reason).toContain('through host memory')
        expect(c.fix).toContain('nvidia_peermem')
        expect(c.busbwGBps).toBeLessThan(c.passMarkGBps!)
      }
    ))

  it('a NIC at 100 Gb/s: ib-gdr but below the mark, naming the NIC; a degraded NVLink names its node', () =>
    withRdmaWorld(
      {
        nodes: 2,
        vmSize: H100,
        inputs: { 'vm-size': H100, 'collective-check': 'nccl' },
        scenario: { nodes: { degraded: [{ index: 1, nic: 3, gbps: 100 }], nvlinkDegraded: [0] } }
      },
      async w => {
        const f = await probeFacts(w)
        const c = (await check(w, f)).collective
        expect(c.mode).toBe('ib-gdr')
        expect(c.verdict).toBe('fail')
        expect(c.busbwGBps).toBeLessThan(360)
        expect(c.reason).toMatch(new RegExp(`${w.rdmaNodes()[1]}/mlx5_\\w+ \\(100 Gb/s\\)`))
        expect(c.nodes.map(n => [n.node, n.verdict])).toEqual([
          [w.rdmaNodes()[0], 'fail'],
          [w.rdmaNodes()[1], 'pass']
        ])
        expect(c.nodes[0].reason).toContain(`on ${w.rdmaNodes()[0]} is degraded`)
        expect(c.nodes[0].busbwGBps).toBeLessThan(460)
      }
    ))
})
