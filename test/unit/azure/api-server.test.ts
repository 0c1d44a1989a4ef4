// Whether a given kubeconfig's server is the named AKS cluster's, over an in-memory ARM: addresses
// compared by host (any case, a trailing dot, port 443 implied) and port; the cluster's fqdn,
// privateFQDN (a private cluster, API server VNet integration, a custom subdomain) and
// azurePortalFQDN all accepted; another server, a missing cluster or one without an address refused
// with both servers, the inputs at fault and the fixes; never a user, password or path in a message.
import { describe, expect, it } from '@jest/globals'
import type { ManagedCluster } from '@azure/arm-containerservice'
import { apiServerAddress, checkKubeconfigCluster, clusterAddresses } from '../../../src/azure/api-server.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'
import { armFail } from '../../support/arm-errors.js'
import { armResource } from '../../support/arm-resource.js'
import { useFixedNow } from '../../support/fixed-now.js'

const now = useFixedNow(1_000_000)
const settings = () => readSettings(reader(VALID_APPLY), { GITHUB_RUN_ID: '5' }).settings

const PUBLIC = 'aks1-dns-1a2b3c4d.hcp.eastus.azmk8s.io'
const PRIVATE = 'aks1-dns-9f8e7d6c.5e2d1b3a-0000-4000-8000-000000000000.privatelink.eastus.azmk8s.io'
const PORTAL = 'aks1-dns-1a2b3c4d.portal.hcp.eastus.azmk8s.io'

const check = (cluster: ManagedCluster | Error, server: string, context = 'aks1') => {
  const arm = armResource<ManagedCluster>({ group: 'managedClusters', clock: now, resource: cluster })
  return {
    arm,
    result: checkKubeconfigCluster(arm.clients, settings(), { context, server })
  }
}

describe('an API server address', () => {
  /** The server as a kubeconfig may write it, and its address. */
  const ADDRESSES: Record<string, string> = {
    // the host in lower case, without a trailing dot, port 443 left out
    'https://AKS1-DNS.HCP.EastUS.azmk8s.io:443': 'aks1-dns.hcp.eastus.azmk8s.io',
    'https://aks1-dns.hcp.eastus.azmk8s.io.': 'aks1-dns.hcp.eastus.azmk8s.io',
    'aks1-dns.hcp.eastus.azmk8s.io': 'aks1-dns.hcp.eastus.azmk8s.io',
    'https://aks1-dns.hcp.eastus.azmk8s.io:443/': 'aks1-dns.hcp.eastus.azmk8s.io',
    // any other port kept, the scheme’s default included
    'https://127.0.0.1:6443': '127.0.0.1:6443',
    '127.0.0.1:6443': '127.0.0.1:6443',
    'http://aks1.example.com': 'aks1.example.com:80',
    'https://[::1]:8443': '[::1]:8443'
  }
  it.each(Object.entries(ADDRESSES))('%s is %s', (server, address) => {
    expect(apiServerAddress(server)).toBe(address)
  })

  it('never keeps a user, a password or a path', () => {
    expect(apiServerAddress('https://me:s3cret@Proxy.example.com/k8s/clusters/c-1')).toBe('proxy.example.com')
  })

  it.each(['', '   ', 'https://', 'https://a b'])('is undefined for what is not an address: %j', server => {
    expect(apiServerAddress(server)).toBeUndefined()
  })
})

describe('a cluster’s addresses', () => {
  it('are its fqdn, privateFQDN and azurePortalFQDN, each once, in that order', () => {
    expect(
      clusterAddresses({ location: 'eastus', fqdn: PUBLIC, privateFqdn: PRIVATE, azurePortalFqdn: PORTAL })
    ).toEqual([
      { property: 'fqdn', address: PUBLIC },
      { property: 'privateFQDN', address: PRIVATE },
      { property: 'azurePortalFQDN', address: PORTAL }
    ])
    expect(
      clusterAddresses({ location: 'eastus', privateFqdn: PRIVATE, fqdn: PRIVATE.toUpperCase() })
    ).toEqual([{ property: 'fqdn', address: PRIVATE }])
    expect(clusterAddresses({ location: 'eastus' })).toEqual([])
  })
})

