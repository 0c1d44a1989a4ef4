// ARM resource paths and api-versions of the operations the Azure components perform (the
// api-versions the SDK clients send: arm-containerservice 25.5, arm-features 3.1, arm-resources 8).
import type { Settings } from '../../settings/settings.js'

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
