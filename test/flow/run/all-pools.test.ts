// all-pools on the simulated cluster: the ownership record lists a second pool of another VM size
// (its pools.json key), and verify runs over both — the run's node-pool first, its results the report's
// top level as a single-pool run has them — each pool's checks over its own nodes, judged by its own
// VM size (the second pool's nodes are labelled with theirs, whatever the vm-size input says); the
// report adds a `pools` array; without all-pools the second pool is not looked at.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals'
import { deriveResult, emptyReport, type Report } from '../../../src/report/report.js'
import { verifyAndBenchmark } from '../../../src/run/cluster-phases.js'
import { verifyPools } from '../../../src/run/pools.js'
import { OWNERSHIP_RECORD } from '../../../src/stack/ownership.js'
import { startRdmaWorld, type RdmaWorld } from '../../support/verify-world.js'

jest.setTimeout(240_000)

const OTHER = 'gpub'
const OTHER_SIZE = 'Standard_ND96isr_H100_v5'

describe('verify with all-pools', () => {
  let w: RdmaWorld
  const nodesOf = (pool: string): string[] =>
    (
      w.sim.store.list(w.sim.store.type('', 'nodes')!, {
        labelSelector: `kubernetes.azure.com/agentpool=${pool}`
      }).items as Array<{ metadata: { name: string } }>
    )
      .map(n => n.metadata.name)
      .sort()

  beforeAll(async () => {
    w = await startRdmaWorld({ nodes: 2, inputs: { benchmark: 'false' } })
    w.sim.addPool({
      name: OTHER,
      vmSize: OTHER_SIZE,
      count: 1,
      osSku: 'Ubuntu',
      mode: 'User',
      kubernetesVersion: '1.33'
    })
    for (let i = 0; i < 1200 && nodesOf(OTHER).length < 1; i++) await new Promise(r => setTimeout(r, 50))
    // The record lists the pools the action manages (another run set the second one up).
    await w.kube.applyManifest({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { ...OWNERSHIP_RECORD },
      data: {
        'pools.json': JSON.stringify(
          [OTHER, w.settings.nodePool.name].map(name => ({
            name,
            state: 'managed',
            taints: [],
            runId: 'earlier-run',
            at: '2026-12-07T00:00:00Z'
          }))
        )
      }
    })
  })
  afterAll(async () => {
    await w?.close()
  })

  it('checks each managed pool on its own nodes and by its own VM size, the run’s pool first', async () => {
    const report: Report = emptyReport('verify')
    const settings = { ...w.settings, allPools: true }
    await verifyPools(settings, w.kubeconfigPath, report, verifyAndBenchmark).catch(() => undefined)

    expect(report.pools?.map(p => p.pool)).toEqual([w.settings.nodePool.name, OTHER])
    const [own, other] = report.pools!
    // The run's pool: the single-pool shape at the top level, and the same in its entry.
    expect(report.checks).toBe(own.checks)
    expect(own.result).toBe('success')
    expect(own.vmSize).toBe(w.settings.nodePool.vmSize)
    const nodesReady = (p: typeof own) => p.checks.find(c => c.name === 'nodes-ready')!
    expect(nodesReady(own).nodes!.map(n => n.node)).toEqual(nodesOf(w.settings.nodePool.name))
    // The other pool: its own nodes, its own VM size.
    expect(other.vmSize).toBe(OTHER_SIZE)
    expect(nodesReady(other).nodes!.map(n => n.node)).toEqual(nodesOf(OTHER))
    expect(other.steps.map(s => s.name)).toEqual(['verify'])
    expect(report.steps.map(s => s.name)).toEqual(['verify', `verify:${OTHER}`])
    // Its own failures (the stack's per-pool parts are not on it) stay its own: the run fails.
    expect(other.result).toBe('failure')
    expect(nodesReady(other).status).toBe('fail')
    expect(deriveResult(report)).toBe('failure')
  })

  it('looks at the run’s pool only without all-pools', async () => {
    const report: Report = emptyReport('verify')
    await verifyPools(w.settings, w.kubeconfigPath, report, verifyAndBenchmark)
    expect(report.pools).toBeUndefined()
    expect(report.steps.map(s => s.name)).toEqual(['verify'])
    expect(report.checks.filter(c => c.status === 'fail')).toEqual([])
  })
})
