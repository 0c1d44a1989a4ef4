// Drift of the pool's nodes (cordoned, or held by a driver upgrade), which apply does not fix.
// Docs: docs/drift.md, docs/troubleshooting.md#a-node-left-cordoned-or-mid-upgrade.
import type { KubeReader } from '../kube/client.js'
import { nodeBlockers, UPGRADE_DRIVERS, type NodeBlocker } from '../model/node-blockers.js'
import { LABELS } from '../model/types.js'
import type { DriftItem } from '../drift/item.js'

/** The component drift items about the pool's nodes carry. */
export const NODES_COMPONENT = 'nodes'

function item(b: NodeBlocker): DriftItem {
  const cordon = b.cause === 'cordoned'
  return {
    component: NODES_COMPONENT,
    field:
      b.cause === 'cordoned'
        ? `node/${b.node} spec.unschedulable`
        : `node/${b.node} label ${UPGRADE_DRIVERS[b.cause].label}`,
    desired: cordon ? 'false (schedulable)' : 'upgrade-done (or absent)',
    actual: cordon ? 'true (cordoned)' : `${b.state}: ${b.message}`,
    fixableByApply: false,
    hint: b.fix
  }
}

/** The pool `pool`'s nodes that are cordoned or mid driver upgrade, as drift items. */
export async function nodeDrift(kube: KubeReader, pool: string): Promise<DriftItem[]> {
  const { items } = await kube.list('v1', 'Node', {
    labelSelector: `${LABELS.agentPool}=${pool}`,
    limit: 500
  })
  return items
    .filter(n => !n.metadata.deletionTimestamp)
    .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))
    .flatMap(n => nodeBlockers(n).map(item))
}
