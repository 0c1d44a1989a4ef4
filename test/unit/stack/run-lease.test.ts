// RunLease, the Lease as one run holds it, against an in-memory API server: ensure() takes it
// once (waiting up to the run's deadline), confirm() does nothing before and reads after, `lost`
// follows the renewals, release() gives it back and sets `released` only when this run held it,
// and a failing release only warns.
import { jest } from '@jest/globals'
import { RunLease } from '../../../src/stack/run-lease.js'
import { LeaseLostError, LeaseTimeoutError, microTime } from '../../../src/stack/lease.js'
import type { KubeClient } from '../../../src/kube/client.js'
import type { Clock } from '../../../src/util/clock.js'
import { apiError, MemoryCluster } from '../../support/memory-cluster.js'
import { captureLog } from '../../support/capture-log.js'

const AV = 'coordination.k8s.io/v1'
const NAME = 'aks-rdma-action'
const NS = 'kube-system'
const T0 = Date.UTC(2026, 0, 2, 3, 4, 5, 678)
const GET = 'get lease aks-rdma-action'

async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await new Promise<void>(r => setImmediate(r))
}

/** now() is Jest's faked Date; every() registers a tick that advance() runs (awaited) when due. */
class TestClock implements Clock {
  readonly timers: Array<{ periodMs: number; next: number; tick: () => Promise<void>; stopped: boolean }> = []

  now(): number {
    return Date.now()
  }

  every(periodMs: number, tick: () => Promise<void>): () => void {
    const t = { periodMs, next: this.now() + periodMs, tick, stopped: false }
    this.timers.push(t)
    return () => {
      t.stopped = true
    }
  }

  async advance(ms: number): Promise<void> {
    const end = this.now() + ms
    for (;;) {
      const due = this.timers.filter(t => !t.stopped && t.next <= end).sort((a, b) => a.next - b.next)[0]
      if (!due) break
      await jest.advanceTimersByTimeAsync(Math.max(0, due.next - this.now()))
      await settle()
      due.next += due.periodMs
      if (!due.stopped) await due.tick()
      await settle()
    }
    await jest.advanceTimersByTimeAsync(Math.max(0, end - this.now()))
    await settle()
  }
}

const notFound = (): Error => apiError(404, 'NotFound', `leases.coordination.k8s.io "${NAME}" not found`)

/** The Lease calls over a MemoryCluster: 404 when absent, 409 on a stale resourceVersion or precondition. */
function fakeKube(cluster: MemoryCluster) {
  const calls: string[] = []
  const failing: { delete?: Error } = {}
  const current = (): any => cluster.get(AV, 'Lease', NAME, NS)
  const client = {
    request: async (what: string, fn: () => Promise<unknown>) => {
      calls.push(what)
      return fn()
    },
    coordination: {
      readNamespacedLease: async () => {
        const l = current()
        if (!l) throw notFound()
        return l
      },
      createNamespacedLease: async (a: { namespace: string; body: any }) => {
        if (current())
          throw apiError(409, 'AlreadyExists', `leases.coordination.k8s.io "${NAME}" already exists`)
        return cluster.put({ ...a.body, metadata: { ...a.body.metadata, namespace: a.namespace } })
      },
      replaceNamespacedLease: async (a: { namespace: string; body: any }) => {
        const cur = current()
        if (!cur) throw notFound()
        if (
          a.body.metadata.resourceVersion &&
          a.body.metadata.resourceVersion !== cur.metadata.resourceVersion
        )
          throw apiError(409, 'Conflict', 'the object has been modified')
        return cluster.put({
          ...a.body,
          metadata: { ...a.body.metadata, namespace: a.namespace, uid: cur.metadata.uid }
        })
      },
      deleteNamespacedLease: async (a: { body?: any }) => {
        if (failing.delete) throw failing.delete
        const cur = current()
        if (!cur) throw notFound()
        const p = a.body?.preconditions ?? {}
        if (
          (p.uid && p.uid !== cur.metadata.uid) ||
          (p.resourceVersion && p.resourceVersion !== cur.metadata.resourceVersion)
        )
          throw apiError(409, 'Conflict', 'precondition failed')
        cluster.remove(AV, 'Lease', NAME, NS)
        return {}
      }
    },
    watchSource: (apiVersion: string, kind: string, opts: any) => cluster.source(apiVersion, kind, opts)
  }
  return { client: client as unknown as KubeClient, calls, failing }
}

const putLease = (cluster: MemoryCluster, spec: Record<string, unknown>) =>
  cluster.put({ apiVersion: AV, kind: 'Lease', metadata: { name: NAME, namespace: NS }, spec })

