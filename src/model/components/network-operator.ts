// Component 5: the NVIDIA Network Operator helm release (pinned chart), in a namespace labelled
// privileged. Its NFD runs with deployNodeFeatureRules false; our own rule (next component)
// labels the InfiniBand nodes instead.
import type { Settings } from '../../settings/settings.js'
import { deepMerge } from '../../util/merge.js'
import type { ComponentSpec } from '../types.js'
import { privilegedNamespace } from './namespaces.js'

export const NVIDIA_HELM_REPO = { name: 'nvidia', url: 'https://helm.ngc.nvidia.com/nvidia' } as const
export const NETWORK_OPERATOR_NAMESPACE = 'network-operator'

export function networkOperatorValues(s: Settings): Record<string, unknown> {
  return deepMerge({ nfd: { enabled: true, deployNodeFeatureRules: false } }, s.stack.networkOperatorValues)
}

export function networkOperatorComponent(s: Settings): Omit<ComponentSpec, 'enabled' | 'skipReason'> {
  return {
    name: 'network-operator',
    title: `NVIDIA Network Operator ${s.stack.networkOperatorVersion}`,
    kind: 'helm',
    nodeLevel: false,
    manifests: [privilegedNamespace(NETWORK_OPERATOR_NAMESPACE)],
    helm: {
      release: 'network-operator',
      chart: `${NVIDIA_HELM_REPO.name}/network-operator`,
      repo: { ...NVIDIA_HELM_REPO },
      version: s.stack.networkOperatorVersion,
      namespace: NETWORK_OPERATOR_NAMESPACE,
      values: networkOperatorValues(s)
    },
    readiness: {
      summary: 'release deployed and the operator Deployment available',
      conditions: [
        `helm status network-operator -n ${NETWORK_OPERATOR_NAMESPACE} == deployed`,
        `deployment/network-operator -n ${NETWORK_OPERATOR_NAMESPACE} Available`
      ]
    },
    departsFromGuide:
      'helm upgrade --install (re-runnable) with a pinned version, and only when the deployed chart or values differ.'
  }
}
