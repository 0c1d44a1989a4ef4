// The OpenAPI surface kubectl reads: the /openapi/v3 index, one v3 document per group-version
// (PATCH operations carrying x-kubernetes-group-version-kind and the write query parameters, by
// which kubectl learns the server validates fields itself, and the schemas of the group-version's
// kinds), and the /openapi/v2 (Swagger 2.0) document with every definition. Schemas of built-in
// types are generated from the official .proto files — field types, descriptions from their
// comments (without `+marker` lines), required fields (those not marked `+optional`), the wire
// forms of Time, Quantity, IntOrString, inlined structs — so `kubectl explain` works; custom
// resources publish their CRD's openAPIV3Schema.
import protobuf from 'protobufjs'
import type { ObjectStore, ResourceType } from '../store.js'
import { apiVersionOf } from '../store.js'
import { crdInfo } from './crds.js'
import { SERVER_VERSION } from './discovery.js'
import { isInline, jsonName, messageFor, protoRoot } from './protobuf.js'
import type { SchemaRoot } from './schemas.js'

type Schema = Record<string, unknown>
type Style = 'v2' | 'v3'

function gvPath(group: string, version: string): string {
  return group ? `apis/${group}/${version}` : `api/${version}`
}

/** `.k8s.io.api.core.v1.Pod` → `io.k8s.api.core.v1.Pod` (the definition names Kubernetes uses). */
export function definitionName(fullName: string): string {
  return fullName
    .replace(/^\./, '')
    .replace(/^k8s\.io\./, 'io.k8s.')
    .replace('apiextensions_apiserver', 'apiextensions-apiserver')
}

/** A custom resource's definition name: the reversed group, version and kind. */
function customName(t: ResourceType): string {
  return `${t.group.split('.').reverse().join('.')}.${t.version}.${t.kind}`
}

/** A comment as the description openapi-gen writes: `+marker` lines dropped, the lines of a
 *  paragraph joined with spaces, paragraphs apart by a blank line, code fences kept as they are. */
function describe(comment: string | null | undefined): string | undefined {
  const out: string[] = []
  let para: string[] = []
  let fenced = false
  const flush = () => {
    if (para.length) out.push(para.join(' '))
    para = []
  }
  for (const raw of (comment ?? '').split('\n')) {
    const line = raw.trimEnd()
    if (!fenced && /^\s*\+/.test(line)) continue
    if (line.trim().startsWith('```')) {
      flush()
      fenced = !fenced
      out.push(line)
      continue
    }
    if (fenced) out.push(line)
    else if (!line.trim()) {
      flush()
      out.push('')
    } else para.push(line.trim())
  }
  flush()
  const text = out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
  return text || undefined
}

const META = 'k8s.io.apimachinery.pkg.apis.meta.v1'
const EXT = 'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1'

/** Message types whose JSON is not an object of their fields. */
function specialSchema(fullName: string): Schema | undefined {
  switch (fullName.replace(/^\./, '')) {
    case `${META}.Time`:
    case `${META}.MicroTime`:
      return { type: 'string', format: 'date-time' }
    case `${META}.Duration`:
      return { type: 'string' }
    case `${META}.FieldsV1`:
    case 'k8s.io.apimachinery.pkg.runtime.RawExtension':
      return { type: 'object' }
    case 'k8s.io.apimachinery.pkg.api.resource.Quantity':
      return { type: 'string' }
    case 'k8s.io.apimachinery.pkg.util.intstr.IntOrString':
      return { type: 'string', format: 'int-or-string' }
    case `${EXT}.JSON`:
      return { 'x-kubernetes-preserve-unknown-fields': true }
    case `${EXT}.JSONSchemaPropsOrArray`:
    case `${EXT}.JSONSchemaPropsOrBool`:
    case `${EXT}.JSONSchemaPropsOrStringArray`:
      return {}
  }
  return undefined
}

function scalarSchema(type: string): Schema {
  switch (type) {
    case 'string':
      return { type: 'string' }
    case 'bool':
      return { type: 'boolean' }
    case 'bytes':
      return { type: 'string', format: 'byte' }
    case 'double':
    case 'float':
      return { type: 'number', format: 'double' }
    case 'int64':
    case 'uint64':
    case 'sint64':
    case 'fixed64':
    case 'sfixed64':
      return { type: 'integer', format: 'int64' }
    default:
      return { type: 'integer', format: 'int32' }
  }
}

function isWrapper(t: protobuf.Type): boolean {
  const f = t.fieldsArray
  return (
    f.length === 1 &&
    f[0].name === 'items' &&
    f[0].repeated &&
    /\+protobuf\.nullable=true/.test(t.comment ?? '')
  )
}

/** Builds the schemas of message types and everything they reference, in one style. */
class SchemaSet {
  readonly schemas: Record<string, Schema> = {}
  constructor(private readonly style: Style) {}

  private ref(name: string): string {
    return this.style === 'v3' ? `#/components/schemas/${name}` : `#/definitions/${name}`
  }

