// A whole simulated world: one CA, the Azure half (Entra, GitHub OIDC, ARM) and the Kubernetes
// half (API server, nodes, controllers, operators), joined through ClusterBackend, plus the files
// a client needs (CA, admin kubeconfig, `helm` and `az` stand-ins first on PATH — the az stand-in's
// configuration folder has AzureCloud pointing at this world, signed out — a local-action .env).
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
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
import { startKubeSim, type KubeSim } from './kube/index.js'
import { loadScenario, type Scenario } from './scenario.js'
import { createWorldTls, writeCa, type WorldTls } from './tls.js'

export interface WorldOptions {
  scenarioFile?: string
  /** Merged over the file (tests). */
  scenarioOverrides?: unknown
  /** Folder for the world's files; a new temporary one when absent. */
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

/** What a world writes into its folder (besides `sim up`'s `.env` and `pid`). */
export const WORLD_FILES = ['ca.pem', 'kubeconfig', 'bin', 'helm', 'azure'] as const

/**
 * Removes what a world wrote into `dir` (its CA, the admin kubeconfig, the helm and az stand-ins, helm's
 * repositories and az's configuration folder), plus `extra` names, then `dir` itself when nothing else
 * is left in it.
 */
export function removeWorldFiles(dir: string, extra: string[] = []): void {
  for (const name of [...WORLD_FILES, ...extra])
    rmSync(path.join(dir, name), { recursive: true, force: true })
  try {
    if (readdirSync(dir).length === 0) rmSync(dir, { recursive: true, force: true })
  } catch {
    /* already gone */
  }
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`
}

export async function startWorld(o: WorldOptions): Promise<World> {
  const scenario = loadScenario(o.scenarioFile, o.scenarioOverrides)
  const dir = o.dir ?? mkdtempSync(path.join(tmpdir(), 'aks-rdma-sim-'))
  mkdirSync(dir, { recursive: true })
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
  writeFileSync(adminKubeconfigPath, kube.kubeconfig('admin'), { mode: 0o600 })
  const helmBinDir = path.join(dir, 'bin')
  mkdirSync(helmBinDir, { recursive: true })
  const helmPath = path.join(helmBinDir, 'helm')
  writeFileSync(helmPath, `#!/bin/sh\nexec ${o.helmCommand.map(shellQuote).join(' ')} "$@"\n`)
  chmodSync(helmPath, 0o755)
  const azConfigDir = path.join(dir, 'azure')
  if (o.azCommand) {
    const azPath = path.join(helmBinDir, 'az')
    writeFileSync(azPath, `#!/bin/sh\nexec ${o.azCommand.map(shellQuote).join(' ')} "$@"\n`)
    chmodSync(azPath, 0o755)
  }

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
