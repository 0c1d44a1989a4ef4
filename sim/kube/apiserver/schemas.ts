// Objects against OpenAPI schemas, as kube-apiserver checks them: the fields a schema does not
// declare (what strict decoding reports for built-in kinds and structural pruning drops from custom
// resources — kubernetes/kubernetes@v1.33 staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/
// schema/pruning/algorithm.go), the typed conversion server-side apply does first (a field not
// declared fails the apply: structured-merge-diff's "field not declared in schema"), structural
// defaulting (…/schema/defaulting/algorithm.go, nulls of non-nullable fields dropped first), and
// the OpenAPI validation of custom resources (k8s.io/kube-openapi pkg/validation/validate and
// errors/schema.go for the wording, apiextensions-apiserver/pkg/apiserver/validation/validation.go
// for how each becomes a field error). Schemas are plain JSON Schema nodes; `$ref` / `allOf: [$ref]`
// resolve through `defs` (the built-in kinds' definitions generated from the .proto files).
import type { FieldError } from '../field-errors.js'
import { goValue } from '../field-errors.js'
import { type ListOracle, isPlainObject } from './fieldpaths.js'

export type Schema = Record<string, any>

export interface SchemaRoot {
  schema: Schema
  defs: Record<string, Schema>
  /** Built-in kinds: an object schema without properties is an opaque value (RawExtension, FieldsV1). */
  builtin: boolean
}

const PRESERVE = 'x-kubernetes-preserve-unknown-fields'
const INT_OR_STRING = 'x-kubernetes-int-or-string'

/** The schema a node stands for, `$ref` / `allOf: [{$ref}]` followed. */
export function deref(root: SchemaRoot, node: Schema | undefined): Schema | undefined {
  let n = node
  for (let hops = 0; n && hops < 8; hops++) {
    const ref: string | undefined = n.$ref ?? (n.allOf?.length === 1 ? n.allOf[0]?.$ref : undefined)
    if (!ref) return n
    n = root.defs[ref.split('/').pop()!]
  }
  return n
}

/** Whether anything goes below this node (preserve-unknown-fields, or an opaque built-in value). */
function opaque(root: SchemaRoot, n: Schema): boolean {
  if (n[PRESERVE]) return true
  if (n[INT_OR_STRING] || n.format === 'int-or-string') return false
  const open = !n.properties && n.additionalProperties === undefined
  return root.builtin && open && (n.type === 'object' || n.type === undefined)
}

/** The schema of member `key` of an object node; undefined when the schema does not declare it. */
function memberSchema(root: SchemaRoot, n: Schema, key: string): Schema | undefined | 'any' {
  if (n.properties && key in n.properties) return deref(root, n.properties[key])
  if (n.additionalProperties === true) return 'any'
  if (isPlainObject(n.additionalProperties)) return deref(root, n.additionalProperties)
  if (opaque(root, n)) return 'any'
  return undefined
}

/** Element path in Go's field.Path form (`spec.items[0].name`). */
const child = (path: string, key: string) => (path ? `${path}.${key}` : key)

/**
 * Drops the fields `value` has that `schema` does not declare (in place) and returns their paths.
 * `skipRoot`: apiVersion, kind and metadata of a resource root are not the schema's to prune.
 */
export function pruneUnknown(
  root: SchemaRoot,
  value: unknown,
  schema: Schema | undefined = root.schema,
  path = '',
  skipRoot = false
): string[] {
  const n = deref(root, schema)
  if (!n || (opaque(root, n) && !n.properties)) return []
  const out: string[] = []
  if (Array.isArray(value)) {
    const items = deref(root, n.items)
    if (items) value.forEach((v, i) => out.push(...pruneUnknown(root, v, items, `${path}[${i}]`)))
    return out
  }
  if (!isPlainObject(value)) return out
  for (const key of Object.keys(value)) {
    if (skipRoot && (key === 'apiVersion' || key === 'kind' || key === 'metadata')) continue
    const m = memberSchema(root, n, key)
    if (m === 'any') continue
    if (!m) {
      if (n[PRESERVE]) continue
      delete value[key]
      out.push(child(path, key))
    } else out.push(...pruneUnknown(root, value[key], m, child(path, key)))
  }
  return out
}

function keyText(item: Record<string, any>, keys: string[]): string {
  return keys.map(k => `${k}=${JSON.stringify(item[k])}`).join(',')
}

