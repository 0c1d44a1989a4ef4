// One read of everything the verification checks look at, in paginated lists, never a request per node;
// a custom resource kind the server does not serve counts as none. See docs/scale.md ("Narrow reads").
import { kubeComponents, type ComponentName, type KubeComponent } from '../components/index.js'
import { poolNodes, poolNodeSource } from '../health/evaluate.js'
import type { SourceSpec } from '../health/types.js'
import type { KubeClient } from '../kube/client.js'
import { isKindNotServed } from '../kube/errors.js'
import type { KubeObject } from '../kube/types.js'
import type { Snapshot } from '../kube/watch.js'
import { LABELS } from '../model/types.js'
import type { Settings } from '../settings/settings.js'

export interface ClusterState {
  pool: string
  /** The pool's nodes, by name. */
  nodes: KubeObject[]
  /** What each checked component's health rules read, by their source keys (besides the nodes). */
  observed: Partial<Record<ComponentName, Snapshot<string>>>
  /** Sources that could not be read, per component and source key, with the error. */
  unreadable: Partial<Record<ComponentName, Record<string, string>>>
  /** When the pool has no nodes: the AKS pools the cluster's nodes belong to (sorted). */
  otherPools?: string[]
}

/** The components verification checks for these settings. */
export function checkedComponents(s: Settings): KubeComponent[] {
  return kubeComponents().filter(c => c.check && !c.check.skip(s))
}

const keyOf = (src: SourceSpec): string =>
  [src.apiVersion, src.kind, src.namespace ?? '', src.labelSelector ?? ''].join('|')

type Read = { items: KubeObject[] } | { error: string }

async function read(kube: KubeClient, src: SourceSpec): Promise<Read> {
  try {
    const { items } = await kube.list(src.apiVersion, src.kind, {
      namespace: src.namespace,
      labelSelector: src.labelSelector,
      limit: 500
    })
    return { items }
  } catch (e) {
    if (!src.custom) throw e
    // A kind the server does not serve (CRD not installed) means no such object exists.
    if (isKindNotServed(e)) return { items: [] }
    return { error: e instanceof Error ? e.message : String(e) }
  }
}

export async function readClusterState(kube: KubeClient, s: Settings): Promise<ClusterState> {
  const wanted = checkedComponents(s).map(c => ({ name: c.name, sources: c.health(s).sources }))
  const distinct = new Map<string, SourceSpec>([[keyOf(poolNodeSource(s)), poolNodeSource(s)]])
  for (const w of wanted) for (const src of Object.values(w.sources)) distinct.set(keyOf(src), src)
  const reads = new Map(
    await Promise.all([...distinct].map(async ([key, src]) => [key, await read(kube, src)] as const))
  )
  const listed = reads.get(keyOf(poolNodeSource(s)))!
  const state: ClusterState = {
    pool: s.nodePool.name,
    nodes: poolNodes('items' in listed ? listed.items : [], s.nodePool.name),
    observed: {},
    unreadable: {}
  }
  if (!state.nodes.length) state.otherPools = await poolsInCluster(kube)
  for (const w of wanted) {
    const snap: Snapshot<string> = {}
    const errors: Record<string, string> = {}
    for (const [k, src] of Object.entries(w.sources)) {
      const r = reads.get(keyOf(src))!
      if ('items' in r) snap[k] = r.items
      else {
        snap[k] = []
        errors[k] = r.error
      }
    }
    state.observed[w.name] = snap
    if (Object.keys(errors).length) state.unreadable[w.name] = errors
  }
  return state
}

/** The AKS node pools the cluster's nodes belong to (their agentpool label), for a pool name that has none. */
async function poolsInCluster(kube: KubeClient): Promise<string[]> {
  const { items } = await kube.list('v1', 'Node', { labelSelector: LABELS.agentPool, limit: 500 })
  const names = items.map(n => n.metadata.labels?.[LABELS.agentPool]).filter((p): p is string => !!p)
  return [...new Set(names)].sort()
}
