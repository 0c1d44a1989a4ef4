// Test support for the Azure half: a recording stand-in for the Kubernetes half (ClusterBackend),
// a world factory, and the real SDK clients/credentials pointed at the world by endpoint,
// authorityHost and the world's CA only.
import { ClientAssertionCredential, ClientSecretCredential } from '@azure/identity'
import { ContainerServiceClient } from '@azure/arm-containerservice'
import { FeatureClient } from '@azure/arm-features'
import { ResourceManagementClient } from '@azure/arm-resources'
import type { TokenCredential } from '@azure/core-auth'
import https from 'node:https'
import { SimClock, SimRecorder, type ClusterBackend, type SimPool } from '../../sim/contracts.js'
import { loadScenario, mergeDeep, type Scenario } from '../../sim/scenario.js'
import { createWorldTls, type WorldTls } from '../../sim/tls.js'
import { startAzureSim, type AzureSim } from '../../sim/azure/index.js'

export const ARM_SCOPE = 'https://management.azure.com/.default'

/** Records what the Azure half tells the Kubernetes half. */
export class RecordingBackend implements ClusterBackend {
  readonly pools = new Map<string, SimPool>()
  readonly calls: string[] = []
  addPool(pool: SimPool): void {
    this.calls.push(`add ${pool.name} ${pool.count}`)
    this.pools.set(pool.name, { ...pool })
  }
  removePool(name: string): void {
    this.calls.push(`remove ${name}`)
    this.pools.delete(name)
  }
  setPoolCount(name: string, count: number): void {
    this.calls.push(`count ${name} ${count}`)
    const p = this.pools.get(name)
    if (p) p.count = count
  }
  kubeconfig(kind: 'user' | 'admin' | 'aad'): string {
    return `apiVersion: v1\nkind: Config\ncurrent-context: sim\n# kind: ${kind}\n`
  }
  /** The API server's URL a test gives (none: the cluster's fqdn is an AKS-style name). */
  serverUrl: string | undefined
  apiServerUrl(): string | undefined {
    return this.serverUrl
  }
}

let sharedTls: WorldTls | undefined
export function worldTls(): WorldTls {
  sharedTls ??= createWorldTls()
  return sharedTls
}

export interface TestWorld {
  sim: AzureSim
  scenario: Scenario
  recorder: SimRecorder
  clock: SimClock
  backend: RecordingBackend
  tls: WorldTls
  rg: string
  cluster: string
}

/** A world; `namedCluster: false` leaves the cluster's names unset so they bind lazily. */
export async function startWorld(
  azure: Record<string, unknown> = {},
  timeScale = 0.01,
  namedCluster = true
): Promise<TestWorld> {
  const names = namedCluster ? { cluster: { name: 'aks-rdma', resourceGroup: 'rg-rdma' } } : {}
  const scenario = loadScenario(undefined, { azure: mergeDeep(names, azure) })
  const recorder = new SimRecorder()
  const clock = new SimClock(timeScale)
  const backend = new RecordingBackend()
  const tls = worldTls()
  const sim = await startAzureSim({ scenario, clock, recorder, tls, backend })
  const { resourceGroup, name } = sim.clusterName()
  return { sim, scenario, recorder, clock, backend, tls, rg: resourceGroup, cluster: name }
}

const fast = { retryDelayInMs: 5, maxRetryDelayInMs: 20 }

/** Runs `fn` in a world started as startWorld does, closing the world however `fn` ends. */
export async function withWorld(
  azure: Record<string, unknown>,
  fn: (w: TestWorld) => Promise<void>,
  o: { timeScale?: number; namedCluster?: boolean } = {}
): Promise<void> {
  const w = await startWorld(azure, o.timeScale, o.namedCluster)
  try {
    await fn(w)
  } finally {
    await w.sim.close()
  }
}

/** How the tests' credentials reach the world's Entra: its authority, its CA, no retries. */
const credentialOptions = (w: TestWorld) => ({
  authorityHost: w.sim.authorityHost,
  disableInstanceDiscovery: true,
  tlsOptions: { ca: w.tls.caPem },
  retryOptions: { maxRetries: 0 }
})

/** The scenario's application (client) secret credential, or one with another `secret`. */
export const secretCredential = (w: TestWorld, secret = w.scenario.azure.clientSecret) =>
  new ClientSecretCredential(
    w.scenario.azure.tenantId,
    w.scenario.azure.clientId,
    secret,
    credentialOptions(w)
  )

/** A federated credential of the scenario's application that presents `getAssertion`'s token. */
export const assertionCredential = (w: TestWorld, getAssertion: () => Promise<string>) =>
  new ClientAssertionCredential(
    w.scenario.azure.tenantId,
    w.scenario.azure.clientId,
    getAssertion,
    credentialOptions(w)
  )

/** What @actions/core's getIDToken does, with the world's CA passed explicitly. */
export function fetchIdToken(
  w: TestWorld,
  audience = 'api://AzureADTokenExchange',
  requestToken = w.sim.oidcRequestToken
): Promise<{ status: number; body: any }> {
  const url = `${w.sim.oidcRequestUrl}&audience=${encodeURIComponent(audience)}`
  return new Promise((resolve, reject) => {
    const req = https.get(
      url,
      { ca: w.tls.caPem, headers: { Authorization: `Bearer ${requestToken}` } },
      res => {
        const chunks: Buffer[] = []
        res.on('data', c => chunks.push(c))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(chunks).toString() || 'null')
          })
        )
      }
    )
    req.on('error', reject)
  })
}

export function oidcCredential(w: TestWorld): ClientAssertionCredential {
  return assertionCredential(w, async () => (await fetchIdToken(w)).body.value)
}

export function clients(w: TestWorld, credential: TokenCredential = secretCredential(w), retries = 3) {
  const common = { tlsOptions: { ca: w.tls.caPem }, retryOptions: { ...fast, maxRetries: retries } }
  return {
    aks: new ContainerServiceClient(credential, w.scenario.azure.subscriptionId, {
      endpoint: w.sim.armEndpoint,
      ...common
    }),
    features: new FeatureClient(credential, w.scenario.azure.subscriptionId, {
      endpoint: w.sim.armEndpoint,
      credentialScopes: [ARM_SCOPE],
      ...common
    }),
    resources: new ResourceManagementClient(credential, w.scenario.azure.subscriptionId, {
      endpoint: w.sim.armEndpoint,
      ...common
    })
  }
}

export const sleep = (ms: number) => new Promise(r => setTimeout(r, ms))

/** A pool body like AgentPoolsCreate_Update.json plus gpuProfile.driver None. */
export function ibPool(extra: Record<string, unknown> = {}) {
  return {
    count: 2,
    vmSize: 'Standard_ND96asr_v4',
    mode: 'User' as const,
    osType: 'Linux' as const,
    osSKU: 'Ubuntu2204' as const,
    gpuProfile: { driver: 'None' as const },
    nodeLabels: { 'aks-rdma/pool': 'ib' },
    nodeTaints: ['sku=gpu:NoSchedule'],
    tags: { owner: 'aks-rdma-action' },
    availabilityZones: ['1'],
    ...extra
  }
}
