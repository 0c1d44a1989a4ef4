// Defaulting of the built-in kinds, as kube-apiserver applies it to every object it decodes
// (kubernetes/kubernetes@v1.33: pkg/apis/core/v1/defaults.go, pkg/apis/apps/v1/defaults.go,
// pkg/apis/batch/v1/defaults.go, and the `+default=` markers of k8s.io/api's types): pod specs
// (in pods and in every pod template), containers, probes, volumes, Services, Secrets, ConfigMaps,
// Namespaces, Deployments, DaemonSets, StatefulSets, ReplicaSets and Jobs. Idempotent: defaulting
// a defaulted object changes nothing. Pod-only admission defaults (service account, default
// tolerations, priority) are in admission.ts.
import type { KubeObject, ResourceType } from './store.js'
import { typeKey } from './store.js'

type Obj = Record<string, any>

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)

/** Sets `o[k]` to `v` when it is unset (undefined or null). */
function dflt(o: Obj, k: string, v: unknown): void {
  if (o[k] === undefined || o[k] === null) o[k] = v
}

/** The tag of an image reference (`latest` when none; digests count as a tag other than latest). */
export function imageTag(image: string): string {
  if (image.includes('@')) return ''
  const last = image.split('/').pop() ?? ''
  const colon = last.lastIndexOf(':')
  return colon >= 0 ? last.slice(colon + 1) : 'latest'
}

function defaultProbe(p: unknown): void {
  if (!isObj(p)) return
  dflt(p, 'timeoutSeconds', 1)
  dflt(p, 'periodSeconds', 10)
  dflt(p, 'successThreshold', 1)
  dflt(p, 'failureThreshold', 3)
  if (isObj(p.httpGet)) {
    dflt(p.httpGet, 'path', '/')
    dflt(p.httpGet, 'scheme', 'HTTP')
  }
}

function defaultEnv(env: unknown): void {
  for (const e of Array.isArray(env) ? env : []) {
    const ref = e?.valueFrom?.fieldRef
    if (isObj(ref)) dflt(ref, 'apiVersion', 'v1')
  }
}

function defaultContainer(c: unknown): void {
  if (!isObj(c)) return
  if (!c.imagePullPolicy && typeof c.image === 'string')
    c.imagePullPolicy = imageTag(c.image) === 'latest' ? 'Always' : 'IfNotPresent'
  dflt(c, 'terminationMessagePath', '/dev/termination-log')
  dflt(c, 'terminationMessagePolicy', 'File')
  for (const p of Array.isArray(c.ports) ? c.ports : []) if (isObj(p)) dflt(p, 'protocol', 'TCP')
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) defaultProbe(c[probe])
  defaultEnv(c.env)
}

const VOLUME_MODES: Record<string, number> = {
  secret: 420,
  configMap: 420,
  downwardAPI: 420,
  projected: 420
}

function defaultVolume(v: unknown): void {
  if (!isObj(v)) return
  const sources = Object.keys(v).filter(k => k !== 'name')
  if (!sources.length) v.emptyDir = {}
  for (const [src, mode] of Object.entries(VOLUME_MODES)) if (isObj(v[src])) dflt(v[src], 'defaultMode', mode)
  if (isObj(v.hostPath)) dflt(v.hostPath, 'type', '')
  for (const s of isObj(v.projected) && Array.isArray(v.projected.sources) ? v.projected.sources : [])
    if (isObj(s?.serviceAccountToken)) dflt(s.serviceAccountToken, 'expirationSeconds', 3600)
}

/** SetDefaults_PodSpec plus what its members default (containers, probes, volumes). */
export function defaultPodSpec(spec: unknown): void {
  if (!isObj(spec)) return
  dflt(spec, 'dnsPolicy', 'ClusterFirst')
  dflt(spec, 'restartPolicy', 'Always')
  dflt(spec, 'securityContext', {})
  dflt(spec, 'terminationGracePeriodSeconds', 30)
  dflt(spec, 'schedulerName', 'default-scheduler')
  for (const list of ['containers', 'initContainers', 'ephemeralContainers'])
    for (const c of Array.isArray(spec[list]) ? spec[list] : []) defaultContainer(c)
  for (const v of Array.isArray(spec.volumes) ? spec.volumes : []) defaultVolume(v)
}

/** SetDefaults_Pod: requests from limits, enableServiceLinks, host ports under host networking. */
function defaultPod(pod: Obj): void {
  const spec = pod.spec
  if (!isObj(spec)) return
  defaultPodSpec(spec)
  for (const list of ['containers', 'initContainers'])
    for (const c of Array.isArray(spec[list]) ? spec[list] : []) {
      const limits = c?.resources?.limits
      if (!isObj(limits)) continue
      c.resources.requests = { ...limits, ...(c.resources.requests ?? {}) }
    }
  dflt(spec, 'enableServiceLinks', true)
  if (spec.hostNetwork)
    for (const list of ['containers', 'initContainers'])
      for (const c of Array.isArray(spec[list]) ? spec[list] : [])
        for (const p of Array.isArray(c?.ports) ? c.ports : [])
          if (isObj(p)) dflt(p, 'hostPort', p.containerPort)
}