  /** The schema of a field value of message type `t` (a reference to its definition). */
  private messageRef(t: protobuf.Type, description?: string, inArray = false): Schema {
    const name = this.add(t)
    const d = description ? { description } : {}
    if (this.style === 'v2') return { $ref: this.ref(name), ...d }
    return { allOf: [{ $ref: this.ref(name) }], ...(inArray ? {} : { default: {} }), ...d }
  }

  private valueSchema(f: protobuf.Field, inArray: boolean): Schema {
    const rt = f.resolvedType
    if (rt instanceof protobuf.Type) return this.messageRef(rt, undefined, inArray)
    return scalarSchema(f.type)
  }

  private fieldSchema(f: protobuf.Field): Schema {
    const description = describe(f.comment)
    const d = description ? { description } : {}
    if (f.map) return { type: 'object', additionalProperties: this.valueSchema(f, false), ...d }
    if (f.repeated) return { type: 'array', items: this.valueSchema(f, true), ...d }
    const rt = f.resolvedType
    if (rt instanceof protobuf.Type) return this.messageRef(rt, description)
    return { ...scalarSchema(f.type), ...d }
  }

  /** Properties and required fields of a message (inlined structs flattened into it). */
  private body(t: protobuf.Type): { properties: Record<string, Schema>; required: string[] } {
    const properties: Record<string, Schema> = {}
    const required: string[] = []
    for (const f of [...t.fieldsArray].sort((a, b) => a.id - b.id)) {
      if (isInline(t, f)) {
        const inner = this.body(f.resolvedType as protobuf.Type)
        Object.assign(properties, inner.properties)
        required.push(...inner.required)
        continue
      }
      const name = jsonName(t, f)
      properties[name] = this.fieldSchema(f)
      if (!/\+optional/.test(f.comment ?? '') && !f.repeated && !f.map && name !== 'metadata')
        required.push(name)
    }
    return { properties, required }
  }

  /** Adds `t` (and what it references) to the set; returns its definition name. */
  add(t: protobuf.Type, extra: Schema = {}): string {
    const name = definitionName(t.fullName)
    if (this.schemas[name]) {
      if (extra['x-kubernetes-group-version-kind']) withTypeMeta(this.schemas[name])
      Object.assign(this.schemas[name], extra)
      return name
    }
    const description = describe(t.comment)
    const d = description ? { description } : {}
    const special = specialSchema(t.fullName)
    if (special) {
      this.schemas[name] = { ...d, ...special, ...extra }
      return name
    }
    if (isWrapper(t)) {
      this.schemas[name] = { ...d, type: 'array', items: scalarSchema(t.fieldsArray[0].type), ...extra }
      return name
    }
    const schema: Schema = { ...d, type: 'object' }
    this.schemas[name] = schema
    const { properties, required } = this.body(t)
    schema.properties = properties
    if (required.length) schema.required = [...new Set(required)].sort()
    if (extra['x-kubernetes-group-version-kind']) withTypeMeta(schema)
    Object.assign(schema, extra)
    return name
  }

  /** A custom resource: its CRD's schema with metadata as ObjectMeta. */
  addCustom(store: ObjectStore, t: ResourceType): void {
    const info = crdInfo(store, t)
    const crdType = store.type('apiextensions.k8s.io', 'customresourcedefinitions')
    const crd = info && crdType ? store.tryGet(crdType, undefined, info.crdName) : undefined
    const version = (crd?.spec?.versions ?? []).find((v: any) => v.name === t.version)
    const schema = structuredClone(
      version?.schema?.openAPIV3Schema ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }
    )
    const meta = protoRoot().lookupType(`${META}.ObjectMeta`)
    schema.properties = {
      ...(schema.properties ?? {}),
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: this.messageRef(meta)
    }
    schema['x-kubernetes-group-version-kind'] = [{ group: t.group, kind: t.kind, version: t.version }]
    this.schemas[customName(t)] = schema
  }
}

const TYPE_META: Record<string, Schema> = {
  apiVersion: {
    description:
      'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources',
    type: 'string'
  },
  kind: {
    description:
      'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
    type: 'string'
  }
}

/** Top-level kinds carry apiVersion and kind in JSON (in protobuf the envelope holds them). */
function withTypeMeta(schema: Schema): void {
  const properties = { ...TYPE_META, ...((schema.properties ?? {}) as Record<string, Schema>) }
  schema.properties = Object.fromEntries(
    Object.entries(properties).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  )
}

function gvk(t: ResourceType, kind = t.kind): Schema {
  return { 'x-kubernetes-group-version-kind': [{ group: t.group, kind, version: t.version }] }
}

/** Adds the schemas of `types` (their kinds and lists) to `set`. */
function addTypes(store: ObjectStore, set: SchemaSet, types: ResourceType[]): void {
  for (const t of types) {
    const av = apiVersionOf(t)
    const msg = messageFor(av, t.kind)
    if (!msg || msg.fullName.startsWith(`.${META}.`)) {
      if (crdInfo(store, t)) set.addCustom(store, t)
      continue
    }
    set.add(msg, gvk(t))
    const list = messageFor(av, `${t.kind}List`)
    if (list && !list.fullName.startsWith(`.${META}.`)) set.add(list, gvk(t, `${t.kind}List`))
  }
  const status = protoRoot().lookupType(`${META}.Status`)
  set.add(status, { 'x-kubernetes-group-version-kind': [{ group: '', kind: 'Status', version: 'v1' }] })
}

