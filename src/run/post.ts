// The post step (runs after the main step whatever its outcome): releases the run's Lease,
// deletes the node pool or cluster only if this run created it (cleanup input, double-checked
// against the created-by tag), and always removes what the main step left in RUNNER_TEMP.
import * as core from '@actions/core'
import { existsSync, rmSync } from 'node:fs'
import path from 'node:path'
import { cleanupAzure, connectAzure } from '../azure/index.js'
import { log } from '../log/index.js'
import { InputError, readSettings } from '../settings/input-helper.js'
import type { Settings } from '../settings/settings.js'
import { releaseLease } from '../stack/lease.js'
import { actionInputReader } from './inputs.js'

export const STATE = {
  tempPaths: 'temp-paths',
  kubeconfig: 'kubeconfig',
  nodePoolCreated: 'node-pool-created',
  clusterCreated: 'cluster-created'
} as const

/** Paths the main step created under RUNNER_TEMP, to be removed by the post step. */
export function rememberTempPath(p: string, list: string[]): void {
  list.push(p)
  core.saveState(STATE.tempPaths, JSON.stringify(list))
}

function removeTempPaths(): void {
  const runnerTemp = process.env.RUNNER_TEMP
  let paths: string[] = []
  try {
    paths = JSON.parse(core.getState(STATE.tempPaths) || '[]')
  } catch {
    paths = []
  }
  for (const p of paths) {
    const resolved = path.resolve(p)
    if (!runnerTemp || !resolved.startsWith(path.resolve(runnerTemp) + path.sep)) {
      core.info(`post: not removing ${resolved}: outside RUNNER_TEMP`)
      continue
    }
    if (existsSync(resolved)) {
      rmSync(resolved, { recursive: true, force: true })
      core.info(`post: removed ${path.basename(resolved)}`)
    }
  }
}

async function cleanup(s: Settings): Promise<void> {
  const nodePoolCreated = core.getState(STATE.nodePoolCreated) === 'true'
  const clusterCreated = core.getState(STATE.clusterCreated) === 'true'
  if (s.cleanup === 'none') {
    core.info('post: cleanup none: nothing deleted')
    return
  }
  if ((s.cleanup === 'node-pool' && !nodePoolCreated) || (s.cleanup === 'cluster' && !clusterCreated)) {
    core.info(
      `post: cleanup ${s.cleanup}: skipped, this run did not create the ${s.cleanup === 'cluster' ? 'cluster' : 'node pool'} (it never deletes what it did not create)`
    )
    return
  }
  const { clients } = connectAzure(s, log)
  const r = await cleanupAzure(
    clients,
    s,
    { nodePoolCreated, clusterCreated },
    { log, timeoutMs: s.wait.stepTimeoutMs }
  )
  for (const d of r.deleted) core.info(`post: deleted ${d}`)
  for (const k of r.skipped) core.info(`post: kept ${k.what}: ${k.why}`)
}

export async function runPost(): Promise<void> {
  let settings: Settings | undefined
  try {
    const parsed = readSettings(actionInputReader)
    for (const secret of parsed.secrets) core.setSecret(secret)
    settings = parsed.settings
  } catch (e) {
    if (!(e instanceof InputError)) throw e
    core.info('post: inputs were invalid; the main step did nothing to clean up')
  }
  try {
    const kubeconfig = core.getState(STATE.kubeconfig)
    if (settings && kubeconfig && existsSync(kubeconfig)) {
      const released = await releaseLease(kubeconfig, settings.runId, { log }).catch(() => false)
      if (released) core.info('post: released the Lease this run held')
    }
    if (settings && settings.mode === 'apply') await cleanup(settings)
  } finally {
    removeTempPaths()
  }
}
