// The admission the simulated API server applies to every create, whoever makes it (a client over
// HTTPS or a controller in-process): the Priority plugin for pods — a priorityClassName must name
// an existing PriorityClass (the built-in system-node-critical and system-cluster-critical exist
// from the start, as on a real server), and spec.priority / spec.preemptionPolicy are filled in
// from it; a pod naming a missing class, or giving a priority that differs from its class's, is
// refused with the real server's 403 message. Controllers that create pods turn such a refusal
// into a FailedCreate event on their object, as the real ones do. The scenario's `kube.mutatePods`
// stands for a mutating policy of the cluster (a webhook or a MutatingAdmissionPolicy) that
// changes pods before they are stored.
import type { PodMutationSpec } from '../scenario.js'
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
  if (!pc) return
  const value = Number(pc.value ?? 0)
  if (pod.spec.priority !== undefined && pod.spec.priority !== value)
    throw new StoreError(
      403,
      'Forbidden',
      `pods "${pod.metadata.name}" is forbidden: the integer value of priority (${pod.spec.priority}) must not be provided in pod spec; priority admission controller computed ${value} from the given PriorityClass name`
    )
  pod.spec.priority = value
  pod.spec.preemptionPolicy = pc.preemptionPolicy ?? 'PreemptLowerPriority'
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

/** Admission for every create in `store` (the Priority plugin, then the scenario's pod policies). */
export function installAdmission(store: ObjectStore, podPolicies: readonly PodMutationSpec[] = []): void {
  seedPriorityClasses(store)
  store.setAdmission((t: ResourceType, obj: KubeObject) => {
    if (t.group !== '' || t.plural !== 'pods') return
    mutatePod(obj, podPolicies)
    admitPod(store, obj)
  })
}
