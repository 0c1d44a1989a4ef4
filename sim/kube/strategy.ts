// The built-in types' StoreStrategy: what kube-apiserver's registry strategies do on create,
// update and delete (kubernetes/kubernetes@v1.33: pkg/registry/*/strategy.go and storage.go):
// admission and defaulting on create, defaulting and validation on update, which kinds keep
// metadata.generation (workloads, Jobs, pods, CRDs, every custom resource) and what bumps it,
// a Job's generated selector, a Service's cluster IP and node ports (node-ports.ts), a Namespace's `kubernetes` finalizer and
// its termination (the first DELETE marks it Terminating; it goes once the namespace controller
// has emptied it and removed the finalizer), the pod's graceful deletion (grace from the request,
// else spec.terminationGracePeriodSeconds; 0 for a pod never scheduled or already finished), and
// batch/v1 Jobs orphaning their pods when a delete names no propagation policy.
import { admit } from './admission.js'
import { defaultObject } from './defaults-served.js'
import { allocateNodePorts } from './node-ports.js'
import { podQosClass } from './qos.js'
import type { DeleteOptions } from './deletion.js'
import type { KubeObject, ObjectStore, StoreStrategy } from './store.js'
import { StoreError, typeKey } from './store.js'
import { validateObject } from './validation.js'

export const NAMESPACE_FINALIZER = 'kubernetes'

/** Kinds whose strategy keeps metadata.generation, and the part of the object that bumps it. */
const GENERATION: Record<string, (o: KubeObject) => unknown> = {
  'deployments.apps': o => [o.spec, o.metadata.annotations ?? {}],
  'daemonsets.apps': o => o.spec,
  'replicasets.apps': o => o.spec,
  'statefulsets.apps': o => o.spec,
  'jobs.batch': o => o.spec,
  'cronjobs.batch': o => o.spec,
  'poddisruptionbudgets.policy': o => o.spec,
  'horizontalpodautoscalers.autoscaling': o => o.spec,
  'networkpolicies.networking.k8s.io': o => o.spec,
  'ingresses.networking.k8s.io': o => o.spec,
  replicationcontrollers: o => o.spec,
  pods: o => o.spec,
  'customresourcedefinitions.apiextensions.k8s.io': o => o.spec
}

/** The job strategy's generateSelector: the controller-uid / job-name labels and the selector. */
function generateJobSelector(job: KubeObject): void {
  const spec = (job.spec ??= {})
  if (spec.manualSelector === true) return
  const template = (spec.template ??= {})
  const labels = ((template.metadata ??= {}).labels ??= {})
  for (const k of ['job-name', 'batch.kubernetes.io/job-name']) labels[k] ??= job.metadata.name
  for (const k of ['controller-uid', 'batch.kubernetes.io/controller-uid']) labels[k] ??= job.metadata.uid
  const selector = (spec.selector ??= {})
  const matchLabels = (selector.matchLabels ??= {})
  matchLabels['batch.kubernetes.io/controller-uid'] ??= job.metadata.uid
}

/** ClusterIPs from the AKS default service CIDR (10.0.0.0/16; .1 is the `kubernetes` service). */
class ServiceIps {
  private next = 1
  private readonly used = new Set<string>()
  constructor(private readonly store: ObjectStore) {}
  allocate(svc: KubeObject): void {
    const spec = (svc.spec ??= {})
    if (spec.type === 'ExternalName') return
    const t = this.store.type('', 'services')
    if (t) for (const s of this.store.scan(t)) if (s.spec?.clusterIP) this.used.add(s.spec.clusterIP)
    if (!spec.clusterIP) {
      let ip: string
      do {
        const n = this.next++
        ip = `10.0.${Math.floor(n / 254) % 256}.${(n % 254) + 1}`
      } while (this.used.has(ip))
      spec.clusterIP = ip
    }
    this.used.add(spec.clusterIP)
    spec.clusterIPs ??= [spec.clusterIP]
    if (spec.clusterIP !== 'None') {
      spec.ipFamilies ??= ['IPv4']
      spec.ipFamilyPolicy ??= 'SingleStack'
    }
  }
}

function prepareNamespace(ns: KubeObject): void {
  const spec = (ns.spec ??= {})
  const finalizers: string[] = spec.finalizers ?? []
  if (!finalizers.includes(NAMESPACE_FINALIZER)) finalizers.push(NAMESPACE_FINALIZER)
  spec.finalizers = finalizers
  ns.status = { phase: 'Active' }
}

