// The shapes of a component's health: its watched sources, its node and cluster rules, and the
// verdict. See docs/design.md ("Health rules: one evaluation, three uses").
import type { KubeObject } from '../kube/types.js'
import type { Snapshot, Verdict } from '../kube/watch.js'
import type { NodeBlocker } from '../model/node-blockers.js'
import type { Settings } from '../settings/settings.js'

/** Something a health rule reads: one kind, optionally in a namespace and by labels. */
export interface SourceSpec {
  /** Names it in notices (`ofed-pods: watch dropped …`). */
  name: string
  apiVersion: string
  kind: string
  namespace?: string
  labelSelector?: string
  /** A custom resource: a server that does not serve the kind (CRD not installed) has none. */
  custom?: boolean
}

export interface HealthContext {
  settings: Settings
  /** How long the wait has been going (grace periods); verification: it is over. */
  elapsedMs: number
  /** How long the NodeFeatureRule may take to label the first node. */
  nfdGraceMs: number
  /** Sources that could not be read (verification), by snapshot key, with the error. */
  unreadable?: Readonly<Record<string, string>>
}

/**
 * One rule on one node: met (with an optional note of what was found) or what is missing;
 * `blocked` when waiting cannot help (a taint the workload does not tolerate keeps it off the node).
 */
export type Finding = { ok: true; note?: string } | { ok: false; detail: string; blocked?: boolean }

export const met = (note?: string): Finding => (note ? { ok: true, note } : { ok: true })
export const missing = (detail: string): Finding => ({ ok: false, detail })
/** Missing, and it will stay so: the step fails at once with `detail`. */
export const blocked = (detail: string): Finding => ({ ok: false, detail, blocked: true })
/** `blocked` when `note` (why it can never come) is set, else `missing`. */
export const missingOrBlocked = (detail: string, note: string): Finding =>
  note ? blocked(detail + note) : missing(detail)

/** A condition on every RDMA node. `pods` are the component's pods on that node. */
export interface NodeRule {
  /** The condition as the plan prints it. */
  text: string
  /** Its notes on ready nodes (an allocatable amount) go, distinct, into the verification line. */
  summarize?: boolean
  check(node: KubeObject, pods: KubeObject[], ctx: HealthContext): Finding
}

export interface ClusterFinding {
  ok: boolean
  /** Short state for the progress line (`policy state ready`); empty for none. */
  message: string
  /** The whole problem when not ok, for verification and diagnostics. */
  problem?: string
  /** Give up now with this reason (nothing will come by waiting). */
  fail?: string
  /** Look again after this long even if nothing changes. */
  recheckInMs?: number
}

/** A condition on the cluster as a whole (a policy's state, a DaemonSet's rollout). */
export interface ClusterRule {
  text: string
  check(snapshot: Snapshot<string>, poolNodes: KubeObject[], ctx: HealthContext): ClusterFinding
}

/**
 * When a component is ready. Its pods, if any, are the source `pods` (grouped per node); a
 * component with `perNode` also watches the RDMA pool's nodes (the source `nodes`).
 */
export interface Health {
  /** One line: what ready means. */
  summary: string
  sources: Record<string, SourceSpec>
  /** Per RDMA node, in order (the first one not met is what the node still lacks); absent: cluster-level. */
  perNode?: { progress: string; rules: NodeRule[] }
  cluster: ClusterRule[]
  /** A failure beyond the container states that do not resolve by waiting (checked on pool pods). */
  failFast?: (podsOnPool: KubeObject[], snapshot: Snapshot<string>) => string | undefined
  /** What verification warns about without failing (from the settings). */
  warnings: string[]
}

export interface NodeProgress {
  node: string
  ready: boolean
  /** What is missing on this node when it is not ready. */
  detail?: string
  /** It will not come by waiting (the step fails at once). */
  blocked?: boolean
  /** What was found on it when it is. */
  notes?: string[]
}

export interface HealthVerdict extends Verdict {
  message: string
  readyNodes: number
  totalNodes: number
  /** Per RDMA node (empty for cluster-level components). */
  nodes: NodeProgress[]
  /** Cluster conditions not met, in full. */
  problems?: string[]
  /** Distinct notes of the summarising rules over the ready nodes. */
  values?: string[]
  /**
   * Pool nodes not ready that are cordoned or held by a driver upgrade, with their state and fix
   * (src/model/node-blockers.ts); absent when none.
   */
  held?: NodeBlocker[]
  /** Pool nodes whose pods are in a fail-fast state (crash loop, image pull…), with the reason; absent when none. */
  failingNodes?: Map<string, string>
}
