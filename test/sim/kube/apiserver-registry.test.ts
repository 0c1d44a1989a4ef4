// What kube-apiserver's registry does to the built-in kinds, through the real client: defaulting
// (pods and pod templates, Deployments, DaemonSets, Jobs with their generated selector, Services
// with a cluster IP), which kinds keep metadata.generation, validation with the real wording (a
// workload selector that does not match its template, ConfigMap keys, label values, a Job's
// restartPolicy, an immutable selector), unknown fields under each fieldValidation, boolean query
// parameters as the parameter codec reads them (watch=True, allowWatchBookmarks=True), the list
// options ValidateListOptions refuses (sendInitialEvents with WatchList off, as in v1.33;
// resourceVersionMatch out of place), malformed continue tokens and field labels a kind does not
// support, and the server-side printers' columns.
import { describe, expect, it } from '@jest/globals'
import { type V1Deployment } from '@kubernetes/client-node'
import { failure, failureStatus, rawPatch, rawRequest, worldForTests } from '../../support/apiserver-world.js'

const w = worldForTests(async () => {
  await w.core.createNamespace({ body: { metadata: { name: 'reg' } } })
})

const deployment = (labels: Record<string, string>, selector: Record<string, string>): V1Deployment => ({
  metadata: { name: 'web' },
  spec: {
    selector: { matchLabels: selector },
    template: {
      metadata: { labels },
      spec: { containers: [{ name: 'web', image: 'busybox:1.36', ports: [{ containerPort: 80 }] }] }
    }
  }
})

describe('defaulting', () => {
  it('fills in what kube-apiserver defaults on Deployments, their pod templates and DaemonSets', async () => {
    const d = await w.apps.createNamespacedDeployment({
      namespace: 'reg',
      body: deployment({ app: 'web' }, { app: 'web' })
    })
    expect(d.spec).toMatchObject({
      replicas: 1,
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } }
    })
    expect(d.spec!.template.spec).toMatchObject({
      restartPolicy: 'Always',
      dnsPolicy: 'ClusterFirst',
      schedulerName: 'default-scheduler',
      terminationGracePeriodSeconds: 30,
      securityContext: {}
    })
    expect(d.spec!.template.spec!.containers[0]).toMatchObject({
      imagePullPolicy: 'IfNotPresent',
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
      ports: [{ containerPort: 80, protocol: 'TCP' }]
    })
    const ds = await w.apps.createNamespacedDaemonSet({
      namespace: 'reg',
      body: { metadata: { name: 'agent' }, spec: { ...deployment({ a: 'b' }, { a: 'b' }).spec! } as any }
    })
    expect(ds.spec!.updateStrategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxUnavailable: 1, maxSurge: 0 }
    })
    expect(ds.spec!.revisionHistoryLimit).toBe(10)
  })

  it('generates a Job’s selector and pod labels from its uid, and defaults its counts', async () => {
    const job = await w.batch.createNamespacedJob({
      namespace: 'reg',
      body: {
        metadata: { name: 'once' },
        spec: {
          template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox:latest' }] } }
        }
      }
    })
    const uid = job.metadata!.uid!
    expect(job.spec!.selector).toEqual({ matchLabels: { 'batch.kubernetes.io/controller-uid': uid } })
    expect(job.spec!.template.metadata!.labels).toEqual({
      'batch.kubernetes.io/controller-uid': uid,
      'batch.kubernetes.io/job-name': 'once',
      'controller-uid': uid,
      'job-name': 'once'
    })
    expect(job.metadata!.labels).toEqual(job.spec!.template.metadata!.labels)
    expect(job.spec).toMatchObject({
      completions: 1,
      parallelism: 1,
      backoffLimit: 6,
      completionMode: 'NonIndexed',
      suspend: false,
      podReplacementPolicy: 'TerminatingOrFailed'
    })
    expect(job.spec!.template.spec!.containers[0].imagePullPolicy).toBe('Always')
  })

  it('gives Services a type, a cluster IP and their port defaults; pods a service account and default tolerations', async () => {
    const svc = await w.core.createNamespacedService({
      namespace: 'reg',
      body: { metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } }
    })
    expect(svc.spec).toMatchObject({
      type: 'ClusterIP',
      sessionAffinity: 'None',
      internalTrafficPolicy: 'Cluster',
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }]
    })
    expect(svc.spec!.clusterIP).toMatch(/^10\.0\.\d+\.\d+$/)
    expect(svc.spec!.clusterIP).not.toBe('10.0.0.1') // the `kubernetes` Service has it
    expect(svc.spec!.clusterIPs).toEqual([svc.spec!.clusterIP])
    const pod = await w.core.createNamespacedPod({
      namespace: 'reg',
      body: {
        metadata: { name: 'p' },
        spec: { containers: [{ name: 'c', image: 'busybox:1.36', resources: { limits: { cpu: '1' } } }] }
      }
    })
    expect(pod.spec).toMatchObject({ serviceAccountName: 'default', priority: 0, enableServiceLinks: true })
    expect(pod.spec!.tolerations).toEqual([
      {
        key: 'node.kubernetes.io/not-ready',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 300
      },
      {
        key: 'node.kubernetes.io/unreachable',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 300
      }
    ])
    expect(pod.spec!.containers[0].resources!.requests).toEqual({ cpu: '1' })
    expect(pod.status).toEqual({ phase: 'Pending', qosClass: 'Burstable' })
  })
})

