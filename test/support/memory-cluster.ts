// Unit-test helper: a cluster's objects in memory on the simulator's ObjectStore (sim/kube/store.ts,
// the store the simulated API server serves), for modules that list and watch (kube/watch's
// WatchSource) or call the API without a simulated world. resourceVersions, uids, selectors, watch
// replay and 410 Gone come from the store and its watch cache; a refused create / replace / delete
// (404, 409 AlreadyExists, 409 Conflict, a failed precondition) is the store's StoreError as the
// API server turns it into a Status, raised as client-node's ApiException, which kube/errors reads.
// The store runs without the built-in strategy (no admission or defaulting): a test's objects are
// stored as written. See CONTRIBUTING.md "Tests".
import { ApiException } from '@kubernetes/client-node'
import { storeErrorToApi } from '../../sim/kube/apiserver/handlers.js'
import { statusFailure, type Reason } from '../../sim/kube/apiserver/status.js'
import { BUILTIN_TYPES } from '../../sim/kube/resources.js'
import {
  type DeleteOptions,
  type KubeObject as StoredObject,
  ObjectStore,
  type ResourceType,
  StoreError
} from '../../sim/kube/store.js'
import type { KubeObject } from '../../src/kube/types.js'
import type { WatchEvent, WatchSource } from '../../src/kube/watch.js'

export interface SourceFilter {
  namespace?: string
  labelSelector?: string
  fieldSelector?: string
}

/** A failed request as client-node raises it: the HTTP code and the Status body (as text). */
export function apiError(code: number, reason: Reason | '', message: string = reason): Error {
  return new ApiException(
    code,
    'Unsuccessful HTTP Request',
    JSON.stringify(statusFailure(code, reason, message)),
    {}
  )
}

/** The store's refusal as the API server answers it (storeErrorToApi) and client-node raises it. */
function answered(err: unknown, type: ResourceType, name?: string): unknown {
  if (!(err instanceof StoreError)) return err
  const api = storeErrorToApi(err, { type, group: type.group, version: type.version, name, watchPath: false })
  return new ApiException(api.code, 'Unsuccessful HTTP Request', JSON.stringify(api.toStatus()), {})
}

const [groupOf, versionOf] = [
  (apiVersion: string) => (apiVersion.includes('/') ? apiVersion.split('/')[0] : ''),
  (apiVersion: string) => apiVersion.split('/').pop()!
]

export class MemoryCluster {
  readonly store = new ObjectStore()
  /** Lists served, per `apiVersion/kind`. */
  readonly lists = new Map<string, number>()
  private readonly dropped = new Set<(err: unknown) => void>()
  /** What a test's put seeds as it was (uid, creationTimestamp, deletionTimestamp), for the create under way. */
  private seeded: StoredObject['metadata'] | undefined

  constructor() {
    for (const t of BUILTIN_TYPES) this.store.registerType(t)
    this.store.setStrategy({
      prepareForCreate: (_t, obj) => {
        const s = this.seeded
        if (!s) return
        for (const k of ['uid', 'creationTimestamp', 'deletionTimestamp'] as const)
          if (s[k] !== undefined) obj.metadata[k] = s[k]
      }
    })
  }

  /** The stored type of a kind; a kind the store does not serve is registered on first use when `add`. */
  typeOf(apiVersion: string, kind: string, add?: { namespaced: boolean }): ResourceType | undefined {
    const known = this.store.typeForKind(apiVersion, kind)
    if (known || !add) return known
    const t: ResourceType = {
      group: groupOf(apiVersion),
      version: versionOf(apiVersion),
      plural: `${kind.toLowerCase()}s`,
      singular: kind.toLowerCase(),
      kind,
      namespaced: add.namespaced
    }
    this.store.registerType(t)
    return t
  }

  private typeFor(o: KubeObject): ResourceType {
    return this.typeOf(o.apiVersion, o.kind, { namespaced: o.metadata.namespace !== undefined })!
  }

  /**
   * A test's write, as another client writing unconditionally: creates `o` (its uid, creation and
   * deletion timestamps kept when it has them, as an object that was already there) or replaces the
   * live one (its uid kept). The store's copy is returned.
   */
  put(o: KubeObject): KubeObject {
    const t = this.typeFor(o)
    const live = this.store.tryGet(t, o.metadata.namespace, o.metadata.name)
    const { resourceVersion: _rv, ...metadata } = o.metadata
    if (live) return this.store.update(t, { ...o, metadata } as StoredObject) as KubeObject
    this.seeded = metadata
    try {
      return this.store.create(t, { ...o, metadata } as StoredObject) as KubeObject
    } finally {
      this.seeded = undefined
    }
  }

