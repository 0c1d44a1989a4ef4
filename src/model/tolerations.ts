// Tolerations on the RDMA pool: what every node agent carries, and which taints a workload does not tolerate.
// Docs: docs/design.md#taints-and-tolerations.
import type { Settings } from '../settings/settings.js'
import { stackPoolTolerations } from './stack-pools.js'
import type { Toleration } from './workload.js'

/** The toleration NVIDIA's charts give their node agents by default. */
export const GPU_TOLERATION: Toleration = { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }

/**
 * A node agent's tolerations: the GPU one and one per taint of every pool the stack serves
 * (node-taints, and the recorded taints of the other managed pools), without duplicates.
 */
export function nodeAgentTolerations(s: Settings): Toleration[] {
  const out: Toleration[] = [GPU_TOLERATION]
  for (const t of stackPoolTolerations(s))
    if (!out.some(o => JSON.stringify(o) === JSON.stringify(t))) out.push(t)
  return out
}

/** A node as read from the API (its spec carries the taints). */
export interface NodeLike {
  metadata: unknown
  spec?: any
}

export interface Taint {
  key: string
  value?: string
  effect: string
}

/** What the DaemonSet controller adds to every DaemonSet pod (and network-unavailable with hostNetwork). */
const DAEMONSET_AUTOMATIC: Toleration[] = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/network-unavailable', operator: 'Exists', effect: 'NoSchedule' }
]

interface LooseToleration {
  key?: string
  operator?: string
  value?: string
  effect?: string
}

/** Whether one toleration matches a taint (Kubernetes semantics: empty key with Exists matches all). */
export function toleratesTaint(t: LooseToleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false
  if (!t.key) return t.operator === 'Exists'
  if (t.key !== taint.key) return false
  if (t.operator === 'Exists') return true
  return (t.value ?? '') === (taint.value ?? '')
}

/** `key=value:Effect` (or `key:Effect`). */
export function describeTaint(t: Taint): string {
  return `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`
}

/**
 * The node's taints that keep a pod with `tolerations` off it (NoSchedule and NoExecute; a
 * DaemonSet's pods also get the automatic node.kubernetes.io/* tolerations).
 */
export function untoleratedTaints(
  node: NodeLike,
  tolerations: readonly unknown[] | undefined,
  o: { daemonSet: boolean }
): Taint[] {
  const given = (tolerations ?? []).filter(
    (t): t is LooseToleration => typeof t === 'object' && t !== null && !Array.isArray(t)
  )
  const all = [...given, ...(o.daemonSet ? DAEMONSET_AUTOMATIC : [])]
  const taints: Taint[] = Array.isArray(node.spec?.taints) ? node.spec.taints : []
  return taints.filter(
    t => (t.effect === 'NoSchedule' || t.effect === 'NoExecute') && !all.some(x => toleratesTaint(x, t))
  )
}

/**
 * Taints Kubernetes and AKS put on and take off nodes by themselves (a node not ready yet, being
 * cordoned, scaled down): they pass, so they never make a workload's absence final.
 */
function transient(t: Taint): boolean {
  return (
    t.key.startsWith('node.kubernetes.io/') ||
    t.key.startsWith('node.cloudprovider.kubernetes.io/') ||
    t.key === 'ToBeDeletedByClusterAutoscaler' ||
    t.key === 'DeletionCandidateOfClusterAutoscaler'
  )
}

/** The user's taints on the node that a DaemonSet pod with `tolerations` does not tolerate: it never lands there. */
export function blockingTaints(node: NodeLike, tolerations: readonly unknown[] | undefined): Taint[] {
  return untoleratedTaints(node, tolerations, { daemonSet: true }).filter(t => !transient(t))
}

/**
 * ` — node taint sku=gpu:NoSchedule is not tolerated by <what>` when the node carries taints (set
 * by the user, not the transient ones Kubernetes manages) the workload does not tolerate: its pod
 * will never be placed there, however long one waits. Empty otherwise. `fix` says where the
 * toleration goes.
 */
export function taintNote(
  node: NodeLike,
  tolerations: readonly unknown[] | undefined,
  what: string,
  fix = 'add the taint to node-taints so the stack tolerates it'
): string {
  const bad = blockingTaints(node, tolerations)
  if (!bad.length) return ''
  const list = bad.map(describeTaint).join(', ')
  return ` — node taint${bad.length > 1 ? 's' : ''} ${list} ${bad.length > 1 ? 'are' : 'is'} not tolerated by ${what}, so it is never scheduled there (${fix})`
}
