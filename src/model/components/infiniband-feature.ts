// Component 1: the subscription feature Microsoft.ContainerService/AKSInfinibandSupport, which
// places a pool's machines on the same physical InfiniBand network, then the provider re-registration.
import type { Settings } from '../../settings/settings.js'
import type { ComponentSpec } from '../types.js'
import { API_VERSIONS, FEATURE, featurePath, subscriptionPath } from './azure-paths.js'

export function infinibandFeature(s: Settings): Omit<ComponentSpec, 'enabled' | 'skipReason'> {
  const providerPath = `${subscriptionPath(s)}/providers/${FEATURE.namespace}`
  return {
    name: 'infiniband-feature',
    title: `Feature ${FEATURE.namespace}/${FEATURE.name}`,
    kind: 'azure',
    nodeLevel: false,
    azure: [
      { method: 'GET', path: featurePath(s), apiVersion: API_VERSIONS.features, when: 'always' },
      {
        method: 'POST',
        path: `${featurePath(s)}/register`,
        apiVersion: API_VERSIONS.features,
        when: 'state is not Registered'
      },
      {
        method: 'POST',
        path: `${providerPath}/register`,
        apiVersion: API_VERSIONS.resources,
        when: 'after the feature turned Registered'
      },
      {
        method: 'GET',
        path: providerPath,
        apiVersion: API_VERSIONS.resources,
        when: 'poll until registrationState is Registered'
      }
    ],
    readiness: {
      summary: 'feature state Registered (case-insensitive), then the provider Registered',
      conditions: [
        `features/${FEATURE.name} properties.state == Registered`,
        `providers/${FEATURE.namespace} registrationState == Registered`
      ]
    }
  }
}
