// Deletion as kube-apiserver and kube-controller-manager carry it out, through the real client:
// finalizers hold an object (still readable, its name still taken: `object is being deleted`, no
// finalizer may be added), a pod is deleted gracefully (deletionTimestamp = now + grace; with no
// kubelet to stop it, it stays until a delete with grace 0), the three propagation policies with
// the garbage collector (Foreground waits for dependents, Orphan clears their ownerReferences,
// Background goes at once), a batch/v1 Job orphans its pods by default, and a Namespace terminates:
// Terminating with the real conditions, no new content (403), a second delete 409, gone once empty.
import { describe, expect, it } from '@jest/globals'
import { PatchStrategy, setHeaderOptions, type V1OwnerReference } from '@kubernetes/client-node'
import {
  failure,
  nodeObject,
  podObject,
  rawRequest,
  waitFor,
  worldForTests
} from '../../support/apiserver-world.js'

const w = worldForTests(async () => {
  w.put('', 'nodes', nodeObject('n1'))
  await w.core.createNamespace({ body: { metadata: { name: 'del' } } })
})

const pods = () => w.type('', 'pods')
const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch)
/** Removes every finalizer of a ConfigMap, as its owner does when it is done. */
const dropFinalizers = (namespace: string, name: string) =>
  w.core.patchNamespacedConfigMap({ name, namespace, body: { metadata: { finalizers: null } } }, merge)
const live = (group: string, plural: string, ns: string | undefined, name: string) =>
  w.store.tryGet(w.type(group, plural), ns, name)

describe('finalizers', () => {
  it('hold a deleted object: readable, its name taken, no finalizer added, gone when the last is removed', async () => {
    await w.core.createNamespacedConfigMap({
      namespace: 'del',
      body: { metadata: { name: 'held', finalizers: ['example.com/keep'] } }
    })
    const res = await rawRequest(w, '/api/v1/namespaces/del/configmaps/held', { method: 'DELETE' })
    expect(res.status).toBe(200)
    expect(res.json.kind).toBe('ConfigMap')
    expect(res.json.metadata).toMatchObject({
      deletionGracePeriodSeconds: 0,
      finalizers: ['example.com/keep']
    })
    expect(res.json.metadata.deletionTimestamp).toBeTruthy()
    const again = await failure(
      w.core.createNamespacedConfigMap({ namespace: 'del', body: { metadata: { name: 'held' } } })
    )
    expect(again).toMatchObject({
      code: 409,
      reason: 'AlreadyExists',
      message: 'object is being deleted: configmaps "held" already exists'
    })
    const added = await failure(
      w.core.patchNamespacedConfigMap(
        {
          name: 'held',
          namespace: 'del',
          body: { metadata: { finalizers: ['example.com/keep', 'example.com/more'] } }
        },
        merge
      )
    )
    expect(added.message).toBe(
      'ConfigMap "held" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/more"}'
    )
    await dropFinalizers('del', 'held')
    expect(live('', 'configmaps', 'del', 'held')).toBeUndefined()
    await w.core.createNamespacedConfigMap({ namespace: 'del', body: { metadata: { name: 'held' } } })
  })
})

describe('graceful pod deletion', () => {
  it('gives a bound pod its grace period; only a shorter one changes it; grace 0 removes it', async () => {
    w.put('', 'pods', podObject('del', 'slow', 'n1'))
    const before = w.store.get(pods(), 'del', 'slow')
    const t0 = Date.now()
    const first = await w.core.deleteNamespacedPod({ name: 'slow', namespace: 'del' })
    const deadline = Date.parse(first.metadata!.deletionTimestamp as unknown as string)
    expect(deadline - t0).toBeGreaterThanOrEqual(29_000)
    expect(first.metadata).toMatchObject({
      deletionGracePeriodSeconds: 30,
      generation: before.metadata.generation! + 1
    })
    const longer = await w.core.deleteNamespacedPod({
      name: 'slow',
      namespace: 'del',
      gracePeriodSeconds: 60
    })
    expect(longer.metadata!.deletionGracePeriodSeconds).toBe(30)
    const shorter = await w.core.deleteNamespacedPod({
      name: 'slow',
      namespace: 'del',
      gracePeriodSeconds: 5
    })
    expect(shorter.metadata!.deletionGracePeriodSeconds).toBe(5)
    expect(Date.parse(shorter.metadata!.deletionTimestamp as unknown as string)).toBe(deadline - 25_000)
    expect(live('', 'pods', 'del', 'slow')).toBeDefined() // no kubelet on n1 confirms it
    await w.core.deleteNamespacedPod({ name: 'slow', namespace: 'del', gracePeriodSeconds: 0 })
    expect(live('', 'pods', 'del', 'slow')).toBeUndefined()
    w.put('', 'pods', podObject('del', 'unbound', ''))
    await w.core.deleteNamespacedPod({ name: 'unbound', namespace: 'del' })
    expect(live('', 'pods', 'del', 'unbound')).toBeUndefined()
  })
})

