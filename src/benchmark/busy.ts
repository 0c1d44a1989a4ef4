// A pool whose GPUs are held by workload pods: a perftest pod the scheduler cannot place for want
// of GPUs or RDMA devices is a busy pool, not a slow link (docs/benchmark.md "A busy pool").
import type { KubeClient } from '../kube/client.js'
import type { KubeObject } from '../kube/types.js'
import { isPodTerminal } from '../kube/pods.js'

/** One workload pod holding GPUs or RDMA devices on a node of the pool. */
export interface GpuHolder {
  node: string
  namespace: string
  name: string
}

/**
 * The resource a failed measurement's pod was short of, when it was unschedulable for want of one of
 * `resources` (kube-scheduler's `0/2 nodes are available: 2 Insufficient nvidia.com/gpu.`); else undefined.
 */
export function busyResource(error: string | null | undefined, resources: string[]): string | undefined {
  if (!error || !/\bunschedulable\b/i.test(error)) return undefined
  for (const m of error.matchAll(/\bInsufficient ([\w./-]+?)(?=[,.;]?(\s|$))/g))
    if (resources.includes(m[1])) return m[1]
  return undefined
}

function requests(pod: KubeObject, resources: string[]): boolean {
  const spec = pod.spec as
    | {
        containers?: Array<{
          resources?: { requests?: Record<string, unknown>; limits?: Record<string, unknown> }
        }>
      }
    | undefined
  return (spec?.containers ?? []).some(c =>
    resources.some(r => {
      const v = c.resources?.requests?.[r] ?? c.resources?.limits?.[r]
      return v !== undefined && String(v) !== '0'
    })
  )
}

/** The live pods on `nodes` (outside `ownNamespace`) that request any of `resources`, sorted. */
export async function gpuHolders(
  kube: KubeClient,
  nodes: string[],
  resources: string[],
  ownNamespace: string
): Promise<GpuHolder[]> {
  // One list per node, filtered by the API server (a node holds at most a few hundred pods).
  const lists = await Promise.all(
    nodes.map(node => kube.list('v1', 'Pod', { fieldSelector: `spec.nodeName=${node}`, limit: 500 }))
  )
  return lists
    .flatMap(l => l.items)
    .filter(p => p.metadata.namespace !== ownNamespace && !isPodTerminal(p) && requests(p, resources))
    .map(p => ({
      node: String(p.spec?.nodeName ?? ''),
      namespace: p.metadata.namespace ?? '',
      name: p.metadata.name
    }))
    .sort((a, b) => `${a.node}/${a.namespace}/${a.name}`.localeCompare(`${b.node}/${b.namespace}/${b.name}`))
}

/** Which check a busy pool stopped: the pods it could not schedule, and what still ran before it. */
export interface BusyCheck {
  pods: string
  ran: string
  /** How to verify a pool in use (which input leaves the GPUs alone). */
  fix: string
}

const BENCHMARK_CHECK: BusyCheck = {
  pods: 'the perftest pods',
  ran: 'the read-only checks and the node probe ran',
  fix: 'set benchmark: false to verify a pool in use'
}

/** What the report and the headline say of a busy pool: the holders per node and how to check it. */
export function busyReason(
  resource: string,
  holders: GpuHolder[],
  max = 8,
  check: BusyCheck = BENCHMARK_CHECK
): string {
  const shown = holders.slice(0, max).map(h => `${h.namespace}/${h.name} on ${h.node}`)
  const more = holders.length - shown.length
  const who = holders.length
    ? `held by ${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}`
    : 'held by other pods'
  return `the RDMA pool is busy: its ${resource} ${who}, so ${check.pods} could not be scheduled; ${check.ran}, but the benchmark and the transport check need free GPUs — ${check.fix}, or run when the pool is drained`
}
