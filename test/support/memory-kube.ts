// Unit-test helper: a KubeClient stand-in over a MemoryCluster, with what the modules that start
// pods and DaemonSets call (verify, transport, benchmark), no simulated world behind it. It follows
// the real client (src/kube/client.ts): request() wraps a failure as KubeRequestError, get gives
// undefined for an object that is not there, list (one call, after an event-loop turn, as a page
// request) wraps its failure as `list <Kind>`, applyManifest creates when there is no live
// object, podLog gives '' for a pod that is gone. What the API server answers (409 AlreadyExists
// for a create of an existing pod, DaemonSet or Secret, 404, a uid precondition's 409) is the
// cluster's store's; here only: a created pod is Pending, deleteCollection by label, a DaemonSet
// deleted in the background takes its pods with it (the garbage collector's part).
// Every call is recorded in `calls` (as `say` words it; a word that is undefined is not recorded)
// and every request's `what` in `requests`. A call can be made to fail once (`failNext`) or always
// (`failAlways`), by the name of the point: list, watchList, createNamespacedPod,
// deleteCollectionNamespacedPod, deleteNamespacedDaemonSet. With `kubelet`, each pod created is
// given its status (and log) once a watch is open, as a kubelet would once the pod is watched.
import type { KubeClient } from '../../src/kube/client.js'
import { httpStatusOf, KubeRequestError, messageOf } from '../../src/kube/errors.js'
import type { KubeObject, KubeRef, ListOptions } from '../../src/kube/types.js'
import { MemoryCluster } from './memory-cluster.js'
import { memoryConfigMapApi } from './memory-record.js'

export interface DeleteOptions {
  namespace: string
  labelSelector?: string
  name?: string
  gracePeriodSeconds?: number
  propagationPolicy?: string
}
export interface LogOptions {
  container?: string
  tailLines?: number
}

/** How each call is written into `calls`; undefined leaves it out. */
export interface Say {
  request: (what: string) => string | undefined
  get: (ref: KubeRef) => string | undefined
  apply: (m: KubeObject, opts: { live?: KubeObject | null }) => string | undefined
  list: (apiVersion: string, kind: string, opts: ListOptions) => string | undefined
  watch: (apiVersion: string, kind: string, opts: ListOptions) => string | undefined
  createPod: (namespace: string, body: KubeObject) => string | undefined
  deletePods: (q: DeleteOptions) => string | undefined
  podLog: (namespace: string, name: string, opts: LogOptions) => string | undefined
  createDaemonSet: (namespace: string, body: KubeObject) => string | undefined
  deleteDaemonSet: (q: DeleteOptions) => string | undefined
}

export const DEFAULT_SAY: Say = {
  request: () => undefined,
  get: ref => `get ${ref.kind}/${ref.name}`,
  apply: m => `apply ${m.kind}/${m.metadata.name}`,
  list: (_v, kind, o) => `list ${kind} -n ${o.namespace} -l ${o.labelSelector}`,
  watch: (_v, kind, o) => `watch ${kind} -n ${o.namespace} -l ${o.labelSelector}`,
  createPod: (ns, body) => `create pod ${ns}/${body.metadata.name}`,
  deletePods: q =>
    `delete pods -n ${q.namespace} -l ${q.labelSelector} grace=${q.gracePeriodSeconds} ${q.propagationPolicy}`,
  podLog: (ns, name, o) => `logs ${ns}/${name} -c ${o.container} --tail ${o.tailLines}`,
  createDaemonSet: (ns, body) => `create DaemonSet ${ns}/${body.metadata.name}`,
  deleteDaemonSet: q =>
    `delete DaemonSet ${q.namespace}/${q.name} grace=${q.gracePeriodSeconds} ${q.propagationPolicy}`
}

/** What a kubelet does with a pod once it is watched: a status (and the log it leaves), removal, nothing. */
export type Kubelet = (pod: KubeObject) => { status: object; log?: string } | 'remove' | undefined

export interface MemoryKubeOptions {
  /** Words for `calls`, over DEFAULT_SAY. */
  say?: Partial<Say>
  /** Objects in the cluster from the start (nodes...). */
  objects?: KubeObject[]
  /** Each pod create and log read takes an event-loop turn first, so concurrent ones overlap (see maxInFlight). */
  slow?: boolean
  /** The error creating this pod fails with, if any (after the call is recorded). */
  createError?: (pod: KubeObject) => Error | undefined
  kubelet?: Kubelet
}

