// The Kubernetes protobuf encoding (`application/vnd.kubernetes.protobuf`) of built-in objects:
// the `k8s\0` magic and a runtime.Unknown envelope (typeMeta, raw, contentEncoding, contentType)
// around the object's message from the official .proto files (parsed with protobufjs), and the
// conversion between those messages and the JSON objects the store holds. The conversion knows
// the wire forms the .proto files cannot say: metav1.Time / MicroTime (seconds + nanos ↔ RFC 3339),
// Duration, resource.Quantity, intstr.IntOrString, RawExtension / FieldsV1 / apiextensions JSON
// (raw JSON bytes), slice wrappers (`+protobuf.nullable`, e.g. ExtraValue), and the JSON names of
// apiextensions' JSONSchemaProps (`$ref`, `x-kubernetes-*`). Go writes every non-pointer field,
// zero or not; decoding keeps zero numbers and booleans (a pointer set to 0 or false means
// something), drops empty strings, and drops the zeros of the non-pointer `omitempty` fields
// listed in OMIT_ZERO so objects read back as a real server's JSON would. Watch streams frame bare
// metav1.WatchEvent messages with a 4-byte big-endian length, the object inside in its envelope.
import protobuf from 'protobufjs'
import { protoFiles } from './proto-files.js'
import { parseGoDurationNs } from '../../go-duration.js'

type Type = protobuf.Type
type Field = protobuf.Field
type JsonObject = Record<string, unknown>

export const PROTOBUF_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf'
export const PROTOBUF_WATCH_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf;stream=watch'
const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00])

/** API group → protobuf package (without the version) of the groups whose types are compiled in. */
const GROUP_PACKAGES: Record<string, string> = {
  '': 'k8s.io.api.core',
  apps: 'k8s.io.api.apps',
  batch: 'k8s.io.api.batch',
  'coordination.k8s.io': 'k8s.io.api.coordination',
  'rbac.authorization.k8s.io': 'k8s.io.api.rbac',
  'node.k8s.io': 'k8s.io.api.node',
  'scheduling.k8s.io': 'k8s.io.api.scheduling',
  'authorization.k8s.io': 'k8s.io.api.authorization',
  'authentication.k8s.io': 'k8s.io.api.authentication',
  policy: 'k8s.io.api.policy',
  autoscaling: 'k8s.io.api.autoscaling',
  'networking.k8s.io': 'k8s.io.api.networking',
  'storage.k8s.io': 'k8s.io.api.storage',
  'discovery.k8s.io': 'k8s.io.api.discovery',
  'events.k8s.io': 'k8s.io.api.events',
  'admissionregistration.k8s.io': 'k8s.io.api.admissionregistration',
  'certificates.k8s.io': 'k8s.io.api.certificates',
  'flowcontrol.apiserver.k8s.io': 'k8s.io.api.flowcontrol',
  'apiextensions.k8s.io': 'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions',
  'meta.k8s.io': 'k8s.io.apimachinery.pkg.apis.meta'
}
const META = 'k8s.io.apimachinery.pkg.apis.meta.v1'
const EXT = 'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1'

const SPECIAL = {
  time: `.${META}.Time`,
  microTime: `.${META}.MicroTime`,
  duration: `.${META}.Duration`,
  fieldsV1: `.${META}.FieldsV1`,
  quantity: '.k8s.io.apimachinery.pkg.api.resource.Quantity',
  intOrString: '.k8s.io.apimachinery.pkg.util.intstr.IntOrString',
  rawExtension: '.k8s.io.apimachinery.pkg.runtime.RawExtension',
  extJson: `.${EXT}.JSON`,
  schemaProps: `.${EXT}.JSONSchemaProps`,
  orArray: `.${EXT}.JSONSchemaPropsOrArray`,
  orBool: `.${EXT}.JSONSchemaPropsOrBool`,
  orStringArray: `.${EXT}.JSONSchemaPropsOrStringArray`
}

