// Shared fixture of the Azure tests: starts the simulated Azure with a recording fake cluster
// backend, trusts the world's CA the way NODE_EXTRA_CA_CERTS would (process-wide default CAs,
// so production code takes no CA option), and builds Settings and capturing logs for it.
import tls from 'node:tls'
import { randomBytes } from 'node:crypto'
import { stringify } from 'yaml'
import { SimClock, SimRecorder, type ClusterBackend, type SimPool } from '../../sim/contracts.js'
import { loadScenario, type Scenario } from '../../sim/scenario.js'
import { createWorldTls } from '../../sim/tls.js'
import { startAzureSim, type AzureSim } from '../../sim/azure/index.js'
import type { Settings } from '../../src/settings/settings.js'
import { captureLog, type CapturedLog } from './capture-log.js'
import { createCredential, type AzureCredential } from '../../src/azure/auth.js'
import { createArmClients, pipelineOptions, type ArmClients } from '../../src/azure/clients.js'

export { captureLog, type CapturedLog }

export class FakeBackend implements ClusterBackend {
  readonly calls: string[] = []
  readonly pools = new Map<string, SimPool>()
  readonly userToken = `kube-user-${randomBytes(12).toString('hex')}`
  readonly adminKey = randomBytes(48).toString('base64')
  readonly adminCert = randomBytes(48).toString('base64')
  addPool(pool: SimPool): void {
    this.calls.push(`addPool ${pool.name} ${pool.count}`)
    this.pools.set(pool.name, pool)
  }
  removePool(name: string): void {
    this.calls.push(`removePool ${name}`)
    this.pools.delete(name)
  }
  setPoolCount(name: string, count: number): void {
    this.calls.push(`setPoolCount ${name} ${count}`)
  }
  kubeconfig(kind: 'user' | 'admin' | 'aad'): string {
    this.calls.push(`kubeconfig ${kind}`)
    const user =
      kind === 'admin'
        ? { 'client-certificate-data': this.adminCert, 'client-key-data': this.adminKey }
        : kind === 'aad'
          ? {
              exec: {
                apiVersion: 'client.authentication.k8s.io/v1beta1',
                command: 'kubelogin',
                args: [
                  'get-token',
                  '--login',
                  'devicecode',
                  '--server-id',
                  '6dae42f8-4368-4678-94ff-3960e28e3630'
                ],
                interactiveMode: 'IfAvailable'
              }
            }
          : { token: this.userToken }
    const userName = `cluster${kind === 'admin' ? 'Admin' : 'User'}_rg_aks`
    return stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        { name: 'aks', cluster: { server: 'https://127.0.0.1:6443', 'certificate-authority-data': 'Q0E=' } }
      ],
      contexts: [{ name: 'aks', context: { cluster: 'aks', user: userName } }],
      'current-context': 'aks',
      users: [{ name: userName, user }]
    })
  }
}

export interface TestWorld {
  sim: AzureSim
  scenario: Scenario
  recorder: SimRecorder
  clock: SimClock
  backend: FakeBackend
  close(): Promise<void>
}

// The process's own trust (Mozilla bundle + NODE_EXTRA_CA_CERTS), not the current default: Jest
// reuses a worker for several files, and an earlier file's world CA must not linger.
const originalCAs = [...tls.getCACertificates('bundled'), ...tls.getCACertificates('extra')]

/**
 * Adds the world's CA to the process's default trust store (what NODE_EXTRA_CA_CERTS does at
 * start-up). Replaces the previous world's: every world's CA has the same subject name, and
 * OpenSSL would pick the wrong one of two.
 */
function trust(caPem: string): void {
  tls.setDefaultCACertificates([...originalCAs, caPem])
}

export async function startWorld(
  overrides: Record<string, unknown> = {},
  timeScale = 0.01
): Promise<TestWorld> {
  const scenario = loadScenario(undefined, overrides)
  const clock = new SimClock(timeScale)
  const recorder = new SimRecorder()
  const worldTls = createWorldTls()
  trust(worldTls.caPem)
  const backend = new FakeBackend()
  const sim = await startAzureSim({ scenario, clock, recorder, tls: worldTls, backend })
  return { sim, scenario, recorder, clock, backend, close: () => sim.close() }
}

