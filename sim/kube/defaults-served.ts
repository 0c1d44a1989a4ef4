// Defaulting of the built-in kinds served beyond the core set (served-kinds.ts), as the `SetDefaults_*`
// functions of kubernetes/kubernetes@v1.33.2 set them: pkg/apis/batch/v1/defaults.go (CronJob),
// pkg/apis/core/v1/defaults.go (ReplicationController, PersistentVolume(Claim), LimitRangeItem),
// pkg/apis/networking/v1/defaults.go (NetworkPolicy), pkg/apis/storage/v1/defaults.go
// (StorageClass, CSIDriver), pkg/apis/autoscaling/v2/defaults.go (HPA), pkg/apis/discovery/v1/
// defaults.go (EndpointPort), pkg/apis/admissionregistration/v1/defaults.go (webhooks).
import { coreDefaults, defaultTemplate } from './defaults.js'
import { typeKey, type KubeObject, type ResourceType } from './store.js'

type Obj = Record<string, any>
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)

function dflt(o: Obj, k: string, v: unknown): void {
  if (o[k] === undefined || o[k] === null) o[k] = v
}

function defaultCronJob(o: Obj): void {
  const spec = (o.spec ??= {})
  dflt(spec, 'concurrencyPolicy', 'Allow')
  dflt(spec, 'suspend', false)
  dflt(spec, 'successfulJobsHistoryLimit', 3)
  dflt(spec, 'failedJobsHistoryLimit', 1)
  if (isObj(spec.jobTemplate?.spec)) defaultTemplate(spec.jobTemplate.spec)
}

function defaultReplicationController(o: Obj): void {
  const spec = (o.spec ??= {})
  const labels = spec.template?.metadata?.labels
  if (isObj(labels)) {
    if (!spec.selector || !Object.keys(spec.selector).length) spec.selector = { ...labels }
    if (!Object.keys(o.metadata?.labels ?? {}).length) o.metadata = { ...o.metadata, labels: { ...labels } }
  }
  dflt(spec, 'replicas', 1)
  if (isObj(spec.template)) defaultTemplate(spec)
}

function defaultNetworkPolicy(o: Obj): void {
  const spec = (o.spec ??= {})
  for (const dir of ['ingress', 'egress'])
    for (const rule of Array.isArray(spec[dir]) ? spec[dir] : [])
      for (const p of Array.isArray(rule?.ports) ? rule.ports : []) if (isObj(p)) dflt(p, 'protocol', 'TCP')
  if (!Array.isArray(spec.policyTypes) || !spec.policyTypes.length) {
    spec.policyTypes = ['Ingress']
    if (Array.isArray(spec.egress) && spec.egress.length) spec.policyTypes.push('Egress')
  }
}

function defaultWebhooks(o: Obj, mutating: boolean): void {
  for (const w of Array.isArray(o.webhooks) ? o.webhooks : []) {
    if (!isObj(w)) continue
    dflt(w, 'failurePolicy', 'Fail')
    dflt(w, 'matchPolicy', 'Equivalent')
    dflt(w, 'namespaceSelector', {})
    dflt(w, 'objectSelector', {})
    dflt(w, 'timeoutSeconds', 10)
    if (mutating) dflt(w, 'reinvocationPolicy', 'Never')
    for (const r of Array.isArray(w.rules) ? w.rules : []) if (isObj(r)) dflt(r, 'scope', '*')
    if (isObj(w.clientConfig?.service)) dflt(w.clientConfig.service, 'port', 443)
  }
}

function defaultLimitRange(o: Obj): void {
  for (const item of Array.isArray(o.spec?.limits) ? o.spec.limits : []) {
    if (!isObj(item) || item.type !== 'Container') continue
    for (const [k, v] of Object.entries(item.max ?? {})) {
      item.default ??= {}
      dflt(item.default, k, v)
    }
    for (const [k, v] of Object.entries(item.default ?? {})) {
      item.defaultRequest ??= {}
      dflt(item.defaultRequest, k, v)
    }
  }
}

export const SERVED_DEFAULTS: Record<string, (o: Obj) => void> = {
  'cronjobs.batch': defaultCronJob,
  replicationcontrollers: defaultReplicationController,
  persistentvolumes: o => {
    const spec = (o.spec ??= {})
    dflt(spec, 'persistentVolumeReclaimPolicy', 'Retain')
    dflt(spec, 'volumeMode', 'Filesystem')
    dflt((o.status ??= {}), 'phase', 'Pending')
  },
  persistentvolumeclaims: o => {
    dflt((o.spec ??= {}), 'volumeMode', 'Filesystem')
    dflt((o.status ??= {}), 'phase', 'Pending')
  },
  limitranges: defaultLimitRange,
  'networkpolicies.networking.k8s.io': defaultNetworkPolicy,
  'storageclasses.storage.k8s.io': o => {
    dflt(o, 'reclaimPolicy', 'Delete')
    dflt(o, 'volumeBindingMode', 'Immediate')
  },
  'csidrivers.storage.k8s.io': o => {
    const spec = (o.spec ??= {})
    dflt(spec, 'attachRequired', true)
    dflt(spec, 'podInfoOnMount', false)
    dflt(spec, 'storageCapacity', false)
    dflt(spec, 'fsGroupPolicy', 'ReadWriteOnceWithFSType')
    dflt(spec, 'requiresRepublish', false)
    dflt(spec, 'seLinuxMount', false)
    if (!Array.isArray(spec.volumeLifecycleModes) || !spec.volumeLifecycleModes.length)
      spec.volumeLifecycleModes = ['Persistent']
  },
  'horizontalpodautoscalers.autoscaling': o => {
    const spec = (o.spec ??= {})
    dflt(spec, 'minReplicas', 1)
    if (!Array.isArray(spec.metrics) || !spec.metrics.length)
      spec.metrics = [
        {
          type: 'Resource',
          resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } }
        }
      ]
  },
  'endpointslices.discovery.k8s.io': o => {
    for (const p of Array.isArray(o.ports) ? o.ports : []) {
      if (!isObj(p)) continue
      dflt(p, 'name', '')
      dflt(p, 'protocol', 'TCP')
    }
  },
  'mutatingwebhookconfigurations.admissionregistration.k8s.io': o => defaultWebhooks(o, true),
  'validatingwebhookconfigurations.admissionregistration.k8s.io': o => defaultWebhooks(o, false)
}

/** Applies the defaults of `t` to `obj` (in place); kinds without defaults are left as they are. */
export function defaultObject(t: ResourceType, obj: KubeObject): void {
  ;(coreDefaults(t) ?? SERVED_DEFAULTS[typeKey(t)])?.(obj)
}
