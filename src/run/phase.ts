// A run is a list of phases (docs/design.md, "The run"): each names the modes it runs in and
// fills its own part of the report; the report is assembled from the parts, in phase order, once
// every phase has ended — work a phase left going (the pipelined node pool) included.
import type { AzureConnection, PoolPrecheck, TokenRefresher } from '../azure/index.js'
import { emptyReport, type Report } from '../report/report.js'
import type { ResolvedKubeconfig } from '../settings/kubeconfig.js'
import type { Mode, Settings } from '../settings/settings.js'
import type { StepOutcome } from './steps.js'

/** The node pool step while it goes on alongside credentials and the stack (pipelined rollout). */
export interface PoolInFlight {
  /** The step itself: rejects with its StepError. */
  done: Promise<StepOutcome>
  /** What the stack waits for: the pool's size once provisioned. */
  info: Promise<{ count: number }>
}

/** What the phases hand on to each other. */
export interface RunContext {
  s: Settings
  /** Files this run made under RUNNER_TEMP (removed by the post step, or at once when cancelled). */
  temp: string[]
  conn?: AzureConnection
  /** A given kubeconfig, read and found to reach the named cluster. */
  checked?: ResolvedKubeconfig
  precheck?: PoolPrecheck
  pool?: PoolInFlight
  /** What was done to the node pool (the node-pool-action output), once known. */
  poolAction?: string
  kubeconfigPath?: string
  refresher?: TokenRefresher
  /** Set once the stack released the Lease it took. */
  leaseReleased: boolean
}

export interface Phase {
  name: string
  modes: readonly Mode[]
  /** Beyond the mode: whether these settings call for it. */
  when?: (ctx: RunContext) => boolean
  /** Runs it, recording its steps and findings in `part`; throws a StepError to stop the run. */
  run(ctx: RunContext, part: Report): Promise<void>
}

/** Whether a phase runs for this run. */
export function applies(p: Phase, ctx: RunContext): boolean {
  return p.modes.includes(ctx.s.mode) && (p.when?.(ctx) ?? true)
}

/**
 * Runs the phases that apply, in order, each with its own part (pushed to `parts` before it
 * starts, so a failed phase's steps are kept); stops at the first that throws, rethrowing it.
 */
export async function runPhases(phases: readonly Phase[], ctx: RunContext, parts: Report[]): Promise<void> {
  for (const p of phases) {
    if (!applies(p, ctx)) continue
    const part = emptyReport(ctx.s.mode)
    parts.push(part)
    await p.run(ctx, part)
  }
}

/**
 * The report: the run's own facts, then each part in phase order — steps, checks, diagnostics and
 * drift appended, outputs and the cluster merged, any other finding (benchmark, transport ...) set.
 */
export function assembleReport(base: Report, parts: readonly Report[]): Report {
  const report: Report = {
    ...base,
    outputs: { ...base.outputs },
    steps: [...base.steps],
    checks: [...base.checks]
  }
  const rest = report as unknown as Record<string, unknown>
  for (const p of parts) {
    for (const [key, value] of Object.entries(p) as Array<[keyof Report, unknown]>) {
      if (value === undefined || key === 'mode' || key === 'result') continue
      if (key === 'steps') report.steps.push(...p.steps)
      else if (key === 'checks') report.checks.push(...p.checks)
      else if (key === 'outputs') Object.assign(report.outputs, p.outputs)
      else if (key === 'cluster') report.cluster = { ...report.cluster, ...p.cluster }
      else if (key === 'diagnostics') report.diagnostics = [...(report.diagnostics ?? []), ...p.diagnostics!]
      else if (key === 'drift') report.drift = [...(report.drift ?? []), ...p.drift!]
      else rest[key] = value
    }
  }
  return report
}
