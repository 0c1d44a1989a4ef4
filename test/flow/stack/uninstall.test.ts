// uninstallStack end to end against the simulated cluster and the helm stand-in, with the store's
// change stream standing in for `kubectl get -A --watch`: uninstall → apply → uninstall → uninstall
// on a cluster that also holds objects the action did not create. The first uninstall finds nothing
// of the stack and writes nothing; after apply it removes exactly what the action created, in
// reverse order (the OFED driver pods gone before the Network Operator's release goes), leaving a
// namespace the action found (and what the user keeps in it), another NodeFeatureRule and other
// objects alone; the last uninstall finds nothing again — no mutating request, no Lease.
import { jest } from '@jest/globals'
import { KubeClient } from '../../../src/kube/client.js'
import type { KubeObject } from '../../../src/kube/types.js'
import { uninstallStack } from '../../../src/stack/uninstall.js'
import { ensureWorkNamespace, WORK_NAMESPACE, workRecord } from '../../../src/verify/workspace.js'
import { applyOn, collectLog, poolNodes, stackWorldForTests, storeList } from '../../support/stack-world.js'
import { clusterStack } from '../../support/components.js'

jest.setTimeout(240_000)

/** The probe's leftovers first, then the cluster stack in reverse. */
const REMOVAL_ORDER = ['probe-leftovers', ...clusterStack().reverse()]

/** The user's own objects: a namespace of theirs, the gpu-operator namespace made before the action, a rule, a ConfigMap. */
const USER_OBJECTS: KubeObject[] = [
  { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } },
  {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'settings', namespace: 'team-a' },
    data: { a: '1' }
  },
  { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'gpu-operator' } },
  {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'site-notes', namespace: 'gpu-operator' },
    data: { owner: 'platform team' }
  },
  {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'user-config', namespace: 'kube-system' },
    data: {}
  }
]

const USER_RULE: KubeObject = {
  apiVersion: 'nfd.k8s-sigs.io/v1alpha1',
  kind: 'NodeFeatureRule',
  metadata: { name: 'user-rule' },
  spec: { rules: [{ name: 'user', labels: { 'example.com/user': 'true' }, matchFeatures: [] }] }
}

