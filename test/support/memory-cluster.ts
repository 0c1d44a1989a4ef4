// Unit-test helper: a cluster's objects in memory, for modules that list and watch (kube/watch's
// WatchSource) without a simulated world. One resourceVersion counter over every kind, as an API
// server's; put/remove emit ADDED/MODIFIED/DELETED to the watches whose namespace, label and field
// selectors match; a watch replays what happened after the resourceVersion it starts from, and
// one started from before `horizon` gets 410 Gone (the watch relists). apiError builds a failed
// request as client-node's ApiException carries it (code and Status body), which kube/errors reads.
import type { KubeObject } from '../../src/kube/types.js'
import type { WatchEvent, WatchSource } from '../../src/kube/watch.js'

export interface SourceFilter {
  namespace?: string
  labelSelector?: string
  fieldSelector?: string
}

interface Watcher {
  apiVersion: string
  kind: string
  filter: SourceFilter
  onEvent: (e: WatchEvent) => void
  onDone: (e: unknown) => void
}

const keyOf = (apiVersion: string, kind: string, namespace: string | undefined, name: string): string =>
  `${apiVersion}|${kind}|${namespace ?? ''}|${name}`

/** A failed request as client-node raises it: the HTTP code and the Status body. */
export function apiError(code: number, reason: string, message = reason): Error {
  const body = { kind: 'Status', apiVersion: 'v1', status: 'Failure', code, reason, message }
  return Object.assign(new Error(`HTTP-Code: ${code} Message: ${message}`), {
    code,
    body: JSON.stringify(body)
  })
}

