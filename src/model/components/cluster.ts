// Component 2 (only with create-cluster): a minimal AKS cluster with a small system pool, created
// when absent and tagged with the run id; an existing cluster is reused and never modified.
import type { Settings } from '../../settings/settings.js'
import { TAGS, type ComponentSpec } from '../types.js'
import { API_VERSIONS, clusterPath } from './azure-paths.js'

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

/** The same as a REST body (`properties` nested), for the plan. */
function restBody(flat: Record<string, unknown>): Record<string, unknown> {
  const { location, tags, identity, ...properties } = flat
  return { location, tags, identity, properties }
}

export function clusterComponent(s: Settings): Omit<ComponentSpec, 'enabled' | 'skipReason'> {
  return {
    name: 'cluster',
    title: `AKS cluster ${s.cluster.name}`,
    kind: 'azure',
    nodeLevel: false,
    azure: [
      { method: 'GET', path: clusterPath(s), apiVersion: API_VERSIONS.containerService, when: 'always' },
      {
        method: 'PUT',
        path: clusterPath(s),
        apiVersion: API_VERSIONS.containerService,
        body: restBody(desiredCluster(s)),
        when: 'cluster absent'
      }
    ],
    readiness: {
      summary: 'provisioningState Succeeded',
      conditions: ['managedCluster provisioningState == Succeeded']
    }
  }
}
