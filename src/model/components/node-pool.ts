// Component 3: the RDMA node pool (ND-series, Ubuntu, GPU driver None), created with
// If-None-Match: * when absent and reused without a write when its immutable fields match.
import type { NodeTaint, Settings } from '../../settings/settings.js'
import { LABELS, TAGS, type ComponentSpec } from '../types.js'
import { API_VERSIONS, clusterPath } from './azure-paths.js'

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

export function nodePoolComponent(s: Settings): Omit<ComponentSpec, 'enabled' | 'skipReason'> {
  const path = `${clusterPath(s)}/agentPools/${s.nodePool.name}`
  return {
    name: 'node-pool',
    title: `Node pool ${s.nodePool.name} (${s.nodePool.count} × ${s.nodePool.vmSize})`,
    kind: 'azure',
    nodeLevel: false,
    azure: [
      { method: 'GET', path, apiVersion: API_VERSIONS.containerService, when: 'always' },
      {
        method: 'PUT',
        path,
        apiVersion: API_VERSIONS.containerService,
        headers: { 'If-None-Match': '*' },
        body: { properties: desiredAgentPoolProperties(s) },
        when: 'pool absent (present: immutable fields vmSize, osType, osSKU, gpuProfile.driver compared; no write)'
      }
    ],
    readiness: {
      summary: `provisioningState Succeeded and ${s.nodePool.count} nodes labelled ${LABELS.agentPool}=${s.nodePool.name}`,
      conditions: [
        'agentPool provisioningState == Succeeded',
        `nodes -l ${LABELS.agentPool}=${s.nodePool.name} registered`
      ]
    },
    departsFromGuide:
      'gpuProfile.driver: None instead of the retired --skip-gpu-driver-install tag (rejected since August 2025).'
  }
}
