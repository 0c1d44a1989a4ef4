// Reading and changing the managed pools for one run of apply or uninstall, also from an earlier record.
// Docs: docs/multiple-pools.md.
import type { KubeClient, KubeReader } from '../kube/client.js'
import { isKindNotServed, messageOf } from '../kube/errors.js'
import type { KubeObject } from '../kube/types.js'
import type { Log } from '../log/index.js'
import { LABELS } from '../model/types.js'
import type { Settings } from '../settings/settings.js'
import { OwnershipRecord, proofOfObject, sameRef, type OwnedEntry } from './ownership.js'
import { POOL_NAME, stackPoolsOf, TAINT, taintText, type PoolEntry } from './pool-record.js'

/** The NicClusterPolicy and the ib-node-config DaemonSet as the record names them (the objects an earlier version selected the pool in). */
const LEGACY_SOURCES = [
  { apiVersion: 'mellanox.com/v1alpha1', kind: 'NicClusterPolicy', name: 'nic-cluster-policy' },
  { apiVersion: 'apps/v1', kind: 'DaemonSet', namespace: 'kube-system', name: 'ib-node-config' }
] as const

/** The agentpool values an object selects: node affinity `In` values, or a nodeSelector's value. */
export function selectedPoolsOf(o: KubeObject): string[] {
  const spec = o.kind === 'NicClusterPolicy' ? o.spec : o.spec?.template?.spec
  const found = new Set<string>()
  const selector = spec?.nodeSelector?.[LABELS.agentPool]
  if (typeof selector === 'string') found.add(selector)
  const affinity = o.kind === 'NicClusterPolicy' ? spec?.nodeAffinity : spec?.affinity?.nodeAffinity
  const terms = affinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms
  for (const term of Array.isArray(terms) ? terms : [])
    for (const e of Array.isArray(term?.matchExpressions) ? term.matchExpressions : [])
      if (e?.key === LABELS.agentPool && e.operator === 'In' && Array.isArray(e.values))
        for (const v of e.values) if (typeof v === 'string') found.add(v)
  return [...found].filter(v => POOL_NAME.test(v)).sort()
}

/** Taints back from the tolerations an earlier version rendered from them (Equal → key=value, Exists → key). */
function taintsOfTolerations(o: KubeObject): string[] {
  const list = o.kind === 'NicClusterPolicy' ? o.spec?.tolerations : undefined
  const out: string[] = []
  for (const t of Array.isArray(list) ? list : []) {
    if (!t || typeof t.key !== 'string' || !t.effect) continue
    const s = `${t.key}${t.operator === 'Equal' && t.value ? `=${t.value}` : ''}:${t.effect}`
    if (TAINT.test(s) && !out.includes(s)) out.push(s)
  }
  return out
}

/**
 * The pools a record without a pools key serves (written by an earlier version of the action):
 * those its NicClusterPolicy (else its ib-node-config DaemonSet) selects, when the record proves
 * that object the action's (its recorded uid). `how` says where they came from, for the log.
 */
export async function legacyPools(
  kube: Pick<KubeReader, 'get'>,
  entries: OwnedEntry[],
  o: { runId: string; at: string }
): Promise<{ pools: PoolEntry[]; how: string }> {
  const why: string[] = []
  for (const ref of LEGACY_SOURCES) {
    const entry = entries.find(e => sameRef(e, ref))
    if (!entry) continue
    const live = await kube.get(ref).catch((e: unknown) => {
      if (isKindNotServed(e)) return undefined
      throw e
    })
    if (!live) continue
    const proof = proofOfObject(entry, live)
    const where = `${ref.kind} ${ref.name}`
    if (!proof.owned) {
      why.push(`${where} is not the action's (${proof.why})`)
      continue
    }
    const names = selectedPoolsOf(live)
    if (!names.length) {
      why.push(`${where} selects no pool`)
      continue
    }
    const taints = taintsOfTolerations(live)
    return {
      pools: names.map(name => ({ name, state: 'managed', taints, runId: o.runId, at: o.at })),
      how: `the ownership record lists no pools (an earlier version of the action wrote it): pool${names.length === 1 ? '' : 's'} ${names.join(', ')} taken as managed from the ${where} it selects (${proof.how})`
    }
  }
  return {
    pools: [],
    how: `the ownership record lists no pools and none could be proven from the objects${why.length ? ` (${why.join('; ')})` : ''}`
  }
}