describe('propagation policies and the garbage collector', () => {
  function owned(
    owner: { apiVersion: string; kind: string; metadata: any },
    block = true
  ): V1OwnerReference[] {
    return [
      {
        apiVersion: owner.apiVersion,
        kind: owner.kind,
        name: owner.metadata.name,
        uid: owner.metadata.uid,
        controller: true,
        blockOwnerDeletion: block
      }
    ]
  }
  async function ownerWithDependent(name: string) {
    const owner = await w.core.createNamespacedConfigMap({ namespace: 'del', body: { metadata: { name } } })
    const dep = await w.core.createNamespacedConfigMap({
      namespace: 'del',
      body: {
        metadata: {
          name: `${name}-dep`,
          ownerReferences: owned({ apiVersion: 'v1', kind: 'ConfigMap', metadata: owner.metadata })
        }
      }
    })
    return { owner, dep }
  }

  it('Foreground keeps the owner until its blocking dependents are gone', async () => {
    await ownerWithDependent('fg')
    const res = await rawRequest(w, '/api/v1/namespaces/del/configmaps/fg', {
      method: 'DELETE',
      body: JSON.stringify({ propagationPolicy: 'Foreground' })
    })
    expect(res.status).toBe(200)
    expect(res.json.metadata.finalizers).toEqual(['foregroundDeletion'])
    await waitFor(() => !live('', 'configmaps', 'del', 'fg-dep') && !live('', 'configmaps', 'del', 'fg'))
  })

  it('Orphan removes the owner and leaves its dependents, their references to it gone', async () => {
    await ownerWithDependent('orph')
    await w.core.deleteNamespacedConfigMap({ name: 'orph', namespace: 'del', propagationPolicy: 'Orphan' })
    await waitFor(() => !live('', 'configmaps', 'del', 'orph'))
    expect(live('', 'configmaps', 'del', 'orph-dep')?.metadata.ownerReferences).toBeUndefined()
  })

  it('Background removes the owner at once and its dependents after; orphanDependents=false on a held object answers 202', async () => {
    await ownerWithDependent('bg')
    const res = await rawRequest(w, '/api/v1/namespaces/del/configmaps/bg?propagationPolicy=Background', {
      method: 'DELETE'
    })
    expect(res.json).toMatchObject({
      kind: 'Status',
      status: 'Success',
      details: { name: 'bg', kind: 'configmaps' }
    })
    expect(live('', 'configmaps', 'del', 'bg')).toBeUndefined()
    await waitFor(() => !live('', 'configmaps', 'del', 'bg-dep'))
    // An object a delete does not remove answers 202 when the delete asked orphanDependents=false.
    await w.core.createNamespacedConfigMap({
      namespace: 'del',
      body: { metadata: { name: 'kept', finalizers: ['example.com/keep'] } }
    })
    const accepted = await rawRequest(w, '/api/v1/namespaces/del/configmaps/kept', {
      method: 'DELETE',
      body: JSON.stringify({ orphanDependents: false })
    })
    expect(accepted.status).toBe(202)
    expect(accepted.json.metadata.finalizers).toEqual(['example.com/keep'])
    await dropFinalizers('del', 'kept')
    expect(live('', 'configmaps', 'del', 'kept')).toBeUndefined()
  })

  it('a batch/v1 Job deleted with no policy orphans its pods, as kube-apiserver defaults it', async () => {
    const job = await w.batch.createNamespacedJob({
      namespace: 'del',
      body: {
        metadata: { name: 'j' },
        spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'i' }] } } }
      }
    })
    w.put('', 'pods', {
      ...podObject('del', 'j-pod', ''),
      metadata: {
        name: 'j-pod',
        namespace: 'del',
        ownerReferences: owned({ apiVersion: 'batch/v1', kind: 'Job', metadata: job.metadata })
      }
    })
    await rawRequest(w, '/apis/batch/v1/namespaces/del/jobs/j', { method: 'DELETE' })
    await waitFor(() => !live('batch', 'jobs', 'del', 'j'))
    await waitFor(() => !live('', 'pods', 'del', 'j-pod')?.metadata.ownerReferences)
    expect(live('', 'pods', 'del', 'j-pod')).toBeDefined()
  })
})

describe('namespace termination', () => {
  it('terminates a namespace: conditions, no new content, a second delete conflicts, gone once empty', async () => {
    await w.core.createNamespace({ body: { metadata: { name: 'doomed' } } })
    await w.core.createNamespacedConfigMap({
      namespace: 'doomed',
      body: { metadata: { name: 'sticky', finalizers: ['example.com/keep'] } }
    })
    const res = await rawRequest(w, '/api/v1/namespaces/doomed', { method: 'DELETE' })
    expect(res.json.status.phase).toBe('Terminating')
    expect(res.json.spec.finalizers).toEqual(['kubernetes'])
    const created = await failure(
      w.core.createNamespacedConfigMap({ namespace: 'doomed', body: { metadata: { name: 'late' } } })
    )
    expect(created).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      message:
        'configmaps "late" is forbidden: unable to create new content in namespace doomed because it is being terminated',
      details: {
        causes: [
          {
            reason: 'NamespaceTerminating',
            message: 'namespace doomed is being terminated',
            field: 'metadata.namespace'
          }
        ]
      }
    })
    const second = await failure(w.core.deleteNamespace({ name: 'doomed' }))
    expect(second).toMatchObject({
      code: 409,
      message:
        'Operation cannot be fulfilled on namespaces "doomed": The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system.'
    })
    const conditions = () => live('', 'namespaces', undefined, 'doomed')?.status?.conditions ?? []
    await waitFor(() =>
      conditions().some((c: any) => c.type === 'NamespaceFinalizersRemaining' && c.status === 'True')
    )
    expect(conditions().find((c: any) => c.type === 'NamespaceContentRemaining')).toMatchObject({
      status: 'True',
      reason: 'SomeResourcesRemain',
      message: 'Some resources are remaining: configmaps. has 1 resource instances'
    })
    expect(conditions().find((c: any) => c.type === 'NamespaceFinalizersRemaining')).toMatchObject({
      reason: 'SomeFinalizersRemain',
      message:
        'Some content in the namespace has finalizers remaining: example.com/keep in 1 resource instances'
    })
    await dropFinalizers('doomed', 'sticky')
    await waitFor(() => !live('', 'namespaces', undefined, 'doomed'))
    await w.core.createNamespace({ body: { metadata: { name: 'doomed' } } })
  })
})