describe('RunLease', () => {
  let cluster: MemoryCluster
  let kube: ReturnType<typeof fakeKube>
  let clock: TestClock
  let log: ReturnType<typeof captureLog>

  beforeEach(() => {
    jest.useFakeTimers({ now: T0, doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] })
    cluster = new MemoryCluster()
    kube = fakeKube(cluster)
    clock = new TestClock()
    log = captureLog()
  })

  afterEach(() => {
    jest.useRealTimers()
  })

  const runLease = (o: { deadline?: number; clock?: Clock | null } = {}) =>
    new RunLease(kube.client, {
      holder: 'run-a',
      leaseDurationSeconds: 45,
      deadline: o.deadline ?? T0 + 600_000,
      log,
      ...(o.clock === null ? {} : { clock: o.clock ?? clock })
    })

  it('takes the Lease on the first ensure() only, with its holder, duration, log and clock', async () => {
    const r = runLease()
    expect(await r.ensure()).toBe(true)
    expect(await r.ensure()).toBe(false)
    expect(kube.calls).toEqual([GET, 'create lease'])
    expect(cluster.get(AV, 'Lease', NAME, NS)?.spec).toEqual({
      holderIdentity: 'run-a',
      leaseDurationSeconds: 45,
      acquireTime: microTime(T0),
      renewTime: microTime(T0),
      leaseTransitions: 0
    })
    expect(log.lines).toEqual(['info: Lease kube-system/aks-rdma-action taken by run run-a'])
    expect(clock.timers.map(t => t.periodMs)).toEqual([15_000])
    await clock.advance(15_000)
    expect(kube.calls).toEqual([GET, 'create lease', GET, 'renew lease'])
    await r.release()
  })

  it('renews on the process clock when given none', async () => {
    const r = runLease({ clock: null })
    await r.ensure()
    expect(clock.timers).toEqual([])
    await jest.advanceTimersByTimeAsync(15_000)
    await settle()
    expect(kube.calls).toEqual([GET, 'create lease', GET, 'renew lease'])
    await r.release()
  })

  it('waits for another holder up to the run deadline', async () => {
    putLease(cluster, { holderIdentity: 'run-b', leaseDurationSeconds: 60, renewTime: microTime(T0) })
    const r = runLease({ deadline: T0 + 30_000 })
    let error: unknown
    const p = r.ensure().catch(e => (error = e))
    await clock.advance(29_999)
    expect(error).toBeUndefined()
    await clock.advance(1)
    await p
    expect(error).toBeInstanceOf(LeaseTimeoutError)
    expect((error as LeaseTimeoutError).waitedMs).toBe(30_000)
    expect(cluster.get(AV, 'Lease', NAME, NS)?.spec.holderIdentity).toBe('run-b')
  })

  it('does not wait at all once the run deadline has passed', async () => {
    putLease(cluster, { holderIdentity: 'run-b', leaseDurationSeconds: 60, renewTime: microTime(T0) })
    const r = runLease({ deadline: T0 - 5_000 })
    const e = await r.ensure().catch(x => x)
    expect(e).toBeInstanceOf(LeaseTimeoutError)
    expect(e.waitedMs).toBe(0)
    expect(log.lines).toEqual([])
  })

  it('confirm() does nothing before the Lease is taken, reads it after, and throws once it is lost', async () => {
    const r = runLease()
    await r.confirm('apply a')
    expect(kube.calls).toEqual([])
    await r.ensure()
    await r.confirm('apply b')
    expect(kube.calls).toEqual([GET, 'create lease', GET])
    putLease(cluster, { holderIdentity: 'run-b' })
    await expect(r.confirm('apply c')).rejects.toThrow(
      'the Lease kube-system/aks-rdma-action is no longer held by this run (run-a): it is now held by run-b. ' +
        'Stopped before apply c, so as not to write over the run that holds it now; re-run once it has finished.'
    )
  })

  it('remembers the loss the renewals find', async () => {
    const r = runLease()
    await r.ensure()
    expect(r.lost).toBeUndefined()
    putLease(cluster, { holderIdentity: 'run-b' })
    await clock.advance(15_000)
    expect(r.lost).toBeInstanceOf(LeaseLostError)
    expect(r.lost?.why).toBe('it is now held by run-b')
    await r.release()
    expect(r.released).toBe(false)
    expect(kube.calls).toEqual([GET, 'create lease', GET])
    expect(cluster.get(AV, 'Lease', NAME, NS)?.spec.holderIdentity).toBe('run-b')
  })

  it('release() gives the Lease back and sets released only when this run held it', async () => {
    const r = runLease()
    await r.release()
    expect(r.released).toBe(false)
    expect(kube.calls).toEqual([])
    await r.ensure()
    await r.release()
    expect(r.released).toBe(true)
    expect(cluster.get(AV, 'Lease', NAME, NS)).toBeUndefined()
    expect(log.lines.at(-1)).toBe('info: Lease kube-system/aks-rdma-action released by run run-a')
    await r.release()
    expect(r.released).toBe(true)
    expect(kube.calls).toEqual([GET, 'create lease', GET, 'release lease'])
    expect(log.warnings).toEqual([])
  })

  it('only warns when the release fails', async () => {
    const r = runLease()
    await r.ensure()
    kube.failing.delete = apiError(500, 'InternalError', 'etcd unavailable')
    await r.release()
    expect(r.released).toBe(false)
    expect(log.warnings).toEqual(['releasing the Lease failed: etcd unavailable (it expires on its own)'])
    expect(cluster.get(AV, 'Lease', NAME, NS)?.spec.holderIdentity).toBe('run-a')
  })
})
