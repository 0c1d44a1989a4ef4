// Turns the raw inputs (`INPUT_*` variables or CLI flags) into the typed Settings, with the checks that
// span several inputs. Every problem is reported at once, before any network access.
import { cloudDefaults, isCloudEndpoint } from './clouds.js'
import { KubeconfigError, kubeconfigSource, resolveKubeconfig, type KubeconfigSource } from './kubeconfig.js'
import { parseLabel, parseTaint, type InputName } from './input-definitions.js'
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
  TransportSettings,
  CollectiveSettings,
  WaitSettings
} from './settings.js'
import { BUSYBOX_IMAGE, defaultImagesLacking, type RunImage } from './images.js'
import { usesAzure } from './settings.js'
import { findRdmaVmSize } from './vm-sizes.js'
import { helmChecksumVersions } from '../helm/checksums.js'
import { newRunNonce, runIdentity } from './run-identity.js'

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

/**
 * The kubeconfig input, read and narrowed to its context now (a missing file or context is an
 * input problem, before any network call); its credentials join the values to mask.
 */
function kubeconfigSettings(i: Inputs): KubeconfigSource | undefined {
  const value = i.raw('kubeconfig')
  const context = i.raw('kube-context')
  if (!value) {
    if (context) i.problem(`kube-context "${context}": only with kubeconfig (a context of that kubeconfig)`)
    return undefined
  }
  const source = kubeconfigSource(value, context)
  // Base64 on one line: the whole value is a credential. A kubeconfig's own text is masked by its
  // credentials (below), each a value of its own: the runner masks line by line, and a mask of the
  // whole text would match no line.
  if (source.encoded) i.secrets.push(value)
  try {
    i.secrets.push(...resolveKubeconfig(source).secrets)
  } catch (e) {
    if (!(e instanceof KubeconfigError)) throw e
    i.problem(e.message)
  }
  return source
}

