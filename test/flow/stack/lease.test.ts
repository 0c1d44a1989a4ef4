// The Lease as a run holds it: confirm() before a write resolves while the run holds it and throws
// LeaseLostError (naming the new holder and what it was about to do) once another identity holds it,
// after which the run writes nothing more to the Lease; renewals that keep failing past the renew
// deadline also lose it. Expiry of another run's Lease is judged from what this run observed, as
// client-go does: a holder that keeps renewing is never taken over whatever its renewTime says
// (a runner whose clock is behind or ahead), and one that stopped is taken over once this run has
// seen its record unchanged for a whole lease duration.
import { describe, expect, it } from '@jest/globals'
import { KubeClient } from '../../../src/kube/client.js'
import { lineLog, silentLog } from '../../../src/log/index.js'
import {
  acquireLease,
  LEASE_NAME,
  LEASE_NAMESPACE,
  LeaseLostError,
  LeaseTimeoutError,
  microTime
} from '../../../src/stack/lease.js'
import { withStackWorld, type StackWorld } from '../../support/stack-world.js'

const leasesOf = (world: StackWorld) => world.sim.store.type('coordination.k8s.io', 'leases')!
const leaseNow = (world: StackWorld) => world.sim.store.tryGet(leasesOf(world), LEASE_NAMESPACE, LEASE_NAME)
const leaseWrites = (world: StackWorld) =>
  world.recorder.records.filter(r => r.resource === 'leases' && r.mutating).length

/** This run's attempt to take the Lease times out: `holder` still holds it. */
async function expectStillHeldBy(world: StackWorld, holder: string, timeoutMs: number): Promise<void> {
  const err = await acquireLease(KubeClient.fromFile(world.kubeconfigPath, { retries: 1 }), {
    holder: 'run-1',
    timeoutMs
  }).catch(e => e)
  expect(err).toBeInstanceOf(LeaseTimeoutError)
  expect(leaseNow(world)?.spec.holderIdentity).toBe(holder)
}

/** Another runner's Lease, renewed by a timer that stamps `renewTime` with its own (skewed) clock. */
function foreignHolder(world: StackWorld, holder: string, skewMs: number, durationS = 1) {
  const stamp = () => microTime(Date.now() + skewMs)
  world.sim.store.create(leasesOf(world), {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: LEASE_NAME, namespace: LEASE_NAMESPACE },
    spec: {
      holderIdentity: holder,
      leaseDurationSeconds: durationS,
      acquireTime: stamp(),
      renewTime: stamp()
    }
  })
  const timer = setInterval(
    () =>
      world.sim.store.mutate(leasesOf(world), LEASE_NAMESPACE, LEASE_NAME, l => {
        l.spec.renewTime = stamp()
      }),
    (durationS * 1000) / 4
  )
  return { stop: () => clearInterval(timer) }
}