/** Whether `labels` satisfy a label selector (=, ==, !=, `key`, `!key`, `key in (a,b)`, `notin`). */
export function labelsMatch(
  labels: Record<string, string> | undefined,
  selector: string | undefined
): boolean {
  if (!selector) return true
  const l = labels ?? {}
  const terms = selector.match(/[^,(]+(\([^)]*\))?/g) ?? []
  return terms.every(raw => {
    const t = raw.trim()
    const set = /^(\S+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(t)
    if (set) {
      const values = set[3].split(',').map(v => v.trim())
      const has = set[1] in l && values.includes(l[set[1]])
      return set[2] === 'in' ? has : !has
    }
    const ne = /^([^!=]+)!=(.*)$/.exec(t)
    if (ne) return l[ne[1].trim()] !== ne[2].trim()
    const eq = /^([^!=]+)==?(.*)$/.exec(t)
    if (eq) return l[eq[1].trim()] === eq[2].trim()
    if (t.startsWith('!')) return !(t.slice(1) in l)
    return t in l
  })
}

/** Whether `o` satisfies a field selector (`path=value`, `path!=value`; dotted paths into the object). */
export function fieldsMatch(o: KubeObject, selector: string | undefined): boolean {
  if (!selector) return true
  return selector.split(',').every(term => {
    const m = /^([^!=]+)(!=|==|=)(.*)$/.exec(term.trim())
    if (!m) throw new Error(`memory-cluster: field selector term "${term}" not understood`)
    let v: unknown = o
    for (const part of m[1].split('.')) v = (v as Record<string, unknown> | undefined)?.[part]
    const same = String(v ?? '') === m[3]
    return m[2] === '!=' ? !same : same
  })
}

export class MemoryCluster {
  private rv = 1
  private readonly objects = new Map<string, KubeObject>()
  private readonly history: Array<{ rv: number; apiVersion: string; kind: string; ev: WatchEvent }> = []
  private readonly watchers = new Set<Watcher>()
  /** Oldest resourceVersion a watch may start from; an older one gets 410 Gone. */
  horizon = 0
  /** Lists served, per `apiVersion/kind`. */
  readonly lists = new Map<string, number>()

  /** Stores `o` (a copy, with a new resourceVersion and a uid when it has none); emits ADDED or MODIFIED. */
  put(o: KubeObject): KubeObject {
    const key = keyOf(o.apiVersion, o.kind, o.metadata.namespace, o.metadata.name)
    const before = this.objects.get(key)
    const stored: KubeObject = structuredClone({
      ...o,
      metadata: {
        ...o.metadata,
        uid: o.metadata.uid ?? before?.metadata.uid ?? `uid-${o.metadata.name}-${this.rv + 1}`,
        resourceVersion: String(++this.rv)
      }
    })
    this.objects.set(key, stored)
    this.emit(stored, before ? 'MODIFIED' : 'ADDED')
    return structuredClone(stored)
  }

  /** Removes the object; emits DELETED. False when there was none. */
  remove(apiVersion: string, kind: string, name: string, namespace?: string): boolean {
    const key = keyOf(apiVersion, kind, namespace, name)
    const o = this.objects.get(key)
    if (!o) return false
    this.objects.delete(key)
    this.emit({ ...o, metadata: { ...o.metadata, resourceVersion: String(++this.rv) } }, 'DELETED')
    return true
  }

  get(apiVersion: string, kind: string, name: string, namespace?: string): KubeObject | undefined {
    const o = this.objects.get(keyOf(apiVersion, kind, namespace, name))
    return o && structuredClone(o)
  }

  /** The objects of one kind that match `filter`, in the order they were first stored. */
  all(apiVersion: string, kind: string, filter: SourceFilter = {}): KubeObject[] {
    return [...this.objects.values()]
      .filter(o => o.apiVersion === apiVersion && o.kind === kind && this.matches(o, filter))
      .map(o => structuredClone(o))
  }

  /** A WatchSource over one kind (as KubeClient.watchSource gives). */
  source(apiVersion: string, kind: string, filter: SourceFilter & { name?: string } = {}): WatchSource {
    return {
      name: filter.name ?? `${kind} ${filter.labelSelector ?? ''}`.trim(),
      list: async () => {
        const k = `${apiVersion}/${kind}`
        this.lists.set(k, (this.lists.get(k) ?? 0) + 1)
        return { items: this.all(apiVersion, kind, filter), resourceVersion: String(this.rv) }
      },
      watch: async (resourceVersion, onEvent, onDone) => {
        const from = Number(resourceVersion)
        if (from < this.horizon) {
          setImmediate(() => onEvent({ type: 'ERROR', object: { kind: 'Status', code: 410 } as any }))
          setImmediate(() => onDone(null))
          return { stop: () => undefined }
        }
        const w: Watcher = { apiVersion, kind, filter, onEvent, onDone }
        for (const h of this.history)
          if (
            h.rv > from &&
            h.apiVersion === apiVersion &&
            h.kind === kind &&
            this.matches(h.ev.object, filter)
          )
            setImmediate(() => onEvent(structuredClone(h.ev)))
        this.watchers.add(w)
        return { stop: () => void this.watchers.delete(w) }
      }
    }
  }

  /** Ends every open watch with `err` (null: closed by the server), as a dropped connection. */
  dropWatches(err: unknown = new Error('connection reset')): void {
    for (const w of [...this.watchers]) {
      this.watchers.delete(w)
      w.onDone(err)
    }
  }

  /** Open watches (a module that is done waiting has stopped its own). */
  get openWatches(): number {
    return this.watchers.size
  }

  private matches(o: KubeObject, f: SourceFilter): boolean {
    return (
      (f.namespace === undefined || o.metadata.namespace === f.namespace) &&
      labelsMatch(o.metadata.labels, f.labelSelector) &&
      fieldsMatch(o, f.fieldSelector)
    )
  }

  private emit(o: KubeObject, type: 'ADDED' | 'MODIFIED' | 'DELETED'): void {
    const ev: WatchEvent = { type, object: o }
    this.history.push({ rv: this.rv, apiVersion: o.apiVersion, kind: o.kind, ev })
    for (const w of this.watchers)
      if (w.apiVersion === o.apiVersion && w.kind === o.kind && this.matches(o, w.filter)) {
        const copy = structuredClone(ev)
        setImmediate(() => w.onEvent(copy))
      }
  }
}