export interface MemoryKube {
  kube: KubeClient
  cluster: MemoryCluster
  calls: string[]
  /** Each request's `what`, in order. */
  requests: string[]
  /** Pods as they were sent to create, in order (the ones the API accepted). */
  created: KubeObject[]
  /** Each pod's log by name, or the error reading it fails with. */
  logs: Map<string, string | Error>
  /** Fails the next call at this point with the error. */
  failNext: Map<string, unknown>
  /** Fails every call at this point with the error. */
  failAlways: Map<string, unknown>
  /** Errors a list of `apiVersion/kind` fails with. */
  listFailures: Map<string, unknown>
  /** The most pod creates and log reads under way at once (with `slow`). */
  maxInFlight: { create: number; log: number }
}

export function memoryKube(o: MemoryKubeOptions = {}): MemoryKube {
  const say: Say = { ...DEFAULT_SAY, ...o.say }
  const cluster = new MemoryCluster()
  for (const obj of o.objects ?? []) cluster.put(obj)
  const calls: string[] = []
  const requests: string[] = []
  const created: KubeObject[] = []
  const logs = new Map<string, string | Error>()
  const failNext = new Map<string, unknown>()
  const failAlways = new Map<string, unknown>()
  const listFailures = new Map<string, unknown>()
  const maxInFlight = { create: 0, log: 0 }
  const inFlight = { create: 0, log: 0 }
  const record = (line: string | undefined) => {
    if (line !== undefined) calls.push(line)
  }
  const fail = (point: string) => {
    const e = failNext.get(point)
    if (e !== undefined) {
      failNext.delete(point)
      throw e
    }
    const always = failAlways.get(point)
    if (always !== undefined) throw always
  }
  const track = async <T>(k: 'create' | 'log', fn: () => T): Promise<T> => {
    if (!o.slow) return fn()
    inFlight[k]++
    maxInFlight[k] = Math.max(maxInFlight[k], inFlight[k])
    await new Promise(r => setImmediate(r))
    try {
      return fn()
    } finally {
      inFlight[k]--
    }
  }
  let kubeletDone = 0
  const runKubelet = (): void => {
    const now = created.slice(kubeletDone)
    kubeletDone = created.length
    for (const body of now) {
      const { name, namespace } = body.metadata
      const pod = cluster.get('v1', 'Pod', name, namespace)
      if (!pod) continue
      const out = o.kubelet!(pod)
      if (out === 'remove') cluster.remove('v1', 'Pod', name, namespace)
      else if (out) {
        if (out.log !== undefined) logs.set(name, out.log)
        cluster.put({ ...pod, status: out.status })
      }
    }
  }
  const kube = {
    request: async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
      requests.push(what)
      record(say.request(what))
      try {
        return await fn()
      } catch (e) {
        throw new KubeRequestError(what, httpStatusOf(e), messageOf(e), e)
      }
    },
    get: async (ref: KubeRef) => {
      record(say.get(ref))
      return cluster.get(ref.apiVersion, ref.kind, ref.name, ref.namespace)
    },
    applyManifest: async (m: KubeObject, opts: { live?: KubeObject | null } = {}) => {
      record(say.apply(m, opts))
      return { created: !opts.live, changed: true, object: cluster.put(m) }
    },
    list: async (apiVersion: string, kind: string, opts: ListOptions = {}) => {
      record(say.list(apiVersion, kind, opts))
      await new Promise(r => setImmediate(r))
      try {
        fail('list')
        const e = listFailures.get(`${apiVersion}/${kind}`)
        if (e !== undefined) throw e
      } catch (e) {
        throw new KubeRequestError(`list ${kind}`, httpStatusOf(e), messageOf(e), e)
      }
      return { items: cluster.all(apiVersion, kind, opts), resourceVersion: '1' }
    },
    watchSource: (apiVersion: string, kind: string, opts: ListOptions = {}) => {
      record(say.watch(apiVersion, kind, opts))
      const src = cluster.source(apiVersion, kind, opts)
      return {
        ...src,
        list: async () => {
          fail('watchList')
          return src.list()
        },
        watch: async (...args: Parameters<typeof src.watch>) => {
          const h = await src.watch(...args)
          if (o.kubelet) setImmediate(runKubelet)
          return h
        }
      }
    },
    podLog: (namespace: string, name: string, opts: LogOptions = {}) =>
      track('log', () => {
        record(say.podLog(namespace, name, opts))
        const l = logs.get(name)
        if (l instanceof Error) throw l
        return cluster.get('v1', 'Pod', name, namespace) ? (l ?? '') : ''
      }),
    // As KubeClient.deleteObject: a DELETE with the uid precondition; 404 is false.
    deleteObject: async (ref: KubeRef, uid?: string) => {
      record(`delete ${ref.kind} ${ref.namespace ?? ''}/${ref.name}${uid ? ` uid ${uid}` : ''}`)
      return deleteByRef(cluster, ref, uid)
    },
    core: {
      // The ownership record the work namespace's create is written into.
      ...memoryConfigMapApi(cluster),
      createNamespacedSecret: async ({ namespace, body }: { namespace: string; body: KubeObject }) => {
        record(`create Secret ${namespace}/${body.metadata.name}`)
        return cluster.create(body, namespace)
      },
      createNamespacedPod: ({ namespace, body }: { namespace: string; body: KubeObject }) =>
        track('create', () => {
          record(say.createPod(namespace, body))
          fail('createNamespacedPod')
          const err = o.createError?.(body)
          if (err) throw err
          const pod = cluster.create({ ...body, status: { phase: 'Pending' } }, namespace)
          created.push({ ...body, metadata: { ...body.metadata, namespace } })
          return pod
        }),
      deleteCollectionNamespacedPod: async (q: DeleteOptions) => {
        record(say.deletePods(q))
        fail('deleteCollectionNamespacedPod')
        for (const p of cluster.all('v1', 'Pod', { namespace: q.namespace, labelSelector: q.labelSelector }))
          cluster.remove('v1', 'Pod', p.metadata.name, q.namespace)
        return { kind: 'Status', status: 'Success' }
      }
    },
    apps: {
      createNamespacedDaemonSet: async ({ namespace, body }: { namespace: string; body: KubeObject }) => {
        record(say.createDaemonSet(namespace, body))
        return cluster.create(body, namespace)
      },
      deleteNamespacedDaemonSet: async (q: DeleteOptions & { name: string }) => {
        record(say.deleteDaemonSet(q))
        fail('deleteNamespacedDaemonSet')
        const ds = cluster.delete('apps/v1', 'DaemonSet', q.name, q.namespace).object
        // Background propagation: the garbage collector removes the DaemonSet's pods.
        for (const p of cluster.all('v1', 'Pod', { namespace: q.namespace }))
          if (p.metadata.ownerReferences?.some(r => r.uid === ds.metadata.uid))
            cluster.remove('v1', 'Pod', p.metadata.name, q.namespace)
        return {}
      }
    }
  } as unknown as KubeClient
  return {
    kube,
    cluster,
    calls,
    requests,
    created,
    logs,
    failNext,
    failAlways,
    listFailures,
    maxInFlight
  }
}