/** Go structs embedded with `json:",inline"`: a field of their own in protobuf, flattened in JSON. */
const INLINE = new Set([
  '.k8s.io.api.core.v1.ConfigMapEnvSource.localObjectReference',
  '.k8s.io.api.core.v1.ConfigMapKeySelector.localObjectReference',
  '.k8s.io.api.core.v1.ConfigMapProjection.localObjectReference',
  '.k8s.io.api.core.v1.ConfigMapVolumeSource.localObjectReference',
  '.k8s.io.api.core.v1.SecretEnvSource.localObjectReference',
  '.k8s.io.api.core.v1.SecretKeySelector.localObjectReference',
  '.k8s.io.api.core.v1.SecretProjection.localObjectReference',
  '.k8s.io.api.core.v1.EphemeralContainer.ephemeralContainerCommon',
  '.k8s.io.api.core.v1.PersistentVolumeSpec.persistentVolumeSource',
  '.k8s.io.api.core.v1.Probe.handler',
  '.k8s.io.api.core.v1.Volume.volumeSource',
  '.k8s.io.api.admissionregistration.v1.NamedRuleWithOperations.ruleWithOperations',
  '.k8s.io.api.admissionregistration.v1.RuleWithOperations.rule',
  '.k8s.io.api.networking.v1.IngressRule.ingressRuleValue'
])

/** Fields whose JSON name is not their proto name (besides JSONSchemaProps, see jsonName). */
const JSON_NAMES: Record<string, string> = {
  '.k8s.io.api.authentication.v1.BoundObjectReference.uID': 'uid',
  '.k8s.io.api.admissionregistration.v1.MutatingWebhookConfiguration.Webhooks': 'webhooks',
  '.k8s.io.api.admissionregistration.v1.ValidatingWebhookConfiguration.Webhooks': 'webhooks',
  '.k8s.io.api.admissionregistration.v1.Validation.Expression': 'expression',
  '.k8s.io.api.admissionregistration.v1.Variable.Name': 'name',
  '.k8s.io.api.admissionregistration.v1.Variable.Expression': 'expression',
  '.k8s.io.api.networking.v1.IngressClassParametersReference.aPIGroup': 'apiGroup'
}

/** Non-pointer `omitempty` numbers and booleans: a zero on the wire means "not set". */
const OMIT_ZERO: Record<string, string[]> = {
  [`.${META}.ObjectMeta`]: ['generation'],
  '.k8s.io.api.core.v1.Container': ['stdin', 'stdinOnce', 'tty'],
  '.k8s.io.api.core.v1.EphemeralContainerCommon': ['stdin', 'stdinOnce', 'tty'],
  '.k8s.io.api.core.v1.PodSpec': ['hostNetwork', 'hostPID', 'hostIPC'],
  '.k8s.io.api.core.v1.ContainerPort': ['hostPort'],
  '.k8s.io.api.core.v1.Probe': [
    'initialDelaySeconds',
    'timeoutSeconds',
    'periodSeconds',
    'successThreshold',
    'failureThreshold'
  ],
  '.k8s.io.api.core.v1.VolumeMount': ['readOnly'],
  '.k8s.io.api.core.v1.ServicePort': ['nodePort'],
  '.k8s.io.api.core.v1.ServiceSpec': ['publishNotReadyAddresses'],
  '.k8s.io.api.core.v1.NodeSpec': ['unschedulable'],
  '.k8s.io.api.apps.v1.DeploymentSpec': ['minReadySeconds', 'paused'],
  '.k8s.io.api.apps.v1.DaemonSetSpec': ['minReadySeconds'],
  '.k8s.io.api.apps.v1.ReplicaSetSpec': ['minReadySeconds'],
  '.k8s.io.api.apps.v1.StatefulSetSpec': ['minReadySeconds'],
  [`.${EXT}.CustomResourceDefinitionSpec`]: ['preserveUnknownFields'],
  [`.${EXT}.CustomResourceDefinitionVersion`]: ['deprecated'],
  [SPECIAL.schemaProps]: [
    'exclusiveMaximum',
    'exclusiveMinimum',
    'uniqueItems',
    'nullable',
    'xKubernetesEmbeddedResource',
    'xKubernetesIntOrString'
  ]
}

let root: protobuf.Root | undefined

