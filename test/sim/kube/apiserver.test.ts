// The simulated API server through the real @kubernetes/client-node: discovery, authentication,
// every verb, patch formats, server-side apply with managedFields and conflicts, pagination,
// selectors, watch resume / bookmarks / 410, CRDs with the status subresource, and pods/log.
import { beforeAll, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import {
  ApiextensionsV1Api,
  CoreV1Api,
  KubernetesObjectApi,
  PatchStrategy,
  VersionApi,
  Watch,
  setHeaderOptions
} from '@kubernetes/client-node'
import { parseAllDocuments } from 'yaml'
import {
  adminKubeConfig,
  kubeConfigFor,
  nodeObject,
  podObject,
  statusOf,
  waitFor,
  worldForTests,
  NCP_CRD,
  rawRequest,
  crdObject,
  rawPatch
} from '../../support/apiserver-world.js'

let objects: KubernetesObjectApi

const w = worldForTests(() => {
  objects = KubernetesObjectApi.makeApiClient(w.kc)
})

async function expectStatus(p: Promise<unknown>, code: number, reason: string): Promise<any> {
  try {
    await p
  } catch (err) {
    expect((err as { code?: number }).code).toBe(code)
    const status = statusOf(err)
    expect(status).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason, code })
    return status
  }
  throw new Error(`expected ${code} ${reason}, the call succeeded`)
}

const deployment = (image: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name: 'ib-config', namespace: 'kube-system', labels: { app: 'ib-config' } },
  spec: {
    selector: { matchLabels: { app: 'ib-config' } },
    template: {
      metadata: { labels: { app: 'ib-config' } },
      spec: { containers: [{ name: 'x', image, ...extra }] }
    }
  }
})

describe('discovery and authentication', () => {
  it('serves /version, /api, /apis and resource lists with subresources', async () => {
    const version = await w.kc.makeApiClient(VersionApi).getCode()
    expect(version.gitVersion).toBe('v1.33.2')
    const groups = await rawRequest(w, '/apis')
    expect(groups.json.kind).toBe('APIGroupList')
    expect(groups.json.groups.map((g: any) => g.name)).toEqual(
      expect.arrayContaining(['apps', 'coordination.k8s.io', 'apiextensions.k8s.io'])
    )
    const v1 = await rawRequest(w, '/api/v1', {
      headers: {
        accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json'
      }
    })
    expect(v1.headers.get('content-type')).toBe('application/json')
    const names = v1.json.resources.map((r: any) => r.name)
    expect(names).toEqual(
      expect.arrayContaining(['nodes', 'pods', 'pods/log', 'pods/status', 'configmaps', 'events'])
    )
    const pods = v1.json.resources.find((r: any) => r.name === 'pods')
    expect(pods).toMatchObject({ singularName: 'pod', namespaced: true, kind: 'Pod', shortNames: ['po'] })
    const appsList = await rawRequest(w, '/apis/apps/v1')
    expect(appsList.json.resources.map((r: any) => r.name)).toEqual(
      expect.arrayContaining(['daemonsets', 'daemonsets/status', 'deployments'])
    )
  })

  it('rejects unknown tokens with a 401 Status and accepts AAD tokens and client certificates', async () => {
    const bad = kubeConfigFor(w.server.url, w.tls, { token: 'nope' }).makeApiClient(CoreV1Api)
    await expect(bad.listNode()).rejects.toMatchObject({ code: 401 })
    const raw = await rawRequest(w, '/api/v1/nodes', { headers: { authorization: 'Bearer nope' } })
    expect(raw.json).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 })
    const aad = kubeConfigFor(w.server.url, w.tls, { token: 'aad-token-for-6dae42f8' }).makeApiClient(
      CoreV1Api
    )
    expect((await aad.listNamespace()).items.map(n => n.metadata?.name)).toContain('kube-system')
    const admin = adminKubeConfig(w).makeApiClient(CoreV1Api)
    expect((await admin.readNamespace({ name: 'default' })).metadata?.name).toBe('default')
  })
})

