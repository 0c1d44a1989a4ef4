// The Lease kube-system/aks-rdma-action that serialises runs, against an in-memory API server:
// taken when absent, when released or when this run holds it already; another holder waited for
// (one log line per holder) and taken over only once this run has seen the same record for a whole
// lease duration by its own clock; LeaseTimeoutError at the deadline; the body written (microTime,
// acquireTime, leaseTransitions); renewals on a Clock timer over several lease durations, the renew
// deadline, confirm() and its LeaseLostError texts; release that deletes only while held.
import { jest } from '@jest/globals'
import {
  acquireLease,
  DEFAULT_LEASE_SECONDS,
  LEASE_NAME,
  LEASE_NAMESPACE,
  LeaseLostError,
  LeaseTimeoutError,
  microTime,
  type LeaseHandle
} from '../../../src/stack/lease.js'
import type { Clock } from '../../../src/util/clock.js'
import { captureLog } from '../../support/capture-log.js'
import { settle } from '../../support/manual-clock.js'
import { apiError } from '../../support/memory-cluster.js'
import { leaseConflict, leaseOf, leaseWorld, putLease, type LeaseWorld } from '../../support/memory-lease.js'

const AV = 'coordination.k8s.io/v1'
const NAME = 'aks-rdma-action'
const NS = 'kube-system'
const T0 = Date.UTC(2026, 0, 2, 3, 4, 5, 678)
const GET = 'get lease aks-rdma-action'

const conflict = leaseConflict

/** A Lease's whole spec. */
const leaseSpec = (
  holderIdentity: string,
  acquireTime: string,
  renewTime: string,
  leaseTransitions: number,
  leaseDurationSeconds = 60
) => ({ holderIdentity, leaseDurationSeconds, acquireTime, renewTime, leaseTransitions })

/** The spec of the Lease as run-a writes it. */
const runA = (acquireTime: string, renewTime: string, leaseTransitions: number, leaseDurationSeconds = 60) =>
  leaseSpec('run-a', acquireTime, renewTime, leaseTransitions, leaseDurationSeconds)

/** The Lease body this run sends: its name, the managed-by label and `spec` (and more metadata). */
const written = (spec: Record<string, unknown>, metadata: Record<string, unknown> = {}) => ({
  apiVersion: AV,
  kind: 'Lease',
  metadata: {
    name: NAME,
    namespace: NS,
    labels: { 'app.kubernetes.io/managed-by': 'aks-rdma-action' },
    ...metadata
  },
  spec
})
const unavailable = (): Error => apiError(500, 'InternalError', 'etcd unavailable')

function track<T>(p: Promise<T>): { done: boolean; value?: T; error?: any } {
  const t: { done: boolean; value?: T; error?: any } = { done: false }
  p.then(
    v => {
      t.done = true
      t.value = v
    },
    e => {
      t.done = true
      t.error = e
    }
  )
  return t
}

const escape = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
/** A text holding each fact in order, whatever the words between them. */
const facts = (...parts: string[]) => expect.stringMatching(new RegExp(parts.map(escape).join('[^]*')))

/** The Lease lost: the Lease, this run, why, and what was stopped (when something was). */
const LOST = (why: string, what?: string) =>
  facts('kube-system/aks-rdma-action', 'run-a', why, ...(what ? [what] : []))

/** The error of a lost Lease, its message holding those facts. */
const LOST_ERROR = (why: string, what?: string) => ({ name: 'LeaseLostError', message: LOST(why, what) })

/** Waiting for the Lease: who holds it, for how long, and after how many unrenewed seconds it is taken. */
const WAITING = (holder: string, heldFor: string, s: number) =>
  facts('info: ', 'kube-system/aks-rdma-action', holder, heldFor, `${s}s`)

beforeEach(() => {
  jest.useFakeTimers({ now: T0, doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] })
})

afterEach(() => {
  jest.useRealTimers()
})

