// The work namespace and its pod operations against a fake client over an in-memory cluster: the
// namespace created only when absent or being deleted (one GET when it exists), a pod created with
// the request named after it (409 when it exists), the one-request cleanup by label, the quiet
// cleanup's error text, and the DNS names built from parts.
import { describe, expect, it } from '@jest/globals'
import type { KubeClient } from '../../../src/kube/client.js'
import type { KubeObject } from '../../../src/kube/types.js'
import {
  createPod,
  deletePods,
  deletePodsQuietly,
  dnsName,
  ensureWorkNamespace,
  workNamespaceManifest
} from '../../../src/verify/workspace.js'
import { apiError } from '../../support/memory-cluster.js'
import { memoryKube } from '../../support/memory-kube.js'

/** memory-kube with workspace.ts's words for the apply (and its live object) and the pod delete. */
const fakeKube = () =>
  memoryKube({
    say: {
      apply: (m, opts) =>
        `apply ${m.kind}/${m.metadata.name} live=${opts.live === null ? 'null' : opts.live?.metadata.name}`,
      deletePods: q =>
        `delete pods ${q.namespace} -l ${q.labelSelector} grace=${q.gracePeriodSeconds} ${q.propagationPolicy}`
    }
  })

const pod = (
  name: string,
  namespace?: string,
  labels: Record<string, string> = { app: 'x' }
): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, ...(namespace ? { namespace } : {}), labels },
  spec: { containers: [{ name: 'c', image: 'busybox' }] }
})

describe('ensureWorkNamespace', () => {
  it('creates the labelled namespace when absent (live: null)', async () => {
    const f = fakeKube()
    await ensureWorkNamespace(f.kube, 'work-ns')
    expect(f.calls).toEqual(['get Namespace/work-ns', 'apply Namespace/work-ns live=null'])
    const ns = f.cluster.get('v1', 'Namespace', 'work-ns')!
    expect(ns.metadata.labels).toEqual(workNamespaceManifest('work-ns').metadata.labels)
    expect(ns.metadata.labels).toEqual({
      'aks-rdma-action/managed': 'true',
      'app.kubernetes.io/name': 'aks-rdma-action',
      'pod-security.kubernetes.io/enforce': 'baseline'
    })
  })

  it('defaults to aks-rdma-verify', async () => {
    const f = fakeKube()
    await ensureWorkNamespace(f.kube)
    expect(f.calls).toEqual(['get Namespace/aks-rdma-verify', 'apply Namespace/aks-rdma-verify live=null'])
  })

  it('costs one GET when it exists', async () => {
    const f = fakeKube()
    f.cluster.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'work-ns' } })
    await ensureWorkNamespace(f.kube, 'work-ns')
    expect(f.calls).toEqual(['get Namespace/work-ns'])
  })

  it('applies again over a namespace being deleted, as the caller read it', async () => {
    const f = fakeKube()
    f.cluster.put({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'work-ns', deletionTimestamp: '2026-01-01T00:00:00Z' }
    })
    await ensureWorkNamespace(f.kube, 'work-ns')
    expect(f.calls).toEqual(['get Namespace/work-ns', 'apply Namespace/work-ns live=work-ns'])
  })
})

