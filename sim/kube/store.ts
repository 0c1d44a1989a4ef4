// The simulated cluster's object store: typed resources, resourceVersion / generation / uid
// bookkeeping, list with selectors and pagination, and watch with a bounded event history
// (a watch from a version older than the history is answered `410 Gone`). The API server
// serves it over HTTPS; the simulated controllers use it in-process.
import { randomUUID } from 'node:crypto'
import { matchesFields, matchesLabels, parseFieldSelector, parseLabelSelector } from './selectors.js'

export interface ResourceType {
  group: string // '' for core
  version: string
  plural: string
  singular: string
  kind: string
  namespaced: boolean
  shortNames?: string[]
  verbs?: string[]
  /** Subresources served (e.g. ['status', 'log']). */
  subresources?: string[]
}

export interface ObjectMeta {
  name: string
  namespace?: string
  uid?: string
  resourceVersion?: string
  generation?: number
  creationTimestamp?: string
  deletionTimestamp?: string
  labels?: Record<string, string>
  annotations?: Record<string, string>
  ownerReferences?: Array<{
    apiVersion: string
    kind: string
    name: string
    uid: string
    controller?: boolean
  }>
  managedFields?: unknown[]
  generateName?: string
  [k: string]: unknown
}

export interface KubeObject {
  apiVersion: string
  kind: string
  metadata: ObjectMeta
  [k: string]: any
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK'
export interface WatchEvent {
  type: WatchEventType
  object: KubeObject
}

export class StoreError extends Error {
  constructor(
    readonly code: number,
    readonly reason:
      'NotFound' | 'AlreadyExists' | 'Conflict' | 'Invalid' | 'Gone' | 'BadRequest' | 'Forbidden',
    message: string
  ) {
    super(message)
  }
}

interface HistoryEntry {
  rv: number
  typeKey: string
  event: WatchEvent
}

type Listener = (event: WatchEvent, type: ResourceType) => void

export function typeKey(t: Pick<ResourceType, 'group' | 'plural'>): string {
  return t.group ? `${t.plural}.${t.group}` : t.plural
}

export function apiVersionOf(t: ResourceType): string {
  return t.group ? `${t.group}/${t.version}` : t.version
}

const clone = <T>(v: T): T => structuredClone(v)

/** Fields whose change does not bump metadata.generation. */
function specOf(obj: KubeObject): unknown {
  const { metadata: _m, status: _s, ...rest } = obj
  return rest
}

export class ObjectStore {
  private rv = 1
  private readonly typesByKey = new Map<string, ResourceType>()
  private readonly objects = new Map<string, Map<string, KubeObject>>() // typeKey -> ns/name -> obj
  private readonly history: HistoryEntry[] = []
  private readonly listeners = new Set<Listener>()
  /** Admission run on every create before the object is stored (may change it or refuse it). */
  private admit: ((t: ResourceType, obj: KubeObject) => void) | undefined
  constructor(private readonly historyLimit = 50_000) {}

  setAdmission(fn: (t: ResourceType, obj: KubeObject) => void): void {
    this.admit = fn
  }

  registerType(t: ResourceType): void {
    this.typesByKey.set(typeKey(t), t)
    if (!this.objects.has(typeKey(t))) this.objects.set(typeKey(t), new Map())
  }

  unregisterType(t: Pick<ResourceType, 'group' | 'plural'>): void {
    this.typesByKey.delete(typeKey(t))
    this.objects.delete(typeKey(t))
  }

  types(): ResourceType[] {
    return [...this.typesByKey.values()]
  }

  type(group: string, plural: string): ResourceType | undefined {
    return this.typesByKey.get(group ? `${plural}.${group}` : plural)
  }

  typeForKind(apiVersion: string, kind: string): ResourceType | undefined {
    return this.types().find(t => apiVersionOf(t) === apiVersion && t.kind === kind)
  }