describe('core verbs', () => {
  it('creates, reads, replaces with optimistic concurrency and deletes', async () => {
    const created = await w.core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'cm-a', labels: { tier: 'x' } }, data: { a: '1' } }
    })
    expect(created.metadata?.resourceVersion).toBeDefined()
    expect(created.metadata?.uid).toBeDefined()
    await expectStatus(
      w.core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'cm-a' } } }),
      409,
      'AlreadyExists'
    )
    const read = await w.core.readNamespacedConfigMap({ name: 'cm-a', namespace: 'default' })
    expect(read.data).toEqual({ a: '1' })
    const replaced = await w.core.replaceNamespacedConfigMap({
      name: 'cm-a',
      namespace: 'default',
      body: { ...read, data: { a: '2' } }
    })
    expect(Number(replaced.metadata?.resourceVersion)).toBeGreaterThan(Number(read.metadata?.resourceVersion))
    const conflict = await expectStatus(
      w.core.replaceNamespacedConfigMap({
        name: 'cm-a',
        namespace: 'default',
        body: { ...read, data: { a: '3' } }
      }),
      409,
      'Conflict'
    )
    expect(conflict.message).toContain('the object has been modified')
    const updaters = (replaced.metadata?.managedFields ?? []).map(m => m.operation)
    expect(updaters).toContain('Update')
    const deleted = await w.core.deleteNamespacedConfigMap({ name: 'cm-a', namespace: 'default' })
    expect(deleted.status).toBe('Success')
    const gone = await expectStatus(
      w.core.readNamespacedConfigMap({ name: 'cm-a', namespace: 'default' }),
      404,
      'NotFound'
    )
    expect(gone.details).toMatchObject({ name: 'cm-a', kind: 'configmaps' })
  })

  it('validates objects (422), namespaces (404) and supports dryRun=All without persisting', async () => {
    const invalid = await expectStatus(
      w.core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: {} } }),
      422,
      'Invalid'
    )
    expect(invalid.message).toContain('metadata.name')
    await expectStatus(
      w.core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'Bad_Name' } } }),
      422,
      'Invalid'
    )
    await expectStatus(
      w.core.createNamespacedConfigMap({ namespace: 'missing', body: { metadata: { name: 'x' } } }),
      404,
      'NotFound'
    )
    const rvBefore = w.store.currentResourceVersion
    w.recorder.reset()
    const dry = await w.core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'dry' } },
      dryRun: 'All'
    })
    expect(dry.metadata?.name).toBe('dry')
    expect(w.store.currentResourceVersion).toBe(rvBefore)
    expect(w.store.tryGet(w.type('', 'configmaps'), 'default', 'dry')).toBeUndefined()
    expect(w.recorder.records).toEqual([
      expect.objectContaining({
        service: 'kube',
        method: 'POST',
        status: 201,
        mutating: false,
        resource: 'configmaps'
      })
    ])
  })

  it('admits pods by priority class as the Priority plugin does: built-in classes, an unknown class is 403', async () => {
    const classes = w.store.list(w.type('scheduling.k8s.io', 'priorityclasses')).items
    expect(classes.map(c => [c.metadata.name, c.value])).toEqual([
      ['system-cluster-critical', 2000000000],
      ['system-node-critical', 2000001000]
    ])
    const pod = (name: string, priorityClassName: string) => ({
      metadata: { name },
      spec: { priorityClassName, containers: [{ name: 'c', image: 'busybox' }] }
    })
    const ok = await w.core.createNamespacedPod({
      namespace: 'default',
      body: pod('critical', 'system-node-critical')
    })
    expect(ok.spec).toMatchObject({ priority: 2000001000, preemptionPolicy: 'PreemptLowerPriority' })
    const refused = await expectStatus(
      w.core.createNamespacedPod({ namespace: 'default', body: pod('unknown', 'no-such-class') }),
      403,
      'Forbidden'
    )
    expect(refused.message).toBe(
      'pods "unknown" is forbidden: no PriorityClass with name no-such-class was found'
    )
    expect(w.store.tryGet(w.type('', 'pods'), 'default', 'unknown')).toBeUndefined()
  })

  it('patches with merge, JSON and strategic merge patches (containers merge by name)', async () => {
    await w.apps.createNamespacedDaemonSet({ namespace: 'kube-system', body: deployment('img:1') as any })
    const merged = await w.apps.patchNamespacedDaemonSet(
      { name: 'ib-config', namespace: 'kube-system', body: { metadata: { labels: { extra: 'yes' } } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch)
    )
    expect(merged.metadata?.labels).toEqual({ app: 'ib-config', extra: 'yes' })
    const jsonPatched = await w.apps.patchNamespacedDaemonSet({
      name: 'ib-config',
      namespace: 'kube-system',
      body: [{ op: 'remove', path: '/metadata/labels/extra' }]
    })
    expect(jsonPatched.metadata?.labels).toEqual({ app: 'ib-config' })
    const strategic = await w.apps.patchNamespacedDaemonSet(
      {
        name: 'ib-config',
        namespace: 'kube-system',
        body: {
          spec: {
            template: {
              spec: {
                containers: [
                  { name: 'sidecar', image: 'side:1' },
                  { name: 'x', image: 'img:2' }
                ]
              }
            }
          }
        }
      },
      setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch)
    )
    expect(strategic.spec?.template.spec?.containers.map(c => `${c.name}=${c.image}`)).toEqual([
      'x=img:2',
      'sidecar=side:1'
    ])
    expect(strategic.metadata?.generation).toBe(2)
    const mergeReplace = await w.apps.patchNamespacedDaemonSet(
      {
        name: 'ib-config',
        namespace: 'kube-system',
        body: { spec: { template: { spec: { containers: [{ name: 'x', image: 'img:3' }] } } } }
      },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch)
    )
    expect(mergeReplace.spec?.template.spec?.containers.map(c => c.name)).toEqual(['x'])
    await w.apps.deleteNamespacedDaemonSet({ name: 'ib-config', namespace: 'kube-system' })
  })

  it('keeps status out of main-resource writes and serves the status subresource', async () => {
    const nodes = w.type('', 'nodes')
    w.put('', 'nodes', nodeObject('status-node'))
    const live = await w.core.readNode({ name: 'status-node' })
    const replaced = await w.core.replaceNode({
      name: 'status-node',
      body: { ...live, metadata: { ...live.metadata, labels: { a: 'b' } }, status: { phase: 'Terminated' } }
    })
    expect(replaced.metadata?.labels).toEqual({ a: 'b' })
    expect(replaced.status?.conditions?.[0].type).toBe('Ready')
    const patched = await w.core.patchNodeStatus(
      {
        name: 'status-node',
        body: {
          status: { conditions: [{ type: 'Ready', status: 'False', reason: 'Down' }] },
          metadata: { labels: { x: 'y' } }
        }
      },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch)
    )
    expect(patched.status?.conditions?.[0].status).toBe('False')
    expect(patched.metadata?.labels).toEqual({ a: 'b' })
    const statusEntry = (patched.metadata?.managedFields ?? []).find(m => m.subresource === 'status')
    expect(statusEntry?.operation).toBe('Update')
    w.store.delete(nodes, undefined, 'status-node')
  })

  it('terminates namespaces with their contents and collects dependents by owner reference', async () => {
    await w.core.createNamespace({ body: { metadata: { name: 'doomed' } } })
    await w.core.createNamespacedConfigMap({ namespace: 'doomed', body: { metadata: { name: 'inside' } } })
    const ds = await w.apps.createNamespacedDaemonSet({
      namespace: 'default',
      body: { ...(deployment('img:1') as any), metadata: { name: 'owner', namespace: 'default' } }
    })
    w.put('', 'pods', {
      ...podObject('default', 'owned-pod', ''),
      metadata: {
        name: 'owned-pod',
        namespace: 'default',
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'DaemonSet',
            name: 'owner',
            uid: ds.metadata!.uid!,
            controller: true
          }
        ]
      }
    })
    await w.core.deleteNamespace({ name: 'doomed' })
    await waitFor(() => !w.store.tryGet(w.type('', 'namespaces'), undefined, 'doomed'))
    expect(w.store.tryGet(w.type('', 'configmaps'), 'doomed', 'inside')).toBeUndefined()
    await w.apps.deleteNamespacedDaemonSet({
      name: 'owner',
      namespace: 'default',
      propagationPolicy: 'Background'
    })
    await waitFor(() => !w.store.tryGet(w.type('', 'pods'), 'default', 'owned-pod'))
  })

  it('serves pods/log, eviction and binding', async () => {
    w.put('', 'pods', podObject('default', 'logger', 'n1'))
    w.logs.set('default/logger', 'line1\nline2\nline3\n')
    expect(await w.core.readNamespacedPodLog({ name: 'logger', namespace: 'default' })).toBe(
      'line1\nline2\nline3\n'
    )
    expect(await w.core.readNamespacedPodLog({ name: 'logger', namespace: 'default', tailLines: 1 })).toBe(
      'line3\n'
    )
    await expectStatus(w.core.readNamespacedPodLog({ name: 'nobody', namespace: 'default' }), 404, 'NotFound')
    w.put('', 'pods', {
      ...podObject('default', 'unbound', ''),
      spec: { containers: [{ name: 'c', image: 'i' }] }
    })
    await w.core.createNamespacedPodBinding({
      name: 'unbound',
      namespace: 'default',
      body: { metadata: { name: 'unbound' }, target: { kind: 'Node', name: 'node-7' } }
    })
    expect(w.store.get(w.type('', 'pods'), 'default', 'unbound').spec.nodeName).toBe('node-7')
    await w.core.createNamespacedPodEviction({
      name: 'logger',
      namespace: 'default',
      body: { metadata: { name: 'logger', namespace: 'default' } }
    })
    // An eviction deletes gracefully: with no kubelet on n1 to stop it, the pod stays Terminating.
    const evicted = w.store.get(w.type('', 'pods'), 'default', 'logger')
    expect(evicted.metadata.deletionGracePeriodSeconds).toBe(30)
    expect(evicted.metadata.deletionTimestamp).toBeTruthy()
  })
})

