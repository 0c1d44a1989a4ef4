// The simulated cluster's object store: typed resources, resourceVersion / generation / uid
// bookkeeping, list with selectors and pagination, watch from each type's watch cache (a watch
// from a version older than its window is answered `410 Gone`; an object leaving or entering a
// watch's selectors is delivered as DELETED / ADDED), and deletion as the generic
// registry does it (deletion.ts): graceful deletion, finalizers holding an object until they are
// removed, the orphan / foregroundDeletion finalizers a propagation policy adds. What a type does
// on create, update and delete beyond that (defaulting, admission, generation, its own delete) is
// its StoreStrategy. The API server serves the store over HTTPS; the simulated controllers use it
// in-process. Timestamps come from the world's wall clock (`now`).
import { randomUUID } from 'node:crypto'
import { type DeleteOptions, planDelete, preconditionsHold } from './deletion.js'
import { decodeContinue, encodeContinue } from './continue.js'
import { matchesFields, matchesLabels, parseFieldSelector, parseLabelSelector } from './selectors.js'
import { WatchCache } from './watch-cache.js'

import {
  type KubeObject,
  type ObjectMeta,
  type ResourceType,
  type WatchEvent,
  type WatchEventType,
  StoreError,
  apiVersionOf,
  resourceName,
  rfc3339,
  typeKey
} from './objects.js'

export type { DeleteOptions } from './deletion.js'
export {
  type KubeObject,
  type ObjectMeta,
  type ResourceType,
  type StoreErrorReason,
  type WatchEvent,
  type WatchEventType,
  StoreError,
  apiVersionOf,
  resourceName,
  rfc3339,
  typeKey
} from './objects.js'

/** What a type does beyond storage (resources.ts installs the built-in types' strategy). */
export interface StoreStrategy {
  /** Every create, after name / namespace / uid are set: defaulting and admission (may throw). */
  prepareForCreate?(t: ResourceType, obj: KubeObject): void
  /** Every update of the main resource (status writes excluded): defaulting (may throw). */
  prepareForUpdate?(t: ResourceType, next: KubeObject, old: KubeObject): void
  /** A status write: what of the written object's metadata it keeps (Deployments: annotations). */
  prepareForStatusUpdate?(t: ResourceType, next: KubeObject, written: KubeObject): void
  /** Whether `t` keeps metadata.generation, and which part of an object bumps it. */
  generationInput?(t: ResourceType, obj: KubeObject): unknown | undefined
  /** A type's own delete (a Namespace's first delete starts its termination); undefined: generic. */
  beginDelete?(t: ResourceType, live: KubeObject, opts: DeleteOptions): KubeObject | undefined
  /** The grace period of a graceful delete (pods); undefined when `t` deletes at once. */
  gracePeriod?(t: ResourceType, live: KubeObject, requested: number | undefined): number | undefined
  /** What a delete naming no policy does with dependents: 'Orphan' (batch/v1 Jobs) or 'Background'. */
  defaultPropagation?(t: ResourceType): 'Orphan' | 'Background'
  /** An update that leaves a deleting object without finalizers removes it (Namespaces: also spec.finalizers). */
  mayRemoveOnUpdate?(t: ResourceType, next: KubeObject): boolean
}

export interface DeleteResult {
  /** The object as it is now: still present with a deletionTimestamp, or its final state. */
  object: KubeObject
  /** Removed from storage (false: graceful deletion or finalizers pending). */
  removed: boolean
}

/** A change: the event, its type, and the object as it was before (undefined for a creation). */
type Listener = (event: WatchEvent, type: ResourceType, prev?: KubeObject) => void

const clone = <T>(v: T): T => structuredClone(v)

/**
 * Whether two JSON values are equal as stored objects (key order ignored, an undefined member
 * absent, undefined in an array null): the store's test for a no-op update and a spec change.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false
    return true
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const x = a as Record<string, unknown>
    const y = b as Record<string, unknown>
    let defined = 0
    for (const k in x) {
      if (x[k] === undefined) continue
      defined++
      if (y[k] === undefined || !sameJson(x[k], y[k])) return false
    }
    for (const k in y) if (y[k] !== undefined) defined--
    return defined === 0
  }
  return (JSON.stringify(a) ?? 'null') === (JSON.stringify(b) ?? 'null')
}

/** Fields whose change bumps metadata.generation when no strategy says otherwise. */
function specOf(obj: KubeObject): unknown {
  const { metadata: _m, status: _s, ...rest } = obj
  return rest
}

