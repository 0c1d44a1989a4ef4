// The one typed settings object every part of the action reads. Built from the inputs by
// input-helper.ts (validation lives there); nothing else reads raw inputs.
import type { KubeconfigSource } from './kubeconfig.js'

export type Mode = 'apply' | 'verify' | 'drift' | 'plan' | 'uninstall'
/** What plan mode prints: the operations of apply, or those of uninstall. */
export type PlanMode = 'apply' | 'uninstall'
export type AuthType = 'auto' | 'oidc' | 'secret' | 'cli'
export type CloudName = 'AzureCloud' | 'AzureUSGovernment' | 'AzureChinaCloud'
export type OsSku = 'Ubuntu' | 'Ubuntu2204' | 'Ubuntu2404'
export type BenchmarkScope = 'pair' | 'fleet'
export type Cleanup = 'none' | 'node-pool' | 'cluster'
export type Rollout = 'pipelined' | 'sequential'

export interface NodeTaint {
  key: string
  value: string
  effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute'
}

export interface AzureSettings {
  authType: AuthType
  clientId?: string
  tenantId?: string
  subscriptionId?: string
  /** Never logged; registered with log.secret as soon as it is read. */
  clientSecret?: string
  audience: string
  environment: CloudName
  armEndpoint: string
  authorityHost: string
}

export interface ClusterSettings {
  resourceGroup: string
  name: string
  location?: string
  create: boolean
  kubernetesVersion?: string
  adminCredentials: boolean
  /** Export KUBECONFIG (the written kubeconfig) to the later steps of the job. */
  exportKubeconfig: boolean
  /** The kubeconfig input (and kube-context): the cluster is reached with it, not through ARM. */
  kubeconfig?: KubeconfigSource
}

export interface NodePoolSettings {
  name: string
  vmSize: string
  count: number
  osSku: OsSku
  labels: Record<string, string>
  taints: NodeTaint[]
  zones: string[]
}

/** A pool the stack's cluster-wide objects serve: its name and its nodes' taints (tolerated by the node agents). */
export interface StackPool {
  name: string
  taints: NodeTaint[]
}

export interface StackSettings {
  networkOperatorVersion: string
  gpuOperatorVersion: string
  docaDriverVersion: string
  rdmaDevicePluginImage: string
  rdmaResourceName: string
  rdmaHcaMax: number
  useHostMofed: boolean
  /** NicClusterPolicy ofedDriver.upgradePolicy.drain.podSelector; '' (input `all`): no selector, every pod. */
  ofedDrainPodSelector: string
  helmVersion: string
  /** The SHA-256 a helm on PATH must have to be used (helm-sha256); unset: never run a helm from PATH. */
  helmSha256?: string
  /** Parsed contents of the override files (already validated as YAML objects). */
  networkOperatorValues?: Record<string, unknown>
  gpuOperatorValues?: Record<string, unknown>
  nicClusterPolicy?: Record<string, unknown>
  /** Take ownership of fields another field manager holds (server-side apply force). */
  forceConflicts: boolean
  /** Let apply install an older version than the live one (allow-downgrade); newer live CRDs are kept all the same. */
  allowDowngrade: boolean
  /** Take over a same-chart helm release the action did not install (adopt-releases). */
  adoptReleases: boolean
}

/** How GPU memory reaches the NIC for GPUDirect RDMA (model/gpudirect.ts). */
export type GpuDirectMode = 'dmabuf' | 'peermem'

export interface WaitSettings {
  timeoutMs: number
  stepTimeoutMs: number
  retries: number
  rollout: Rollout
}

export interface BenchmarkSettings {
  enabled: boolean
  image: string
  gpudirect: boolean
  scope: BenchmarkScope
  minBandwidthRatio: number
}

export type TransportCheck = 'none' | 'ucx'
export type UcxEnvChoice = 'dynamo' | 'defaults'

export interface TransportSettings {
  /** none: no transport check; ucx: UCX GPU-to-GPU between two Dynamo-shaped pods. */
  check: TransportCheck
  /** The Dynamo runtime image the pods run. */
  image: string
  /** dynamo: the worker snippet's UCX settings; defaults: none (UCX's own defaults). */
  ucxEnv: UcxEnvChoice
}

export type CollectiveCheck = 'none' | 'nccl'

export interface CollectiveSettings {
  /** none: no collective check; nccl: all_reduce_perf within each node and across the pair. */
  check: CollectiveCheck
  /** The nccl-tests image the pods run. */
  image: string
  /** collective-min-busbw: the inter-node pass mark (GB/s) instead of the VM size's; undefined: the size's. */
  minBusbwGBps?: number
}

export interface Settings {
  mode: Mode
  /** Plan mode: which mode's operations it prints. */
  planMode: PlanMode
  azure: AzureSettings
  cluster: ClusterSettings
  nodePool: NodePoolSettings
  registerFeature: boolean
  stack: StackSettings
  wait: WaitSettings
  benchmark: BenchmarkSettings
  transport: TransportSettings
  collective: CollectiveSettings
  /** dmabuf: open GPU kernel modules and DMA-BUF; peermem: nvidia-peermem (driver.rdma.enabled). */
  gpudirect: GpuDirectMode
  failOnDrift: boolean
  /** Verify, benchmark and drift over every pool the action manages (all-pools), not node-pool alone. */
  allPools: boolean
  cleanup: Cleanup
  /**
   * The pools the cluster-wide objects select (node affinity, node selectors, tolerations): the
   * managed pools of the ownership record, which apply and uninstall read (src/stack/pools.ts).
   * Absent: the run's own pool only.
   */
  stackPools?: StackPool[]
  /**
   * Identifies this run — this job of the workflow run, with its nonce — in tags, the Lease holder
   * and the created-by markers (run-identity.ts).
   */
  runId: string
}

/**
 * Whether the run signs in to Azure. plan never does. With a kubeconfig given, verify never does
 * (it only needs the cluster), drift only when subscription-id is given (to compare the feature and
 * the pool), uninstall only when cleanup deletes the pool or the cluster, and apply always (the
 * feature and the node pool are Azure's).
 */
export function usesAzure(s: {
  mode: Mode
  cluster: { kubeconfig?: unknown }
  azure: { subscriptionId?: string }
  cleanup?: string
}): boolean {
  if (s.mode === 'plan') return false
  if (!s.cluster.kubeconfig || s.mode === 'apply') return true
  // Uninstall removes the stack through the kubeconfig; only deleting the pool or cluster is Azure's.
  if (s.mode === 'uninstall') return s.cleanup !== undefined && s.cleanup !== 'none'
  return s.mode === 'drift' && s.azure.subscriptionId !== undefined
}
