// Field-by-field differences as paths a person reads (`data[config.json]`), and the helpers the drift
// checks share. Docs: docs/drift.md.
import { canonicalJson } from '../helm/index.js'
import { shortValue } from '../util/text.js'

export { MAX_VALUE_CHARS, shortValue } from '../util/text.js'

/** One step of a path: a map key, a list element found by its `name`, or a list index. */
export type Segment = { key: string } | { name: string } | { index: number }

export interface Difference {
  path: Segment[]
  /** undefined: absent on that side. */
  desired: unknown
  actual: unknown
}

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$-]*$/

/** `a.b[name].c[0]`; keys with dots or slashes in brackets (`labels[pod-security.kubernetes.io/enforce]`). */
export function formatPath(path: Segment[]): string {
  let out = ''
  for (const s of path) {
    if ('key' in s) out += PLAIN_KEY.test(s.key) ? `${out ? '.' : ''}${s.key}` : `[${s.key}]`
    else if ('name' in s) out += `[${s.name}]`
    else out += `[${s.index}]`
  }
  return out
}

const namedList = (v: unknown[]): v is Array<{ name: string }> =>
  v.length > 0 && v.every(e => isMap(e) && typeof e.name === 'string')

/**
 * Where `desired` is not contained in `live`, the way server-side apply reads a manifest: only the
 * fields `desired` sets count (extra live fields belong to others); lists of named objects match
 * by name, other lists must be equal element by element.
 */
export function containedDifferences(desired: unknown, live: unknown, path: Segment[] = []): Difference[] {
  if (desired === undefined || desired === null) return []
  if (Array.isArray(desired)) {
    if (!Array.isArray(live)) return [{ path, desired, actual: live }]
    if (namedList(desired)) {
      const out: Difference[] = []
      for (const d of desired) {
        const l = live.find(e => isMap(e) && e.name === d.name)
        if (l === undefined) out.push({ path: [...path, { name: d.name }], desired: d, actual: undefined })
        else out.push(...containedDifferences(d, l, [...path, { name: d.name }]))
      }
      return out
    }
    if (desired.length !== live.length) return [{ path, desired, actual: live }]
    return desired.flatMap((d, i) => containedDifferences(d, live[i], [...path, { index: i }]))
  }
  if (isMap(desired)) {
    if (!isMap(live)) return [{ path, desired, actual: live }]
    return Object.entries(desired).flatMap(([k, v]) =>
      containedDifferences(v, live[k], [...path, { key: k }])
    )
  }
  return desired === live ? [] : [{ path, desired, actual: live }]
}

/**
 * Every path where two value trees differ (helm values: a key either side has counts; lists of
 * one length element by element, others and scalars whole, as canonical JSON). Agrees with helm's upgradeReason: no differences
 * exactly when the canonical JSON of the two is equal.
 */
export function valueDifferences(desired: unknown, live: unknown, path: Segment[] = []): Difference[] {
  if (isMap(desired) && isMap(live)) {
    const keys = [...new Set([...Object.keys(desired), ...Object.keys(live)])].sort()
    return keys.flatMap(k => valueDifferences(desired[k], live[k], [...path, { key: k }]))
  }
  if (Array.isArray(desired) && Array.isArray(live) && desired.length === live.length)
    return desired.flatMap((d, i) => valueDifferences(d, live[i], [...path, { index: i }]))
  if (desired === undefined && live === undefined) return []
  if (desired === undefined || live === undefined) return [{ path, desired, actual: live }]
  return canonicalJson(desired) === canonicalJson(live) ? [] : [{ path, desired, actual: live }]
}

/** The value at `path` in `obj` (undefined when any step is missing). */
export function valueAt(obj: unknown, path: Segment[]): unknown {
  let cur = obj
  for (const s of path) {
    if ('key' in s) cur = isMap(cur) ? cur[s.key] : undefined
    else if ('name' in s) cur = Array.isArray(cur) ? cur.find(e => isMap(e) && e.name === s.name) : undefined
    else cur = Array.isArray(cur) ? cur[s.index] : undefined
    if (cur === undefined) return undefined
  }
  return cur
}

/** Deep equality of JSON values (key order ignored). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === undefined || b === undefined) return a === b
  return canonicalJson(a) === canonicalJson(b)
}

function parseJsonDoc(v: unknown): unknown {
  if (typeof v !== 'string') return undefined
  const t = v.trim()
  if (!t.startsWith('{') && !t.startsWith('[')) return undefined
  try {
    return JSON.parse(t)
  } catch {
    return undefined
  }
}

/**
 * Desired and actual of one difference as short strings. Two JSON documents in strings (a
 * ConfigMap's config.json) are compared inside: the strings name the inner paths that differ.
 */
export function describeValues(desired: unknown, actual: unknown): { desired: string; actual: string } {
  const d = parseJsonDoc(desired)
  const a = parseJsonDoc(actual)
  if (d !== undefined && a !== undefined) {
    const inner = valueDifferences(d, a)
    if (inner.length === 0) return { desired: 'same JSON, other formatting', actual: 'JSON text differs' }
    const side = (pick: (x: Difference) => unknown) =>
      shortValue(inner.map(x => `${formatPath(x.path) || '.'}=${shortValue(pick(x), 40)}`).join('; '))
    return { desired: side(x => x.desired), actual: side(x => x.actual) }
  }
  return { desired: shortValue(desired), actual: shortValue(actual) }
}