const notFound = (t: ResourceType, name: string) =>
  new StoreError(404, 'NotFound', `${resourceName(t)} "${name}" not found`)

export class ObjectStore {
  private rv = 1
  private readonly typesByKey = new Map<string, ResourceType>()
  private readonly objects = new Map<string, Map<string, KubeObject>>() // typeKey -> ns/name -> obj
  private readonly caches = new Map<string, WatchCache>() // typeKey -> its watch cache
  private readonly listeners = new Set<Listener>()
  private strategy: StoreStrategy = {}
  /** The world's wall clock (ms since the epoch). */
  readonly now: () => number
  constructor(o: { now?: () => number } = {}) {
    this.now = o.now ?? Date.now
  }

  setStrategy(s: StoreStrategy): void {
    this.strategy = s
  }

  registerType(t: ResourceType): void {
    this.typesByKey.set(typeKey(t), t)
    if (!this.objects.has(typeKey(t))) this.objects.set(typeKey(t), new Map())
    if (!this.caches.has(typeKey(t))) this.caches.set(typeKey(t), new WatchCache(this.rv))
  }

  unregisterType(t: Pick<ResourceType, 'group' | 'plural'>): void {
    this.typesByKey.delete(typeKey(t))
    this.objects.delete(typeKey(t))
    this.caches.delete(typeKey(t))
  }

  types(): ResourceType[] {
    return [...this.typesByKey.values()]
  }

  type(group: string, plural: string): ResourceType | undefined {
    return this.typesByKey.get(group ? `${plural}.${group}` : plural)
  }

  typeForKind(apiVersion: string, kind: string): ResourceType | undefined {
    const at = (t: ResourceType, v: string) => (t.group ? `${t.group}/${v}` : v)
    return this.types().find(
      t => t.kind === kind && [t.version, ...(t.versions ?? [])].some(v => at(t, v) === apiVersion)
    )
  }

  /** The registered type of `t` (a request's view of another served version maps to it). */
  private stored(t: ResourceType): ResourceType {
    return this.typesByKey.get(typeKey(t)) ?? t
  }

  get currentResourceVersion(): string {
    return String(this.rv)
  }

  /** The wall clock as metav1.Time. */
  nowTime(): string {
    return rfc3339(this.now())
  }

  private key(ns: string | undefined, name: string): string {
    return `${ns ?? ''}/${name}`
  }

  private bucket(t: ResourceType): Map<string, KubeObject> {
    const b = this.objects.get(typeKey(t))
    if (!b)
      throw new StoreError(404, 'NotFound', `the server could not find the requested resource (${t.plural})`)
    return b
  }

  private emit(t: ResourceType, type: WatchEventType, obj: KubeObject, prev?: KubeObject): void {
    const event = { type, object: clone(obj) }
    const before = prev ? clone(prev) : undefined
    this.caches
      .get(typeKey(t))
      ?.record({ rv: Number(obj.metadata.resourceVersion), at: this.now(), event, prev: before })
    for (const l of this.listeners) l(event, t, before)
  }

  get(t: ResourceType, ns: string | undefined, name: string): KubeObject {
    const o = this.bucket(t).get(this.key(t.namespaced ? ns : undefined, name))
    if (!o) throw notFound(t, name)
    return clone(o)
  }

  /** Every stored object of a type, not copied: for reading only (scans over the whole store). */
  scan(t: ResourceType): Iterable<KubeObject> {
    return this.bucket(t).values()
  }

  tryGet(t: ResourceType, ns: string | undefined, name: string): KubeObject | undefined {
    const o = this.bucket(t).get(this.key(t.namespaced ? ns : undefined, name))
    return o ? clone(o) : undefined
  }

