// Readiness of the NicClusterPolicy: on every RDMA node at least one OFED driver pod (selected by
// the label nvidia.com/ofed-driver, never the guide's app=mofed-ubuntu22.04-ds) and all of them
// Ready, the node labelled network.nvidia.com/operator.mofed.wait=false, and the policy's
// status.state `ready`. A driver pod that crash-loops or cannot pull its image fails at once.
import { NETWORK_OPERATOR_NAMESPACE } from '../../model/components/network-operator.js'
import { LABELS } from '../../model/types.js'
import type { KubeObject } from '../../kube/types.js'
import {
  failFast,
  isPodReady,
  named,
  nodeVerdict,
  podsByNode,
  rdmaNodeSource,
  rdmaNodes,
  type ComponentReadiness,
  type NodeProgress,
  type ReadinessVerdict
} from './common.js'

export const NIC_CLUSTER_POLICY = 'nic-cluster-policy'

export function ofedNodeProgress(node: KubeObject, pods: KubeObject[]): NodeProgress {
  const name = node.metadata.name
  if (pods.length === 0) return { node: name, ready: false, detail: 'no OFED driver pod' }
  const notReady = pods.filter(p => !isPodReady(p))
  if (notReady.length)
    return { node: name, ready: false, detail: `OFED driver pod ${notReady[0].metadata.name} not Ready` }
  const wait = node.metadata.labels?.[LABELS.mofedWait]
  if (wait !== 'false')
    return { node: name, ready: false, detail: `${LABELS.mofedWait}=${wait ?? '(unset)'}` }
  return { node: name, ready: true }
}

/** The appliedStates that are not ready, e.g. `state-OFED notReady`. */
export function notReadyStates(policy: KubeObject | undefined): string[] {
  return (policy?.status?.appliedStates ?? [])
    .filter((s: any) => s.state !== 'ready' && s.state !== 'ignore')
    .map((s: any) => `${s.name} ${s.state}${s.message ? ` (${s.message})` : ''}`)
}

export function evaluateNicClusterPolicy(
  observed: { nodes: KubeObject[]; pods: KubeObject[]; policies: KubeObject[] },
  ctx: { pool: string }
): ReadinessVerdict {
  const nodes = rdmaNodes(observed.nodes, ctx.pool)
  const byNode = podsByNode(observed.pods)
  const progress = nodes.map(n => ofedNodeProgress(n, byNode.get(n.metadata.name) ?? []))
  const policy = named(observed.policies, NIC_CLUSTER_POLICY)
  const state = policy?.status?.state as string | undefined
  const onPool = observed.pods.filter(p => nodes.some(n => n.metadata.name === p.spec?.nodeName))
  const fail = failFast(onPool)
  return nodeVerdict('OFED driver ready', progress, {
    ok: state === 'ready',
    message: policy ? `policy state ${state ?? '(none yet)'}` : 'policy not found',
    ...(fail ? { fail } : {})
  })
}

export const nicClusterPolicyReadiness: ComponentReadiness<'nodes' | 'pods' | 'policies'> = {
  component: 'nic-cluster-policy',
  sources: (client, settings) => ({
    nodes: rdmaNodeSource(client, settings),
    pods: client.watchSource('v1', 'Pod', {
      namespace: NETWORK_OPERATOR_NAMESPACE,
      labelSelector: LABELS.ofedDriverPod,
      name: 'ofed-pods'
    }),
    policies: client.watchSource('mellanox.com/v1alpha1', 'NicClusterPolicy', { name: 'nicclusterpolicies' })
  }),
  evaluate: (snap, ctx) => evaluateNicClusterPolicy(snap, { pool: ctx.settings.nodePool.name })
}
