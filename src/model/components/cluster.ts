// Component 2 (only with create-cluster): a minimal AKS cluster with a small system pool, created
// when absent and tagged with the run id; an existing cluster is reused and never modified.
import type { Settings } from '../../settings/settings.js'
import { LABELS, type ComponentSpec } from '../types.js'
import { API_VERSIONS, clusterPath } from './azure-paths.js'

export function desiredCluster(s: Settings): Record<string, unknown> {
  return {
    location: s.cluster.location,
    tags: { [LABELS.createdBy]: s.runId, [LABELS.managed]: 'true' },
    identity: { type: 'SystemAssigned' },
    properties: {
      ...(s.cluster.kubernetesVersion ? { kubernetesVersion: s.cluster.kubernetesVersion } : {}),
      dnsPrefix: s.cluster.name
        .toLowerCase()
        .replace(/[^a-z0-9-]/g, '-')
        .slice(0, 54),
      agentPoolProfiles: [
        {
          name: 'system',
          mode: 'System',
          vmSize: 'Standard_D4s_v5',
          count: 2,
          osType: 'Linux',
          osSKU: 'Ubuntu'
        }
      ]
    }
  }
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
        body: desiredCluster(s),
        when: 'cluster absent'
      }
    ],
    readiness: {
      summary: 'provisioningState Succeeded',
      conditions: ['managedCluster provisioningState == Succeeded']
    }
  }
}
