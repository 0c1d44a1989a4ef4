// Garbage collection: when an object is deleted, the objects whose ownerReferences name it are
// deleted too (DaemonSet → pods, NicClusterPolicy → MOFED DaemonSets, Deployment → ReplicaSet
// → pods); deleting a Namespace deletes everything in it.
import { deleteIfPresent, TK, typeFromKey, type SimContext } from './context.js'

export class GarbageCollector {
  constructor(private readonly ctx: SimContext) {
    ctx.cache.onEvent((e, tk) => {
      if (e.type !== 'DELETED') return
      const uid = e.object.metadata.uid
      if (uid) setImmediate(() => this.collect(uid))
      if (tk === TK.namespaces) setImmediate(() => this.dropNamespace(e.object.metadata.name))
    })
  }

  private collect(uid: string): void {
    for (const [tk, o] of this.ctx.cache.dependentsOf(uid)) {
      const others = (o.metadata.ownerReferences ?? []).filter(r => r.uid !== uid)
      const t = typeFromKey(this.ctx, tk)
      if (!t) continue
      if (others.some(r => this.ownerExists(r.uid))) continue
      deleteIfPresent(this.ctx, t, o.metadata.namespace, o.metadata.name)
    }
  }

  private ownerExists(uid: string): boolean {
    // Owners are few; a reverse scan is cheap enough for the rare multi-owner case.
    for (const t of this.ctx.store.types()) {
      for (const o of this.ctx.cache.list(t.group ? `${t.plural}.${t.group}` : t.plural))
        if (o.metadata.uid === uid) return true
    }
    return false
  }

  private dropNamespace(ns: string): void {
    for (const t of this.ctx.store.types()) {
      if (!t.namespaced) continue
      for (const o of this.ctx.cache.list(t.group ? `${t.plural}.${t.group}` : t.plural, ns))
        deleteIfPresent(this.ctx, t, ns, o.metadata.name)
    }
  }
}
