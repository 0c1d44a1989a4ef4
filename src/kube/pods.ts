// Reads nodes and pods the way kubectl does, for the health rules (docs/design.md), verification and
// the benchmark, and says why a pod is not ready or will not become ready by waiting (fail fast).
import { oneLine } from '../util/text.js'
import type { KubeObject } from './types.js'

export function conditionOf(
  obj: KubeObject,
  type: string
): { status?: string; reason?: string; message?: string } | undefined {
  return (obj.status?.conditions ?? []).find((c: { type?: string }) => c.type === type)
}

export function isNodeReady(node: KubeObject): boolean {
  return conditionOf(node, 'Ready')?.status === 'True'
}

export function podNode(pod: KubeObject): string | undefined {
  return pod.spec?.nodeName ?? undefined
}

/** Ready condition True, and not being deleted. */
export function isPodReady(pod: KubeObject): boolean {
  if (pod.metadata.deletionTimestamp) return false
  return conditionOf(pod, 'Ready')?.status === 'True'
}

export function isPodTerminal(pod: KubeObject): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed'
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

/** The scheduler's message when it cannot place the pod (PodScheduled=False, reason Unschedulable). */
export function unschedulableMessage(pod: KubeObject): string | undefined {
  const c = conditionOf(pod, 'PodScheduled')
  return c?.status === 'False' && c.reason === 'Unschedulable' ? (c.message ?? 'Unschedulable') : undefined
}

/** A container's status as the API reports it. */
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

/** Every container status of a pod, init containers first (marked). */
export function containerStatuses(pod: KubeObject): Array<ContainerStatus & { init: boolean }> {
  return [
    ...(pod.status?.initContainerStatuses ?? []).map((s: ContainerStatus) => ({ ...s, init: true })),
    ...(pod.status?.containerStatuses ?? []).map((s: ContainerStatus) => ({ ...s, init: false }))
  ]
}

export function containerStatus(pod: KubeObject, name: string, init = false): ContainerStatus | undefined {
  const list: ContainerStatus[] =
    (init ? pod.status?.initContainerStatuses : pod.status?.containerStatuses) ?? []
  return list.find(c => c.name === name)
}

export function containerReady(pod: KubeObject, name: string): boolean {
  return containerStatus(pod, name)?.ready === true
}

/** An init container that ran to completion with exit code 0. */
export function initCompleted(pod: KubeObject, name: string): boolean {
  return containerStatus(pod, name, true)?.state?.terminated?.exitCode === 0
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
  const bad = containerStatuses(pod).find(
    s => s.state?.waiting || (s.state?.terminated && s.state.terminated.exitCode !== 0) || s.ready === false
  )
  const phase = pod.status?.phase ?? 'Pending'
  return bad ? `${phase}; container ${bad.name} ${describeContainer(bad)}` : phase
}

/** Waiting reasons that will not resolve by waiting: a wait fails at once. */
export const FAIL_FAST_REASONS = new Set([
  'CrashLoopBackOff',
  'ImagePullBackOff',
  'ErrImagePull',
  'ErrImageNeverPull',
  'InvalidImageName',
  'CreateContainerConfigError',
  'CreateContainerError'
])

/** A container stuck in a state that does not resolve by waiting, if any. */
export function failingContainer(pod: KubeObject): (ContainerStatus & { init: boolean }) | undefined {
  return containerStatuses(pod).find(c => FAIL_FAST_REASONS.has(c.state?.waiting?.reason ?? ''))
}

/** The fail-fast reason for the first pod in a failing state, e.g. `pod x on node y: container z is in CrashLoopBackOff`. */
export function failFast(pods: KubeObject[]): string | undefined {
  for (const pod of [...pods].sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))) {
    const c = failingContainer(pod)
    if (!c) continue
    const waiting = c.state!.waiting!
    const where = podNode(pod) ? ` on node ${podNode(pod)}` : ''
    const n = c.restartCount ?? 0
    const restarts = n ? `, ${n} restart${n === 1 ? '' : 's'}` : ''
    return `pod ${pod.metadata.namespace}/${pod.metadata.name}${where}: ${c.init ? 'init ' : ''}container ${c.name} is in ${waiting.reason}${restarts}${waiting.message ? ` (${waiting.message})` : ''}`
  }
  return undefined
}
