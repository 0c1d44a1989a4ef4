// Server-side apply by kubectl over an object client-side apply wrote, as kube-apiserver 1.33's
// field manager does it (kubernetes/kubernetes@v1.33.2 staging/src/k8s.io/apimachinery/pkg/util/
// managedfields/internal/lastappliedmanager.go and lastappliedupdater.go): for the manager
// `kubectl` only, a conflict over a field whose live value is still what the
// `kubectl.kubernetes.io/last-applied-configuration` annotation says is no conflict (the apply
// takes the field over), every other manager that owns the annotation is dropped from
// managedFields, and an annotation that is there is rewritten to the applied configuration.
import type { KubeObject } from '../store.js'
import { type PathEl, deepEqual, fieldsOf, getAt, isPlainObject, pathId, scoped } from './fieldpaths.js'
import { ApplyConflictError, type ManagedFieldsEntry, type WriteContext, serverSideApply } from './managed.js'

export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration'

/** The only manager whose applies migrate client-side apply (others opt out by their name). */
const MIGRATING_MANAGER = 'kubectl'

function lastAppliedOf(obj: KubeObject | undefined): string | undefined {
  const v = obj?.metadata.annotations?.[LAST_APPLIED]
  return typeof v === 'string' && v ? v : undefined
}

/** Whether a managedFields entry owns the last-applied annotation. */
function ownsAnnotation(e: ManagedFieldsEntry): boolean {
  const annotations = e.fieldsV1?.['f:metadata']?.['f:annotations']
  return isPlainObject(annotations) && `f:${LAST_APPLIED}` in annotations
}

/** removeLastAppliedManagers: every manager but kubectl that owns the annotation, gone. */
function withoutLastAppliedManagers<T extends KubeObject | undefined>(obj: T): T {
  if (!obj?.metadata.managedFields) return obj
  const kept = (obj.metadata.managedFields as ManagedFieldsEntry[]).filter(
    e => e.manager === MIGRATING_MANAGER || !ownsAnnotation(e)
  )
  const out = { ...obj, metadata: { ...obj.metadata } }
  if (kept.length) out.metadata.managedFields = kept
  else delete out.metadata.managedFields
  return out
}

/**
 * allowedConflictsFromLastApplied: the fields of the last-applied configuration whose live value
 * is the same (undefined when there is none, or it is for another apiVersion or not JSON).
 */
function allowedConflicts(live: KubeObject, ctx: WriteContext): Set<string> | undefined {
  const text = lastAppliedOf(live)
  if (!text) return undefined
  let last: unknown
  try {
    last = JSON.parse(text)
  } catch {
    return undefined
  }
  if (!isPlainObject(last) || last.apiVersion !== ctx.apiVersion) return undefined
  const lastScoped = scoped(last, ctx.scope)
  const liveScoped = scoped(live, ctx.scope)
  const allowed = new Set<string>()
  const container = (v: unknown) => isPlainObject(v) || Array.isArray(v)
  for (const els of fieldsOf(lastScoped, ctx.oracle).values()) {
    const want = getAt(lastScoped, els)
    const have = getAt(liveScoped, els)
    if (!have.found) continue
    if (container(want.value) && container(have.value)) allowed.add(pathId(els))
    else if (deepEqual(want.value, have.value)) allowed.add(pathId(els))
  }
  return allowed
}

/** Go's json.Marshal of an unstructured object: keys sorted, `<`, `>`, `&`, U+2028/9 escaped. */
export function goJson(v: unknown): string {
  if (isPlainObject(v))
    return `{${Object.keys(v)
      .filter(k => v[k] !== undefined)
      .sort()
      .map(k => `${goJson(k)}:${goJson(v[k])}`)
      .join(',')}}`
  if (Array.isArray(v)) return `[${v.map(goJson).join(',')}]`
  if (typeof v === 'string')
    return JSON.stringify(v).replace(
      /[<>&\u2028\u2029]/g,
      c => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
    )
  return JSON.stringify(v) ?? 'null'
}

/** buildLastApplied: the applied configuration without the annotation itself. */
function buildLastApplied(applied: KubeObject): string {
  const copy = structuredClone(applied)
  if (copy.metadata?.annotations) delete copy.metadata.annotations[LAST_APPLIED]
  return goJson(copy)
}

/** Server-side apply with the client-side apply migration of the `kubectl` manager. */
export function applyMigratingLastApplied(
  live: KubeObject | undefined,
  applied: KubeObject,
  manager: string,
  force: boolean,
  ctx: WriteContext
): KubeObject {
  if (manager !== MIGRATING_MANAGER) return serverSideApply(live, applied, manager, force, ctx)
  let merged: KubeObject
  try {
    merged = serverSideApply(live, applied, manager, force, ctx)
  } catch (err) {
    if (!(err instanceof ApplyConflictError) || !live) throw err
    const allowed = allowedConflicts(live, ctx)
    if (!allowed) throw err
    const rest = err.conflicts.filter((c: { path: PathEl[] }) => !allowed.has(pathId(c.path)))
    if (rest.length) throw new ApplyConflictError(rest)
    merged = serverSideApply(withoutLastAppliedManagers(live), applied, manager, true, ctx)
  }
  merged = withoutLastAppliedManagers(merged)
  if (lastAppliedOf(merged)) {
    merged.metadata.annotations = {
      ...merged.metadata.annotations,
      [LAST_APPLIED]: buildLastApplied(applied)
    }
  }
  return merged
}
