// Turns the raw inputs (action `INPUT_*` variables or CLI flags) into the one typed Settings
// object. Every problem is collected and reported at once, each naming the input, the value
// given (never a secret's value) and what is allowed. No network access happens here.
import { existsSync, readFileSync } from 'node:fs'
import { parse as parseYaml } from 'yaml'
import { parseDuration } from '../util/duration.js'
import { INPUTS, type InputDefinition } from './input-definitions.js'
import type { AuthType, CloudName, NodeTaint, Settings } from './settings.js'
import { findRdmaVmSize, hasRdmaMarker } from './vm-sizes.js'
import { cloudDefaults } from './clouds.js'

export type InputReader = (name: string) => string | undefined

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

const POOL_RE = /^[a-z][a-z0-9]{0,11}$/
const CLUSTER_RE = /^[a-zA-Z0-9]$|^[a-zA-Z0-9][-_a-zA-Z0-9]{0,61}[a-zA-Z0-9]$/
const RG_RE = /^[-\w._()]{1,90}$/
const GUID_RE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/
const CHART_VERSION_RE = /^v?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/
const DOCA_VERSION_RE = /^[0-9A-Za-z][0-9A-Za-z._-]{0,127}$/
// name[:tag][@digest] with an optional registry host (RFC-ish, as the Docker reference grammar).
const IMAGE_RE =
  /^(?:(?:[a-zA-Z0-9-]+\.)*[a-zA-Z0-9-]+(?::\d+)?\/)?[a-z0-9]+(?:[._-][a-z0-9]+)*(?:\/[a-z0-9]+(?:[._-][a-z0-9]+)*)*(?::[\w][\w.-]{0,127})?(?:@sha256:[a-f0-9]{64})?$/
