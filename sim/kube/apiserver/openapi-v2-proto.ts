// /openapi/v2 in the form client-go asks for it (`application/com.github.proto-openapi.spec.v2@v1.0+protobuf`,
// what `kubectl explain --output plaintext-openapiv2` reads): the Swagger 2.0 document as gnostic's
// openapi.v2.Document message (the official OpenAPIv2.proto of google/gnostic-models). Values that
// are free-form JSON (defaults, enums, `x-*` vendor extensions) travel as YAML text in Any.yaml,
// as gnostic writes them.
import { stringify } from 'yaml'
import { parseAccept } from './media.js'
import { protoRoot } from './protobuf.js'

/** The media type of the answer (kube-openapi's handler; `@v1.0` is the deprecated spelling clients
 *  still ask with — both are accepted). */
export const OPENAPI_V2_PROTOBUF = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf'
const PROTOBUF_SUBTYPES = new Set([
  'com.github.proto-openapi.spec.v2@v1.0+protobuf',
  'com.github.proto-openapi.spec.v2.v1.0+protobuf'
])

/** What kube-openapi's handler serves for an Accept header: the first clause it can serve. */
export function openApiV2Media(accept: string): 'json' | 'protobuf' | undefined {
  if (!accept.trim()) return 'json'
  for (const c of parseAccept(accept)) {
    if (c.type !== 'application' && c.type !== '*') continue
    if (c.subtype === 'json' || c.subtype === '*') return 'json'
    if (PROTOBUF_SUBTYPES.has(c.subtype)) return 'protobuf'
  }
  return undefined
}

type Json = Record<string, any>

function any(v: unknown): Json {
  return { yaml: stringify(v) }
}

function vendor(o: Json): Json[] {
  return Object.entries(o)
    .filter(([k]) => k.startsWith('x-'))
    .map(([name, v]) => ({ name, value: any(v) }))
}

function schema(s: Json): Json {
  const out: Json = {}
  if (s.$ref) out._ref = s.$ref
  for (const k of ['format', 'title', 'description', 'pattern', 'discriminator'] as const)
    if (typeof s[k] === 'string') out[k] = s[k]
  if (s.default !== undefined) out.default = any(s.default)
  if (s.type !== undefined) out.type = { value: Array.isArray(s.type) ? s.type : [s.type] }
  if (s.items) out.items = { schema: (Array.isArray(s.items) ? s.items : [s.items]).map(schema) }
  if (Array.isArray(s.allOf)) out.all_of = s.allOf.map(schema)
  if (s.properties)
    out.properties = {
      additional_properties: Object.entries(s.properties as Json).map(([name, v]) => ({
        name,
        value: schema(v)
      }))
    }
  if (s.additionalProperties !== undefined)
    out.additional_properties =
      typeof s.additionalProperties === 'boolean'
        ? { boolean: s.additionalProperties }
        : { schema: schema(s.additionalProperties) }
  if (Array.isArray(s.required)) out.required = s.required
  if (Array.isArray(s.enum)) out.enum = s.enum.map(any)
  if (s.readOnly) out.read_only = true
  const ext = vendor(s)
  if (ext.length) out.vendor_extension = ext
  return out
}

function operation(op: Json): Json {
  return {
    ...(op.operationId ? { operation_id: op.operationId } : {}),
    ...(op.description ? { description: op.description } : {}),
    parameters: (op.parameters ?? []).map((p: Json) => ({
      parameter: {
        non_body_parameter: {
          query_parameter_sub_schema: {
            in: p.in,
            name: p.name,
            ...(p.type ? { type: p.type } : {}),
            ...(p.uniqueItems ? { unique_items: true } : {}),
            ...(p.description ? { description: p.description } : {})
          }
        }
      }
    })),
    responses: {
      response_code: Object.entries(op.responses ?? {}).map(([name, r]) => ({
        name,
        value: { response: { description: (r as Json).description ?? '' } }
      }))
    },
    vendor_extension: vendor(op)
  }
}

/** The Swagger 2.0 JSON document as gnostic protobuf bytes. */
export function openApiV2Protobuf(doc: Json): Buffer {
  const Document = protoRoot().lookupType('openapi.v2.Document')
  const message: Json = {
    swagger: doc.swagger,
    info: { title: doc.info?.title ?? '', version: doc.info?.version ?? '' },
    paths: {
      path: Object.entries(doc.paths ?? {}).map(([name, item]) => ({
        name,
        value: Object.fromEntries(
          Object.entries(item as Json)
            .filter(([verb]) => ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'].includes(verb))
            .map(([verb, op]) => [verb, operation(op as Json)])
        )
      }))
    },
    definitions: {
      additional_properties: Object.entries(doc.definitions ?? {}).map(([name, s]) => ({
        name,
        value: schema(s as Json)
      }))
    }
  }
  return Buffer.from(Document.encode(message).finish())
}

/** Reads gnostic protobuf bytes back into the message (for tests). */
export function decodeOpenApiV2Protobuf(buf: Buffer): Json {
  const Document = protoRoot().lookupType('openapi.v2.Document')
  return Document.toObject(Document.decode(buf), { defaults: false, arrays: true }) as Json
}
