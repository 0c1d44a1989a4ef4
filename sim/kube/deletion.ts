// What one DELETE does to a live object, as the generic registry decides it
// (kubernetes/kubernetes@v1.33: staging/src/k8s.io/apiserver/pkg/registry/rest/delete.go BeforeDelete,
// registry/generic/registry/store.go Delete, updateForGracefulDeletionAndFinalizers,
// deletionFinalizersForGarbageCollection): a graceful type gets deletionTimestamp = now + grace
// (a second delete may only shorten it); the propagation policy adds or removes the `orphan` /
// `foregroundDeletion` finalizers; an object with finalizers is marked deleting (grace 0) and
// stays; anything else is removed at once.
import type { KubeObject, ResourceType } from './objects.js'
import { StoreError, resourceName, rfc3339 } from './objects.js'

export type PropagationPolicy = 'Orphan' | 'Background' | 'Foreground'

export interface DeleteOptions {
  gracePeriodSeconds?: number
  propagationPolicy?: PropagationPolicy
  orphanDependents?: boolean
  preconditions?: { uid?: string; resourceVersion?: string }
  dryRun?: boolean
}

export const ORPHAN_FINALIZER = 'orphan'
export const FOREGROUND_FINALIZER = 'foregroundDeletion'

export type DeletePlan =
  { kind: 'unchanged' } | { kind: 'update'; object: KubeObject } | { kind: 'remove'; object: KubeObject }

/** 409 when the object is not the one the preconditions name. */
export function preconditionsHold(
  t: ResourceType,
  live: KubeObject,
  pre: DeleteOptions['preconditions'] = {}
): void {
  if (pre.uid && pre.uid !== live.metadata.uid)
    throw new StoreError(
      409,
      'Conflict',
      `Operation cannot be fulfilled on ${resourceName(t)} "${live.metadata.name}": Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${live.metadata.uid}`
    )
  if (pre.resourceVersion && pre.resourceVersion !== live.metadata.resourceVersion)
    throw new StoreError(
      409,
      'Conflict',
      `Operation cannot be fulfilled on ${resourceName(t)} "${live.metadata.name}": Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${live.metadata.resourceVersion}`
    )
}

function shouldOrphan(finalizers: string[], o: DeleteOptions, dflt: 'Orphan' | 'Background'): boolean {
  if (o.orphanDependents !== undefined) return o.orphanDependents
  if (o.propagationPolicy) return o.propagationPolicy === 'Orphan'
  if (finalizers.includes(ORPHAN_FINALIZER)) return true
  if (finalizers.includes(FOREGROUND_FINALIZER)) return false
  return dflt === 'Orphan'
}

function shouldForeground(finalizers: string[], o: DeleteOptions): boolean {
  if (o.orphanDependents !== undefined) return false
  if (o.propagationPolicy) return o.propagationPolicy === 'Foreground'
  if (finalizers.includes(FOREGROUND_FINALIZER)) return true
  return false
}

/** The finalizers a delete leaves (the garbage collector's two set as the policy asks). */
export function finalizersAfterDelete(
  finalizers: string[],
  o: DeleteOptions,
  dflt: 'Orphan' | 'Background'
): string[] {
  const out = finalizers.filter(f => f !== ORPHAN_FINALIZER && f !== FOREGROUND_FINALIZER)
  if (shouldOrphan(finalizers, o, dflt)) out.push(ORPHAN_FINALIZER)
  if (shouldForeground(finalizers, o)) out.push(FOREGROUND_FINALIZER)
  return out
}

/**
 * The outcome of deleting `live` (a copy the plan may change). `grace`: the grace period the type
 * grants this delete, undefined for a type that is not deleted gracefully.
 */
export function planDelete(
  live: KubeObject,
  o: DeleteOptions,
  type: { grace: number | undefined; defaultPropagation: 'Orphan' | 'Background' },
  nowMs: number
): DeletePlan {
  const m = live.metadata
  let changed = false
  if (m.deletionTimestamp) {
    const pending = m.deletionGracePeriodSeconds ?? 0
    if (pending > 0) {
      // Graceful deletion under way: only a shorter grace period changes it.
      if (o.gracePeriodSeconds === undefined || o.gracePeriodSeconds >= pending) return { kind: 'unchanged' }
      const started = Date.parse(m.deletionTimestamp) - pending * 1000
      m.deletionTimestamp = rfc3339(started + o.gracePeriodSeconds * 1000)
      m.deletionGracePeriodSeconds = o.gracePeriodSeconds
      changed = true
    }
  } else if (type.grace !== undefined) {
    m.deletionTimestamp = rfc3339(nowMs + type.grace * 1000)
    m.deletionGracePeriodSeconds = type.grace
    if (m.generation) m.generation += 1
    changed = true
  }
  const before = m.finalizers ?? []
  const after = finalizersAfterDelete(before, o, type.defaultPropagation)
  if (after.length !== before.length || after.some(f => !before.includes(f))) changed = true
  if (after.length) m.finalizers = after
  else delete m.finalizers
  if (after.length && type.grace === undefined) {
    // Not graceful but held by finalizers: marked as deleting (markAsDeleting), no grace period.
    if (!m.deletionTimestamp && m.generation) m.generation += 1
    if (!m.deletionTimestamp || Date.parse(m.deletionTimestamp) > nowMs) m.deletionTimestamp = rfc3339(nowMs)
    if (m.deletionGracePeriodSeconds !== 0) changed = true
    m.deletionGracePeriodSeconds = 0
  }
  if (after.length || (m.deletionGracePeriodSeconds ?? 0) > 0)
    return changed ? { kind: 'update', object: live } : { kind: 'unchanged' }
  return { kind: 'remove', object: live }
}
