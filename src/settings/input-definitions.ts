// Every input of the action and the CLI: its description, default, kind and own check. action.yml and
// the README tables are generated from it (CONTRIBUTING.md); checks across inputs are in input-helper.ts.
import {
  BENCHMARK_IMAGE_DEFAULT,
  DYNAMO_RUNTIME_IMAGE,
  NCCL_TESTS_IMAGE,
  RDMA_DEVICE_PLUGIN_IMAGE
} from './images.js'
import { vmSizeProblem } from './vm-sizes.js'
import type { Mode, NodeTaint } from './settings.js'
import { parseDuration } from '../util/duration.js'
import { echoValue } from '../util/echo.js'

export type InputKind = 'string' | 'boolean' | 'enum' | 'integer' | 'number' | 'duration' | 'path' | 'secret'

export interface InputDefinition<N extends string = string> {
  name: N
  description: string
  default?: string
  kind: InputKind
  values?: readonly string[]
  /** integer: the allowed range; duration: the allowed range in milliseconds. */
  min?: number
  max?: number
  /** path: what the YAML file holds (said when it is not a mapping). */
  holds?: string
  /** A comma-separated list: `check` applies to each entry. */
  list?: boolean
  /** What is wrong with a given value (or list entry) beyond its kind; undefined when it is fine. */
  check?: (value: string) => string | undefined
  /** A warning about a valid value, in full (`given`: set by the user rather than defaulted). */
  warn?: (value: string, given: boolean) => string | undefined
  /** The modes that read it (the CLI's help of a command lists only these); default: every mode. */
  modes?: readonly Mode[]
}

/** Every mode, in the order the CLI lists its commands. */
export const MODES: readonly Mode[] = ['apply', 'verify', 'drift', 'plan', 'uninstall']
/** The modes that run against Azure or the cluster (plan needs no credentials and no network). */
const RUNS: readonly Mode[] = ['apply', 'verify', 'drift', 'uninstall']
/** What changes or describes the Azure resources and the stack: apply, drift compares, plan prints. */
const SHAPES: readonly Mode[] = ['apply', 'drift', 'plan']
/** The modes that run helm: those that shape the stack, and uninstall. */
const HELM: readonly Mode[] = [...SHAPES, 'uninstall']
/** The modes that benchmark (plan prints the benchmark plan). */
const BENCHMARKS: readonly Mode[] = ['apply', 'verify', 'plan']

/** The modes that read an input. */
export function inputModes(d: InputDefinition): readonly Mode[] {
  return d.modes ?? MODES
}

const GUID_RE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/
const POOL_RE = /^[a-z][a-z0-9]{0,11}$/
const CLUSTER_RE = /^[a-zA-Z0-9]$|^[a-zA-Z0-9][-_a-zA-Z0-9]{0,61}[a-zA-Z0-9]$/
const RG_RE = /^[-\w._()]{1,90}$/
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
const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const

const matches =
  (re: RegExp, problem: string) =>
  (v: string): string | undefined =>
    re.test(v) ? undefined : problem

const guid = matches(GUID_RE, 'must be a GUID (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)')
const pinned = (re: RegExp, example: string) => matches(re, `must be a pinned version such as ${example}`)

/** The input `name` holds a container image pinned by tag or digest; a warning for `latest` given by the user. */
const image = (name: string): Pick<InputDefinition, 'check' | 'warn'> => ({
  check: v =>
    !IMAGE_RE.test(v) || !(/:[\w][\w.-]*$/.test(v) || v.includes('@sha256:'))
      ? 'must be an image reference pinned by tag or digest, e.g. ghcr.io/mellanox/k8s-rdma-shared-dev-plugin:v1.5.3'
      : undefined,
  warn: (v, given) =>
    /:latest$/.test(v) && given
      ? `${name} ${echoValue(v)}: "latest" is not a pinned version; runs may differ over time`
      : undefined
})

/**
 * An endpoint the run sends its tokens and the OIDC assertion to: an https origin, nothing more.
 * Credentials, control characters (raw or %-encoded), a path, a query or a fragment are refused
 * whatever else is allowed; hosts and ports outside the known clouds are the settings' check
 * (allow-custom-endpoints).
 */
