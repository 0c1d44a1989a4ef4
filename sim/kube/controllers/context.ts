// What every simulated controller shares: the store and its cache, the work queue, simulated
// time (timers that are cancelled on close), the scenario, node hardware, logs and events.
import type { SimClock } from '../../contracts.js'
import { durationOf, type FaultSpec, type Scenario } from '../../scenario.js'
import type { HardwareRegistry } from '../hardware.js'
import type { KubeObject, ObjectStore, ResourceType } from '../store.js'
import { StoreError } from '../store.js'
import type { ClusterCache } from './cache.js'
import type { LogStore } from './logs.js'
import type { WorkQueue } from './queue.js'
import type { EventRecorder } from './events.js'

export class Timers {
  private readonly cancels = new Set<() => void>()
  private closed = false
  constructor(private readonly clock: SimClock) {}
  /** Runs `fn` after `simMs` of simulated time; returns a cancel function. */
  after(simMs: number, fn: () => void): () => void {
    if (this.closed) return () => {}
    let cancel = (): void => {}
    const wrapped = (): void => {
      this.cancels.delete(cancel)
      if (!this.closed) fn()
    }
    const cancelTimer = this.clock.after(simMs, wrapped)
    cancel = () => {
      cancelTimer()
      this.cancels.delete(cancel)
    }
    this.cancels.add(cancel)
    return cancel
  }
  close(): void {
    this.closed = true
    for (const c of [...this.cancels]) c()
  }
}

export interface SimContext {
  store: ObjectStore
  cache: ClusterCache
  queue: WorkQueue
  clock: SimClock
  timers: Timers
  scenario: Scenario
  hardware: HardwareRegistry
  logs: LogStore
  events: EventRecorder
  /** Simulated wall time (ms since epoch). */
  wallNow(): number
}

export const TK = {
  nodes: 'nodes',
  pods: 'pods',
  events: 'events',
  configmaps: 'configmaps',
  namespaces: 'namespaces',
  daemonsets: 'daemonsets.apps',
  deployments: 'deployments.apps',
  replicasets: 'replicasets.apps',
  jobs: 'jobs.batch',
  nodeFeatureRules: 'nodefeaturerules.nfd.k8s-sigs.io',
  nicClusterPolicies: 'nicclusterpolicies.mellanox.com',
  clusterPolicies: 'clusterpolicies.nvidia.com'
} as const

export function typeFromKey(ctx: SimContext, tk: string): ResourceType | undefined {
  const i = tk.indexOf('.')
  return i < 0 ? ctx.store.type('', tk) : ctx.store.type(tk.slice(i + 1), tk.slice(0, i))
}

/** RFC 3339 (seconds) of the simulated wall time. */
export function isoNow(ctx: SimContext): string {
  return new Date(ctx.wallNow()).toISOString().replace(/\.\d+Z$/, 'Z')
}

/** A scenario delay (`mofed`, `gpuDriver`, `default`) in simulated ms. */
export function delayOf(ctx: SimContext, name: 'mofed' | 'gpuDriver' | 'default'): number {
  const fallback = { mofed: 300_000, gpuDriver: 240_000, default: 5_000 }[name]
  return durationOf(ctx.scenario.kube.delays?.[name] ?? ctx.scenario.kube.delays?.default, fallback)
}

/** The pod fault (name-prefix match) of the scenario, if any. */
export function podFault(ctx: SimContext, podName: string): FaultSpec | undefined {
  return (ctx.scenario.kube.faults ?? []).find(f => f.pod && f.kind && podName.startsWith(f.pod))
}

/** Creates, ignoring AlreadyExists. */
export function createIfAbsent(ctx: SimContext, t: ResourceType, obj: KubeObject): KubeObject | undefined {
  try {
    return ctx.store.create(t, obj)
  } catch (e) {
    if (e instanceof StoreError && e.code === 409) return undefined
    throw e
  }
}

/** Deletes (as a client's DELETE: graceful for pods, finalizers honoured), ignoring NotFound. */
export function deleteIfPresent(
  ctx: SimContext,
  t: ResourceType,
  ns: string | undefined,
  name: string
): void {
  try {
    ctx.store.delete(t, ns, name)
  } catch (e) {
    if (!(e instanceof StoreError && e.code === 404)) throw e
  }
}

const ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789'
/** Kubernetes' generateName suffix alphabet (5 characters). */
export function randomSuffix(n = 5): string {
  let s = ''
  for (let i = 0; i < n; i++) s += ALPHANUMS[Math.floor(Math.random() * ALPHANUMS.length)]
  return s
}

export function ownerRef(o: KubeObject, controller = true) {
  return {
    apiVersion: o.apiVersion,
    kind: o.kind,
    name: o.metadata.name,
    uid: o.metadata.uid!,
    controller,
    blockOwnerDeletion: true
  }
}

export function isControlledBy(o: KubeObject, uid: string | undefined): boolean {
  return !!uid && (o.metadata.ownerReferences ?? []).some(r => r.uid === uid && r.controller)
}

/** Sets or deletes node labels; writes only when something changes. */
export function setNodeLabels(
  ctx: SimContext,
  node: string,
  labels: Record<string, string | undefined>
): void {
  const cur = ctx.cache.get(TK.nodes, undefined, node)
  if (!cur) return
  const have = cur.metadata.labels ?? {}
  if (Object.entries(labels).every(([k, v]) => (v === undefined ? !(k in have) : have[k] === v))) return
  const t = typeFromKey(ctx, TK.nodes)!
  ctx.store.mutate(t, undefined, node, o => {
    o.metadata.labels = o.metadata.labels ?? {}
    for (const [k, v] of Object.entries(labels)) {
      if (v === undefined) delete o.metadata.labels[k]
      else o.metadata.labels[k] = v
    }
  })
}

export function isPodReady(p: KubeObject): boolean {
  return (p.status?.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True')
}

export function isPodTerminal(p: KubeObject): boolean {
  return p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed'
}

/** Neither finished nor being deleted (controller.FilterActivePods). */
export function isPodActive(p: KubeObject): boolean {
  return !isPodTerminal(p) && !p.metadata.deletionTimestamp
}
