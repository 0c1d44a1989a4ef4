// What the main step saves for the post step (core.saveState) and how the post step reads it back:
// never a secret. The rules the post step applies to it: docs/security.md ("What the action owns").
import * as core from '@actions/core'
import type { SubmittedCreate } from '../azure/index.js'
import type { AzureSettings, Settings } from '../settings/settings.js'

/** Names of the main step's saved state (core.saveState), read back by the post step. */
export const STATE = {
  tempPaths: 'temp-paths',
  kubeconfig: 'kubeconfig',
  /** JSON SubmittedCreate, saved just before the cluster's create PUT. */
  clusterSubmitted: 'cluster-create-submitted',
  /** JSON SubmittedCreate, saved just before the node pool's create PUT. */
  nodePoolSubmitted: 'node-pool-create-submitted',
  /** The run id the main step used (the Lease holder, the created-by tag). */
  runId: 'run-id',
  /** Where the main step writes its JSON report (the post step adds its section). */
  reportPath: 'report-path',
  /** Set when the main step took the Lease and released it itself. */
  leaseReleased: 'lease-released',
  /** JSON SavedCleanup: what the cleanup needs when the inputs no longer read (apply mode). */
  cleanup: 'cleanup-context'
} as const

/**
 * What the post step's cleanup needs of the settings, saved by the main step (never a secret: the
 * client secret is read from the inputs again).
 */
export interface SavedCleanup {
  cleanup: Settings['cleanup']
  resourceGroup: string
  cluster: string
  nodePool: string
  azure: Omit<AzureSettings, 'clientSecret'>
  stepTimeoutMs: number
  retries: number
}

/** Paths the main step created under RUNNER_TEMP, to be removed by the post step. */
export function rememberTempPath(p: string, list: string[]): void {
  list.push(p)
  core.saveState(STATE.tempPaths, JSON.stringify(list))
}

/** Saves that a create is about to be submitted; call it just before the PUT. */
export function rememberCreateSubmitted(resource: 'cluster' | 'node-pool', submitted: SubmittedCreate): void {
  core.saveState(
    resource === 'cluster' ? STATE.clusterSubmitted : STATE.nodePoolSubmitted,
    JSON.stringify(submitted)
  )
}

/**
 * Withdraws a saved create: ARM refused it (HTTP 412, the resource already existed) and the run
 * reuses what another run created, so the post step must never delete it.
 */
export function forgetCreateSubmitted(resource: 'cluster' | 'node-pool'): void {
  core.saveState(resource === 'cluster' ? STATE.clusterSubmitted : STATE.nodePoolSubmitted, '')
}

/** Saves that the main step released the Lease it took (the post step's table says so). */
export function rememberLeaseReleased(): void {
  core.saveState(STATE.leaseReleased, 'true')
}

/** Saves what the post step needs of the run itself: its id (with its nonce) and its report's path. */
export function rememberRun(runId: string, reportPath: string): void {
  core.saveState(STATE.runId, runId)
  core.saveState(STATE.reportPath, reportPath)
}

/** Saves what the post step's cleanup needs, should the inputs no longer read then (apply mode). */
export function rememberCleanup(s: Settings): void {
  if (s.mode !== 'apply') return
  const { clientSecret: _secret, ...azure } = s.azure
  const saved: SavedCleanup = {
    cleanup: s.cleanup,
    resourceGroup: s.cluster.resourceGroup,
    cluster: s.cluster.name,
    nodePool: s.nodePool.name,
    azure,
    stepTimeoutMs: s.wait.stepTimeoutMs,
    retries: s.wait.retries
  }
  core.saveState(STATE.cleanup, JSON.stringify(saved))
}

export function savedCleanup(): SavedCleanup | undefined {
  try {
    const v = JSON.parse(core.getState(STATE.cleanup) || 'null') as SavedCleanup | null
    const text = (x: unknown): boolean => typeof x === 'string'
    if (!v || !['none', 'node-pool', 'cluster'].includes(v.cleanup)) return undefined
    if (![v.resourceGroup, v.cluster, v.nodePool, v.azure?.armEndpoint, v.azure?.authorityHost].every(text))
      return undefined
    return v
  } catch {
    return undefined
  }
}

export function submittedCreate(name: string): SubmittedCreate | undefined {
  const text = core.getState(name)
  if (!text) return undefined
  try {
    const v = JSON.parse(text) as SubmittedCreate
    return typeof v.createdBy === 'string' && typeof v.cluster === 'string' ? v : undefined
  } catch {
    return undefined
  }
}
