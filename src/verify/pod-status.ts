// Reading pod and node status the way kubectl does: Ready conditions, a named container's state,
// an init container's completion, the node a pod runs on, and one-line descriptions of why a pod
// or container is not where it should be (waiting reason, exit code, scheduler message).
import { conditionOf, hasContainer, isPodReady, podNode as nodeOfPod, podsByNode } from '../kube/pods.js'
import type { KubeObject } from '../kube/types.js'

export { conditionOf, hasContainer, isPodReady, nodeOfPod, podsByNode }

export function isNodeReady(node: KubeObject): boolean {
  return conditionOf(node, 'Ready')?.status === 'True'
}

export function isPodTerminal(pod: KubeObject): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed'
}

/** The scheduler's message when it cannot place the pod (PodScheduled=False, reason Unschedulable). */
export function unschedulableMessage(pod: KubeObject): string | undefined {
  const c = conditionOf(pod, 'PodScheduled')
  return c?.status === 'False' && c.reason === 'Unschedulable' ? (c.message ?? 'Unschedulable') : undefined
}

export interface ContainerStatus {
  name: string
  ready?: boolean
  restartCount?: number
  state?: {
    waiting?: { reason?: string; message?: string }
    running?: { startedAt?: string }
    terminated?: { exitCode?: number; reason?: string; message?: string }
  }
}

export function containerStatus(pod: KubeObject, name: string, init = false): ContainerStatus | undefined {
  const list: ContainerStatus[] =
    (init ? pod.status?.initContainerStatuses : pod.status?.containerStatuses) ?? []
  return list.find(c => c.name === name)
}

/** `running`, `waiting: CrashLoopBackOff`, `terminated: exit 1 (Error)`, `no status yet`. */
export function describeContainer(s: ContainerStatus | undefined): string {
  if (!s?.state) return 'no status yet'
  const st = s.state
  if (st.terminated)
    return `terminated: exit ${st.terminated.exitCode ?? '?'}${st.terminated.reason ? ` (${st.terminated.reason})` : ''}`
  if (st.waiting)
    return `waiting: ${st.waiting.reason ?? 'unknown'}${st.waiting.message ? ` (${oneLine(st.waiting.message)})` : ''}`
  if (st.running) return s.ready === false ? 'running, not Ready' : 'running'
  return 'no status yet'
}

/** Why a pod is not Ready, in a few words (scheduler message, a failing container, the phase). */
export function describePod(pod: KubeObject): string {
  const unsched = unschedulableMessage(pod)
  if (unsched) return `Unschedulable: ${oneLine(unsched)}`
  const statuses: ContainerStatus[] = [
    ...(pod.status?.initContainerStatuses ?? []),
    ...(pod.status?.containerStatuses ?? [])
  ]
  const bad = statuses.find(
    s => s.state?.waiting || (s.state?.terminated && s.state.terminated.exitCode !== 0) || s.ready === false
  )
  const phase = pod.status?.phase ?? 'Pending'
  return bad ? `${phase}; container ${bad.name} ${describeContainer(bad)}` : phase
}

export function oneLine(text: string, max = 200): string {
  const t = text.replace(/\s+/g, ' ').trim()
  return t.length > max ? `${t.slice(0, max - 1)}…` : t
}
