// Uninstall mode through the whole action flow (Azure + Kubernetes + the helm stand-in): after an
// apply that created the RDMA pool, `mode: uninstall` signs in, fetches credentials, removes the
// stack in reverse order and keeps the pool (cleanup none); run again with cleanup node-pool it
// finds nothing left on the cluster and deletes the pool, whose created-by tag holds the run
// identity the ownership record holds for it (then drops that entry, and the emptied record).
// Neither run verifies or benchmarks anything.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals'
import { randomBytes } from 'node:crypto'
import type { FlowResult } from '../../../src/run/flow.js'
import type { World } from '../../../sim/world.js'
import { clusterStack } from '../../support/components.js'
import * as runner from '../../support/runner-env.js'

jest.setTimeout(600_000)

/** Uninstall's order: the verification probe's leftovers, then the cluster stack in reverse. */
const REMOVAL_ORDER = ['probe-leftovers', ...clusterStack().reverse()]
let world: World
const flowLog: string[] = []

/** Runs the action's flow in-process (its workflow-command output collected, shown on failure). */
async function flow(mode: string, extra: Record<string, string> = {}): Promise<FlowResult> {
  const s = runner.secretAuthSettings(world, runner.twoNodeRun(mode, { 'step-timeout': '10m', ...extra }))
  // A run identity of the form the action writes (runIdentity): a created-by tag counts only then.
  s.runId = `9-1/${mode}/${randomBytes(6).toString('hex')}`
  return runner.runFlowQuietly(s, flowLog)
}

beforeAll(async () => {
  world = await runner.runnerWorld('uninstall-runner', {
    azure: {
      // Another team's pool, tagged with the action's tag name but a value the action never writes.
      existingPools: [
        {
          name: 'teamx',
          vmSize: 'Standard_D4s_v5',
          count: 1,
          osSKU: 'Ubuntu',
          tags: { 'aks-rdma-action-created-by': 'owned-by-team-x-do-not-delete' }
        }
      ],
      deletion: { polls: 1 }
    }
  })
  const applied = await flow('apply')
  expect(applied.exitCode).toBe(0)
  expect(world.azure.getPool(runner.RUN_POOL)?.properties?.tags?.['aks-rdma-action-created-by']).toMatch(
    /^9-1\/apply\//
  )
})

afterAll(() => runner.leaveWorld(world))

describe('mode: uninstall', () => {
  it('removes the stack in reverse order and keeps the pool with cleanup none', async () => {
    const r = await flow('uninstall')
    expect(r.exitCode).toBe(0)
    expect(r.report.mode).toBe('uninstall')
    expect(r.report.steps.map(s => [s.name, s.status])).toEqual([
      ['azure-sign-in', 'success'],
      ['credentials', 'success'],
      ...REMOVAL_ORDER.map(n => [n, 'success'])
    ])
    // The apply's verification left its work namespace (empty): uninstall removes it too.
    expect(r.report.steps.filter(s => s.action === 'deleted').map(s => s.name)).toEqual(REMOVAL_ORDER)
    expect(r.report.checks).toEqual([])
    expect(world.azure.getPool(runner.RUN_POOL)).toBeDefined()
    const kinds = (group: string, plural: string): number =>
      world.kube.store.list(world.kube.store.type(group, plural)!, {}).items.length
    expect(kinds('mellanox.com', 'nicclusterpolicies')).toBe(0)
    const releases = world.kube.store.list(world.kube.store.type('', 'secrets')!, {
      labelSelector: 'owner=helm'
    })
    expect(releases.items).toEqual([])
    // What stays in the record: the pool this apply created, with the tag value it gave it.
    const record = world.kube.store.tryGet(
      world.kube.store.type('', 'configmaps')!,
      'kube-system',
      'aks-rdma-action-owned'
    )
    const entries = JSON.parse(record?.data?.['owned.json'] ?? '[]') as Array<{ kind: string; uid: string }>
    expect(entries.map(e => [e.kind, e.uid])).toEqual([
      ['AgentPool', world.azure.getPool(runner.RUN_POOL)?.properties?.tags?.['aks-rdma-action-created-by']]
    ])
  })

  it('with cleanup node-pool, finds nothing left on the cluster and deletes the pool the action created', async () => {
    world.recorder.reset()
    const r = await flow('uninstall', { cleanup: 'node-pool' })
    expect(r.exitCode).toBe(0)
    expect(r.report.steps.slice(2).map(s => [s.name, s.action])).toEqual([
      ...REMOVAL_ORDER.map(n => [n, 'unchanged']),
      ['node-pool', 'deleted']
    ])
    expect(r.report.steps.find(s => s.name === 'node-pool')?.detail).toMatch(/^node-pool rdma deleted/)
    // On the cluster, only the record's own bookkeeping: the pool's entry dropped, the empty record deleted.
    expect(
      world.recorder.records
        .filter(x => x.service === 'kube' && x.mutating)
        .map(x => `${x.method} ${x.resource}`)
    ).toEqual(['DELETE configmaps'])
    expect(world.azure.getPool(runner.RUN_POOL)).toBeUndefined()
  })

  it('with cleanup node-pool, keeps a pool whose created-by tag is a value the action never writes', async () => {
    const r = await flow('uninstall', { cleanup: 'node-pool', 'node-pool': 'teamx' })
    expect(r.exitCode).toBe(0)
    expect(r.report.steps.find(s => s.name === 'node-pool')).toMatchObject({
      action: 'unchanged',
      detail:
        'node-pool teamx kept (its aks-rdma-action-created-by tag is owned-by-team-x-do-not-delete, not a run identity the action writes)'
    })
    expect(world.azure.getPool('teamx')).toBeDefined()
  })
})
