// Turns the raw inputs (action `INPUT_*` variables or CLI flags) into the one typed Settings
// object. Each input is read and checked by its definition (input-reader.ts over
// input-definitions.ts); here are the settings' sections and the checks that span several inputs.
// Every problem is collected and reported at once. No network access happens here.
import { cloudDefaults } from './clouds.js'
import { parseLabel, parseTaint } from './input-definitions.js'
import { Inputs, type InputReader } from './input-reader.js'
import type {
  AuthType,
  AzureSettings,
  BenchmarkSettings,
  CloudName,
  ClusterSettings,
  Mode,
  NodePoolSettings,
  Settings,
  StackSettings,
  WaitSettings
} from './settings.js'
import { BUSYBOX_IMAGE, defaultImagesLacking, type RunImage } from './images.js'
import { findRdmaVmSize } from './vm-sizes.js'

export type { InputReader } from './input-reader.js'
export { LIST_LIMITS } from './input-reader.js'

export class InputError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `${problems.length} input problem${problems.length === 1 ? '' : 's'}:\n${problems.map(p => `  - ${p}`).join('\n')}`
    )
    this.name = 'InputError'
  }
}

export interface SettingsResult {
  settings: Settings
  warnings: string[]
  /** Values that must be masked in logs (client secret, creds secret). */
  secrets: string[]
}

type Identity = Pick<AzureSettings, 'clientId' | 'tenantId' | 'subscriptionId' | 'clientSecret'>

/** The identity inputs, completed from an azure/login-style `creds` JSON (the inputs win). */
function identity(i: Inputs): Identity {
  const id: Identity = {
    clientId: i.raw('client-id'),
    tenantId: i.raw('tenant-id'),
    subscriptionId: i.raw('subscription-id'),
    clientSecret: i.raw('client-secret')
  }
  if (id.clientSecret) i.secrets.push(id.clientSecret)
  const credsText = i.raw('creds')
  if (!credsText) return id
  i.secrets.push(credsText)
  let creds: Record<string, unknown> | undefined
  try {
    const parsed = JSON.parse(credsText)
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) creds = parsed
  } catch {
    /* reported below without echoing the text */
  }
  if (!creds) {
    i.problem(
      'creds (hidden): not a JSON object; expected {"clientId", "clientSecret", "tenantId", "subscriptionId"} as azure/login takes it'
    )
    return id
  }
  const field = (k: string): string | undefined =>
    typeof creds[k] === 'string' && creds[k] ? (creds[k] as string) : undefined
  const fromCreds: Array<[string, string | undefined, string | undefined]> = [
    ['client-id', id.clientId, field('clientId')],
    ['tenant-id', id.tenantId, field('tenantId')],
    ['subscription-id', id.subscriptionId, field('subscriptionId')]
  ]
  for (const [input, given, inCreds] of fromCreds)
    if (given && inCreds)
      i.warnings.push(`creds: ${input} is also given as an input; the input wins (as azure/login does)`)
  const cs = field('clientSecret')
  if (cs) i.secrets.push(cs)
  if (id.clientSecret && cs) i.warnings.push('creds: client-secret is also given as an input; the input wins')
  const missing = ['clientId', 'tenantId'].filter(
    k => !field(k) && !(k === 'clientId' ? id.clientId : id.tenantId)
  )
  if (missing.length) i.problem(`creds (hidden): missing ${missing.join(', ')}`)
  return {
    clientId: id.clientId ?? field('clientId'),
    tenantId: id.tenantId ?? field('tenantId'),
    subscriptionId: id.subscriptionId ?? field('subscriptionId'),
    clientSecret: id.clientSecret ?? cs
  }
}

