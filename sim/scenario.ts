// The scenario file that drives a simulated world (YAML): its typed shape, the defaults of the
// default scenario, and the loader, which refuses a malformed file (YAML errors, and whatever
// the schema in scenario-schema.ts rejects) with a ScenarioError naming the file and every bad
// key. Every key is documented in the README's simulator section. The file is read only when it is
// a regular file of at most 1 MiB (a FIFO or a device is refused at once), and nothing of a file
// that does not parse is repeated (only where, and what kind of error).
import { parse, YAMLParseError } from 'yaml'
import { parseDuration } from '../src/util/duration.js'
import { FileInputError, readBoundedFile } from '../src/util/files.js'
import type { AccessGrant } from './kube/apiserver/access.js'
import type { ThrottleSpec } from './kube/apiserver/throttle.js'
import { scenarioProblems } from './scenario-schema.js'

/** An image's manifest in the simulated registry (kube.images). */
export interface ImageSpec {
  image: string
  manifest: 'index' | 'single'
  arches: Array<'amd64' | 'arm64'>
}

export interface FaultSpec {
  /** ARM/Entra: `METHOD pathGlob` or `*`. */
  match?: string
  /** Kube API: `METHOD pathGlob`. */
  api?: string
  /** Kube: a pod name prefix whose containers fail. */
  pod?: string
  kind?: 'CrashLoopBackOff' | 'ImagePullBackOff' | 'NeverReady'
  /** CrashLoopBackOff: what the crashing container prints (its log) instead of the canned panic. */
  log?: string
  /** CrashLoopBackOff: a Warning event with this message is recorded on the pod at each crash. */
  event?: string
  watch?: 'disconnect'
  every?: string
  status?: number
  retryAfter?: number
  reset?: boolean
  times?: number
}

export interface PodMutationSpec {
  /** A substring of a container image the policy matches. */
  image: string
  /** Extended resources removed from every container's requests and limits (`rdma/ib`). */
  dropResources?: string[]
  /** A memory limit set on every container that has none (`64Mi`). */
  memoryLimit?: string
}

export interface Scenario {
  azure: {
    subscriptionId: string
    tenantId: string
    clientId: string
    /** The subject of the federated credential the world accepts. */
    federatedSubject: string
    /** The subject GitHub puts in the workflow's OIDC tokens (default: federatedSubject); set it
     *  differently to simulate a workflow whose subject the federated credential does not match. */
    oidcSubject?: string
    feature: {
      state: 'Registered' | 'NotRegistered' | 'Pending'
      pollsUntilRegistered: number
      /** Pending only: answered Pending this many GETs, then Registered (approved); unset: never. */
      pendingPolls?: number
    }
    providerPollsUntilRegistered: number
    cluster: {
      exists: boolean
      aad: boolean
      localAccounts: boolean
      kubernetesVersion: string
      location: string
      name?: string
      resourceGroup?: string
    }
    existingPools: Array<{
      name: string
      vmSize: string
      count: number
      osSKU: string
      gpuDriver?: string
      provisioningState?: string
      tags?: Record<string, string>
      /** AKS taints of the pool's nodes (`key=value:Effect`), as `nodeTaints` in ARM. */
      nodeTaints?: string[]
      /** Extra labels of the pool's nodes, as `nodeLabels` in ARM. */
      nodeLabels?: Record<string, string>
    }>
    poolProvisioning: {
      polls: number
      result: 'Succeeded' | 'Failed'
      errorCode?: string
      errorMessage?: string
      duration?: string
      /** Time-based creates: when the nodes start joining (default 40 % of `duration`). */
      bootDelay?: string
    }
    /** How long deletes of clusters and pools take (default: `poolProvisioning`'s polls/duration). */
    deletion?: { polls: number; duration?: string }
    /**
     * Simulated token lifetimes. Unset, a GitHub ID token lives 300 s and an access token 3600 s,
     * but never less than 30 real seconds (SimTime.tokenLifetimeMs): a client fetches a token and
     * uses it in real time, and a busy machine must not make it miss a lifetime scaled to a blink.
     * `aksAccessTokenLifetime` is the AKS server application's tokens' (an AAD cluster's; default:
     * accessTokenLifetime), so a run can renew those many times while its ARM tokens last.
     */
    tokens: { oidcLifetime?: string; accessTokenLifetime?: string; aksAccessTokenLifetime?: string }
    clientSecret: string
    faults: FaultSpec[]
    /**
     * Azure RBAC actions the action's identity lacks (`Microsoft.ContainerService/managedClusters/agentPools/write`,
     * globs with `*`): ARM answers their requests 403 AuthorizationFailed, as it does.
     */
    deny?: string[]
  }
  kube: {
    timeScale: number
    delays: Record<string, string>
    faults: FaultSpec[]
    /** Server-side throttling: beyond `qps` (after a `burst`), requests are answered 429 with
     *  `Retry-After: retryAfter` seconds (default 1), for every client; discovery is exempt. */
    throttle?: ThrottleSpec
    /**
     * What the registry holds for images (first `image` prefix that matches the reference): a
     * multi-platform `index` or a `single` manifest, and its CPU architectures. Unlisted images are
     * as sim/kube/images.ts says.
     */
    images?: ImageSpec[]
    /** Identities with fewer rights than cluster-admin: each `{user, rules}` keeps only its RBAC
     *  rules (plus discovery and self-reviews); every other request is answered 403 Forbidden.
     *  `user`: `clusterUser` (the user credential, the action's default), `clusterAdmin` (the admin
     *  token), `masterclient` (the admin certificate) or an Entra user name. A rule: `verbs`, and
     *  `apiGroups` + `resources` (+ `resourceNames`) or `nonResourceURLs`; `namespace` limits it to
     *  one namespace. */
    access?: AccessGrant[]
    /** Mutating admission policies (what Kyverno or a MutatingAdmissionPolicy does): every pod
     *  created with a container whose image contains `image` loses the `dropResources` from its
     *  containers' requests and limits, and gets `memoryLimit` on containers without one. */
    mutatePods?: PodMutationSpec[]
  }
  nodes: {
    ibLinkGbps?: number
    degraded: Array<{ index: number; nic?: number; gbps: number }>
    noInfiniband: number[]
    joinSpread?: string
    /** Nodes whose OFED driver build fails. */
    ofedFails?: number[]
    /** Every container's memlock limit (KiB), whatever containerd's own: containerd's CRI
     *  base_runtime_spec sets RLIMIT_MEMLOCK to it (ib-node-config raises containerd's alone). */
    containerMemlockKiB?: number
    /** Nodes where nvidia_peermem cannot be inserted (modprobe: Invalid argument): the GPU
     *  Operator's nvidia-peermem-ctr crash-loops and GPUDirect goes through peer memory nowhere. */
    peermemFails?: number[]
    /** Nodes whose NVLink runs degraded (a GPU's links down): NCCL's intra-node busbw drops. */
    nvlinkDegraded?: number[]
    /** The GPU driver can export GPU memory as dma-buf (the open kernel modules); default true
     *  for GPUs the open modules support (not V100). */
    dmabuf?: boolean
  }
  /** NVIDIA Dynamo's runtime images as the simulated pods see them. */
  dynamo?: {
    /** How the image's UCX is built: without CUDA (or its CUDA module not found), without verbs. */
    ucx?: { cuda?: boolean; verbs?: boolean }
  }
  setup?: {
    apply?: boolean
    mutate?: Array<Record<string, unknown>>
  }
}

