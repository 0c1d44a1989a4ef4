// What a workload on the RDMA pool puts in its pod; the benchmark pods are built from the same functions.
// Docs: README.md#running-a-workload-on-the-rdma-pool.
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

/** The name of the Pod the summary prints. */
export const WORKLOAD_POD_NAME = 'rdma-workload'

/**
 * A complete Pod a workload on the RDMA pool is (`kubectl apply -f` runs it as it is): the pool's
 * node selector, its tolerations, and one container with the resources the benchmark pods held —
 * on the benchmark's own image, idle (`sleep infinity`), so `kubectl exec` can run perftest in it.
 * Its spec is what a Dynamo component's podTemplate.spec takes (nvidia.com/v1beta1: the container
 * named `main` is the one the Dynamo operator fills in), once image and command are the worker's.
 */
export function workloadPod(s: Settings, gpus: number): Record<string, unknown> {
  const resources = workloadResources(s, gpus)
  const tolerations = poolTolerations(s)
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    // The label the OFED upgrade's drain selects by default (ofed-drain-pod-selector).
    metadata: { name: WORKLOAD_POD_NAME, labels: { [LABELS.rdmaWorkload]: 'true' } },
    spec: {
      nodeSelector: { [LABELS.agentPool]: s.nodePool.name },
      ...(tolerations.length ? { tolerations } : {}),
      containers: [
        {
          name: 'main',
          image: s.benchmark.image,
          command: ['sleep', 'infinity'],
          resources: { requests: resources, limits: resources }
        }
      ]
    }
  }
}
