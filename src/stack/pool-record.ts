// The managed pools as the ownership record's key pools.json holds them; src/stack/pools.ts changes them.
// Docs: docs/multiple-pools.md#the-record-of-the-managed-pools.
import type { NodeTaint, StackPool } from '../settings/settings.js'

/** The record's key holding the pools: a JSON array of PoolEntry. */
export const POOLS_KEY = 'pools.json'

/** One pool the action set up (or is setting up, or taking out). */
export interface PoolEntry {
  name: string
  /** pending: its first apply is under way (the objects may select it already); managed: done; leaving: uninstall takes it out. */
  state: 'pending' | 'managed' | 'leaving'
  /** Its nodes' taints as `key=value:Effect` (the node agents tolerate every managed pool's). */
  taints: string[]
  /** Its VM size, as the run that added it gave it. */
  vmSize?: string
  /** The run that wrote the entry, and when (the runner's clock). */
  runId: string
  at: string
}

export const POOL_NAME = /^[a-z][a-z0-9]{0,11}$/
export const TAINT =
  /^[A-Za-z0-9./_-]{1,253}(=[A-Za-z0-9._-]{0,63})?:(NoSchedule|PreferNoSchedule|NoExecute)$/
const text = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 400

/**
 * The pools of the record's text; undefined when there is no such key. The text is the cluster's:
 * an entry that is not of the shape (a pool name AKS accepts, known state, taints of the form) is dropped.
 */
export function parsePools(textOf: string | undefined): PoolEntry[] | undefined {
  if (textOf === undefined) return undefined
  let raw: unknown
  try {
    raw = JSON.parse(textOf)
  } catch {
    return []
  }
  if (!Array.isArray(raw)) return []
  const out: PoolEntry[] = []
  for (const r of raw as Array<Record<string, unknown>>) {
    if (typeof r !== 'object' || r === null) continue
    if (typeof r.name !== 'string' || !POOL_NAME.test(r.name)) continue
    if (r.state !== 'pending' && r.state !== 'managed' && r.state !== 'leaving') continue
    if (!text(r.runId) || !text(r.at)) continue
    const taints = Array.isArray(r.taints) ? r.taints : []
    if (!taints.every(t => typeof t === 'string' && TAINT.test(t))) continue
    if (out.some(p => p.name === r.name)) continue
    out.push({
      name: r.name,
      state: r.state,
      taints: taints as string[],
      ...(text(r.vmSize) ? { vmSize: r.vmSize } : {}),
      runId: r.runId,
      at: r.at
    })
  }
  return out
}

/**
 * The names of the pools the stack serves, sorted: every recorded pool but one being taken out.
 * For readers of the record (verify, drift): `managedPools(await kubeRecordStore(kube).read())`.
 */
export function managedPools(record: { pools?: PoolEntry[] } | undefined): string[] {
  return (record?.pools ?? [])
    .filter(p => p.state !== 'leaving')
    .map(p => p.name)
    .sort()
}

/** `key=value:Effect` (`key:Effect` without a value). */
export function taintText(t: NodeTaint): string {
  return `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`
}

/** The taint of `key=value:Effect`. */
export function taintOf(textOf: string): NodeTaint {
  const [kv, effect] = [textOf.slice(0, textOf.lastIndexOf(':')), textOf.slice(textOf.lastIndexOf(':') + 1)]
  const eq = kv.indexOf('=')
  return {
    key: eq < 0 ? kv : kv.slice(0, eq),
    value: eq < 0 ? '' : kv.slice(eq + 1),
    effect: effect as NodeTaint['effect']
  }
}

/** The pools the objects select, as the settings carry them: every pool not leaving. */
export function stackPoolsOf(pools: PoolEntry[]): StackPool[] {
  return pools.filter(p => p.state !== 'leaving').map(p => ({ name: p.name, taints: p.taints.map(taintOf) }))
}
