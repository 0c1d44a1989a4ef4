// The line rate a benchmark result is judged against, from the node probes' ibstat, and the slow
// ports that name one end of a slow pair. See docs/benchmark.md.
import type { Settings } from '../settings/settings.js'
import { findRdmaVmSize } from '../settings/vm-sizes.js'
import type { NodeFacts } from '../verify/probe-output.js'
import { endOutlier, outlierName, sortedOutliers, type Outlier } from '../util/outliers.js'

/**
 * The highest rate any active IB port of the measured nodes reports (a pool is one VM size, so every
 * port should run at it; a port that trained lower is itself the finding), else the VM size's nominal rate.
 */
export function fleetLineRate(facts: Iterable<NodeFacts>, s: Settings): number | null {
  let max = 0
  for (const f of facts) for (const d of f.activeDevices) max = Math.max(max, f.rateGbps[d] ?? 0)
  if (max > 0) return max
  return findRdmaVmSize(s.nodePool.vmSize)?.linkGbps ?? null
}

/** `node/device` ends whose probed port rate is below the line rate. */
export function slowPorts(facts: Iterable<NodeFacts>, line: number | null): Set<string> {
  const out = new Set<string>()
  if (!line) return out
  for (const f of facts)
    for (const d of f.activeDevices) if ((f.rateGbps[d] ?? line) < line) out.add(`${f.node}/${d}`)
  return out
}

/**
 * Sharpens outliers the analysis could only name as a link (`a/dev ↔ b/dev`, e.g. pair scope where
 * each node has one partner): when exactly one end's port is slow in ibstat (`slow`: `node/device`),
 * that end is named. A node with every device named is named as the node.
 */
export function refineOutliers(
  outliers: Outlier[],
  slow: Set<string>,
  devicesPerNode: Map<string, number> = new Map()
): Outlier[] {
  const out = new Map<string, Outlier>()
  const add = (o: Outlier) => out.set(outlierName(o), o)
  for (const o of outliers) {
    if (o.kind !== 'link') {
      add(o)
      continue
    }
    const ends = [o.a, o.b].filter(e => slow.has(outlierName(endOutlier(e))))
    add(ends.length === 1 ? endOutlier(ends[0]) : o)
  }
  // Every device of a node named: name the node (device names have no space or slash).
  const byNode = new Map<string, string[]>()
  for (const [name, o] of out)
    if (o.kind === 'nic' && /^[^/ ]+$/.test(o.node) && /^[^/ ]+$/.test(o.device))
      byNode.set(o.node, [...(byNode.get(o.node) ?? []), name])
  for (const [node, named] of byNode) {
    const total = devicesPerNode.get(node)
    if (total !== undefined && total > 0 && named.length >= total) {
      for (const n of named) out.delete(n)
      add({ kind: 'node', node })
    }
  }
  return sortedOutliers(out.values())
}
