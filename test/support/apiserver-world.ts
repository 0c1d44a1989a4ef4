// Test helper for the simulated API server suites: a store with the built-in types, a running
// server, the control plane's garbage collector and namespace controller (no nodes: a pod bound to
// a node stays Terminating once deleted, as with a kubelet that is gone), and ready client-node /
// kubeconfig handles (token and client-certificate users).
import { afterAll, beforeAll } from '@jest/globals'
import { AppsV1Api, BatchV1Api, CoreV1Api, KubeConfig } from '@kubernetes/client-node'
import path from 'node:path'
import { SimClock, SimRecorder } from '../../sim/contracts.js'
import { type FaultSpec, loadScenario } from '../../sim/scenario.js'
import { startControlPlane } from '../../sim/kube/controllers/index.js'
import { type WorldTls, createWorldTls, issueClientCert } from '../../sim/tls.js'
import { type ApiServer, startApiServer } from '../../sim/kube/apiserver/index.js'
import { registerBuiltins } from '../../sim/kube/resources.js'
import { chartCrds } from '../../sim/kube/crds/index.js'
import { type KubeObject, ObjectStore, type ResourceType } from '../../sim/kube/store.js'
import { rejection } from './rejection.js'
import { closeAfterTest } from './world-scope.js'

export const TOKEN = 'sim-token-123'

/** The NicClusterPolicy CRD of network-operator v26.4.1, as upstream ships it. */
export const NCP_CRD = path.resolve(
  process.cwd(),
  'test/fixtures/upstream/network-operator-v26.4.1-crd-nicclusterpolicies.yaml'
)

let sharedTls: WorldTls | undefined
/** One CA per test process (key generation costs ~100 ms). */
export function testTls(): WorldTls {
  return (sharedTls ??= createWorldTls())
}

export interface TestWorld {
  store: ObjectStore
  server: ApiServer
  tls: WorldTls
  recorder: SimRecorder
  clock: SimClock
  kc: KubeConfig
  /** Typed clients of `kc` (the token user). */
  core: CoreV1Api
  apps: AppsV1Api
  batch: BatchV1Api
  logs: Map<string, string>
  type(group: string, plural: string): ResourceType
  put(
    group: string,
    plural: string,
    obj: Omit<KubeObject, 'apiVersion' | 'kind'> & Partial<KubeObject>
  ): KubeObject
  close(): Promise<void>
}

export function kubeConfigYaml(
  url: string,
  tls: WorldTls,
  user: { token?: string; cert?: string; key?: string }
): string {
  const b64 = (s: string) => Buffer.from(s).toString('base64')
  const userLines = user.token
    ? `    token: ${user.token}\n`
    : `    client-certificate-data: ${b64(user.cert!)}\n    client-key-data: ${b64(user.key!)}\n`
  return `apiVersion: v1
kind: Config
clusters:
- name: sim
  cluster:
    server: ${url}
    certificate-authority-data: ${b64(tls.caPem)}
users:
- name: sim-user
  user:
${userLines}contexts:
- name: sim
  context:
    cluster: sim
    user: sim-user
current-context: sim
`
}

export function kubeConfigFor(
  url: string,
  tls: WorldTls,
  user: { token?: string; cert?: string; key?: string }
): KubeConfig {
  const kc = new KubeConfig()
  kc.loadFromString(kubeConfigYaml(url, tls, user))
  return kc
}

export function adminKubeConfig(w: TestWorld): KubeConfig {
  const { certPem, keyPem } = issueClientCert(w.tls, 'masterclient', ['system:masters'])
  return kubeConfigFor(w.server.url, w.tls, { cert: certPem, key: keyPem })
}

export async function startWorld(
  opts: { faults?: FaultSpec[]; timeScale?: number } = {}
): Promise<TestWorld> {
  const clock = new SimClock(opts.timeScale ?? 0.01)
  const store = new ObjectStore({ now: () => clock.wallNow() })
  registerBuiltins(store)
  const tls = testTls()
  const recorder = new SimRecorder()
  const logs = new Map<string, string>()
  const server = await startApiServer({
    store,
    tls,
    recorder,
    clock,
    tokens: new Set([TOKEN]),
    verifyAadToken: t => t === 'aad-token-for-6dae42f8',
    faults: opts.faults,
    logs: (ns, pod, container, o) => {
      const text = logs.get(`${ns}/${pod}/${container ?? ''}`) ?? logs.get(`${ns}/${pod}`)
      if (text === undefined || !o?.tailLines) return text
      return text.split('\n').filter(Boolean).slice(-o.tailLines).join('\n') + '\n'
    }
  })
  const plane = startControlPlane({ store, clock, scenario: loadScenario(undefined, {}) })
  const type = (group: string, plural: string) => {
    const t = store.type(group, plural)
    if (!t) throw new Error(`no type ${plural}.${group}`)
    return t
  }
  const kc = kubeConfigFor(server.url, tls, { token: TOKEN })
  return {
    store,
    server,
    tls,
    recorder,
    clock,
    logs,
    kc,
    core: kc.makeApiClient(CoreV1Api),
    apps: kc.makeApiClient(AppsV1Api),
    batch: kc.makeApiClient(BatchV1Api),
    type,
    put: (group, plural, obj) => store.create(type(group, plural), obj as KubeObject),
    close: () => {
      plane.close()
      return server.close()
    }
  }
}

/**
 * One world for the calling file (or describe block): started before its tests, then handed to
 * `ready` (to seed objects, make more clients), closed after them. What it returns stands for that
 * world from its start on.
 */