describe('the Lease names, microTime and the errors', () => {
  it('names kube-system/aks-rdma-action with a 60 s default', () => {
    expect(LEASE_NAME).toBe('aks-rdma-action')
    expect(LEASE_NAMESPACE).toBe('kube-system')
    expect(DEFAULT_LEASE_SECONDS).toBe(60)
  })

  it('writes MicroTime as RFC 3339 with six fractional digits', () => {
    expect(microTime(T0)).toBe('2026-01-02T03:04:05.678000Z')
    expect(microTime(0)).toBe('1970-01-01T00:00:00.000000Z')
  })

  it('says why the Lease was lost and what was stopped', () => {
    const e = new LeaseLostError('run-a', 'it is now held by run-b', 'helm upgrade rdma')
    expect(e.message).toEqual(LOST('it is now held by run-b', 'helm upgrade rdma'))
    expect(e.name).toBe('LeaseLostError')
    expect([e.holder, e.why, e.what]).toEqual(['run-a', 'it is now held by run-b', 'helm upgrade rdma'])
    expect(new LeaseLostError('run-a', 'gone').message).toEqual(LOST('gone'))
  })

  it('says who holds the Lease and how long this run waited', () => {
    const e = new LeaseTimeoutError('run-b', 90_000)
    expect(e.message).toEqual(facts('kube-system/aks-rdma-action', 'run-b', '1m30s'))
    expect(e.name).toBe('LeaseTimeoutError')
    expect([e.holder, e.waitedMs]).toEqual(['run-b', 90_000])
  })
})

