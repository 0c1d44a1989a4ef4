// The admission the simulated API server applies to every create, whoever makes it (a client over
// HTTPS or a controller in-process), as kube-apiserver's default plugins do
// (kubernetes/kubernetes@v1.33: plugin/pkg/admission/namespace/lifecycle, plugin/pkg/admission/priority,
// plugin/pkg/admission/serviceaccount, plugin/pkg/admission/defaulttolerationseconds):
// - NamespaceLifecycle: nothing is created in a namespace that is being terminated (403 with the
//   NamespaceTerminating cause), and `default`, `kube-system` and `kube-public` are never deleted
//   (403, admitDelete; k8s.io/apiserver@v0.33.2 pkg/admission/plugin/namespace/lifecycle);
// - Priority: a priorityClassName must name an existing PriorityClass (the built-in
//   system-node-critical and system-cluster-critical exist from the start); spec.priority /
//   spec.preemptionPolicy are filled in from it (0 / PreemptLowerPriority without one); a pod naming
//   a missing class, or giving a priority that differs from its class's, is refused with the real
//   403 message; controllers turn such a refusal into a FailedCreate event, as the real ones do;
// - ServiceAccount: spec.serviceAccountName defaults to `default` (the token volume is not added);
//   a pod naming an account its namespace lacks is refused (403 `error looking up service account
//   <ns>/<name>: serviceaccount "<name>" not found`); a missing `default` passes, standing for the
//   plugin's retries while the service account controller creates it;
// - LimitRanger: the namespace's LimitRanges default and bound containers' resources (limit-ranger.ts);
// - ResourceQuota: a create beyond a quota of its namespace is refused (resource-quota.ts), last;
// - DefaultTolerationSeconds: pods tolerate node.kubernetes.io/not-ready and /unreachable
//   (NoExecute) for 300 s unless they already say otherwise;
// - then the scenario's `kube.mutatePods`, standing for a mutating policy of the cluster (a webhook
//   or a MutatingAdmissionPolicy, which run after the built-in plugins) that changes pods before
//   they are stored.
import type { PodMutationSpec } from '../scenario.js'
import { limitPod } from './limit-ranger.js'
import { admitQuota } from './resource-quota.js'
import { StoreError, type KubeObject, type ObjectStore, type ResourceType } from './store.js'

/** The built-in classes every Kubernetes API server creates at start-up. */
const SYSTEM_PRIORITY_CLASSES = [
  {
    name: 'system-node-critical',
    value: 2000001000,
    description: 'Used for system critical pods that must not be moved from their current node.'
  },
  {
    name: 'system-cluster-critical',
    value: 2000000000,
    description:
      'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.'
  }
]

/** Creates the built-in PriorityClasses (once). */
export function seedPriorityClasses(store: ObjectStore): void {
  const t = store.type('scheduling.k8s.io', 'priorityclasses')
  if (!t) return
  for (const c of SYSTEM_PRIORITY_CLASSES)
    if (!store.tryGet(t, undefined, c.name))
      store.create(t, {
        apiVersion: 'scheduling.k8s.io/v1',
        kind: 'PriorityClass',
        metadata: { name: c.name },
        value: c.value,
        globalDefault: false,
        preemptionPolicy: 'PreemptLowerPriority',
        description: c.description
      })
}

/** The Priority admission plugin: resolves a pod's priorityClassName into spec.priority. */
export function admitPod(store: ObjectStore, pod: KubeObject): void {
  const t = store.type('scheduling.k8s.io', 'priorityclasses')
  if (!t || !pod.spec) return
  const name: string | undefined = pod.spec.priorityClassName
  const classes = store.list(t).items
  const pc = name ? classes.find(c => c.metadata.name === name) : classes.find(c => c.globalDefault === true)
  if (name && !pc)
    throw new StoreError(
      403,
      'Forbidden',
      `pods "${pod.metadata.name}" is forbidden: no PriorityClass with name ${name} was found`
    )
  const value = pc ? Number(pc.value ?? 0) : 0
  if (pc && pod.spec.priority !== undefined && pod.spec.priority !== value)
    throw new StoreError(
      403,
      'Forbidden',
      `pods "${pod.metadata.name}" is forbidden: the integer value of priority (${pod.spec.priority}) must not be provided in pod spec; priority admission controller computed ${value} from the given PriorityClass name`
    )
  if (pc && !name) pod.spec.priorityClassName = pc.metadata.name
  pod.spec.priority = value
  pod.spec.preemptionPolicy = pc?.preemptionPolicy ?? 'PreemptLowerPriority'
}

