// Unit-test helper: the coordination.k8s.io/v1 Lease API over a MemoryCluster, as the API server
// answers the calls src/stack/lease.ts makes: read gives 404 when there is none; create gives 409
// AlreadyExists when there is one; replace gives 404 when there is none and 409 Conflict on a stale
// resourceVersion, keeping the uid; delete honours its uid and resourceVersion preconditions (409)
// and gives 404 when there is none. Each call's arguments are kept (`args`); a one-shot hook can run
// before the next call of an op (`before`: change the cluster, throw) and an op can keep failing
// (`failing`, until cleared). memoryLeaseClient wraps it as a KubeClient holding only the Lease's
// calls, request() recording its `what` (and the flag it is given), watchSource() its arguments.
import type { KubeClient } from '../../src/kube/client.js'
import type { KubeObject } from '../../src/kube/types.js'
import type { WatchSource } from '../../src/kube/watch.js'
import { apiError, type MemoryCluster } from './memory-cluster.js'

export const LEASE_API = 'coordination.k8s.io/v1'
export const LEASE_NAME = 'aks-rdma-action'
export const LEASE_NS = 'kube-system'

export type LeaseOp = 'read' | 'create' | 'replace' | 'delete'

export const leaseConflict = (): Error =>
  apiError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on leases.coordination.k8s.io "${LEASE_NAME}": the object has been modified; please apply your changes to the latest version and try again`
  )
export const leaseNotFound = (name = LEASE_NAME): Error =>
  apiError(404, 'NotFound', `leases.coordination.k8s.io "${name}" not found`)

/** The Lease as it is in the cluster now. */
export const leaseOf = (cluster: MemoryCluster): KubeObject | undefined =>
  cluster.get(LEASE_API, 'Lease', LEASE_NAME, LEASE_NS)

/** Another run (or client-go) writing the Lease directly. */
export function putLease(cluster: MemoryCluster, spec: Record<string, unknown>, uid?: string): KubeObject {
  return cluster.put({
    apiVersion: LEASE_API,
    kind: 'Lease',
    metadata: { name: LEASE_NAME, namespace: LEASE_NS, ...(uid ? { uid } : {}) },
    spec
  })
}

export interface MemoryLeaseOptions {
  /** Told of each call first, before its hooks and failures (a test's own record of the writes). */
  onCall?: (op: LeaseOp) => void
}

/** The client's `coordination` calls for the Lease, over `cluster`. */
export function memoryLeaseApi(cluster: MemoryCluster, o: MemoryLeaseOptions = {}) {
  const args: Record<LeaseOp, any[]> = { read: [], create: [], replace: [], delete: [] }
  /** One-shot hooks run before the next call of an op (they may change the cluster or throw). */
  const before: Record<LeaseOp, Array<() => void>> = { read: [], create: [], replace: [], delete: [] }
  /** An op that keeps failing with this error until cleared. */
  const failing: Partial<Record<LeaseOp, Error>> = {}
  const gate = (op: LeaseOp, a: unknown): void => {
    o.onCall?.(op)
    args[op].push(structuredClone(a))
    before[op].shift()?.()
    const f = failing[op]
    if (f) throw f
  }
  const get = (name: string, namespace: string) => cluster.get(LEASE_API, 'Lease', name, namespace)
  const coordination = {
    readNamespacedLease: async (a: { name: string; namespace: string }) => {
      gate('read', a)
      const l = get(a.name, a.namespace)
      if (!l) throw leaseNotFound(a.name)
      return l
    },
    createNamespacedLease: async (a: { namespace: string; body: any }) => {
      gate('create', a)
      if (get(a.body.metadata.name, a.namespace))
        throw apiError(
          409,
          'AlreadyExists',
          `leases.coordination.k8s.io "${a.body.metadata.name}" already exists`
        )
      return cluster.put({ ...a.body, metadata: { ...a.body.metadata, namespace: a.namespace } })
    },
    replaceNamespacedLease: async (a: { name: string; namespace: string; body: any }) => {
      gate('replace', a)
      const cur = get(a.name, a.namespace)
      if (!cur) throw leaseNotFound(a.name)
      const rv = a.body.metadata?.resourceVersion
      if (rv && rv !== cur.metadata.resourceVersion) throw leaseConflict()
      return cluster.put({
        ...a.body,
        metadata: { ...a.body.metadata, namespace: a.namespace, uid: cur.metadata.uid }
      })
    },
    deleteNamespacedLease: async (a: { name: string; namespace: string; body?: any }) => {
      gate('delete', a)
      const cur = get(a.name, a.namespace)
      if (!cur) throw leaseNotFound(a.name)
      const p = a.body?.preconditions ?? {}
      if (p.uid && p.uid !== cur.metadata.uid)
        throw apiError(
          409,
          'Conflict',
          `Precondition failed: UID in precondition: ${p.uid}, UID in object meta: ${cur.metadata.uid}`
        )
      if (p.resourceVersion && p.resourceVersion !== cur.metadata.resourceVersion) throw leaseConflict()
      cluster.remove(LEASE_API, 'Lease', a.name, a.namespace)
      return { kind: 'Status', status: 'Success' }
    }
  }
  return { coordination, args, before, failing }
}

/** A KubeClient with the Lease calls only: request, watchSource and coordination. */
export function memoryLeaseClient(cluster: MemoryCluster) {
  const api = memoryLeaseApi(cluster)
  const calls: string[] = []
  const raw: unknown[] = []
  const watches: unknown[][] = []
  let source = (apiVersion: string, kind: string, opts: any): WatchSource =>
    cluster.source(apiVersion, kind, opts)
  const client = {
    request: async (what: string, fn: () => Promise<unknown>, r: unknown) => {
      calls.push(what)
      raw.push(r)
      return fn()
    },
    coordination: api.coordination,
    watchSource: (apiVersion: string, kind: string, opts: any) => {
      watches.push([apiVersion, kind, opts])
      return source(apiVersion, kind, opts)
    }
  }
  return {
    client: client as unknown as KubeClient,
    calls,
    raw,
    args: api.args,
    before: api.before,
    failing: api.failing,
    watches,
    /** Replaces what watchSource returns (a watch that fails). */
    setSource(f: typeof source) {
      source = f
    }
  }
}
