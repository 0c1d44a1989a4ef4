// The garbage collector, as kube-controller-manager's (kubernetes/kubernetes@v1.33
// pkg/controller/garbagecollector/garbagecollector.go attemptToDeleteItem, processDeletingDependentsItem,
// orphanDependents): once an owner is gone, dependents left with no existing owner are deleted
// (with the policy their own finalizers ask for, else in the background) and references to owners
// that are gone are dropped from dependents that keep another owner; an owner deleted in the
// foreground (`foregroundDeletion` finalizer) has its dependents deleted and loses the finalizer
// once no dependent that blocks it (blockOwnerDeletion) is left; an owner deleted with `orphan`
// has its references removed from every dependent, then loses the finalizer.
import { FOREGROUND_FINALIZER, ORPHAN_FINALIZER, type PropagationPolicy } from '../deletion.js'
import type { KubeObject } from '../store.js'
import { StoreError } from '../store.js'
import { typeFromKey, type SimContext } from './context.js'
import type { Reconciler } from './queue.js'

const hasFinalizer = (o: KubeObject, f: string) => (o.metadata.finalizers ?? []).includes(f)

export class GarbageCollector implements Reconciler {
  readonly name = 'garbage-collector'
  constructor(private readonly ctx: SimContext) {
    ctx.cache.onEvent(e => {
      const o = e.object
      if (e.type === 'DELETED') {
        if (o.metadata.uid) ctx.queue.add(this, `gone|${o.metadata.uid}`)
        // A dependent gone: an owner waiting for it in the foreground may now finish.
        for (const r of o.metadata.ownerReferences ?? []) ctx.queue.add(this, `owner|${r.uid}`)
      } else if (
        o.metadata.deletionTimestamp &&
        (hasFinalizer(o, ORPHAN_FINALIZER) || hasFinalizer(o, FOREGROUND_FINALIZER))
      )
        ctx.queue.add(this, `owner|${o.metadata.uid}`)
    })
  }

  reconcile(key: string): void {
    const [what, uid] = key.split('|')
    if (what === 'gone') this.collect(uid)
    else this.finishOwner(uid)
  }

  private exists(uid: string): boolean {
    return !!this.ctx.cache.byUid(uid)
  }

  /** Dependents of an owner that is gone. */
  private collect(uid: string): void {
    if (this.exists(uid)) return
    for (const [tk, o] of this.ctx.cache.dependentsOf(uid)) {
      if (o.metadata.deletionTimestamp) continue
      const refs = o.metadata.ownerReferences ?? []
      const solid = refs.filter(r => r.uid !== uid && this.exists(r.uid))
      if (solid.length) this.dropRefs(tk, o, new Set(refs.filter(r => !this.exists(r.uid)).map(r => r.uid)))
      else this.remove(tk, o, this.policyOf(o))
    }
  }

  private policyOf(o: KubeObject): PropagationPolicy {
    if (hasFinalizer(o, ORPHAN_FINALIZER)) return 'Orphan'
    if (hasFinalizer(o, FOREGROUND_FINALIZER)) return 'Foreground'
    return 'Background'
  }

  /** An owner being deleted in the foreground or with orphaning. */
  private finishOwner(uid: string): void {
    const found = this.ctx.cache.byUid(uid)
    if (!found) return
    const [tk, owner] = found
    if (!owner.metadata.deletionTimestamp) return
    const dependents = this.ctx.cache.dependentsOf(uid)
    if (hasFinalizer(owner, ORPHAN_FINALIZER)) {
      for (const [dtk, d] of dependents) this.dropRefs(dtk, d, new Set([uid]))
      this.removeFinalizer(tk, owner, ORPHAN_FINALIZER)
      return
    }
    if (!hasFinalizer(owner, FOREGROUND_FINALIZER)) return
    for (const [dtk, d] of dependents) {
      if (d.metadata.deletionTimestamp) continue
      const hasOwn = this.ctx.cache.dependentsOf(d.metadata.uid!).length > 0
      this.remove(dtk, d, hasOwn ? 'Foreground' : this.policyOf(d))
    }
    const blocking = this.ctx.cache
      .dependentsOf(uid)
      .filter(([, d]) => (d.metadata.ownerReferences ?? []).some(r => r.uid === uid && r.blockOwnerDeletion))
    if (!blocking.length) this.removeFinalizer(tk, owner, FOREGROUND_FINALIZER)
  }

  private remove(tk: string, o: KubeObject, propagationPolicy: PropagationPolicy): void {
    const t = typeFromKey(this.ctx, tk)
    if (!t) return
    try {
      this.ctx.store.delete(t, o.metadata.namespace, o.metadata.name, {
        propagationPolicy,
        preconditions: { uid: o.metadata.uid }
      })
    } catch (e) {
      if (!(e instanceof StoreError && (e.code === 404 || e.code === 409))) throw e
    }
  }

  private dropRefs(tk: string, o: KubeObject, uids: Set<string>): void {
    const t = typeFromKey(this.ctx, tk)
    if (!t || !uids.size) return
    this.ctx.store.mutate(t, o.metadata.namespace, o.metadata.name, d => {
      const left = (d.metadata.ownerReferences ?? []).filter(r => !uids.has(r.uid))
      if (left.length) d.metadata.ownerReferences = left
      else delete d.metadata.ownerReferences
    })
  }

  private removeFinalizer(tk: string, o: KubeObject, finalizer: string): void {
    const t = typeFromKey(this.ctx, tk)
    if (!t) return
    this.ctx.store.mutate(t, o.metadata.namespace, o.metadata.name, d => {
      const left = (d.metadata.finalizers ?? []).filter(f => f !== finalizer)
      if (left.length) d.metadata.finalizers = left
      else delete d.metadata.finalizers
    })
  }
}