function azureSettings(i: Inputs, mode: Mode): AzureSettings {
  const id = identity(i)
  const authType = i.enumOf<AuthType>('auth-type')
  if (id.clientId) i.check('client-id', id.clientId)
  if (id.tenantId) i.check('tenant-id', id.tenantId)
  if (id.subscriptionId) i.check('subscription-id', id.subscriptionId)
  if (mode !== 'plan') {
    if (id.clientId && !id.tenantId)
      i.problem('tenant-id: required when client-id is given (OIDC and client secret need both)')
    if (id.tenantId && !id.clientId && authType !== 'cli')
      i.problem('client-id: required when tenant-id is given')
    if (id.clientSecret && !id.clientId) i.problem('client-secret (hidden): given without client-id')
    if (authType === 'oidc' && (!id.clientId || !id.tenantId))
      i.problem('auth-type "oidc": needs client-id and tenant-id')
    if (authType === 'secret' && (!id.clientId || !id.tenantId || !id.clientSecret))
      i.problem('auth-type "secret": needs client-id, tenant-id and client-secret (or creds)')
    if (!id.subscriptionId) i.problem('subscription-id: required (or in creds) outside plan mode')
  }
  const environment = i.enumOf<CloudName>('environment')
  const cloud = cloudDefaults(environment)
  const endpoint = (name: string, fallback: string): string =>
    i.optional(name)?.replace(/\/+$/, '') ?? fallback
  // The runner passes action.yml's default (the public cloud's audience) even for other clouds.
  const audienceGiven = i.raw('audience')
  const audience =
    !audienceGiven || (audienceGiven === i.def('audience').default && environment !== 'AzureCloud')
      ? cloud.audience
      : audienceGiven
  return {
    authType,
    ...id,
    audience,
    environment,
    armEndpoint: endpoint('arm-endpoint', cloud.armEndpoint),
    authorityHost: endpoint('authority-host', cloud.authorityHost)
  }
}

function clusterSettings(i: Inputs, mode: Mode): ClusterSettings {
  const resourceGroup = i.optional('resource-group')
  if (!resourceGroup && mode !== 'plan') i.problem('resource-group: required')
  const name = i.optional('cluster-name')
  if (!name && mode !== 'plan') i.problem('cluster-name: required')
  const create = i.bool('create-cluster')
  const location = i.optional('location')
  if (create && !location)
    i.problem('location: required with create-cluster: true (the region of the new cluster, e.g. eastus)')
  return {
    resourceGroup: resourceGroup ?? '<resource-group>',
    name: name ?? '<cluster-name>',
    location,
    create,
    kubernetesVersion: i.optional('kubernetes-version'),
    adminCredentials: false,
    exportKubeconfig: i.bool('export-kubeconfig')
  }
}

function nodePoolSettings(i: Inputs, benchmark: boolean): NodePoolSettings {
  const name = i.str('node-pool')
  const vmSize = i.str('vm-size')
  const count = i.int('node-count')
  if (benchmark && count < 2)
    i.problem(
      `node-count "${count}": must be at least 2 when benchmark is true (benchmarks run between two nodes)`
    )
  const zones = i.list('zones')
  if (new Set(zones).size !== zones.length) i.problem('zones: each zone at most once')
  return {
    name,
    vmSize: findRdmaVmSize(vmSize)?.name ?? vmSize,
    count,
    osSku: i.enumOf<NodePoolSettings['osSku']>('os-sku'),
    labels: Object.fromEntries(i.list('node-labels').map(e => parseLabel(e)!)),
    taints: i.list('node-taints').map(e => parseTaint(e)!),
    zones
  }
}

function stackSettings(i: Inputs): StackSettings {
  return {
    networkOperatorVersion: i.str('network-operator-version'),
    gpuOperatorVersion: i.str('gpu-operator-version'),
    docaDriverVersion: i.str('doca-driver-version'),
    helmVersion: i.str('helm-version'),
    rdmaDevicePluginImage: i.str('rdma-device-plugin-image'),
    rdmaResourceName: i.str('rdma-resource-name'),
    rdmaHcaMax: i.int('rdma-hca-max'),
    useHostMofed: i.bool('use-host-mofed'),
    networkOperatorValues: i.yamlFile('network-operator-values'),
    gpuOperatorValues: i.yamlFile('gpu-operator-values'),
    nicClusterPolicy: i.yamlFile('nic-cluster-policy'),
    forceConflicts: i.bool('force-conflicts')
  }
}

