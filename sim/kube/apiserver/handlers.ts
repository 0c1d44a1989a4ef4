// The resource verbs: get, list, create, update, patch (JSON, merge, strategic, server-side apply),
// delete (with namespace contents and owner-reference cascade), deletecollection, and the pod
// subresources log / eviction / binding. Each returns a Reply; watch is served in watch.ts.
import { parse as parseYaml } from 'yaml'
import type { KubeObject, ObjectStore, ResourceType } from '../store.js'
import { StoreError, apiVersionOf, typeKey } from '../store.js'
import { crdInfo, listOracleFor } from './crds.js'
import { type Scope, deepEqual, isPlainObject } from './fieldpaths.js'
import { managedAfterUpdate, nowTime, serverSideApply } from './managed.js'
import { jsonPatch, mergePatch, strategicMergePatch } from './patch.js'
import type { ResourceRoute } from './route.js'
import { bodyEncoding } from './media.js'
import { ProtobufError, decodeObject, groupSpeaksProtobuf, isProtobufBody, readEnvelope } from './protobuf.js'
import { ApiError, statusSuccess } from './status.js'
import { wantsTable, toTable } from './table.js'

export interface Reply {
  status: number
  body: unknown
  contentType?: string
}

export type LogProvider = (
  ns: string,
  pod: string,
  container?: string,
  opts?: { tailLines?: number }
) => string | undefined

export interface VerbRequest {
  method: string
  route: ResourceRoute
  query: URLSearchParams
  body: Buffer
  contentType: string
  accept: string
  /** Content negotiation chose a meta.k8s.io Table. */
  table?: boolean
  userAgent: string
}

export interface VerbEnv {
  store: ObjectStore
  logs?: LogProvider
}

const NAME_RE = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/

export const isDryRun = (q: URLSearchParams): boolean => q.getAll('dryRun').some(v => v !== '')

function resourceName(t: ResourceType): string {
  return t.group ? `${t.plural}.${t.group}` : t.plural
}

function details(t: ResourceType, name?: string): { name?: string; group: string; kind: string } {
  return { ...(name ? { name } : {}), group: t.group, kind: t.plural }
}

export function parseBody(r: VerbRequest): any {
  if (r.method !== 'PATCH' && bodyEncoding(r.contentType) === 'protobuf') return protobufBody(r)
  const text = r.body.toString('utf8')
  if (!text.trim()) throw new ApiError(400, 'BadRequest', 'the body of the request was empty')
  try {
    return r.contentType.includes('yaml') ? parseYaml(text) : JSON.parse(text)
  } catch (err) {
    throw new ApiError(
      400,
      'BadRequest',
      `the body of the request could not be decoded: ${(err as Error).message}`
    )
  }
}

/** A body in the protobuf envelope, decoded to JSON the way the server's protobuf decoder fails. */
function protobufBody(r: VerbRequest): any {
  const t = r.route.type
  if (!r.body.length) throw new ApiError(400, 'BadRequest', 'the body of the request was empty')
  let envelope: { apiVersion: string; kind: string } | undefined
  try {
    envelope = readEnvelope(r.body)
    if (!groupSpeaksProtobuf(t.group))
      throw new ProtobufError(
        'object *unstructured.Unstructured does not implement the protobuf marshalling interface and cannot be encoded to a protobuf message'
      )
    return decodeObject(r.body)
  } catch (err) {
    if (!(err instanceof ProtobufError)) throw err
    if (envelope?.kind) {
      const version = envelope.apiVersion.split('/').pop()
      throw new ApiError(
        400,
        'BadRequest',
        `${envelope.kind} in version "${version}" cannot be handled as a ${t.kind}: ${err.message}`
      )
    }
    const summary = JSON.stringify(r.body.subarray(0, 30).toString('latin1'))
    throw new ApiError(
      400,
      'BadRequest',
      `the object provided is unrecognized (must be of type ${t.kind}): ${err.message} (${summary})`
    )
  }
}

export function managerOf(r: VerbRequest): string {
  const explicit = r.query.get('fieldManager')
  if (explicit) return explicit
  const prefix = r.userAgent.split('/')[0].trim().slice(0, 128)
  return prefix || 'unknown'
}

