// Reading pods the way kubectl does, shared by the stack's readiness waits and verification:
// conditions, Ready (never for a pod being deleted), containers by name, and pods grouped by node.
import type { KubeObject } from './types.js'

export function conditionOf(
  obj: KubeObject,
  type: string
): { status?: string; reason?: string; message?: string } | undefined {
  return (obj.status?.conditions ?? []).find((c: { type?: string }) => c.type === type)
}

export function podNode(pod: KubeObject): string | undefined {
  return pod.spec?.nodeName ?? undefined
}

/** Ready condition True, and not being deleted. */
export function isPodReady(pod: KubeObject): boolean {
  if (pod.metadata.deletionTimestamp) return false
  return conditionOf(pod, 'Ready')?.status === 'True'
}

/** Whether the pod spec has the (init) container `name`. */
export function hasContainer(pod: KubeObject, name: string, init = false): boolean {
  const list: Array<{ name: string }> = (init ? pod.spec?.initContainers : pod.spec?.containers) ?? []
  return list.some(c => c.name === name)
}

/** Pods by the node they run on; pods being deleted or not yet scheduled are left out. */
export function podsByNode(pods: KubeObject[]): Map<string, KubeObject[]> {
  const m = new Map<string, KubeObject[]>()
  for (const p of pods) {
    const n = podNode(p)
    if (!n || p.metadata.deletionTimestamp) continue
    m.set(n, [...(m.get(n) ?? []), p])
  }
  return m
}
