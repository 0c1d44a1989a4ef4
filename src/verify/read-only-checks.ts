// The read-only checks over one ClusterState (nodes-ready, then one per component, judged by the apply
// wait's health rules); drift runs them and the plan lists them. See docs/design.md.
import { kubeComponents, type KubeComponent } from '../components/index.js'
import { evaluateHealth } from '../health/evaluate.js'
import { conditionOf, isNodeReady } from '../kube/pods.js'
import type { KubeObject } from '../kube/types.js'
import { nodeBlockers } from '../model/node-blockers.js'
import { LABELS } from '../model/types.js'
import type { NodeCheckResult } from '../report/report.js'
import type { Settings } from '../settings/settings.js'
import { closestName } from '../util/closest.js'
import { oneLine } from '../util/text.js'
import { nodeCheck, nodeResult, type Check } from './check-result.js'
import type { ClusterState } from './cluster-state.js'

/** A verification check as the plan lists it. */
export interface CheckSpec {
  name: string
  description: string
  /** Reads state only (drift runs it); false: creates the short-lived probe DaemonSet. */
  readOnly: boolean
}

/** The one failure of a pool with no nodes: which pools there are, the closest, and the fix. */
export function missingPoolDetail(state: ClusterState): string {
  const pools = state.otherPools ?? []
  const near = closestName(state.pool, pools)
  const there = pools.length
    ? `the cluster's node pools are ${pools.join(', ')}`
    : 'the cluster has no AKS node pool nodes'
  const fix = near
    ? `did you mean ${near}? Set node-pool: ${near} (CLI --node-pool ${near})`
    : `set node-pool to one of them, or run apply to create pool ${state.pool}`
  return `node pool ${state.pool} has no nodes in this cluster (none labelled ${LABELS.agentPool}=${state.pool}); ${there}; ${fix}`
}

/** A check with nothing to look at: its pool has no nodes, which nodes-ready reports once. */
function noNodes(name: string, state: ClusterState): Check {
  return { name, status: 'skipped', detail: `no nodes of pool ${state.pool} (see nodes-ready)`, nodes: [] }
}

function label(node: KubeObject, key: string): string | undefined {
  return node.metadata.labels?.[key]
}

export function checkNodesReady(state: ClusterState): Check {
  if (!state.nodes.length)
    return { name: 'nodes-ready', status: 'fail', detail: missingPoolDetail(state), nodes: [] }
  const results = state.nodes.map(n => {
    const problems: string[] = []
    if (!isNodeReady(n)) {
      const c = conditionOf(n, 'Ready')
      problems.push(
        `NotReady${c?.reason ? ` (${c.reason}${c.message ? `: ${oneLine(c.message, 120)}` : ''})` : ''}`
      )
    }
    const pci = label(n, LABELS.pci15b3)
    if (pci !== 'true')
      problems.push(`${LABELS.pci15b3}=${pci ?? '<absent>'} (is the NodeFeatureRule applied?)`)
    const wait = label(n, LABELS.mofedWait)
    if (wait !== 'false') problems.push(`${LABELS.mofedWait}=${wait ?? '<absent>'}`)
    // Cordoned, or held by a driver upgrade: named with its state and the command that resolves it.
    for (const b of nodeBlockers(n)) problems.push(`${b.message}; fix: ${b.fix}`)
    return nodeResult(n.metadata.name, problems, 'Ready and labelled')
  })
  return nodeCheck(
    'nodes-ready',
    results,
    `${results.length} node(s) Ready, labelled ${LABELS.pci15b3}=true and ${LABELS.mofedWait}=false`
  )
}

/** A component's check: its health rules over what was read, node by node, and on the cluster. */
export function componentCheck(c: KubeComponent, state: ClusterState, s: Settings): Check {
  const name = c.check!.name
  const skip = c.check!.skip(s)
  if (skip) return { name, status: 'skipped', detail: skip }
  if (!state.nodes.length) return noNodes(name, state)
  const h = c.health(s)
  const v = evaluateHealth(
    h,
    { ...state.observed[c.name], nodes: state.nodes },
    {
      settings: s,
      elapsedMs: Number.POSITIVE_INFINITY,
      nfdGraceMs: 0,
      ...(state.unreadable[c.name] ? { unreadable: state.unreadable[c.name] } : {})
    }
  )
  const results: NodeCheckResult[] = v.nodes.map(n =>
    n.ready
      ? { node: n.node, status: 'pass', detail: n.notes?.join('; ') ?? 'ready' }
      : { node: n.node, status: 'fail', detail: n.detail ?? 'not ready' }
  )
  return nodeCheck(name, results, [v.message, ...(v.values ?? [])].join('; '), v.problems ?? [], h.warnings)
}

export function readOnlyChecks(state: ClusterState, s: Settings): Check[] {
  return [
    checkNodesReady(state),
    ...kubeComponents()
      .filter(c => c.check)
      .map(c => componentCheck(c, state, s))
  ]
}

/** Every verification check with what it checks, for the plan. */
export function verificationChecks(s: Settings): CheckSpec[] {
  const resource = `rdma/${s.stack.rdmaResourceName}`
  return [
    {
      name: 'nodes-ready',
      readOnly: true,
      description: `every RDMA node Ready, labelled ${LABELS.pci15b3}=true and ${LABELS.mofedWait}=false`
    },
    ...kubeComponents().flatMap(c =>
      c.check
        ? [
            {
              name: c.check.name,
              readOnly: true,
              description: `the ${c.name} health rules: ${c.health(s).summary}${c.check.skip(s) ? ` (skipped: ${c.check.skip(s)})` : ''}`
            }
          ]
        : []
    ),
    {
      name: 'node-probe',
      readOnly: false,
      description: `one short-lived DaemonSet with a pod per RDMA node (the pool's tolerations, requests ${resource}: 1; results in each pod's termination message): IB ports Active with their rate (sysfs), ulimit -l unlimited, nvidia_peermem loaded, ${resource} gives pods every IB device and no Ethernet one (/dev/infiniband), the GPU local to each NIC (PCI topology, NUMA)`
    }
  ]
}