function scopeOf(t: ResourceType, subresource?: string): Scope {
  if (subresource === 'status') return 'status'
  return (t.subresources ?? []).includes('status') ? 'main' : 'main+status'
}

export function writeContext(env: VerbEnv, t: ResourceType, subresource?: string) {
  return {
    oracle: listOracleFor(env.store, t),
    scope: scopeOf(t, subresource),
    apiVersion: apiVersionOf(t),
    ...(subresource ? { subresource } : {})
  }
}

function invalid(t: ResourceType, name: string, field: string, message: string): ApiError {
  return new ApiError(422, 'Invalid', `${t.kind} "${name}" is invalid: ${field}: ${message}`, {
    ...details(t, name),
    kind: t.kind,
    causes: [{ type: 'FieldValueInvalid', message, field }]
  })
}

function checkObject(
  t: ResourceType,
  obj: unknown,
  expected: { name?: string; namespace?: string }
): KubeObject {
  if (!isPlainObject(obj)) throw new ApiError(400, 'BadRequest', 'the body of the request must be an object')
  const o = obj as KubeObject
  if (o.apiVersion && o.apiVersion !== apiVersionOf(t))
    throw new ApiError(
      400,
      'BadRequest',
      `the API version in the data (${o.apiVersion}) does not match the expected API version (${apiVersionOf(t)})`
    )
  if (o.kind && o.kind !== t.kind)
    throw new ApiError(
      400,
      'BadRequest',
      `the kind in the data (${o.kind}) does not match the expected kind (${t.kind})`
    )
  o.apiVersion = apiVersionOf(t)
  o.kind = t.kind
  if (!isPlainObject(o.metadata)) o.metadata = {} as KubeObject['metadata']
  const meta = o.metadata
  if (expected.name !== undefined) {
    if (meta.name && meta.name !== expected.name)
      throw new ApiError(
        400,
        'BadRequest',
        `the name of the object (${meta.name}) does not match the name on the URL (${expected.name})`
      )
    meta.name = expected.name
  }
  if (t.namespaced) {
    if (meta.namespace && expected.namespace && meta.namespace !== expected.namespace)
      throw new ApiError(
        400,
        'BadRequest',
        'the namespace of the provided object does not match the namespace sent on the request'
      )
    if (expected.namespace) meta.namespace = expected.namespace
  } else delete meta.namespace
  const name = meta.name ?? ''
  if (!name && !meta.generateName)
    throw invalid(t, '', 'metadata.name', 'Required value: name or generateName is required')
  if (name && (!NAME_RE.test(name) || name.length > 253))
    throw invalid(
      t,
      name,
      'metadata.name',
      `Invalid value: "${name}": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character`
    )
  for (const [k, v] of Object.entries(meta.labels ?? {}))
    if (typeof v !== 'string')
      throw invalid(t, name, `metadata.labels[${k}]`, 'Invalid value: must be a string')
  return o
}

function requireNamespace(env: VerbEnv, t: ResourceType, ns: string | undefined): void {
  if (!t.namespaced) return
  if (!ns) throw new ApiError(404, 'NotFound', 'the server could not find the requested resource')
  const nsType = env.store.type('', 'namespaces')
  if (nsType && !env.store.tryGet(nsType, undefined, ns))
    throw new ApiError(404, 'NotFound', `namespaces "${ns}" not found`, {
      name: ns,
      group: '',
      kind: 'namespaces'
    })
}

export function getLive(env: VerbEnv, route: ResourceRoute): KubeObject {
  return env.store.get(route.type, route.namespace, route.name!)
}

