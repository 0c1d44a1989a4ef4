// The world's one managed cluster and its agent pools as ARM stores them, the ARM JSON views of
// both, and their translation into SimPools for the Kubernetes half.
//
// Naming: the cluster lives in `scenario.azure.cluster.resourceGroup` (default `rg-rdma`) and is
// called `scenario.azure.cluster.name` (default `aks-rdma`). When the scenario sets NEITHER, the
// names bind lazily to the first resource group + cluster a client addresses, so any names the
// action is given work; once bound (or when set in the scenario) other names get ARM's 404s.
import { randomBytes, randomUUID } from 'node:crypto'
import type { ClusterBackend, SimPool } from '../../contracts.js'
import type { Scenario } from '../../scenario.js'
import type { Operation } from './lro.js'

export interface PoolRecord {
  name: string
  properties: Record<string, any>
  /** The operation in flight on this pool, if any. */
  operation?: Operation
}

export const DEFAULT_RESOURCE_GROUP = 'rg-rdma'
export const DEFAULT_CLUSTER_NAME = 'aks-rdma'
export const SYSTEM_POOL = { name: 'system', vmSize: 'Standard_D4s_v5', count: 2 }

export type Resolution = 'ok' | 'resource-group-missing' | 'cluster-missing'

/** `1.33` → `1.33.2` (the world's newest patch of a minor); full versions stay as they are. */
export function fullVersion(v: string): string {
  return /^\d+\.\d+$/.test(v) ? `${v}.2` : v
}

export function newETag(): string {
  return randomBytes(8).toString('hex')
}

function minorOf(v: string): number {
  const m = /^\d+\.(\d+)/.exec(v)
  return m ? Number(m[1]) : 0
}

export class ClusterModel {
  exists: boolean
  name: string
  resourceGroup: string
  location: string
  kubernetesVersion: string
  aad: boolean
  localAccounts: boolean
  provisioningState = 'Succeeded'
  tags: Record<string, string> = {}
  dnsPrefix: string
  operation?: Operation
  readonly pools = new Map<string, PoolRecord>()
  private bound: boolean
  private readonly fqdnSuffix = randomBytes(4).toString('hex')
  private readonly principalId = randomUUID()

  constructor(
    private readonly scenario: Scenario,
    private readonly backend: ClusterBackend
  ) {
    const c = scenario.azure.cluster
    this.exists = c.exists
    this.name = c.name ?? DEFAULT_CLUSTER_NAME
    this.resourceGroup = c.resourceGroup ?? DEFAULT_RESOURCE_GROUP
    this.bound = c.name !== undefined || c.resourceGroup !== undefined
    this.location = c.location
    this.kubernetesVersion = c.kubernetesVersion
    this.aad = c.aad
    this.localAccounts = c.localAccounts
    this.dnsPrefix = `${this.name}-dns`
  }

  /** Puts the scenario's initial cluster and pools into the world (and their nodes into the backend). */
  seed(): void {
    if (!this.exists) return
    this.putPool(
      SYSTEM_POOL.name,
      this.defaultPoolProperties({ ...SYSTEM_POOL, mode: 'System', provisioningState: 'Succeeded' })
    )
    for (const p of this.scenario.azure.existingPools) {
      const props = this.defaultPoolProperties({
        vmSize: p.vmSize,
        count: p.count,
        osSKU: p.osSKU,
        mode: 'User',
        provisioningState: p.provisioningState ?? 'Succeeded'
      })
      if (p.gpuDriver) props.gpuProfile = { driver: p.gpuDriver }
      if (p.tags) props.tags = { ...p.tags }
      if (p.nodeTaints?.length) props.nodeTaints = [...p.nodeTaints]
      if (p.nodeLabels) props.nodeLabels = { ...p.nodeLabels }
      this.putPool(p.name, props)
    }
  }

  /** Stores a pool and, unless it failed to provision, tells the backend its nodes exist. */
  putPool(name: string, properties: Record<string, any>): PoolRecord {
    const rec: PoolRecord = { name, properties }
    this.pools.set(name.toLowerCase(), rec)
    if (properties.provisioningState !== 'Failed') this.backend.addPool(this.toSimPool(rec))
    return rec
  }

  getPool(name: string): PoolRecord | undefined {
    return this.pools.get(name.toLowerCase())
  }

  /** Matches a request's resource group and cluster name against the world (binding lazily). */
  resolve(resourceGroup: string, clusterName: string, forCreate = false): Resolution {
    if (!this.bound) {
      this.resourceGroup = resourceGroup
      this.name = clusterName
      this.dnsPrefix = `${clusterName}-dns`
      this.bound = true
    }
    if (resourceGroup.toLowerCase() !== this.resourceGroup.toLowerCase()) return 'resource-group-missing'
    if (!this.exists && forCreate) return 'ok'
    if (!this.exists || clusterName.toLowerCase() !== this.name.toLowerCase()) return 'cluster-missing'
    return 'ok'
  }

  clusterId(subscriptionId: string): string {
    return `/subscriptions/${subscriptionId}/resourcegroups/${this.resourceGroup}/providers/Microsoft.ContainerService/managedClusters/${this.name}`
  }