function waitSettings(i: Inputs): WaitSettings {
  const timeoutMs = i.duration('timeout')
  const stepTimeoutMs = i.duration('step-timeout')
  if (stepTimeoutMs > timeoutMs)
    i.warnings.push('step-timeout is longer than timeout; the whole-run timeout applies first')
  return {
    timeoutMs,
    stepTimeoutMs,
    retries: i.int('retries'),
    rollout: i.enumOf<WaitSettings['rollout']>('rollout')
  }
}

function benchmarkSettings(i: Inputs, enabled: boolean): BenchmarkSettings {
  return {
    enabled,
    image: i.str('benchmark-image'),
    gpudirect: i.bool('benchmark-gpudirect'),
    scope: i.enumOf<BenchmarkSettings['scope']>('benchmark-scope'),
    minBandwidthRatio: i.number('min-bandwidth-ratio')
  }
}

/**
 * Refuses a size whose CPU architecture a default image of the run is not published for: the
 * kubelet would fail that container on every node (`exec format error`, or `no match for
 * platform in manifest` at pull). An image the user gives is the user's to vouch for.
 */
function imageArchProblems(i: Inputs, vmSize: string, stack: StackSettings, bench: BenchmarkSettings): void {
  const arch = findRdmaVmSize(vmSize)?.arch
  if (!arch) return
  const isDefault = (input: string, value: string) => i.def(input).default === value
  const images: RunImage[] = [
    { image: BUSYBOX_IMAGE, isDefault: true },
    {
      input: 'rdma-device-plugin-image',
      image: stack.rdmaDevicePluginImage,
      isDefault: isDefault('rdma-device-plugin-image', stack.rdmaDevicePluginImage)
    },
    ...(bench.enabled
      ? [
          {
            input: 'benchmark-image',
            image: bench.image,
            isDefault: isDefault('benchmark-image', bench.image)
          }
        ]
      : [])
  ]
  for (const lacking of defaultImagesLacking(arch, images)) {
    const runs = `(its containers would fail with "exec format error")`
    i.problem(
      lacking.input
        ? `${lacking.input} "${lacking.image}": the default image is not published for ${arch}, the CPU architecture of ${vmSize} ${runs}; ` +
            `set ${lacking.input} to an image built for ${arch}${lacking.input === 'benchmark-image' ? ', or benchmark: false' : ''}`
        : `vm-size "${vmSize}": ${lacking.image} is not published for ${arch}, the CPU architecture of its nodes ${runs}`
    )
  }
}

export function readSettings(read: InputReader, env: NodeJS.ProcessEnv = process.env): SettingsResult {
  const i = new Inputs(read)
  const mode = i.enumOf<Mode>('mode')
  const azure = azureSettings(i, mode)
  const cluster = clusterSettings(i, mode)
  const benchmarkEnabled = i.bool('benchmark')
  const nodePool = nodePoolSettings(i, benchmarkEnabled)
  const registerFeature = i.bool('register-feature')
  const stack = stackSettings(i)
  const wait = waitSettings(i)
  const benchmark = benchmarkSettings(i, benchmarkEnabled)
  const failOnDrift = i.bool('fail-on-drift')
  const cleanup = i.enumOf<Settings['cleanup']>('cleanup')
  if (cleanup === 'cluster' && !cluster.create)
    i.problem(
      'cleanup "cluster": only with create-cluster: true (the action deletes only a cluster it created)'
    )
  cluster.adminCredentials = i.bool('admin-credentials')
  imageArchProblems(i, nodePool.vmSize, stack, benchmark)

  if (i.problems.length) throw new InputError(i.problems)

  const runId = env.GITHUB_RUN_ID
    ? `${env.GITHUB_RUN_ID}-${env.GITHUB_RUN_ATTEMPT ?? '1'}`
    : `local-${process.pid}-${Date.now().toString(36)}`
  return {
    warnings: i.warnings,
    secrets: i.secrets,
    settings: {
      mode,
      azure,
      cluster,
      nodePool,
      registerFeature,
      stack,
      wait,
      benchmark,
      failOnDrift,
      cleanup,
      runId
    }
  }
}
