// The one read of the cluster verification works from, against a fake client over an in-memory
// cluster: one paginated list (limit 500) per distinct source — the pool's nodes, and each checked
// component's health sources, the shared DaemonSet list read once — the pool's nodes (not being
// deleted, naturally sorted), each component's snapshot by its source keys, a custom kind the
// server does not serve counted as none, another failure of a custom kind kept as unreadable, and
// a failure of a built-in kind failing the read. A pool without GPUs has no gpu-operator check.
import { describe, expect, it } from '@jest/globals'
import type { KubeClient } from '../../../src/kube/client.js'
import { KindNotServedError } from '../../../src/kube/errors.js'
import type { KubeObject } from '../../../src/kube/types.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import { checkedComponents, readClusterState } from '../../../src/verify/cluster-state.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'
import { apiError } from '../../support/memory-cluster.js'
import { memoryKube } from '../../support/memory-kube.js'

const settings = (over: Record<string, string> = {}) =>
  readSettings(reader({ ...VALID_APPLY, mode: 'verify', ...over }), {}, { nonce: 'n0' }).settings

/** A pool of a VM size without GPUs (the inputs refuse one; the check's own skip is what is tested). */
const noGpus = () => {
  const s = settings()
  return { ...s, nodePool: { ...s.nodePool, vmSize: 'Standard_HB176rs_v4' } }
}

const POOL = 'kubernetes.azure.com/agentpool'

/**
 * memory-kube's list (the client pages through `continue` itself: one call per list): `lists` its
 * calls, `failures` the errors a list of `apiVersion/kind` fails with (as the real client raises them).
 */
function fakeKube() {
  const f = memoryKube({
    say: {
      list: (apiVersion, kind, opts) =>
        `${apiVersion}/${kind} -n ${opts.namespace ?? '-'} -l ${opts.labelSelector ?? '-'} limit=${opts.limit}`
    }
  })
  return { ...f, lists: f.calls, failures: f.listFailures }
}

const node = (name: string, pool: string, extra: Partial<KubeObject['metadata']> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { [POOL]: pool }, ...extra }
})
const obj = (
  apiVersion: string,
  kind: string,
  name: string,
  namespace?: string,
  labels?: Record<string, string>
) => ({
  apiVersion,
  kind,
  metadata: { name, ...(namespace ? { namespace } : {}), ...(labels ? { labels } : {}) }
})

const ALL_LISTS = [
  'v1/Node -n - -l kubernetes.azure.com/agentpool=rdmapool limit=500',
  'v1/Pod -n network-operator -l nvidia.com/ofed-driver limit=500',
  'mellanox.com/v1alpha1/NicClusterPolicy -n - -l - limit=500',
  'v1/Pod -n kube-system -l app=ib-node-config limit=500',
  'apps/v1/DaemonSet -n kube-system -l aks-rdma-action/managed=true limit=500',
  'v1/Pod -n kube-system -l name=rdma-shared-dp-ds limit=500',
  'v1/Pod -n gpu-operator -l app=nvidia-driver-daemonset limit=500',
  'nvidia.com/v1/ClusterPolicy -n - -l - limit=500'
]

describe('checkedComponents', () => {
  it('the components with a check, less those it skips for the settings', () => {
    expect(checkedComponents(settings()).map(c => c.name)).toEqual([
      'nic-cluster-policy',
      'ib-node-config',
      'rdma-device-plugin',
      'gpu-operator'
    ])
    expect(checkedComponents(noGpus()).map(c => c.name)).toEqual([
      'nic-cluster-policy',
      'ib-node-config',
      'rdma-device-plugin'
    ])
  })
})