describe('server-side apply', () => {
  const apply = (obj: any, manager: string, force = false, dryRun?: string) =>
    objects.patch(obj, undefined, dryRun, manager, force, PatchStrategy.ServerSideApply)

  it('creates, is idempotent, tracks fields in FieldsV1 and reports conflicts naming the other manager', async () => {
    w.recorder.reset()
    const first: any = await apply(deployment('img:1', { env: [{ name: 'A', value: '1' }] }), 'rdma-action')
    const rv = first.metadata.resourceVersion
    const entry = first.metadata.managedFields.find((m: any) => m.manager === 'rdma-action')
    expect(entry).toMatchObject({ operation: 'Apply', apiVersion: 'apps/v1', fieldsType: 'FieldsV1' })
    const container = entry.fieldsV1['f:spec']['f:template']['f:spec']['f:containers']['k:{"name":"x"}']
    expect(container).toEqual({
      '.': {},
      'f:name': {},
      'f:image': {},
      'f:env': { 'k:{"name":"A"}': { '.': {}, 'f:name': {}, 'f:value': {} } }
    })

    const events: string[] = []
    const stop = w.store.onChange(e => events.push(e.type))
    const again: any = await apply(deployment('img:1', { env: [{ name: 'A', value: '1' }] }), 'rdma-action')
    stop()
    expect(again.metadata.resourceVersion).toBe(rv)
    expect(events).toEqual([])

    const conflict = await expectStatus(apply(deployment('img:2'), 'someone-else'), 409, 'Conflict')
    expect(conflict.message).toBe(
      'Apply failed with 1 conflict: conflict with "rdma-action" using apps/v1: .spec.template.spec.containers[name="x"].image'
    )
    expect(conflict.details.causes[0]).toMatchObject({
      reason: 'FieldManagerConflict',
      field: '.spec.template.spec.containers[name="x"].image'
    })

    const sameValue: any = await apply(deployment('img:1'), 'co-owner')
    expect(sameValue.metadata.managedFields.map((m: any) => m.manager)).toEqual(['rdma-action', 'co-owner'])

    const forced: any = await apply(deployment('img:2'), 'someone-else', true)
    expect(forced.spec.template.spec.containers[0].image).toBe('img:2')
    const original = forced.metadata.managedFields.find((m: any) => m.manager === 'rdma-action')
    expect(
      original.fieldsV1['f:spec']['f:template']['f:spec']['f:containers']['k:{"name":"x"}']['f:image']
    ).toBeUndefined()
    expect(w.recorder.counts().kube.mutatingByResource.daemonsets).toBe(5)
  })

  it('removes fields the manager stopped applying, unless another manager owns them', async () => {
    const withEnv: any = await apply(
      {
        ...deployment('img:2', { env: [{ name: 'A', value: '1' }] }),
        metadata: { ...deployment('').metadata, annotations: { note: 'n' } }
      },
      'rdma-action'
    )
    expect(withEnv.metadata.annotations).toEqual({ note: 'n' })
    const without: any = await apply(deployment('img:2'), 'rdma-action')
    expect(without.metadata.annotations).toBeUndefined()
    expect(without.spec.template.spec.containers[0].env).toBeUndefined()
    expect(without.spec.template.spec.containers[0].image).toBe('img:2')

    const annotated = {
      ...deployment('img:2'),
      metadata: { ...deployment('').metadata, annotations: { keep: 'k' } }
    }
    await apply(annotated, 'rdma-action')
    await apply(
      {
        apiVersion: 'apps/v1',
        kind: 'DaemonSet',
        metadata: { name: 'ib-config', namespace: 'kube-system', annotations: { keep: 'k' } }
      },
      'keeper'
    )
    const dropped: any = await apply(deployment('img:2'), 'rdma-action')
    expect(dropped.metadata.annotations).toEqual({ keep: 'k' })
  })

  it('supports dryRun=All, rejects missing fieldManager and treats Update writers as managers', async () => {
    const rv = w.store.get(w.type('apps', 'daemonsets'), 'kube-system', 'ib-config').metadata.resourceVersion
    const dry: any = await apply(deployment('img:9'), 'someone-else', true, 'All')
    expect(dry.spec.template.spec.containers[0].image).toBe('img:9')
    expect(
      w.store.get(w.type('apps', 'daemonsets'), 'kube-system', 'ib-config').metadata.resourceVersion
    ).toBe(rv)
    const noManager = await rawPatch(
      w,
      '/apis/apps/v1/namespaces/kube-system/daemonsets/ib-config',
      'application/apply-patch+yaml',
      deployment('img:9')
    )
    expect(noManager.status).toBe(400)
    const yamlBody = await rawPatch(
      w,
      '/apis/apps/v1/namespaces/kube-system/daemonsets/ib-config?fieldManager=yaml-user',
      'application/apply-patch+yaml',
      'apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: ib-config\n  namespace: kube-system\n  labels:\n    from-yaml: "1"\n'
    )
    expect(yamlBody.status).toBe(200)
    expect(yamlBody.json.metadata.labels['from-yaml']).toBe('1')
    await w.apps.patchNamespacedDaemonSet(
      {
        name: 'ib-config',
        namespace: 'kube-system',
        body: { spec: { template: { spec: { containers: [{ name: 'x', image: 'edited:1' }] } } } }
      },
      setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch)
    )
    const conflict = await expectStatus(apply(deployment('img:2'), 'rdma-action'), 409, 'Conflict')
    expect(conflict.message).toMatch(
      /^Apply failed with 1 conflict: conflict with "[^"]+" using apps\/v1: \.spec\.template\.spec\.containers\[name="x"\]\.image$/
    )
  })
})