/** Writes `next` over `live` unless nothing changed (then the live object, same resourceVersion). */
export function commit(
  env: VerbEnv,
  t: ResourceType,
  live: KubeObject,
  next: KubeObject,
  dryRun: boolean
): KubeObject {
  next.metadata = {
    ...next.metadata,
    uid: live.metadata.uid,
    creationTimestamp: live.metadata.creationTimestamp,
    generation: live.metadata.generation
  }
  if (!t.namespaced) delete next.metadata.namespace
  if (next.metadata.resourceVersion && next.metadata.resourceVersion !== live.metadata.resourceVersion)
    throw new ApiError(
      409,
      'Conflict',
      `Operation cannot be fulfilled on ${resourceName(t)} "${live.metadata.name}": the object has been modified; please apply your changes to the latest version and try again`,
      details(t, live.metadata.name)
    )
  const strip = (o: KubeObject) => ({ ...o, metadata: { ...o.metadata, resourceVersion: undefined } })
  if (deepEqual(strip(next), strip(live))) return live
  if (dryRun) {
    const { metadata: _m, status: _s, ...specNext } = next
    const { metadata: _l, status: _t, ...specLive } = live
    const generation = (live.metadata.generation ?? 1) + (deepEqual(specNext, specLive) ? 0 : 1)
    return {
      ...next,
      metadata: { ...next.metadata, resourceVersion: live.metadata.resourceVersion, generation }
    }
  }
  return env.store.update(t, {
    ...next,
    metadata: { ...next.metadata, resourceVersion: live.metadata.resourceVersion }
  })
}

/** The object a write produces on the main resource or the status subresource. */
function composeWrite(
  t: ResourceType,
  live: KubeObject,
  written: KubeObject,
  subresource?: string
): KubeObject {
  if (subresource === 'status') {
    const next = structuredClone(live)
    if (written.status === undefined) delete next.status
    else next.status = written.status
    next.metadata.resourceVersion = written.metadata?.resourceVersion ?? live.metadata.resourceVersion
    return next
  }
  const next = structuredClone(written)
  if ((t.subresources ?? []).includes('status')) {
    if (live.status === undefined) delete next.status
    else next.status = structuredClone(live.status)
  }
  if (live.metadata.deletionTimestamp) next.metadata.deletionTimestamp = live.metadata.deletionTimestamp
  return next
}

// ---- verbs ---------------------------------------------------------------------------------------

export function getObject(env: VerbEnv, r: VerbRequest): Reply {
  const obj = getLive(env, r.route)
  if (r.table ?? wantsTable(r.accept))
    return {
      status: 200,
      body: toTable(env.store, r.route.type, [obj], {}, r.query.get('includeObject') ?? undefined)
    }
  return { status: 200, body: obj }
}

export function listObjects(env: VerbEnv, r: VerbRequest): Reply {
  const t = r.route.type
  const limit = Number(r.query.get('limit') ?? '0')
  const page = env.store.list(t, {
    namespace: r.route.namespace,
    labelSelector: r.query.get('labelSelector') ?? undefined,
    fieldSelector: r.query.get('fieldSelector') ?? undefined,
    limit: Number.isFinite(limit) && limit > 0 ? limit : undefined,
    continue: r.query.get('continue') || undefined
  })
  const metadata = {
    resourceVersion: page.resourceVersion,
    ...(page.continue ? { continue: page.continue, remainingItemCount: page.remainingItemCount } : {})
  }
  if (r.table ?? wantsTable(r.accept))
    return {
      status: 200,
      body: toTable(env.store, t, page.items, metadata, r.query.get('includeObject') ?? undefined)
    }
  return {
    status: 200,
    body: { kind: `${t.kind}List`, apiVersion: apiVersionOf(t), metadata, items: page.items }
  }
}

/** What the API server sets on every new Namespace: its name label, the kubernetes finalizer, Active. */
function defaultNamespace(obj: KubeObject): void {
  obj.metadata.labels = { ...(obj.metadata.labels ?? {}), 'kubernetes.io/metadata.name': obj.metadata.name }
  obj.spec = { ...(obj.spec ?? {}), finalizers: obj.spec?.finalizers ?? ['kubernetes'] }
  obj.status = { phase: 'Active' }
}

