// What a workload on the RDMA pool puts in its pod: the pool's node selector, a toleration for
// each of the pool's taints (the node-taints input), and per container the RDMA resource and the
// GPUs it uses. No IPC_LOCK capability is needed: ib-node-config sets memlock unlimited for
// containerd and kubelet on every pool node. The job summary and the README show this snippet,
// and the benchmark pods are built from it, so every benchmark run proves it.
import type { Settings } from '../settings/settings.js'
import { LABELS } from './types.js'

export interface Toleration {
  key: string
  operator: 'Equal' | 'Exists'
  value?: string
  effect: string
}

/** A toleration for each taint of the RDMA pool (the node-taints input). */
export function poolTolerations(s: Settings): Toleration[] {
  return s.nodePool.taints.map(t =>
    t.value
      ? { key: t.key, operator: 'Equal', value: t.value, effect: t.effect }
      : { key: t.key, operator: 'Exists', effect: t.effect }
  )
}

/** The extended resources one container of a workload requests: the shared RDMA device, and its GPUs. */
export function workloadResources(s: Settings, gpus: number): Record<string, string> {
  return {
    [`rdma/${s.stack.rdmaResourceName}`]: '1',
    ...(gpus > 0 ? { 'nvidia.com/gpu': String(gpus) } : {})
  }
}

/** The pod spec fragment a workload on the RDMA pool uses (one container shown). */
export function workloadPodSnippet(s: Settings, gpus: number): Record<string, unknown> {
  const resources = workloadResources(s, gpus)
  const tolerations = poolTolerations(s)
  return {
    nodeSelector: { [LABELS.agentPool]: s.nodePool.name },
    ...(tolerations.length ? { tolerations } : {}),
    containers: [
      {
        name: 'worker',
        image: '<your image>',
        resources: { requests: resources, limits: resources }
      }
    ]
  }
}
