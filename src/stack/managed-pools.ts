// The node pools the action manages on this cluster, for `all-pools`: those the ownership record's
// pools.json lists (src/stack/pool-record.ts), the run's node-pool first, each once; the run's pool
// alone when the record has none. Read-only. Docs: docs/multiple-pools.md.
import type { KubeReader } from '../kube/client.js'
import { messageOf } from '../kube/errors.js'
import { OWNERSHIP_RECORD } from './ownership.js'
import { managedPools as recordedPools, parsePools, POOLS_KEY } from './pool-record.js'

export interface ManagedPools {
  /** The run's pool first, then the others the record lists, each once. */
  pools: string[]
  /** Why the record's list was not (entirely) used, when so. */
  note?: string
}

/** The managed pools: the run's `nodePool` and those the ownership record lists (not one leaving). */
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
  const entries = parsePools(text)
  const dropped = text === undefined ? 0 : rawCount(text) - (entries?.length ?? 0)
  return {
    pools: [...new Set([nodePool, ...recordedPools({ pools: entries })])],
    ...(dropped > 0
      ? {
          note: `${OWNERSHIP_RECORD.namespace}/${OWNERSHIP_RECORD.name} ${POOLS_KEY}: ignored ${dropped} entr${dropped === 1 ? 'y' : 'ies'} not of the record's form`
        }
      : {})
  }
}

/** How many entries the text's array holds (1 for text that is no array: one thing ignored). */
function rawCount(text: string): number {
  try {
    const v: unknown = JSON.parse(text)
    return Array.isArray(v) ? v.length : 1
  } catch {
    return 1
  }
}
