// The executor's public shapes: what applyStack takes and returns (one report step per component,
// the diagnostics of failed ones), and a step as the executor walks it (the component and its
// desired state for these settings).
import type { ComponentSpec, KubeComponent } from '../components/index.js'
import type { Log } from '../log/index.js'
import type { Diagnostic, ReportStep } from '../report/report.js'
import type { Settings } from '../settings/settings.js'
import type { Clock } from '../util/clock.js'
import type { PoolInfo } from './pipeline-gates.js'

export interface ApplyStackContext {
  settings: Settings
  kubeconfigPath: string
  /** Where progress goes (default: the process-wide log). */
  log?: Log
  /** Absolute end of the whole run (epoch ms); default: now + settings.wait.timeoutMs. */
  deadline?: number
  /** How long the NodeFeatureRule may take to label the first node (default min(2m, step-timeout/2)). */
  nfdGraceMs?: number
  /** Lease duration (default 60 s). */
  leaseDurationSeconds?: number
  /** The clock the Lease is judged and renewed by (default: the process's). */
  leaseClock?: Clock
  /** First backoff of transient-error retries (default 200 ms). */
  retryBaseDelayMs?: number
  /**
   * Pipelined rollout: the RDMA node pool still being provisioned — resolves with its size once
   * it is (rejects when it fails). The steps are written meanwhile; a step that waits on the pool's
   * nodes is done only once every node has joined. Absent: the pool is taken as provisioned.
   */
  nodePool?: Promise<PoolInfo>
  /**
   * Uninstall of one of several managed pools: the pool being taken out (recorded leaving). Its
   * entry is dropped from the record once the stack is ready without it.
   */
  leavingPool?: string
}

export interface ApplyStackResult {
  steps: ReportStep[]
  diagnostics: Diagnostic[]
  ok: boolean
  /** The run took the Lease and released it itself. */
  leaseReleased?: boolean
}

/** One component as the executor converges it: its parts and its desired state for these settings. */
export interface StackStep {
  component: KubeComponent
  spec: ComponentSpec
}
