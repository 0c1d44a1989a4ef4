// The post step's Azure cleanup decisions (cleanupAzure), one by one, over an in-memory ARM that
// records every call: what is deleted (only what this run submitted a create for, only while its
// created-by tag names the run, only as the cleanup input asks), what is kept or skipped and why,
// and how failures, a resource already gone and a deletion that outlives its time are reported.
// Uninstall's removal (removeCreatedByAction): only a tag value the action writes, and the recorded
// one when the ownership record holds one. No sign-in when there is nothing to read; every decision logged. End to end against the
// simulated ARM: test/flow/run/post-step.test.ts and test/flow/run/runner-contract.test.ts.
import { describe, expect, it } from '@jest/globals'
import { RestError } from '@azure/core-rest-pipeline'
import {
  cleanupAzure,
  removeCreatedByAction,
  type CleanupEntry,
  type SubmittedCreates
} from '../../../src/azure/cleanup.js'
import type { ArmClients } from '../../../src/azure/clients.js'
import type { Log } from '../../../src/log/index.js'

const RUN = '7-1/rdma/0123456789ab'
type Live = { tags?: Record<string, string>; provisioningState?: string } | 'missing' | Error

interface Arm {
  clients: () => ArmClients
  calls: string[]
  signIns: number
  log: Log & { lines: string[] }
}

/** ARM with one cluster `rg/aks` and its pool `rdma`, as `cluster` and `pool` say. */
function arm(o: { cluster?: Live; pool?: Live; deleteError?: Error; deleteNever?: boolean } = {}): Arm {
  const calls: string[] = []
  const read = (what: Live | undefined) => async () => {
    if (what === 'missing' || what === undefined) throw new RestError('not found', { statusCode: 404 })
    if (what instanceof Error) throw what
    return what
  }
  const remove =
    (name: string) =>
    (...args: unknown[]) => {
      const opts = args[args.length - 1] as { abortSignal: AbortSignal; updateIntervalInMs: number }
      calls.push(`DELETE ${name} every ${opts.updateIntervalInMs}ms`)
      const done = o.deleteNever
        ? new Promise<void>((_r, reject) =>
            opts.abortSignal.addEventListener('abort', () =>
              reject(Object.assign(new Error('aborted'), { name: 'AbortError' }))
            )
          )
        : o.deleteError
          ? Promise.reject(o.deleteError)
          : Promise.resolve()
      done.catch(() => undefined)
      return Object.assign(done, { submitted: async () => undefined })
    }
  const containerService = {
    managedClusters: {
      get: async (rg: string, name: string) => {
        calls.push(`GET cluster ${rg}/${name}`)
        return read(o.cluster)()
      },
      delete: remove('cluster')
    },
    agentPools: {
      get: async (rg: string, cluster: string, pool: string) => {
        calls.push(`GET pool ${rg}/${cluster}/${pool}`)
        return read(o.pool)()
      },
      delete: remove('pool')
    }
  }
  const lines: string[] = []
  const log = {
    lines,
    info: (l: string) => lines.push(`info: ${l}`),
    warning: (l: string) => lines.push(`warning: ${l}`),
    error: (l: string) => lines.push(`error: ${l}`),
    debug: () => undefined,
    progress: () => undefined,
    secret: () => undefined,
    startGroup: () => undefined,
    endGroup: () => undefined
  } as unknown as Arm['log']
  const a: Arm = {
    calls,
    signIns: 0,
    log,
    clients: () => {
      a.signIns++
      return { containerService } as unknown as ArmClients
    }
  }
  return a
}

const settings = (cleanup: 'none' | 'node-pool' | 'cluster') => ({
  cleanup,
  cluster: { resourceGroup: 'rg', name: 'aks' },
  nodePool: { name: 'rdma' },
  runId: RUN
})
const createdPool = (createdBy = RUN) => ({ resourceGroup: 'rg', cluster: 'aks', pool: 'rdma', createdBy })
const createdCluster = (createdBy = RUN) => ({ resourceGroup: 'rg', cluster: 'aks', createdBy })
const tagged = (by: string, provisioningState?: string) => ({
  tags: { 'aks-rdma-action-created-by': by },
  ...(provisioningState ? { provisioningState } : {})
})

async function cleanup(
  a: Arm,
  cleanupInput: 'none' | 'node-pool' | 'cluster',
  submitted: SubmittedCreates,
  timeoutMs = 5_000
): Promise<CleanupEntry[]> {
  return cleanupAzure(a.clients, settings(cleanupInput) as never, submitted, {
    log: a.log,
    timeoutMs,
    pollIntervalMs: 7
  })
}

