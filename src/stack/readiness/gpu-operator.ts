// Readiness of the GPU Operator: ClusterPolicy `cluster-policy` status.state ready and, on every
// RDMA node, the nvidia-driver-daemonset pod Ready including its nvidia-peermem-ctr container
// (present only with driver.rdma.enabled) and allocatable nvidia.com/gpu > 0.
import { GPU_OPERATOR_NAMESPACE } from '../../model/components/gpu-operator.js'
import type { KubeObject } from '../../kube/types.js'
import {
  allocatable,
  containerReady,
  failFast,
  hasContainer,
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

export const CLUSTER_POLICY = 'cluster-policy'
export const DRIVER_PODS = { selector: 'app=nvidia-driver-daemonset', peermem: 'nvidia-peermem-ctr' } as const
export const GPU_RESOURCE = 'nvidia.com/gpu'

export function gpuNodeProgress(node: KubeObject, pods: KubeObject[]): NodeProgress {
  const name = node.metadata.name
  const pod = pods.find(isPodReady) ?? pods[0]
  if (!pod) return { node: name, ready: false, detail: 'no nvidia-driver-daemonset pod' }
  if (!isPodReady(pod))
    return { node: name, ready: false, detail: `driver pod ${pod.metadata.name} not Ready` }
  if (!containerReady(pod, DRIVER_PODS.peermem))
    return { node: name, ready: false, detail: `${DRIVER_PODS.peermem} not Ready` }
  const gpus = allocatable(node, GPU_RESOURCE)
  if (!(gpus > 0))
    return {
      node: name,
      ready: false,
      detail: `allocatable ${GPU_RESOURCE} is ${node.status?.allocatable?.[GPU_RESOURCE] ?? 'absent'}`
    }
  return { node: name, ready: true }
}

export function evaluateGpuOperator(
  observed: { nodes: KubeObject[]; pods: KubeObject[]; policies: KubeObject[] },
  ctx: { pool: string }
): ReadinessVerdict {
  const nodes = rdmaNodes(observed.nodes, ctx.pool)
  const byNode = podsByNode(observed.pods)
  const progress = nodes.map(n => gpuNodeProgress(n, byNode.get(n.metadata.name) ?? []))
  const policy = named(observed.policies, CLUSTER_POLICY)
  const state = policy?.status?.state as string | undefined
  const onPool = observed.pods.filter(p => nodes.some(n => n.metadata.name === p.spec?.nodeName))
  let fail = failFast(onPool)
  const noPeermem = onPool.find(
    p => (p.spec?.containers ?? []).length > 0 && !hasContainer(p, DRIVER_PODS.peermem)
  )
  if (!fail && noPeermem) {
    fail =
      `driver pod ${noPeermem.metadata.name} has no ${DRIVER_PODS.peermem} container: the GPU Operator runs without ` +
      'driver.rdma.enabled=true, so nvidia-peermem (GPUDirect RDMA) is never loaded'
  }
  return nodeVerdict('GPU driver with nvidia-peermem ready', progress, {
    ok: state === 'ready',
    message: policy ? `cluster-policy state ${state ?? '(none yet)'}` : 'cluster-policy not found',
    ...(fail ? { fail } : {})
  })
}

export const gpuOperatorReadiness: ComponentReadiness<'nodes' | 'pods' | 'policies'> = {
  component: 'gpu-operator',
  sources: (client, settings) => ({
    nodes: rdmaNodeSource(client, settings),
    pods: client.watchSource('v1', 'Pod', {
      namespace: GPU_OPERATOR_NAMESPACE,
      labelSelector: DRIVER_PODS.selector,
      name: 'driver-pods'
    }),
    policies: client.watchSource('nvidia.com/v1', 'ClusterPolicy', { name: 'clusterpolicies' })
  }),
  evaluate: (snap, ctx) => evaluateGpuOperator(snap, { pool: ctx.settings.nodePool.name })
}