export function openApiV3Index(store: ObjectStore): Record<string, unknown> {
  const paths: Record<string, { serverRelativeURL: string }> = {}
  for (const t of store.types()) {
    const p = gvPath(t.group, t.version)
    paths[p] = { serverRelativeURL: `/openapi/v3/${p}?hash=${hashOf(store, t.group, t.version)}` }
  }
  return { paths }
}

function hashOf(store: ObjectStore, group: string, version: string): string {
  const names = store
    .types()
    .filter(t => t.group === group && t.version === version)
    .map(t => `${t.plural}:${t.kind}:${t.namespaced}:${crdInfo(store, t)?.crdName ?? ''}`)
    .sort()
    .join(',')
  let h = 0
  for (const ch of names) h = (h * 31 + ch.charCodeAt(0)) >>> 0
  return h.toString(16).padStart(8, '0').toUpperCase()
}

const WRITE_PARAMS = ['dryRun', 'fieldManager', 'fieldValidation', 'force']

function objectPath(t: ResourceType): string {
  const base = `/${t.group ? 'apis/' + t.group : 'api'}/${t.version}`
  return t.namespaced ? `${base}/namespaces/{namespace}/${t.plural}/{name}` : `${base}/${t.plural}/{name}`
}

function patchOperation(t: ResourceType, style: Style): Record<string, unknown> {
  return {
    patch: {
      operationId: `patch${t.kind}`,
      'x-kubernetes-action': 'patch',
      'x-kubernetes-group-version-kind': { group: t.group, version: t.version, kind: t.kind },
      parameters: WRITE_PARAMS.map(name =>
        style === 'v3'
          ? {
              name,
              in: 'query',
              schema: { type: name === 'force' ? 'boolean' : 'string', uniqueItems: true }
            }
          : { name, in: 'query', type: name === 'force' ? 'boolean' : 'string', uniqueItems: true }
      ),
      responses: { '200': { description: 'OK' } }
    }
  }
}

/** The document for `/openapi/v3/api/v1` or `/openapi/v3/apis/<g>/<v>`; undefined when unknown. */
export function openApiV3Doc(store: ObjectStore, pathname: string): Record<string, unknown> | undefined {
  const rest = pathname.replace(/^\/openapi\/v3\//, '').split('/')
  const [group, version] =
    rest[0] === 'api' && rest.length === 2 ? ['', rest[1]] : rest.length === 3 ? [rest[1], rest[2]] : []
  if (version === undefined) return undefined
  const types = store.types().filter(t => t.group === group && t.version === version)
  if (!types.length) return undefined
  const paths: Record<string, unknown> = {}
  for (const t of types) paths[objectPath(t)] = patchOperation(t, 'v3')
  const set = new SchemaSet('v3')
  addTypes(store, set, types)
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: SERVER_VERSION },
    paths,
    components: { schemas: sortKeys(set.schemas) }
  }
}

/** The Swagger 2.0 document at `/openapi/v2`: every served type's definitions. */
export function openApiV2Doc(store: ObjectStore): Record<string, unknown> {
  const types = store.types()
  const paths: Record<string, unknown> = {}
  for (const t of types) paths[objectPath(t)] = patchOperation(t, 'v2')
  const set = new SchemaSet('v2')
  addTypes(store, set, types)
  return {
    swagger: '2.0',
    info: { title: 'Kubernetes', version: SERVER_VERSION },
    paths,
    definitions: sortKeys(set.schemas)
  }
}

function sortKeys(o: Record<string, Schema>): Record<string, Schema> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}

const builtinRoots = new Map<string, SchemaRoot | null>()

function rootOf(key: string, make: (set: SchemaSet) => string | undefined): SchemaRoot | undefined {
  let hit = builtinRoots.get(key)
  if (hit === undefined) {
    const set = new SchemaSet('v3')
    const name = make(set)
    hit = name ? { schema: set.schemas[name], defs: set.schemas, builtin: true } : null
    builtinRoots.set(key, hit)
  }
  return hit ?? undefined
}

/** The schema of a built-in kind (from the .proto files), for unknown-field checks; cached. */
export function builtinSchemaRoot(apiVersion: string, kind: string): SchemaRoot | undefined {
  return rootOf(`${apiVersion}/${kind}`, set => {
    const msg = messageFor(apiVersion, kind)
    if (!msg || msg.fullName.startsWith(`.${META}.`)) return undefined
    const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion]
    return set.add(msg, { 'x-kubernetes-group-version-kind': [{ group, kind, version }] })
  })
}

/** metav1.ObjectMeta's schema: what a custom resource's metadata may hold. */
export function objectMetaRoot(): SchemaRoot {
  return rootOf('ObjectMeta', set => set.add(protoRoot().lookupType(`${META}.ObjectMeta`)))!
}