describe('cleanupAzure: the node pool', () => {
  it('deletes the pool this run created while its tag names the run, and says what it was', async () => {
    const a = arm({ pool: tagged(RUN, 'Failed') })
    expect(await cleanup(a, 'node-pool', { nodePool: createdPool() })).toEqual([
      { resource: 'node-pool', name: 'rdma', result: 'deleted', reason: 'was Failed' }
    ])
    expect(a.calls).toEqual(['GET pool rg/aks/rdma', 'DELETE pool every 7ms'])
    expect(a.log.lines).toEqual([
      'info: cleanup: deleting node-pool rdma (Failed, created by this run)',
      'info: cleanup: node-pool rdma: deleted (was Failed)'
    ])
  })

  it('a pool without a provisioning state counts as Succeeded', async () => {
    const a = arm({ pool: tagged(RUN) })
    expect(await cleanup(a, 'node-pool', { nodePool: createdPool() })).toEqual([
      { resource: 'node-pool', name: 'rdma', result: 'deleted', reason: 'was Succeeded' }
    ])
  })

  it('keeps a pool whose tag names another run, or none', async () => {
    const other = arm({ pool: tagged('8-1/rdma/ba9876543210') })
    expect(await cleanup(other, 'node-pool', { nodePool: createdPool() })).toEqual([
      {
        resource: 'node-pool',
        name: 'rdma',
        result: 'kept',
        reason: `its aks-rdma-action-created-by tag is 8-1/rdma/ba9876543210, not this run's (${RUN})`
      }
    ])
    const untagged = arm({ pool: {} })
    expect((await cleanup(untagged, 'node-pool', { nodePool: createdPool() }))[0].reason).toBe(
      `its aks-rdma-action-created-by tag is absent, not this run's (${RUN})`
    )
    expect([...other.calls, ...untagged.calls].filter(c => c.startsWith('DELETE'))).toEqual([])
  })

  it('keeps it with cleanup none, without reading Azure at all', async () => {
    const a = arm({ pool: tagged(RUN) })
    expect(await cleanup(a, 'none', { nodePool: createdPool() })).toEqual([
      { resource: 'node-pool', name: 'rdma', result: 'kept', reason: 'cleanup is none' }
    ])
    expect(a.signIns).toBe(0)
  })

  it('skips a pool this run did not submit (named after the input), without signing in', async () => {
    const a = arm({ pool: tagged(RUN) })
    expect(await cleanup(a, 'node-pool', {})).toEqual([
      { resource: 'node-pool', name: 'rdma', result: 'skipped', reason: 'this run did not create it' }
    ])
    expect(a.signIns).toBe(0)
    expect(a.log.lines).toEqual(['info: cleanup: node-pool rdma: skipped (this run did not create it)'])
  })

  it('a pool already gone is skipped; one that vanishes while deleting counts as deleted', async () => {
    expect(await cleanup(arm({ pool: 'missing' }), 'node-pool', { nodePool: createdPool() })).toEqual([
      { resource: 'node-pool', name: 'rdma', result: 'skipped', reason: 'it no longer exists' }
    ])
    const vanishing = arm({
      pool: tagged(RUN, 'Deleting'),
      deleteError: new RestError('gone', { statusCode: 404 })
    })
    expect(await cleanup(vanishing, 'node-pool', { nodePool: createdPool() })).toEqual([
      { resource: 'node-pool', name: 'rdma', result: 'deleted', reason: 'was Deleting' }
    ])
  })

  it('reports a read or delete that fails, with ARM’s code and message, as a warning', async () => {
    const unreadable = arm({
      pool: new RestError('the server had an error', { statusCode: 500, code: 'InternalServerError' })
    })
    const r = await cleanup(unreadable, 'node-pool', { nodePool: createdPool() })
    expect(r).toEqual([
      {
        resource: 'node-pool',
        name: 'rdma',
        result: 'failed',
        reason: 'reading it failed: HTTP 500 InternalServerError: the server had an error'
      }
    ])
    expect(unreadable.log.lines).toEqual([
      'warning: cleanup: node-pool rdma: failed (reading it failed: HTTP 500 InternalServerError: the server had an error)'
    ])
    const refused = arm({
      pool: tagged(RUN),
      deleteError: new RestError('locked', { statusCode: 409, code: 'ScopeLocked' })
    })
    expect((await cleanup(refused, 'node-pool', { nodePool: createdPool() }))[0]).toEqual({
      resource: 'node-pool',
      name: 'rdma',
      result: 'failed',
      reason: 'deleting it failed: HTTP 409 ScopeLocked: locked'
    })
  })

  it('a deletion that outlives the step timeout fails, saying it may still be deleting', async () => {
    const a = arm({ pool: tagged(RUN), deleteNever: true })
    const [e] = await cleanup(a, 'node-pool', { nodePool: createdPool() }, 30)
    expect(e).toMatchObject({ resource: 'node-pool', name: 'rdma', result: 'failed' })
    expect(e.reason).toMatch(/^deleting it timed out after \d+(\.\d+)?\s?m?s; it may still be deleting$/)
  })
})

