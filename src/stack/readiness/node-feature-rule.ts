// Readiness of the NodeFeatureRule: every node of the RDMA pool labelled
// feature.node.kubernetes.io/pci-15b3.present=true by NFD. When no node is labelled after a grace
// period the step fails: the pool's nodes have no Mellanox InfiniBand VF (101c/101e).
import { LABELS } from '../../model/types.js'
import type { KubeObject } from '../../kube/types.js'
import { formatDuration } from '../../util/duration.js'
import {
  nodeVerdict,
  rdmaNodeSource,
  rdmaNodes,
  type ComponentReadiness,
  type NodeProgress,
  type ReadinessVerdict
} from './common.js'

export function noInfinibandMessage(pool: string, total: number, graceMs: number): string {
  return (
    `no Mellanox IB device found on the pool's nodes: none of the ${total} node${total === 1 ? '' : 's'} of pool ${pool} ` +
    `was labelled ${LABELS.pci15b3}=true within ${formatDuration(graceMs)} (the NodeFeatureRule matches PCI devices 15b3:101c/101e). ` +
    'Check that the VM size is RDMA-capable (an "r" size such as Standard_ND96isr_H100_v5) and that InfiniBand is enabled on the pool.'
  )
}

export function evaluateNodeFeatureRule(
  nodes: KubeObject[],
  ctx: { pool: string; elapsedMs: number; graceMs: number }
): ReadinessVerdict {
  const pool = rdmaNodes(nodes, ctx.pool)
  const progress: NodeProgress[] = pool.map(n => {
    const ok = n.metadata.labels?.[LABELS.pci15b3] === 'true'
    return { node: n.metadata.name, ready: ok, ...(ok ? {} : { detail: `no ${LABELS.pci15b3}=true label` }) }
  })
  const labelled = progress.filter(p => p.ready).length
  const noneAfterGrace = pool.length > 0 && labelled === 0 && ctx.elapsedMs >= ctx.graceMs
  const v = nodeVerdict('labelled pci-15b3.present=true', progress, {
    ok: true,
    ...(noneAfterGrace ? { fail: noInfinibandMessage(ctx.pool, pool.length, ctx.graceMs) } : {})
  })
  if (!v.done && !v.fail && pool.length > 0 && labelled === 0)
    v.recheckInMs = Math.max(0, ctx.graceMs - ctx.elapsedMs)
  return v
}

export const nodeFeatureRuleReadiness: ComponentReadiness<'nodes'> = {
  component: 'node-feature-rule',
  sources: (client, settings) => ({ nodes: rdmaNodeSource(client, settings) }),
  evaluate: (snap, ctx) =>
    evaluateNodeFeatureRule(snap.nodes, {
      pool: ctx.settings.nodePool.name,
      elapsedMs: ctx.elapsedMs,
      graceMs: ctx.nfdGraceMs
    })
}
