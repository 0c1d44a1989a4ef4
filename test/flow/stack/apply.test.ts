// applyStack end to end against the simulated cluster and the helm stand-in: the whole order on a
// fresh pool; a converged re-run that writes nothing (no Lease, no helm upgrade, no kubelet
// restart); one changed input that changes exactly its component; and a server-side apply
// conflict with another field manager, then the same with force-conflicts.
import { jest } from '@jest/globals'
import { KubeClient } from '../../../src/kube/client.js'
import { rdmaDevicePluginManifests } from '../../../src/components/rdma-device-plugin.js'
import { helmReleaseCounts } from '../../../sim/helm/index.js'
import { applyStack } from '../../../src/stack/index.js'
import type { KubeObject } from '../../../src/kube/types.js'
import { applyOn, collectLog, poolNodes, stackWorldForTests, storeList } from '../../support/stack-world.js'
import { clusterStack } from '../../support/components.js'

jest.setTimeout(180_000)

const ORDER = clusterStack()

describe('applyStack on a 2-node pool', () => {
  const w = stackWorldForTests({ nodes: 2 })
  const secrets = (): any[] => storeList(w, 'secrets')
  const pods = (ns: string, label: string): KubeObject[] => storeList(w, 'pods', ns, label)

  it('applies every component in order, each waited for on every node', async () => {
    const log = collectLog()
    const res = await applyOn(w, { log })
    if (!res.ok) console.log(res.diagnostics.map(d => d.text).join('\n\n'))
    expect(res.ok).toBe(true)
    expect(res.steps.map(s => [s.name, s.status, s.changed, s.action])).toEqual(
      ORDER.map(n => [n, 'success', true, 'created'])
    )
    // each step's duration is the span between its own start and end
    for (const s of res.steps)
      expect([s.name, s.durationMs]).toEqual([s.name, Date.parse(s.finishedAt) - Date.parse(s.startedAt)])
    // one group per step, progress lines with per-node counts
    expect(log.groups.map(g => g.split(':')[0])).toEqual(ORDER)
    expect(log.lines).toContainEqual(
      expect.stringMatching(/^nic-cluster-policy: OFED driver ready on 2\/2 nodes, policy state ready \(\d/)
    )
    expect(log.lines).toContainEqual(
      expect.stringMatching(/^gpu-operator: GPU driver with nvidia-peermem ready on 2\/2 nodes/)
    )
    expect(helmReleaseCounts(secrets())).toEqual({ installs: 2, upgrades: 0 })
    // the result is real: allocatable on every RDMA node, lease released
    for (const n of poolNodes(w)) {
      expect(n.status.allocatable['rdma/hca_shared_devices_a']).toBe('1k')
      expect(Number(n.status.allocatable['nvidia.com/gpu'])).toBeGreaterThan(0)
    }
    expect(
      w.sim.store.tryGet(w.sim.store.type('coordination.k8s.io', 'leases')!, 'kube-system', 'aks-rdma-action')
    ).toBeUndefined()
  })

  it('a converged re-run writes nothing: no mutating request, no Lease, no helm upgrade, no kubelet restart', async () => {
    const restarts = w.sim.kubeletRestarts()
    const ibPods = pods('kube-system', 'app=ib-node-config').map(p => p.metadata.uid)
    w.recorder.reset()
    const log = collectLog()
    const res = await applyOn(w, { runId: 'run-2', log })
    expect(res.ok).toBe(true)
    expect(res.steps.map(s => [s.name, s.status, s.changed, s.action])).toEqual(
      ORDER.map(n => [n, 'success', false, 'unchanged'])
    )
    expect(w.recorder.counts().kube.mutating).toBe(0)
    expect(w.recorder.records.filter(r => r.mutating)).toEqual([])
    expect(helmReleaseCounts(secrets())).toEqual({ installs: 2, upgrades: 0 })
    expect(w.sim.kubeletRestarts()).toEqual(restarts)
    expect(pods('kube-system', 'app=ib-node-config').map(p => p.metadata.uid)).toEqual(ibPods)
    expect(log.lines.some(l => l.includes('Lease'))).toBe(false)
  })

  it('one changed input (rdma-hca-max) changes only the RDMA device plugin, and the nodes advertise the new value', async () => {
    const restarts = w.sim.kubeletRestarts()
    w.recorder.reset()
    const res = await applyOn(w, { inputs: { 'rdma-hca-max': '63' }, runId: 'run-3' })
    expect(res.ok).toBe(true)
    expect(res.steps.filter(s => s.changed).map(s => s.name)).toEqual(['rdma-device-plugin'])
    expect(res.steps.find(s => s.name === 'rdma-device-plugin')?.detail).toContain(
      'configmap/rdma-devices -n kube-system updated'
    )
    const byResource = w.recorder.counts().kube.mutatingByResource
    // The ConfigMap and the DaemonSet template's config hash change; the DaemonSet rolls its pods.
    expect(Object.keys(byResource).sort()).toEqual(['configmaps', 'daemonsets', 'leases'])
    expect(byResource.configmaps).toBe(1)
    expect(byResource.daemonsets).toBe(1)
    for (const n of poolNodes(w)) expect(n.status.allocatable['rdma/hca_shared_devices_a']).toBe('63')
    expect(w.sim.kubeletRestarts()).toEqual(restarts)
    expect(helmReleaseCounts(secrets())).toEqual({ installs: 2, upgrades: 0 })
  })

  it('a conflict with another field manager fails before any write, naming the manager; force-conflicts takes over', async () => {
    const settings = w.settings({ 'rdma-hca-max': '63' }, 'run-4')
    const [cm] = rdmaDevicePluginManifests(settings)
    const other = KubeClient.fromFile(w.kubeconfigPath, { retries: 0, fieldManager: 'kubectl-edit' })
    await other.applyManifest(
      { ...(cm as KubeObject), data: { 'config.json': '{"configList":[]}' } },
      { force: true }
    )

    w.recorder.reset()
    const log = collectLog()
    const res = await applyStack({ settings, kubeconfigPath: w.kubeconfigPath, log })
    expect(res.ok).toBe(false)
    const step = res.steps.find(s => s.name === 'rdma-device-plugin')!
    expect(step.status).toBe('failure')
    expect(step.detail).toContain('owned by field manager "kubectl-edit"')
    expect(step.detail).toContain('.data.config.json')
    expect(step.detail).toContain('force-conflicts: true')
    expect(res.steps.find(s => s.name === 'gpu-operator')?.status).toBe('skipped')
    expect(res.diagnostics).toHaveLength(1)
    expect(res.diagnostics[0]).toMatchObject({ step: 'rdma-device-plugin' })
    expect(log.errors[0]).toContain('kubectl-edit')
    expect(w.recorder.counts().kube.mutating).toBe(0)

    const forced = await applyOn(w, {
      inputs: { 'rdma-hca-max': '63', 'force-conflicts': 'true' },
      runId: 'run-5'
    })
    expect(forced.ok).toBe(true)
    expect(forced.steps.filter(s => s.changed).map(s => s.name)).toEqual(['rdma-device-plugin'])
    const live = w.sim.store.get(w.sim.store.type('', 'configmaps')!, 'kube-system', 'rdma-devices')
    expect(JSON.parse(live.data['config.json']).configList[0].rdmaHcaMax).toBe(63)
  })
})