describe('generation', () => {
  it('is kept by workloads (a spec or annotation change bumps it), not by ConfigMaps or Namespaces', async () => {
    const cm = await w.core.createNamespacedConfigMap({
      namespace: 'reg',
      body: { metadata: { name: 'plain' }, data: { a: '1' } }
    })
    expect(cm.metadata!.generation).toBeUndefined()
    expect((await w.core.readNamespace({ name: 'reg' })).metadata!.generation).toBeUndefined()
    const d = await w.apps.readNamespacedDeployment({ name: 'web', namespace: 'reg' })
    expect(d.metadata!.generation).toBe(1)
    const labelled = await w.apps.replaceNamespacedDeployment({
      name: 'web',
      namespace: 'reg',
      body: { ...d, metadata: { ...d.metadata, labels: { x: 'y' } } }
    })
    expect(labelled.metadata!.generation).toBe(1)
    const annotated = await w.apps.replaceNamespacedDeployment({
      name: 'web',
      namespace: 'reg',
      body: { ...labelled, metadata: { ...labelled.metadata, annotations: { note: 'n' } } }
    })
    expect(annotated.metadata!.generation).toBe(2)
  })
})

describe('validation', () => {
  it('refuses a Deployment whose selector does not match its template, in the real words', async () => {
    const st = await failure(
      w.apps.createNamespacedDeployment({
        namespace: 'reg',
        body: { ...deployment({ app: 'a' }, { app: 'b' }), metadata: { name: 'bad' } }
      })
    )
    expect(st).toMatchObject({
      code: 422,
      reason: 'Invalid',
      message:
        'Deployment.apps "bad" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"a"}: `selector` does not match template `labels`',
      details: {
        name: 'bad',
        group: 'apps',
        kind: 'Deployment',
        causes: [
          {
            reason: 'FieldValueInvalid',
            message:
              'Invalid value: map[string]string{"app":"a"}: `selector` does not match template `labels`',
            field: 'spec.template.metadata.labels'
          }
        ]
      }
    })
    const empty = await failure(
      w.apps.createNamespacedDeployment({
        namespace: 'reg',
        body: { ...deployment({ app: 'a' }, {}), metadata: { name: 'bad' } }
      })
    )
    expect(empty.message).toBe(
      'Deployment.apps "bad" is invalid: spec.selector: Invalid value: &LabelSelector{MatchLabels:map[string]string{},MatchExpressions:[]LabelSelectorRequirement{},}: empty selector is invalid for deployment'
    )
  })

  it('refuses a selector change, a Job whose pods would restart Always, bad ConfigMap keys and label values', async () => {
    const live = await w.apps.readNamespacedDeployment({ name: 'web', namespace: 'reg' })
    const changed = await failure(
      w.apps.replaceNamespacedDeployment({
        name: 'web',
        namespace: 'reg',
        body: {
          ...live,
          spec: {
            ...live.spec!,
            selector: { matchLabels: { app: 'web', v: '2' } },
            template: { ...live.spec!.template, metadata: { labels: { app: 'web', v: '2' } } }
          }
        }
      })
    )
    expect(changed.message).toContain(
      'spec.selector: Invalid value: &LabelSelector{MatchLabels:map[string]string{app: web,v: 2,}'
    )
    expect(changed.message).toContain(': field is immutable')
    const job = await failure(
      w.batch.createNamespacedJob({
        namespace: 'reg',
        body: {
          metadata: { name: 'forever' },
          spec: { template: { spec: { containers: [{ name: 'c', image: 'i' }] } } }
        }
      })
    )
    expect(job.message).toBe(
      'Job.batch "forever" is invalid: spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never"'
    )
    const cm = await failure(
      w.core.createNamespacedConfigMap({
        namespace: 'reg',
        body: { metadata: { name: 'keys' }, data: { 'bad key': 'x' } }
      })
    )
    expect(cm.message).toBe(
      `ConfigMap "keys" is invalid: data[bad key]: Invalid value: "bad key": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`
    )
    const label = await failure(
      w.core.createNamespacedConfigMap({
        namespace: 'reg',
        body: { metadata: { name: 'lbl', labels: { run: 'not ok!' } } }
      })
    )
    expect(label.message).toMatch(
      /^ConfigMap "lbl" is invalid: metadata.labels: Invalid value: "not ok!": a valid label must be an empty string/
    )
  })

  it('handles unknown fields as fieldValidation says: Strict 400, Warn (the default) a Warning header, Ignore silently', async () => {
    const body = JSON.stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'fv' },
      data: { a: 'b' },
      dataa: { c: 'd' }
    })
    const strict = await rawRequest(w, '/api/v1/namespaces/reg/configmaps?fieldValidation=Strict', {
      method: 'POST',
      body
    })
    expect(strict.status).toBe(400)
    expect(strict.json.message).toBe(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "dataa"'
    )
    const warn = await rawRequest(w, '/api/v1/namespaces/reg/configmaps', { method: 'POST', body })
    expect(warn.status).toBe(201)
    expect(warn.headers.get('warning')).toBe('299 - "unknown field \\"dataa\\""')
    expect(warn.json.dataa).toBeUndefined()
    const ignore = await rawRequest(w, '/api/v1/namespaces/reg/configmaps/fv?fieldValidation=Ignore', {
      method: 'PUT',
      body: JSON.stringify({ ...JSON.parse(body), metadata: { name: 'fv', labels: { x: 'y' } } })
    })
    expect(ignore.status).toBe(200)
    expect(ignore.headers.get('warning')).toBeNull()
    // Server-side apply converts the applied object to its type first: an undeclared field fails it.
    const apply = await rawPatch(
      w,
      '/api/v1/namespaces/reg/configmaps/fv?fieldManager=m',
      'application/apply-patch+yaml',
      body
    )
    expect(apply.status).toBe(500)
    expect(apply.json).toEqual(
      failureStatus(
        500,
        'failed to create typed patch object (reg/fv; /v1, Kind=ConfigMap): .dataa: field not declared in schema'
      )
    )
  })
})

