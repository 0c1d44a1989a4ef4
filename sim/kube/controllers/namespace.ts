// The namespace controller, as kube-controller-manager's (kubernetes/kubernetes@v1.33
// pkg/controller/namespace/deletion/namespaced_resources_deleter.go): a Namespace with a
// deletionTimestamp has everything in it deleted (in the background, pods gracefully), reports
// what is left in its status conditions (NamespaceContentRemaining, NamespaceFinalizersRemaining,
// with the real wording), and once nothing is left has its `kubernetes` finalizer removed through
// `finalize` — which, with no other finalizer, removes the Namespace.
import type { KubeObject, ResourceType } from '../store.js'
import { StoreError, typeKey } from '../store.js'
import { NAMESPACE_FINALIZER } from '../strategy.js'
import { isoNow, TK, typeFromKey, type SimContext } from './context.js'
import type { Reconciler } from './queue.js'

interface Remaining {
  resources: Map<string, number>
  finalizers: Map<string, number>
}

/** Sim ms between re-checks of a terminating namespace (besides every deletion in it). */
const RECHECK_MS = 5_000

export class NamespaceController implements Reconciler {
  readonly name = 'namespace'
  private readonly terminating = new Set<string>()
  constructor(private readonly ctx: SimContext) {
    ctx.cache.onEvent(e => {
      const o = e.object
      if (e.type !== 'DELETED' && o.kind === 'Namespace' && o.metadata.deletionTimestamp)
        ctx.queue.add(this, o.metadata.name)
      else if (e.type === 'DELETED' && o.metadata.namespace && this.terminating.has(o.metadata.namespace))
        ctx.queue.add(this, o.metadata.namespace)
    })
    for (const ns of ctx.cache.list(TK.namespaces))
      if (ns.metadata.deletionTimestamp) ctx.queue.add(this, ns.metadata.name)
  }

  reconcile(name: string): void {
    const ns = this.ctx.cache.get(TK.namespaces, undefined, name)
    if (!ns?.metadata.deletionTimestamp || !(ns.spec?.finalizers ?? []).includes(NAMESPACE_FINALIZER)) {
      this.terminating.delete(name)
      return
    }
    this.terminating.add(name)
    const left = this.deleteContent(name)
    this.writeConditions(ns, left)
    if (left.resources.size) {
      this.ctx.timers.after(RECHECK_MS, () => this.ctx.queue.add(this, name))
      return
    }
    this.finalize(ns)
  }

  private namespacedTypes(): ResourceType[] {
    return this.ctx.store
      .types()
      .filter(t => t.namespaced && (t.verbs ?? []).includes('delete') && typeKey(t) !== TK.namespaces)
  }

  /** Deletes what is in the namespace; returns what is still there. */
  private deleteContent(ns: string): Remaining {
    const left: Remaining = { resources: new Map(), finalizers: new Map() }
    for (const t of this.namespacedTypes()) {
      const tk = typeKey(t)
      for (const o of this.ctx.cache.list(tk, ns)) if (!o.metadata.deletionTimestamp) this.deleteOne(t, o)
      for (const o of this.ctx.cache.list(tk, ns)) {
        const key = t.group ? `${t.plural}.${t.group}` : `${t.plural}.`
        left.resources.set(key, (left.resources.get(key) ?? 0) + 1)
        for (const f of o.metadata.finalizers ?? []) left.finalizers.set(f, (left.finalizers.get(f) ?? 0) + 1)
      }
    }
    return left
  }

  private deleteOne(t: ResourceType, o: KubeObject): void {
    try {
      this.ctx.store.delete(t, o.metadata.namespace, o.metadata.name, { propagationPolicy: 'Background' })
    } catch (e) {
      if (!(e instanceof StoreError && e.code === 404)) throw e
    }
  }

  private writeConditions(ns: KubeObject, left: Remaining): void {
    const now = isoNow(this.ctx)
    const list = (m: Map<string, number>, unit: string) =>
      [...m.entries()]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, n]) => `${k}${unit} ${n} resource instances`)
        .join(', ')
    const want = [
      [
        'NamespaceDeletionDiscoveryFailure',
        'False',
        'ResourcesDiscovered',
        'All resources successfully discovered'
      ],
      [
        'NamespaceDeletionGroupVersionParsingFailure',
        'False',
        'ParsedGroupVersions',
        'All legacy kube types successfully parsed'
      ],
      [
        'NamespaceDeletionContentFailure',
        'False',
        'ContentDeleted',
        'All content successfully deleted, may be waiting on finalization'
      ],
      left.resources.size
        ? [
            'NamespaceContentRemaining',
            'True',
            'SomeResourcesRemain',
            `Some resources are remaining: ${list(left.resources, ' has')}`
          ]
        : ['NamespaceContentRemaining', 'False', 'ContentRemoved', 'All content successfully removed'],
      left.finalizers.size
        ? [
            'NamespaceFinalizersRemaining',
            'True',
            'SomeFinalizersRemain',
            `Some content in the namespace has finalizers remaining: ${list(left.finalizers, ' in')}`
          ]
        : [
            'NamespaceFinalizersRemaining',
            'False',
            'ContentHasNoFinalizers',
            'All content-preserving finalizers finished'
          ]
    ]
    const nsT = typeFromKey(this.ctx, TK.namespaces)!
    this.ctx.store.mutate(
      nsT,
      undefined,
      ns.metadata.name,
      o => {
        const prev: any[] = o.status?.conditions ?? []
        const conditions = want.map(([type, status, reason, message]) => {
          const p = prev.find(c => c.type === type)
          const same = p && p.status === status && p.reason === reason && p.message === message
          return same ? p : { type, status, lastTransitionTime: now, reason, message }
        })
        o.status = { ...(o.status ?? {}), phase: 'Terminating', conditions }
      },
      { subresource: 'status' }
    )
  }

  /** PUT …/finalize without the `kubernetes` finalizer. */
  private finalize(ns: KubeObject): void {
    const nsT = typeFromKey(this.ctx, TK.namespaces)!
    const live = this.ctx.store.tryGet(nsT, undefined, ns.metadata.name)
    if (!live) return
    const finalizers = (live.spec?.finalizers ?? []).filter((f: string) => f !== NAMESPACE_FINALIZER)
    this.ctx.store.update(nsT, {
      ...live,
      metadata: { ...live.metadata, resourceVersion: undefined as unknown as string },
      spec: { ...(live.spec ?? {}), finalizers }
    })
    this.terminating.delete(ns.metadata.name)
  }
}
