// A run that loses its Lease stops writing: once another run holds the Lease (taken over behind
// this run's back, the moment this run took it), the next write or helm call finds out, the step
// fails naming the loss, nothing after it is written, the run fails, and the other run's Lease is
// left alone — in both rollouts.
import { afterEach, describe, expect, it, jest } from '@jest/globals'
import type { KubeObject } from '../../../src/kube/types.js'
import { LEASE_NAME, LEASE_NAMESPACE, microTime } from '../../../src/stack/lease.js'
import { applyStack } from '../../../src/stack/index.js'
import { collectLog, startStackWorld, useHelmStandin, type StackWorld } from '../../support/stack-world.js'

jest.setTimeout(180_000)

let w: StackWorld | undefined
afterEach(async () => {
  await w?.close()
  w = undefined
})

const leases = (world: StackWorld) => world.sim.store.type('coordination.k8s.io', 'leases')!
const lease = (world: StackWorld): KubeObject | undefined =>
  world.sim.store.tryGet(leases(world), LEASE_NAMESPACE, LEASE_NAME) as KubeObject | undefined

/**
 * As soon as this run has taken the Lease, another run takes it over and keeps renewing it.
 * Returns where in the request log the takeover happened and a stop for the other run's renewals.
 */
function takeOverWhenTaken(world: StackWorld): { at: () => number; stop: () => void } {
  let at = -1
  let renew: ReturnType<typeof setInterval> | undefined
  const watch = setInterval(() => {
    if (at >= 0 || lease(world)?.spec?.holderIdentity !== 'run-1') return
    at = world.recorder.records.length
    const take = () =>
      world.sim.store.mutate(leases(world), LEASE_NAMESPACE, LEASE_NAME, l => {
        l.spec.holderIdentity = 'other-run'
        l.spec.renewTime = microTime(Date.now())
      })
    take()
    renew = setInterval(take, 200)
  }, 1)
  return {
    at: () => at,
    stop: () => {
      clearInterval(watch)
      if (renew) clearInterval(renew)
    }
  }
}

const STACK_OBJECTS: Array<[string, string, string]> = [
  ['nfd.k8s-sigs.io', 'nodefeaturerules', 'nfd-network-rule'],
  ['mellanox.com', 'nicclusterpolicies', 'nic-cluster-policy'],
  ['apps', 'daemonsets', 'ib-node-config'],
  ['apps', 'daemonsets', 'rdma-shared-dp-ds']
]

describe.each(['sequential', 'pipelined'])('%s rollout, Lease taken over mid-run', rollout => {
  it('stops at the next write, fails naming the loss, and leaves the other run its Lease', async () => {
    await useHelmStandin()
    w = await startStackWorld({ nodes: 1 })
    const takeover = takeOverWhenTaken(w)
    const log = collectLog()
    try {
      const res = await applyStack({
        settings: w.settings({ rollout, 'step-timeout': '120s' }),
        kubeconfigPath: w.kubeconfigPath,
        log,
        // Renewals (every 10 s) play no part: the next write's confirm sees the takeover.
        leaseDurationSeconds: 30
      })
      expect(takeover.at()).toBeGreaterThanOrEqual(0)
      expect(res.ok).toBe(false)
      const failed = res.steps.find(s => s.status === 'failure')
      expect(failed?.detail).toMatch(
        /Lease kube-system\/aks-rdma-action is no longer held by this run \(run-1\)/
      )
      expect(failed?.detail).toMatch(/now held by other-run/)
      // Nothing of the later components was written.
      for (const [group, plural, name] of STACK_OBJECTS) {
        const type = w.sim.store.type(group, plural)
        const found = type ? w.sim.store.list(type, {}).items.some(o => o.metadata.name === name) : false
        expect({ object: `${plural}/${name}`, found }).toEqual({ object: `${plural}/${name}`, found: false })
      }
      // The other run's Lease is still there, still its own: this run neither renewed nor deleted it.
      expect(lease(w)?.spec?.holderIdentity).toBe('other-run')
      const leaseWritesAfter = w.recorder.records
        .slice(takeover.at())
        .filter(r => r.resource === 'leases' && r.mutating)
      expect(leaseWritesAfter).toEqual([])
    } finally {
      takeover.stop()
    }
  })
})