/** All the .proto files in one resolved protobufjs root (parsed once, ~50 ms). */
export function protoRoot(): protobuf.Root {
  if (root) return root
  const r = new protobuf.Root()
  // google/protobuf/any.proto (gnostic's OpenAPIv2.proto imports it) from protobufjs' own copy.
  r.addJSON(protobuf.common.get('google/protobuf/any.proto')!.nested!)
  for (const text of Object.values(protoFiles()))
    protobuf.parse(text, r, { keepCase: true, alternateCommentMode: true })
  r.resolveAll()
  root = r
  return r
}

function lookupType(fullName: string): Type | undefined {
  try {
    const t = protoRoot().lookup(fullName)
    return t instanceof protobuf.Type ? t : undefined
  } catch {
    return undefined
  }
}

/** Whether the group's types are compiled in (built-in), so protobuf can carry them. */
export function groupSpeaksProtobuf(group: string): boolean {
  return group in GROUP_PACKAGES
}

function splitApiVersion(apiVersion: string): [string, string] {
  const i = apiVersion.indexOf('/')
  return i < 0 ? ['', apiVersion] : [apiVersion.slice(0, i), apiVersion.slice(i + 1)]
}

/** The message of apiVersion/kind: the group's own type, else one of the meta types every
 *  group version carries (Status, DeleteOptions, WatchEvent, …); undefined when there is none. */
export function messageFor(apiVersion: string, kind: string): Type | undefined {
  const [group, version] = splitApiVersion(apiVersion)
  const pkg = GROUP_PACKAGES[group]
  if (!pkg || !/^[A-Za-z0-9]+$/.test(kind) || !/^v[0-9a-z]+$/.test(version)) return undefined
  return lookupType(`${pkg}.${version}.${kind}`) ?? lookupType(`${META}.${kind}`)
}

export class ProtobufError extends Error {}

// ---- message → JSON --------------------------------------------------------------------------------

function isWrapper(t: Type): boolean {
  const f = t.fieldsArray
  return (
    f.length === 1 &&
    f[0].name === 'items' &&
    f[0].repeated &&
    /\+protobuf\.nullable=true/.test(t.comment ?? '')
  )
}

function kebab(s: string): string {
  return s.replace(/[A-Z]/g, (c, i: number) => (i ? '-' : '') + c.toLowerCase())
}

/** Whether the field is an embedded struct whose fields JSON puts in the parent object. */
export function isInline(t: Type, f: Field): boolean {
  return INLINE.has(`${t.fullName}.${f.name}`)
}

/** The JSON name of a field: its proto name, except in apiextensions' JSONSchemaProps. */
export function jsonName(t: Type, f: Field): string {
  const renamed = JSON_NAMES[`${t.fullName}.${f.name}`]
  if (renamed) return renamed
  if (t.fullName !== SPECIAL.schemaProps) return f.name
  if (f.name === 'ref') return '$ref'
  if (f.name === 'schema') return '$schema'
  if (f.name.startsWith('xKubernetes')) return `x-kubernetes-${kebab(f.name.slice('xKubernetes'.length))}`
  return f.name
}

function toNumber(v: unknown): number {
  if (typeof v === 'number') return v
  return Number(String(v))
}

function rfc3339(seconds: number, nanos: number, micro: boolean): string {
  const iso = new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, '')
  if (!micro) return `${iso}Z`
  return `${iso}.${String(Math.floor(nanos / 1000)).padStart(6, '0')}Z`
}

function parseTime(s: unknown): { seconds: number; nanos: number } | undefined {
  if (typeof s !== 'string') return undefined
  const ms = Date.parse(s)
  if (!Number.isFinite(ms)) return undefined
  const frac = /\.(\d+)/.exec(s)?.[1] ?? ''
  return {
    seconds: Math.floor(ms / 1000),
    nanos: frac ? Number(frac.slice(0, 9).padEnd(9, '0')) : 0
  }
}

