// The node pools the action manages on this cluster, for `all-pools`: the ownership record's `pools`
// key (a JSON array of AKS pool names, in the ConfigMap kube-system/aks-rdma-action-owned), with the
// run's own node-pool first; the run's pool alone when the record has none. Read-only; every name
// is checked as an AKS pool name (hostile text otherwise). Docs: docs/day-two.md#several-pools.
import type { KubeReader } from '../kube/client.js'
import { messageOf } from '../kube/errors.js'
import { OWNERSHIP_RECORD } from './ownership.js'

/** The record's key that lists the managed pools. */
export const POOLS_KEY = 'pools'

/** An AKS node pool name: lowercase letters and digits, starting with a letter, at most 12. */
const POOL_NAME = /^[a-z][a-z0-9]{0,11}$/

export interface ManagedPools {
  /** The run's pool first, then the others the record lists, each once. */
  pools: string[]
  /** Why the record's list was not (entirely) used, when so. */
  note?: string
}

/** The pools a `pools` value lists: names that are AKS pool names; the rest said in `bad`. */
export function parsePools(text: string | undefined): { pools: string[]; bad: string[] } {
  if (text === undefined || text.trim() === '') return { pools: [], bad: [] }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { pools: [], bad: ['not a JSON array'] }
  }
  if (!Array.isArray(value)) return { pools: [], bad: ['not a JSON array'] }
  const pools: string[] = []
  const bad: string[] = []
  for (const v of value)
    if (typeof v === 'string' && POOL_NAME.test(v)) pools.push(v)
    else bad.push(JSON.stringify(v).slice(0, 40))
  return { pools, bad }
}

/** The managed pools: the run's `nodePool` and those the ownership record lists. */
export async function managedPools(kube: KubeReader, nodePool: string): Promise<ManagedPools> {
  let text: string | undefined
  try {
    const cm = await kube.get({ apiVersion: 'v1', kind: 'ConfigMap', ...OWNERSHIP_RECORD })
    text = (cm?.data as Record<string, string> | undefined)?.[POOLS_KEY]
  } catch (e) {
    return {
      pools: [nodePool],
      note: `the ownership record could not be read (${messageOf(e)}): pool ${nodePool} only`
    }
  }
  const { pools, bad } = parsePools(text)
  const all = [nodePool, ...pools.filter(p => p !== nodePool)]
  const unique = [...new Set(all)]
  return {
    pools: unique,
    ...(bad.length
      ? {
          note: `${OWNERSHIP_RECORD.namespace}/${OWNERSHIP_RECORD.name} ${POOLS_KEY}: ignored ${bad.join(', ')} (not AKS pool names)`
        }
      : {})
  }
}
