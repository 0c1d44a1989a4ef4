// A cluster that does not exist where the run needs one (a pool GET or a credential list that ARM
// answers 404 for the cluster itself): said as such, with the fix, never as an absent pool.
// See docs/troubleshooting.md.
import type { Settings } from '../settings/settings.js'
import { armError, isArmNotFound } from './arm-errors.js'

/** A cluster that does not exist, where the run needs one: what is true and what to do. */
export class ClusterNotFoundError extends Error {
  constructor(settings: Settings, subscriptionId: string | undefined) {
    const { resourceGroup, name } = settings.cluster
    const create =
      settings.mode === 'apply'
        ? 'to create it, set create-cluster: true with a location (CLI: --create-cluster true --location eastus)'
        : 'apply with create-cluster: true creates it'
    super(
      `cluster ${resourceGroup}/${name} does not exist${subscriptionId ? ` in subscription ${subscriptionId}` : ''}; nothing was changed. ` +
        `Check resource-group and cluster-name (\`az aks list --resource-group ${resourceGroup} --output table\` lists the clusters there), or ${create}`
    )
    this.name = 'ClusterNotFoundError'
  }
}

/**
 * Whether an ARM 404 on the cluster or one of its children (a pool, a credential list) says the
 * cluster itself is missing: ParentResourceNotFound, or ResourceNotFound naming the managed cluster.
 */
export function isClusterNotFound(e: unknown, clusterName: string): boolean {
  if (!isArmNotFound(e)) return false
  const { code, message } = armError(e)
  if (/^ParentResourceNotFound$/i.test(code)) return true
  if (!/^ResourceNotFound$/i.test(code)) return false
  const named = new RegExp(`managedClusters/${clusterName.replace(/[^A-Za-z0-9_-]/g, '.')}'`, 'i')
  return named.test(message) && !/agentPools/i.test(message)
}