describe('query parameters and errors', () => {
  it('starts a watch for watch=True / 1 / t, as the parameter codec reads booleans, and lists for watch=false', async () => {
    for (const v of ['True', '1', 't', 'TRUE']) {
      const res = await rawRequest(w, `/api/v1/namespaces/reg/configmaps?watch=${v}&timeoutSeconds=1`)
      expect(res.text.split('\n')[0]).toMatch(/^\{"type":"ADDED"/)
    }
    const list = await rawRequest(w, '/api/v1/namespaces/reg/configmaps?watch=false')
    expect(list.json.kind).toBe('ConfigMapList')
  })

  it('sends BOOKMARKs for allowWatchBookmarks=True and none for allowWatchBookmarks=false', async () => {
    const rv = (await w.core.listNamespacedConfigMap({ namespace: 'reg' })).metadata!.resourceVersion!
    const types = async (v: string) =>
      (
        await rawRequest(
          w,
          `/api/v1/namespaces/reg/configmaps?watch=1&resourceVersion=${rv}&allowWatchBookmarks=${v}&timeoutSeconds=2`
        )
      ).text
        .split('\n')
        .filter(Boolean)
        .map(l => JSON.parse(l).type)
    expect(await types('True')).toContain('BOOKMARK')
    expect(await types('false')).toEqual([])
  })

  it('refuses sendInitialEvents (WatchList is off in v1.33) and resourceVersionMatch out of place with 422', async () => {
    const invalid = async (query: string) => {
      const res = await rawRequest(w, `/api/v1/namespaces/reg/configmaps?${query}`)
      expect(res.status).toBe(422)
      expect(res.json).toMatchObject({
        reason: 'Invalid',
        details: { group: 'meta.k8s.io', kind: 'ListOptions' }
      })
      return res.json.message
    }
    expect(
      await invalid(
        'watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true'
      )
    ).toBe(
      'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled'
    )
    expect(await invalid('watch=true&sendInitialEvents=false')).toBe(
      'ListOptions.meta.k8s.io "" is invalid: [resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan, sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled]'
    )
    expect(await invalid('watch=true&resourceVersionMatch=Exact')).toBe(
      'ListOptions.meta.k8s.io "" is invalid: [resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided, resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"]'
    )
    expect(await invalid('sendInitialEvents=true')).toBe(
      'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list'
    )
    expect(await invalid('resourceVersionMatch=Exact&resourceVersion=0')).toBe(
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"'
    )
    expect(await invalid('resourceVersionMatch=Newest')).toBe(
      'ListOptions.meta.k8s.io "" is invalid: [resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided, resourceVersionMatch: Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", ""]'
    )
    const ok = await rawRequest(
      w,
      '/api/v1/namespaces/reg/configmaps?resourceVersionMatch=NotOlderThan&resourceVersion=0'
    )
    expect(ok.json.kind).toBe('ConfigMapList')
  })

  it('answers a malformed continue token and an unsupported field label with 400', async () => {
    const cont = await failure(w.core.listNamespacedConfigMap({ namespace: 'reg', _continue: 'abc!' }))
    expect(cont).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: 'invalid continue token: continue key is not valid: illegal base64 data at input byte 3'
    })
    expect(cont.details).toBeUndefined()
    const field = await failure(
      w.core.listNamespacedPod({ namespace: 'reg', fieldSelector: 'spec.containers=x' })
    )
    expect(field).toMatchObject({ code: 400, message: 'field label not supported: spec.containers' })
    expect(
      (await w.core.listNamespacedPod({ namespace: 'reg', fieldSelector: 'spec.nodeName=' })).items
    ).toHaveLength(1)
  })
})

