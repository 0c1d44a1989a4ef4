// Deleting the pool or cluster a run created, only while its created-by tag names this run (post
// step) or a run the ownership record holds (uninstall): docs/post-step.md, docs/security.md.
import type { Settings } from '../settings/settings.js'
import { formatDuration } from '../util/duration.js'
import { describeArmError, isArmNotFound } from './arm-errors.js'
import type { ArmClients } from './clients.js'
import type { Log } from '../log/index.js'
import { nonceOf } from '../settings/run-identity.js'
import { TAG_CREATED_BY, tagValue } from './node-pool.js'

export type { SubmittedCreate, SubmittedCreates } from './submitted.js'
import type { SubmittedCreate, SubmittedCreates } from './submitted.js'

export type CleanupResource = 'cluster' | 'node-pool' | 'kubeconfig' | 'lease'

/**
 * What the post step did with one thing the run may have left: `deleted` it; `kept` it (it
 * exists, and the cleanup input or its created-by tag says to leave it); `skipped` it (nothing to
 * do: this run did not create it, or it is already gone); or `failed` to delete it.
 */
export interface CleanupEntry {
  resource: CleanupResource
  name: string
  result: 'deleted' | 'kept' | 'skipped' | 'failed'
  reason?: string
}

export interface CleanupOptions {
  log: Log
  timeoutMs: number
  pollIntervalMs?: number
}

interface Deletable {
  read(): Promise<{ tags?: Record<string, string>; provisioningState?: string } | undefined>
  remove(o: { updateIntervalInMs: number; abortSignal: AbortSignal }): PromiseLike<void> & {
    submitted(): Promise<void>
  }
}

type CleanupSettings = Pick<Settings, 'cleanup' | 'runId'> & {
  cluster: Pick<Settings['cluster'], 'resourceGroup' | 'name'>
  nodePool: Pick<Settings['nodePool'], 'name'>
}

/**
 * Why a saved create cannot be this job's (undefined when it can): it names another resource
 * group, cluster or pool than the inputs, or another run's identity.
 */
export function savedStateMismatch(settings: CleanupSettings, saved: SubmittedCreate): string | undefined {
  const wanted: Array<[string, string | undefined, string]> = [
    ['resource group', saved.resourceGroup, settings.cluster.resourceGroup],
    ['cluster', saved.cluster, settings.cluster.name],
    ...(saved.pool !== undefined
      ? [['node pool', saved.pool, settings.nodePool.name] as [string, string, string]]
      : []),
    ['created-by identity', saved.createdBy, settings.runId]
  ]
  const wrong = wanted.filter(([, got, want]) => got !== want)
  if (!wrong.length) return undefined
  return `the saved state names ${wrong.map(([what, got, want]) => `${what} ${String(got).slice(0, 80)} (this job: ${want})`).join(', ')}; not trusted`
}

/** Deletes what this run submitted, as `settings.cleanup` asks; never anything else. */
export async function cleanupAzure(
  clients: ArmClients | (() => ArmClients),
  settings: CleanupSettings,
  submitted: SubmittedCreates,
  o: CleanupOptions
): Promise<CleanupEntry[]> {
  const out: CleanupEntry[] = []
  // A function connects lazily (nothing to delete, no sign-in) and once, however many resources are read.
  let connected: ArmClients | undefined
  const cs = (): ArmClients['containerService'] =>
    (connected ??= typeof clients === 'function' ? clients() : clients).containerService
  const note = (e: CleanupEntry): CleanupEntry => {
    out.push(e)
    const line = `cleanup: ${e.resource} ${e.name}: ${e.result}${e.reason ? ` (${e.reason})` : ''}`
    if (e.result === 'failed') o.log.warning(line)
    else o.log.info(line)
    return e
  }
  const notCreated = 'this run did not create it'

  // The cluster: only with cleanup cluster, only one this run submitted.
  let clusterGone = false
  const c = submitted.cluster
  const clusterName = `${c?.resourceGroup ?? settings.cluster.resourceGroup}/${c?.cluster ?? settings.cluster.name}`
  const cMismatch = c && savedStateMismatch(settings, c)
  if (c && cMismatch) note({ resource: 'cluster', name: clusterName, result: 'kept', reason: cMismatch })
  else if (c) {
    if (settings.cleanup !== 'cluster')
      note({
        resource: 'cluster',
        name: clusterName,
        result: 'kept',
        reason: `cleanup is ${settings.cleanup}`
      })
    else {
      const e = note(
        await deleteOwned('cluster', clusterName, thisRun(c.createdBy), o, {
          read: () => cs().managedClusters.get(c.resourceGroup, c.cluster),
          remove: opts => cs().managedClusters.delete(c.resourceGroup, c.cluster, opts)
        })
      )
      clusterGone = e.result === 'deleted' || (e.result === 'skipped' && e.reason === GONE)
    }
  } else if (settings.cleanup === 'cluster')
    note({ resource: 'cluster', name: clusterName, result: 'skipped', reason: notCreated })

  // The node pool: with cleanup node-pool, or cluster when the cluster itself was not deleted.
  const p = submitted.nodePool
  const poolName = p?.pool ?? settings.nodePool.name
  if (!p) {
    note({ resource: 'node-pool', name: poolName, result: 'skipped', reason: notCreated })
    return out
  }
  const inDeletedCluster = clusterGone && c?.resourceGroup === p.resourceGroup && c?.cluster === p.cluster
  const pMismatch = savedStateMismatch(settings, p)
  if (pMismatch) note({ resource: 'node-pool', name: poolName, result: 'kept', reason: pMismatch })
  else if (settings.cleanup === 'none')
    note({ resource: 'node-pool', name: poolName, result: 'kept', reason: 'cleanup is none' })
  else if (inDeletedCluster)
    note({ resource: 'node-pool', name: poolName, result: 'deleted', reason: 'with its cluster' })
  else
    note(
      await deleteOwned('node-pool', poolName, thisRun(p.createdBy), o, {
        read: () => cs().agentPools.get(p.resourceGroup, p.cluster, poolName),
        remove: opts => cs().agentPools.delete(p.resourceGroup, p.cluster, poolName, opts)
      })
    )
  return out
}

