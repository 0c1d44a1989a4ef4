// Whether a given kubeconfig's server is one of the API server addresses ARM gives for the named
// AKS cluster. Rules: docs/existing-kubeconfig.md ("The kubeconfig must be the named cluster's").
import type { ManagedCluster } from '@azure/arm-containerservice'
import { azTarget, clusterCommand } from '../model/az-commands.js'
import type { Settings } from '../settings/settings.js'
import { oneLine } from '../util/text.js'
import { describeArmError, isArmNotFound } from './arm-errors.js'
import type { ArmClients } from './clients.js'

/** An API server address the cluster answers on, with the ARM property that gives it. */
export interface ClusterAddress {
  /** The property's name in ARM's JSON (`fqdn`, `privateFQDN`, `azurePortalFQDN`). */
  property: string
  /** `host`, or `host:port` when the port is not 443: what two addresses are compared by. */
  address: string
}

/**
 * An API server's address as `host` or `host:port`: the host in lower case without a trailing dot,
 * the port left out when it is 443 (https's, and what AKS serves on). Takes a URL (a kubeconfig's
 * `server`) or a bare host (ARM's FQDNs); never keeps a user, password or path. Undefined when it
 * is not an address.
 */
export function apiServerAddress(server: string): string | undefined {
  const text = server.trim()
  if (!text) return undefined
  let url: URL
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`)
  } catch {
    return undefined
  }
  const host = url.hostname.toLowerCase().replace(/\.$/, '')
  if (!host) return undefined
  const port = url.port || (url.protocol === 'http:' ? '80' : '443')
  return port === '443' ? host : `${host}:${port}`
}

/** The cluster's API server addresses from its ARM resource, in the order ARM's JSON names them. */
export function clusterAddresses(cluster: ManagedCluster): ClusterAddress[] {
  const out: ClusterAddress[] = []
  const add = (property: string, value: string | undefined): void => {
    const address = value ? apiServerAddress(value) : undefined
    if (address && !out.some(a => a.address === address)) out.push({ property, address })
  }
  add('fqdn', cluster.fqdn)
  add('privateFQDN', cluster.privateFqdn)
  add('azurePortalFQDN', cluster.azurePortalFqdn)
  return out
}

/** The kubeconfig's context to check: its name and its cluster's server, as kubeconfig.ts resolves them. */
export interface GivenServer {
  context: string
  server: string
}

/**
 * Reads the named cluster (one GET) and returns the address the kubeconfig's server matches; throws,
 * naming both servers, the inputs at fault and the fixes, when it is another cluster's (or the
 * named cluster does not exist). Called before any write, in Azure or in the cluster.
 */
export async function checkKubeconfigCluster(
  clients: ArmClients,
  settings: Settings,
  given: GivenServer
): Promise<ClusterAddress> {
  const { resourceGroup, name } = settings.cluster
  const context = `context "${oneLine(given.context, 100)}"`
  const named = `cluster ${resourceGroup}/${name} (inputs resource-group, cluster-name)`
  const server = apiServerAddress(given.server)
  const shown = server ? `https://${server}` : 'a server that is not a URL'
  const fixes = [
    `give the kubeconfig of cluster ${resourceGroup}/${name} (${clusterCommand(azTarget(settings), 'get-credentials')} writes one)`,
    `set resource-group and cluster-name to the kubeconfig's cluster`,
    `or leave kubeconfig out, and the action fetches the named cluster's credentials from ARM`
  ].join('; ')
  let cluster: ManagedCluster
  try {
    cluster = await clients.containerService.managedClusters.get(resourceGroup, name)
  } catch (e) {
    if (isArmNotFound(e))
      throw new Error(
        `kubeconfig: ${context} reaches ${shown}, but ${named} does not exist in subscription ${clients.subscriptionId}, so it cannot be that cluster's; ${fixes}`
      )
    throw new Error(
      `kubeconfig: checking that ${context} reaches ${named} failed: reading the cluster: ${describeArmError(e)}`
    )
  }
  const addresses = clusterAddresses(cluster)
  const match = server ? addresses.find(a => a.address === server) : undefined
  if (match) return match
  const theirs = addresses.length
    ? addresses.map(a => `https://${a.address} (${a.property})`).join(', ')
    : 'no API server address (no fqdn or privateFQDN)'
  throw new Error(
    `kubeconfig: ${context} reaches ${shown}, which is not the API server of ${named}: ARM gives ${theirs}. The run would change one cluster's Kubernetes objects and another's Azure resources, so it changes nothing; ${fixes}`
  )
}