/** Settings pointing at the world; `over` patches sections shallowly. */
export function settingsFor(
  world: TestWorld,
  over: { [K in keyof Settings]?: Partial<Settings[K]> } = {}
): Settings {
  const a = world.scenario.azure
  const base: Settings = {
    mode: 'apply',
    planMode: 'apply',
    azure: {
      authType: 'auto',
      clientId: a.clientId,
      tenantId: a.tenantId,
      subscriptionId: a.subscriptionId,
      audience: 'api://AzureADTokenExchange',
      environment: 'AzureCloud',
      armEndpoint: world.sim.armEndpoint,
      authorityHost: world.sim.authorityHost
    },
    cluster: {
      resourceGroup: 'rg-rdma',
      name: 'aks-rdma',
      location: 'eastus',
      create: false,
      adminCredentials: false,
      exportKubeconfig: true
    },
    nodePool: {
      name: 'rdma',
      vmSize: 'Standard_ND96asr_v4',
      count: 2,
      osSku: 'Ubuntu2204',
      labels: { 'rdma.example/ib': 'true' },
      taints: [],
      zones: []
    },
    registerFeature: true,
    stack: {
      networkOperatorVersion: 'v26.4.1',
      gpuOperatorVersion: 'v26.7.0',
      docaDriverVersion: 'doca3.4.1-26.04-1.1.0.0-1',
      rdmaDevicePluginImage: 'ghcr.io/mellanox/k8s-rdma-shared-dev-plugin:v1.5.3',
      rdmaResourceName: 'rdma/ib',
      rdmaHcaMax: 64,
      useHostMofed: false,
      ofedDrainPodSelector: 'aks-rdma-action/rdma-workload=true',
      helmVersion: 'v3.19.0',
      forceConflicts: false,
      allowDowngrade: false,
      adoptReleases: false
    },
    wait: { timeoutMs: 60_000, stepTimeoutMs: 20_000, retries: 3, rollout: 'pipelined' },
    benchmark: { enabled: false, image: 'x', gpudirect: false, scope: 'pair', minBandwidthRatio: 0.8 },
    transport: { check: 'none', image: 'x:1', ucxEnv: 'dynamo' },
    collective: { check: 'none', image: 'x:1' },
    gpudirect: 'peermem',
    failOnDrift: false,
    allPools: false,
    cleanup: 'none',
    runId: `run-${randomBytes(4).toString('hex')}`
  }
  for (const [k, v] of Object.entries(over)) {
    const key = k as keyof Settings
    const cur = base[key]
    ;(base as unknown as Record<string, unknown>)[key] =
      typeof cur === 'object' && cur !== null && !Array.isArray(cur) ? { ...cur, ...(v as object) } : v
  }
  return base
}

/** Fast retry tuning for the ARM clients and the identity pipeline in tests. */
export const FAST = { baseDelayMs: 5, maxDelayMs: 20 }

/** Every issued secret that occurs in `text` (empty when nothing leaked). */
export function leaks(world: TestWorld, text: string, extra: string[] = []): string[] {
  return [...world.sim.issuedSecrets(), ...extra].filter(s => s && s.length >= 8 && text.includes(s))
}

export interface ArmFixture {
  settings: Settings
  clients: ArmClients
  credential: AzureCredential
  log: CapturedLog
  masked: string[]
}

/** Signs in with the world's client secret and builds the real ARM clients (fast retries). */
export function armFixture(
  world: TestWorld,
  over: Parameters<typeof settingsFor>[1] = {},
  retries?: number
): ArmFixture {
  const settings = settingsFor(world, {
    ...over,
    azure: { clientSecret: world.scenario.azure.clientSecret, ...(over.azure ?? {}) }
  })
  const log = captureLog()
  const masked: string[] = []
  const tuning = { retries: retries ?? settings.wait.retries, ...FAST }
  const credential = createCredential(settings.azure, log, {
    env: {},
    mask: s => masked.push(s),
    clientOptions: pipelineOptions(tuning, log)
  })
  const clients = createArmClients(settings.azure, credential.credential, { ...tuning, log })
  return { settings, clients, credential, log, masked }
}
