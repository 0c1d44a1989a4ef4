// Readiness of the RDMA shared device plugin: its DaemonSet rolled out on every RDMA node and each
// node advertising allocatable rdma/<rdma-resource-name> > 0 (a quantity: `1k` is a thousand).
import type { KubeObject } from '../../kube/types.js'
import {
  allocatable,
  daemonSetRolledOut,
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

export const RDMA_DEVICE_PLUGIN = {
  namespace: 'kube-system',
  name: 'rdma-shared-dp-ds',
  selector: 'name=rdma-shared-dp-ds'
} as const

export function rdmaNodeProgress(node: KubeObject, pods: KubeObject[], resource: string): NodeProgress {
  const name = node.metadata.name
  if (pods.length === 0) return { node: name, ready: false, detail: 'no device plugin pod' }
  if (!pods.some(isPodReady))
    return { node: name, ready: false, detail: `device plugin pod ${pods[0].metadata.name} not Ready` }
  const n = allocatable(node, resource)
  if (!(n > 0))
    return {
      node: name,
      ready: false,
      detail: `allocatable ${resource} is ${node.status?.allocatable?.[resource] ?? 'absent'}`
    }
  return { node: name, ready: true }
}

export function evaluateRdmaDevicePlugin(
  observed: { nodes: KubeObject[]; pods: KubeObject[]; daemonsets: KubeObject[] },
  ctx: { pool: string; resourceName: string }
): ReadinessVerdict {
  const resource = `rdma/${ctx.resourceName}`
  const nodes = rdmaNodes(observed.nodes, ctx.pool)
  const byNode = podsByNode(observed.pods)
  const progress = nodes.map(n => rdmaNodeProgress(n, byNode.get(n.metadata.name) ?? [], resource))
  const ds = daemonSetRolledOut(named(observed.daemonsets, RDMA_DEVICE_PLUGIN.name), nodes.length)
  const fail = failFast(observed.pods.filter(p => nodes.some(n => n.metadata.name === p.spec?.nodeName)))
  return nodeVerdict(`${resource} allocatable`, progress, {
    ok: ds.done,
    message: `daemonset ${ds.detail}`,
    ...(fail ? { fail } : {})
  })
}

export const rdmaDevicePluginReadiness: ComponentReadiness<'nodes' | 'pods' | 'daemonsets'> = {
  component: 'rdma-device-plugin',
  sources: (client, settings) => ({
    nodes: rdmaNodeSource(client, settings),
    pods: client.watchSource('v1', 'Pod', {
      namespace: RDMA_DEVICE_PLUGIN.namespace,
      labelSelector: RDMA_DEVICE_PLUGIN.selector,
      name: 'rdma-dp-pods'
    }),
    daemonsets: client.watchSource('apps/v1', 'DaemonSet', {
      namespace: RDMA_DEVICE_PLUGIN.namespace,
      labelSelector: RDMA_DEVICE_PLUGIN.selector,
      name: 'rdma-dp-ds'
    })
  }),
  evaluate: (snap, ctx) =>
    evaluateRdmaDevicePlugin(snap, {
      pool: ctx.settings.nodePool.name,
      resourceName: ctx.settings.stack.rdmaResourceName
    })
}