export function worldForTests(
  ready: (w: TestWorld) => unknown = () => undefined,
  opts: Parameters<typeof startWorld>[0] = {}
): TestWorld {
  let world: TestWorld | undefined
  beforeAll(async () => {
    world = await startWorld(opts)
    await ready(world)
  })
  afterAll(async () => {
    await world?.close()
  })
  return new Proxy({} as TestWorld, {
    get(_, key) {
      if (!world) throw new Error('the world starts before the tests: use it inside them')
      return world[key as keyof TestWorld]
    }
  })
}

/** A world for the running test alone (its own faults, its own clock), closed after it. */
export async function startWorldForTest(opts: Parameters<typeof startWorld>[0] = {}): Promise<TestWorld> {
  return closeAfterTest(await startWorld(opts))
}

export function nodeObject(
  name: string,
  labels: Record<string, string> = {}
): Omit<KubeObject, 'apiVersion' | 'kind'> {
  return {
    metadata: { name, labels: { 'kubernetes.io/os': 'linux', ...labels } },
    spec: {},
    status: {
      conditions: [
        { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' }
      ],
      addresses: [{ type: 'InternalIP', address: '10.224.0.4' }],
      nodeInfo: { kubeletVersion: 'v1.33.2', osImage: 'Ubuntu 24.04 LTS' },
      capacity: { cpu: '96', memory: '1900Gi', pods: '110' },
      allocatable: { cpu: '95', memory: '1800Gi', pods: '110' }
    }
  }
}

export function podObject(
  ns: string,
  name: string,
  node: string,
  labels: Record<string, string> = {}
): Omit<KubeObject, 'apiVersion' | 'kind'> {
  return {
    metadata: { name, namespace: ns, labels },
    spec: { nodeName: node, containers: [{ name: 'main', image: 'busybox:1.36' }] },
    status: {
      phase: 'Running',
      podIP: '10.244.0.7',
      conditions: [{ type: 'Ready', status: 'False' }],
      containerStatuses: [
        {
          name: 'main',
          ready: false,
          restartCount: 0,
          image: 'busybox:1.36',
          imageID: '',
          state: { running: {} }
        }
      ]
    }
  }
}

/** Errors from client-node carry the Status body as an object or a JSON string. */
export function statusOf(err: unknown): any {
  const body = (err as { body?: unknown }).body
  return typeof body === 'string' ? JSON.parse(body) : body
}

/** The HTTP code and the Status body a client call failed with; throws when the call succeeded. */
export async function failure(p: Promise<unknown>): Promise<any> {
  const err = await rejection(p)
  return { code: (err as { code?: number }).code, ...statusOf(err) }
}

/** Polls `cond` every 10 ms until it holds (a generous limit: a busy machine only waits longer). */
export async function waitFor(cond: () => boolean, ms = 60_000): Promise<void> {
  const until = Date.now() + ms
  while (!cond()) {
    if (Date.now() > until) throw new Error('condition not met in time')
    await new Promise(r => setTimeout(r, 10))
  }
}

/** A request with raw headers and a raw body, its answer kept as bytes (protobuf, OpenAPI). */
export async function bytesRequest(
  w: TestWorld,
  p: string,
  init: { method?: string; body?: Buffer | string; headers?: Record<string, string> } = {}
): Promise<{ status: number; type: string; body: Buffer; headers: Headers }> {
  const { Agent, fetch } = await import('undici')
  const res = await fetch(w.server.url + p, {
    method: init.method ?? 'GET',
    body: init.body,
    headers: { authorization: `Bearer ${TOKEN}`, ...(init.headers ?? {}) },
    dispatcher: new Agent({ connect: { ca: w.tls.caPem } })
  })
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    body: Buffer.from(await res.arrayBuffer()),
    headers: res.headers as unknown as Headers
  }
}

/** A request with raw headers and body (Warning headers, query parameters clients do not send). */
export async function rawRequest(
  w: TestWorld,
  p: string,
  init: { method?: string; body?: string; headers?: Record<string, string> } = {}
): Promise<{ status: number; text: string; json: any; headers: Headers }> {
  const res = await bytesRequest(w, p, {
    ...init,
    headers: { 'content-type': 'application/json', ...(init.headers ?? {}) }
  })
  const text = res.body.toString('utf8')
  let json: any
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status: res.status, text, json, headers: res.headers }
}

/** A raw PATCH of `body` (text as it is, anything else as JSON) in the patch type `contentType`. */
export const rawPatch = (w: TestWorld, p: string, contentType: string, body: unknown) =>
  rawRequest(w, p, {
    method: 'PATCH',
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': contentType }
  })

/** The metav1.Status body kube-apiserver fails a request with. */
export const failureStatus = (
  code: number,
  message: string,
  more: { reason?: string; details?: unknown } = {}
) => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message,
  ...more,
  code
})

/** A namespaced CustomResourceDefinition of `kind` in `group`, serving and storing v1 with `schema`. */
export function crdObject(
  group: string,
  kind: string,
  schema: Record<string, unknown>,
  names: { shortNames?: string[] } = {}
): KubeObject {
  const singular = kind.toLowerCase()
  const plural = `${singular}s`
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural, singular, kind, listKind: `${kind}List`, ...names },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }]
    }
  }
}

/** Creates the CRDs a chart version installs (the upstream files the simulated charts carry). */
export function installChartCrds(w: TestWorld, chart: string, version: string, part?: string): void {
  const t = w.type('apiextensions.k8s.io', 'customresourcedefinitions')
  for (const crd of chartCrds(chart, version, part))
    if (!w.store.tryGet(t, undefined, crd.metadata.name)) w.store.create(t, crd)
}