export function defaultTemplate(spec: Obj): void {
  if (isObj(spec.template)) defaultPodSpec(spec.template.spec)
}

function defaultDeployment(o: Obj): void {
  const spec = (o.spec ??= {})
  dflt(spec, 'replicas', 1)
  const strategy = (spec.strategy ??= {})
  dflt(strategy, 'type', 'RollingUpdate')
  if (strategy.type === 'RollingUpdate') {
    const ru = (strategy.rollingUpdate ??= {})
    dflt(ru, 'maxUnavailable', '25%')
    dflt(ru, 'maxSurge', '25%')
  }
  dflt(spec, 'revisionHistoryLimit', 10)
  dflt(spec, 'progressDeadlineSeconds', 600)
  defaultTemplate(spec)
}

function defaultDaemonSet(o: Obj): void {
  const spec = (o.spec ??= {})
  const strategy = (spec.updateStrategy ??= {})
  dflt(strategy, 'type', 'RollingUpdate')
  if (strategy.type === 'RollingUpdate') {
    const ru = (strategy.rollingUpdate ??= {})
    dflt(ru, 'maxUnavailable', 1)
    dflt(ru, 'maxSurge', 0)
  }
  dflt(spec, 'revisionHistoryLimit', 10)
  defaultTemplate(spec)
}

function defaultStatefulSet(o: Obj): void {
  const spec = (o.spec ??= {})
  dflt(spec, 'podManagementPolicy', 'OrderedReady')
  const strategy = (spec.updateStrategy ??= {})
  if (!strategy.type) {
    strategy.type = 'RollingUpdate'
    strategy.rollingUpdate ??= {}
  }
  if (strategy.type === 'RollingUpdate' && isObj(strategy.rollingUpdate))
    dflt(strategy.rollingUpdate, 'partition', 0)
  const retention = (spec.persistentVolumeClaimRetentionPolicy ??= {})
  dflt(retention, 'whenDeleted', 'Retain')
  dflt(retention, 'whenScaled', 'Retain')
  dflt(spec, 'replicas', 1)
  dflt(spec, 'revisionHistoryLimit', 10)
  defaultTemplate(spec)
}

function defaultJob(o: Obj): void {
  const spec = (o.spec ??= {})
  if (spec.completions == null && spec.parallelism == null) {
    spec.completions = 1
    spec.parallelism = 1
  }
  dflt(spec, 'parallelism', 1)
  dflt(spec, 'backoffLimit', 6)
  const labels = spec.template?.metadata?.labels
  if (isObj(labels) && !Object.keys(o.metadata?.labels ?? {}).length)
    o.metadata = { ...o.metadata, labels: { ...labels } }
  dflt(spec, 'completionMode', 'NonIndexed')
  dflt(spec, 'suspend', false)
  // JobPodReplacementPolicy (on by default): Failed when a podFailurePolicy is set.
  dflt(spec, 'podReplacementPolicy', spec.podFailurePolicy ? 'Failed' : 'TerminatingOrFailed')
  defaultTemplate(spec)
}

function defaultService(o: Obj): void {
  const spec = (o.spec ??= {})
  dflt(spec, 'sessionAffinity', 'None')
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig
  dflt(spec, 'type', 'ClusterIP')
  for (const p of Array.isArray(spec.ports) ? spec.ports : []) {
    if (!isObj(p)) continue
    dflt(p, 'protocol', 'TCP')
    if (p.targetPort === undefined || p.targetPort === 0 || p.targetPort === '') p.targetPort = p.port
  }
  if (['NodePort', 'LoadBalancer'].includes(spec.type)) dflt(spec, 'externalTrafficPolicy', 'Cluster')
  if (['NodePort', 'LoadBalancer', 'ClusterIP'].includes(spec.type))
    dflt(spec, 'internalTrafficPolicy', 'Cluster')
  if (spec.type === 'LoadBalancer') dflt(spec, 'allocateLoadBalancerNodePorts', true)
}

const BY_TYPE: Record<string, (o: Obj) => void> = {
  pods: defaultPod,
  services: defaultService,
  secrets: o => dflt(o, 'type', 'Opaque'),
  namespaces: o => {
    if (o.metadata?.name)
      o.metadata.labels = { ...(o.metadata.labels ?? {}), 'kubernetes.io/metadata.name': o.metadata.name }
    dflt((o.status ??= {}), 'phase', 'Active')
  },
  nodes: o => {
    if (isObj(o.status?.capacity) && !o.status.allocatable) o.status.allocatable = { ...o.status.capacity }
  },
  'deployments.apps': defaultDeployment,
  'daemonsets.apps': defaultDaemonSet,
  'statefulsets.apps': defaultStatefulSet,
  'replicasets.apps': o => {
    dflt((o.spec ??= {}), 'replicas', 1)
    defaultTemplate(o.spec)
  },
  'jobs.batch': defaultJob
}

/** The defaults of the core kinds, by type key (the served ones': defaults-served.ts). */
export function coreDefaults(t: ResourceType): ((o: KubeObject) => void) | undefined {
  return BY_TYPE[typeKey(t)]
}