/**
 * The fields server-side apply's typed conversion refuses: paths (`.spec.containers[name="x"].foo`)
 * the schema does not declare, and values of the wrong kind (object / list / scalar).
 */
export function undeclaredFields(
  root: SchemaRoot,
  value: unknown,
  oracle: ListOracle,
  schema: Schema | undefined = root.schema,
  path = '',
  schemaPath: string[] = []
): string[] {
  const n = deref(root, schema)
  if (!n || (opaque(root, n) && !n.properties)) return []
  if (value === null || value === undefined) return []
  if (Array.isArray(value)) {
    if (n.type && n.type !== 'array') return [`${path}: expected ${kindWord(n)}, got list`]
    const items = deref(root, n.items)
    const lk = oracle(schemaPath, value)
    return value.flatMap((v, i) =>
      undeclaredFields(
        root,
        v,
        oracle,
        items,
        lk.kind === 'map' && isPlainObject(v) ? `${path}[${keyText(v, lk.keys)}]` : `${path}[${i}]`,
        [...schemaPath, '[]']
      )
    )
  }
  if (isPlainObject(value)) {
    if (n.type && n.type !== 'object') return [`${path}: expected ${kindWord(n)}, got map`]
    return Object.keys(value).flatMap(key => {
      if (!path && (key === 'apiVersion' || key === 'kind')) return []
      const m = memberSchema(root, n, key)
      if (m === 'any') return []
      if (!m) return n[PRESERVE] ? [] : [`${path}.${key}: field not declared in schema`]
      return undeclaredFields(root, value[key], oracle, m, `${path}.${key}`, [...schemaPath, key])
    })
  }
  return []
}

function kindWord(n: Schema): string {
  if (n.type === 'object') return 'map'
  if (n.type === 'array') return 'list'
  return 'scalar'
}

/** Structural defaulting: a member's `default` where it is absent (nulls of non-nullable members dropped first). */
export function applyDefaults(
  root: SchemaRoot,
  value: unknown,
  schema: Schema | undefined = root.schema
): void {
  const n = deref(root, schema)
  if (!n) return
  if (Array.isArray(value)) {
    const items = deref(root, n.items)
    for (const v of value) applyDefaults(root, v, items)
    return
  }
  if (!isPlainObject(value)) return
  for (const [key, raw] of Object.entries((n.properties ?? {}) as Record<string, Schema>)) {
    const p = deref(root, raw)
    if (!p) continue
    if (value[key] === null && !p.nullable) delete value[key]
    if (value[key] === undefined && p.default !== undefined) value[key] = structuredClone(p.default)
    if (value[key] !== undefined) applyDefaults(root, value[key], p)
  }
  if (isPlainObject(n.additionalProperties))
    for (const key of Object.keys(value))
      if (!n.properties?.[key]) applyDefaults(root, value[key], n.additionalProperties)
}

// ---- validation ------------------------------------------------------------------------------

function typeOf(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'array'
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number'
  return typeof v === 'object' ? 'object' : typeof v
}

function typeMatches(n: Schema, v: unknown): boolean {
  if (n[INT_OR_STRING] || n.format === 'int-or-string') return typeof v === 'string' || Number.isInteger(v)
  if (!n.type) return true
  const actual = typeOf(v)
  if (actual === 'null') return !!n.nullable
  return actual === n.type || (n.type === 'number' && actual === 'integer')
}

function numberErrors(n: Schema, v: number, path: string): FieldError[] {
  const out: FieldError[] = []
  const inv = (detail: string) => out.push({ type: 'Invalid', field: path, value: String(v), detail })
  if (n.maximum !== undefined && (n.exclusiveMaximum ? v >= n.maximum : v > n.maximum))
    inv(`${path} in body should be less than ${n.exclusiveMaximum ? '' : 'or equal to '}${n.maximum}`)
  if (n.minimum !== undefined && (n.exclusiveMinimum ? v <= n.minimum : v < n.minimum))
    inv(`${path} in body should be greater than ${n.exclusiveMinimum ? '' : 'or equal to '}${n.minimum}`)
  if (n.multipleOf && v % n.multipleOf !== 0) inv(`${path} in body should be a multiple of ${n.multipleOf}`)
  return out
}

const patterns = new Map<string, { test(v: string): boolean }>()

/** A schema pattern as a RegExp (RE2 syntax JavaScript cannot read matches anything, unchecked). */
function patternOf(pattern: string): { test(v: string): boolean } {
  let re = patterns.get(pattern)
  if (!re) {
    try {
      re = new RegExp(pattern, 'u')
    } catch {
      re = { test: () => true }
    }
    patterns.set(pattern, re)
  }
  return re
}