describe('cleanupAzure: the cluster', () => {
  it('with cleanup cluster deletes the cluster this run created, and its pool goes with it', async () => {
    const a = arm({ cluster: tagged(RUN, 'Succeeded'), pool: tagged(RUN) })
    expect(await cleanup(a, 'cluster', { cluster: createdCluster(), nodePool: createdPool() })).toEqual([
      { resource: 'cluster', name: 'rg/aks', result: 'deleted', reason: 'was Succeeded' },
      { resource: 'node-pool', name: 'rdma', result: 'deleted', reason: 'with its cluster' }
    ])
    expect(a.calls).toEqual(['GET cluster rg/aks', 'DELETE cluster every 7ms'])
  })

  it('a cluster already gone: its pool went with it', async () => {
    const a = arm({ cluster: 'missing' })
    expect(await cleanup(a, 'cluster', { cluster: createdCluster(), nodePool: createdPool() })).toEqual([
      { resource: 'cluster', name: 'rg/aks', result: 'skipped', reason: 'it no longer exists' },
      { resource: 'node-pool', name: 'rdma', result: 'deleted', reason: 'with its cluster' }
    ])
  })

  it('a cluster kept (another run’s tag) still has this run’s pool deleted', async () => {
    const a = arm({ cluster: tagged('run-9-1'), pool: tagged(RUN) })
    expect(await cleanup(a, 'cluster', { cluster: createdCluster(), nodePool: createdPool() })).toEqual([
      {
        resource: 'cluster',
        name: 'rg/aks',
        result: 'kept',
        reason: `its aks-rdma-action-created-by tag is run-9-1, not this run's (${RUN})`
      },
      { resource: 'node-pool', name: 'rdma', result: 'deleted', reason: 'was Succeeded' }
    ])
    expect(a.calls.filter(c => c.startsWith('DELETE'))).toEqual(['DELETE pool every 7ms'])
  })

  it('a saved create that names other resources or another identity than this job is kept, unread', async () => {
    // The saved state is the main step's word only: it must name the inputs' resources and this
    // job's identity (recomputed by the post step), or nothing is read or deleted on it.
    const cases: Array<[SubmittedCreates, string]> = [
      [{ nodePool: { ...createdPool(), cluster: 'other' } }, 'cluster other (this job: aks)'],
      [{ nodePool: { ...createdPool(), resourceGroup: 'rg2' } }, 'resource group rg2 (this job: rg)'],
      [{ nodePool: { ...createdPool(), pool: 'gpu' } }, 'node pool gpu (this job: rdma)'],
      [
        { nodePool: createdPool('7-1/rdma/ffffffffffff') },
        `created-by identity 7-1/rdma/ffffffffffff (this job: ${RUN})`
      ],
      [{ cluster: { ...createdCluster(), cluster: 'prod' } }, 'cluster prod (this job: aks)']
    ]
    for (const [submitted, named] of cases) {
      const a = arm({ cluster: tagged(RUN), pool: tagged(RUN) })
      const entries = await cleanup(a, 'cluster', submitted)
      const kept = entries.find(e => e.result === 'kept')
      expect({ named, kept }).toEqual({
        named,
        kept: expect.objectContaining({ reason: `the saved state names ${named}; not trusted` })
      })
      expect(a.calls).toEqual([])
    }
  })

  it('with cleanup node-pool the created cluster is kept and only the pool deleted', async () => {
    const a = arm({ cluster: tagged(RUN), pool: tagged(RUN) })
    expect(await cleanup(a, 'node-pool', { cluster: createdCluster(), nodePool: createdPool() })).toEqual([
      { resource: 'cluster', name: 'rg/aks', result: 'kept', reason: 'cleanup is node-pool' },
      { resource: 'node-pool', name: 'rdma', result: 'deleted', reason: 'was Succeeded' }
    ])
  })

  it('cleanup cluster when this run created nothing: both skipped, named after the inputs', async () => {
    const a = arm()
    expect(await cleanup(a, 'cluster', {})).toEqual([
      { resource: 'cluster', name: 'rg/aks', result: 'skipped', reason: 'this run did not create it' },
      { resource: 'node-pool', name: 'rdma', result: 'skipped', reason: 'this run did not create it' }
    ])
    expect(a.signIns).toBe(0)
  })

  it('a cluster whose delete fails keeps the pool decision separate (the pool is then deleted itself)', async () => {
    const a = arm({
      cluster: tagged(RUN),
      pool: tagged(RUN),
      deleteError: new RestError('nope', { statusCode: 400, code: 'OperationNotAllowed' })
    })
    const r = await cleanup(a, 'cluster', { cluster: createdCluster(), nodePool: createdPool() })
    expect(r.map(e => [e.resource, e.result, e.reason])).toEqual([
      ['cluster', 'failed', 'deleting it failed: HTTP 400 OperationNotAllowed: nope'],
      ['node-pool', 'failed', 'deleting it failed: HTTP 400 OperationNotAllowed: nope']
    ])
  })

  it('signs in once, lazily, however many resources it reads', async () => {
    const a = arm({ cluster: tagged('run-9-1'), pool: tagged(RUN) })
    await cleanup(a, 'cluster', { cluster: createdCluster(), nodePool: createdPool() })
    expect(a.signIns).toBe(1)
    const b = arm({ cluster: tagged(RUN), pool: tagged(RUN) })
    await cleanupAzure(
      b.clients(),
      settings('cluster') as never,
      { cluster: createdCluster() },
      {
        log: b.log,
        timeoutMs: 1000,
        pollIntervalMs: 3
      }
    )
    expect(b.signIns).toBe(1)
    expect(b.calls).toEqual(['GET cluster rg/aks', 'DELETE cluster every 3ms'])
  })
})