/** Go's time.Duration String(): `1h2m3.5s`, `150ms`, `0s`. */
export function formatGoDuration(ns: number): string {
  if (ns === 0) return '0s'
  const sign = ns < 0 ? '-' : ''
  let n = Math.abs(ns)
  if (n < 1_000) return `${sign}${n}ns`
  if (n < 1_000_000) return `${sign}${trim(n / 1_000)}µs`
  if (n < 1_000_000_000) return `${sign}${trim(n / 1_000_000)}ms`
  const h = Math.floor(n / 3_600_000_000_000)
  n -= h * 3_600_000_000_000
  const m = Math.floor(n / 60_000_000_000)
  n -= m * 60_000_000_000
  const s = trim(n / 1_000_000_000)
  return `${sign}${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${s}s`
}

function trim(x: number): string {
  return String(Number(x.toFixed(9)))
}

/** metav1.Duration's text in nanoseconds, or undefined when it is not a Go duration. */
export function parseGoDuration(text: unknown): number | undefined {
  if (typeof text !== 'string') return undefined
  try {
    return parseGoDurationNs(text)
  } catch {
    return undefined
  }
}

function parseRawJson(raw: unknown): unknown {
  if (!(raw instanceof Uint8Array) || raw.length === 0) return undefined
  const buf = Buffer.from(raw)
  if (buf.subarray(0, 4).equals(MAGIC)) return decodeObject(buf)
  try {
    return JSON.parse(buf.toString('utf8'))
  } catch {
    return undefined
  }
}

function has(msg: object, name: string): boolean {
  return Object.prototype.hasOwnProperty.call(msg, name)
}

/** A decoded message as JSON, or undefined when it reads as absent (a zero Time). */
function messageToJson(t: Type, msg: any): unknown {
  switch (t.fullName) {
    case SPECIAL.time:
    case SPECIAL.microTime: {
      const seconds = has(msg, 'seconds') ? toNumber(msg.seconds) : 0
      const nanos = has(msg, 'nanos') ? toNumber(msg.nanos) : 0
      if (seconds === 0 && nanos === 0) return undefined
      return rfc3339(seconds, nanos, t.fullName === SPECIAL.microTime)
    }
    case SPECIAL.duration:
      return formatGoDuration(has(msg, 'duration') ? toNumber(msg.duration) : 0)
    case SPECIAL.quantity:
      return has(msg, 'string') ? String(msg.string) : '0'
    case SPECIAL.intOrString:
      return toNumber(msg.type ?? 0) === 1 ? String(msg.strVal ?? '') : toNumber(msg.intVal ?? 0)
    case SPECIAL.rawExtension:
    case SPECIAL.extJson:
      return parseRawJson(msg.raw)
    case SPECIAL.fieldsV1:
      return parseRawJson(msg.Raw)
    case SPECIAL.orArray:
      if (msg.schema) return messageToJson(t.fields.schema.resolvedType as Type, msg.schema)
      return (msg.jSONSchemas ?? []).map((s: any) =>
        messageToJson(t.fields.jSONSchemas.resolvedType as Type, s)
      )
    case SPECIAL.orBool:
      if (msg.schema) return messageToJson(t.fields.schema.resolvedType as Type, msg.schema)
      return !!msg.allows
    case SPECIAL.orStringArray:
      if (msg.schema) return messageToJson(t.fields.schema.resolvedType as Type, msg.schema)
      return [...(msg.property ?? [])].map(String)
  }
  if (isWrapper(t)) return [...(msg.items ?? [])].map(v => scalarToJson(t.fieldsArray[0], v))
  const out: JsonObject = {}
  const omitZero = OMIT_ZERO[t.fullName]
  for (const f of [...t.fieldsArray].sort((a, b) => a.id - b.id)) {
    const name = jsonName(t, f)
    const v = msg[f.name]
    if (f.map) {
      const entries = Object.entries((v ?? {}) as Record<string, unknown>)
      if (!entries.length) continue
      out[name] = Object.fromEntries(entries.map(([k, x]) => [k, valueToJson(f, x)]))
    } else if (f.repeated) {
      if (!Array.isArray(v) || !v.length) continue
      out[name] = v.map(x => valueToJson(f, x)).filter(x => x !== undefined)
    } else {
      if (!has(msg, f.name) || v === null || v === undefined) continue
      if (isInline(t, f)) {
        Object.assign(out, messageToJson(f.resolvedType as Type, v))
        continue
      }
      const j = valueToJson(f, v)
      if (j === undefined || j === '') continue
      if ((j === 0 || j === false) && omitZero?.includes(f.name)) continue
      out[name] = j
    }
  }
  return out
}