  list(
    t: ResourceType,
    opts: {
      namespace?: string
      labelSelector?: string
      fieldSelector?: string
      limit?: number
      continue?: string
    } = {}
  ): { items: KubeObject[]; resourceVersion: string; continue?: string; remainingItemCount?: number } {
    const labels = parseLabelSelector(opts.labelSelector)
    const fields = parseFieldSelector(opts.fieldSelector)
    // A malformed token is the client's error (400), before anything is read.
    const token = opts.continue ? decodeContinue(opts.continue) : undefined
    const all = [...this.bucket(t).entries()]
      .filter(([, o]) => !t.namespaced || !opts.namespace || o.metadata.namespace === opts.namespace)
      .filter(([, o]) => matchesLabels(labels, o.metadata.labels) && matchesFields(fields, o))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    // As the API server does, every page of a list reports the resourceVersion of its first page
    // (carried in the continue token), so a watch from it misses nothing that changed meanwhile.
    let start = 0
    let resourceVersion = this.currentResourceVersion
    if (token) {
      resourceVersion = String(token.rv)
      start = all.findIndex(([k]) => k > token.after)
      if (start < 0) start = all.length
    }
    const limit = opts.limit && opts.limit > 0 ? opts.limit : all.length
    const page = all.slice(start, start + limit)
    const more = start + limit < all.length
    return {
      items: page.map(([, o]) => clone(o)),
      resourceVersion,
      continue: more ? encodeContinue(Number(resourceVersion), page[page.length - 1][0]) : undefined,
      remainingItemCount: more ? all.length - start - limit : undefined
    }
  }

  /** Creates; with `dryRun` everything but the write happens (defaulting, admission, validation). */
  create(t: ResourceType, input: KubeObject, opts: { dryRun?: boolean } = {}): KubeObject {
    const obj = clone(input)
    obj.apiVersion = apiVersionOf(this.stored(t))
    obj.kind = t.kind
    obj.metadata = obj.metadata ?? ({} as ObjectMeta)
    if (!obj.metadata.name && obj.metadata.generateName)
      obj.metadata.name = obj.metadata.generateName + randomUUID().slice(0, 5)
    if (!obj.metadata.name)
      throw new StoreError(
        422,
        'Invalid',
        `${t.kind}: metadata.name: Required value: name or generateName is required`
      )
    if (!t.namespaced) delete obj.metadata.namespace
    else if (!obj.metadata.namespace) obj.metadata.namespace = 'default'
    const k = this.key(obj.metadata.namespace, obj.metadata.name)
    const b = this.bucket(t)
    const existing = b.get(k)
    if (existing)
      throw new StoreError(
        409,
        'AlreadyExists',
        `${existing.metadata.deletionTimestamp ? 'object is being deleted: ' : ''}${resourceName(t)} "${obj.metadata.name}" already exists`
      )
    delete obj.metadata.deletionTimestamp
    delete obj.metadata.deletionGracePeriodSeconds
    obj.metadata.uid = randomUUID()
    obj.metadata.creationTimestamp = this.nowTime()
    this.strategy.prepareForCreate?.(t, obj)
    if (this.tracksGeneration(t, obj)) obj.metadata.generation = 1
    else delete obj.metadata.generation
    if (opts.dryRun) return obj
    obj.metadata.resourceVersion = String(++this.rv)
    b.set(k, obj)
    this.emit(t, 'ADDED', obj)
    return clone(obj)
  }

  private tracksGeneration(t: ResourceType, obj: KubeObject): boolean {
    return this.strategy.generationInput ? this.strategy.generationInput(t, obj) !== undefined : true
  }

  private generationInput(t: ResourceType, obj: KubeObject): unknown {
    return this.strategy.generationInput ? this.strategy.generationInput(t, obj) : specOf(obj)
  }

