// The simulated API server's protobuf encoding: the official .proto files against
// @kubernetes/client-node's models (every field has its JSON name), round trips of the wire forms
// the .proto files cannot say (Time, Quantity, IntOrString, FieldsV1, Secret bytes, CRD schemas),
// the exact bytes kubectl v1.33 sends for `kubectl create namespace`, and over HTTPS: protobuf
// bodies in, protobuf objects / lists / Status / watch frames out, and custom resources answered
// as a real server answers protobuf (400 for a body, JSON or 406 for Accept).
import { describe, expect, it } from '@jest/globals'
import * as k8s from '@kubernetes/client-node'
import protobuf from 'protobufjs'
import { readFileSync } from 'node:fs'
import {
  decodeObject,
  encodeObject,
  formatGoDuration,
  isInline,
  jsonName,
  parseGoDuration,
  protoRoot,
  readWatchFrames
} from '../../../sim/kube/apiserver/protobuf.js'
import {
  TOKEN,
  worldForTests,
  NCP_CRD,
  bytesRequest,
  crdObject,
  failureStatus
} from '../../support/apiserver-world.js'

const PB = 'application/vnd.kubernetes.protobuf'

describe('the .proto files and the JSON they stand for', () => {
  it('gives every field of every v1 message the JSON name @kubernetes/client-node knows', () => {
    const missing: string[] = []
    let checked = 0
    const visit = (ns: protobuf.NamespaceBase) => {
      for (const o of ns.nestedArray) {
        if (o instanceof protobuf.Type) {
          const m =
            /^\.k8s\.io\.(?:api\.[a-z]+|apimachinery\.pkg\.apis\.meta|apiextensions_apiserver\.pkg\.apis\.apiextensions)\.v1\.(\w+)$/.exec(
              o.fullName
            )
          const model = m ? (k8s as any)[`V1${m[1]}`] : undefined
          if (model?.attributeTypeMap) {
            const known = new Set<string>(model.attributeTypeMap.map((a: any) => a.baseName))
            // An inlined struct's fields sit in the parent's JSON object (also when nested:
            // admissionregistration's NamedRuleWithOperations inlines RuleWithOperations, which
            // inlines Rule).
            const flat = (t: protobuf.Type): string[] =>
              t.fieldsArray.flatMap(f =>
                isInline(t, f) ? flat(f.resolvedType as protobuf.Type) : [jsonName(t, f)]
              )
            const fields = flat(o)
            for (const name of fields) {
              checked++
              if (!known.has(name)) missing.push(`${o.fullName}: ${name}`)
            }
          }
        }
        if ((o as protobuf.Namespace).nestedArray) visit(o as protobuf.Namespace)
      }
    }
    visit(protoRoot())
    expect(checked).toBeGreaterThan(1300)
    expect(missing).toEqual([])
  })

  it('round-trips a Deployment, a Secret, a Status and a CRD schema through the envelope', () => {
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name: 'd',
        namespace: 'default',
        creationTimestamp: '2026-01-02T03:04:05Z',
        labels: { app: 'd' },
        managedFields: [
          {
            manager: 'kubectl',
            operation: 'Update',
            apiVersion: 'apps/v1',
            time: '2026-01-02T03:04:05Z',
            fieldsType: 'FieldsV1',
            fieldsV1: { 'f:spec': { 'f:replicas': {} } }
          }
        ]
      },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: 'd' } },
        template: {
          metadata: { labels: { app: 'd' } },
          spec: {
            volumes: [{ name: 'cfg', configMap: { name: 'rdma-devices', defaultMode: 420 } }],
            containers: [
              {
                name: 'c',
                image: 'busybox',
                env: [{ name: 'A', valueFrom: { configMapKeyRef: { name: 'cm', key: 'k' } } }],
                resources: { limits: { 'rdma/hca_shared_devices_a': '1', memory: '1Gi' } },
                readinessProbe: { exec: { command: ['true'] }, periodSeconds: 5 }
              }
            ],
            terminationGracePeriodSeconds: 0
          }
        },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: '25%' } }
      }
    }
    const sorted = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(sorted)
        : v && typeof v === 'object'
          ? Object.fromEntries(
              Object.entries(v)
                .sort(([a], [b]) => (a < b ? -1 : 1))
                .map(([k, x]) => [k, sorted(x)])
            )
          : v
    expect(sorted(decodeObject(encodeObject(deployment)))).toEqual(sorted(deployment))

    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's' },
      data: { a: 'aGk=' },
      type: 'Opaque'
    }
    expect(decodeObject(encodeObject(secret))).toEqual(secret)

    const status = failureStatus(404, 'pods "x" not found', {
      reason: 'NotFound',
      details: { name: 'x', kind: 'pods' }
    })
    expect(decodeObject(encodeObject(status))).toEqual(status)

    const crd = crdObject('example.com', 'Thing', {
      type: 'object',
      'x-kubernetes-preserve-unknown-fields': true,
      properties: {
        spec: {
          type: 'object',
          required: ['size'],
          additionalProperties: { type: 'string' },
          properties: {
            size: { type: 'integer', default: 3, enum: [1, 3] },
            ports: { type: 'array', items: { type: 'integer' }, 'x-kubernetes-list-type': 'set' }
          }
        }
      }
    })
    expect(sorted(decodeObject(encodeObject(crd)))).toEqual(sorted(crd))
  })

  it('decodes the body kubectl v1.33 sends for `kubectl create namespace smoke`', () => {
    // Captured with `kubectl -v=8 create namespace smoke`: Go writes every non-pointer field.
    const body = Buffer.from(
      '6b3873000a0f0a0276311209' +
        '4e616d657370616365121d0a150a05736d6f6b6512001a0022002a00320038004200120' +
        '01a020a001a002200',
      'hex'
    )
    expect(decodeObject(body)).toEqual({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'smoke' },
      spec: {},
      status: {}
    })
  })

  it('formats and parses Go durations', () => {
    expect(formatGoDuration(0)).toBe('0s')
    expect(formatGoDuration(1_500_000_000)).toBe('1.5s')
    expect(formatGoDuration(3_723_000_000_000)).toBe('1h2m3s')
    expect(formatGoDuration(150_000_000)).toBe('150ms')
    expect(parseGoDuration('1h2m3s')).toBe(3_723_000_000_000)
    expect(parseGoDuration('1.5s')).toBe(1_500_000_000)
    expect(parseGoDuration('soon')).toBeUndefined()
  })
})