describe('acquireLease', () => {
  let { cluster, kube, clock } = {} as LeaseWorld
  const handles: LeaseHandle[] = []

  beforeEach(() => {
    ;({ cluster, kube, clock } = leaseWorld())
  })

  afterEach(async () => {
    kube.failing.delete = undefined
    for (const h of handles.splice(0)) await h.release().catch(() => undefined)
  })

  const acquire = (o: { timeoutMs?: number; leaseDurationSeconds?: number; log?: any } = {}) =>
    acquireLease(kube.client, { holder: 'run-a', timeoutMs: 600_000, clock, ...o }).then(h => {
      handles.push(h)
      return h
    })

  it('creates the Lease when there is none, with the default duration', async () => {
    const log = captureLog()
    const h = await acquireLease(kube.client, { holder: 'run-a', timeoutMs: 600_000, log })
    handles.push(h)
    expect(kube.calls).toEqual([GET, 'create lease'])
    expect(kube.raw).toEqual([true, true])
    expect(kube.args.read).toEqual([{ name: NAME, namespace: NS }])
    expect(kube.args.create).toEqual([
      {
        namespace: NS,
        body: written(runA('2026-01-02T03:04:05.678000Z', '2026-01-02T03:04:05.678000Z', 0))
      }
    ])
    expect(Object.keys(kube.args.create[0].body.metadata)).toEqual(['name', 'namespace', 'labels'])
    expect(log.lines).toEqual(['info: Lease kube-system/aks-rdma-action taken by run run-a'])
    expect([h.holder, h.acquiredAt, h.waitedMs, h.held()]).toEqual(['run-a', T0, 0, true])
    expect(leaseOf(cluster)?.spec.holderIdentity).toBe('run-a')
  })

  it('writes the duration it is given and logs nowhere without a log', async () => {
    const h = await acquire({ leaseDurationSeconds: 30 })
    expect(kube.args.create[0].body.spec.leaseDurationSeconds).toBe(30)
    expect(leaseOf(cluster)?.spec.leaseDurationSeconds).toBe(30)
    expect(h.held()).toBe(true)
  })

  it('takes a released Lease (no holder) at once, counting a transition', async () => {
    const prev = putLease(cluster, leaseSpec('', microTime(T0 - 5_000), microTime(T0 - 1_000), 2))
    const log = captureLog()
    const h = await acquire({ log })
    expect(kube.calls).toEqual([GET, 'take lease'])
    expect(kube.raw).toEqual([true, true])
    expect(kube.args.replace).toEqual([
      {
        name: NAME,
        namespace: NS,
        body: written(runA(microTime(T0), microTime(T0), 3), {
          resourceVersion: prev.metadata.resourceVersion
        })
      }
    ])
    expect(log.lines).toEqual(['info: Lease kube-system/aks-rdma-action taken by run run-a'])
    expect(h.waitedMs).toBe(0)
  })

  it('takes back a Lease it holds already, keeping its acquireTime and transitions', async () => {
    putLease(cluster, runA('2026-01-02T03:00:00.000000Z', microTime(T0 - 1_000), 4))
    await acquire()
    expect(kube.calls).toEqual([GET, 'take lease'])
    expect(kube.args.replace[0].body.spec).toEqual(runA('2026-01-02T03:00:00.000000Z', microTime(T0), 4))
  })

  it('stamps a new acquireTime when its own Lease has none', async () => {
    putLease(cluster, { holderIdentity: 'run-a', leaseTransitions: 1 })
    await acquire()
    expect(kube.args.replace[0].body.spec).toEqual(runA(microTime(T0), microTime(T0), 1))
  })

  it('takes over a holder only once it has seen the same record for a whole lease duration of the holder', async () => {
    putLease(cluster, leaseSpec('run-b', microTime(T0 - 90_000), microTime(T0 - 5_000), 1, 30))
    const log = captureLog()
    const p = track(acquire({ log }))
    await settle()
    expect(p.done).toBe(false)
    expect(log.lines).toEqual([WAITING('run-b', '1m30s', 30)])
    expect(kube.watches).toEqual([
      [AV, 'Lease', { namespace: NS, fieldSelector: 'metadata.name=aks-rdma-action', name: 'lease' }]
    ])
    // The holder renews after 15 s: live for another 30 s from then.
    await clock.advance(15_000)
    const renewed = putLease(
      cluster,
      leaseSpec('run-b', microTime(T0 - 90_000), microTime(T0 + 15_000), 1, 30)
    )
    await settle()
    await clock.advance(30_000)
    expect(p.done).toBe(false)
    expect(kube.calls).toEqual([GET, GET])
    await clock.advance(9)
    expect(p.done).toBe(false)
    await clock.advance(1)
    expect(p.error).toBeUndefined()
    expect(p.done).toBe(true)
    const h = p.value!
    expect(h.waitedMs).toBe(45_010)
    expect(h.acquiredAt).toBe(T0 + 45_010)
    expect(kube.calls).toEqual([GET, GET, GET, 'take lease'])
    expect(kube.args.replace[0].body.metadata.resourceVersion).toBe(renewed.metadata.resourceVersion)
    expect(kube.args.replace[0].body.spec).toEqual(runA(microTime(T0 + 45_010), microTime(T0 + 45_010), 2))
    expect(log.lines).toEqual([
      WAITING('run-b', '1m30s', 30),
      'info: Lease kube-system/aks-rdma-action taken by run run-a after waiting 45s'
    ])
    expect(cluster.openWatches).toBe(0)
  })

  it('takes over at exactly one lease duration by its own clock, whatever its timers say', async () => {
    putLease(cluster, { holderIdentity: 'run-b', leaseDurationSeconds: 60, renewTime: microTime(T0) })
    // A clock of its own, apart from the timers the wait runs on.
    let t = T0
    const own: Clock = { now: () => t, every: () => () => undefined }
    const p = track(acquireLease(kube.client, { holder: 'run-a', timeoutMs: 600_000, clock: own }))
    await settle()
    t = T0 + 59_999
    await jest.advanceTimersByTimeAsync(60_010)
    await settle()
    expect(p.done).toBe(false)
    t = T0 + 60_000
    await jest.advanceTimersByTimeAsync(11)
    await settle()
    expect(p.error).toBeUndefined()
    expect(p.value?.waitedMs).toBe(60_000)
    expect(kube.calls).toEqual([GET, GET, 'take lease'])
    await p.value?.release()
  })

  it('judges a bare holder record by the default duration, its holding time unknown', async () => {
    putLease(cluster, { holderIdentity: 'run-b' })
    const log = captureLog()
    const p = track(acquire({ log }))
    await settle()
    expect(log.lines).toEqual([WAITING('run-b', 'an unknown time', 60)])
    await clock.advance(60_009)
    expect(p.done).toBe(false)
    await clock.advance(1)
    expect(p.value?.waitedMs).toBe(60_010)
    expect(kube.args.replace[0].body.spec.leaseTransitions).toBe(1)
    expect(kube.args.replace[0].body.spec.acquireTime).toBe(microTime(T0 + 60_010))
    expect(log.lines[1]).toBe('info: Lease kube-system/aks-rdma-action taken by run run-a after waiting 1m')
  })

  it('logs once per holder, again for a new one, and creates the Lease once it is deleted', async () => {
    putLease(cluster, {
      holderIdentity: 'run-b',
      leaseDurationSeconds: 60,
      acquireTime: microTime(T0 - 2_000),
      renewTime: microTime(T0 - 2_000)
    })
    const log = captureLog()
    const p = track(acquire({ log }))
    await settle()
    // run-b renews twice: no new line.
    for (const at of [5_000, 10_000]) {
      await clock.advance(5_000)
      putLease(cluster, {
        holderIdentity: 'run-b',
        leaseDurationSeconds: 60,
        acquireTime: microTime(T0 - 2_000),
        renewTime: microTime(T0 + at)
      })
      await settle()
    }
    expect(log.lines).toEqual([WAITING('run-b', '2s', 60)])
    // run-c takes it over, its runner's clock 5 s ahead.
    await clock.advance(5_000)
    putLease(cluster, leaseSpec('run-c', microTime(T0 + 20_000), microTime(T0 + 20_000), 1, 20))
    await settle()
    expect(log.lines).toEqual([WAITING('run-b', '2s', 60), WAITING('run-c', '0ms', 20)])
    await clock.advance(5_000)
    cluster.remove(AV, 'Lease', NAME, NS)
    await settle()
    expect(p.done).toBe(true)
    expect(p.value?.waitedMs).toBe(20_000)
    expect(kube.calls).toEqual([GET, GET, GET, GET, GET, 'create lease'])
    expect(kube.args.create[0].body.spec.leaseTransitions).toBe(0)
    expect(log.lines).toEqual([
      WAITING('run-b', '2s', 60),
      WAITING('run-c', '0ms', 20),
      'info: Lease kube-system/aks-rdma-action taken by run run-a after waiting 20s'
    ])
  })

  it('logs the same holder again when it took the Lease anew', async () => {
    putLease(cluster, { holderIdentity: 'run-b', acquireTime: microTime(T0 - 1_000) })
    const log = captureLog()
    const p = track(acquire({ log }))
    await settle()
    await clock.advance(2_000)
    putLease(cluster, { holderIdentity: 'run-b', acquireTime: microTime(T0 + 2_000) })
    await settle()
    expect(p.done).toBe(false)
    expect(log.lines).toEqual([WAITING('run-b', '1s', 60), WAITING('run-b', '0ms', 60)])
    cluster.remove(AV, 'Lease', NAME, NS)
    await settle()
    expect(p.done).toBe(true)
  })

  it('times out at once when the deadline has come, without waiting or logging', async () => {
    putLease(cluster, { holderIdentity: 'run-b', leaseDurationSeconds: 60, renewTime: microTime(T0) })
    const log = captureLog()
    const p = track(acquire({ log, timeoutMs: 0 }))
    await settle()
    expect(p.error).toBeInstanceOf(LeaseTimeoutError)
    expect(p.error.message).toBe(new LeaseTimeoutError('run-b', 0).message)
    expect([p.error.holder, p.error.waitedMs]).toEqual(['run-b', 0])
    expect(log.lines).toEqual([])
    expect(kube.calls).toEqual([GET])
    expect(kube.watches).toEqual([])
  })

  it('times out at the deadline while the holder keeps it', async () => {
    putLease(cluster, { holderIdentity: 'run-b', leaseDurationSeconds: 60, renewTime: microTime(T0) })
    const log = captureLog()
    const p = track(acquire({ log, timeoutMs: 20_000 }))
    await settle()
    await clock.advance(19_999)
    expect(p.done).toBe(false)
    await clock.advance(1)
    expect(p.error).toBeInstanceOf(LeaseTimeoutError)
    expect([p.error.holder, p.error.waitedMs]).toEqual(['run-b', 20_000])
    expect(p.error.message).toContain('waited 20s for it (the timeout)')
    expect(log.lines).toEqual([WAITING('run-b', 'an unknown time', 60)])
    expect(kube.calls).toEqual([GET])
    expect(leaseOf(cluster)?.spec.holderIdentity).toBe('run-b')
    expect(cluster.openWatches).toBe(0)
  })

  it('times out at the deadline when the holder renews up to it', async () => {
    putLease(cluster, { holderIdentity: 'run-b', leaseDurationSeconds: 60, renewTime: microTime(T0) })
    const p = track(acquire({ timeoutMs: 10_000 }))
    await settle()
    await clock.advance(5_000)
    putLease(cluster, { holderIdentity: 'run-b', leaseDurationSeconds: 60, renewTime: microTime(T0 + 5_000) })
    await settle()
    expect(p.done).toBe(false)
    expect(kube.calls).toEqual([GET, GET])
    await clock.advance(5_000)
    expect(p.error).toBeInstanceOf(LeaseTimeoutError)
    expect(p.error.waitedMs).toBe(10_000)
  })

  it('looks again after losing the race to create it, then takes the released Lease', async () => {
    kube.before.create.push(() => void putLease(cluster, { holderIdentity: '' }))
    const log = captureLog()
    const h = await acquire({ log })
    expect(kube.calls).toEqual([GET, 'create lease', GET, 'take lease'])
    expect(kube.args.replace[0].body.spec.leaseTransitions).toBe(1)
    expect(log.lines).toEqual(['info: Lease kube-system/aks-rdma-action taken by run run-a'])
    expect(h.waitedMs).toBe(0)
  })

  it('looks again after a stale take (409 Conflict) and waits for the run that won', async () => {
    putLease(cluster, { holderIdentity: '', leaseTransitions: 3 })
    kube.before.replace.push(
      () => void putLease(cluster, leaseSpec('run-c', microTime(T0), microTime(T0), 4))
    )
    const log = captureLog()
    const p = track(acquire({ log }))
    await settle()
    expect(p.done).toBe(false)
    expect(kube.calls).toEqual([GET, 'take lease', GET])
    expect(log.lines).toEqual([WAITING('run-c', '0ms', 60)])
    expect(leaseOf(cluster)?.spec.holderIdentity).toBe('run-c')
    await clock.advance(3_000)
    putLease(cluster, { holderIdentity: '', leaseTransitions: 4 })
    await settle()
    expect(p.value?.waitedMs).toBe(3_000)
    expect(kube.calls).toEqual([GET, 'take lease', GET, GET, 'take lease'])
    expect(leaseOf(cluster)?.spec).toMatchObject({ holderIdentity: 'run-a', leaseTransitions: 5 })
  })

  it('fails on an error other than a conflict', async () => {
    kube.failing.create = unavailable()
    await expect(acquire()).rejects.toThrow('etcd unavailable')
    kube.failing.create = undefined
    kube.failing.read = unavailable()
    await expect(acquire()).rejects.toThrow('etcd unavailable')
    expect(kube.calls).toEqual([GET, 'create lease', GET])
  })

  it('fails when the watch it waits on fails', async () => {
    putLease(cluster, { holderIdentity: 'run-b' })
    kube.setSource(() => ({
      name: 'lease',
      list: async () => {
        throw new Error('list failed')
      },
      watch: async () => ({ stop: () => undefined })
    }))
    await expect(acquire()).rejects.toThrow('list failed')
  })

  // More than a second waited is said; exactly one is not.
  it.each([
    [1_001, 'info: Lease kube-system/aks-rdma-action taken by run run-a after waiting 1s'],
    [1_000, 'info: Lease kube-system/aks-rdma-action taken by run run-a']
  ])('after %i ms of waiting to take it, says: %s', async (ms, line) => {
    kube.before.read.push(() => jest.setSystemTime(Date.now() + ms))
    const log = captureLog()
    const h = await acquire({ log })
    expect(h.waitedMs).toBe(ms)
    expect(log.lines).toEqual([line])
  })

  it('says it waited, even under a second, once it saw another holder', async () => {
    putLease(cluster, { holderIdentity: 'run-b', leaseDurationSeconds: 60, renewTime: microTime(T0) })
    const log = captureLog()
    const p = track(acquire({ log }))
    await settle()
    await clock.advance(500)
    cluster.remove(AV, 'Lease', NAME, NS)
    await settle()
    expect(p.value?.waitedMs).toBe(500)
    expect(log.lines).toEqual([
      WAITING('run-b', 'an unknown time', 60),
      'info: Lease kube-system/aks-rdma-action taken by run run-a after waiting 500ms'
    ])
  })
})