const LABEL_KEY_RE =
  /^(?:[a-z0-9]([-a-z0-9]*[a-z0-9])?(?:\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/
const LABEL_VALUE_RE = /^(?:[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$/
// The part after `rdma/` of an extended resource name: a DNS-1123-like qualified name part.
const RESOURCE_NAME_RE = /^[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/
const ZONE_RE = /^[1-9]$/
const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const

function describeAllowed(def: InputDefinition): string {
  return def.values ? `one of ${def.values.join(', ')}` : def.kind
}

export function readSettings(read: InputReader, env: NodeJS.ProcessEnv = process.env): SettingsResult {
  const problems: string[] = []
  const warnings: string[] = []
  const secrets: string[] = []
  const defs = new Map(INPUTS.map(d => [d.name, d]))

  const raw = (name: string): string | undefined => {
    const v = read(name)?.trim()
    return v === undefined || v === '' ? undefined : v
  }
  const str = (name: string): string | undefined => raw(name) ?? defs.get(name)?.default
  const shown = (name: string, v: string): string =>
    defs.get(name)?.kind === 'secret' ? '(hidden)' : JSON.stringify(v)

  const enumOf = <T extends string>(name: string): T => {
    const def = defs.get(name)!
    const v = str(name)!
    const match = def.values!.find(a => a.toLowerCase() === v.toLowerCase())
    if (!match) problems.push(`${name} ${shown(name, v)}: must be ${describeAllowed(def)}`)
    return (match ?? def.default) as T
  }
  const bool = (name: string): boolean => {
    const v = str(name)!
    if (/^(true|yes|1|on)$/i.test(v)) return true
    if (/^(false|no|0|off)$/i.test(v)) return false
    problems.push(`${name} ${shown(name, v)}: must be true or false`)
    return defs.get(name)!.default === 'true'
  }
  const int = (name: string, min: number, max: number): number => {
    const v = str(name)!
    if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) {
      problems.push(`${name} ${shown(name, v)}: must be an integer from ${min} to ${max}`)
      return Number(defs.get(name)!.default)
    }
    return Number(v)
  }
  const duration = (name: string): number => {
    const v = str(name)!
    const ms = parseDuration(v)
    if (ms === undefined || ms <= 0) {
      problems.push(`${name} ${shown(name, v)}: must be a duration such as 90s, 25m, 1h or 1h30m`)
      return parseDuration(defs.get(name)!.default!)!
    }
    return ms
  }
  const yamlFile = (name: string, expect: string): Record<string, unknown> | undefined => {
    const file = raw(name)
    if (!file) return undefined
    if (!existsSync(file)) {
      problems.push(`${name} ${JSON.stringify(file)}: file not found (give a path relative to the workspace)`)
      return undefined
    }
    try {
      const doc = parseYaml(readFileSync(file, 'utf8'))
      if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
        problems.push(`${name} ${JSON.stringify(file)}: must be a YAML mapping (${expect})`)
        return undefined
      }
      return doc as Record<string, unknown>
    } catch (e) {
      problems.push(`${name} ${JSON.stringify(file)}: not valid YAML: ${(e as Error).message.split('\n')[0]}`)
      return undefined
    }
  }

  // Unknown enum-like and structural inputs.
  const mode = enumOf<Settings['mode']>('mode')

  // --- Azure auth ---------------------------------------------------------------------------
  let clientId = raw('client-id')
  let tenantId = raw('tenant-id')
  let subscriptionId = raw('subscription-id')
  let clientSecret = raw('client-secret')
  if (clientSecret) secrets.push(clientSecret)
  const credsText = raw('creds')
  if (credsText) {
    secrets.push(credsText)
    let creds: Record<string, unknown> | undefined
    try {
      const parsed = JSON.parse(credsText)
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) creds = parsed
    } catch {
      /* reported below without echoing the text */
    }
    if (!creds) {
      problems.push(
        'creds (hidden): not a JSON object; expected {"clientId", "clientSecret", "tenantId", "subscriptionId"} as azure/login takes it'
      )
    } else {
      const field = (k: string): string | undefined =>
        typeof creds![k] === 'string' && creds![k] ? (creds![k] as string) : undefined
      const fromCreds: Array<[string, string | undefined, string | undefined]> = [
        ['client-id', clientId, field('clientId')],
        ['tenant-id', tenantId, field('tenantId')],
        ['subscription-id', subscriptionId, field('subscriptionId')]
      ]
      for (const [input, given, inCreds] of fromCreds)
        if (given && inCreds)
          warnings.push(`creds: ${input} is also given as an input; the input wins (as azure/login does)`)
      clientId = clientId ?? field('clientId')
      tenantId = tenantId ?? field('tenantId')
      subscriptionId = subscriptionId ?? field('subscriptionId')
      const cs = field('clientSecret')
      if (cs) secrets.push(cs)
      if (clientSecret && cs) warnings.push('creds: client-secret is also given as an input; the input wins')
      clientSecret = clientSecret ?? cs
      const missing = ['clientId', 'tenantId'].filter(
        k => !field(k) && !(k === 'clientId' ? clientId : tenantId)
      )
      if (missing.length) problems.push(`creds (hidden): missing ${missing.join(', ')}`)
    }
  }
  const authType = enumOf<AuthType>('auth-type')
  for (const [name, v] of [
    ['client-id', clientId],
    ['tenant-id', tenantId],
    ['subscription-id', subscriptionId]
  ] as const) {
    if (v && !GUID_RE.test(v))
      problems.push(`${name} ${JSON.stringify(v)}: must be a GUID (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)`)
  }
  if (mode !== 'plan') {
    if (clientId && !tenantId)
      problems.push('tenant-id: required when client-id is given (OIDC and client secret need both)')
    if (tenantId && !clientId && authType !== 'cli')
      problems.push('client-id: required when tenant-id is given')
    if (clientSecret && !clientId) problems.push('client-secret (hidden): given without client-id')
    if (authType === 'oidc' && (!clientId || !tenantId))
      problems.push('auth-type "oidc": needs client-id and tenant-id')
    if (authType === 'secret' && (!clientId || !tenantId || !clientSecret))
      problems.push('auth-type "secret": needs client-id, tenant-id and client-secret (or creds)')
    if (!subscriptionId) problems.push('subscription-id: required (or in creds) outside plan mode')
  }
  const environment = enumOf<CloudName>('environment')
  const cloud = cloudDefaults(environment)
  const urlInput = (name: string, fallback: string): string => {
    const v = raw(name)
    if (!v) return fallback
    try {
      const u = new URL(v)
      if (u.protocol !== 'https:')
        problems.push(
          `${name} ${JSON.stringify(v)}: must be an https URL (Azure SDKs refuse bearer tokens over http)`
        )
    } catch {
      problems.push(`${name} ${JSON.stringify(v)}: not a URL (e.g. https://management.azure.com)`)
    }
    return v.replace(/\/+$/, '')
  }
  const armEndpoint = urlInput('arm-endpoint', cloud.armEndpoint)
  const authorityHost = urlInput('authority-host', cloud.authorityHost)
  // The runner passes action.yml's default (the public cloud's audience) even for other clouds.
  const audienceGiven = raw('audience')
  const audience =
    !audienceGiven || (audienceGiven === defs.get('audience')!.default && environment !== 'AzureCloud')
      ? cloud.audience
      : audienceGiven

  // --- Cluster ------------------------------------------------------------------------------
  const resourceGroup = raw('resource-group')
  const clusterName = raw('cluster-name')
  if (!resourceGroup && mode !== 'plan') problems.push('resource-group: required')
  else if (resourceGroup && !RG_RE.test(resourceGroup))
    problems.push(
      `resource-group ${JSON.stringify(resourceGroup)}: 1-90 letters, digits, underscores, hyphens, periods and parentheses`
    )
  if (!clusterName && mode !== 'plan') problems.push('cluster-name: required')
  else if (clusterName && !CLUSTER_RE.test(clusterName))
    problems.push(
      `cluster-name ${JSON.stringify(clusterName)}: must match ${CLUSTER_RE.source} (1-63 letters, digits, - and _, starting and ending with a letter or digit)`
    )
  const createCluster = bool('create-cluster')
  const location = raw('location')
  if (createCluster && !location)
    problems.push('location: required with create-cluster: true (the region of the new cluster, e.g. eastus)')
  if (location && !/^[a-z0-9]+$/i.test(location))
    problems.push(`location ${JSON.stringify(location)}: a region name such as eastus or westeurope`)
  const kubernetesVersion = raw('kubernetes-version')
  if (kubernetesVersion && !/^\d+\.\d+(?:\.\d+)?$/.test(kubernetesVersion))
    problems.push(`kubernetes-version ${JSON.stringify(kubernetesVersion)}: must look like 1.33 or 1.33.2`)

  // --- Node pool ----------------------------------------------------------------------------
  const poolName = str('node-pool')!
  if (!POOL_RE.test(poolName))
    problems.push(
      `node-pool ${JSON.stringify(poolName)}: must match ^[a-z][a-z0-9]{0,11}$ (1-12 lowercase letters and digits, starting with a letter)`
    )
  const vmSize = str('vm-size')!
  const knownSize = findRdmaVmSize(vmSize)
  if (!knownSize) {
    if (hasRdmaMarker(vmSize))
      warnings.push(
        `vm-size ${JSON.stringify(vmSize)}: RDMA-marked but not in the action's table of InfiniBand sizes; link rate unknown (benchmark ratios use the probed rate)`
      )
    else
      problems.push(
        `vm-size ${JSON.stringify(vmSize)}: not an InfiniBand (RDMA) size: Azure marks them with an "r" among the feature letters (e.g. Standard_ND96isr_H100_v5, Standard_ND96asr_v4, Standard_HB120rs_v3)`
      )
  }
  const benchmarkEnabled = bool('benchmark')
  const nodeCount = int('node-count', 1, 1000)
  if (benchmarkEnabled && nodeCount < 2)
    problems.push(
      `node-count "${nodeCount}": must be at least 2 when benchmark is true (benchmarks run between two nodes)`
    )
  const osSku = enumOf<Settings['nodePool']['osSku']>('os-sku')

  const labels: Record<string, string> = {}
  for (const pair of (raw('node-labels') ?? '')
    .split(',')
    .map(s => s.trim())
    .filter(Boolean)) {
    const [k, v = '', extra] = pair.split('=')
    if (extra !== undefined || !pair.includes('=') || !LABEL_KEY_RE.test(k) || !LABEL_VALUE_RE.test(v))
      problems.push(
        `node-labels ${JSON.stringify(pair)}: each entry must be key=value with a valid Kubernetes label key and value`
      )
    else labels[k] = v
  }
  const taints: NodeTaint[] = []
  for (const t of (raw('node-taints') ?? '')
    .split(',')
    .map(s => s.trim())
    .filter(Boolean)) {
    const m = /^([^=:]+)(?:=([^:]*))?:(\w+)$/.exec(t)
    if (
      !m ||
      !LABEL_KEY_RE.test(m[1]) ||
      !LABEL_VALUE_RE.test(m[2] ?? '') ||
      !(TAINT_EFFECTS as readonly string[]).includes(m[3])
    )
      problems.push(
        `node-taints ${JSON.stringify(t)}: each entry must be key=value:Effect with Effect one of ${TAINT_EFFECTS.join(', ')}`
      )
    else taints.push({ key: m[1], value: m[2] ?? '', effect: m[3] as NodeTaint['effect'] })
  }
  const zones = (raw('zones') ?? '')
    .split(',')
    .map(s => s.trim())
    .filter(Boolean)
  for (const z of zones)
    if (!ZONE_RE.test(z)) problems.push(`zones ${JSON.stringify(z)}: zones are numbers such as 1, 2 or 3`)

  // --- Stack --------------------------------------------------------------------------------
  const version = (name: string, re: RegExp, example: string): string => {
    const v = str(name)!
    if (!re.test(v))
      problems.push(`${name} ${JSON.stringify(v)}: must be a pinned version such as ${example}`)
    return v
  }
  const networkOperatorVersion = version('network-operator-version', CHART_VERSION_RE, 'v26.1.0')
  const gpuOperatorVersion = version('gpu-operator-version', CHART_VERSION_RE, 'v26.3.3')
  const docaDriverVersion = version('doca-driver-version', DOCA_VERSION_RE, 'doca3.2.0-25.10-1.2.8.0-2')
  const helmVersion = version('helm-version', /^v3\.\d+\.\d+$/, 'v3.19.0 (helm 3)')
  const image = (name: string): string => {
    const v = str(name)!
    if (!IMAGE_RE.test(v) || !(/:[\w][\w.-]*$/.test(v) || v.includes('@sha256:')))
      problems.push(
        `${name} ${JSON.stringify(v)}: must be an image reference pinned by tag or digest, e.g. ghcr.io/mellanox/k8s-rdma-shared-dev-plugin:v1.5.3`
      )
    else if (/:latest$/.test(v) && raw(name) !== undefined)
      warnings.push(
        `${name} ${JSON.stringify(v)}: "latest" is not a pinned version; runs may differ over time`
      )
    return v
  }
  const rdmaDevicePluginImage = image('rdma-device-plugin-image')
  const rdmaResourceName = str('rdma-resource-name')!
  if (!RESOURCE_NAME_RE.test(rdmaResourceName))
    problems.push(
      `rdma-resource-name ${JSON.stringify(rdmaResourceName)}: must be a valid extended resource name part (letters, digits, -, _ and ., up to 63, e.g. hca_shared_devices_a); nodes advertise rdma/<name>`
    )
  const rdmaHcaMax = int('rdma-hca-max', 1, 100000)
  const useHostMofed = bool('use-host-mofed')
  if (useHostMofed)
    warnings.push(
      'use-host-mofed: true tells the GPU Operator the OFED driver is installed on the host; here the Network Operator installs it, so nvidia-peermem will not wait for it (NVIDIA advises false)'
    )
  const networkOperatorValues = yamlFile('network-operator-values', 'helm values')
  const gpuOperatorValues = yamlFile('gpu-operator-values', 'helm values')
  const nicClusterPolicy = yamlFile('nic-cluster-policy', 'a NicClusterPolicy or its spec')
  const forceConflicts = bool('force-conflicts')

  // --- Waiting, benchmark, cleanup -------------------------------------------------------------
  const timeoutMs = duration('timeout')
  const stepTimeoutMs = duration('step-timeout')
  if (stepTimeoutMs > timeoutMs)
    warnings.push('step-timeout is longer than timeout; the whole-run timeout applies first')
  const retries = int('retries', 0, 20)
  const rollout = enumOf<Settings['wait']['rollout']>('rollout')
  const benchmarkImage = image('benchmark-image')
  const gpudirect = bool('benchmark-gpudirect')
  const scope = enumOf<Settings['benchmark']['scope']>('benchmark-scope')
  const ratioText = str('min-bandwidth-ratio')!
  const minBandwidthRatio = Number(ratioText)
  if (!/^\d*\.?\d+$/.test(ratioText) || minBandwidthRatio <= 0 || minBandwidthRatio > 1)
    problems.push(
      `min-bandwidth-ratio ${JSON.stringify(ratioText)}: must be a number greater than 0 and at most 1 (e.g. 0.9)`
    )
  const failOnDrift = bool('fail-on-drift')
  const cleanup = enumOf<Settings['cleanup']>('cleanup')
  if (cleanup === 'cluster' && !createCluster)
    problems.push(
      'cleanup "cluster": only with create-cluster: true (the action deletes only a cluster it created)'
    )
  const registerFeature = bool('register-feature')
  const adminCredentials = bool('admin-credentials')

  if (problems.length) throw new InputError(problems)

  const runId = env.GITHUB_RUN_ID
    ? `${env.GITHUB_RUN_ID}-${env.GITHUB_RUN_ATTEMPT ?? '1'}`
    : `local-${process.pid}-${Date.now().toString(36)}`
  return {
    warnings,
    secrets,
    settings: {
      mode,
      azure: {
        authType,
        clientId,
        tenantId,
        subscriptionId,
        clientSecret,
        audience,
        environment,
        armEndpoint,
        authorityHost
      },
      cluster: {
        resourceGroup: resourceGroup ?? '<resource-group>',
        name: clusterName ?? '<cluster-name>',
        location,
        create: createCluster,
        kubernetesVersion,
        adminCredentials
      },
      nodePool: {
        name: poolName,
        vmSize: knownSize?.name ?? vmSize,
        count: nodeCount,
        osSku,
        labels,
        taints,
        zones
      },
      registerFeature,
      stack: {
        networkOperatorVersion,
        gpuOperatorVersion,
        docaDriverVersion,
        rdmaDevicePluginImage,
        rdmaResourceName,
        rdmaHcaMax,
        useHostMofed,
        helmVersion,
        networkOperatorValues,
        gpuOperatorValues,
        nicClusterPolicy,
        forceConflicts
      },
      wait: { timeoutMs, stepTimeoutMs, retries, rollout },
      benchmark: { enabled: benchmarkEnabled, image: benchmarkImage, gpudirect, scope, minBandwidthRatio },
      failOnDrift,
      cleanup,
      runId
    }
  }
}
