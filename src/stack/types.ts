// The executor's public shapes: one result per step (the report's step), the logger it writes
// progress to (GitHub Actions groups by default), and what applyStack takes and returns.
import type { Diagnostic } from '../report/report.js'
import type { Settings } from '../settings/settings.js'
import type { PoolInfo } from './pipeline-gates.js'

export type StepStatus = 'success' | 'failure' | 'skipped'

export interface StepResult {
  name: string
  status: StepStatus
  /** Something was written (an object created or changed, a helm upgrade). */
  changed: boolean
  action?: 'created' | 'updated' | 'unchanged'
  durationMs: number
  /** ISO-8601. */
  startedAt: string
  finishedAt: string
  detail: string
}

/** Where progress goes; the default writes through @actions/core (::group:: lines, fine for the CLI). */
export interface StackLog {
  info(line: string): void
  warning(line: string): void
  error(line: string): void
  startGroup(name: string): void
  endGroup(): void
}

export interface ApplyStackContext {
  settings: Settings
  kubeconfigPath: string
  log?: StackLog
  /** Absolute end of the whole run (epoch ms); default: now + settings.wait.timeoutMs. */
  deadline?: number
  /** How long the NodeFeatureRule may take to label the first node (default min(2m, step-timeout/2)). */
  nfdGraceMs?: number
  /** Lease duration (default 60 s). */
  leaseDurationSeconds?: number
  /** First backoff of transient-error retries (default 200 ms). */
  retryBaseDelayMs?: number
  /**
   * Pipelined rollout: the RDMA node pool still being provisioned — resolves with its size once
   * it is (rejects when it fails). The steps are written meanwhile; a step that waits on the pool's
   * nodes is done only once every node has joined. Absent: the pool is taken as provisioned.
   */
  nodePool?: Promise<PoolInfo>
}

export interface ApplyStackResult {
  steps: StepResult[]
  diagnostics: Diagnostic[]
  ok: boolean
}
