// The resource verbs that read and write: get, list, create, update, patch (JSON, merge,
// strategic, server-side apply). Every write goes through what the kind's registry does (defaults,
// admission, validation: the store's strategy) and the field checks of fields.ts (unknown fields
// as `fieldValidation` says, custom resources pruned, defaulted and validated by their schema).
// Deletes are in deletes.ts, the pod subresources in pods.ts; watch is served in watch.ts.
import { parse as parseYaml } from 'yaml'
import { defaultObject } from '../defaults-served.js'
import { validatePodUpdate } from '../pod-update.js'
import { podQosClass } from '../qos.js'
import { checkFieldSelector } from '../fieldlabels.js'
import type { KubeObject, ObjectStore, ResourceType } from '../store.js'
import { StoreError, apiVersionOf, typeKey } from '../store.js'
import { crdInfo, listOracleFor } from './crds.js'
import { type FieldValidation, admitFields, checkApplyTyped, fieldValidationOf } from './fields.js'
import { type Scope, deepEqual, isPlainObject } from './fieldpaths.js'
import { managedAfterUpdate } from './managed.js'
import { applyMigratingLastApplied } from './last-applied.js'
import { jsonPatch, mergePatch, strategicMergePatch } from './patch.js'
import type { ResourceRoute } from './route.js'
import { bodyEncoding } from './media.js'
import { atVersion } from './crd-versions.js'
import { decodeByteFields } from './byte-fields.js'
import { ProtobufError, decodeObject, groupSpeaksProtobuf, readEnvelope } from './protobuf.js'
import { ApiError } from './status.js'
import { parseBool } from './parse-bool.js'
import { wantsTable, toTable } from './table.js'

export interface Reply {
  status: number
  body: unknown
  contentType?: string
  /** `Warning` header messages (unknown fields dropped under fieldValidation=Warn). */
  warnings?: string[]
}

