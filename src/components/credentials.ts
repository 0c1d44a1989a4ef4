// Component 4: the cluster credentials, a kubeconfig written or the given one checked; a read, never drift.
// Docs: docs/design.md#credentials-on-entra-id-clusters, docs/existing-kubeconfig.md.
import { writeClusterCredentials } from '../azure/credentials.js'
import { API_VERSIONS, clusterPath } from '../model/azure-resources.js'
import type { ArmComponent } from './types.js'

export const credentials: ArmComponent = {
  name: 'credentials',
  kind: 'credentials',
  skip: () => undefined,
  // The fetched kubeconfig; a given one is written by the run itself (no Azure call).
  apply: async ({ clients, settings, credential, log, dir }) => {
    const r = await writeClusterCredentials(clients, settings, credential, { log, dir })
    return {
      changed: false,
      action: 'unchanged',
      detail: `${r.kind} kubeconfig written (mode 0600)${r.aad ? ', AAD token for the AKS server app' : ''}`,
      kubeconfig: r
    }
  },
  desired: s => {
    const given = s.cluster.kubeconfig
    // With an Azure sign-in, the kubeconfig must reach the named cluster (azure/api-server.ts).
    if (given)
      return {
        title: `Cluster credentials (the given kubeconfig, context ${given.context ?? 'its current-context'})`,
        azure: [
          {
            method: 'GET',
            path: clusterPath(s),
            apiVersion: API_VERSIONS.containerService,
            when: "first, before any write (a read: the kubeconfig's server must be the cluster's fqdn, privateFQDN or azurePortalFQDN)"
          }
        ]
      }
    const which = s.cluster.adminCredentials ? 'listClusterAdminCredential' : 'listClusterUserCredential'
    return {
      title: `Cluster credentials (${s.cluster.adminCredentials ? 'admin' : 'user'})`,
      azure: [
        {
          method: 'POST',
          path: `${clusterPath(s)}/${which}`,
          apiVersion: API_VERSIONS.containerService,
          when: 'always (a read: no change to the cluster)'
        }
      ]
    }
  },
  readiness: () => ({
    summary: 'the API server answers /version with the kubeconfig',
    conditions: ['GET /version succeeds']
  }),
  drift: async () => []
}
