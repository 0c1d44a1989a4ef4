// Shared pieces of the readiness checks: what they return (per-node progress, done, fail fast),
// reading pods, containers, nodes and DaemonSets, and the container states that fail a step at
// once (CrashLoopBackOff, ImagePullBackOff, ErrImagePull ...). The checks are pure functions over
// observed objects so the pipelined rollout can reuse them node by node.
import { hasContainer, isPodReady, podNode, podsByNode } from '../../kube/pods.js'
import { LABELS } from '../../model/types.js'
import type { Settings } from '../../settings/settings.js'
import type { KubeClient } from '../../kube/client.js'
import { parseQuantity } from '../../kube/quantity.js'
import type { KubeObject } from '../../kube/types.js'
import type { Snapshot, Verdict, WatchSource } from '../../kube/watch.js'

export interface NodeProgress {
  node: string
  ready: boolean
  /** What is missing on this node when it is not ready. */
  detail?: string
}

export interface ReadinessVerdict extends Verdict {
  message: string
  readyNodes: number
  totalNodes: number
  /** Per RDMA node (empty for cluster-level components). */
  nodes: NodeProgress[]
}

export interface ReadinessContext {
  settings: Settings
  /** Milliseconds since the step's wait began. */
  elapsedMs: number
  /** How long the NodeFeatureRule may take to label the first node before the step fails. */
  nfdGraceMs: number
}

export interface ComponentReadiness<K extends string = string> {
  component: string
  sources(client: KubeClient, settings: Settings): Record<K, WatchSource>
  evaluate(snapshot: Snapshot<K>, ctx: ReadinessContext): ReadinessVerdict
}

/** Waiting reasons that will not resolve by waiting: the step fails at once. */
export const FAIL_FAST_REASONS = new Set([
  'CrashLoopBackOff',
  'ImagePullBackOff',
  'ErrImagePull',
  'ErrImageNeverPull',
  'InvalidImageName',
  'CreateContainerConfigError',
  'CreateContainerError'
])

export interface ContainerState {
  name: string
  init: boolean
  ready: boolean
  restarts: number
  state: 'waiting' | 'running' | 'terminated' | 'unknown'
  reason?: string
  message?: string
  exitCode?: number
}

export function containerStates(pod: KubeObject): ContainerState[] {
  const toState = (cs: any, init: boolean): ContainerState => {
    const st = cs.state ?? {}
    const kind = st.waiting ? 'waiting' : st.running ? 'running' : st.terminated ? 'terminated' : 'unknown'
    const detail = st.waiting ?? st.terminated ?? {}
    return {
      name: cs.name,
      init,
      ready: cs.ready === true,
      restarts: cs.restartCount ?? 0,
      state: kind,
      ...(detail.reason ? { reason: detail.reason } : {}),
      ...(detail.message ? { message: detail.message } : {}),
      ...(st.terminated ? { exitCode: st.terminated.exitCode } : {})
    }
  }
  return [
    ...(pod.status?.initContainerStatuses ?? []).map((cs: any) => toState(cs, true)),
    ...(pod.status?.containerStatuses ?? []).map((cs: any) => toState(cs, false))
  ]
}

export { hasContainer, isPodReady, podNode, podsByNode }

export function podName(pod: KubeObject): string {
  return pod.metadata.name
}

export function containerReady(pod: KubeObject, name: string): boolean {
  return (pod.status?.containerStatuses ?? []).some((cs: any) => cs.name === name && cs.ready === true)
}

/** An init container that ran to completion with exit code 0. */
export function initCompleted(pod: KubeObject, name: string): boolean {
  const cs = (pod.status?.initContainerStatuses ?? []).find((c: any) => c.name === name)
  return cs?.state?.terminated?.exitCode === 0
}

/** A container stuck in a state that does not resolve by waiting, if any. */
export function failingContainer(pod: KubeObject): ContainerState | undefined {
  return containerStates(pod).find(
    c => c.state === 'waiting' && c.reason !== undefined && FAIL_FAST_REASONS.has(c.reason)
  )
}

/** The fail-fast reason for the first pod in a failing state, e.g. `pod x on node y: container z CrashLoopBackOff`. */
export function failFast(pods: KubeObject[]): string | undefined {
  for (const pod of [...pods].sort((a, b) => podName(a).localeCompare(podName(b)))) {
    const c = failingContainer(pod)
    if (!c) continue
    const where = podNode(pod) ? ` on node ${podNode(pod)}` : ''
    const restarts = c.restarts ? `, ${c.restarts} restart${c.restarts === 1 ? '' : 's'}` : ''
    return `pod ${pod.metadata.namespace}/${podName(pod)}${where}: ${c.init ? 'init ' : ''}container ${c.name} is in ${c.reason}${restarts}${c.message ? ` (${c.message})` : ''}`
  }
  return undefined
}

/** The pool's nodes (label kubernetes.azure.com/agentpool=<pool>), sorted by name. */
export function rdmaNodes(nodes: KubeObject[], pool: string): KubeObject[] {
  return nodes
    .filter(n => n.metadata.labels?.[LABELS.agentPool] === pool && !n.metadata.deletionTimestamp)
    .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))
}

export function rdmaNodeSource(client: KubeClient, settings: Settings): WatchSource {
  return client.watchSource('v1', 'Node', {
    labelSelector: `${LABELS.agentPool}=${settings.nodePool.name}`,
    name: 'nodes'
  })
}

export function allocatable(node: KubeObject, resource: string): number {
  return parseQuantity(node.status?.allocatable?.[resource]) ?? 0
}

/** Whether a DaemonSet's controller has caught up and every scheduled pod is ready (and updated, unless OnDelete). */
export function daemonSetRolledOut(
  ds: KubeObject | undefined,
  expected: number
): { done: boolean; detail: string } {
  if (!ds) return { done: false, detail: 'DaemonSet not found' }
  const st = ds.status ?? {}
  const generation = ds.metadata.generation ?? 0
  if ((st.observedGeneration ?? 0) < generation)
    return { done: false, detail: 'DaemonSet controller has not observed the latest spec' }
  const desired = st.desiredNumberScheduled ?? 0
  const ready = st.numberReady ?? 0
  const onDelete = ds.spec?.updateStrategy?.type === 'OnDelete'
  const updated = onDelete ? desired : (st.updatedNumberScheduled ?? 0)
  const detail = `${ready}/${desired} ready${onDelete ? '' : `, ${updated}/${desired} updated`}`
  return {
    done:
      desired >= expected && ready === desired && updated === desired && (st.numberUnavailable ?? 0) === 0,
    detail
  }
}

/** A named object among those observed (e.g. the policy `nic-cluster-policy`). */
export function named(objects: KubeObject[], name: string): KubeObject | undefined {
  return objects.find(o => o.metadata.name === name)
}

/** Builds the verdict of a node-level check from per-node progress and extra conditions. */
export function nodeVerdict(
  what: string,
  nodes: NodeProgress[],
  extra: { ok: boolean; message?: string; fail?: string; waitingForNodes?: boolean }
): ReadinessVerdict {
  const ready = nodes.filter(n => n.ready).length
  const total = nodes.length
  const base = total === 0 ? `waiting for nodes of the pool to join` : `${what} on ${ready}/${total} nodes`
  const message = extra.message ? `${base}, ${extra.message}` : base
  return {
    done: total > 0 && ready === total && extra.ok,
    message,
    readyNodes: ready,
    totalNodes: total,
    nodes,
    ...(extra.fail ? { fail: extra.fail } : {})
  }
}