describe('protobuf over HTTPS', () => {
  const w = worldForTests()

  const call = (p: string, init: Parameters<typeof bytesRequest>[2]) => bytesRequest(w, p, init)

  it('creates from a protobuf body and answers in protobuf when asked first', async () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'pb-cm' }, data: { a: 'b' } }
    const created = await call('/api/v1/namespaces/default/configmaps?fieldManager=kubectl-create', {
      method: 'POST',
      body: encodeObject(cm),
      headers: { 'content-type': PB, accept: `${PB},application/json` }
    })
    expect(created.status).toBe(201)
    expect(created.type).toBe(PB)
    const obj = decodeObject(created.body)
    expect(obj).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', data: { a: 'b' } })
    expect((obj.metadata as any).uid).toBe(
      w.store.get(w.type('', 'configmaps'), 'default', 'pb-cm').metadata.uid
    )
    expect((obj.metadata as any).managedFields[0].manager).toBe('kubectl-create')

    const list = await call('/api/v1/namespaces/default/configmaps', { headers: { accept: PB } })
    expect(list.type).toBe(PB)
    expect(decodeObject(list.body)).toMatchObject({
      kind: 'ConfigMapList',
      items: [{ metadata: { name: 'pb-cm' } }]
    })

    const json = await call('/api/v1/namespaces/default/configmaps/pb-cm', {
      headers: { accept: 'application/json;q=0.9,application/vnd.kubernetes.protobuf;q=0.5' }
    })
    expect(json.type).toBe('application/json')
    expect(JSON.parse(json.body.toString()).data).toEqual({ a: 'b' })

    const missing = await call('/api/v1/namespaces/default/configmaps/nope', {
      headers: { accept: `${PB},application/json` }
    })
    expect(missing.status).toBe(404)
    expect(missing.type).toBe(PB)
    expect(decodeObject(missing.body)).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404 })
  })

  it('serves a protobuf watch stream of length-framed WatchEvents', async () => {
    const { Agent, request } = await import('undici')
    const res = await request(
      `${w.server.url}/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=60`,
      {
        headers: { authorization: `Bearer ${TOKEN}`, accept: `${PB};stream=watch` },
        dispatcher: new Agent({ connect: { ca: w.tls.caPem } })
      }
    )
    expect(res.headers['content-type']).toBe(`${PB};stream=watch`)
    const chunks: Buffer[] = []
    setTimeout(
      () =>
        w.put('', 'configmaps', { metadata: { name: 'watched', namespace: 'default' }, data: { x: '1' } }),
      100
    )
    // Read until the change arrives (the watch would end after 60 s): no deadline to race.
    let events: ReturnType<typeof readWatchFrames> = []
    for await (const c of res.body) {
      chunks.push(Buffer.from(c))
      events = readWatchFrames(Buffer.concat(chunks))
      if (events.some(e => (e.object.metadata as any).name === 'watched')) break
    }
    expect(events.map(e => [e.type, (e.object.metadata as any).name])).toEqual(
      expect.arrayContaining([
        ['ADDED', 'pb-cm'],
        ['ADDED', 'watched']
      ])
    )
    expect(events.find(e => (e.object.metadata as any).name === 'watched')?.object).toMatchObject({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      data: { x: '1' }
    })
  })

  it('refuses what it cannot decode: unknown media types (415) and kinds it does not know (400)', async () => {
    const text = await call('/api/v1/namespaces', {
      method: 'POST',
      body: 'name: x',
      headers: { 'content-type': 'text/plain' }
    })
    expect(text.status).toBe(415)
    expect(JSON.parse(text.body.toString()).message).toBe(
      'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf'
    )
    const notProto = await call('/api/v1/namespaces', {
      method: 'POST',
      body: '{"metadata":{"name":"x"}}',
      headers: { 'content-type': PB }
    })
    expect(notProto.status).toBe(400)
    expect(JSON.parse(notProto.body.toString()).message).toMatch(
      /^the object provided is unrecognized \(must be of type Namespace\): provided data does not appear to be a protobuf message/
    )
  })

  it('keeps custom resources JSON-only, as a real server does', async () => {
    const { loadAllYaml } = k8s
    const crd = loadAllYaml(readFileSync(NCP_CRD, 'utf8'))[0] as any
    w.put('apiextensions.k8s.io', 'customresourcedefinitions', crd)
    for (let i = 0; i < 50 && !w.store.type('mellanox.com', 'nicclusterpolicies'); i++)
      await new Promise(r => setTimeout(r, 20))
    const body = Buffer.concat([
      Buffer.from('k8s\0', 'latin1'),
      protoRoot()
        .lookupType('k8s.io.apimachinery.pkg.runtime.Unknown')
        .encode({
          typeMeta: { apiVersion: 'mellanox.com/v1alpha1', kind: 'NicClusterPolicy' },
          raw: Buffer.alloc(0)
        })
        .finish()
    ])
    const created = await call('/apis/mellanox.com/v1alpha1/nicclusterpolicies', {
      method: 'POST',
      body,
      headers: { 'content-type': PB, accept: `${PB},application/json` }
    })
    expect(created.status).toBe(400)
    expect(created.type).toBe(PB)
    expect(decodeObject(created.body).message).toBe(
      'NicClusterPolicy in version "v1alpha1" cannot be handled as a NicClusterPolicy: object *unstructured.Unstructured does not implement the protobuf marshalling interface and cannot be encoded to a protobuf message'
    )
    const listed = await call('/apis/mellanox.com/v1alpha1/nicclusterpolicies', {
      headers: { accept: `${PB},application/json` }
    })
    expect(listed.status).toBe(200)
    expect(listed.type).toBe('application/json')
    const only = await call('/apis/mellanox.com/v1alpha1/nicclusterpolicies', { headers: { accept: PB } })
    expect(only.status).toBe(406)
    expect(JSON.parse(only.body.toString())).toMatchObject({
      reason: 'NotAcceptable',
      message:
        'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf'
    })
  })

  it('answers a Table only in JSON and skips protobuf Table clauses', async () => {
    const r = await call('/api/v1/namespaces', {
      headers: {
        accept: `${PB};as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1;g=meta.k8s.io,application/json`
      }
    })
    expect(r.type).toBe('application/json')
    expect(JSON.parse(r.body.toString()).kind).toBe('Table')
  })
})
