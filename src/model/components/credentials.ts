// Component 4: cluster credentials — a kubeconfig (user, or admin with admin-credentials) written
// with mode 0600 under RUNNER_TEMP; AAD clusters get a bearer token for the AKS server app.
import type { Settings } from '../../settings/settings.js'
import type { ComponentSpec } from '../types.js'
import { API_VERSIONS, clusterPath } from './azure-paths.js'

export function credentialsComponent(s: Settings): Omit<ComponentSpec, 'enabled' | 'skipReason'> {
  const which = s.cluster.adminCredentials ? 'listClusterAdminCredential' : 'listClusterUserCredential'
  return {
    name: 'credentials',
    title: `Cluster credentials (${s.cluster.adminCredentials ? 'admin' : 'user'})`,
    kind: 'credentials',
    nodeLevel: false,
    azure: [
      {
        method: 'POST',
        path: `${clusterPath(s)}/${which}`,
        apiVersion: API_VERSIONS.containerService,
        when: 'always (a read: no change to the cluster)'
      }
    ],
    readiness: {
      summary: 'the API server answers /version with the kubeconfig',
      conditions: ['GET /version succeeds']
    }
  }
}
