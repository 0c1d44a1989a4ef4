// The operators' driver upgrade controller (sim/kube/controllers/driver-upgrade.ts, modelled on
// NVIDIA/k8s-operator-libs pkg/upgrade in-place mode): a new DOCA driver version in the
// NicClusterPolicy replaces the OFED driver pods node by node through the documented states, never
// more nodes cordoned than maxParallelUpgrades (0: all at once), evicting the node's workload pods
// first; a pod the drain may not remove (no controller, force off) fails that node's upgrade.
import { isReady, networkOperatorWorld, type World } from '../../support/controllers-world.js'
import type { KubeObject } from '../../../sim/kube/store.js'

let w: World

const STATE = 'nvidia.com/ofed-driver-upgrade-state'
const ncpType = () => w.t('nicclusterpolicies', 'mellanox.com')
const gpuNodes = () => w.list('nodes', { labelSelector: 'agentpool=gpu' })
const ofedPods = () =>
  w.list('pods', { namespace: 'network-operator', labelSelector: 'nvidia.com/ofed-driver' })

/** A policy whose driver is ready on every node, upgrade-done everywhere. */
async function installed(nodes: number, policy: (spec: any) => void = () => undefined): Promise<void> {
  w = networkOperatorWorld({ gpus: nodes })
  w.store.mutate(ncpType(), undefined, 'nic-cluster-policy', o => policy(o.spec.ofedDriver.upgradePolicy))
  await w.waitFor('drivers ready, upgrade-done', () => {
    const pods = ofedPods()
    return (
      pods.length === nodes &&
      pods.every(isReady) &&
      gpuNodes().every(n => n.metadata.labels?.[STATE] === 'upgrade-done')
    )
  })
}

/** Records every node's state sequence and how many nodes were cordoned at once. */
function watchNodes() {
  const states = new Map<string, string[]>(
    gpuNodes().map(n => [n.metadata.name, [n.metadata.labels![STATE]]])
  )
  const out = new Set<string>()
  let maxOut = 0
  const stop = w.store.onChange((e, t) => {
    if (t.kind !== 'Node' || !e.object.metadata.labels?.agentpool) return
    const n = e.object as KubeObject
    const seq = states.get(n.metadata.name) ?? []
    const s = n.metadata.labels?.[STATE]
    if (s && seq[seq.length - 1] !== s) seq.push(s)
    states.set(n.metadata.name, seq)
    if (n.spec?.unschedulable) out.add(n.metadata.name)
    else out.delete(n.metadata.name)
    maxOut = Math.max(maxOut, out.size)
  })
  return { states, maxOut: () => maxOut, stop }
}

const newDriver = () =>
  w.store.mutate(ncpType(), undefined, 'nic-cluster-policy', o => {
    o.spec.ofedDriver.version = 'doca3.4.0-26.04-0.8.6.0-0'
  })

const allUpgraded = () =>
  ofedPods().length === gpuNodes().length &&
  ofedPods().every(p => isReady(p) && p.spec.containers[0].image.includes(':doca3.4.0-26.04-0.8.6.0-0-')) &&
  gpuNodes().every(n => n.metadata.labels?.[STATE] === 'upgrade-done' && !n.spec?.unschedulable)

describe('the OFED driver upgrade (ofedDriver.upgradePolicy)', () => {
  it('replaces the driver node by node through the documented states, one node out at a time, evicting workloads', async () => {
    await installed(3)
    // A workload pod on the first node (a ReplicaSet's: the drain evicts it).
    const first = gpuNodes()[0].metadata.name
    w.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'worker-0',
        namespace: 'default',
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'worker', uid: 'rs-1', controller: true }
        ]
      },
      spec: { nodeName: first, containers: [{ name: 'c', image: 'busybox' }] }
    })
    const watch = watchNodes()
    let evictedWhileCordoned = false
    const stopPods = w.store.onChange((e, t) => {
      if (t.kind === 'Pod' && e.type === 'DELETED' && e.object.metadata.name === 'worker-0')
        evictedWhileCordoned = !!w.get('nodes', undefined, first)?.spec?.unschedulable
    })
    newDriver()
    await w.waitFor('every node upgraded', allUpgraded, 120_000)
    watch.stop()
    stopPods()
    expect(watch.maxOut()).toBe(1)
    for (const n of gpuNodes())
      expect(watch.states.get(n.metadata.name)).toEqual([
        'upgrade-done',
        'upgrade-required',
        'cordon-required',
        'wait-for-jobs-required',
        'drain-required',
        'pod-restart-required',
        'uncordon-required',
        'upgrade-done'
      ])
    expect(evictedWhileCordoned).toBe(true)
    expect(w.errors).toEqual([])
  })

  it('maxParallelUpgrades 0 upgrades every node at once', async () => {
    await installed(3, p => (p.maxParallelUpgrades = 0))
    const watch = watchNodes()
    newDriver()
    await w.waitFor('every node upgraded', allUpgraded, 120_000)
    watch.stop()
    expect(watch.maxOut()).toBe(3)
  })

  it('a pod the drain may not remove (no controller, force false) fails that node; the others wait', async () => {
    await installed(2, p => (p.drain.force = false))
    for (const [i, n] of gpuNodes().entries())
      w.create({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: `bare-${i}`, namespace: 'default' },
        spec: { nodeName: n.metadata.name, containers: [{ name: 'c', image: 'busybox' }] }
      })
    newDriver()
    const state = (n: KubeObject) => n.metadata.labels?.[STATE]
    const failed = await w.waitFor('upgrade-failed', () =>
      gpuNodes().find(n => state(n) === 'upgrade-failed')
    )
    const events = w.list('events').filter(e => e.involvedObject?.name === failed.metadata.name)
    expect(events.map(e => e.message)).toContainEqual(
      expect.stringMatching(
        /^Failed to drain the node, cannot delete Pods that declare no controller \(use --force to override\): default\/bare-\d$/
      )
    )
    await new Promise(r => setTimeout(r, 300)) // more than two requeue intervals of simulated time
    // The failed node holds the only upgrade slot: the other node waits; no pod was deleted.
    expect(gpuNodes().map(state).sort()).toEqual(['upgrade-failed', 'upgrade-required'])
    expect(w.list('pods', { namespace: 'default' })).toHaveLength(2)
  })
})
