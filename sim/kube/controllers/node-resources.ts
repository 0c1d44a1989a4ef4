// Device-plugin resources on a node: what the kubelet adds to status.capacity and
// status.allocatable when a device plugin registers (rdma/*, nvidia.com/gpu), as quantity strings.
import { TK, typeFromKey, type SimContext } from './context.js'
import { formatQuantity } from './placement.js'

/** Sets (or with `count` undefined removes) an extended resource on a node. */
export function setExtendedResource(
  ctx: SimContext,
  node: string,
  resource: string,
  count: number | undefined
): void {
  const hw = ctx.hardware.get(node)
  const qty = count === undefined ? undefined : formatQuantity(count)
  if (hw) {
    if (qty === undefined) delete hw.extendedResources[resource]
    else hw.extendedResources[resource] = qty
  }
  const cur = ctx.cache.get(TK.nodes, undefined, node)
  if (!cur) return
  if (cur.status?.allocatable?.[resource] === qty && cur.status?.capacity?.[resource] === qty) return
  ctx.store.mutate(
    typeFromKey(ctx, TK.nodes)!,
    undefined,
    node,
    o => {
      o.status = o.status ?? {}
      for (const f of ['capacity', 'allocatable']) {
        o.status[f] = o.status[f] ?? {}
        if (qty === undefined) delete o.status[f][resource]
        else o.status[f][resource] = qty
      }
    },
    { subresource: 'status' }
  )
}
