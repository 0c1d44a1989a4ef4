// The pools the stack's cluster-wide objects select, and the tolerations of every pool's taints.
// Docs: docs/multiple-pools.md.
import type { NodeTaint, Settings, StackPool } from '../settings/settings.js'
import { LABELS } from './types.js'
import type { Toleration } from './workload.js'

/** The pools, by name, each once (the first entry of a name wins); the run's own pool when none is set. */
export function stackPools(s: Pick<Settings, 'nodePool' | 'stackPools'>): StackPool[] {
  const given = s.stackPools?.length ? s.stackPools : [{ name: s.nodePool.name, taints: s.nodePool.taints }]
  const out: StackPool[] = []
  for (const p of given) if (!out.some(o => o.name === p.name)) out.push(p)
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}

/** Their names, sorted (a set: the order never changes a manifest). */
export function stackPoolNames(s: Pick<Settings, 'nodePool' | 'stackPools'>): string[] {
  return stackPools(s).map(p => p.name)
}

/** The toleration of one taint: Equal with its value, Exists without one. */
export function tolerationOf(t: NodeTaint): Toleration {
  return t.value
    ? { key: t.key, operator: 'Equal', value: t.value, effect: t.effect }
    : { key: t.key, operator: 'Exists', effect: t.effect }
}

/** A toleration for each taint of every pool, without duplicates, in pool order. */
export function stackPoolTolerations(s: Pick<Settings, 'nodePool' | 'stackPools'>): Toleration[] {
  const out: Toleration[] = []
  for (const p of stackPools(s))
    for (const t of p.taints.map(tolerationOf))
      if (!out.some(o => JSON.stringify(o) === JSON.stringify(t))) out.push(t)
  return out
}

/** The node selector requirement `agentpool In [pools]`. */
export function poolRequirement(s: Pick<Settings, 'nodePool' | 'stackPools'>): {
  key: string
  operator: 'In'
  values: string[]
} {
  return { key: LABELS.agentPool, operator: 'In', values: stackPoolNames(s) }
}

/** A pod's required node affinity on the pools (a nodeSelector map cannot say "one of"). */
export function poolAffinity(s: Pick<Settings, 'nodePool' | 'stackPools'>): Record<string, unknown> {
  return {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchExpressions: [poolRequirement(s)] }]
      }
    }
  }
}
