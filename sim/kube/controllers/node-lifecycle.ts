// The node lifecycle controller's TaintNodesByCondition pass for cordoned nodes
// (kubernetes/kubernetes@v1.33.2 pkg/controller/nodelifecycle/node_lifecycle_controller.go
// `doNoScheduleTaintingPass`): a node with spec.unschedulable gets the
// `node.kubernetes.io/unschedulable:NoSchedule` taint, which goes when it is uncordoned. The
// scheduler then keeps pods that do not tolerate it off the node; DaemonSet pods tolerate it.
import type { KubeObject } from '../store.js'
import { isoNow, TK, typeFromKey, type SimContext } from './context.js'
import type { Reconciler } from './queue.js'

export const UNSCHEDULABLE_TAINT = 'node.kubernetes.io/unschedulable'

export class NodeLifecycleController implements Reconciler {
  readonly name = 'node-lifecycle'
  constructor(private readonly ctx: SimContext) {
    ctx.cache.onEvent((e, tk) => {
      if (tk === TK.nodes && e.type !== 'DELETED') ctx.queue.add(this, e.object.metadata.name)
    })
    for (const n of ctx.cache.list(TK.nodes)) ctx.queue.add(this, n.metadata.name)
  }

  reconcile(name: string): void {
    const node = this.ctx.cache.get(TK.nodes, undefined, name)
    const t = typeFromKey(this.ctx, TK.nodes)
    if (!node || !t || node.metadata.deletionTimestamp) return
    const want = !!node.spec?.unschedulable
    const has = (node.spec?.taints ?? []).some(
      (x: any) => x.key === UNSCHEDULABLE_TAINT && x.effect === 'NoSchedule'
    )
    if (want === has) return
    this.ctx.store.mutate(t, undefined, name, (o: KubeObject) => {
      const others = (o.spec?.taints ?? []).filter((x: any) => x.key !== UNSCHEDULABLE_TAINT)
      const taints = want
        ? [...others, { key: UNSCHEDULABLE_TAINT, effect: 'NoSchedule', timeAdded: isoNow(this.ctx) }]
        : others
      o.spec = { ...(o.spec ?? {}), taints }
      if (!taints.length) delete o.spec.taints
    })
  }
}