describe('removeCreatedByAction: uninstall with cleanup', () => {
  const remove = (a: Arm, cleanupInput: 'node-pool' | 'cluster', recorded?: string) =>
    removeCreatedByAction(
      a.clients(),
      settings(cleanupInput) as never,
      { log: a.log, timeoutMs: 1000, pollIntervalMs: 3 },
      recorded
    )

  it('deletes a pool or cluster whose created-by tag is a run identity the action wrote (any run)', async () => {
    const pool = arm({ pool: tagged('8-1/rdma/ba9876543210') })
    expect((await remove(pool, 'node-pool'))[0]).toMatchObject({ name: 'rdma', result: 'deleted' })
    const cluster = arm({ cluster: tagged('local/0123456789ab') })
    expect((await remove(cluster, 'cluster'))[0]).toMatchObject({ name: 'rg/aks', result: 'deleted' })
  })

  it('keeps one whose created-by tag is any other value, and deletes nothing', async () => {
    for (const foreign of ['owned-by-team-x-do-not-delete', 'true', '8-1/rdma/not-a-nonce']) {
      const pool = arm({ pool: tagged(foreign) })
      const [e] = await remove(pool, 'node-pool')
      expect([e.result, e.reason]).toEqual([
        'kept',
        `its aks-rdma-action-created-by tag is ${foreign}, not a run identity the action writes`
      ])
      const cluster = arm({ cluster: tagged(foreign) })
      expect((await remove(cluster, 'cluster'))[0].result).toBe('kept')
      expect([...pool.calls, ...cluster.calls].filter(c => c.startsWith('DELETE'))).toEqual([])
    }
  })

  it('with a recorded value, only that value: another run identity is kept', async () => {
    const other = arm({ pool: tagged('8-1/rdma/ba9876543210') })
    const [e] = await remove(other, 'node-pool', RUN)
    expect([e.result, e.reason]).toEqual([
      'kept',
      `its aks-rdma-action-created-by tag is 8-1/rdma/ba9876543210, not the recorded ${RUN}`
    ])
    expect(other.calls.filter(c => c.startsWith('DELETE'))).toEqual([])
    const same = arm({ pool: tagged(RUN) })
    expect((await remove(same, 'node-pool', RUN))[0].result).toBe('deleted')
  })
})