describe('a run that holds the Lease', () => {
  it('confirms it before a write; once another identity holds it, confirm throws and the run stops writing it', () =>
    withStackWorld({ nodes: 1 }, async w => {
      const client = KubeClient.fromFile(w.kubeconfigPath, { retries: 1 })
      const warnings: string[] = []
      const h = await acquireLease(client, {
        holder: 'run-1',
        timeoutMs: 5000,
        leaseDurationSeconds: 3,
        log: { ...silentLog, warning: (l: string) => void warnings.push(l) }
      })
      await h.confirm('writing ConfigMap kube-system/rdma-devices')
      expect(h.held()).toBe(true)

      // Another identity takes the Lease over behind this run's back.
      w.sim.store.mutate(leasesOf(w), LEASE_NAMESPACE, LEASE_NAME, l => {
        l.spec.holderIdentity = 'run-2'
      })
      let err: unknown
      try {
        await h.confirm('helm upgrade --install gpu-operator')
      } catch (e) {
        err = e
      }
      expect(err).toBeInstanceOf(LeaseLostError)
      expect((err as Error).message).toBe(
        `the Lease kube-system/aks-rdma-action is no longer held by this run (run-1): it is now held by run-2. ` +
          'Stopped before helm upgrade --install gpu-operator, so as not to write over the run that holds it now; re-run once it has finished.'
      )
      expect(h.held()).toBe(false)
      expect((await h.whenLost()).why).toBe('it is now held by run-2')
      // One warning of the loss (a renewal that read the Lease just before the takeover may also
      // have warned of its 409 Conflict: that is the renewal losing the same race, not a second loss).
      expect(warnings.filter(l => !/^renewing Lease .* failed: /.test(l))).toHaveLength(1)
      // From now on: every confirm refuses, and this run never writes the Lease again (no renewal,
      // and release leaves the other run's Lease alone).
      const writes = leaseWrites(w)
      await expect(h.confirm('writing DaemonSet kube-system/rdma-shared-dp-ds')).rejects.toThrow(
        /Stopped before writing DaemonSet/
      )
      await new Promise(r => setTimeout(r, 1500)) // longer than a renewal period (1 s)
      await h.release()
      expect(leaseWrites(w)).toBe(writes)
      expect(leaseNow(w)?.spec.holderIdentity).toBe('run-2')
    }))

  it('the renewals notice a takeover on their own: whenLost resolves without a confirm', () =>
    withStackWorld({ nodes: 1 }, async w => {
      const client = KubeClient.fromFile(w.kubeconfigPath, { retries: 1 })
      const h = await acquireLease(client, { holder: 'run-1', timeoutMs: 5000, leaseDurationSeconds: 1 })
      w.sim.store.delete(leasesOf(w), LEASE_NAMESPACE, LEASE_NAME)
      const lost = await h.whenLost()
      expect(lost.why).toBe('the Lease was deleted')
      expect(h.held()).toBe(false)
      await expect(h.confirm('writing x')).rejects.toBeInstanceOf(LeaseLostError)
    }))

  it('renewals that keep failing past the renew deadline lose it', () =>
    withStackWorld(
      {
        nodes: 1,
        scenario: { kube: { timeScale: 0.001, faults: [{ api: 'PUT */leases/*', status: 500 }] } }
      },
      async w => {
        const client = KubeClient.fromFile(w.kubeconfigPath, { retries: 0 })
        const h = await acquireLease(client, { holder: 'run-1', timeoutMs: 5000, leaseDurationSeconds: 1 })
        const lost = await h.whenLost()
        expect(lost.why).toMatch(/^no renewal succeeded for \S+ \(last error: /)
        await expect(h.confirm('writing x')).rejects.toThrow(/no renewal succeeded/)
      }
    ))
})

describe('taking over another run’s Lease: expiry as this run observed it', () => {
  it('a holder that keeps renewing is never taken over, though its clock is an hour behind', () =>
    withStackWorld({ nodes: 1 }, async w => {
      const other = foreignHolder(w, 'slow-clock', -3_600_000)
      try {
        await expectStillHeldBy(w, 'slow-clock', 2500)
      } finally {
        other.stop()
      }
    }))

  it('a holder whose clock is an hour ahead, once it stops renewing, is taken over after a lease duration of silence', () =>
    withStackWorld({ nodes: 1 }, async w => {
      const other = foreignHolder(w, 'fast-clock', 3_600_000)
      other.stop() // it crashed: its last renewTime lies an hour in this run's future
      const lines: string[] = []
      const h = await acquireLease(KubeClient.fromFile(w.kubeconfigPath, { retries: 1 }), {
        holder: 'run-1',
        timeoutMs: 10_000,
        log: lineLog(l => void lines.push(l))
      })
      expect(leaseNow(w)?.spec).toMatchObject({ holderIdentity: 'run-1', leaseTransitions: 1 })
      expect(lines[0]).toMatch(
        /is held by run fast-clock \(for \S+ by its runner's clock\); waiting for it: taken over only if this run sees it go unrenewed for 1s$/
      )
      expect(lines[1]).toMatch(/taken by run run-1 after waiting/)
      await h.release()
    }))

  it('a stale record is not taken at first sight: a whole lease duration is observed first', () =>
    withStackWorld({ nodes: 1 }, async w => {
      const other = foreignHolder(w, 'crashed', -60_000, 2)
      other.stop()
      // Its renewTime is a minute old by this run's clock, but this run has not seen it age.
      await expectStillHeldBy(w, 'crashed', 500)
    }))
})