function azureSettings(
  i: Inputs,
  mode: Mode,
  kubeconfig: KubeconfigSource | undefined,
  cleanup: Settings['cleanup']
): AzureSettings {
  const id = identity(i)
  const authType = i.enumOf<AuthType>('auth-type')
  if (id.clientId) i.check('client-id', id.clientId)
  if (id.tenantId) i.check('tenant-id', id.tenantId)
  if (id.subscriptionId) i.check('subscription-id', id.subscriptionId)
  if (usesAzure({ mode, cluster: { kubeconfig }, azure: id, cleanup })) {
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
  const allowCustom = i.bool('allow-custom-endpoints')
  const endpoint = (name: InputName, fallback: string): string => {
    const before = i.problems.length
    const given = i.optional(name)?.replace(/\/+$/, '')
    if (given && i.problems.length === before) customEndpoint(i, name, given, allowCustom)
    return given ?? fallback
  }
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

/**
 * An endpoint outside the known Azure clouds (another host, or a port other than 443) gets the
 * run's tokens and OIDC assertion: refused unless allow-custom-endpoints is set, and then a
 * warning naming the host.
 */
function customEndpoint(i: Inputs, name: string, value: string, allowed: boolean): void {
  const url = new URL(value)
  if (isCloudEndpoint(url)) return
  const what = url.port
    ? `port ${url.port} of ${url.hostname} is not an Azure cloud endpoint`
    : `host ${url.hostname} is not an Azure cloud endpoint`
  if (!allowed)
    i.problem(
      `${name} "${url.host}": ${what}; set allow-custom-endpoints: true to send the run's tokens there (Azure Stack, a proxy, the simulator)`
    )
  else
    i.warnings.push(
      `${name}: the run's Azure tokens and OIDC assertion go to ${url.host}, outside the known Azure clouds (allow-custom-endpoints: true)`
    )
}

function clusterSettings(i: Inputs, signsIn: boolean, kubeconfig?: KubeconfigSource): ClusterSettings {
  // Without Azure (plan; verify or drift with a kubeconfig) placeholders name the cluster.
  const resourceGroup = i.optional('resource-group')
  if (!resourceGroup && signsIn) i.problem('resource-group: required')
  const name = i.optional('cluster-name')
  if (!name && signsIn) i.problem('cluster-name: required')
  const create = i.bool('create-cluster')
  if (create && kubeconfig)
    i.problem('kubeconfig: not with create-cluster: true (a cluster this run creates has no kubeconfig yet)')
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
    exportKubeconfig: i.bool('export-kubeconfig'),
    ...(kubeconfig ? { kubeconfig } : {})
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

/** ofed-drain-pod-selector: `all` is no selector (every pod on the node is drained). */
function drainSelector(v: string): string {
  return v === 'all' ? '' : v
}

function stackSettings(i: Inputs): StackSettings {
  return {
    networkOperatorVersion: i.str('network-operator-version'),
    gpuOperatorVersion: i.str('gpu-operator-version'),
    docaDriverVersion: i.str('doca-driver-version'),
    ...helmSettings(i),
    rdmaDevicePluginImage: i.str('rdma-device-plugin-image'),
    rdmaResourceName: i.str('rdma-resource-name'),
    rdmaHcaMax: i.int('rdma-hca-max'),
    useHostMofed: i.bool('use-host-mofed'),
    ofedDrainPodSelector: drainSelector(i.str('ofed-drain-pod-selector')),
    networkOperatorValues: i.yamlFile('network-operator-values'),
    gpuOperatorValues: i.yamlFile('gpu-operator-values'),
    nicClusterPolicy: i.yamlFile('nic-cluster-policy'),
    forceConflicts: i.bool('force-conflicts'),
    allowDowngrade: i.bool('allow-downgrade'),
    adoptReleases: i.bool('adopt-releases')
  }
}

/**
 * The helm to run: a download of helm-version checked against the SHA-256 this action pins for it,
 * or (helm-sha256) the helm on PATH with that hash. A version without a pinned checksum needs the latter.
 */
function helmSettings(i: Inputs): Pick<StackSettings, 'helmVersion' | 'helmSha256'> {
  const helmVersion = i.str('helm-version')
  const helmSha256 = i.optional('helm-sha256')?.toLowerCase()
  const pinned = helmChecksumVersions()
  if (!helmSha256 && /^v3\.\d+\.\d+$/.test(helmVersion) && !pinned.includes(helmVersion))
    i.problem(
      `helm-version "${helmVersion}": this action pins the SHA-256 of ${pinned.join(', ')} only, so it cannot check a download of ${helmVersion}; ` +
        'use one of those, or install that helm on the runner and give its SHA-256 as helm-sha256'
    )
  return { helmVersion, ...(helmSha256 ? { helmSha256 } : {}) }
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

/** The transport check's inputs; it needs two nodes with GPUs (it runs one Dynamo-shaped pod on each). */
function transportSettings(i: Inputs, pool: NodePoolSettings): TransportSettings {
  const check = i.enumOf<TransportSettings['check']>('transport-check')
  const out: TransportSettings = {
    check,
    image: i.str('transport-image'),
    ucxEnv: i.enumOf<TransportSettings['ucxEnv']>('transport-ucx-env')
  }
  if (check === 'none') return out
  if (pool.count < 2)
    i.problem(
      `transport-check "${check}": needs node-count of at least 2 (the check runs one worker pod on each of two nodes), got ${pool.count}`
    )
  const gpus = findRdmaVmSize(pool.vmSize)?.gpus
  if (gpus === 0)
    i.problem(
      `transport-check "${check}": ${pool.vmSize} has no GPUs, and the check moves GPU memory; use transport-check: none on this size`
    )
  return out
}

/**
 * The collective check's inputs: it needs two nodes with NVIDIA GPUs (NCCL; RCCL is AMD's), and
 * the default image has kernels for Hopper and Blackwell only (sm_90, sm_100).
 */
function collectiveSettings(i: Inputs, pool: NodePoolSettings): CollectiveSettings {
  const check = i.enumOf<CollectiveSettings['check']>('collective-check')
  const min = i.optional('collective-min-busbw')
  const out: CollectiveSettings = {
    check,
    image: i.str('collective-image'),
    ...(min !== undefined ? { minBusbwGBps: Number(min) } : {})
  }
  if (check === 'none') return out
  if (pool.count < 2)
    i.problem(
      `collective-check "${check}": needs node-count of at least 2 (the check runs all_reduce_perf across two nodes), got ${pool.count}`
    )
  const size = findRdmaVmSize(pool.vmSize)
  if (size && size.gpus === 0)
    i.problem(
      `collective-check "${check}": ${pool.vmSize} has no GPUs; use collective-check: none on this size`
    )
  else if (size?.gpuVendor === 'AMD')
    i.problem(
      `collective-check "${check}": ${pool.vmSize} has AMD GPUs, which NCCL does not drive (RCCL does); use collective-check: none on this size`
    )
  else if (
    size &&
    !/H100|H200|GB200|GB300/.test(size.gpuModel) &&
    i.def('collective-image').default === out.image
  )
    i.problem(
      `collective-image "${out.image}": the default image is built for Hopper and Blackwell GPUs only (sm_90, sm_100), not the ${size.gpuModel} of ${pool.vmSize}; set collective-image to an nccl-tests image built for it`
    )
  return out
}

/**
 * Refuses a size whose CPU architecture a default image of the run is not published for: the
 * kubelet would fail that container on every node (`exec format error`, or `no match for
 * platform in manifest` at pull). An image the user gives is the user's to vouch for.
 */
/**
 * The node OS a size can run: the arm64 (Grace) sizes, ND GB200 v6 and ND GB300 v6, are offered on
 * Ubuntu 24.04 only (Azure/ai-infrastructure-on-azure; docs/IMAGES.md, "Architectures"), so
 * Ubuntu2204 is refused before any network call. `Ubuntu` follows the cluster's Kubernetes version
 * (24.04 from 1.35), which only the cluster knows: a warning says so.
 */
function osSkuProblems(i: Inputs, pool: NodePoolSettings): void {
  const size = findRdmaVmSize(pool.vmSize)
  if (size?.arch !== 'arm64') return
  if (pool.osSku === 'Ubuntu2204')
    i.problem(
      `os-sku "Ubuntu2204": ${size.name} (arm64, Grace) is offered with Ubuntu 24.04 only; set os-sku to Ubuntu2404`
    )
  else if (pool.osSku === 'Ubuntu')
    i.warnings.push(
      `os-sku "Ubuntu" on ${size.name}: AKS gives Ubuntu 22.04 before Kubernetes 1.35, and ${size.name} runs Ubuntu 24.04 only; set os-sku to Ubuntu2404`
    )
}

function imageArchProblems(
  i: Inputs,
  vmSize: string,
  stack: StackSettings,
  bench: BenchmarkSettings,
  transport: TransportSettings,
  collective: CollectiveSettings
): void {
  const arch = findRdmaVmSize(vmSize)?.arch
  if (!arch) return
  const isDefault = (input: InputName, value: string) => i.def(input).default === value
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
      : []),
    ...(transport.check !== 'none'
      ? [
          {
            input: 'transport-image',
            image: transport.image,
            isDefault: isDefault('transport-image', transport.image)
          }
        ]
      : []),
    ...(collective.check !== 'none'
      ? [
          {
            input: 'collective-image',
            image: collective.image,
            isDefault: isDefault('collective-image', collective.image)
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

export interface ReadSettingsOptions {
  /** The run's nonce: the post step passes the main step's (read back from its saved id). */
  nonce?: string
}

export function readSettings(
  read: InputReader,
  env: NodeJS.ProcessEnv = process.env,
  opts: ReadSettingsOptions = {}
): SettingsResult {
  const i = new Inputs(read)
  const mode = i.enumOf<Mode>('mode')
  const kubeconfig = kubeconfigSettings(i)
  const cleanup = i.enumOf<Settings['cleanup']>('cleanup')
  const azure = azureSettings(i, mode, kubeconfig, cleanup)
  const cluster = clusterSettings(i, usesAzure({ mode, cluster: { kubeconfig }, azure, cleanup }), kubeconfig)
  const benchmarkEnabled = i.bool('benchmark')
  // drift runs no benchmark: its pool may have one node whatever the benchmark input says.
  const nodePool = nodePoolSettings(i, benchmarkEnabled && mode !== 'drift')
  const registerFeature = i.bool('register-feature')
  const stack = stackSettings(i)
  const wait = waitSettings(i)
  const benchmark = benchmarkSettings(i, benchmarkEnabled)
  const transport = transportSettings(i, nodePool)
  const collective = collectiveSettings(i, nodePool)
  const failOnDrift = i.bool('fail-on-drift')
  const allPools = i.bool('all-pools')
  const gpudirect = i.enumOf<Settings['gpudirect']>('gpudirect')
  const planMode = i.enumOf<Settings['planMode']>('plan-mode')
  // Uninstall (and its plan) deletes a cluster only when its created-by tag says the action created it.
  const uninstalling = mode === 'uninstall' || (mode === 'plan' && planMode === 'uninstall')
  if (cleanup === 'cluster' && !cluster.create && !uninstalling)
    i.problem(
      'cleanup "cluster": only with create-cluster: true (the action deletes only a cluster it created)'
    )
  cluster.adminCredentials = i.bool('admin-credentials')
  const jobKey = i.optional('job-key')
  imageArchProblems(i, nodePool.vmSize, stack, benchmark, transport, collective)
  osSkuProblems(i, nodePool)

  if (i.problems.length) throw new InputError(i.problems)

  const runId = runIdentity(env, jobKey, opts.nonce ?? newRunNonce())
  return {
    warnings: i.warnings,
    secrets: i.secrets,
    settings: {
      mode,
      planMode,
      azure,
      cluster,
      nodePool,
      registerFeature,
      stack,
      wait,
      benchmark,
      gpudirect,
      transport,
      collective,
      failOnDrift,
      allPools,
      cleanup,
      runId
    }
  }
}

/** The inputs the post step's cleanup needs, read one by one (readCleanupInputs). */
export interface CleanupInputs {
  resourceGroup?: string
  cluster?: string
  nodePool?: string
  /** The identity recomputed from this job's environment, the job-key input and the saved nonce. */
  runId: string
  clientSecret?: string
  secrets: string[]
}

/**
 * What the post step reads of the inputs when the whole set no longer reads (e.g. a values file a
 * later step removed): only what its cleanup needs — the names its saved creates must match, the
 * job-key of the identity, the sign-in secret — each on its own, whatever the others hold. Never throws.
 */
export function readCleanupInputs(read: InputReader, env: NodeJS.ProcessEnv, nonce: string): CleanupInputs {
  const i = new Inputs(read)
  const id = identity(i)
  const nodePool = i.str('node-pool')
  return {
    resourceGroup: i.optional('resource-group'),
    cluster: i.optional('cluster-name'),
    nodePool: nodePool || undefined,
    runId: runIdentity(env, i.optional('job-key'), nonce),
    clientSecret: id.clientSecret,
    secrets: i.secrets
  }
}