export type LogProvider = (
  ns: string,
  pod: string,
  container?: string,
  opts?: {
    tailLines?: number
    previous?: boolean
    timestamps?: boolean
    sinceSeconds?: number
    limitBytes?: number
  }
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

export function details(t: ResourceType, name?: string): { name?: string; group: string; kind: string } {
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

/** A 422 on one field, worded as errors.NewInvalid words it. */
export function invalid(t: ResourceType, name: string, field: string, message: string): ApiError {
  return new ApiError(
    422,
    'Invalid',
    `${t.kind}${t.group ? '.' + t.group : ''} "${name}" is invalid: ${field}: ${message}`,
    {
      ...details(t, name),
      kind: t.kind,
      causes: [{ reason: 'FieldValueInvalid', message, field }]
    }
  )
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
      `Invalid value: "${name}": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`
    )
  for (const [k, v] of Object.entries(meta.labels ?? {}))
    if (typeof v !== 'string')
      throw invalid(t, name, `metadata.labels[${k}]`, 'Invalid value: must be a string')
  return o
}

export function requireNamespace(env: VerbEnv, t: ResourceType, ns: string | undefined): void {
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

/** The object a request addresses, at the version the request named. */
export function getLive(env: VerbEnv, route: ResourceRoute): KubeObject {
  return atVersion(env.store.get(route.type, route.namespace, route.name!), route.type)
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
  if (typeKey(t) === 'pods') validatePodUpdate(t, live, next)
  return env.store.update(
    t,
    { ...next, metadata: { ...next.metadata, resourceVersion: live.metadata.resourceVersion } },
    { dryRun }
  )
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
  const m = live.metadata
  if (m.deletionTimestamp !== undefined) next.metadata.deletionTimestamp = m.deletionTimestamp
  if (m.deletionGracePeriodSeconds !== undefined)
    next.metadata.deletionGracePeriodSeconds = m.deletionGracePeriodSeconds
  return next
}

/** managedFields of `next` after an Update-operation write by the request's manager. */
function recordUpdate(env: VerbEnv, r: VerbRequest, live: KubeObject | undefined, next: KubeObject): void {
  const t = r.route.type
  next.metadata.managedFields = live?.metadata.managedFields
  const managed = managedAfterUpdate(live, next, managerOf(r), writeContext(env, t, r.route.subresource))
  if (managed) next.metadata.managedFields = managed
  else delete next.metadata.managedFields
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

/** 400 for a field selector the kind does not support. */
export function checkSelectors(env: VerbEnv, t: ResourceType, fieldSelector: string | undefined): void {
  const info = crdInfo(env.store, t)
  checkFieldSelector(t, fieldSelector, info ? { selectableFields: info.selectableFields } : undefined)
}

export function listObjects(env: VerbEnv, r: VerbRequest): Reply {
  const t = r.route.type
  const limit = Number(r.query.get('limit') ?? '0')
  const fieldSelector = r.query.get('fieldSelector') ?? undefined
  checkSelectors(env, t, fieldSelector)
  const page = env.store.list(t, {
    namespace: r.route.namespace,
    labelSelector: r.query.get('labelSelector') ?? undefined,
    fieldSelector,
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

/** What the pod strategy's PrepareForCreate leaves of a new pod's status: Pending and its QoS class. */
function podCreateStatus(pod: KubeObject): Record<string, unknown> {
  return { phase: 'Pending', qosClass: podQosClass(pod) }
}

function directiveOf(r: VerbRequest): FieldValidation {
  return fieldValidationOf(r.query)
}

export function createObject(env: VerbEnv, r: VerbRequest): Reply {
  const t = r.route.type
  const directive = directiveOf(r)
  const obj = checkObject(t, parseBody(r), { namespace: r.route.namespace })
  decodeByteFields(t, obj)
  requireNamespace(env, t, obj.metadata.namespace)
  delete obj.metadata.managedFields
  delete obj.metadata.resourceVersion
  const warnings = admitFields(env, t, obj, { directive })
  if (typeKey(t) === 'pods') obj.status = podCreateStatus(obj)
  defaultObject(t, obj)
  recordUpdate(env, r, undefined, obj)
  return { status: 201, body: env.store.create(t, obj, { dryRun: isDryRun(r.query) }), warnings }
}

export function updateObject(env: VerbEnv, r: VerbRequest): Reply {
  const { type: t, name, namespace, subresource } = r.route
  const directive = directiveOf(r)
  const body = checkObject(t, parseBody(r), { name, namespace })
  decodeByteFields(t, body)
  const live = getLive(env, r.route)
  const warnings = admitFields(env, t, body, { directive, old: live })
  const next = composeWrite(t, live, body, subresource)
  defaultObject(t, next)
  recordUpdate(env, r, live, next)
  return { status: 200, body: commit(env, t, live, next, isDryRun(r.query)), warnings }
}

export function patched(env: VerbEnv, r: VerbRequest, live: KubeObject): unknown {
  const t = r.route.type
  const ct = r.contentType.split(';')[0].trim().toLowerCase()
  const patch = parseBody(r)
  if (ct === 'application/json-patch+json') return jsonPatch(live, patch)
  if (ct === 'application/merge-patch+json') return mergePatch(live, patch)
  if (ct === 'application/strategic-merge-patch+json') {
    if (crdInfo(env.store, t))
      throw new ApiError(
        415,
        'UnsupportedMediaType',
        'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml'
      )
    return strategicMergePatch(live, patch, listOracleFor(env.store, t))
  }
  throw new ApiError(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, application/strategic-merge-patch+json`
  )
}

export function patchObject(env: VerbEnv, r: VerbRequest): Reply {
  const { type: t, subresource } = r.route
  const ct = r.contentType.split(';')[0].trim().toLowerCase()
  if (ct === 'application/apply-patch+yaml') return applyObject(env, r)
  const directive = directiveOf(r)
  const live = getLive(env, r.route)
  const result = patched(env, r, live)
  if (!isPlainObject(result)) throw new ApiError(422, 'Invalid', 'the patched object is not an object')
  const obj = result as KubeObject
  if (obj.metadata?.name !== live.metadata.name)
    throw invalid(t, live.metadata.name, 'metadata.name', 'Invalid value: field is immutable')
  checkObject(t, obj, { name: live.metadata.name, namespace: live.metadata.namespace })
  decodeByteFields(t, obj)
  const warnings = admitFields(env, t, obj, { directive, old: live })
  const next = composeWrite(t, live, obj, subresource)
  defaultObject(t, next)
  recordUpdate(env, r, live, next)
  return { status: 200, body: commit(env, t, live, next, isDryRun(r.query)), warnings }
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
  checkApplyTyped(env, t, applied)
  const force = parseBool(r.query, 'force')
  const dryRun = isDryRun(r.query)
  const found = env.store.tryGet(t, namespace, name!)
  const live = found && atVersion(found, t)
  const ctx = writeContext(env, t, subresource)
  if (!live) {
    if (subresource) getLive(env, r.route) // throws NotFound
    requireNamespace(env, t, namespace)
    const created = applyMigratingLastApplied(undefined, applied, manager, force, ctx)
    decodeByteFields(t, created)
    admitFields(env, t, created, { directive: 'Ignore' })
    return { status: 201, body: env.store.create(t, created, { dryRun }) }
  }
  const merged = applyMigratingLastApplied(live, applied, manager, force, ctx)
  decodeByteFields(t, merged)
  merged.metadata.resourceVersion = applied.metadata.resourceVersion ?? live.metadata.resourceVersion
  admitFields(env, t, merged, { directive: 'Ignore', old: live })
  const next = composeWrite(t, live, merged, subresource)
  defaultObject(t, next)
  if (subresource === 'status') next.metadata.managedFields = merged.metadata.managedFields
  return { status: 200, body: commit(env, t, live, next, dryRun) }
}

export function storeErrorToApi(err: StoreError, route?: ResourceRoute): ApiError {
  const name = /"([^"]+)"/.exec(err.message)?.[1]
  const d = route ? details(route.type, name ?? route.name) : undefined
  if (err.reason === 'Invalid' && route)
    return new ApiError(err.code, err.reason, err.message, {
      ...d,
      kind: route.type.kind,
      ...(err.causes ? { causes: err.causes } : {})
    })
  // A bad request carries no details (errors.NewBadRequest); the others name the object.
  if (err.reason === 'BadRequest') return new ApiError(err.code, err.reason, err.message)
  return new ApiError(err.code, err.reason, err.message, d && err.causes ? { ...d, causes: err.causes } : d)
}