describe('server-side printing', () => {
  const table = async (p: string) =>
    (await rawRequest(w, p, { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } })).json

  it('prints ReplicaSets, Services, Jobs and Events with the real columns', async () => {
    const names = (t: any) => t.columnDefinitions.map((c: any) => c.name)
    expect(names(await table('/apis/apps/v1/namespaces/reg/replicasets'))).toEqual([
      'Name',
      'Desired',
      'Current',
      'Ready',
      'Age',
      'Containers',
      'Images',
      'Selector'
    ])
    const svc = await table('/api/v1/namespaces/reg/services')
    expect(names(svc)).toEqual(['Name', 'Type', 'Cluster-IP', 'External-IP', 'Port(s)', 'Age', 'Selector'])
    expect(svc.rows[0].cells.slice(0, 5)).toEqual([
      'web',
      'ClusterIP',
      expect.any(String),
      '<none>',
      '80/TCP'
    ])
    const jobs = await table('/apis/batch/v1/namespaces/reg/jobs')
    expect(names(jobs)).toEqual([
      'Name',
      'Status',
      'Completions',
      'Duration',
      'Age',
      'Containers',
      'Images',
      'Selector'
    ])
    expect(jobs.rows[0].cells.slice(0, 3)).toEqual(['once', 'Running', '0/1'])
    expect(names(await table('/api/v1/namespaces/reg/events'))).toEqual([
      'Last Seen',
      'Type',
      'Reason',
      'Object',
      'Subobject',
      'Source',
      'Message',
      'First Seen',
      'Count',
      'Name'
    ])
  })
})