describe('the kubeconfig’s server against the named cluster', () => {
  it('matches its fqdn, as ARM’s kubeconfig names it (port 443), with one GET', async () => {
    const { arm, result } = check(
      { location: 'eastus', fqdn: PUBLIC },
      `https://${PUBLIC.toUpperCase()}.:443`
    )
    await expect(result).resolves.toEqual({ property: 'fqdn', address: PUBLIC })
    expect(arm.calls).toEqual(['GET rg/aks1'])
  })

  it('matches a private cluster’s privateFQDN (private link, API server VNet integration, fqdnSubdomain)', async () => {
    const cluster: ManagedCluster = { location: 'eastus', fqdnSubdomain: 'aks1-sub', privateFqdn: PRIVATE }
    await expect(check(cluster, `https://${PRIVATE}:443`).result).resolves.toEqual({
      property: 'privateFQDN',
      address: PRIVATE
    })
    const both: ManagedCluster = { location: 'eastus', fqdn: PUBLIC, privateFqdn: PRIVATE }
    await expect(check(both, `https://${PRIVATE}`).result).resolves.toMatchObject({ property: 'privateFQDN' })
    await expect(check(both, `https://${PUBLIC}`).result).resolves.toMatchObject({ property: 'fqdn' })
  })

  it('matches the portal’s FQDN, another name of the same API server', async () => {
    const cluster: ManagedCluster = { location: 'eastus', fqdn: PUBLIC, azurePortalFqdn: PORTAL }
    await expect(check(cluster, `https://${PORTAL}:443`).result).resolves.toMatchObject({
      property: 'azurePortalFQDN'
    })
  })

  it('refuses another cluster’s server, naming both servers, the inputs and the fixes', async () => {
    const other = 'https://aks2-dns-55aa66bb.hcp.westus.azmk8s.io:443'
    const { result } = check({ location: 'eastus', fqdn: PUBLIC, privateFqdn: PRIVATE }, other, 'prod')
    const e = (await result.catch(x => x)) as Error
    expect(e).toBeInstanceOf(Error)
    expect(e.message).toContain(
      'kubeconfig: context "prod" reaches https://aks2-dns-55aa66bb.hcp.westus.azmk8s.io,'
    )
    expect(e.message).toContain('not the API server of cluster rg/aks1 (inputs resource-group, cluster-name)')
    expect(e.message).toContain(`ARM gives https://${PUBLIC} (fqdn), https://${PRIVATE} (privateFQDN)`)
    expect(e.message).toContain(
      `az aks get-credentials --subscription ${settings().azure.subscriptionId} --resource-group rg --name aks1`
    )
    expect(e.message).toContain('leave kubeconfig out')
  })

  it('refuses the right host on another port: AKS serves only on 443', async () => {
    const e = (await check({ location: 'eastus', fqdn: PUBLIC }, `https://${PUBLIC}:6443`).result.catch(
      x => x
    )) as Error
    expect(e.message).toContain(`reaches https://${PUBLIC}:6443, which is not the API server`)
  })

  it('refuses a cluster without an address, and says so', async () => {
    const e = (await check({ location: 'eastus' }, `https://${PUBLIC}`).result.catch(x => x)) as Error
    expect(e.message).toContain('ARM gives no API server address (no fqdn or privateFQDN)')
  })

  it('refuses when the named cluster does not exist: it cannot be the kubeconfig’s', async () => {
    const missing = armFail(404, 'ResourceNotFound', 'not found')
    const e = (await check(missing, `https://${PUBLIC}`).result.catch(x => x)) as Error
    expect(e.message).toContain(
      `reaches https://${PUBLIC}, but cluster rg/aks1 (inputs resource-group, cluster-name) does not exist`
    )
  })

  it('says the read failed, and why, when ARM does not answer', async () => {
    const denied = armFail(403, 'AuthorizationFailed', 'no read on managedClusters')
    const e = (await check(denied, `https://${PUBLIC}`).result.catch(x => x)) as Error
    expect(e.message).toMatch(
      /^kubeconfig: checking that context "aks1" reaches cluster rg\/aks1 .* failed: reading the cluster: .*AuthorizationFailed/
    )
  })

  it('quotes neither a password nor a path of the server, nor a context’s line breaks', async () => {
    const server = 'https://me:s3cret@proxy.example.com/k8s/clusters/c-1'
    const e = (await check({ location: 'eastus', fqdn: PUBLIC }, server, 'a\n::warning::x').result.catch(
      x => x
    )) as Error
    expect(e.message).not.toContain('s3cret')
    expect(e.message).not.toContain('/k8s/clusters')
    expect(e.message).not.toContain('\n')
    expect(e.message).toContain('reaches https://proxy.example.com,')
  })
})
