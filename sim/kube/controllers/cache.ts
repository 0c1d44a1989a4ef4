// An in-process informer over the ObjectStore: every object by type, plus the indexes the
// controllers need at scale (pods by node, dependents by owner uid, objects by uid). Cached objects are the
// store's event copies and are treated as read-only. Handlers run after the cache is updated.
import type { KubeObject, ObjectStore, ResourceType, WatchEvent } from '../store.js'
import { typeKey } from '../store.js'

export type CacheHandler = (event: WatchEvent, typeKey: string, previous: KubeObject | undefined) => void

function objKey(o: KubeObject): string {
  return `${o.metadata.namespace ?? ''}/${o.metadata.name}`
}

export class ClusterCache {
  private readonly byType = new Map<string, Map<string, KubeObject>>()
  private readonly podsByNode = new Map<string, Set<string>>()
  private readonly dependents = new Map<string, Set<string>>() // owner uid -> "typeKey|ns/name"
  private readonly uids = new Map<string, string>() // uid -> "typeKey|ns/name"
  private readonly handlers: CacheHandler[] = []
  private readonly unsubscribe: () => void

  constructor(private readonly store: ObjectStore) {
    for (const t of store.types()) {
      for (const o of store.list(t).items) this.apply({ type: 'ADDED', object: o }, typeKey(t))
    }
    this.unsubscribe = store.onChange((e: WatchEvent, t: ResourceType) => {
      const tk = typeKey(t)
      const prev = this.apply(e, tk)
      for (const h of this.handlers) h(e, tk, prev)
    })
  }

  close(): void {
    this.unsubscribe()
  }

  onEvent(h: CacheHandler): void {
    this.handlers.push(h)
  }

  private apply(e: WatchEvent, tk: string): KubeObject | undefined {
    if (e.type === 'BOOKMARK') return undefined
    let bucket = this.byType.get(tk)
    if (!bucket) this.byType.set(tk, (bucket = new Map()))
    const k = objKey(e.object)
    const prev = bucket.get(k)
    if (prev) this.unindex(tk, k, prev)
    if (e.type === 'DELETED') bucket.delete(k)
    else {
      bucket.set(k, e.object)
      this.index(tk, k, e.object)
    }
    return prev
  }

  private index(tk: string, k: string, o: KubeObject): void {
    if (o.metadata.uid) this.uids.set(o.metadata.uid, `${tk}|${k}`)
    if (tk === 'pods' && o.spec?.nodeName) {
      let s = this.podsByNode.get(o.spec.nodeName)
      if (!s) this.podsByNode.set(o.spec.nodeName, (s = new Set()))
      s.add(k)
    }
    for (const r of o.metadata.ownerReferences ?? []) {
      let s = this.dependents.get(r.uid)
      if (!s) this.dependents.set(r.uid, (s = new Set()))
      s.add(`${tk}|${k}`)
    }
  }

  private unindex(tk: string, k: string, o: KubeObject): void {
    if (o.metadata.uid) this.uids.delete(o.metadata.uid)
    if (tk === 'pods' && o.spec?.nodeName) this.podsByNode.get(o.spec.nodeName)?.delete(k)
    for (const r of o.metadata.ownerReferences ?? []) this.dependents.get(r.uid)?.delete(`${tk}|${k}`)
  }

  get(tk: string, ns: string | undefined, name: string): KubeObject | undefined {
    return this.byType.get(tk)?.get(`${ns ?? ''}/${name}`)
  }

  list(tk: string, ns?: string): KubeObject[] {
    const b = this.byType.get(tk)
    if (!b) return []
    const all = [...b.values()]
    return ns === undefined ? all : all.filter(o => o.metadata.namespace === ns)
  }

  count(tk: string): number {
    return this.byType.get(tk)?.size ?? 0
  }

  podsOnNode(node: string): KubeObject[] {
    const out: KubeObject[] = []
    const pods = this.byType.get('pods')
    for (const k of this.podsByNode.get(node) ?? []) {
      const p = pods?.get(k)
      if (p) out.push(p)
    }
    return out
  }

  /** Objects whose ownerReferences name `uid`, as [typeKey, object]. */
  dependentsOf(uid: string): Array<[string, KubeObject]> {
    const out: Array<[string, KubeObject]> = []
    for (const ref of this.dependents.get(uid) ?? []) {
      const i = ref.indexOf('|')
      const tk = ref.slice(0, i)
      const o = this.byType.get(tk)?.get(ref.slice(i + 1))
      if (o) out.push([tk, o])
    }
    return out
  }

  /** The object with `uid`, as [typeKey, object]. */
  byUid(uid: string): [string, KubeObject] | undefined {
    const ref = this.uids.get(uid)
    if (!ref) return undefined
    const i = ref.indexOf('|')
    const o = this.byType.get(ref.slice(0, i))?.get(ref.slice(i + 1))
    return o ? [ref.slice(0, i), o] : undefined
  }

  /** Pods controlled by the owner with `uid`. */
  ownedPods(uid: string): KubeObject[] {
    return this.dependentsOf(uid)
      .filter(([tk]) => tk === 'pods')
      .map(([, o]) => o)
  }
}