describe('readClusterState', () => {
  it('one list per distinct source, 500 a page; the pool’s nodes sorted; each component’s snapshot', async () => {
    const f = fakeKube()
    f.cluster.put(node('aks-rdmapool-10', 'rdmapool'))
    f.cluster.put(node('aks-rdmapool-2', 'rdmapool'))
    f.cluster.put(node('aks-rdmapool-3', 'rdmapool', { deletionTimestamp: '2026-12-02T10:00:00Z' }))
    f.cluster.put(node('aks-system-0', 'system'))
    f.cluster.put(obj('v1', 'Pod', 'ofed-a', 'network-operator', { 'nvidia.com/ofed-driver': '' }))
    f.cluster.put(obj('v1', 'Pod', 'other', 'network-operator', { app: 'x' }))
    f.cluster.put(
      obj('apps/v1', 'DaemonSet', 'ib-node-config', 'kube-system', { 'aks-rdma-action/managed': 'true' })
    )
    f.cluster.put(obj('v1', 'Pod', 'dp-1', 'kube-system', { name: 'rdma-shared-dp-ds' }))
    f.cluster.put(obj('mellanox.com/v1alpha1', 'NicClusterPolicy', 'nic-cluster-policy'))
    f.cluster.put(obj('nvidia.com/v1', 'ClusterPolicy', 'cluster-policy'))
    const state = await readClusterState(f.kube, settings())
    expect([...f.lists].sort()).toEqual([...ALL_LISTS].sort())
    expect(f.lists[0]).toBe(ALL_LISTS[0])
    expect(state.pool).toBe('rdmapool')
    expect(state.nodes.map(n => n.metadata.name)).toEqual(['aks-rdmapool-2', 'aks-rdmapool-10'])
    const names = (snap: Record<string, KubeObject[]> | undefined) =>
      Object.fromEntries(Object.entries(snap ?? {}).map(([k, v]) => [k, v.map(o => o.metadata.name)]))
    expect(names(state.observed['nic-cluster-policy'])).toEqual({
      pods: ['ofed-a'],
      policies: ['nic-cluster-policy']
    })
    expect(names(state.observed['ib-node-config'])).toEqual({ pods: [], daemonsets: ['ib-node-config'] })
    expect(names(state.observed['rdma-device-plugin'])).toEqual({
      pods: ['dp-1'],
      daemonsets: ['ib-node-config']
    })
    expect(names(state.observed['gpu-operator'])).toEqual({ pods: [], policies: ['cluster-policy'] })
    expect(Object.keys(state.observed)).toEqual([
      'nic-cluster-policy',
      'ib-node-config',
      'rdma-device-plugin',
      'gpu-operator'
    ])
    expect(state.unreadable).toEqual({})
  })

  it('a pool without GPUs: no gpu-operator sources read', async () => {
    const f = fakeKube()
    const state = await readClusterState(f.kube, noGpus())
    // The pool has no nodes here: one more list, of every AKS node, to name the pools there are.
    expect([...f.lists].sort()).toEqual(
      [
        ...ALL_LISTS.filter(l => !/gpu-operator|nvidia.com\/v1\/ClusterPolicy/.test(l)),
        'v1/Node -n - -l kubernetes.azure.com/agentpool limit=500'
      ].sort()
    )
    expect(state.otherPools).toEqual([])
    expect(Object.keys(state.observed)).toEqual([
      'nic-cluster-policy',
      'ib-node-config',
      'rdma-device-plugin'
    ])
    expect(state.nodes).toEqual([])
  })

  it('a custom kind not served is none; another failure of a custom kind is unreadable, per component and key', async () => {
    const f = fakeKube()
    f.failures.set(
      'mellanox.com/v1alpha1/NicClusterPolicy',
      new KindNotServedError('mellanox.com/v1alpha1', 'NicClusterPolicy')
    )
    f.failures.set('nvidia.com/v1/ClusterPolicy', apiError(500, 'InternalError', 'etcd timeout'))
    f.cluster.put(obj('v1', 'Pod', 'driver-0', 'gpu-operator', { app: 'nvidia-driver-daemonset' }))
    const state = await readClusterState(f.kube, settings())
    expect(state.observed['nic-cluster-policy']!.policies).toEqual([])
    expect(state.observed['gpu-operator']!.policies).toEqual([])
    expect(state.observed['gpu-operator']!.pods.map(p => p.metadata.name)).toEqual(['driver-0'])
    expect(state.unreadable).toEqual({
      'gpu-operator': { policies: 'list ClusterPolicy: HTTP 500: etcd timeout' }
    })
  })

  it('a custom kind whose collection answers 404 is none too', async () => {
    const f = fakeKube()
    f.failures.set(
      'nvidia.com/v1/ClusterPolicy',
      apiError(404, 'NotFound', 'the server could not find the requested resource')
    )
    const state = await readClusterState(f.kube, settings())
    expect(state.unreadable).toEqual({})
    expect(state.observed['gpu-operator']!.policies).toEqual([])
  })

  it('a custom kind failing with a non-Error: its text', async () => {
    const f = fakeKube()
    const list = f.kube.list.bind(f.kube)
    ;(f.kube as unknown as { list: KubeClient['list'] }).list = async (apiVersion, kind, opts) => {
      if (kind === 'NicClusterPolicy') throw 'connection reset'
      return list(apiVersion, kind, opts)
    }
    const state = await readClusterState(f.kube, settings())
    expect(state.unreadable).toEqual({ 'nic-cluster-policy': { policies: 'connection reset' } })
  })

  it('a built-in kind that cannot be read fails the read', async () => {
    const f = fakeKube()
    f.failures.set('apps/v1/DaemonSet', apiError(403, 'Forbidden', 'daemonsets is forbidden'))
    await expect(readClusterState(f.kube, settings())).rejects.toThrow(
      'list DaemonSet: HTTP 403: daemonsets is forbidden'
    )
    const g = fakeKube()
    g.failures.set('v1/Node', apiError(404, 'NotFound', 'not found'))
    await expect(readClusterState(g.kube, settings())).rejects.toThrow('list Node: HTTP 404: not found')
  })
})