/**
 * A Namespace's first DELETE: deletionTimestamp and phase Terminating (and the orphan /
 * foreground finalizers the options ask for); later ones conflict until it is finalized.
 */
function beginNamespaceDelete(ns: KubeObject, o: DeleteOptions, nowTime: string): KubeObject | undefined {
  if (ns.metadata.deletionTimestamp) {
    if ((ns.spec?.finalizers ?? []).length)
      throw new StoreError(
        409,
        'Conflict',
        `Operation cannot be fulfilled on namespaces "${ns.metadata.name}": The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system.`
      )
    return undefined
  }
  ns.metadata.deletionTimestamp = nowTime
  ns.status = { ...(ns.status ?? {}), phase: 'Terminating' }
  const have = new Set(ns.metadata.finalizers ?? [])
  const orphan =
    o.orphanDependents ?? (o.propagationPolicy ? o.propagationPolicy === 'Orphan' : have.has('orphan'))
  const foreground = o.propagationPolicy
    ? o.propagationPolicy === 'Foreground'
    : have.has('foregroundDeletion')
  if (orphan) have.add('orphan')
  else have.delete('orphan')
  if (foreground) have.add('foregroundDeletion')
  else have.delete('foregroundDeletion')
  if (have.size) ns.metadata.finalizers = [...have]
  else delete ns.metadata.finalizers
  return ns
}

/** The pod strategy's CheckGracefulDelete. */
function podGrace(pod: KubeObject, requested: number | undefined): number {
  let period = requested ?? pod.spec?.terminationGracePeriodSeconds ?? 0
  if (!pod.spec?.nodeName) period = 0
  if (pod.status?.phase === 'Failed' || pod.status?.phase === 'Succeeded') period = 0
  return period < 0 ? 1 : period
}

/** The strategy of the built-in types in `store` (custom resources keep generation, nothing else). */
export function builtinStrategy(store: ObjectStore, builtinKeys: Set<string>): StoreStrategy {
  const ips = new ServiceIps(store)
  return {
    prepareForCreate(t, obj) {
      admit(store, t, obj)
      defaultObject(t, obj)
      const tk = typeKey(t)
      if (tk === 'jobs.batch') generateJobSelector(obj)
      if (tk === 'services') {
        ips.allocate(obj)
        allocateNodePorts(store, t, obj)
      }
      if (tk === 'namespaces') prepareNamespace(obj)
      defaultObject(t, obj)
      // The QoS class from the pod as admission left it (PrepareForCreate runs after it).
      // (A client's create has its status reset to Pending by the handler; an in-process fixture's stays.)
      if (tk === 'pods') obj.status = { phase: 'Pending', ...(obj.status ?? {}), qosClass: podQosClass(obj) }
      validateObject(t, obj)
    },
    prepareForUpdate(t, next, old) {
      defaultObject(t, next)
      if (typeKey(t) === 'services' && old.spec?.clusterIP && !next.spec?.clusterIP) {
        next.spec = { ...next.spec, clusterIP: old.spec.clusterIP, clusterIPs: old.spec.clusterIPs }
      }
      if (typeKey(t) === 'services') allocateNodePorts(store, t, next, old)
      validateObject(t, next, old)
    },
    prepareForStatusUpdate(t, next, written) {
      // The deployment status strategy resets only spec and labels: the controller records the
      // revision annotation through a status write (no generation bump).
      if (typeKey(t) === 'deployments.apps' && written.metadata?.annotations)
        next.metadata.annotations = structuredClone(written.metadata.annotations)
    },
    generationInput(t, obj) {
      const f = GENERATION[typeKey(t)]
      if (f) return f(obj)
      if (builtinKeys.has(typeKey(t))) return undefined
      // A custom resource: everything but metadata (and status, with the status subresource).
      const { metadata: _m, status, ...rest } = obj
      return (t.subresources ?? []).includes('status') ? rest : { ...rest, status }
    },
    beginDelete: (t, live, o) =>
      typeKey(t) === 'namespaces' ? beginNamespaceDelete(live, o, store.nowTime()) : undefined,
    gracePeriod: (t, live, requested) => (typeKey(t) === 'pods' ? podGrace(live, requested) : undefined),
    defaultPropagation: t => (typeKey(t) === 'jobs.batch' ? 'Orphan' : 'Background'),
    mayRemoveOnUpdate: (t, next) => typeKey(t) !== 'namespaces' || !(next.spec?.finalizers ?? []).length
  }
}