  get currentResourceVersion(): string {
    return String(this.rv)
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

  private emit(t: ResourceType, type: WatchEventType, obj: KubeObject): void {
    const event = { type, object: clone(obj) }
    this.history.push({ rv: Number(obj.metadata.resourceVersion), typeKey: typeKey(t), event })
    if (this.history.length > this.historyLimit)
      this.history.splice(0, this.history.length - this.historyLimit)
    for (const l of this.listeners) l(event, t)
  }

  get(t: ResourceType, ns: string | undefined, name: string): KubeObject {
    const o = this.bucket(t).get(this.key(t.namespaced ? ns : undefined, name))
    if (!o)
      throw new StoreError(404, 'NotFound', `${t.plural}${t.group ? '.' + t.group : ''} "${name}" not found`)
    return clone(o)
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
    const all = [...this.bucket(t).entries()]
      .filter(([, o]) => !t.namespaced || !opts.namespace || o.metadata.namespace === opts.namespace)
      .filter(([, o]) => matchesLabels(labels, o.metadata.labels) && matchesFields(fields, o))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    let start = 0
    if (opts.continue) {
      const after = Buffer.from(opts.continue, 'base64url').toString()
      start = all.findIndex(([k]) => k > after)
      if (start < 0) start = all.length
    }
    const limit = opts.limit && opts.limit > 0 ? opts.limit : all.length
    const page = all.slice(start, start + limit)
    const more = start + limit < all.length
    return {
      items: page.map(([, o]) => clone(o)),
      resourceVersion: this.currentResourceVersion,
      continue: more ? Buffer.from(page[page.length - 1][0]).toString('base64url') : undefined,
      remainingItemCount: more ? all.length - start - limit : undefined
    }
  }

  create(t: ResourceType, input: KubeObject): KubeObject {
    const obj = clone(input)
    obj.apiVersion = apiVersionOf(t)
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
    if (b.has(k))
      throw new StoreError(
        409,
        'AlreadyExists',
        `${t.plural}${t.group ? '.' + t.group : ''} "${obj.metadata.name}" already exists`
      )
    this.admit?.(t, obj)
    obj.metadata.uid = randomUUID()
    obj.metadata.resourceVersion = String(++this.rv)
    obj.metadata.generation = 1
    obj.metadata.creationTimestamp = new Date().toISOString().replace(/\.\d+Z$/, 'Z')
    b.set(k, obj)
    this.emit(t, 'ADDED', obj)
    return clone(obj)
  }

  /**
   * Replaces an object. `expectedVersion` (from metadata.resourceVersion of the input, when set)
   * gives optimistic concurrency. `subresource: 'status'` keeps everything but status.
   */
  update(t: ResourceType, input: KubeObject, opts: { subresource?: 'status' } = {}): KubeObject {
    const ns = t.namespaced ? (input.metadata.namespace ?? 'default') : undefined
    const k = this.key(ns, input.metadata.name)
    const b = this.bucket(t)
    const cur = b.get(k)
    if (!cur)
      throw new StoreError(
        404,
        'NotFound',
        `${t.plural}${t.group ? '.' + t.group : ''} "${input.metadata.name}" not found`
      )
    if (input.metadata.resourceVersion && input.metadata.resourceVersion !== cur.metadata.resourceVersion) {
      throw new StoreError(
        409,
        'Conflict',
        `Operation cannot be fulfilled on ${t.plural} "${input.metadata.name}": the object has been modified; please apply your changes to the latest version and try again`
      )
    }
    let next: KubeObject
    if (opts.subresource === 'status') {
      next = clone(cur)
      next.status = clone(input.status)
    } else {
      next = clone(input)
      next.status = input.status === undefined ? cur.status : next.status
      next.apiVersion = apiVersionOf(t)
      next.kind = t.kind
      next.metadata = {
        ...next.metadata,
        namespace: ns,
        uid: cur.metadata.uid,
        creationTimestamp: cur.metadata.creationTimestamp,
        generation: cur.metadata.generation
      }
      if (!t.namespaced) delete next.metadata.namespace
      if (JSON.stringify(specOf(next)) !== JSON.stringify(specOf(cur)))
        next.metadata.generation = (cur.metadata.generation ?? 1) + 1
    }
    if (
      JSON.stringify(next) ===
      JSON.stringify({
        ...cur,
        metadata: { ...cur.metadata, resourceVersion: next.metadata.resourceVersion }
      })
    ) {
      // No change: Kubernetes keeps the resourceVersion and emits no event.
      return clone(cur)
    }
    next.metadata.resourceVersion = String(++this.rv)
    b.set(k, next)
    this.emit(t, 'MODIFIED', next)
    return clone(next)
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

  delete(t: ResourceType, ns: string | undefined, name: string): KubeObject {
    const k = this.key(t.namespaced ? ns : undefined, name)
    const b = this.bucket(t)
    const cur = b.get(k)
    if (!cur)
      throw new StoreError(404, 'NotFound', `${t.plural}${t.group ? '.' + t.group : ''} "${name}" not found`)
    b.delete(k)
    const gone = clone(cur)
    gone.metadata.resourceVersion = String(++this.rv)
    this.emit(t, 'DELETED', gone)
    return gone
  }

  /**
   * Events for `t` after `fromVersion`, then live ones, until the returned function is called.
   * Throws StoreError 410 when `fromVersion` is older than the retained history.
   */
  watch(
    t: ResourceType,
    opts: { namespace?: string; labelSelector?: string; fieldSelector?: string; fromVersion?: string },
    cb: (e: WatchEvent) => void
  ): () => void {
    const labels = parseLabelSelector(opts.labelSelector)
    const fields = parseFieldSelector(opts.fieldSelector)
    const tk = typeKey(t)
    const matches = (e: WatchEvent) =>
      (!t.namespaced || !opts.namespace || e.object.metadata.namespace === opts.namespace) &&
      matchesLabels(labels, e.object.metadata.labels) &&
      matchesFields(fields, e.object)
    const from = opts.fromVersion && opts.fromVersion !== '0' ? Number(opts.fromVersion) : undefined
    if (from !== undefined) {
      const oldest = this.history.length ? this.history[0].rv : this.rv
      if (from < oldest - 1 && from < this.rv)
        throw new StoreError(410, 'Gone', `too old resource version: ${from} (${oldest - 1})`)
      for (const h of this.history)
        if (h.rv > from && h.typeKey === tk && matches(h.event)) cb(clone(h.event))
    } else {
      for (const o of this.list(t, {
        namespace: opts.namespace,
        labelSelector: opts.labelSelector,
        fieldSelector: opts.fieldSelector
      }).items)
        cb({ type: 'ADDED', object: o })
    }
    const listener: Listener = (e, et) => {
      if (typeKey(et) === tk && matches(e)) cb(clone(e))
    }
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Every change to every resource, for in-process controllers. */
  onChange(l: Listener): () => void {
    this.listeners.add(l)
    return () => this.listeners.delete(l)
  }

  /** Drops history older than `keep` entries, so tests can force a 410. */
  compact(keep = 0): void {
    this.history.splice(0, Math.max(0, this.history.length - keep))
  }
}
