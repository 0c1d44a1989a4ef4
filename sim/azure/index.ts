// The Azure half of the simulated world: Microsoft Entra ID, the GitHub Actions OIDC token
// service and Azure Resource Manager (features, providers, managed clusters, agent pools) behind
// one HTTPS endpoint with the world's certificate. Production code reaches it unchanged through
// `endpoint` / `authorityHost` and a trusted CA; nodes of the pools it provisions appear through
// the ClusterBackend (the Kubernetes half).
import type { ClusterBackend, SimClock, SimRecorder } from '../contracts.js'
import type { Scenario } from '../scenario.js'
import type { WorldTls } from '../tls.js'
import { ArmService } from './arm/router.js'
import { ClusterModel, newETag } from './arm/cluster-model.js'
import type { ArmContext } from './arm/context.js'
import { Operations } from './arm/lro.js'
import { EntraStandIn } from './entra.js'
import { FaultInjector } from './faults.js'
import { OidcStandIn } from './oidc.js'
import { startHttpsServer, stopServer } from './server.js'
import { SimTime } from './sim-time.js'

export { AKS_AAD_SERVER_APP, ARM_AUDIENCES } from './entra.js'
export { DEFAULT_CLUSTER_NAME, DEFAULT_RESOURCE_GROUP } from './arm/cluster-model.js'

export interface AzureSimOptions {
  scenario: Scenario
  clock: SimClock
  recorder: SimRecorder
  tls: WorldTls
  backend: ClusterBackend
}

export interface AzureSim {
  /** `https://127.0.0.1:PORT` */
  armEndpoint: string
  /** `https://127.0.0.1:PORT` (MSAL uses `${authorityHost}/${tenant}`). */
  authorityHost: string
  /** ACTIONS_ID_TOKEN_REQUEST_URL (has a query; @actions/core appends `&audience=`). */
  oidcRequestUrl: string
  /** ACTIONS_ID_TOKEN_REQUEST_TOKEN */
  oidcRequestToken: string
  /** The resource group and name of the world's cluster (as bound so far). */
  clusterName(): { resourceGroup: string; name: string }
  /** Every token/assertion the world issued, the OIDC request token and the client secret (for leak scans). */
  issuedSecrets(): string[]
  /** True when `token` is a valid (simulated-time) access token of this world for `audience`. */
  verifyAccessToken(token: string, audience: string): boolean
  /** The pool as ARM returns it (`{id, name, type, properties}`), or undefined. */
  getPool(name: string): any | undefined
  /** Changes a pool behind the action's back (creating it when absent); `count` also scales the backend. */
  setPool(name: string, patch: Record<string, unknown>): void
  /**
   * Ends the operation running on a pool now (with the scenario's result), as if it had just
   * finished: lets a test decide at which point of a run a create completes. False when none runs.
   */
  finishPoolOperation(name: string): boolean
  /** Current state of a feature flag (no poll counted). */
  featureState(namespace?: string, name?: string): string
  clusterExists(): boolean
  close(): Promise<void>
}

export async function startAzureSim(o: AzureSimOptions): Promise<AzureSim> {
  const { scenario, clock, recorder, tls, backend } = o
  const time = new SimTime(clock)
  let base = ''
  const baseUrl = () => base
  const oidc = new OidcStandIn(scenario, time, baseUrl)
  const entra = new EntraStandIn(scenario, time, oidc, baseUrl)
  const ops = new Operations(time)
  const cluster = new ClusterModel(scenario, backend)
  const ctx: ArmContext = { scenario, time, backend, ops, cluster, base: baseUrl }
  const arm = new ArmService(ctx, entra)
  const faults = new FaultInjector(scenario.azure.faults ?? [], time)
  cluster.seed()
  const { server, base: url } = await startHttpsServer(
    tls,
    { oidc: r => oidc.handle(r), entra: r => entra.handle(r), arm: r => arm.handle(r) },
    faults,
    recorder
  )
  base = url

  return {
    armEndpoint: url,
    authorityHost: url,
    oidcRequestUrl: oidc.requestUrl,
    oidcRequestToken: oidc.requestToken,
    clusterName: () => ({ resourceGroup: cluster.resourceGroup, name: cluster.name }),
    issuedSecrets: () => [...oidc.issued, ...entra.issued, oidc.requestToken, scenario.azure.clientSecret],
    verifyAccessToken: (token, audience) => entra.checkAccessToken(token, [audience]).ok,
    getPool(name) {
      ops.settleAll()
      const rec = cluster.getPool(name)
      return rec ? cluster.poolJson(scenario.azure.subscriptionId, rec) : undefined
    },
    setPool(name, patch) {
      const rec = cluster.getPool(name)
      if (!rec) {
        cluster.putPool(name, {
          ...cluster.defaultPoolProperties({ provisioningState: 'Succeeded' }),
          ...structuredClone(patch)
        })
        return
      }
      const oldCount = rec.properties.count
      Object.assign(rec.properties, structuredClone(patch), { eTag: newETag() })
      if (patch.count !== undefined && patch.count !== oldCount)
        backend.setPoolCount(rec.name, Number(patch.count))
    },
    finishPoolOperation(name) {
      const op = cluster.getPool(name)?.operation
      if (op?.status !== 'InProgress') return false
      ops.finishNow(op)
      return true
    },
    featureState: (namespace = 'Microsoft.ContainerService', name = 'AKSInfinibandSupport') =>
      arm.features.stateOf(namespace, name),
    clusterExists: () => cluster.exists,
    async close() {
      ops.close()
      await stopServer(server)
    }
  }
}