describe('lists and watches', () => {
  beforeAll(() => {
    for (let i = 0; i < 1000; i++)
      w.put('', 'nodes', nodeObject(`node-${String(i).padStart(4, '0')}`, { pool: i % 2 ? 'ib' : 'sys' }))
  })

  it('pages 1000 nodes with limit/continue and filters by label and field selectors', async () => {
    const first = await w.core.listNode({ limit: 500 })
    expect(first.items).toHaveLength(500)
    expect(first.metadata?._continue).toBeTruthy()
    expect(first.metadata?.remainingItemCount).toBe(500)
    expect(first.metadata?.resourceVersion).toBe(w.store.currentResourceVersion)
    const second = await w.core.listNode({ limit: 500, _continue: first.metadata!._continue })
    expect(second.items).toHaveLength(500)
    expect(second.metadata?._continue).toBeFalsy()
    expect(new Set([...first.items, ...second.items].map(n => n.metadata?.name)).size).toBe(1000)
    const ib = await w.core.listNode({ labelSelector: 'pool=ib' })
    expect(ib.items).toHaveLength(500)
    const notIb = await w.core.listNode({ labelSelector: 'pool in (sys),kubernetes.io/os' })
    expect(notIb.items.every(n => n.metadata?.labels?.pool === 'sys')).toBe(true)
    const one = await w.core.listNode({ fieldSelector: 'metadata.name=node-0007' })
    expect(one.items.map(n => n.metadata?.name)).toEqual(['node-0007'])
    w.put('', 'pods', podObject('default', 'on-7', 'node-0007'))
    const pods = await w.core.listPodForAllNamespaces({
      fieldSelector: 'spec.nodeName=node-0007,status.phase!=Failed'
    })
    expect(pods.items.map(p => p.metadata?.name)).toEqual(['on-7'])
    await expectStatus(w.core.listNode({ labelSelector: 'a in (b' }), 400, 'BadRequest')
  })

  it('watches from a resourceVersion, resumes after a cut, sends bookmarks, and reports 410 as an ERROR event', async () => {
    const list = await w.core.listNamespacedConfigMap({ namespace: 'default' })
    const rv = list.metadata!.resourceVersion!
    await w.core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'w1' } } })
    const watch = new Watch(w.kc)
    const seen: string[] = []
    let lastRv = rv
    let bookmarks = 0
    const controller = await watch.watch(
      '/api/v1/namespaces/default/configmaps',
      { resourceVersion: rv, allowWatchBookmarks: true },
      (type, obj) => {
        if (type === 'BOOKMARK') bookmarks++
        else seen.push(`${type}:${obj.metadata.name}`)
        lastRv = obj.metadata.resourceVersion
      },
      () => undefined
    )
    await w.core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'w2' } } })
    await waitFor(() => seen.length >= 2 && bookmarks > 0)
    expect(seen).toEqual(['ADDED:w1', 'ADDED:w2'])
    controller.abort()

    await w.core.deleteNamespacedConfigMap({ name: 'w1', namespace: 'default' })
    const resumed: string[] = []
    const c2 = await watch.watch(
      '/api/v1/namespaces/default/configmaps',
      { resourceVersion: lastRv },
      (type, obj) => resumed.push(`${type}:${obj.metadata.name}`),
      () => undefined
    )
    await waitFor(() => resumed.length >= 1)
    expect(resumed).toEqual(['DELETED:w1'])
    c2.abort()

    await w.core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'w3' } } })
    w.store.compact()
    const errors: any[] = []
    let doneWith: unknown = 'not yet'
    await watch.watch(
      '/api/v1/namespaces/default/configmaps',
      { resourceVersion: rv },
      (type, obj) => type === 'ERROR' && errors.push(obj),
      err => (doneWith = err)
    )
    await waitFor(() => doneWith !== 'not yet')
    expect(errors).toEqual([expect.objectContaining({ kind: 'Status', code: 410, reason: 'Expired' })])
    expect(doneWith).toBeNull()
  })
})