  /**
   * Replaces an object. `expectedVersion` (from metadata.resourceVersion of the input, when set)
   * gives optimistic concurrency. `subresource: 'status'` keeps everything but status. As the
   * generic registry's update: deletionTimestamp and its grace period cannot change, no finalizer
   * may be added to a deleting object, and a deleting object left without finalizers is removed.
   */
  update(
    t: ResourceType,
    input: KubeObject,
    opts: { subresource?: 'status' | 'ephemeralcontainers'; dryRun?: boolean } = {}
  ): KubeObject {
    const ns = t.namespaced ? (input.metadata.namespace ?? 'default') : undefined
    const k = this.key(ns, input.metadata.name)
    const b = this.bucket(t)
    const cur = b.get(k)
    if (!cur) throw notFound(t, input.metadata.name)
    if (input.metadata.resourceVersion && input.metadata.resourceVersion !== cur.metadata.resourceVersion) {
      throw new StoreError(
        409,
        'Conflict',
        `Operation cannot be fulfilled on ${resourceName(t)} "${input.metadata.name}": the object has been modified; please apply your changes to the latest version and try again`
      )
    }
    let next: KubeObject
    if (opts.subresource === 'status') {
      next = clone(cur)
      if (input.status === undefined) delete next.status
      else next.status = clone(input.status)
      this.strategy.prepareForStatusUpdate?.(t, next, input)
    } else if (opts.subresource === 'ephemeralcontainers') {
      // Only the pod's ephemeral containers change (podEphemeralContainersStrategy).
      next = clone(cur)
      next.spec = { ...next.spec, ephemeralContainers: clone(input.spec?.ephemeralContainers) }
      if (this.tracksGeneration(t, next) && !sameJson(next.spec, cur.spec))
        next.metadata.generation = (cur.metadata.generation ?? 1) + 1
    } else {
      next = clone(input)
      // An object without a status keeps none: a `status` key holding undefined would reach the
      // next read-modify-write as a field the kind does not declare (`unknown field "status"`).
      if (input.status !== undefined) next.status = clone(input.status)
      else if (cur.status !== undefined) next.status = clone(cur.status)
      else delete next.status
      next.apiVersion = apiVersionOf(this.stored(t))
      next.kind = t.kind
      next.metadata = {
        ...next.metadata,
        namespace: ns,
        uid: cur.metadata.uid,
        creationTimestamp: cur.metadata.creationTimestamp,
        generation: cur.metadata.generation
      }
      if (!t.namespaced) delete next.metadata.namespace
      this.keepDeletionFields(t, next, cur)
      this.strategy.prepareForUpdate?.(t, next, cur)
      if (!this.tracksGeneration(t, next)) delete next.metadata.generation
      else if (!sameJson(this.generationInput(t, next), this.generationInput(t, cur)))
        next.metadata.generation = (cur.metadata.generation ?? 1) + 1
    }
    if (
      sameJson(next, {
        ...cur,
        metadata: { ...cur.metadata, resourceVersion: next.metadata.resourceVersion }
      })
    ) {
      // No change: Kubernetes keeps the resourceVersion and emits no event.
      return clone(cur)
    }
    if (opts.dryRun)
      return { ...next, metadata: { ...next.metadata, resourceVersion: cur.metadata.resourceVersion } }
    next.metadata.resourceVersion = String(++this.rv)
    if (this.removesOnUpdate(t, next, cur)) {
      b.delete(k)
      this.emit(t, 'DELETED', next, cur)
      return clone(next)
    }
    b.set(k, next)
    this.emit(t, 'MODIFIED', next, cur)
    return clone(next)
  }

  /** An update never sets, removes or changes a deletion timestamp; no new finalizer once deleting. */
  private keepDeletionFields(t: ResourceType, next: KubeObject, cur: KubeObject): void {
    const m = next.metadata
    if (cur.metadata.deletionTimestamp) m.deletionTimestamp = cur.metadata.deletionTimestamp
    else delete m.deletionTimestamp
    if (cur.metadata.deletionGracePeriodSeconds !== undefined)
      m.deletionGracePeriodSeconds = cur.metadata.deletionGracePeriodSeconds
    else delete m.deletionGracePeriodSeconds
    if (!m.finalizers?.length) delete m.finalizers
    if (!cur.metadata.deletionTimestamp) return
    const added = (m.finalizers ?? []).filter(f => !(cur.metadata.finalizers ?? []).includes(f))
    if (added.length) {
      const message = `Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map(f => JSON.stringify(f)).join(', ')}}`
      throw new StoreError(
        422,
        'Invalid',
        `${t.kind}${t.group ? '.' + t.group : ''} "${m.name}" is invalid: metadata.finalizers: ${message}`,
        [{ reason: 'FieldValueForbidden', message, field: 'metadata.finalizers' }]
      )
    }
  }

  private removesOnUpdate(t: ResourceType, next: KubeObject, cur: KubeObject): boolean {
    if (!cur.metadata.deletionTimestamp || next.metadata.finalizers?.length) return false
    if ((cur.metadata.deletionGracePeriodSeconds ?? 0) !== 0) return false
    return this.strategy.mayRemoveOnUpdate?.(t, next) ?? true
  }

  /** Read-modify-write helper for controllers: `fn` mutates a copy; no-op changes are not written. */
  mutate(
    t: ResourceType,
    ns: string | undefined,
    name: string,
    fn: (o: KubeObject) => void,
    opts: { subresource?: 'status' } = {}
  ): KubeObject | undefined {
    const cur = this.tryGet(t, ns, name)
    if (!cur) return undefined
    fn(cur)
    return this.update(
      t,
      { ...cur, metadata: { ...cur.metadata, resourceVersion: undefined as unknown as string } },
      opts
    )
  }