/**
 * KubeClient.deleteObject's request over `cluster`: a DELETE with the uid precondition (the store's
 * 409 when the object is another one, as KubeRequestError), false when there is none.
 */
export async function deleteByRef(cluster: MemoryCluster, ref: KubeRef, uid?: string): Promise<boolean> {
  const what = `delete ${ref.kind} ${ref.name}`
  try {
    cluster.delete(ref.apiVersion, ref.kind, ref.name, ref.namespace, uid ? { preconditions: { uid } } : {})
    return true
  } catch (e) {
    if (httpStatusOf(e) === 404) return false
    throw new KubeRequestError(what, httpStatusOf(e), messageOf(e), e)
  }
}

/** A few event-loop turns until `cond` (the module's pod created, its watch open). */
export async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500 && !cond(); i++) await new Promise(r => setImmediate(r))
  if (!cond()) throw new Error(`never: ${what}`)
}

/** Until the module has its watch open (the list done). */
export const watching = (c: MemoryCluster, who = 'the module'): Promise<void> =>
  until(() => c.openWatches > 0, `${who} opened its watch`)

/** Until the module waits on pod `name` (created, watched). */
export const waitingOn = (c: MemoryCluster, name: string, namespace: string): Promise<void> =>
  until(() => !!c.get('v1', 'Pod', name, namespace) && c.openWatches > 0, `waiting on ${name}`)

/** The pod with a new status, as the kubelet reports it. */
export function setPodStatus(c: MemoryCluster, name: string, namespace: string, status: object): void {
  const p = c.get('v1', 'Pod', name, namespace)!
  c.put({ ...p, status })
}

/** A pod's status as the scheduler leaves it when no node fits: Pending, PodScheduled False. */
export const unschedulableStatus = (message: string) => ({
  phase: 'Pending',
  conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message }]
})
