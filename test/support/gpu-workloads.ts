// The users' GPU workloads the flow tests put on the simulated RDMA pool: a trainer Deployment and
// bare pods holding GPUs (and RDMA devices) (CONTRIBUTING.md, "Tests").
import type { KubeObject } from '../../src/kube/types.js'

export const PYTORCH_IMAGE = 'nvcr.io/nvidia/pytorch:25.01-py3'

/** The pod spec fields a workload sets besides its one container. */
export type PodPlacement = Record<string, unknown>

/** A container that requests (and is limited to) `resources`, e.g. { 'nvidia.com/gpu': '1' }. */
export function gpuContainer(name: string, image: string, resources: Record<string, string>) {
  return { name, image, resources: { requests: resources, limits: resources } }
}

/** Deployment default/trainer: `replicas` pods labelled app=trainer, PyTorch asking for `resources`. */
export function trainerDeployment(
  replicas: number,
  placement: PodPlacement,
  resources: Record<string, string>
): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'trainer', namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'trainer' } },
      template: {
        metadata: { labels: { app: 'trainer' } },
        spec: { ...placement, containers: [gpuContainer('trainer', PYTORCH_IMAGE, resources)] }
      }
    }
  }
}

/** A pod default/`name` with no controller (nothing recreates or protects it). */
export function barePod(
  name: string,
  placement: PodPlacement,
  container: ReturnType<typeof gpuContainer>
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: { ...placement, containers: [container] }
  }
}

/** Whether the pod's Ready condition is True. */
export function podReady(p: KubeObject): boolean {
  return (p.status?.conditions ?? []).some(
    (c: { type: string; status: string }) => c.type === 'Ready' && c.status === 'True'
  )
}
