// Whether a server-side apply would change the live object, decided from a GET alone (values and
// managedFields), so a converged cluster sees no write. See docs/design.md ("Five walks of the same list").
import type { KubeObject } from './types.js'

export interface ConvergeCheck {
  converged: boolean
  /** The first difference found (a dotted path and what differs), for the logs. */
  reason?: string
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]))
  if (isObj(a) && isObj(b)) {
    const ka = Object.keys(a).filter(k => a[k] !== undefined)
    const kb = Object.keys(b).filter(k => b[k] !== undefined)
    return ka.length === kb.length && ka.every(k => deepEqual(a[k], b[k]))
  }
  return false
}

/** The first path where `desired` is not contained in `live` (objects: subset; arrays: same length, in order). */
export function firstDifference(desired: unknown, live: unknown, path = ''): string | undefined {
  if (desired === undefined || desired === null) return undefined
  if (Array.isArray(desired)) {
    if (!Array.isArray(live)) return `${path || '.'}: missing`
    if (live.length !== desired.length) return `${path}: ${live.length} items live, ${desired.length} desired`
    for (let i = 0; i < desired.length; i++) {
      const d = firstDifference(desired[i], live[i], `${path}[${i}]`)
      if (d) return d
    }
    return undefined
  }
  if (isObj(desired)) {
    if (!isObj(live)) return `${path || '.'}: missing`
    for (const [k, v] of Object.entries(desired)) {
      const d = firstDifference(v, live[k], `${path}.${k}`)
      if (d) return d
    }
    return undefined
  }
  return desired === live
    ? undefined
    : `${path}: live ${JSON.stringify(live)}, desired ${JSON.stringify(desired)}`
}

function matchesKey(el: unknown, key: Record<string, unknown>): boolean {
  return (
    isObj(el) && Object.entries(key).every(([k, v]) => deepEqual(el[k], v) || String(el[k]) === String(v))
  )
}

/** The first field this manager owns (fieldsV1) that `desired` no longer sets: applying would remove it. */
export function firstDroppedField(fields: unknown, desired: unknown, path = ''): string | undefined {
  if (!isObj(fields)) return undefined
  for (const [key, sub] of Object.entries(fields)) {
    if (key === '.') continue
    const kind = key.slice(0, 2)
    const rest = key.slice(2)
    if (kind === 'f:') {
      if (!isObj(desired) || desired[rest] === undefined || desired[rest] === null) return `${path}.${rest}`
      const d = firstDroppedField(sub, desired[rest], `${path}.${rest}`)
      if (d) return d
    } else if (kind === 'k:') {
      let keyObj: Record<string, unknown>
      try {
        keyObj = JSON.parse(rest) as Record<string, unknown>
      } catch {
        continue
      }
      const el = Array.isArray(desired) ? desired.find(e => matchesKey(e, keyObj)) : undefined
      if (el === undefined) return `${path}[${rest}]`
      const d = firstDroppedField(sub, el, `${path}[${rest}]`)
      if (d) return d
    } else if (kind === 'v:') {
      let value: unknown
      try {
        value = JSON.parse(rest)
      } catch {
        continue
      }
      if (!Array.isArray(desired) || !desired.some(e => deepEqual(e, value))) return `${path}[=${rest}]`
    } else if (kind === 'i:') {
      const i = Number(rest)
      if (!Array.isArray(desired) || desired.length <= i) return `${path}[${i}]`
      const d = firstDroppedField(sub, desired[i], `${path}[${i}]`)
      if (d) return d
    }
  }
  return undefined
}

interface ManagedEntry {
  manager?: string
  operation?: string
  subresource?: string
  fieldsV1?: unknown
}

/** Decides from the live object alone whether applying `desired` as `manager` would change it. */
export function checkConverged(
  desired: KubeObject,
  live: KubeObject | undefined,
  manager: string
): ConvergeCheck {
  if (!live) return { converged: false, reason: 'absent' }
  const { metadata: dMeta, ...dRest } = desired
  const diff =
    firstDifference(dRest, live) ??
    firstDifference({ labels: dMeta.labels, annotations: dMeta.annotations }, live.metadata, '.metadata')
  if (diff) return { converged: false, reason: diff }
  const entries = ((live.metadata.managedFields ?? []) as ManagedEntry[]).filter(
    e => e.manager === manager && e.operation === 'Apply' && !e.subresource
  )
  if (entries.length === 0) return { converged: false, reason: `not yet applied by field manager ${manager}` }
  for (const e of entries) {
    const dropped = firstDroppedField(e.fieldsV1, desired)
    if (dropped) return { converged: false, reason: `${dropped}: no longer desired (would be removed)` }
  }
  return { converged: true }
}

function comparable(o: KubeObject): unknown {
  const { status: _status, metadata, ...rest } = o
  const { managedFields: _mf, resourceVersion: _rv, creationTimestamp: _ct, uid: _uid, ...meta } = metadata
  return { ...rest, metadata: meta }
}

/** Whether a dry-run apply's result differs from the live object (status and bookkeeping ignored). */
export function dryRunChanges(dryRun: KubeObject, live: KubeObject | undefined): boolean {
  if (!live) return true
  return !deepEqual(
    JSON.parse(JSON.stringify(comparable(dryRun))),
    JSON.parse(JSON.stringify(comparable(live)))
  )
}