function valueToJson(f: Field, v: unknown): unknown {
  const rt = f.resolvedType
  if (rt instanceof protobuf.Type) return messageToJson(rt, v)
  return scalarToJson(f, v)
}

function scalarToJson(f: Field, v: unknown): unknown {
  switch (f.type) {
    case 'string':
      return String(v)
    case 'bool':
      return !!v
    case 'bytes':
      return Buffer.from(v as Uint8Array).toString('base64')
    default:
      return toNumber(v)
  }
}

// ---- JSON → message ---------------------------------------------------------------------------

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function rawJson(v: unknown): Uint8Array {
  return Buffer.from(JSON.stringify(v), 'utf8')
}

/** The plain protobufjs message for a JSON value of message type `t`. */
function jsonToMessage(t: Type, v: unknown): JsonObject {
  switch (t.fullName) {
    case SPECIAL.time:
    case SPECIAL.microTime:
      return parseTime(v) ?? {}
    case SPECIAL.duration:
      return { duration: parseGoDuration(v) ?? 0 }
    case SPECIAL.quantity:
      return { string: String(v) }
    case SPECIAL.intOrString:
      return typeof v === 'number' ? { type: 0, intVal: Math.trunc(v) } : { type: 1, strVal: String(v) }
    case SPECIAL.rawExtension:
    case SPECIAL.extJson:
      return { raw: rawJson(v) }
    case SPECIAL.fieldsV1:
      return { Raw: rawJson(v) }
    case SPECIAL.orArray: {
      const schema = t.fields.schema.resolvedType as Type
      return Array.isArray(v)
        ? { jSONSchemas: v.map(s => jsonToMessage(schema, s)) }
        : { schema: jsonToMessage(schema, v) }
    }
    case SPECIAL.orBool: {
      const schema = t.fields.schema.resolvedType as Type
      return typeof v === 'boolean' ? { allows: v } : { allows: true, schema: jsonToMessage(schema, v) }
    }
    case SPECIAL.orStringArray: {
      const schema = t.fields.schema.resolvedType as Type
      return Array.isArray(v) ? { property: v.map(String) } : { schema: jsonToMessage(schema, v) }
    }
  }
  if (isWrapper(t)) return { items: (Array.isArray(v) ? v : []).map(x => jsonToScalar(t.fieldsArray[0], x)) }
  const out: JsonObject = {}
  if (!isObject(v)) return out
  for (const f of t.fieldsArray) {
    if (isInline(t, f)) {
      out[f.name] = jsonToMessage(f.resolvedType as Type, v)
      continue
    }
    const x = v[jsonName(t, f)]
    if (x === undefined || x === null) continue
    if (f.map) {
      if (!isObject(x)) continue
      out[f.name] = Object.fromEntries(
        Object.entries(x)
          .filter(([, e]) => e !== null && e !== undefined)
          .map(([k, e]) => [k, jsonToValue(f, e)])
      )
    } else if (f.repeated) {
      if (Array.isArray(x)) out[f.name] = x.filter(e => e !== null).map(e => jsonToValue(f, e))
    } else out[f.name] = jsonToValue(f, x)
  }
  return out
}

function jsonToValue(f: Field, v: unknown): unknown {
  const rt = f.resolvedType
  if (rt instanceof protobuf.Type) return jsonToMessage(rt, v)
  return jsonToScalar(f, v)
}

function jsonToScalar(f: Field, v: unknown): unknown {
  switch (f.type) {
    case 'string':
      return typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v)
    case 'bool':
      return v === true || v === 'true'
    case 'bytes':
      return typeof v === 'string' ? Buffer.from(v, 'base64') : Buffer.alloc(0)
    case 'double':
    case 'float':
      return Number(v) || 0
    default:
      return Math.trunc(Number(v)) || 0
  }
}