describe('uninstall, apply, uninstall, uninstall on a 2-node pool', () => {
  const w = stackWorldForTests({ nodes: 2 })
  let user: KubeClient
  /** What `kubectl get -A --watch` would print: every change, in order. */
  const watched: Array<{
    type: string
    kind: string
    ns?: string
    name: string
    labels?: Record<string, string>
  }> = []
  const exists = (o: KubeObject): boolean =>
    !!w.sim.store.tryGet(
      w.sim.store.type(o.apiVersion.includes('/') ? o.apiVersion.split('/')[0] : '', plural(o.kind))!,
      o.metadata.namespace,
      o.metadata.name
    )
  const plural = (kind: string): string =>
    ({ Namespace: 'namespaces', ConfigMap: 'configmaps', NodeFeatureRule: 'nodefeaturerules' })[kind] ??
    `${kind.toLowerCase()}s`
  const count = (group: string, res: string, ns?: string, labelSelector?: string): number =>
    storeList(w, res, ns, labelSelector, group).length
  const uninstall = (runId: string, log = collectLog()) =>
    uninstallStack({ settings: w.settings({}, runId), kubeconfigPath: w.kubeconfigPath, log })

  beforeAll(async () => {
    user = KubeClient.fromFile(w.kubeconfigPath, { retries: 0, fieldManager: 'kubectl-client-side-apply' })
    for (const o of USER_OBJECTS) await user.applyManifest(o)
    w.sim.store.onChange((e, t) =>
      watched.push({
        type: e.type,
        kind: t.kind,
        ns: e.object.metadata.namespace,
        name: e.object.metadata.name,
        labels: e.object.metadata.labels
      })
    )
  })

  it('finds nothing to remove on a cluster without the stack, and writes nothing', async () => {
    w.recorder.reset()
    const res = await uninstall('run-0')
    expect(res.ok).toBe(true)
    expect(res.steps.map(s => [s.name, s.status, s.action])).toEqual(
      REMOVAL_ORDER.map(n => [n, 'success', 'unchanged'])
    )
    // The namespace the user made is not the action's: said, and kept.
    expect(res.steps.find(s => s.name === 'gpu-operator')?.detail).toContain(
      'namespace/gpu-operator kept: not created by the action'
    )
    expect(w.recorder.counts().kube.mutating).toBe(0)
  })

  it('after apply, removes exactly what the action created, in reverse order, and leaves the rest', async () => {
    const applied = await applyOn(w, { runId: 'run-1' })
    expect(applied.ok).toBe(true)
    await user.applyManifest(USER_RULE)
    // What a verification run interrupted before its cleanup leaves: the work namespace it created and recorded.
    const verifier = KubeClient.fromFile(w.kubeconfigPath, { retries: 0 })
    await ensureWorkNamespace(verifier, WORK_NAMESPACE, workRecord(verifier, 'run-verify'))
    expect(count('', 'pods', 'network-operator', 'nvidia.com/ofed-driver')).toBe(2)

    watched.length = 0
    const log = collectLog()
    const res = await uninstall('run-2', log)
    if (!res.ok) console.log(res.diagnostics.map(d => d.text).join('\n\n'))
    expect(res.ok).toBe(true)
    expect(res.steps.map(s => [s.name, s.status, s.action])).toEqual(
      REMOVAL_ORDER.map(n => [n, 'success', 'deleted'])
    )
    expect(log.groups.map(g => g.split(':')[0])).toEqual(REMOVAL_ORDER)

    // The stack is gone: objects, releases, namespaces the action created, the driver pods.
    expect(count('mellanox.com', 'nicclusterpolicies')).toBe(0)
    expect(
      w.sim.store.tryGet(
        w.sim.store.type('nfd.k8s-sigs.io', 'nodefeaturerules')!,
        undefined,
        'nfd-network-rule'
      )
    ).toBeUndefined()
    expect(count('apps', 'daemonsets', 'kube-system', 'aks-rdma-action/managed=true')).toBe(0)
    expect(count('', 'configmaps', 'kube-system', 'aks-rdma-action/managed=true')).toBe(0)
    expect(count('', 'secrets', undefined, 'owner=helm')).toBe(0)
    for (const ns of ['network-operator', 'aks-rdma-verify'])
      expect(w.sim.store.tryGet(w.sim.store.type('', 'namespaces')!, undefined, ns)).toBeUndefined()
    expect(count('', 'pods', 'network-operator')).toBe(0)
    expect(count('', 'pods', 'gpu-operator')).toBe(0)

    // The user's objects survive, the namespace the action found included.
    for (const o of [...USER_OBJECTS, USER_RULE])
      expect([o.metadata.name, exists(o)]).toEqual([o.metadata.name, true])
    expect(res.steps.find(s => s.name === 'gpu-operator')?.detail).toContain(
      'namespace/gpu-operator kept: not created by the action'
    )
    // Never a deletion of anything the action did not create or run.
    const deleted = watched.filter(e => e.type === 'DELETED')
    for (const o of [...USER_OBJECTS, USER_RULE])
      expect(deleted.some(e => e.kind === o.kind && e.name === o.metadata.name)).toBe(false)

    // Reverse order, each part gone before the next: the OFED driver pods before the Network
    // Operator's Deployment, the NicClusterPolicy after the device plugin and ib-node-config.
    const at = (pred: (e: (typeof watched)[number]) => boolean): number => watched.findIndex(pred)
    const lastAt = (pred: (e: (typeof watched)[number]) => boolean): number =>
      watched.length - 1 - [...watched].reverse().findIndex(pred)
    const lastOfedPod = lastAt(
      e => e.type === 'DELETED' && e.kind === 'Pod' && e.labels?.['nvidia.com/ofed-driver'] !== undefined
    )
    const operator = at(e => e.type === 'DELETED' && e.kind === 'Deployment' && e.name === 'network-operator')
    const policy = at(e => e.type === 'DELETED' && e.kind === 'NicClusterPolicy')
    const devicePlugin = at(
      e => e.type === 'DELETED' && e.kind === 'DaemonSet' && e.name === 'rdma-shared-dp-ds'
    )
    const ibNodeConfig = at(
      e => e.type === 'DELETED' && e.kind === 'DaemonSet' && e.name === 'ib-node-config'
    )
    const gpuOperator = at(e => e.type === 'DELETED' && e.kind === 'Deployment' && e.name === 'gpu-operator')
    expect(gpuOperator).toBeGreaterThanOrEqual(0)
    expect([gpuOperator < devicePlugin, devicePlugin < ibNodeConfig, ibNodeConfig < policy]).toEqual([
      true,
      true,
      true
    ])
    expect(policy).toBeLessThan(lastOfedPod)
    expect(lastOfedPod).toBeLessThan(operator)
    // The Lease was taken for the deletes and released at the end.
    expect(log.lines.some(l => /Lease kube-system\/aks-rdma-action taken by run run-2/.test(l))).toBe(true)
    expect(
      w.sim.store.tryGet(w.sim.store.type('coordination.k8s.io', 'leases')!, 'kube-system', 'aks-rdma-action')
    ).toBeUndefined()
  })

  it('apply works again on the uninstalled cluster, and uninstall removes it again', async () => {
    const applied = await applyOn(w, { runId: 'run-3' })
    expect(applied.ok).toBe(true)
    for (const n of poolNodes(w)) expect(n.status.allocatable['rdma/hca_shared_devices_a']).toBe('1k')
    const res = await uninstall('run-4')
    expect(res.ok).toBe(true)
    expect(res.steps.filter(s => s.action === 'deleted').map(s => s.name)).toEqual(REMOVAL_ORDER.slice(1))
  })

  it('a re-run finds nothing to do: every part unchanged, no mutating request, no Lease', async () => {
    w.recorder.reset()
    const log = collectLog()
    const res = await uninstall('run-5', log)
    expect(res.ok).toBe(true)
    expect(res.steps.map(s => [s.name, s.action])).toEqual(REMOVAL_ORDER.map(n => [n, 'unchanged']))
    expect(w.recorder.records.filter(r => r.mutating)).toEqual([])
    expect(log.lines.some(l => l.includes('Lease'))).toBe(false)
    for (const o of [...USER_OBJECTS, USER_RULE]) expect(exists(o)).toBe(true)
  })
})