export const DEFAULT_SCENARIO: Scenario = {
  azure: {
    subscriptionId: '00000000-0000-0000-0000-000000000000',
    tenantId: '11111111-1111-1111-1111-111111111111',
    clientId: '22222222-2222-2222-2222-222222222222',
    federatedSubject: 'repo:org/repo:ref:refs/heads/main',
    feature: { state: 'NotRegistered', pollsUntilRegistered: 3 },
    providerPollsUntilRegistered: 1,
    cluster: { exists: true, aad: false, localAccounts: true, kubernetesVersion: '1.33', location: 'eastus' },
    existingPools: [],
    poolProvisioning: { polls: 3, result: 'Succeeded' },
    tokens: {},
    clientSecret: 'a-secret-the-world-accepts',
    faults: []
  },
  kube: { timeScale: 0.01, delays: { mofed: '300s', gpuDriver: '240s', default: '5s' }, faults: [] },
  nodes: { degraded: [], noInfiniband: [] }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** Deep-merges `over` onto `base` (objects merge, arrays and scalars replace). */
export function mergeDeep<T>(base: T, over: unknown): T {
  if (!isObject(base) || !isObject(over)) return (over === undefined ? base : over) as T
  const out: Record<string, unknown> = { ...base }
  for (const [k, v] of Object.entries(over)) out[k] = k in out ? mergeDeep(out[k], v) : v
  return out as T
}

/** A scenario that cannot be used: `problems` are `key: what is wrong` lines; no stack is useful. */
export class ScenarioError extends Error {
  constructor(
    readonly source: string,
    readonly problems: string[]
  ) {
    super(problems.map(p => `scenario ${source}: ${p}`).join('\n'))
    this.name = 'ScenarioError'
  }
}

/** The YAML document of a scenario file, or a ScenarioError saying where it does not parse. */
function readScenarioFile(file: string): unknown {
  let text: string
  try {
    text = readBoundedFile(file)
  } catch (e) {
    if (e instanceof FileInputError) throw new ScenarioError(file, [e.reason])
    throw e
  }
  try {
    return parse(text) ?? {}
  } catch (e) {
    const at = e instanceof YAMLParseError ? e.linePos?.[0] : undefined
    const code = e instanceof YAMLParseError ? `: ${e.code}` : ''
    throw new ScenarioError(file, [
      `not valid YAML${at ? ` (line ${at.line}, column ${at.col})` : ''}${code}`
    ])
  }
}

/**
 * The default scenario with the file's keys and then `overrides` merged over it. Throws a
 * ScenarioError naming the file (or `overrides`) and every bad key before anything starts.
 */
export function loadScenario(file?: string, overrides?: unknown): Scenario {
  let s = structuredClone(DEFAULT_SCENARIO)
  if (file) {
    const doc = readScenarioFile(file)
    if (!isObject(doc)) throw new ScenarioError(file, ['must be a YAML mapping (key: value lines)'])
    const problems = scenarioProblems(doc)
    if (problems.length) throw new ScenarioError(file, problems)
    s = mergeDeep(s, doc)
  }
  if (overrides) {
    const problems = scenarioProblems(overrides)
    if (problems.length) throw new ScenarioError('overrides', problems)
    s = mergeDeep(s, overrides)
  }
  return s
}

/** Milliseconds of a scenario duration (`300s`), or `fallback` when absent. */
export function durationOf(text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback
  const ms = parseDuration(String(text))
  if (ms === undefined) throw new Error(`scenario: "${text}" is not a duration (e.g. 90s, 5m, 1h30m)`)
  return ms
}
