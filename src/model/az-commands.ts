// The az commands the action suggests, each runnable as printed whatever the shell's az defaults are.
// Docs: docs/drift.md (a valueless taint gets no az command: az's --node-taints takes only key=value:Effect).
import type { Settings } from '../settings/settings.js'

/** Where a command acts: the subscription (when known), the resource group and the cluster. */
export interface AzTarget {
  subscriptionId?: string
  resourceGroup: string
  cluster: string
}

/** The RDMA pool's place: its cluster's, and its name. */
export interface PoolTarget extends AzTarget {
  pool: string
}

export function poolTarget(s: Settings): PoolTarget {
  return { ...azTarget(s), pool: s.nodePool.name }
}

export function azTarget(s: Settings): AzTarget {
  return {
    ...(s.azure.subscriptionId ? { subscriptionId: s.azure.subscriptionId } : {}),
    resourceGroup: s.cluster.resourceGroup,
    cluster: s.cluster.name
  }
}

/** One word for a POSIX shell: as it is when plain, single-quoted otherwise (`''` when empty). */
export function shellWord(w: string): string {
  return /^[A-Za-z0-9_./:=,@%+-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`
}

function az(words: string[]): string {
  return ['az', ...words].map(shellWord).join(' ')
}

function scope(t: AzTarget): string[] {
  return [
    ...(t.subscriptionId ? ['--subscription', t.subscriptionId] : []),
    '--resource-group',
    t.resourceGroup
  ]
}

/** `az aks nodepool VERB … --name POOL [args]`. */
export function nodepoolCommand(t: AzTarget, verb: string, pool: string, args: string[] = []): string {
  return az(['aks', 'nodepool', verb, ...scope(t), '--cluster-name', t.cluster, '--name', pool, ...args])
}

/** `az aks VERB … --name CLUSTER`. */
export function clusterCommand(t: AzTarget, verb: string): string {
  return az(['aks', verb, ...scope(t), '--name', t.cluster])
}

/** `--labels` as az takes them: space-separated key=value words, `''` for none. */
export function labelsCommand(t: AzTarget, pool: string, labels: Record<string, string>): string {
  const words = Object.entries(labels)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${v}`)
  return nodepoolCommand(t, 'update', pool, ['--labels', ...(words.length ? words : [''])])
}

/**
 * `--node-taints` as az takes them (comma-separated key=value:Effect, `''` for none), or undefined
 * when a taint has no value: azure-cli's validate_taint refuses those.
 */
export function nodeTaintsCommand(t: AzTarget, pool: string, taints: string[]): string | undefined {
  if (taints.some(x => !/^[^=:]+=[^:]+:\w+$/.test(x))) return undefined
  return nodepoolCommand(t, 'update', pool, ['--node-taints', [...taints].sort().join(',')])
}
