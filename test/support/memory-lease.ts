// Unit-test helper: the coordination.k8s.io/v1 Lease API over a MemoryCluster, the calls
// src/stack/lease.ts makes, each answered by the cluster's store as the API server answers it (404,
// 409 AlreadyExists, 409 Conflict on a stale resourceVersion, the delete's uid and resourceVersion
// preconditions). Each call's arguments are kept (`args`); a one-shot hook can run
// before the next call of an op (`before`: change the cluster, throw) and an op can keep failing
// (`failing`, until cleared). memoryLeaseClient wraps it as a KubeClient holding only the Lease's
// calls, request() recording its `what` (and the flag it is given), watchSource() its arguments.
import type { KubeClient } from '../../src/kube/client.js'
import type { KubeObject } from '../../src/kube/types.js'
import type { WatchSource } from '../../src/kube/watch.js'
import { captureLog, type CapturedLog } from './capture-log.js'
import { ManualClock } from './manual-clock.js'
import { MemoryCluster } from './memory-cluster.js'

export const LEASE_API = 'coordination.k8s.io/v1'
export const LEASE_NAME = 'aks-rdma-action'
export const LEASE_NS = 'kube-system'

export type LeaseOp = 'read' | 'create' | 'replace' | 'delete'

/** What the API server answers a replace of the Lease at a stale resourceVersion (the store's 409 Conflict). */
export function leaseConflict(): Error {
  const c = new MemoryCluster()
  const stale = putLease(c, {})
  putLease(c, { leaseTransitions: 1 })
  return refusal(() => c.replace(stale))
}

/** What the API server answers a read of a Lease that is not there (the store's 404). */
export const leaseNotFound = (name = LEASE_NAME): Error =>
  refusal(() => new MemoryCluster().read(LEASE_API, 'Lease', name, LEASE_NS))

function refusal(fn: () => unknown): Error {
  try {
    fn()
  } catch (e) {
    return e as Error
  }
  throw new Error('memory-lease: the store accepted what it should refuse')
}

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
  const coordination = {
    readNamespacedLease: async (a: { name: string; namespace: string }) => {
      gate('read', a)
      return cluster.read(LEASE_API, 'Lease', a.name, a.namespace)
    },
    createNamespacedLease: async (a: { namespace: string; body: KubeObject }) => {
      gate('create', a)
      return cluster.create(a.body, a.namespace)
    },
    replaceNamespacedLease: async (a: { name: string; namespace: string; body: KubeObject }) => {
      gate('replace', a)
      return cluster.replace({ ...a.body, metadata: { ...a.body.metadata, name: a.name } }, a.namespace)
    },
    deleteNamespacedLease: async (a: { name: string; namespace: string; body?: any }) => {
      gate('delete', a)
      cluster.delete(LEASE_API, 'Lease', a.name, a.namespace, { preconditions: a.body?.preconditions })
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

/** What a Lease test starts from: a fresh cluster, its Lease client, a manual clock and a log. */
export interface LeaseWorld {
  cluster: MemoryCluster
  kube: ReturnType<typeof memoryLeaseClient>
  clock: ManualClock
  log: CapturedLog
}

export function leaseWorld(): LeaseWorld {
  const cluster = new MemoryCluster()
  return { cluster, kube: memoryLeaseClient(cluster), clock: new ManualClock(), log: captureLog() }
}