const GONE = 'it no longer exists'

/** Which created-by tags make a resource deletable, and whose they are in words. */
interface Owner {
  matches(tag: string | undefined): boolean
  whose: string
  /** Who created it, in the deletion's log line. */
  creator(tag: string): string
}

const thisRun = (createdBy: string): Owner => ({
  matches: tag => tag === createdBy,
  whose: `this run's (${createdBy})`,
  creator: () => 'this run'
})

/**
 * A run of the action: the tag holds a run identity as the action writes it (runIdentity: a path
 * ending in the run's 12-hex-digit nonce), and, when the ownership record holds the value written
 * when the resource was created, that value. Any other value (`owned-by-team-x`) is someone else's.
 */
export function actionRun(recorded?: string): Owner {
  return {
    matches: tag => !!tag && nonceOf(tag) !== undefined && (recorded === undefined || tag === recorded),
    whose: recorded === undefined ? 'a run identity the action writes' : `the recorded ${recorded}`,
    creator: tag => `run ${tag}`
  }
}

/**
 * Uninstall's Azure half, after the stack: with cleanup node-pool the RDMA pool, with cleanup
 * cluster the cluster — each only when its created-by tag says the action created it (any run, in
 * the form the action writes; for the pool, the value the ownership record holds when it holds
 * one: `recordedPool`); one it did not create stays, and the entry says why.
 */
export async function removeCreatedByAction(
  clients: ArmClients,
  settings: Pick<Settings, 'cleanup' | 'cluster' | 'nodePool'>,
  o: CleanupOptions,
  recordedPool?: string
): Promise<CleanupEntry[]> {
  const cs = clients.containerService
  const { resourceGroup: rg, name: cluster } = settings.cluster
  if (settings.cleanup === 'node-pool')
    return [
      await deleteOwned('node-pool', settings.nodePool.name, actionRun(recordedPool), o, {
        read: () => cs.agentPools.get(rg, cluster, settings.nodePool.name),
        remove: opts => cs.agentPools.delete(rg, cluster, settings.nodePool.name, opts)
      })
    ]
  if (settings.cleanup === 'cluster')
    return [
      await deleteOwned('cluster', `${rg}/${cluster}`, actionRun(), o, {
        read: () => cs.managedClusters.get(rg, cluster),
        remove: opts => cs.managedClusters.delete(rg, cluster, opts)
      })
    ]
  return []
}

/** Reads the resource; deletes it (waiting for the deletion) only if its created-by tag is the owner's. */
async function deleteOwned(
  resource: 'cluster' | 'node-pool',
  name: string,
  owner: Owner,
  o: CleanupOptions,
  target: Deletable
): Promise<CleanupEntry> {
  let live: Awaited<ReturnType<Deletable['read']>>
  try {
    live = await target.read()
  } catch (e) {
    if (isArmNotFound(e)) return { resource, name, result: 'skipped', reason: GONE }
    return { resource, name, result: 'failed', reason: `reading it failed: ${describeArmError(e)}` }
  }
  if (!live) return { resource, name, result: 'skipped', reason: GONE }
  const tag = tagValue(live.tags, TAG_CREATED_BY)
  if (!owner.matches(tag))
    return {
      resource,
      name,
      result: 'kept',
      reason: `its ${TAG_CREATED_BY} tag is ${tag ?? 'absent'}, not ${owner.whose}`
    }
  const state = live.provisioningState ?? 'Succeeded'
  const started = Date.now()
  o.log.info(`cleanup: deleting ${resource} ${name} (${state}, created by ${owner.creator(tag ?? '')})`)
  try {
    const poller = target.remove({
      updateIntervalInMs: o.pollIntervalMs ?? 10_000,
      abortSignal: AbortSignal.timeout(Math.max(1, o.timeoutMs))
    })
    await poller.submitted()
    await poller
  } catch (e) {
    if (isArmNotFound(e)) return { resource, name, result: 'deleted', reason: `was ${state}` }
    const timedOut = e instanceof Error && (e.name === 'AbortError' || e.name === 'TimeoutError')
    return {
      resource,
      name,
      result: 'failed',
      reason: timedOut
        ? `deleting it timed out after ${formatDuration(Date.now() - started)}; it may still be deleting`
        : `deleting it failed: ${describeArmError(e)}`
    }
  }
  return { resource, name, result: 'deleted', reason: `was ${state}` }
}
