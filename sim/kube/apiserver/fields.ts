// What a write's object must pass before it is stored, field by field, as kube-apiserver checks it
// (kubernetes/kubernetes@v1.33, KEP-2885 server-side field validation): fields the kind's schema
// does not declare are dropped, and `fieldValidation` says what else happens — Strict: 400 with
// `strict decoding error: unknown field "…"`; Warn (the default): a `Warning` header per field;
// Ignore: nothing. Custom resources are pruned by their CRD's structural schema (metadata by
// ObjectMeta's), defaulted from it and validated against it (422). Server-side apply converts the
// applied object to its schema's type first: a field the schema does not declare fails the apply
// (500, "failed to create typed patch object … field not declared in schema"), whatever
// fieldValidation says.
import { invalidError } from '../field-errors.js'
import type { KubeObject, ObjectStore, ResourceType } from '../store.js'
import { apiVersionOf } from '../store.js'
import { crdInfo, listOracleFor } from './crds.js'
import { builtinSchemaRoot, objectMetaRoot } from './openapi.js'
import { type SchemaRoot, applyDefaults, pruneUnknown, undeclaredFields, validateValue } from './schemas.js'
import { ApiError } from './status.js'

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore'

/** The request's fieldValidation directive (Warn when unset). */
export function fieldValidationOf(q: URLSearchParams): FieldValidation {
  const v = q.get('fieldValidation') ?? ''
  if (v === '') return 'Warn'
  if (v === 'Strict' || v === 'Warn' || v === 'Ignore') return v
  throw new ApiError(
    400,
    'BadRequest',
    `fieldValidation: Unsupported value: ${JSON.stringify(v)}: supported values: "Ignore", "Strict", "Warn"`
  )
}

function schemaOf(env: { store: ObjectStore }, t: ResourceType): SchemaRoot | undefined {
  const info = crdInfo(env.store, t)
  return info ? info.schema : builtinSchemaRoot(apiVersionOf(t), t.kind)
}

/**
 * Drops the undeclared fields of `obj` (in place) as the directive says; for a custom resource,
 * defaults and validates it (against `old`, the live object, for transition rules). Returns the
 * warnings the reply carries.
 */
export function admitFields(
  env: { store: ObjectStore },
  t: ResourceType,
  obj: KubeObject,
  o: { directive: FieldValidation; old?: KubeObject }
): string[] {
  const custom = !!crdInfo(env.store, t)
  const schema = schemaOf(env, t)
  const unknown = schema ? pruneUnknown(schema, obj, undefined, '', custom) : []
  if (custom && obj.metadata)
    unknown.push(...pruneUnknown(objectMetaRoot(), obj.metadata, undefined, 'metadata'))
  if (unknown.length && o.directive === 'Strict') {
    const version = t.version
    throw new ApiError(
      400,
      'BadRequest',
      `${t.kind} in version "${version}" cannot be handled as a ${t.kind}: strict decoding error: ${unknown.map(p => `unknown field ${JSON.stringify(p)}`).join(', ')}`
    )
  }
  if (custom && schema) {
    applyDefaults(schema, obj)
    const errs = validateValue(schema, obj, o.old)
    if (errs.length) throw invalidError(t, obj.metadata?.name ?? '', errs)
  }
  return o.directive === 'Warn' ? unknown.map(p => `unknown field ${JSON.stringify(p)}`) : []
}

/** Server-side apply's typed conversion of the applied object: 500 for a field its schema does not declare. */
export function checkApplyTyped(env: { store: ObjectStore }, t: ResourceType, applied: KubeObject): void {
  const schema = schemaOf(env, t)
  if (!schema) return
  const custom = !!crdInfo(env.store, t)
  const oracle = listOracleFor(env.store, t)
  const { metadata: _meta, ...rest } = applied
  const errs = undeclaredFields(schema, custom ? rest : applied, oracle)
  if (custom && applied.metadata)
    errs.push(
      ...undeclaredFields(objectMetaRoot(), applied.metadata, oracle, undefined, '.metadata', ['metadata'])
    )
  if (!errs.length) return
  const m = applied.metadata ?? ({} as KubeObject['metadata'])
  const gvk = `${t.group}/${t.version}, Kind=${t.kind}`
  const detail = errs.length === 1 ? errs[0] : ['errors:', ...errs.map(e => `  ${e}`)].join('\n')
  throw new ApiError(
    500,
    '',
    `failed to create typed patch object (${m.namespace ?? ''}/${m.name ?? ''}; ${gvk}): ${detail}`
  )
}

/** The Warning header values of a reply (RFC 7234 warn-code 299, as the API server writes them). */
export function warningHeaders(warnings: string[]): string[] {
  return warnings.map(w => `299 - ${JSON.stringify(w)}`)
}
