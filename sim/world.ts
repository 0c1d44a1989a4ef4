// A whole simulated world: one CA, the Azure half (Entra, GitHub OIDC, ARM) and the Kubernetes
// half (API server, nodes, controllers, operators), joined through ClusterBackend, plus the files
// a client needs (CA, admin kubeconfig, `helm` and `az` stand-ins first on PATH — the az stand-in's
// configuration folder has AzureCloud pointing at this world, signed out — a local-action .env).
// Its files are created exclusively (never through a link, never over a file), and its inputs pin
// the helm stand-in by its SHA-256 (helm-sha256) and allow the world's own endpoints.
import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import {
  startAzureSim,
  AKS_AAD_SERVER_APP,
  DEFAULT_CLUSTER_NAME,
  DEFAULT_RESOURCE_GROUP,
  type AzureSim
} from './azure/index.js'
import { AZ_STANDIN_SUBSCRIPTIONS_ENV, AzProfile } from './az/index.js'
import { SimClock, SimRecorder } from './contracts.js'
import { HELM_STANDIN_TIME_SCALE_ENV } from './helm/index.js'
import { SIM_TIME_SCALE_ENV } from '../src/report/sim-time-scale.js'
import { startKubeSim, type KubeSim } from './kube/index.js'
import { loadScenario, type Scenario } from './scenario.js'
import { createWorldTls, writeCa, type WorldTls } from './tls.js'
import { writeNewFile } from './world-dir.js'

export interface WorldOptions {
  scenarioFile?: string
  /** Merged over the file (tests). */
  scenarioOverrides?: unknown
  /** Folder for the world's files (new or empty: see world-dir.ts); a new temporary one when absent. */
  dir?: string
  /** The command line that runs the helm stand-in (e.g. [node, dist/cli.js, '__helm']). */
  helmCommand: string[]
  /** The command line that runs the az stand-in (e.g. [node, dist/cli.js, '__az']); none when absent. */
  azCommand?: string[]
}

export interface World {
  scenario: Scenario
  clock: SimClock
  recorder: SimRecorder
  tls: WorldTls
  azure: AzureSim
  kube: KubeSim
  dir: string
  caPath: string
  adminKubeconfigPath: string
  helmBinDir: string
  /** Environment a client of the world needs (endpoints, CA, OIDC variables, KUBECONFIG, PATH). */
  env(): Record<string, string>
  /** The action inputs that point the action at this world. */
  inputs(): Record<string, string>
  close(): Promise<void>
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`
}

export async function startWorld(o: WorldOptions): Promise<World> {
  const scenario = loadScenario(o.scenarioFile, o.scenarioOverrides)
  const dir = o.dir ?? mkdtempSync(path.join(tmpdir(), 'aks-rdma-sim-'))
  const clock = new SimClock(scenario.kube.timeScale)
  const recorder = new SimRecorder()
  const tls = createWorldTls()
  const caPath = writeCa(tls, dir)

  // The Kubernetes half checks AAD tokens with the Azure half, which is started second.
  const late: { azure?: AzureSim } = {}
  const kube = await startKubeSim({
    scenario,
    clock,
    recorder,
    tls,
    verifyAadToken: (token: string) => late.azure?.verifyAccessToken(token, AKS_AAD_SERVER_APP) ?? false
  })
  const azure = await startAzureSim({ scenario, clock, recorder, tls, backend: kube })
  late.azure = azure

  const adminKubeconfigPath = path.join(dir, 'kubeconfig')
  writeNewFile(adminKubeconfigPath, kube.kubeconfig('admin'))
  const helmBinDir = path.join(dir, 'bin')
  const helmScript = `#!/bin/sh\nexec ${o.helmCommand.map(shellQuote).join(' ')} "$@"\n`
  writeNewFile(path.join(helmBinDir, 'helm'), helmScript, 0o700)
  const helmSha256 = createHash('sha256').update(helmScript).digest('hex')
  const azConfigDir = path.join(dir, 'azure')
  if (o.azCommand)
    writeNewFile(
      path.join(helmBinDir, 'az'),
      `#!/bin/sh\nexec ${o.azCommand.map(shellQuote).join(' ')} "$@"\n`,
      0o700
    )

  const az = azure
  // The az stand-in's AzureCloud is this world (its Entra and ARM), as `az cloud update` would set it.
  new AzProfile({ AZURE_CONFIG_DIR: azConfigDir }).registerCloud({
    name: 'AzureCloud',
    activeDirectory: az.authorityHost,
    resourceManager: `${az.armEndpoint.replace(/\/+$/, '')}/`
  })
  const cluster = () => {
    const bound = az.clusterName()
    return {
      resourceGroup: scenario.azure.cluster.resourceGroup ?? bound.resourceGroup ?? DEFAULT_RESOURCE_GROUP,
      name: scenario.azure.cluster.name ?? bound.name ?? DEFAULT_CLUSTER_NAME
    }
  }
  return {
    scenario,
    clock,
    recorder,
    tls,
    azure: az,
    kube,
    dir,
    caPath,
    adminKubeconfigPath,
    helmBinDir,
    env: () => ({
      // The helm stand-in scales --timeout and its polling by the world's time scale, and keeps
      // its repositories and cache inside the world, never in the user's ~/.config/helm.
      [HELM_STANDIN_TIME_SCALE_ENV]: String(scenario.kube.timeScale),
      // The CLI labels the times of a run against this world (src/report/text.ts).
      [SIM_TIME_SCALE_ENV]: String(scenario.kube.timeScale),
      HELM_CONFIG_HOME: path.join(dir, 'helm', 'config'),
      HELM_CACHE_HOME: path.join(dir, 'helm', 'cache'),
      HELM_DATA_HOME: path.join(dir, 'helm', 'data'),
      NODE_EXTRA_CA_CERTS: caPath,
      ACTIONS_ID_TOKEN_REQUEST_URL: az.oidcRequestUrl,
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: az.oidcRequestToken,
      KUBECONFIG: adminKubeconfigPath,
      AZURE_CONFIG_DIR: azConfigDir,
      [AZ_STANDIN_SUBSCRIPTIONS_ENV]: scenario.azure.subscriptionId,
      PATH: `${helmBinDir}${path.delimiter}${process.env.PATH ?? ''}`
    }),
    inputs: () => ({
      'subscription-id': scenario.azure.subscriptionId,
      'tenant-id': scenario.azure.tenantId,
      'client-id': scenario.azure.clientId,
      'arm-endpoint': az.armEndpoint,
      'authority-host': az.authorityHost,
      // The world's endpoints are on this machine, on ports of their own.
      'allow-custom-endpoints': 'true',
      // The helm stand-in first on PATH is the helm to run (no download).
      'helm-sha256': helmSha256,
      'resource-group': cluster().resourceGroup,
      'cluster-name': cluster().name
    }),
    close: async () => {
      await az.close()
      await kube.close()
      if (!o.dir) rmSync(dir, { recursive: true, force: true })
    }
  }
}