describe('custom resources', () => {
  it('registers a CRD, serves its resources with the status subresource and unregisters on delete', async () => {
    const crd = parseAllDocuments(readFileSync(NCP_CRD, 'utf8'))
      .map(d => d.toJSON())
      .find(d => d?.kind === 'CustomResourceDefinition')
    const ext = w.kc.makeApiClient(ApiextensionsV1Api)
    await ext.createCustomResourceDefinition({ body: crd })
    await waitFor(() =>
      (
        w.store.get(
          w.type('apiextensions.k8s.io', 'customresourcedefinitions'),
          undefined,
          'nicclusterpolicies.mellanox.com'
        ).status?.conditions ?? []
      ).some((c: any) => c.type === 'Established' && c.status === 'True')
    )
    const read = await ext.readCustomResourceDefinition({ name: 'nicclusterpolicies.mellanox.com' })
    expect(read.status?.conditions?.map(c => `${c.type}=${c.status}`)).toEqual([
      'NamesAccepted=True',
      'Established=True'
    ])
    const disc = await rawRequest(w, '/apis/mellanox.com/v1alpha1')
    expect(disc.json.resources).toEqual([
      expect.objectContaining({
        name: 'nicclusterpolicies',
        namespaced: false,
        kind: 'NicClusterPolicy',
        shortNames: ['ncp']
      }),
      expect.objectContaining({ name: 'nicclusterpolicies/status' })
    ])

    const ncp = {
      apiVersion: 'mellanox.com/v1alpha1',
      kind: 'NicClusterPolicy',
      metadata: { name: 'nic-cluster-policy' },
      spec: { ofedDriver: { image: 'doca-driver', repository: 'nvcr.io/nvidia/mellanox', version: '25.04' } }
    }
    const created: any = await objects.patch(
      ncp,
      undefined,
      undefined,
      'rdma-action',
      true,
      PatchStrategy.ServerSideApply
    )
    expect(created.metadata.generation).toBe(1)
    const listed: any = await objects.list('mellanox.com/v1alpha1', 'NicClusterPolicy')
    expect(listed.items.map((i: any) => i.metadata.name)).toEqual(['nic-cluster-policy'])
    const statusPut = await rawRequest(
      w,
      '/apis/mellanox.com/v1alpha1/nicclusterpolicies/nic-cluster-policy/status',
      {
        method: 'PUT',
        body: JSON.stringify({ ...created, spec: { changed: true }, status: { state: 'ready' } }),
        headers: { 'content-type': 'application/json' }
      }
    )
    expect(statusPut.status).toBe(200)
    expect(statusPut.json.status).toEqual({ state: 'ready' })
    expect(statusPut.json.spec.ofedDriver.image).toBe('doca-driver')
    expect(statusPut.json.metadata.generation).toBe(1)
    const strategic = await rawPatch(
      w,
      '/apis/mellanox.com/v1alpha1/nicclusterpolicies/nic-cluster-policy',
      'application/strategic-merge-patch+json',
      '{"spec":{}}'
    )
    expect(strategic.status).toBe(415)
    const respec: any = await objects.patch(
      { ...ncp, spec: { ofedDriver: { ...ncp.spec.ofedDriver, version: '25.07' } } },
      undefined,
      undefined,
      'rdma-action',
      true,
      PatchStrategy.ServerSideApply
    )
    expect(respec.metadata.generation).toBe(2)
    expect(respec.status).toEqual({ state: 'ready' })

    await ext.deleteCustomResourceDefinition({ name: 'nicclusterpolicies.mellanox.com' })
    expect(w.store.type('mellanox.com', 'nicclusterpolicies')).toBeUndefined()
    expect((await rawRequest(w, '/apis/mellanox.com/v1alpha1/nicclusterpolicies')).status).toBe(404)
  })

  it('merges CRD lists declared x-kubernetes-list-type=map by key', async () => {
    // Raw POST: client-node's typed serializer drops `x-kubernetes-*` keys spelled as in YAML.
    const crd = crdObject(
      'example.com',
      'Widget',
      {
        type: 'object',
        properties: {
          spec: {
            type: 'object',
            properties: {
              ports: {
                type: 'array',
                'x-kubernetes-list-type': 'map',
                'x-kubernetes-list-map-keys': ['name'],
                items: {
                  type: 'object',
                  properties: { name: { type: 'string' }, port: { type: 'integer' } }
                }
              }
            }
          }
        }
      },
      { shortNames: ['wd'] }
    )
    const posted = await rawRequest(w, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      method: 'POST',
      body: JSON.stringify(crd),
      headers: { 'content-type': 'application/json' }
    })
    expect(posted.status).toBe(201)
    const widget = (ports: any[]) => ({
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w', namespace: 'default' },
      spec: { ports }
    })
    await objects.patch(
      widget([{ name: 'a', port: 1 }]),
      undefined,
      undefined,
      'one',
      false,
      PatchStrategy.ServerSideApply
    )
    const both: any = await objects.patch(
      widget([{ name: 'b', port: 2 }]),
      undefined,
      undefined,
      'two',
      false,
      PatchStrategy.ServerSideApply
    )
    expect(both.spec.ports).toEqual([
      { name: 'a', port: 1 },
      { name: 'b', port: 2 }
    ])
  })
})
