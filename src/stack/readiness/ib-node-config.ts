// Readiness of the ib-node-config DaemonSet: rolled out on every RDMA node, each pod Ready with
// its init container ib-setup completed (exit 0) — only then are memlock and the IB modules set.
import type { KubeObject } from '../../kube/types.js'
import {
  daemonSetRolledOut,
  failFast,
  initCompleted,
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

export const IB_NODE_CONFIG = {
  namespace: 'kube-system',
  name: 'ib-node-config',
  selector: 'app=ib-node-config',
  init: 'ib-setup'
} as const

export function ibNodeProgress(node: KubeObject, pods: KubeObject[]): NodeProgress {
  const name = node.metadata.name
  if (pods.length === 0) return { node: name, ready: false, detail: 'no ib-node-config pod' }
  const pod = pods[0]
  const initState = (pod.status?.initContainerStatuses ?? []).find((c: any) => c.name === IB_NODE_CONFIG.init)
  const exit = initState?.state?.terminated?.exitCode
  if (exit !== undefined && exit !== 0)
    return { node: name, ready: false, detail: `init container ${IB_NODE_CONFIG.init} exited ${exit}` }
  if (!initCompleted(pod, IB_NODE_CONFIG.init))
    return { node: name, ready: false, detail: `init container ${IB_NODE_CONFIG.init} not completed` }
  if (!isPodReady(pod)) return { node: name, ready: false, detail: `pod ${pod.metadata.name} not Ready` }
  return { node: name, ready: true }
}

export function evaluateIbNodeConfig(
  observed: { nodes: KubeObject[]; pods: KubeObject[]; daemonsets: KubeObject[] },
  ctx: { pool: string }
): ReadinessVerdict {
  const nodes = rdmaNodes(observed.nodes, ctx.pool)
  const byNode = podsByNode(observed.pods)
  const progress = nodes.map(n => ibNodeProgress(n, byNode.get(n.metadata.name) ?? []))
  const ds = daemonSetRolledOut(named(observed.daemonsets, IB_NODE_CONFIG.name), nodes.length)
  const fail = failFast(observed.pods.filter(p => nodes.some(n => n.metadata.name === p.spec?.nodeName)))
  return nodeVerdict('ib-setup completed', progress, {
    ok: ds.done,
    message: `daemonset ${ds.detail}`,
    ...(fail ? { fail } : {})
  })
}

export const ibNodeConfigReadiness: ComponentReadiness<'nodes' | 'pods' | 'daemonsets'> = {
  component: 'ib-node-config',
  sources: (client, settings) => ({
    nodes: rdmaNodeSource(client, settings),
    pods: client.watchSource('v1', 'Pod', {
      namespace: IB_NODE_CONFIG.namespace,
      labelSelector: IB_NODE_CONFIG.selector,
      name: 'ib-node-config-pods'
    }),
    daemonsets: client.watchSource('apps/v1', 'DaemonSet', {
      namespace: IB_NODE_CONFIG.namespace,
      labelSelector: IB_NODE_CONFIG.selector,
      name: 'ib-node-config-ds'
    })
  }),
  evaluate: (snap, ctx) => evaluateIbNodeConfig(snap, { pool: ctx.settings.nodePool.name })
}
