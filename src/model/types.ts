// The desired-state model: the stack is an ordered list of components, each knowing its desired
// state (built from settings), how it is applied (an Azure operation, a helm release or
// manifests) and its readiness condition. plan, apply, verify and drift walk this same list.

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

export interface Readiness {
  /** One line a person reads in the plan and the logs. */
  summary: string
  /** The individual conditions, each checkable. */
  conditions: string[]
}

export interface ComponentSpec {
  /** Stable identifier used in logs, the report and drift entries. */
  name: string
  title: string
  kind: ComponentKind
  /** Runs on the RDMA pool's nodes (gated per node in pipelined rollout) rather than the system pool. */
  nodeLevel: boolean
  azure?: AzureOperation[]
  helm?: HelmReleaseSpec
  /** Applied with server-side apply (field manager aks-rdma-action), in this order. */
  manifests?: KubeManifest[]
  readiness: Readiness
  /** False when these settings leave the component out (it is still listed, with the reason). */
  enabled: boolean
  skipReason?: string
  /** Why this differs from the guide, when it does. */
  departsFromGuide?: string
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
  pci15b3: 'feature.node.kubernetes.io/pci-15b3.present',
  mofedWait: 'network.nvidia.com/operator.mofed.wait',
  agentPool: 'kubernetes.azure.com/agentpool',
  ofedDriverPod: 'nvidia.com/ofed-driver'
} as const