function endpointUrl(v: string): string | undefined {
  const control = [...v].some(
    c => c.charCodeAt(0) < 0x20 || (c.charCodeAt(0) >= 0x7f && c.charCodeAt(0) <= 0x9f)
  )
  if (control || /\s/.test(v) || /%(?:[01][0-9a-f]|7f)/i.test(v))
    return 'must not contain spaces or control characters (raw or %-encoded)'
  if (v.includes('@')) return 'must not carry credentials (user:password@): the action sends its own tokens'
  let url: URL
  try {
    url = new URL(v)
  } catch {
    return 'not a URL (e.g. https://management.azure.com)'
  }
  if (url.protocol !== 'https:') return 'must be an https URL (Azure SDKs refuse bearer tokens over http)'
  if (/[?#\\]/.test(v) || !/^\/*$/.test(url.pathname))
    return 'must be an origin only, such as https://management.azure.com (no path, query or fragment)'
  return undefined
}

/** The longest a duration input may be: a job runs at most 5 days on a self-hosted runner. */
export const MAX_DURATION = '120h'
const DURATION_RANGE = { min: 1000, max: parseDuration(MAX_DURATION)! }

/** One `key=value` entry of node-labels, or undefined when it is not one. */
export function parseLabel(entry: string): [string, string] | undefined {
  const [k, v = '', extra] = entry.split('=')
  return extra === undefined && entry.includes('=') && LABEL_KEY_RE.test(k) && LABEL_VALUE_RE.test(v)
    ? [k, v]
    : undefined
}

/** One `key=value:Effect` entry of node-taints, or undefined when it is not one. */
export function parseTaint(entry: string): NodeTaint | undefined {
  const m = /^([^=:]+)(?:=([^:]*))?:(\w+)$/.exec(entry)
  if (
    !m ||
    !LABEL_KEY_RE.test(m[1]) ||
    !LABEL_VALUE_RE.test(m[2] ?? '') ||
    !(TAINT_EFFECTS as readonly string[]).includes(m[3])
  )
    return undefined
  return { key: m[1], value: m[2] ?? '', effect: m[3] as NodeTaint['effect'] }
}

/**
 * What is wrong with a Kubernetes label selector string (k8s.io/apimachinery labels.Parse): comma-separated
 * `key`, `!key`, `key=value`, `key==value`, `key!=value`, `key in (a,b)`, `key notin (a,b)`; empty selects all.
 */
export function labelSelectorProblem(v: string): string | undefined {
  if (v.trim() === '') return undefined
  const terms = v.match(/[^,(]+(?:\([^)]*\))?/g) ?? []
  const valid = terms.every(raw => {
    const t = raw.trim()
    const set = /^(\S+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(t)
    if (set) return LABEL_KEY_RE.test(set[1]) && set[3].split(',').every(x => LABEL_VALUE_RE.test(x.trim()))
    const eq = /^([^=!\s]+)\s*(==|!=|=)\s*(\S*)$/.exec(t)
    if (eq) return LABEL_KEY_RE.test(eq[1]) && LABEL_VALUE_RE.test(eq[3])
    return LABEL_KEY_RE.test(t.replace(/^!\s*/, ''))
  })
  return valid && terms.join(',').replace(/\s/g, '') === v.replace(/\s/g, '')
    ? undefined
    : 'must be a Kubernetes label selector, e.g. aks-rdma-action/rdma-workload=true or app in (a,b)'
}

const DEFINITIONS = [
  {
    name: 'mode',
    kind: 'enum',
    values: ['apply', 'verify', 'drift', 'plan', 'uninstall'],
    default: 'apply',
    description:
      'What to do: apply the stack and verify it, verify only, report drift only (read-only), print the plan (no credentials, no network), or uninstall the stack (only what the action created).'
  },
  {
    name: 'plan-mode',
    modes: ['plan'],
    kind: 'enum',
    values: ['apply', 'uninstall'],
    default: 'apply',
    description:
      'In plan mode: print what apply would do, or what uninstall would remove (the CLI: plan --mode uninstall).'
  },
  // Azure authentication
  {
    name: 'client-id',
    modes: RUNS,
    kind: 'string',
    description: 'Entra application (client) ID used for OIDC or a client secret.',
    check: guid
  },
  { name: 'tenant-id', kind: 'string', description: 'Entra tenant ID.', check: guid, modes: RUNS },
  {
    name: 'subscription-id',
    kind: 'string',
    description: 'Azure subscription that holds the cluster.',
    check: guid
  },
  {
    name: 'client-secret',
    kind: 'secret',
    description: 'Client secret (prefer OIDC). Never logged.',
    modes: RUNS
  },
  {
    name: 'creds',
    modes: RUNS,
    kind: 'secret',
    description:
      'azure/login-style JSON with clientId, clientSecret, tenantId, subscriptionId. Ignored (with a warning) for fields also given as inputs.'
  },
  {
    name: 'auth-type',
    modes: RUNS,
    kind: 'enum',
    values: ['auto', 'oidc', 'secret', 'cli'],
    default: 'auto',
    description:
      'How to authenticate: auto picks GitHub OIDC, then a client secret, then an Azure CLI session.'
  },
  {
    name: 'audience',
    modes: RUNS,
    kind: 'string',
    default: 'api://AzureADTokenExchange',
    description: 'Audience of the GitHub OIDC token exchanged with Entra.'
  },
  {
    name: 'environment',
    modes: RUNS,
    kind: 'enum',
    values: ['AzureCloud', 'AzureUSGovernment', 'AzureChinaCloud'],
    default: 'AzureCloud',
    description: 'Azure cloud.'
  },
  {
    name: 'arm-endpoint',
    modes: RUNS,
    kind: 'string',
    description:
      'Override of the Azure Resource Manager endpoint: an https origin of a known Azure cloud (another host or port needs allow-custom-endpoints).',
    check: endpointUrl
  },
  {
    name: 'authority-host',
    modes: RUNS,
    kind: 'string',
    description:
      'Override of the Entra authority host: an https origin of a known Azure cloud (another host or port needs allow-custom-endpoints).',
    check: endpointUrl
  },
  {
    name: 'allow-custom-endpoints',
    modes: RUNS,
    kind: 'boolean',
    default: 'false',
    description:
      'Allow arm-endpoint and authority-host outside the known Azure clouds or on another port (Azure Stack, a proxy, the simulator): the run sends its tokens and the OIDC assertion there, with a warning naming the host.'
  },
  // Cluster
  {
    name: 'resource-group',
    kind: 'string',
    description:
      'Resource group of the AKS cluster (required except in plan mode, where a placeholder is used).',
    check: matches(RG_RE, '1-90 letters, digits, underscores, hyphens, periods and parentheses')
  },
  {
    name: 'cluster-name',
    kind: 'string',
    description: 'Name of the AKS cluster.',
    check: matches(
      CLUSTER_RE,
      `must match ${CLUSTER_RE.source} (1-63 letters, digits, - and _, starting and ending with a letter or digit)`
    )
  },
  {
    name: 'location',
    modes: ['apply', 'plan'],
    kind: 'string',
    description: 'Azure region; required with create-cluster.',
    check: matches(/^[a-z0-9]+$/i, 'a region name such as eastus or westeurope')
  },
  {
    name: 'create-cluster',
    modes: ['apply', 'plan'],
    kind: 'boolean',
    default: 'false',
    description:
      'Create a minimal cluster when it does not exist (an existing one is reused, never modified).'
  },
  {
    name: 'kubernetes-version',
    modes: ['apply', 'plan'],
    kind: 'string',
    description: 'Kubernetes version for a created cluster (e.g. 1.33).',
    check: matches(/^\d+\.\d+(?:\.\d+)?$/, 'must look like 1.33 or 1.33.2')
  },
  {
    name: 'admin-credentials',
    kind: 'boolean',
    default: 'false',
    description: 'Use cluster admin credentials instead of user credentials.'
  },
  {
    name: 'export-kubeconfig',
    modes: RUNS,
    kind: 'boolean',
    default: 'true',
    description:
      'Export KUBECONFIG (the kubeconfig-path file) for the later steps of the job, as azure/aks-set-context does; the post step still removes the file at the end of the job. Not with kubeconfig (the job has its own).'
  },
  {
    name: 'kubeconfig',
    kind: 'path',
    holds: 'a kubeconfig',
    description:
      'Reach the cluster with this kubeconfig instead of fetching one through Azure: a file (e.g. the KUBECONFIG azure/aks-set-context exports; several joined by the path separator, as in KUBECONFIG) or the kubeconfig itself (e.g. from a secret; its credentials are masked). verify and drift then make no Azure call at all (drift compares the Azure resources only when subscription-id is given); apply still signs in for the feature and the node pool. The CLI verify and drift commands default to $KUBECONFIG when no Azure cluster is named.'
  },
  {
    name: 'kube-context',
    kind: 'string',
    description: "With kubeconfig: the context to use (default: the kubeconfig's current-context)."
  },
  // Node pool
  {
    name: 'node-pool',
    kind: 'string',
    default: 'rdmapool',
    description: 'Name of the RDMA node pool (1-12 lowercase letters and digits, starting with a letter).',
    check: matches(
      POOL_RE,
      'must match ^[a-z][a-z0-9]{0,11}$ (1-12 lowercase letters and digits, starting with a letter)'
    )
  },
  {
    name: 'all-pools',
    modes: ['apply', 'verify', 'drift'],
    kind: 'boolean',
    default: 'false',
    description:
      'Verify, benchmark and check drift of every node pool the action manages (the ownership record kube-system/aks-rdma-action-owned lists them; node-pool first), each judged by its own VM size; the report adds a pools array. Apply still sets up node-pool only.'
  },
  {
    name: 'vm-size',
    kind: 'string',
    default: 'Standard_ND96isr_H100_v5',
    description:
      'VM size of the RDMA pool: one with NVIDIA GPUs and ConnectX-6/7 InfiniBand (the README lists them; others are refused with the reason).',
    check: vmSizeProblem
  },
  {
    name: 'node-count',
    kind: 'integer',
    default: '2',
    description: 'Number of nodes in the pool (1-1000; at least 2 with benchmark).',
    min: 1,
    max: 1000
  },
  {
    name: 'os-sku',
    kind: 'enum',
    values: ['Ubuntu', 'Ubuntu2204', 'Ubuntu2404'],
    default: 'Ubuntu',
    description: 'Node OS SKU. Ubuntu means 22.04 before Kubernetes 1.35 and 24.04 from 1.35.'
  },
  {
    name: 'node-labels',
    kind: 'string',
    description: 'Extra node labels, k=v,k2=v2.',
    list: true,
    check: v =>
      parseLabel(v) ? undefined : 'each entry must be key=value with a valid Kubernetes label key and value'
  },
  {
    name: 'node-taints',
    kind: 'string',
    description: 'Node taints, k=v:NoSchedule,k2=v2:NoExecute.',
    list: true,
    check: v =>
      parseTaint(v)
        ? undefined
        : `each entry must be key=value:Effect with Effect one of ${TAINT_EFFECTS.join(', ')}`
  },
  {
    name: 'zones',
    modes: SHAPES,
    kind: 'string',
    description: 'Availability zones, comma separated: 1, 2 or 3 (e.g. 1,2).',
    list: true,
    check: matches(/^[123]$/, 'Azure availability zones are 1, 2 and 3')
  },
  {
    name: 'register-feature',
    modes: SHAPES,
    kind: 'boolean',
    default: 'true',
    description: 'Register Microsoft.ContainerService/AKSInfinibandSupport and wait until it is Registered.'
  },
  // Stack
  {
    name: 'network-operator-version',
    kind: 'string',
    default: 'v26.4.1',
    description: 'NVIDIA Network Operator chart version (pinned).',
    check: pinned(CHART_VERSION_RE, 'v26.4.1')
  },
  {
    name: 'gpu-operator-version',
    kind: 'string',
    default: 'v26.7.0',
    description: 'NVIDIA GPU Operator chart version (pinned).',
    check: pinned(CHART_VERSION_RE, 'v26.7.0')
  },
  {
    name: 'doca-driver-version',
    kind: 'string',
    default: 'doca3.4.1-26.04-1.1.0.0-1',
    description: 'DOCA/OFED driver version in the NicClusterPolicy.',
    check: pinned(DOCA_VERSION_RE, 'doca3.4.1-26.04-1.1.0.0-1')
  },
  {
    name: 'rdma-device-plugin-image',
    kind: 'string',
    default: RDMA_DEVICE_PLUGIN_IMAGE,
    description:
      'Image of the RDMA shared device plugin. The default is the build NVIDIA ships with Network Operator v26.4.1, pinned by the digest NVIDIA publishes for it.',
    ...image('rdma-device-plugin-image')
  },
  {
    name: 'rdma-resource-name',
    kind: 'string',
    default: 'hca_shared_devices_a',
    description: 'Extended resource name: nodes advertise rdma/<name>.',
    check: matches(
      RESOURCE_NAME_RE,
      'must be a valid extended resource name part (letters, digits, -, _ and ., up to 63, e.g. hca_shared_devices_a); nodes advertise rdma/<name>'
    )
  },
  {
    name: 'rdma-hca-max',
    kind: 'integer',
    default: '1000',
    description: 'Pods that may share one HCA (rdmaHcaMax).',
    min: 1,
    max: 100000
  },
  {
    name: 'ofed-drain-pod-selector',
    modes: SHAPES,
    kind: 'string',
    default: 'aks-rdma-action/rdma-workload=true',
    description:
      "Label selector (NicClusterPolicy ofedDriver.upgradePolicy.drain.podSelector) of the pods an OFED driver upgrade evicts from each node before it reloads the driver. A label selector cannot name a resource, so the default selects the label the action's workload snippet puts on pods that use rdma/<name>: give your RDMA pods that label. all: no selector, every pod on the node (the Network Operator's behaviour without one).",
    check: v => (v === 'all' ? undefined : labelSelectorProblem(v))
  },
  {
    name: 'gpudirect',
    kind: 'enum',
    values: ['dmabuf', 'peermem'],
    default: 'dmabuf',
    description:
      "How GPU memory reaches the NIC. dmabuf (NVIDIA's recommendation): the GPU Operator runs the open kernel modules (driver.kernelModuleType=open) and no nvidia-peermem; perftest uses --use_cuda_dmabuf, UCX dma-buf. peermem (legacy): driver.rdma.enabled=true loads nvidia-peermem (the guide's and Azure's way)."
  },
  {
    name: 'use-host-mofed',
    kind: 'boolean',
    default: 'false',
    description:
      'GPU Operator driver.rdma.useHostMofed. Keep false: the Network Operator installs the driver (NVIDIA advises true only for a driver installed on the host).',
    warn: v =>
      /^(true|yes|1|on)$/i.test(v)
        ? 'use-host-mofed: true tells the GPU Operator the OFED driver is installed on the host; here the Network Operator installs it, so nvidia-peermem will not wait for it (NVIDIA advises false)'
        : undefined
  },
  {
    name: 'helm-version',
    modes: HELM,
    kind: 'string',
    default: 'v3.19.0',
    description:
      'Pinned helm 3 release, downloaded and checked against the SHA-256 this action pins for it (docs/security.md); the tool cache is re-checked each run.',
    check: pinned(/^v3\.\d+\.\d+$/, 'v3.19.0 (helm 3)')
  },
  {
    name: 'helm-sha256',
    modes: HELM,
    kind: 'string',
    description:
      'Use the helm already on PATH instead of a download, only if its binary has this SHA-256 (sha256sum "$(command -v helm)"); without it a helm on PATH is never run.',
    check: matches(/^[0-9a-fA-F]{64}$/, 'must be a SHA-256 in hex (64 characters), as sha256sum prints it')
  },
  {
    name: 'network-operator-values',
    modes: SHAPES,
    kind: 'path',
    description: 'YAML file merged over the built-in Network Operator values.',
    holds: 'helm values'
  },
  {
    name: 'gpu-operator-values',
    modes: SHAPES,
    kind: 'path',
    description: 'YAML file merged over the built-in GPU Operator values.',
    holds: 'helm values'
  },
  {
    name: 'nic-cluster-policy',
    modes: SHAPES,
    kind: 'path',
    description: 'YAML file replacing the built-in NicClusterPolicy spec.',
    holds: 'a NicClusterPolicy or its spec'
  },
  {
    name: 'allow-downgrade',
    modes: ['apply', 'plan'],
    kind: 'boolean',
    default: 'false',
    description:
      'Let apply install an older chart (or DOCA driver) version than the cluster runs; without it such a run is refused before any write. Even then a CRD applied from a newer chart version is kept.'
  },
  {
    name: 'force-conflicts',
    modes: SHAPES,
    kind: 'boolean',
    default: 'false',
    description:
      'Take ownership of fields another field manager holds (server-side apply force) instead of failing.'
  },
  {
    name: 'adopt-releases',
    modes: HELM,
    kind: 'boolean',
    default: 'false',
    description:
      'Take over a helm release of the same name and chart that the action did not install (installed by hand, or by a version of the action without the ownership record): apply records and upgrades it, uninstall removes it. A release of another chart is never taken over.'
  },
  // Waiting
  {
    name: 'timeout',
    modes: RUNS,
    kind: 'duration',
    default: '60m',
    description: `Time limit for the whole run, with its unit (90s, 25m, 1h, 1h30m; 1s to ${MAX_DURATION}).`,
    ...DURATION_RANGE
  },
  {
    name: 'step-timeout',
    modes: RUNS,
    kind: 'duration',
    default: '25m',
    description: `Time limit for each step, with its unit (90s, 25m; 1s to ${MAX_DURATION}).`,
    ...DURATION_RANGE
  },
  {
    name: 'retries',
    modes: RUNS,
    kind: 'integer',
    default: '3',
    description: 'Retries of transient API errors (5xx, 429, resets).',
    min: 0,
    max: 20
  },
  {
    name: 'rollout',
    modes: ['apply', 'plan'],
    kind: 'enum',
    values: ['pipelined', 'sequential'],
    default: 'pipelined',
    description: 'pipelined gates node-level work per node; sequential waits for each step on every node.'
  },
  // Benchmark
  {
    name: 'benchmark',
    modes: BENCHMARKS,
    kind: 'boolean',
    default: 'true',
    description: 'Run perftest benchmarks between RDMA nodes.'
  },
  {
    name: 'benchmark-image',
    modes: BENCHMARKS,
    kind: 'string',
    default: BENCHMARK_IMAGE_DEFAULT,
    description:
      'Image with perftest built with CUDA (GPUDirect needs it). The default is the image NVIDIA documents for GPUDirect RDMA tests; it publishes no version tags, so pin it by digest (image@sha256:...) for reproducible runs. It is counted as amd64 only: on arm64 (GB200/GB300) sizes give an image built for arm64.',
    ...image('benchmark-image')
  },
  {
    name: 'benchmark-gpudirect',
    modes: BENCHMARKS,
    kind: 'boolean',
    default: 'true',
    description:
      'Benchmark bandwidth from GPU memory (--use_cuda; latency is always host memory); requires a CUDA build of perftest.'
  },
  {
    name: 'benchmark-scope',
    modes: BENCHMARKS,
    kind: 'enum',
    values: ['pair', 'fleet'],
    default: 'pair',
    description: 'pair: two nodes; fleet: every node in parallel rounds of disjoint pairs.'
  },
  {
    name: 'min-bandwidth-ratio',
    modes: BENCHMARKS,
    kind: 'number',
    default: '0.9',
    description: 'Fraction of the link rate a pair must reach.',
    check: v =>
      /^\d*\.?\d+$/.test(v) && Number(v) > 0 && Number(v) <= 1
        ? undefined
        : 'must be a number greater than 0 and at most 1 (e.g. 0.9)'
  },
  // Dynamo transport check
  {
    name: 'transport-check',
    modes: BENCHMARKS,
    kind: 'enum',
    values: ['none', 'ucx'],
    default: 'none',
    description:
      "After the benchmark, prove the path NVIDIA Dynamo moves its KV cache on: two pods shaped as Dynamo workers (transport-image, its own non-root user, one GPU and rdma/<name> each, a memory-backed /dev/shm, on two nodes) check UCX's view of the pod, then measure a GPU-to-GPU UCX transfer (ucx_perftest ucp_get -m cuda,cuda) and read the transport UCX chose from UCX_PROTO_INFO. none: skip (the default: the runtime image is large). See docs/transport-check.md."
  },
  {
    name: 'transport-image',
    modes: BENCHMARKS,
    kind: 'string',
    default: DYNAMO_RUNTIME_IMAGE,
    description:
      'Dynamo runtime image the transport check runs (its UCX tools and default user). The default is pinned by tag (docs/IMAGES.md); pin yours by digest for reproducible runs.',
    ...image('transport-image')
  },
  {
    name: 'transport-ucx-env',
    modes: BENCHMARKS,
    kind: 'enum',
    values: ['dynamo', 'defaults'],
    default: 'dynamo',
    description:
      "UCX settings of the transport check pods: dynamo is the worker snippet's (the UCX_TLS Dynamo documents for InfiniBand, and UCX_NET_DEVICES set at start to the InfiniBand device local to the pod's GPU from the probe's NIC-GPU map); defaults sets none, as a worker without them runs (UCX_TLS and UCX_NET_DEVICES all)."
  },
  // NCCL collective check
  {
    name: 'collective-check',
    modes: BENCHMARKS,
    kind: 'enum',
    values: ['none', 'nccl'],
    default: 'none',
    description:
      "After the benchmark, prove the path NCCL's collectives take: all_reduce_perf over every GPU of each RDMA node of the benchmark scope (one process, -g <gpus>), judged against the VM size's intra-node pass mark, then across the benchmark's two nodes (every rank its own GPU, over mpirun and ssh between pods the action creates and deletes), judged against the inter-node pass mark; NCCL_DEBUG=INFO says whether it took InfiniBand with GPUDirect (ib-gdr), InfiniBand through host memory (ib) or sockets. none: skip (the default). See docs/collective-check.md."
  },
  {
    name: 'collective-image',
    modes: BENCHMARKS,
    kind: 'string',
    default: NCCL_TESTS_IMAGE,
    description:
      "nccl-tests image the collective check runs (all_reduce_perf, Open MPI's mpirun, sshd on port 2222). The default, Azure/aks-rdma-infiniband's, is published as latest only and built for Hopper and Blackwell GPUs: pin it by digest (image@sha256:...), and give an image with A100 kernels on ND A100 v4 sizes (docs/IMAGES.md).",
    ...image('collective-image')
  },
  {
    name: 'collective-min-busbw',
    modes: BENCHMARKS,
    kind: 'number',
    description:
      "Inter-node pass mark of the collective check: all_reduce busbw (GB/s) at the largest size across the two nodes. Unset: the VM size's (docs/collective-check.md lists them and their sources).",
    check: v =>
      /^\d*\.?\d+$/.test(v) && Number(v) > 0 && Number(v) <= 10000
        ? undefined
        : 'must be a number of GB/s greater than 0 (e.g. 180)'
  },
  {
    name: 'fail-on-drift',
    modes: ['drift'],
    kind: 'boolean',
    default: 'true',
    description: 'In drift mode, fail the step when drift is found.'
  },
  {
    name: 'cleanup',
    modes: ['apply', 'uninstall', 'plan'],
    kind: 'enum',
    values: ['none', 'node-pool', 'cluster'],
    default: 'none',
    description:
      'Post step: delete the node pool or cluster this run created (never anything it did not create). In uninstall mode: after the stack, delete the node pool or cluster the action created (its created-by tag holds a run identity the action wrote).'
  },
  {
    name: 'job-key',
    modes: RUNS,
    kind: 'string',
    description:
      'What tells this job apart from the other jobs of the workflow run, e.g. the matrix values (toJSON of matrix): shown in the Lease holder and the created-by tag (each run also draws a nonce of its own).',
    check: v => (v.length > 1000 ? 'at most 1000 characters' : undefined)
  }
] as const satisfies readonly InputDefinition[]

/** The name of an input: reading one the definitions do not have does not compile. */
export type InputName = (typeof DEFINITIONS)[number]['name']

/** Every input, in the order action.yml and the README list them. */
export const INPUTS: readonly InputDefinition<InputName>[] = DEFINITIONS

export interface OutputDefinition {
  name: string
  description: string
}

export const OUTPUTS: readonly OutputDefinition[] = [
  { name: 'result', description: 'success, failure or drifted.' },
  { name: 'node-pool-action', description: 'created or reused.' },
  { name: 'rdma-nodes', description: 'Number of RDMA nodes that passed verification.' },
  { name: 'bandwidth-gbps', description: 'Lowest pair average ib_write_bw bandwidth, Gb/s.' },
  { name: 'latency-us', description: 'Highest typical ib_write_lat latency (host memory), microseconds.' },
  {
    name: 'transport',
    description:
      'Transport check: the path UCX took between the two Dynamo-shaped pods (gpudirect-rdma, host-staged, tcp or failed); empty when transport-check is none.'
  },
  {
    name: 'transport-gbps',
    description: 'Transport check: GPU-to-GPU UCX bandwidth between the two pods, Gb/s.'
  },
  {
    name: 'collective',
    description:
      "Collective check: the path NCCL's inter-node traffic took (ib-gdr, ib, socket or failed); empty when collective-check is none."
  },
  {
    name: 'nccl-busbw-gbps',
    description: 'Collective check: all_reduce busbw across the two nodes at the largest size, GB/s.'
  },
  { name: 'drifted', description: 'true when drift mode found a difference.' },
  { name: 'report-path', description: 'Path of the JSON report.' },
  {
    name: 'kubeconfig-path',
    description:
      'Path of the kubeconfig written for this run (removed by the post step); not set with the kubeconfig input.'
  }
]
