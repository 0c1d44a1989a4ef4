// RunLease, the Lease as one run holds it, against an in-memory API server: ensure() takes it
// once (waiting up to the run's deadline), confirm() does nothing before and reads after, `lost`
// follows the renewals, release() gives it back and sets `released` only when this run held it,
// and a failing release only warns.
import { jest } from '@jest/globals'
import { RunLease } from '../../../src/stack/run-lease.js'
import { LeaseLostError, LeaseTimeoutError, microTime } from '../../../src/stack/lease.js'
import type { Clock } from '../../../src/util/clock.js'
import { settle } from '../../support/manual-clock.js'
import { apiError } from '../../support/memory-cluster.js'
import { leaseWorld, putLease, type LeaseWorld } from '../../support/memory-lease.js'

const AV = 'coordination.k8s.io/v1'
const NAME = 'aks-rdma-action'
const NS = 'kube-system'
const T0 = Date.UTC(2026, 0, 2, 3, 4, 5, 678)
const GET = 'get lease aks-rdma-action'

describe('RunLease', () => {
  let { cluster, kube, clock, log } = {} as LeaseWorld

  beforeEach(() => {
    jest.useFakeTimers({ now: T0, doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] })
    ;({ cluster, kube, clock, log } = leaseWorld())
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