/**
 * The scenario's mutating policies (`kube.mutatePods`), as a mutating admission webhook or a
 * MutatingAdmissionPolicy applies them before the pod is stored: for a pod with a container whose
 * image matches, drop the named extended resources from every container's requests and limits, and
 * give a memory limit to every container without one.
 */
export function mutatePod(pod: KubeObject, policies: readonly PodMutationSpec[]): void {
  const containers: any[] = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])]
  for (const p of policies) {
    if (!containers.some(c => String(c.image ?? '').includes(p.image))) continue
    for (const c of containers) {
      for (const r of p.dropResources ?? []) {
        delete c.resources?.requests?.[r]
        delete c.resources?.limits?.[r]
      }
      if (p.memoryLimit && c.resources?.limits?.memory === undefined) {
        c.resources = {
          ...(c.resources ?? {}),
          limits: { ...(c.resources?.limits ?? {}), memory: p.memoryLimit }
        }
      }
    }
  }
}

const DEFAULT_TOLERATIONS = ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable']

/** ServiceAccount and DefaultTolerationSeconds defaults of a new pod. */
function podDefaults(pod: KubeObject): void {
  const spec = pod.spec
  if (!spec) return
  spec.serviceAccountName = spec.serviceAccountName || spec.serviceAccount || 'default'
  spec.serviceAccount = spec.serviceAccountName
  const tolerations: any[] = spec.tolerations ?? []
  for (const key of DEFAULT_TOLERATIONS) {
    const covered = tolerations.some(
      t => (t.key === key || !t.key) && (t.effect === 'NoExecute' || !t.effect)
    )
    if (!covered) tolerations.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 })
  }
  spec.tolerations = tolerations
}

/** The ServiceAccount plugin's lookup of the pod's account. */
function admitServiceAccount(store: ObjectStore, pod: KubeObject): void {
  const name: string | undefined = pod.spec?.serviceAccountName
  const ns = pod.metadata.namespace
  const t = store.type('', 'serviceaccounts')
  if (!t || !name || !ns || name === 'default' || store.tryGet(t, ns, name)) return
  throw new StoreError(
    403,
    'Forbidden',
    `pods "${pod.metadata.name ?? ''}" is forbidden: error looking up service account ${ns}/${name}: serviceaccount "${name}" not found`
  )
}

/** NamespaceLifecycle: 403 for a create in a namespace being terminated. */
export function admitNamespaced(store: ObjectStore, t: ResourceType, obj: KubeObject): void {
  const nsType = store.type('', 'namespaces')
  const ns = obj.metadata.namespace
  if (!t.namespaced || !nsType || !ns) return
  const live = store.tryGet(nsType, undefined, ns)
  if (live?.status?.phase !== 'Terminating' && !live?.metadata.deletionTimestamp) return
  throw new StoreError(
    403,
    'Forbidden',
    `${t.group ? `${t.plural}.${t.group}` : t.plural} "${obj.metadata.name}" is forbidden: unable to create new content in namespace ${ns} because it is being terminated`,
    [
      {
        reason: 'NamespaceTerminating',
        message: `namespace ${ns} is being terminated`,
        field: 'metadata.namespace'
      }
    ]
  )
}

/** NamespaceLifecycle's immortal namespaces, which no DELETE may remove (dry runs included). */
const IMMORTAL_NAMESPACES = new Set(['default', 'kube-system', 'kube-public'])

/** NamespaceLifecycle on a DELETE: 403 `this namespace may not be deleted` for the immortal ones. */
export function admitDelete(t: ResourceType, name: string): void {
  if (t.group !== '' || t.plural !== 'namespaces' || !IMMORTAL_NAMESPACES.has(name)) return
  throw new StoreError(
    403,
    'Forbidden',
    `namespaces "${name}" is forbidden: this namespace may not be deleted`
  )
}

/** The scenario's pod policies of each store (installAdmission). */
const podPoliciesOf = new WeakMap<ObjectStore, readonly PodMutationSpec[]>()

/** Gives `store`'s admission the scenario's mutating pod policies. */
export function installAdmission(store: ObjectStore, podPolicies: readonly PodMutationSpec[]): void {
  podPoliciesOf.set(store, podPolicies)
}

/** Every admission plugin, for a create of `obj` as `t`. */
export function admit(store: ObjectStore, t: ResourceType, obj: KubeObject): void {
  admitNamespaced(store, t, obj)
  if (t.group === '' && t.plural === 'pods') {
    admitPod(store, obj)
    podDefaults(obj)
    admitServiceAccount(store, obj)
    limitPod(store, obj)
    mutatePod(obj, podPoliciesOf.get(store) ?? [])
  }
  admitQuota(store, t, obj)
}
