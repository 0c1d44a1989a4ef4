// The Azure resources of the desired state as plain data: ARM paths, api-versions and the pool and cluster.
// api-versions are those the SDK clients send (arm-containerservice 25.5, arm-features 3.1, arm-resources 8).
// azure/ reads them here, not from the component modules above it (it also serves the post step).
import type { NodeTaint, Settings } from '../settings/settings.js'
import { TAGS } from './types.js'

export const API_VERSIONS = {
  containerService: '2026-06-01',
  features: '2021-07-01',
  resources: '2025-04-01'
} as const
export const FEATURE = { namespace: 'Microsoft.ContainerService', name: 'AKSInfinibandSupport' } as const

export function subscriptionPath(s: Settings): string {
  return `/subscriptions/${s.azure.subscriptionId ?? '<subscription-id>'}`
}

export function clusterPath(s: Settings): string {
  return `${subscriptionPath(s)}/resourceGroups/${s.cluster.resourceGroup}/providers/Microsoft.ContainerService/managedClusters/${s.cluster.name}`
}

export function featurePath(s: Settings): string {
  return `${subscriptionPath(s)}/providers/Microsoft.Features/providers/${FEATURE.namespace}/features/${FEATURE.name}`
}

export const SYSTEM_POOL_VM_SIZE = 'Standard_D4s_v5'

/** A DNS prefix from the cluster name: letters, digits and hyphens, 1–54 characters. */
export function dnsPrefixFor(name: string): string {
  const p = name
    .replace(/[^a-zA-Z0-9-]/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 54)
  return /^[a-zA-Z0-9]/.test(p) ? p : `aks${p}`.slice(0, 54)
}

/** The minimal cluster this action creates, flattened as the modular SDK takes it. */
export function desiredCluster(s: Settings): Record<string, unknown> {
  const c = s.cluster
  return {
    location: c.location ?? '<location>',
    tags: { [TAGS.managed]: 'true', [TAGS.createdBy]: s.runId },
    identity: { type: 'SystemAssigned' },
    ...(c.kubernetesVersion ? { kubernetesVersion: c.kubernetesVersion } : {}),
    dnsPrefix: dnsPrefixFor(c.name),
    agentPoolProfiles: [
      {
        name: 'system',
        mode: 'System',
        vmSize: SYSTEM_POOL_VM_SIZE,
        count: 1,
        minCount: 1,
        maxCount: 2,
        enableAutoScaling: true,
        osType: 'Linux'
      }
    ]
  }
}

/** A taint as AKS writes it: `key=value:Effect` (or `key:Effect` without a value). */
export function taintString(t: NodeTaint): string {
  return `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`
}

/** The agent pool body (flattened as the modular SDK takes it; REST nests it under `properties`). */
export function desiredAgentPoolProperties(s: Settings): Record<string, unknown> {
  const p = s.nodePool
  return {
    vmSize: p.vmSize,
    count: p.count,
    osType: 'Linux',
    osSKU: p.osSku,
    mode: 'User',
    // Not the retired SkipGPUDriverInstall tag: the GPU Operator installs the driver.
    gpuProfile: { driver: 'None' },
    nodeLabels: p.labels,
    nodeTaints: p.taints.map(taintString),
    ...(p.zones.length ? { availabilityZones: p.zones } : {}),
    tags: { [TAGS.managed]: 'true', [TAGS.createdBy]: s.runId }
  }
}