describe('createPod', () => {
  it('creates the pod in its namespace and returns it as plain JSON', async () => {
    const f = fakeKube()
    const out = await createPod(f.kube, pod('p1', 'ns1'))
    expect(f.requests).toEqual(['create pod p1 -n ns1'])
    expect(f.calls).toEqual(['create pod ns1/p1'])
    expect(out.metadata).toMatchObject({ name: 'p1', namespace: 'ns1', resourceVersion: '2' })
    expect(f.cluster.get('v1', 'Pod', 'p1', 'ns1')).toBeDefined()
  })

  it('puts a pod without a namespace in the work namespace, and names it by generateName when it has no name', async () => {
    const f = fakeKube()
    const gen: KubeObject = { ...pod('x'), metadata: { generateName: 'ucx-', labels: {} } as never }
    f.failNext.set('createNamespacedPod', apiError(403, 'Forbidden', 'pods is forbidden'))
    await expect(createPod(f.kube, gen)).rejects.toThrow(
      'create pod ucx- -n aks-rdma-verify: HTTP 403: pods is forbidden'
    )
    const anon: KubeObject = { ...pod('x'), metadata: {} as never }
    f.failNext.set('createNamespacedPod', apiError(500, 'InternalError', 'etcd down'))
    await expect(createPod(f.kube, anon)).rejects.toThrow(
      'create pod  -n aks-rdma-verify: HTTP 500: etcd down'
    )
    await createPod(f.kube, pod('p2'))
    expect(f.calls.at(-1)).toBe('create pod aks-rdma-verify/p2')
  })

  it('fails with 409 when the pod exists', async () => {
    const f = fakeKube()
    await createPod(f.kube, pod('p1', 'ns1'))
    await expect(createPod(f.kube, pod('p1', 'ns1'))).rejects.toThrow(
      'create pod p1 -n ns1: HTTP 409: pods "p1" already exists'
    )
  })
})

describe('deletePods and deletePodsQuietly', () => {
  it('deletes every matching pod in one request, grace 0, background', async () => {
    const f = fakeKube()
    f.cluster.put({ ...pod('a', 'ns1'), metadata: { name: 'a', namespace: 'ns1', labels: { app: 'x' } } })
    f.cluster.put({ ...pod('b', 'ns1'), metadata: { name: 'b', namespace: 'ns1', labels: { app: 'y' } } })
    await deletePods(f.kube, 'app=x', 'ns1')
    expect(f.requests).toEqual(['delete pods -n ns1 -l app=x'])
    expect(f.calls).toEqual(['delete pods ns1 -l app=x grace=0 Background'])
    expect(f.cluster.all('v1', 'Pod').map(p => p.metadata.name)).toEqual(['b'])
  })

  it('defaults to the work namespace', async () => {
    const f = fakeKube()
    await deletePods(f.kube, 'app=x')
    expect(f.requests).toEqual(['delete pods -n aks-rdma-verify -l app=x'])
    expect(await deletePodsQuietly(f.kube, 'app=z')).toBeUndefined()
    expect(f.requests.at(-1)).toBe('delete pods -n aks-rdma-verify -l app=z')
  })

  it('quietly: undefined when done, the error text when not, never a throw', async () => {
    const f = fakeKube()
    expect(await deletePodsQuietly(f.kube, 'app=x', 'ns1')).toBeUndefined()
    f.failNext.set('deleteCollectionNamespacedPod', apiError(403, 'Forbidden', 'cannot delete pods'))
    const err = await deletePodsQuietly(f.kube, 'app=x', 'ns1')
    expect(err).toMatch(/^delete pods -n ns1 -l app=x: HTTP 403: cannot delete pods/)
  })

  it('quietly: a thrown non-Error as its text', async () => {
    const kube = {
      request: async () => {
        throw 'socket gone'
      }
    } as unknown as KubeClient
    expect(await deletePodsQuietly(kube, 'app=x', 'ns1')).toBe('socket gone')
  })
})

// runOncePodSpec's fields are pinned in test/unit/model/work-labels.test.ts.
describe('the namespace manifest', () => {
  it('the work namespace by default', () => {
    expect(workNamespaceManifest()).toMatchObject({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'aks-rdma-verify' }
    })
  })
})

describe('dnsName', () => {
  it('lower-cases, replaces and collapses, trims dashes at both ends', () => {
    expect(dnsName(['-Rdma_Probe', 'A..B-'])).toBe('rdma-probe-a-b')
    expect(dnsName(['--x', 'y--'])).toBe('x-y')
  })

  it('cuts a long name to max with a hash of the whole', () => {
    const n = dnsName(['a'.repeat(70)])
    expect(n).toMatch(/^a{56}-[0-9a-f]{6}$/)
    expect(n).toHaveLength(63)
    expect(dnsName(['b'.repeat(20)], 10)).toMatch(/^bbb-[0-9a-f]{6}$/)
    expect(dnsName(['b'.repeat(10)], 10)).toBe('b'.repeat(10))
  })
})