  poolId(subscriptionId: string, pool: string): string {
    return `${this.clusterId(subscriptionId)}/agentPools/${pool}`
  }

  defaultPoolProperties(p: {
    vmSize?: string
    count?: number
    osSKU?: string
    mode?: string
    orchestratorVersion?: string
    provisioningState: string
  }): Record<string, any> {
    const version = p.orchestratorVersion || this.kubernetesVersion
    const osSKU = p.osSKU ?? 'Ubuntu'
    return {
      count: p.count ?? 1,
      vmSize: p.vmSize ?? 'Standard_D2s_v5',
      osDiskSizeGB: 128,
      osDiskType: 'Managed',
      kubeletDiskType: 'OS',
      maxPods: 110,
      type: 'VirtualMachineScaleSets',
      enableAutoScaling: false,
      scaleDownMode: 'Delete',
      provisioningState: p.provisioningState,
      powerState: { code: 'Running' },
      orchestratorVersion: version,
      currentOrchestratorVersion: fullVersion(version),
      enableNodePublicIP: false,
      mode: p.mode ?? 'User',
      enableEncryptionAtHost: false,
      enableUltraSSD: false,
      osType: 'Linux',
      osSKU,
      nodeImageVersion: this.nodeImageVersion(osSKU, version),
      upgradeSettings: { maxSurge: '10%' },
      enableFIPS: false,
      eTag: newETag()
    }
  }

  /** AKS semantics: `Ubuntu` means 22.04 before Kubernetes 1.35 and 24.04 from it. */
  nodeImageVersion(osSKU: string, version: string): string {
    const ubuntu = osSKU === 'Ubuntu2404' || (osSKU === 'Ubuntu' && minorOf(version) >= 35) ? '2404' : '2204'
    if (osSKU.startsWith('AzureLinux')) return 'AKSAzureLinux-V3gen2-202606.01.0'
    return `AKSUbuntu-${ubuntu}gen2containerd-202606.01.0`
  }

  toSimPool(rec: PoolRecord): SimPool {
    const p = rec.properties
    return {
      name: rec.name,
      vmSize: String(p.vmSize),
      count: Number(p.count ?? 0),
      osSku: String(p.osSKU ?? 'Ubuntu'),
      mode: p.mode === 'System' ? 'System' : 'User',
      kubernetesVersion: String(p.currentOrchestratorVersion ?? fullVersion(this.kubernetesVersion)),
      labels: p.nodeLabels ? { ...p.nodeLabels } : undefined,
      taints: p.nodeTaints ? [...p.nodeTaints] : undefined
    }
  }

  poolJson(subscriptionId: string, rec: PoolRecord): Record<string, unknown> {
    return {
      id: this.poolId(subscriptionId, rec.name),
      name: rec.name,
      type: 'Microsoft.ContainerService/managedClusters/agentPools',
      properties: structuredClone(rec.properties)
    }
  }

  /**
   * The API server's address, as AKS's `fqdn` is the host its kubeconfigs' `server` names (on
   * port 443): the world's API server's host, with its port, since it cannot serve on 443.
   */
  private fqdn(): string {
    const url = this.backend.apiServerUrl?.()
    return url ? new URL(url).host : `${this.dnsPrefix}-${this.fqdnSuffix}.hcp.${this.location}.azmk8s.io`
  }

  clusterJson(subscriptionId: string): Record<string, unknown> {
    const properties: Record<string, unknown> = {
      provisioningState: this.provisioningState,
      powerState: { code: 'Running' },
      kubernetesVersion: this.kubernetesVersion,
      currentKubernetesVersion: fullVersion(this.kubernetesVersion),
      dnsPrefix: this.dnsPrefix,
      fqdn: this.fqdn(),
      azurePortalFQDN: `${this.dnsPrefix}-${this.fqdnSuffix}.portal.hcp.${this.location}.azmk8s.io`,
      agentPoolProfiles: [...this.pools.values()].map(r => ({
        name: r.name,
        ...structuredClone(r.properties)
      })),
      nodeResourceGroup: `MC_${this.resourceGroup}_${this.name}_${this.location}`,
      enableRBAC: true,
      supportPlan: 'KubernetesOfficial',
      disableLocalAccounts: !this.localAccounts,
      networkProfile: {
        networkPlugin: 'azure',
        networkPluginMode: 'overlay',
        loadBalancerSku: 'standard',
        outboundType: 'loadBalancer'
      },
      maxAgentPools: 100
    }
    if (this.aad)
      properties.aadProfile = {
        managed: true,
        enableAzureRBAC: false,
        adminGroupObjectIDs: [],
        tenantID: this.scenario.azure.tenantId
      }
    return {
      id: this.clusterId(subscriptionId),
      location: this.location,
      name: this.name,
      type: 'Microsoft.ContainerService/ManagedClusters',
      tags: { ...this.tags },
      sku: { name: 'Base', tier: 'Free' },
      identity: {
        type: 'SystemAssigned',
        principalId: this.principalId,
        tenantId: this.scenario.azure.tenantId
      },
      properties
    }
  }
}