export function createObject(env: VerbEnv, r: VerbRequest): Reply {
  const t = r.route.type
  const obj = checkObject(t, parseBody(r), { namespace: r.route.namespace })
  if (typeKey(t) === 'namespaces' && obj.metadata.name) defaultNamespace(obj)
  requireNamespace(env, t, obj.metadata.namespace)
  delete obj.metadata.managedFields
  delete obj.metadata.resourceVersion
  const managedFields = managedAfterUpdate(undefined, obj, managerOf(r), writeContext(env, t))
  if (managedFields) obj.metadata.managedFields = managedFields
  if (isDryRun(r.query)) {
    if (obj.metadata.name && env.store.tryGet(t, obj.metadata.namespace, obj.metadata.name))
      throw new ApiError(409, 'AlreadyExists', `${resourceName(t)} "${obj.metadata.name}" already exists`, {
        ...details(t, obj.metadata.name)
      })
    const uid = globalThis.crypto.randomUUID()
    const name = obj.metadata.name || `${obj.metadata.generateName}${uid.slice(0, 5)}`
    return {
      status: 201,
      body: { ...obj, metadata: { ...obj.metadata, name, uid, generation: 1, creationTimestamp: nowTime() } }
    }
  }
  return { status: 201, body: env.store.create(t, obj) }
}

export function updateObject(env: VerbEnv, r: VerbRequest): Reply {
  const { type: t, name, namespace, subresource } = r.route
  const body = checkObject(t, parseBody(r), { name, namespace })
  const live = getLive(env, r.route)
  const next = composeWrite(t, live, body, subresource)
  next.metadata.managedFields = live.metadata.managedFields
  const managed = managedAfterUpdate(live, next, managerOf(r), writeContext(env, t, subresource))
  if (managed) next.metadata.managedFields = managed
  else delete next.metadata.managedFields
  return { status: 200, body: commit(env, t, live, next, isDryRun(r.query)) }
}