describe('the held Lease', () => {
  let { cluster, kube, clock, log } = {} as LeaseWorld

  beforeEach(() => {
    ;({ cluster, kube, clock, log } = leaseWorld())
  })

  /** Takes the Lease (30 s: renewed every 10 s, renew deadline 20 s); the calls and log start empty. */
  async function held(leaseDurationSeconds = 30): Promise<LeaseHandle> {
    const h = await acquireLease(kube.client, {
      holder: 'run-a',
      timeoutMs: 0,
      leaseDurationSeconds,
      clock,
      log
    })
    kube.calls.length = 0
    kube.raw.length = 0
    log.lines.length = 0
    log.warnings.length = 0
    return h
  }

  it('renews every third of the duration and keeps it held over several durations', async () => {
    const h = await held()
    expect(clock.timers.map(t => t.periodMs)).toEqual([10_000])
    await clock.advance(95_000)
    expect(kube.calls).toEqual(Array.from({ length: 9 }, () => [GET, 'renew lease']).flat())
    expect(kube.raw.every(r => r === true)).toBe(true)
    expect(kube.args.replace.at(-1)).toMatchObject({ name: NAME, namespace: NS })
    expect(leaseOf(cluster)?.spec).toEqual(runA(microTime(T0), microTime(T0 + 90_000), 0, 30))
    expect(h.held()).toBe(true)
    await h.confirm('apply ConfigMap x')
    expect(kube.calls.at(-1)).toBe(GET)
    expect(log.warnings).toEqual([])
    await h.release()
  })

  it('renews a 60 s Lease every 20 s', async () => {
    const h = await held(60)
    expect(clock.timers.map(t => t.periodMs)).toEqual([20_000])
    await h.release()
  })

  it('warns on a failed renewal and loses the Lease at the first one past the renew deadline', async () => {
    const h = await held()
    let lost: LeaseLostError | undefined
    void h.whenLost().then(e => (lost = e))
    kube.failing.replace = unavailable()
    const failed = 'renewing Lease kube-system/aks-rdma-action failed: etcd unavailable'
    await clock.advance(20_000)
    expect(log.warnings).toEqual([failed, failed])
    expect(h.held()).toBe(true)
    expect(lost).toBeUndefined()
    await clock.advance(10_000)
    const why = 'no renewal succeeded for 30s (last error: etcd unavailable)'
    expect(log.warnings).toEqual([failed, failed, LOST(why)])
    expect(lost).toBeInstanceOf(LeaseLostError)
    expect(lost?.message).toEqual(LOST(why))
    expect(h.held()).toBe(false)
    const calls = kube.calls.length
    await expect(h.confirm('helm upgrade rdma')).rejects.toMatchObject(LOST_ERROR(why, 'helm upgrade rdma'))
    await clock.advance(60_000)
    expect(kube.calls.length).toBe(calls)
    expect(log.warnings.length).toBe(3)
    await h.release()
    expect(kube.calls.length).toBe(calls)
    expect(leaseOf(cluster)?.spec.holderIdentity).toBe('run-a')
  })

  it('counts the renew deadline from the last renewal that succeeded', async () => {
    const h = await held()
    kube.failing.replace = unavailable()
    await clock.advance(10_000)
    kube.failing.replace = undefined
    await clock.advance(10_000)
    expect(leaseOf(cluster)?.spec.renewTime).toBe(microTime(T0 + 20_000))
    kube.failing.replace = unavailable()
    await clock.advance(20_000)
    expect(h.held()).toBe(true)
    expect(log.warnings.length).toBe(3)
    await clock.advance(1)
    expect(h.held()).toBe(false)
    await clock.advance(9_999)
    expect(log.warnings.at(-1)).toEqual(LOST('no renewal succeeded for 30s (last error: etcd unavailable)'))
  })

  it('confirm() refuses once the renew deadline has passed without a renewal, before reading', async () => {
    const h = await held()
    kube.failing.replace = unavailable()
    await clock.advance(20_000)
    await h.confirm('apply a')
    await clock.advance(1)
    const calls = kube.calls.length
    const why = 'no renewal succeeded for 20s'
    await expect(h.confirm('apply b')).rejects.toMatchObject(LOST_ERROR(why, 'apply b'))
    expect(kube.calls.length).toBe(calls)
    expect(log.warnings.at(-1)).toEqual(LOST(why))
    // Lost from now on, for the same reason, with a single warning.
    await expect(h.confirm('apply c')).rejects.toMatchObject(LOST_ERROR(why, 'apply c'))
    expect(log.warnings.filter(w => w.startsWith('the Lease')).length).toBe(1)
    const lost = track(h.whenLost())
    await settle()
    expect(lost.value).toMatchObject({ why, what: undefined })
    expect(clock.timers[0].stopped).toBe(true)
  })

  it('loses the Lease when a renewal finds another holder, and stops renewing', async () => {
    const h = await held()
    await clock.advance(5_000)
    putLease(cluster, { holderIdentity: 'run-b', leaseDurationSeconds: 30, renewTime: microTime(T0 + 5_000) })
    await clock.advance(5_000)
    const why = 'it is now held by run-b'
    expect(log.warnings).toEqual([LOST(why)])
    expect(kube.calls).toEqual([GET])
    const lost = track(h.whenLost())
    await settle()
    expect(lost.value?.message).toEqual(LOST(why))
    expect(h.held()).toBe(false)
    expect(clock.timers[0].stopped).toBe(true)
    await clock.advance(30_000)
    expect(kube.calls).toEqual([GET])
    await expect(h.confirm('apply y')).rejects.toMatchObject(LOST_ERROR(why, 'apply y'))
    expect(kube.calls).toEqual([GET])
    expect(log.warnings).toEqual([LOST(why)])
  })

  it('loses the Lease when a renewal finds it deleted', async () => {
    const h = await held()
    cluster.remove(AV, 'Lease', NAME, NS)
    await clock.advance(10_000)
    expect(log.warnings).toEqual([LOST('the Lease was deleted')])
    expect(h.held()).toBe(false)
  })

  it('confirm() reads the Lease: still this run, another holder, nobody, deleted', async () => {
    const h1 = await held()
    await h1.confirm('apply a')
    expect(kube.calls).toEqual([GET])
    expect(log.warnings).toEqual([])
    putLease(cluster, { holderIdentity: 'run-b' })
    await expect(h1.confirm('apply b')).rejects.toMatchObject(
      LOST_ERROR('it is now held by run-b', 'apply b')
    )
    expect(log.warnings).toEqual([LOST('it is now held by run-b')])
    // Lost from then on without reading again, for the reason first found.
    cluster.remove(AV, 'Lease', NAME, NS)
    await expect(h1.confirm('apply b2')).rejects.toMatchObject(
      LOST_ERROR('it is now held by run-b', 'apply b2')
    )
    expect(kube.calls).toEqual([GET, GET])
    expect(log.warnings.length).toBe(1)

    const h2 = await held()
    putLease(cluster, { holderIdentity: '' })
    await expect(h2.confirm('apply c')).rejects.toMatchObject(
      LOST_ERROR('it is now held by nobody', 'apply c')
    )

    cluster.remove(AV, 'Lease', NAME, NS)
    const h3 = await held()
    cluster.remove(AV, 'Lease', NAME, NS)
    await expect(h3.confirm('apply d')).rejects.toMatchObject(LOST_ERROR('the Lease was deleted', 'apply d'))
    expect(h3.held()).toBe(false)
  })

  it('confirm() trusts an unreadable Lease while the renewals are on time, not past the deadline', async () => {
    const h = await held()
    kube.before.read.push(() => {
      throw unavailable()
    })
    await h.confirm('apply a')
    expect(h.held()).toBe(true)
    expect(log.warnings).toEqual([])
    kube.before.read.push(() => {
      jest.setSystemTime(Date.now() + 25_000)
      throw unavailable()
    })
    const why = 'it cannot be read (etcd unavailable)'
    await expect(h.confirm('apply b')).rejects.toMatchObject(LOST_ERROR(why, 'apply b'))
    expect(log.warnings).toEqual([LOST(why)])
  })

  it('releases by deleting the Lease it holds, with preconditions, once', async () => {
    const h = await held()
    await clock.advance(10_000)
    const cur = leaseOf(cluster)!
    kube.calls.length = 0
    await h.release()
    expect(kube.calls).toEqual([GET, 'release lease'])
    expect(kube.raw.slice(-1)).toEqual([true])
    expect(kube.args.delete).toEqual([
      {
        name: NAME,
        namespace: NS,
        body: { preconditions: { uid: cur.metadata.uid, resourceVersion: cur.metadata.resourceVersion } }
      }
    ])
    expect(leaseOf(cluster)).toBeUndefined()
    expect(log.lines).toEqual(['info: Lease kube-system/aks-rdma-action released by run run-a'])
    expect(h.held()).toBe(false)
    expect(clock.timers[0].stopped).toBe(true)
    await expect(h.confirm('apply z')).rejects.toMatchObject(LOST_ERROR('this run released it', 'apply z'))
    expect(log.warnings).toEqual([])
    await h.release()
    await clock.advance(60_000)
    // A tick already under way when it was released does nothing.
    await clock.timers[0].tick()
    expect(kube.calls).toEqual([GET, 'release lease'])
  })

  it('does not delete the Lease another run holds now', async () => {
    const h = await held()
    const other = putLease(cluster, { holderIdentity: 'run-b' })
    await h.release()
    expect(kube.calls).toEqual([GET])
    expect(leaseOf(cluster)?.metadata.resourceVersion).toBe(other.metadata.resourceVersion)
    expect(log.lines).toEqual([])
  })

  it('retries the release after a conflict and gives up after three', async () => {
    const h1 = await held()
    // Renewed between the read and the delete: the resourceVersion precondition fails once.
    kube.before.delete.push(() => void putLease(cluster, { holderIdentity: 'run-a' }))
    await h1.release()
    expect(kube.calls).toEqual([GET, 'release lease', GET, 'release lease'])
    expect(leaseOf(cluster)).toBeUndefined()
    expect(log.lines).toEqual(['info: Lease kube-system/aks-rdma-action released by run run-a'])

    const h2 = await held()
    kube.failing.delete = conflict()
    await h2.release()
    expect(kube.calls).toEqual([GET, 'release lease', GET, 'release lease', GET, 'release lease'])
    expect(leaseOf(cluster)?.spec.holderIdentity).toBe('run-a')
    expect(log.lines).toEqual([])
  })

  it('takes an uid mismatch (the Lease recreated) as a conflict', async () => {
    const h = await held()
    kube.before.delete.push(() => {
      cluster.remove(AV, 'Lease', NAME, NS)
      putLease(cluster, { holderIdentity: 'run-b' }, 'uid-other')
    })
    await h.release()
    expect(kube.calls).toEqual([GET, 'release lease', GET])
    expect(leaseOf(cluster)?.spec.holderIdentity).toBe('run-b')
  })

  it('stops when the Lease is gone under the release, and fails on another error', async () => {
    const h1 = await held()
    kube.before.delete.push(() => void cluster.remove(AV, 'Lease', NAME, NS))
    await h1.release()
    expect(kube.calls).toEqual([GET, 'release lease'])
    expect(log.lines).toEqual([])

    const h2 = await held()
    kube.failing.delete = unavailable()
    await expect(h2.release()).rejects.toThrow('etcd unavailable')
    expect(kube.calls).toEqual([GET, 'release lease'])
  })
})
