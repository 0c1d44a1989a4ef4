// The one health evaluation of a component's rules over a snapshot of what it watches, used by the
// apply wait, verification and the plan. See docs/design.md ("Health rules: one evaluation, three uses").
import { failFast, podsByNode } from '../kube/pods.js'
import type { KubeObject } from '../kube/types.js'
import type { Snapshot } from '../kube/watch.js'
import { nodeBlockers } from '../model/node-blockers.js'
import { LABELS, type Readiness } from '../model/types.js'
import type { Settings } from '../settings/settings.js'
import { naturalCompare } from '../util/compare.js'
import type { Health, HealthContext, HealthVerdict, NodeProgress, NodeRule, SourceSpec } from './types.js'

/** The RDMA pool's nodes (label kubernetes.azure.com/agentpool=<pool>, not being deleted), by name. */
export function poolNodes(nodes: KubeObject[], pool: string): KubeObject[] {
  const out = nodes.filter(
    n => n.metadata.labels?.[LABELS.agentPool] === pool && !n.metadata.deletionTimestamp
  )
  const byName = (a: KubeObject, b: KubeObject): number => naturalCompare(a.metadata.name, b.metadata.name)
  // Usually in order already (as listed, nodes joining at the end): one pass instead of a sort.
  return out.every((n, i) => i === 0 || byName(out[i - 1], n) <= 0) ? out : out.sort(byName)
}

export function poolNodeSource(s: Settings): SourceSpec {
  return {
    name: 'nodes',
    apiVersion: 'v1',
    kind: 'Node',
    labelSelector: `${LABELS.agentPool}=${s.nodePool.name}`
  }
}

/** Everything a health evaluation reads: its sources, and the pool's nodes when it is per node. */
export function healthSources(h: Health, s: Settings): Record<string, SourceSpec> {
  return { ...(h.perNode ? { nodes: poolNodeSource(s) } : {}), ...h.sources }
}

/** The rules as the plan prints them. */
export function readinessOf(h: Health): Readiness {
  return {
    summary: h.summary,
    conditions: [
      ...(h.perNode?.rules ?? []).map(r => `every RDMA node: ${r.text}`),
      ...h.cluster.map(r => r.text)
    ]
  }
}

/** A node's progress: the first rule not met is what it still lacks; on a ready node, what was found. */
function nodeProgress(
  rules: NodeRule[],
  node: KubeObject,
  pods: KubeObject[],
  ctx: HealthContext,
  values: Set<string>
): NodeProgress {
  const notes: string[] = []
  const summaries: string[] = []
  for (const r of rules) {
    const f = r.check(node, pods, ctx)
    if (!f.ok)
      return {
        node: node.metadata.name,
        ready: false,
        detail: f.detail,
        ...(f.blocked ? { blocked: true } : {})
      }
    if (f.note) notes.push(f.note)
    if (f.note && r.summarize) summaries.push(f.note)
  }
  for (const x of summaries) values.add(x)
  return { node: node.metadata.name, ready: true, ...(notes.length ? { notes } : {}) }
}

export function evaluateHealth(h: Health, snap: Snapshot<string>, ctx: HealthContext): HealthVerdict {
  const pool = poolNodes(snap.nodes ?? [], ctx.settings.nodePool.name)
  const byNode = podsByNode(snap.pods ?? [])
  const cluster = h.cluster.map(r => r.check(snap, pool, ctx))
  const clusterOk = cluster.every(f => f.ok)
  const clusterMessage = cluster
    .map(f => f.message)
    .filter(Boolean)
    .join(', ')
  const problems = cluster.filter(f => !f.ok).map(f => f.problem ?? f.message)
  const recheck = cluster.flatMap(f => (f.recheckInMs === undefined ? [] : [f.recheckInMs]))
  let fail = cluster.find(f => f.fail)?.fail
  let v: HealthVerdict
  if (!h.perNode) {
    v = { done: clusterOk, message: clusterMessage, readyNodes: 0, totalNodes: 0, nodes: [], problems }
  } else {
    const values = new Set<string>()
    const rules = h.perNode.rules
    const nodes = pool.map(n => nodeProgress(rules, n, byNode.get(n.metadata.name) ?? [], ctx, values))
    const names = new Set(pool.map(n => n.metadata.name))
    const onPool = (snap.pods ?? []).filter(p => names.has(p.spec?.nodeName))
    const stuck = nodes.find(n => n.blocked)
    // A rule that knows it will not come by waiting names the cause; a crash loop is often its effect.
    fail =
      (stuck ? `${stuck.node}: ${stuck.detail}` : undefined) ??
      failFast(onPool) ??
      h.failFast?.(onPool, snap) ??
      fail
    const ready = nodes.filter(n => n.ready).length
    const total = nodes.length
    // What holds the nodes not ready yet: a cordon, a driver upgrade's state (named while waiting).
    const notReady = new Set(nodes.filter(n => !n.ready).map(n => n.node))
    const held = pool.filter(n => notReady.has(n.metadata.name)).flatMap(n => nodeBlockers(n))
    const base =
      total === 0
        ? 'waiting for nodes of the pool to join'
        : `${h.perNode.progress} on ${ready}/${total} nodes`
    v = {
      done: total > 0 && ready === total && clusterOk,
      message: clusterMessage ? `${base}, ${clusterMessage}` : base,
      readyNodes: ready,
      totalNodes: total,
      nodes,
      problems,
      values: [...values],
      ...(held.length ? { held } : {})
    }
  }
  const failing = failingNodes(pool, byNode)
  if (failing.size) v.failingNodes = failing
  if (fail) v.fail = fail
  else if (!v.done && recheck.length) v.recheckInMs = Math.min(...recheck)
  return v
}

/** The pool nodes whose pods (any of the watched ones) are in a fail-fast state, with the reason. */
function failingNodes(pool: KubeObject[], byNode: Map<string, KubeObject[]>): Map<string, string> {
  const out = new Map<string, string>()
  for (const n of pool) {
    const reason = failFast(byNode.get(n.metadata.name) ?? [])
    if (reason) out.set(n.metadata.name, reason)
  }
  return out
}