  /**
   * Deletes as the API server's DELETE does: preconditions, graceful deletion for the types the
   * strategy makes graceful, the finalizers the propagation policy asks for; the object stays
   * (with its deletionTimestamp) while a grace period runs or finalizers remain.
   */
  delete(t: ResourceType, ns: string | undefined, name: string, opts: DeleteOptions = {}): DeleteResult {
    const k = this.key(t.namespaced ? ns : undefined, name)
    const b = this.bucket(t)
    const cur = b.get(k)
    if (!cur) throw notFound(t, name)
    preconditionsHold(t, cur, opts.preconditions)
    const own = this.strategy.beginDelete?.(t, clone(cur), opts)
    if (own) return { object: opts.dryRun ? own : this.write(t, k, own), removed: false }
    const plan = planDelete(
      clone(cur),
      opts,
      {
        grace: this.strategy.gracePeriod?.(t, cur, opts.gracePeriodSeconds),
        defaultPropagation: this.strategy.defaultPropagation?.(t) ?? 'Background'
      },
      this.now()
    )
    if (plan.kind === 'unchanged') return { object: clone(cur), removed: false }
    if (plan.kind === 'update')
      return { object: opts.dryRun ? plan.object : this.write(t, k, plan.object), removed: false }
    if (opts.dryRun) return { object: plan.object, removed: true }
    b.delete(k)
    plan.object.metadata.resourceVersion = String(++this.rv)
    this.emit(t, 'DELETED', plan.object, cur)
    return { object: clone(plan.object), removed: true }
  }

  private write(t: ResourceType, k: string, obj: KubeObject): KubeObject {
    obj.metadata.resourceVersion = String(++this.rv)
    const prev = this.bucket(t).get(k)
    this.bucket(t).set(k, obj)
    this.emit(t, 'MODIFIED', obj, prev)
    return clone(obj)
  }

  /**
   * Events for `t` after `fromVersion`, then live ones, until the returned function is called.
   * Throws StoreError 410 when `fromVersion` is older than the type's watch cache window. As the
   * cacher filters (cacher.go `convertToWatchEvent`): an object that starts matching the selectors
   * arrives ADDED, one that stops matching DELETED (its previous state at the event's version).
   */
  watch(
    t: ResourceType,
    opts: { namespace?: string; labelSelector?: string; fieldSelector?: string; fromVersion?: string },
    cb: (e: WatchEvent) => void
  ): () => void {
    const labels = parseLabelSelector(opts.labelSelector)
    const fields = parseFieldSelector(opts.fieldSelector)
    const tk = typeKey(t)
    const matches = (o: KubeObject | undefined) =>
      !!o &&
      (!t.namespaced || !opts.namespace || o.metadata.namespace === opts.namespace) &&
      matchesLabels(labels, o.metadata.labels) &&
      matchesFields(fields, o)
    const deliver = (e: WatchEvent, prev: KubeObject | undefined) => {
      const now = e.type !== 'DELETED' && matches(e.object)
      const before = matches(prev)
      if (e.type === 'DELETED' && (before || (!prev && matches(e.object)))) cb(clone(e))
      else if (now && before) cb(clone(e))
      else if (now) cb({ type: 'ADDED', object: clone(e.object) })
      else if (before && prev) {
        const gone = clone(prev)
        gone.metadata.resourceVersion = e.object.metadata.resourceVersion
        cb({ type: 'DELETED', object: gone })
      }
    }
    const from = opts.fromVersion && opts.fromVersion !== '0' ? Number(opts.fromVersion) : undefined
    if (from !== undefined) {
      const window = this.caches.get(tk)?.since(from, this.rv) ?? []
      if (!Array.isArray(window))
        throw new StoreError(410, 'Gone', `too old resource version: ${from} (${window.tooOld})`)
      for (const h of window) deliver(h.event, h.prev)
    } else {
      for (const o of this.list(t, {
        namespace: opts.namespace,
        labelSelector: opts.labelSelector,
        fieldSelector: opts.fieldSelector
      }).items)
        cb({ type: 'ADDED', object: o })
    }
    const listener: Listener = (e, et, prev) => {
      if (typeKey(et) === tk) deliver(e, prev)
    }
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Every change to every resource, for in-process controllers. */
  onChange(l: Listener): () => void {
    this.listeners.add(l)
    return () => this.listeners.delete(l)
  }

  /** Drops all but the newest `keep` events of every watch cache, so tests can force a 410. */
  compact(keep = 0): void {
    for (const c of this.caches.values()) c.compact(keep)
  }
}