  /** Removes the object at once (a controller done with its finalizers first). False when there was none. */
  remove(apiVersion: string, kind: string, name: string, namespace?: string): boolean {
    const t = this.typeOf(apiVersion, kind)
    const live = t && this.store.tryGet(t, namespace, name)
    if (!t || !live) return false
    if (live.metadata.finalizers?.length) {
      this.store.update(t, { ...live, metadata: { ...live.metadata, finalizers: [] } })
      if (!this.store.tryGet(t, namespace, name)) return true
    }
    this.store.delete(t, namespace, name, { gracePeriodSeconds: 0 })
    return true
  }

  get(apiVersion: string, kind: string, name: string, namespace?: string): KubeObject | undefined {
    const t = this.typeOf(apiVersion, kind)
    return t && (this.store.tryGet(t, namespace, name) as KubeObject | undefined)
  }

  /** The objects of one kind that match `filter`, in the store's (namespace/name) order. */
  all(apiVersion: string, kind: string, filter: SourceFilter = {}): KubeObject[] {
    const t = this.typeOf(apiVersion, kind)
    return t ? (this.store.list(t, filter).items as KubeObject[]) : []
  }

  /** The API server's answer to a GET: the object, or 404 as client-node raises it. */
  read(apiVersion: string, kind: string, name: string, namespace?: string): KubeObject {
    const t = this.typeOf(apiVersion, kind, { namespaced: namespace !== undefined })!
    return this.answer(t, name, () => this.store.get(t, namespace, name))
  }

  /** The API server's answer to a POST of `body` into `namespace`: 409 AlreadyExists when it is there. */
  create(body: KubeObject, namespace?: string): KubeObject {
    const o = { ...body, metadata: { ...body.metadata, ...(namespace ? { namespace } : {}) } }
    const t = this.typeFor(o)
    return this.answer(t, o.metadata.name, () => this.store.create(t, o as StoredObject))
  }

  /** The API server's answer to a PUT: 404 when there is none, 409 Conflict on a stale resourceVersion. */
  replace(body: KubeObject, namespace?: string): KubeObject {
    const o = { ...body, metadata: { ...body.metadata, ...(namespace ? { namespace } : {}) } }
    const t = this.typeFor(o)
    return this.answer(t, o.metadata.name, () => this.store.update(t, o as StoredObject))
  }

  /** The API server's answer to a DELETE: 404 when there is none, 409 when a precondition fails. */
  delete(apiVersion: string, kind: string, name: string, namespace?: string, opts: DeleteOptions = {}) {
    const t = this.typeOf(apiVersion, kind, { namespaced: namespace !== undefined })!
    return this.answer(t, name, () => this.store.delete(t, namespace, name, opts))
  }

  private answer<T>(t: ResourceType, name: string, fn: () => T): T {
    try {
      return structuredClone(fn())
    } catch (e) {
      throw answered(e, t, name)
    }
  }

  /** A WatchSource over one kind (as KubeClient.watchSource gives); events arrive a turn later, as over a connection. */
  source(apiVersion: string, kind: string, filter: SourceFilter & { name?: string } = {}): WatchSource {
    const type = () => this.typeOf(apiVersion, kind, { namespaced: filter.namespace !== undefined })!
    const { name: _n, ...selectors } = filter
    return {
      name: filter.name ?? `${kind} ${filter.labelSelector ?? ''}`.trim(),
      list: async () => {
        const k = `${apiVersion}/${kind}`
        this.lists.set(k, (this.lists.get(k) ?? 0) + 1)
        const l = this.store.list(type(), selectors)
        return { items: l.items as KubeObject[], resourceVersion: l.resourceVersion }
      },
      watch: async (resourceVersion, onEvent, onDone) => {
        let stop: () => void
        try {
          stop = this.store.watch(type(), { ...selectors, fromVersion: resourceVersion }, e =>
            setImmediate(() => onEvent(e as WatchEvent))
          )
        } catch (err) {
          if (!(err instanceof StoreError) || err.code !== 410) throw err
          // As the API server's watch answers it: an ERROR event with the Status, then the end.
          const status = statusFailure(410, 'Expired', err.message)
          setImmediate(() => onEvent({ type: 'ERROR', object: status } as unknown as WatchEvent))
          setImmediate(() => onDone(null))
          return { stop: () => undefined }
        }
        const end = (err: unknown) => {
          stop()
          this.dropped.delete(end)
          onDone(err)
        }
        this.dropped.add(end)
        return {
          stop: () => {
            stop()
            this.dropped.delete(end)
          }
        }
      }
    }
  }

  /** Ends every open watch with `err` (null: closed by the server), as a dropped connection. */
  dropWatches(err: unknown = new Error('connection reset')): void {
    for (const end of [...this.dropped]) end(err)
  }

  /** Open watches (a module that is done waiting has stopped its own). */
  get openWatches(): number {
    return this.dropped.size
  }

  /** Drops the watch caches' history, so a watch from an earlier resourceVersion gets 410 Gone. */
  compact(): void {
    this.store.compact()
  }
}
