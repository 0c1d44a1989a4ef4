// The post step's Azure cleanup: with cleanup node-pool deletes the RDMA pool, with cleanup
// cluster the cluster, but only what this run created (the state saved by the main step says
// so, and the resource's created-by tag must name this run). Everything else is left alone
// with a log line saying why.
import type { Settings } from '../settings/settings.js'
import { formatDuration } from '../util/duration.js'
import { describeArmError, isNotFound } from './arm-errors.js'
import type { ArmClients } from './clients.js'
import type { Log } from '../log/index.js'
import { TAG_CREATED_BY, tagValue } from './node-pool.js'

/** What the main step created (saved with core.saveState, read back in post). */
export interface CreatedState {
  nodePoolCreated: boolean
  clusterCreated: boolean
}

export interface CleanupOptions {
  log: Log
  timeoutMs: number
  pollIntervalMs?: number
}

export interface CleanupResult {
  deleted: string[]
  skipped: Array<{ what: string; why: string }>
}

/** Deletes what this run created, as `settings.cleanup` asks; never anything else. */
export async function cleanupAzure(
  clients: ArmClients,
  settings: Settings,
  state: CreatedState,
  o: CleanupOptions
): Promise<CleanupResult> {
  const out: CleanupResult = { deleted: [], skipped: [] }
  const { resourceGroup, name: cluster } = settings.cluster
  const pool = settings.nodePool.name
  const cs = clients.containerService
  const interval = o.pollIntervalMs ?? 10_000
  const skip = (what: string, why: string): void => {
    out.skipped.push({ what, why })
    o.log.info(`cleanup: keeping ${what}: ${why}`)
  }
  const poolWhat = `node pool ${pool}`
  const clusterWhat = `cluster ${resourceGroup}/${cluster}`

  if (settings.cleanup === 'none') {
    skip(poolWhat, 'cleanup is none')
    skip(clusterWhat, 'cleanup is none')
    return out
  }

  // cleanup: cluster removes the cluster (and with it the pool) when this run created it.
  if (settings.cleanup === 'cluster') {
    if (!state.clusterCreated) skip(clusterWhat, 'this run did not create it')
    else {
      const live = await cs.managedClusters.get(resourceGroup, cluster).catch(e => {
        if (isNotFound(e)) return undefined
        throw new Error(`cleanup: reading ${clusterWhat} failed: ${describeArmError(e)}`)
      })
      if (!live) skip(clusterWhat, 'it no longer exists')
      else if (tagValue(live.tags, TAG_CREATED_BY) !== settings.runId)
        skip(
          clusterWhat,
          `its ${TAG_CREATED_BY} tag is ${tagValue(live.tags, TAG_CREATED_BY) ?? 'absent'}, not this run (${settings.runId})`
        )
      else {
        await wait(
          clusterWhat,
          cs.managedClusters.delete(resourceGroup, cluster, {
            updateIntervalInMs: interval,
            abortSignal: AbortSignal.timeout(Math.max(1, o.timeoutMs))
          }),
          o
        )
        out.deleted.push(clusterWhat)
        return out
      }
    }
  }

  // cleanup: node-pool (or cluster when the cluster is kept) removes the pool this run created.
  if (!state.nodePoolCreated) {
    skip(poolWhat, 'this run did not create it (it existed before)')
    return out
  }
  const live = await cs.agentPools.get(resourceGroup, cluster, pool).catch(e => {
    if (isNotFound(e)) return undefined
    throw new Error(`cleanup: reading ${poolWhat} failed: ${describeArmError(e)}`)
  })
  if (!live) skip(poolWhat, 'it no longer exists')
  else if (tagValue(live.tags, TAG_CREATED_BY) !== settings.runId)
    skip(
      poolWhat,
      `its ${TAG_CREATED_BY} tag is ${tagValue(live.tags, TAG_CREATED_BY) ?? 'absent'}, not this run (${settings.runId})`
    )
  else {
    await wait(
      poolWhat,
      cs.agentPools.delete(resourceGroup, cluster, pool, {
        updateIntervalInMs: interval,
        abortSignal: AbortSignal.timeout(Math.max(1, o.timeoutMs))
      }),
      o
    )
    out.deleted.push(poolWhat)
  }
  return out
}

async function wait(
  what: string,
  poller: PromiseLike<void> & { submitted(): Promise<void> },
  o: CleanupOptions
): Promise<void> {
  const started = Date.now()
  o.log.info(`cleanup: deleting ${what}`)
  try {
    await poller.submitted()
    await poller
  } catch (e) {
    if (isNotFound(e)) return
    const timedOut = e instanceof Error && (e.name === 'AbortError' || e.name === 'TimeoutError')
    throw new Error(
      `cleanup: deleting ${what} ${timedOut ? `timed out after ${formatDuration(Date.now() - started)}; it may still be deleting` : `failed: ${describeArmError(e)}`}`
    )
  }
  o.log.info(`cleanup: deleted ${what} (${formatDuration(Date.now() - started)})`)
}
