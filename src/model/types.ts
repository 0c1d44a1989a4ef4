// The shapes of the desired state, shared by every layer: a manifest, an Azure operation, a helm
// release, the readiness prose; the labels, tags and field manager the action uses, and how an
// object or a release is named in drift fields. The components (src/components) build them.

export interface KubeManifest {
  apiVersion: string
  kind: string
  metadata: {
    name: string
    namespace?: string
    labels?: Record<string, string>
    annotations?: Record<string, string>
  }
  [field: string]: unknown
}

export interface AzureOperation {
  method: 'GET' | 'PUT' | 'POST' | 'DELETE'
  /** Resource path under the ARM endpoint. */
  path: string
  apiVersion: string
  body?: unknown
  /** Headers that matter (e.g. If-None-Match). */
  headers?: Record<string, string>
  /** When the operation runs (e.g. "only when the pool is absent"). */
  when: string
}

export interface HelmReleaseSpec {
  release: string
  chart: string
  repo: { name: string; url: string }
  version: string
  namespace: string
  values: Record<string, unknown>
}

export type ComponentKind = 'azure' | 'credentials' | 'helm' | 'manifests'

/** When a component is ready, as a person reads it (the plan, the logs, a failed step's diagnostic). */
export interface Readiness {
  /** One line. */
  summary: string
  /** The individual conditions, each checkable. */
  conditions: string[]
}

export const FIELD_MANAGER = 'aks-rdma-action'

/**
 * Azure tag names. ARM tag names may not contain `/` (nor `<>%&\?`), so they use hyphens, as
 * Kubernetes' own Azure tags do (`kubernetes.io-created-for-pvc-name`).
 */
export const TAGS = { managed: 'aks-rdma-action-managed', createdBy: 'aks-rdma-action-created-by' } as const
export const LABELS = {
  managed: 'aks-rdma-action/managed',
  createdBy: 'aks-rdma-action/created-by',
  /** On pods that use the RDMA resource: what an OFED driver upgrade drains (ofed-drain-pod-selector). */
  rdmaWorkload: 'aks-rdma-action/rdma-workload',
  pci15b3: 'feature.node.kubernetes.io/pci-15b3.present',
  mofedWait: 'network.nvidia.com/operator.mofed.wait',
  agentPool: 'kubernetes.azure.com/agentpool',
  ofedDriverPod: 'nvidia.com/ofed-driver',
  /** A node's driver upgrade state, as NVIDIA's upgrade controller (k8s-operator-libs) sets it. */
  ofedUpgradeState: 'nvidia.com/ofed-driver-upgrade-state',
  gpuUpgradeState: 'nvidia.com/gpu-driver-upgrade-state'
} as const

/** `daemonset/rdma-shared-dp-ds`: how an object is named in drift fields. */
export function objectName(m: Pick<KubeManifest, 'kind' | 'metadata'>): string {
  return `${m.kind.toLowerCase()}/${m.metadata.name}`
}

/** `helm/<release>`: how a release is named in drift fields. */
export function releaseName(spec: Pick<HelmReleaseSpec, 'release'>): string {
  return `helm/${spec.release}`
}