function stringErrors(n: Schema, v: string, path: string): FieldError[] {
  const out: FieldError[] = []
  const length = [...v].length
  if (n.maxLength !== undefined && length > n.maxLength)
    out.push({ type: 'TooLong', field: path, detail: `may not be longer than ${n.maxLength}` })
  if (n.minLength !== undefined && length < n.minLength)
    out.push({
      type: 'Invalid',
      field: path,
      value: goValue(v),
      detail: `${path} in body should be at least ${n.minLength} chars long`
    })
  if (n.pattern && !patternOf(n.pattern).test(v))
    out.push({
      type: 'Invalid',
      field: path,
      value: goValue(v),
      detail: `${path} in body should match '${n.pattern}'`
    })
  return out
}

function arrayErrors(n: Schema, v: unknown[], path: string): FieldError[] {
  const out: FieldError[] = []
  if (n.maxItems !== undefined && v.length > n.maxItems)
    out.push({
      type: 'TooMany',
      field: path,
      value: String(v.length),
      detail: `must have at most ${n.maxItems} items`
    })
  if (n.minItems !== undefined && v.length < n.minItems)
    out.push({
      type: 'Invalid',
      field: path,
      value: String(v.length),
      detail: `${path} in body should have at least ${n.minItems} items`
    })
  return out
}

/** `self == oldSelf` (immutability), the one CEL rule form evaluated; others are not modelled. */
function celErrors(n: Schema, v: unknown, old: unknown, path: string): FieldError[] {
  const out: FieldError[] = []
  for (const rule of (n['x-kubernetes-validations'] ?? []) as Array<{ rule?: string; message?: string }>) {
    if (rule.rule?.replace(/\s+/g, '') !== 'self==oldSelf' || old === undefined) continue
    if (JSON.stringify(v) !== JSON.stringify(old))
      out.push({
        type: 'Invalid',
        field: path,
        value: goValue(n.type ?? 'object'),
        detail: rule.message ?? `failed rule: ${rule.rule}`
      })
  }
  return out
}

function valueErrors(n: Schema, v: unknown, path: string): FieldError[] {
  if (!typeMatches(n, v)) {
    const actual = typeOf(v)
    return [
      {
        type: 'Invalid',
        field: path,
        value: goValue(actual),
        detail: `${path} in body must be of type ${n.type ?? 'integer or string'}: ${JSON.stringify(actual)}`
      }
    ]
  }
  const out: FieldError[] = []
  if (n.enum && !n.enum.some((e: unknown) => JSON.stringify(e) === JSON.stringify(v)))
    out.push({
      type: 'Unsupported',
      field: path,
      value: goValue(v),
      detail: `supported values: ${n.enum.map((e: unknown) => JSON.stringify(typeof e === 'string' ? e : JSON.stringify(e))).join(', ')}`
    })
  if (typeof v === 'number') out.push(...numberErrors(n, v, path))
  if (typeof v === 'string') out.push(...stringErrors(n, v, path))
  if (Array.isArray(v)) out.push(...arrayErrors(n, v, path))
  return out
}

/** The OpenAPI validation errors of a custom resource's value against its schema (old: the live value, for transition rules). */
export function validateValue(
  root: SchemaRoot,
  value: unknown,
  old: unknown,
  schema: Schema | undefined = root.schema,
  path = ''
): FieldError[] {
  const n = deref(root, schema)
  if (!n || value === undefined) return []
  const out = path ? [...valueErrors(n, value, path), ...celErrors(n, value, old, path)] : []
  if (out.some(e => e.detail?.includes('must be of type'))) return out
  if (Array.isArray(value)) {
    const items = deref(root, n.items)
    value.forEach((v, i) => out.push(...validateValue(root, v, undefined, items, `${path}[${i}]`)))
  } else if (isPlainObject(value)) {
    for (const req of (n.required ?? []) as string[])
      if (value[req] === undefined) out.push({ type: 'Required', field: child(path, req) })
    for (const [key, v] of Object.entries(value)) {
      if (!path && (key === 'apiVersion' || key === 'kind' || key === 'metadata')) continue
      const m = memberSchema(root, n, key)
      if (m && m !== 'any')
        out.push(...validateValue(root, v, isPlainObject(old) ? old[key] : undefined, m, child(path, key)))
    }
  }
  return out
}