// ---- the envelope ----------------------------------------------------------------------------

function unknownType(): Type {
  return lookupType('k8s.io.apimachinery.pkg.runtime.Unknown')!
}

/** Whether a request body is in the protobuf envelope. */
export function isProtobufBody(body: Buffer): boolean {
  return body.length >= 4 && body.subarray(0, 4).equals(MAGIC)
}

/** The envelope's apiVersion and kind, and the message bytes it wraps. */
export function readEnvelope(buf: Buffer): { apiVersion: string; kind: string; raw: Uint8Array } {
  if (!isProtobufBody(buf))
    throw new ProtobufError(
      `provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]`
    )
  if (buf.length === 4) throw new ProtobufError('empty body')
  let unk: any
  try {
    unk = unknownType().decode(buf.subarray(4))
  } catch (err) {
    throw new ProtobufError((err as Error).message)
  }
  return {
    apiVersion: String(unk.typeMeta?.apiVersion ?? ''),
    kind: String(unk.typeMeta?.kind ?? ''),
    raw: unk.raw ?? new Uint8Array()
  }
}

/** An object in the protobuf envelope as the JSON object (apiVersion and kind first). */
export function decodeObject(buf: Buffer): JsonObject {
  const env = readEnvelope(buf)
  if (!env.kind) throw new ProtobufError(`Object 'Kind' is missing in '${JSON.stringify(env)}'`)
  const t = messageFor(env.apiVersion, env.kind)
  if (!t) throw new ProtobufError(`no kind "${env.kind}" is registered for version "${env.apiVersion}"`)
  let msg: unknown
  try {
    msg = t.decode(env.raw)
  } catch (err) {
    throw new ProtobufError((err as Error).message)
  }
  return { apiVersion: env.apiVersion, kind: env.kind, ...(messageToJson(t, msg) as JsonObject) }
}

/** Whether `obj` (with apiVersion and kind) has a message to travel in. */
export function canEncode(obj: unknown): boolean {
  return (
    isObject(obj) &&
    typeof obj.apiVersion === 'string' &&
    typeof obj.kind === 'string' &&
    messageFor(obj.apiVersion, obj.kind) !== undefined
  )
}

/** A JSON object (with apiVersion and kind) in the protobuf envelope. */
export function encodeObject(obj: JsonObject): Buffer {
  const apiVersion = String(obj.apiVersion ?? '')
  const kind = String(obj.kind ?? '')
  const t = messageFor(apiVersion, kind)
  if (!t)
    throw new ProtobufError(
      `object ${apiVersion}, Kind=${kind} does not implement the protobuf marshalling interface and cannot be encoded to a protobuf message`
    )
  const raw = t.encode(jsonToMessage(t, obj)).finish()
  const unk = unknownType()
    .encode({ typeMeta: { apiVersion, kind }, raw, contentEncoding: '', contentType: '' })
    .finish()
  return Buffer.concat([MAGIC, unk])
}

/** One watch event on a protobuf watch stream: length (4 bytes, big-endian), then the event. */
export function watchFrame(type: string, object: JsonObject): Buffer {
  const ev = lookupType(`${META}.WatchEvent`)!
  const msg = ev.encode({ type, object: { raw: encodeObject(object) } }).finish()
  const len = Buffer.alloc(4)
  len.writeUInt32BE(msg.length)
  return Buffer.concat([len, msg])
}

/** The events of a protobuf watch stream (for tests and clients of the simulator). */
export function readWatchFrames(buf: Buffer): Array<{ type: string; object: JsonObject }> {
  const ev = lookupType(`${META}.WatchEvent`)!
  const out: Array<{ type: string; object: JsonObject }> = []
  let at = 0
  while (at + 4 <= buf.length) {
    const len = buf.readUInt32BE(at)
    if (at + 4 + len > buf.length) break
    const msg: any = ev.decode(buf.subarray(at + 4, at + 4 + len))
    out.push({ type: String(msg.type), object: decodeObject(Buffer.from(msg.object?.raw ?? [])) })
    at += 4 + len
  }
  return out
}
