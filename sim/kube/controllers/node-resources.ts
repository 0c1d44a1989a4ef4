// Device-plugin resources on a node: what the kubelet adds to status.capacity and
// status.allocatable when a device plugin registers (rdma/*, nvidia.com/gpu), as quantity strings,
// and the kubelet device manager's one endpoint per resource: a plugin that registers a resource
// replaces the endpoint serving it, and a replaced endpoint's disconnect leaves the resource alone.
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

/** Per world: the device plugin pod serving each resource on each node (`node resource` → pod uid). */
const ENDPOINTS = new WeakMap<SimContext, Map<string, string>>()

function endpoints(ctx: SimContext): Map<string, string> {
  let m = ENDPOINTS.get(ctx)
  if (!m) ENDPOINTS.set(ctx, (m = new Map()))
  return m
}

/** A device plugin pod (`plugin`, its uid) registered `resource` on `node`, replacing any earlier endpoint. */
export function registerEndpoint(ctx: SimContext, node: string, resource: string, plugin: string): void {
  endpoints(ctx).set(`${node} ${resource}`, plugin)
}

/**
 * A device plugin pod's endpoint for `resource` went away: the node's count drops to 0, unless
 * another pod registered the resource since (a rollout's replacement), whose endpoint stays.
 */
export function endpointStopped(ctx: SimContext, node: string, resource: string, plugin: string): void {
  const key = `${node} ${resource}`
  if (endpoints(ctx).get(key) !== plugin) return
  endpoints(ctx).delete(key)
  setExtendedResource(ctx, node, resource, 0)
}
