// The post step: releases the Lease, deletes what this run created when cleanup asks (checked
// against the created-by tag and this job's identity), removes RUNNER_TEMP files (docs/post-step.md).
import * as core from '@actions/core'
import { existsSync, lstatSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { ArmClients, CleanupEntry, SubmittedCreates } from '../azure/index.js'
import { log } from '../log/index.js'
import { code, escapeCell } from '../report/summary.js'
import { clusterCommand, nodepoolCommand, type AzTarget } from '../model/az-commands.js'
import { InputError, readCleanupInputs, readSettings } from '../settings/input-helper.js'
import { nonceOf } from '../settings/run-identity.js'
import type { Settings } from '../settings/settings.js'
import { actionInputReader } from './inputs.js'
import { savedCleanup, STATE, submittedCreate, type SavedCleanup } from './saved-state.js'

export type { CleanupEntry } from '../azure/index.js'

/** The settings the post step works with: the inputs' when they read, else the saved ones. */
export type PostSettings = Pick<Settings, 'mode' | 'cleanup' | 'runId' | 'azure'> & {
  cluster: Pick<Settings['cluster'], 'resourceGroup' | 'name'>
  nodePool: Pick<Settings['nodePool'], 'name'>
  wait: Pick<Settings['wait'], 'stepTimeoutMs' | 'retries'>
}

/** What the post step did: its exit code and one entry per thing the run may have left. */
export interface PostReport {
  exitCode: number
  cleanup: CleanupEntry[]
}

/**
 * The post step's settings from the saved cleanup when the inputs no longer read as a whole: the
 * saved cleanup, sign-in and limits; the names and the job-key from the inputs, each read on its
 * own, so the checks (names, identity) are the same as with readable inputs.
 */
function settingsFromSaved(saved: SavedCleanup, savedRunId: string): PostSettings | undefined {
  const nonce = nonceOf(savedRunId)
  if (!nonce) return undefined
  const inputs = readCleanupInputs(actionInputReader, process.env, nonce)
  for (const secret of inputs.secrets) log.secret(secret)
  return {
    mode: 'apply',
    cleanup: saved.cleanup,
    cluster: {
      resourceGroup: inputs.resourceGroup ?? '<resource-group>',
      name: inputs.cluster ?? '<cluster-name>'
    },
    nodePool: { name: inputs.nodePool ?? saved.nodePool },
    runId: inputs.runId,
    azure: { ...saved.azure, ...(inputs.clientSecret ? { clientSecret: inputs.clientSecret } : {}) },
    wait: { stepTimeoutMs: saved.stepTimeoutMs, retries: saved.retries }
  }
}

/**
 * Where `p` really is when it lies inside RUNNER_TEMP — its folder's links resolved, so a link
 * planted on the way cannot lead outside — or undefined. `p` itself may be a link (removed as one).
 */
export function insideRunnerTemp(p: string, runnerTemp = process.env.RUNNER_TEMP): string | undefined {
  if (!runnerTemp) return undefined
  try {
    const root = realpathSync(runnerTemp)
    const real = path.join(realpathSync(path.dirname(path.resolve(p))), path.basename(p))
    return real.startsWith(root + path.sep) ? real : undefined
  } catch {
    return undefined
  }
}

/** Whether something (a link too, even a dangling one) is at `p`. */
function exists(p: string): boolean {
  try {
    lstatSync(p)
    return true
  } catch {
    return false
  }
}

/** Removes the main step's files under RUNNER_TEMP (never anything outside it). */
function removeTempPaths(kubeconfig: string): CleanupEntry[] {
  let paths: unknown = []
  try {
    paths = JSON.parse(core.getState(STATE.tempPaths) || '[]')
  } catch {
    paths = []
  }
  const out: CleanupEntry[] = []
  for (const p of Array.isArray(paths) ? paths.filter(x => typeof x === 'string') : []) {
    const resolved = path.resolve(p)
    const name = path.basename(resolved)
    const entry = (result: CleanupEntry['result'], reason?: string): void => {
      if (kubeconfig && resolved === path.resolve(kubeconfig))
        out.push({ resource: 'kubeconfig', name, result, ...(reason ? { reason } : {}) })
    }
    const real = insideRunnerTemp(resolved)
    const lexicallyInside =
      !!process.env.RUNNER_TEMP && resolved.startsWith(path.resolve(process.env.RUNNER_TEMP) + path.sep)
    if (!real && !(lexicallyInside && !existsSync(resolved))) {
      log.info(`post: not removing ${resolved}: outside RUNNER_TEMP`)
      entry('kept', 'outside RUNNER_TEMP')
      continue
    }
    if (!real || !exists(real)) {
      entry('skipped', 'already gone')
      continue
    }
    try {
      rmSync(real, { recursive: true, force: true })
      log.info(`post: removed ${name}`)
      entry('deleted')
    } catch (e) {
      log.warning(`post: could not remove ${name}: ${(e as Error).message}`)
      entry('failed', (e as Error).message)
    }
  }
  return out
}

async function releaseRunLease(kubeconfig: string, runId: string): Promise<CleanupEntry> {
  // The Kubernetes client loads only when there is a kubeconfig to use.
  const { LEASE_NAME, LEASE_NAMESPACE, releaseLease } = await import('../stack/lease.js')
  const name = `${LEASE_NAMESPACE}/${LEASE_NAME}`
  // The main step took it and gave it back (a cancelled one removes its kubeconfig after that).
  if (!existsSync(kubeconfig))
    return core.getState(STATE.leaseReleased)
      ? { resource: 'lease', name, result: 'skipped', reason: 'the main step took it and released it' }
      : { resource: 'lease', name, result: 'skipped', reason: 'no kubeconfig' }
  try {
    const released = await releaseLease(kubeconfig, runId, { log })
    if (released) log.info('post: released the Lease this run held')
    if (released) return { resource: 'lease', name, result: 'deleted' }
    // The main step took it and gave it back: nothing was left to release.
    if (core.getState(STATE.leaseReleased))
      return { resource: 'lease', name, result: 'skipped', reason: 'the main step took it and released it' }
    return { resource: 'lease', name, result: 'skipped', reason: 'this run did not hold it' }
  } catch (e) {
    log.warning(`post: could not release the Lease: ${(e as Error).message}`)
    return { resource: 'lease', name, result: 'failed', reason: (e as Error).message }
  }
}

/** What a post step without a trusted identity says of the creates the saved state names: kept. */
function untrusted(s: PostSettings, submitted: SubmittedCreates): CleanupEntry[] {
  const reason = "the saved run id is not this job's identity; nothing is deleted on its word"
  const out: CleanupEntry[] = []
  if (submitted.cluster)
    out.push({
      resource: 'cluster',
      name: `${s.cluster.resourceGroup}/${s.cluster.name}`,
      result: 'kept',
      reason
    })
  if (submitted.nodePool) out.push({ resource: 'node-pool', name: s.nodePool.name, result: 'kept', reason })
  return out
}

async function cleanupCloud(s: PostSettings, submitted: SubmittedCreates): Promise<CleanupEntry[]> {
  // The Azure SDK loads here, and signs in only when there is something to read or delete.
  const { cleanupAzure, connectAzure } = await import('../azure/index.js')
  let clients: ArmClients | undefined
  const connect = (): ArmClients => (clients ??= connectAzure(s, log).clients)
  try {
    return await cleanupAzure(connect, s, submitted, { log, timeoutMs: s.wait.stepTimeoutMs })
  } catch (e) {
    const reason = `cleanup failed: ${(e as Error).message}`
    log.warning(`post: ${reason}`)
    const out: CleanupEntry[] = []
    const c = submitted.cluster
    if (c)
      out.push({ resource: 'cluster', name: `${c.resourceGroup}/${c.cluster}`, result: 'failed', reason })
    const p = submitted.nodePool
    if (p) out.push({ resource: 'node-pool', name: p.pool ?? s.nodePool.name, result: 'failed', reason })
    return out
  }
}

/**
 * Adds the post step's section to the action's JSON report (when the main step wrote one): only a
 * regular file inside RUNNER_TEMP, whatever the saved state names.
 */
function recordInReport(post: PostReport): void {
  const saved = core.getState(STATE.reportPath)
  if (!saved) return
  const reportPath = insideRunnerTemp(saved)
  if (!reportPath) {
    log.warning('post: the saved report path is not inside RUNNER_TEMP; the cleanup is not added to it')
    return
  }
  try {
    if (!lstatSync(reportPath).isFile()) return
    const report = JSON.parse(readFileSync(reportPath, 'utf8')) as Record<string, unknown>
    writeFileSync(reportPath, JSON.stringify({ ...report, post }, null, 2) + '\n')
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return
    log.warning(`post: could not add the cleanup to the report ${reportPath}: ${(e as Error).message}`)
  }
}

const RESULT_ICON: Record<CleanupEntry['result'], string> = {
  deleted: '🗑️',
  kept: '📌',
  skipped: '➖',
  failed: '❌'
}

/** A short cleanup table for the job summary (text from Azure stays text: escaped, no markup). */
export function renderCleanupSummary(post: PostReport): string {
  if (post.cleanup.length === 0) return ''
  const rows = post.cleanup.map(
    e =>
      `| ${e.resource} | ${code(e.name)} | ${RESULT_ICON[e.result]} ${e.result} | ${escapeCell(e.reason ?? '')} |`
  )
  return [
    `### Cleanup (post step)${post.exitCode === 0 ? '' : ': failed'}`,
    '',
    '| Resource | Name | Result | Why |',
    '| --- | --- | --- | --- |',
    ...rows,
    ''
  ].join('\n')
}

async function recordInSummary(post: PostReport): Promise<void> {
  const md = renderCleanupSummary(post)
  if (!md || !process.env.GITHUB_STEP_SUMMARY) return
  try {
    await core.summary.addRaw(md, true).write()
  } catch (e) {
    log.warning(`post: could not write the job summary: ${(e as Error).message}`)
  }
}

/**
 * Creates the main step saved when the post step has no settings to act with (the inputs no longer
 * read, and no saved cleanup stands in for them): each failed, so the post step fails naming it.
 */
function cannotAct(submitted: SubmittedCreates): CleanupEntry[] {
  const reason = 'the inputs no longer read and the main step saved no cleanup to act on instead'
  const out: CleanupEntry[] = []
  const c = submitted.cluster
  if (c) out.push({ resource: 'cluster', name: `${c.resourceGroup}/${c.cluster}`, result: 'failed', reason })
  const p = submitted.nodePool
  if (p?.pool) out.push({ resource: 'node-pool', name: p.pool, result: 'failed', reason })
  return out
}

/** The az command that deletes a cluster or pool the post step could not delete (named by its saved create). */
function deleteCommand(e: CleanupEntry, submitted: SubmittedCreates, subscriptionId?: string): string {
  const saved = e.resource === 'cluster' ? submitted.cluster : submitted.nodePool
  const t: AzTarget = {
    ...(subscriptionId ? { subscriptionId } : {}),
    resourceGroup: saved?.resourceGroup ?? '<resource-group>',
    cluster: saved?.cluster ?? '<cluster-name>'
  }
  return e.resource === 'cluster' ? clusterCommand(t, 'delete') : nodepoolCommand(t, 'delete', e.name)
}

/**
 * The post step: what it did, entry by entry. Exit code 1 when a cluster or pool this run
 * created could not be deleted (the Lease expires and temp files go with the runner, so those
 * failures are warnings only).
 */
export async function runPost(): Promise<PostReport> {
  // The main step's id, with the nonce it drew; the identity is recomputed from this job's own
  // environment and inputs, and the saved state is used only when both agree.
  const savedRunId = core.getState(STATE.runId)
  let settings: PostSettings | undefined
  try {
    const parsed = readSettings(actionInputReader, process.env, { nonce: nonceOf(savedRunId) })
    for (const secret of parsed.secrets) log.secret(secret)
    settings = parsed.settings
  } catch (e) {
    if (!(e instanceof InputError)) throw e
    // The inputs no longer read as a whole (a file a later step removed): what the main step saved
    // for its cleanup stands in for them.
    const saved = savedCleanup()
    settings = saved && savedRunId ? settingsFromSaved(saved, savedRunId) : undefined
    if (settings)
      log.warning(
        `post: the inputs no longer read (${e.problems.length} problem${e.problems.length > 1 ? 's' : ''}, e.g. a file a later step removed); cleaning up with what the main step saved`
      )
    else if (!core.getState(STATE.clusterSubmitted) && !core.getState(STATE.nodePoolSubmitted))
      log.info('post: the inputs were invalid, so the main step started nothing; nothing to clean up')
  }
  // No saved id: the main step saved nothing to trust or doubt (a saved create is then checked
  // against a fresh identity, which it cannot match).
  const trusted = !!settings && (!savedRunId || savedRunId === settings.runId)
  if (settings && !trusted)
    log.warning(
      `post: the saved run id is not this job's (${settings.runId}); the saved state is not trusted, so no Lease is released and nothing in Azure is deleted`
    )
  const kubeconfig = core.getState(STATE.kubeconfig)
  const submitted: SubmittedCreates = {
    cluster: submittedCreate(STATE.clusterSubmitted),
    nodePool: submittedCreate(STATE.nodePoolSubmitted)
  }
  const cleanup: CleanupEntry[] = []
  try {
    if (settings && trusted && kubeconfig) cleanup.push(await releaseRunLease(kubeconfig, settings.runId))
    if (settings?.mode === 'apply') {
      if (trusted) cleanup.push(...(await cleanupCloud(settings, submitted)))
      else cleanup.push(...untrusted(settings, submitted))
    } else if (!settings) cleanup.push(...cannotAct(submitted))
  } finally {
    cleanup.push(...removeTempPaths(kubeconfig))
  }
  const failed = cleanup.filter(
    e => e.result === 'failed' && (e.resource === 'cluster' || e.resource === 'node-pool')
  )
  const post: PostReport = { exitCode: failed.length ? 1 : 0, cleanup }
  for (const e of failed)
    log.error(
      `${e.resource} ${e.name} was created by this run but is still there: ${(e.reason ?? 'deleting it failed').replace(/\.$/, '')}. ` +
        `Delete it with: ${deleteCommand(e, submitted, settings?.azure.subscriptionId)}`,
      { title: 'aks-rdma-action: cleanup failed' }
    )
  recordInReport(post)
  await recordInSummary(post)
  return post
}