/** What reading and changing the pools needs of a run. */
export interface PoolsContext {
  record: OwnershipRecord
  kube: Pick<KubeReader, 'get'>
  log: Pick<Log, 'info'>
  runId: string
  now?: () => Date
}

/**
 * The pools recorded; for a record an earlier version wrote (no pools key, entries present) those
 * its proven objects select, said in the log. `legacy` is true then: the first pool write records them.
 */
export async function recordedPools(c: PoolsContext): Promise<{ pools: PoolEntry[]; legacy: boolean }> {
  const pools = await c.record.pools()
  if (pools) return { pools, legacy: false }
  const entries = await c.record.entries()
  if (!entries.length) return { pools: [], legacy: false }
  const found = await legacyPools(c.kube, entries, {
    runId: c.runId,
    at: (c.now ?? (() => new Date()))().toISOString()
  })
  c.log.info(found.how)
  return { pools: found.pools, legacy: true }
}

/** The run's own pool as an entry. */
export function poolEntryOf(
  s: Pick<Settings, 'nodePool'>,
  state: PoolEntry['state'],
  o: { runId: string; at: string }
): PoolEntry {
  return {
    name: s.nodePool.name,
    state,
    taints: s.nodePool.taints.map(taintText),
    vmSize: s.nodePool.vmSize,
    runId: o.runId,
    at: o.at
  }
}

/** `pools` with `entry` in place of the same-named one (or added). */
export function withPool(pools: PoolEntry[], entry: PoolEntry): PoolEntry[] {
  return [...pools.filter(p => p.name !== entry.name), entry]
}

const sameTaints = (a: string[], b: string[]): boolean =>
  a.length === b.length && [...a].sort().every((t, i) => t === [...b].sort()[i])

/**
 * Whether apply must write its pool into the record: the record has no pools key yet (the
 * earlier version's pools go with it), the pool is not there or not managed, or its taints or
 * VM size changed.
 */
export function applyNeedsPoolWrite(
  s: Pick<Settings, 'nodePool'>,
  r: { pools: PoolEntry[]; legacy: boolean }
): boolean {
  const mine = r.pools.find(p => p.name === s.nodePool.name)
  return (
    r.legacy ||
    !mine ||
    mine.state !== 'managed' ||
    !sameTaints(mine.taints, s.nodePool.taints.map(taintText)) ||
    mine.vmSize !== s.nodePool.vmSize
  )
}

/** The stack's pools for these settings and records: every recorded pool not leaving, and the run's own. */
export function settingsWithPools(s: Settings, pools: PoolEntry[]): Settings {
  const own = poolEntryOf(s, 'managed', { runId: s.runId, at: '' })
  return { ...s, stackPools: stackPoolsOf(withPool(pools, own)) }
}

/** A line naming the pools the objects select before and after, for the log and the step's detail. */
export function poolsLine(before: string[], after: string[]): string {
  const b = before.length ? before.join(', ') : '(none recorded)'
  return before.join(',') === after.join(',')
    ? `the stack serves pools ${b}`
    : `the stack's pools: ${b} → ${after.join(', ') || '(none)'}`
}

/**
 * Read-only: the settings with the managed pools as recorded (drift compares the objects as
 * apply would write them for every managed pool). The record unreadable: the run's pool alone, said.
 */
export async function settingsWithRecordedPools(
  kube: KubeClient,
  s: Settings,
  log: Pick<Log, 'info' | 'warning'>
): Promise<Settings> {
  try {
    const { pools } = await recordedPools({
      record: OwnershipRecord.of(kube, s.runId),
      kube,
      log,
      runId: s.runId
    })
    return settingsWithPools(s, pools)
  } catch (e) {
    log.warning(
      `the managed pools could not be read (${messageOf(e)}): compared for pool ${s.nodePool.name} alone`
    )
    return s
  }
}