export function patchObject(env: VerbEnv, r: VerbRequest): Reply {
  const { type: t, subresource } = r.route
  const ct = r.contentType.split(';')[0].trim().toLowerCase()
  if (ct === 'application/apply-patch+yaml') return applyObject(env, r)
  const patch = parseBody(r)
  const live = getLive(env, r.route)
  let patched: unknown
  if (ct === 'application/json-patch+json') patched = jsonPatch(live, patch)
  else if (ct === 'application/merge-patch+json') patched = mergePatch(live, patch)
  else if (ct === 'application/strategic-merge-patch+json') {
    if (crdInfo(env.store, t))
      throw new ApiError(
        415,
        'UnsupportedMediaType',
        'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml'
      )
    patched = strategicMergePatch(live, patch, listOracleFor(env.store, t))
  } else
    throw new ApiError(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, application/strategic-merge-patch+json`
    )
  if (!isPlainObject(patched)) throw new ApiError(422, 'Invalid', 'the patched object is not an object')
  const obj = patched as KubeObject
  if (obj.metadata?.name !== live.metadata.name)
    throw invalid(t, live.metadata.name, 'metadata.name', 'Invalid value: field is immutable')
  checkObject(t, obj, { name: live.metadata.name, namespace: live.metadata.namespace })
  const next = composeWrite(t, live, obj, subresource)
  next.metadata.managedFields = live.metadata.managedFields
  const managed = managedAfterUpdate(live, next, managerOf(r), writeContext(env, t, subresource))
  if (managed) next.metadata.managedFields = managed
  else delete next.metadata.managedFields
  return { status: 200, body: commit(env, t, live, next, isDryRun(r.query)) }
}

function applyObject(env: VerbEnv, r: VerbRequest): Reply {
  const { type: t, name, namespace, subresource } = r.route
  const manager = r.query.get('fieldManager')
  if (!manager)
    throw new ApiError(
      400,
      'BadRequest',
      'PATCH is not supported: fieldManager is required for apply requests'
    )
  const body = parseBody(r)
  if (!isPlainObject(body)) throw new ApiError(400, 'BadRequest', 'the body of the request must be an object')
  if (!body.apiVersion || !body.kind)
    throw new ApiError(400, 'BadRequest', 'apiVersion and kind must be set in an apply request')
  const applied = checkObject(t, body, { name, namespace })
  delete applied.metadata.managedFields
  const force = ['true', '1'].includes(r.query.get('force') ?? '')
  const dryRun = isDryRun(r.query)
  const live = env.store.tryGet(t, namespace, name!)
  const ctx = writeContext(env, t, subresource)
  if (!live) {
    if (subresource) getLive(env, r.route) // throws NotFound
    requireNamespace(env, t, namespace)
    const created = serverSideApply(undefined, applied, manager, force, ctx)
    if (typeKey(t) === 'namespaces') defaultNamespace(created)
    if (dryRun)
      return {
        status: 201,
        body: {
          ...created,
          metadata: {
            ...created.metadata,
            uid: globalThis.crypto.randomUUID(),
            generation: 1,
            creationTimestamp: nowTime()
          }
        }
      }
    return { status: 201, body: env.store.create(t, created) }
  }
  const merged = serverSideApply(live, applied, manager, force, ctx)
  merged.metadata.resourceVersion = applied.metadata.resourceVersion ?? live.metadata.resourceVersion
  const next = composeWrite(t, live, merged, subresource)
  if (subresource === 'status') next.metadata.managedFields = merged.metadata.managedFields
  return { status: 200, body: commit(env, t, live, next, dryRun) }
}

/**
 * Dependents (by ownerReference uid) of a deleted object, deleted in turn, generation by
 * generation: one scan of the store per generation (a DaemonSet's 1000 pods cost one scan).
 */
function cascade(env: VerbEnv, owner: KubeObject): void {
  let owners = new Set(owner.metadata.uid ? [owner.metadata.uid] : [])
  while (owners.size) {
    const found: Array<{ t: ResourceType; ns: string | undefined; name: string }> = []
    for (const t of env.store.types())
      for (const o of env.store.scan(t))
        if ((o.metadata.ownerReferences ?? []).some(ref => owners.has(ref.uid)))
          found.push({ t, ns: o.metadata.namespace, name: o.metadata.name })
    const next = new Set<string>()
    for (const f of found) {
      if (!env.store.tryGet(f.t, f.ns, f.name)) continue
      const gone = env.store.delete(f.t, f.ns, f.name)
      if (gone.metadata.uid) next.add(gone.metadata.uid)
    }
    owners = next
  }
}

function deleteContents(env: VerbEnv, ns: string): void {
  for (const t of env.store.types()) {
    if (!t.namespaced) continue
    for (const o of env.store.list(t, { namespace: ns }).items) env.store.delete(t, ns, o.metadata.name)
  }
}

function deleteOne(env: VerbEnv, r: VerbRequest, t: ResourceType, live: KubeObject, opts: any): KubeObject {
  const pre = opts?.preconditions ?? {}
  if (
    (pre.uid && pre.uid !== live.metadata.uid) ||
    (pre.resourceVersion && pre.resourceVersion !== live.metadata.resourceVersion)
  )
    throw new ApiError(
      409,
      'Conflict',
      `Operation cannot be fulfilled on ${resourceName(t)} "${live.metadata.name}": Precondition failed: UID in precondition: ${pre.uid ?? ''}, UID in object meta: ${live.metadata.uid}`,
      details(t, live.metadata.name)
    )
  if (isDryRun(r.query) || (opts?.dryRun ?? []).length) return live
  const gone = env.store.delete(t, live.metadata.namespace, live.metadata.name)
  if (typeKey(t) === 'namespaces') deleteContents(env, live.metadata.name)
  const policy = r.query.get('propagationPolicy') ?? opts?.propagationPolicy
  const orphan =
    policy === 'Orphan' || r.query.get('orphanDependents') === 'true' || opts?.orphanDependents === true
  if (!orphan) cascade(env, gone)
  return gone
}

function deleteOptions(r: VerbRequest): any {
  if (r.body.length && isProtobufBody(r.body)) {
    try {
      return decodeObject(r.body)
    } catch (err) {
      throw new ApiError(
        400,
        'BadRequest',
        `the DeleteOptions body could not be decoded: ${(err as Error).message}`
      )
    }
  }
  const text = r.body.toString('utf8').trim()
  if (!text) return {}
  try {
    return JSON.parse(text)
  } catch {
    throw new ApiError(400, 'BadRequest', 'the DeleteOptions body could not be decoded')
  }
}

export function deleteObject(env: VerbEnv, r: VerbRequest): Reply {
  const t = r.route.type
  const live = getLive(env, r.route)
  const gone = deleteOne(env, r, t, live, deleteOptions(r))
  const returnsObject = t.plural === 'pods' || t.plural === 'namespaces' || !!crdInfo(env.store, t)
  if (returnsObject) return { status: 200, body: gone }
  return { status: 200, body: statusSuccess({ ...details(t, live.metadata.name), uid: live.metadata.uid }) }
}

export function deleteCollection(env: VerbEnv, r: VerbRequest): Reply {
  const t = r.route.type
  const opts = deleteOptions(r)
  const items = env.store.list(t, {
    namespace: r.route.namespace,
    labelSelector: r.query.get('labelSelector') ?? undefined,
    fieldSelector: r.query.get('fieldSelector') ?? undefined
  }).items
  const gone = items.map(o => deleteOne(env, r, t, o, opts))
  return {
    status: 200,
    body: {
      kind: `${t.kind}List`,
      apiVersion: apiVersionOf(t),
      metadata: { resourceVersion: env.store.currentResourceVersion },
      items: gone
    }
  }
}

export function podLog(env: VerbEnv, r: VerbRequest): Reply {
  const pod = getLive(env, r.route)
  const containers: string[] = (pod.spec?.containers ?? []).map((c: any) => c.name)
  let container = r.query.get('container') ?? undefined
  if (!container) {
    if (containers.length > 1)
      throw new ApiError(
        400,
        'BadRequest',
        `a container name must be specified for pod ${pod.metadata.name}, choose one of: [${containers.join(' ')}]`
      )
    container = containers[0]
  } else if (
    containers.length &&
    !containers.includes(container) &&
    !(pod.spec?.initContainers ?? []).some((c: any) => c.name === container)
  )
    throw new ApiError(400, 'BadRequest', `container ${container} is not valid for pod ${pod.metadata.name}`)
  const tail = r.query.get('tailLines')
  const text = env.logs?.(pod.metadata.namespace!, pod.metadata.name, container, {
    ...(tail ? { tailLines: Number(tail) } : {})
  })
  if (text === undefined && containerStarted(pod, container))
    return { status: 200, body: '', contentType: 'text/plain' }
  if (text === undefined)
    throw new ApiError(
      400,
      'BadRequest',
      `container "${container ?? ''}" in pod "${pod.metadata.name}" is waiting to start: ContainerCreating`
    )
  return { status: 200, body: text, contentType: 'text/plain' }
}

/** The container is running or has run (a started container with no output has an empty log). */
function containerStarted(pod: KubeObject, container: string | undefined): boolean {
  const statuses = [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])]
  const st = statuses.find((s: any) => s.name === container)?.state
  return !!(st?.running || st?.terminated)
}

export function podEviction(env: VerbEnv, r: VerbRequest): Reply {
  const live = getLive(env, r.route)
  if (!isDryRun(r.query)) env.store.delete(r.route.type, live.metadata.namespace, live.metadata.name)
  return { status: 201, body: statusSuccess() }
}

export function podBinding(env: VerbEnv, r: VerbRequest): Reply {
  const binding = parseBody(r)
  const node = binding?.target?.name
  if (!node) throw invalid(r.route.type, r.route.name!, 'target.name', 'Required value')
  const live = getLive(env, r.route)
  if (live.spec?.nodeName)
    throw new ApiError(
      409,
      'Conflict',
      `pod ${live.metadata.name} is already assigned to node "${live.spec.nodeName}"`
    )
  if (!isDryRun(r.query)) env.store.update(r.route.type, { ...live, spec: { ...live.spec, nodeName: node } })
  return { status: 201, body: statusSuccess() }
}

export function storeErrorToApi(err: StoreError, route?: ResourceRoute): ApiError {
  const name = /"([^"]+)"/.exec(err.message)?.[1]
  return new ApiError(
    err.code,
    err.reason,
    err.message,
    route ? details(route.type, name ?? route.name) : undefined
  )
}
