// The apply / verify / drift / uninstall run as a list of phases, always ending with the report, the
// job summary and the outputs, whatever failed. Docs: docs/design.md#the-run.
import * as core from '@actions/core'
import path from 'node:path'
import { log } from '../log/index.js'
import { workloadPod } from '../model/workload.js'
import {
  deriveResult,
  driftFound,
  emptyReport,
  writeReportFile,
  type Report,
  type ReportWorkload
} from '../report/report.js'
import { writeJobSummary } from '../report/job-summary.js'
import { usesAzure, type Settings } from '../settings/settings.js'
import { findRdmaVmSize } from '../settings/vm-sizes.js'
import { actionVersion } from '../util/version.js'
import { cancelledExitCode } from '../exit-codes.js'
import { cancelledBy, RunCancelledError } from '../util/cancel.js'
import * as azure from './azure-phases.js'
import { halfDoneLines, releaseIfHeld, removeTemporaryFiles } from './cancelled.js'
import { recordRunEnd } from './last-run-step.js'
import * as cluster from './cluster-phases.js'
import { setOutput } from './outputs.js'
import { assembleReport, runPhases, type Phase, type RunContext } from './phase.js'
import { rememberCleanup, rememberLeaseReleased, rememberRun } from './saved-state.js'
import { StepError } from './steps.js'

/** Every phase, in order; each says in which modes it runs. */
export const PHASES: readonly Phase[] = [
  azure.signIn,
  azure.kubeconfigCluster,
  azure.poolPrecheck,
  azure.infinibandFeature,
  azure.cluster,
  azure.nodePool,
  cluster.credentials,
  cluster.drift,
  cluster.stack,
  cluster.uninstall,
  cluster.verify
]

/** How a workload uses the pool: a Pod as the benchmark pods are built, for the whole node's GPUs. */
function workloadOf(s: Settings): ReportWorkload {
  const gpus = findRdmaVmSize(s.nodePool.vmSize)?.gpus ?? null
  return {
    pool: s.nodePool.name,
    rdmaResource: `rdma/${s.stack.rdmaResourceName}`,
    gpusPerNode: gpus,
    podSnippet: workloadPod(s, gpus ?? 1)
  }
}

export interface FlowResult {
  exitCode: number
  report: Report
}

export async function runFlow(s: Settings): Promise<number> {
  return (await runFlowWithReport(s)).exitCode
}

/** An error no step recorded: in the log and the report's diagnostics (a StepError is its step's). */
function unexpected(e: unknown): Report {
  const part = emptyReport('')
  if (e instanceof StepError || e instanceof RunCancelledError) return part
  const message = e instanceof Error ? e.message : String(e)
  log.error(message, { title: 'aks-rdma-action failed' })
  part.diagnostics = [{ step: 'run', title: 'Unexpected error', text: message }]
  return part
}

export async function runFlowWithReport(s: Settings): Promise<FlowResult> {
  const named = !s.cluster.kubeconfig || usesAzure(s)
  const base = emptyReport(s.mode, {
    version: actionVersion(),
    startedAt: new Date().toISOString(),
    cluster: named ? { resourceGroup: s.cluster.resourceGroup, name: s.cluster.name } : {}
  })
  const reportPath = path.join(cluster.runnerTemp(), 'aks-rdma-action-report.json')
  rememberRun(s.runId, reportPath)
  rememberCleanup(s)
  const ctx: RunContext = { s, temp: [], leaseReleased: false }
  const parts: Report[] = []
  try {
    await runPhases(PHASES, ctx, parts)
  } catch (e) {
    // A cancelled run stopped at a safe point: said below, with what it left half-done.
    parts.push(unexpected(e))
  } finally {
    // A node pool still going on (a phase after it failed) ends in its own step before the report.
    await ctx.pool?.done.catch(() => undefined)
    ctx.refresher?.stop()
  }
  const report = assembleReport(base, parts)
  const cancelled = cancelledBy()
  if (cancelled) {
    const lease = ctx.leaseReleased ? 'released' : await releaseIfHeld(ctx.kubeconfigPath, s.runId)
    if (lease === 'released') rememberLeaseReleased()
    const lines = halfDoneLines(report, { signal: cancelled, lease, removed: removeTemporaryFiles(ctx.temp) })
    log.error(lines.join('\n'), { title: `aks-rdma-action cancelled by ${cancelled}` })
    report.diagnostics = [
      ...(report.diagnostics ?? []),
      { step: 'run', title: `Cancelled by ${cancelled}`, text: lines.slice(1).join('\n') }
    ]
  }
  report.result = deriveResult(report)
  // What `status` shows as the last run: an apply or uninstall that changed something (a converged
  // re-run, a refused run and the read-only modes write nothing, this included).
  const changedCluster = report.steps.some(x => x.changed)
  if (ctx.kubeconfigPath && changedCluster && !cancelled && (s.mode === 'apply' || s.mode === 'uninstall'))
    await recordRunEnd(s, ctx.kubeconfigPath, report.result)
  if (report.result === 'success' && (s.mode === 'apply' || s.mode === 'verify'))
    report.workload = workloadOf(s)
  report.outputs.result = report.result
  // Drift found is `drifted: true` even when something else failed too (the result is then failure).
  report.outputs.drifted = String(driftFound(report))
  report.outputs['report-path'] = reportPath
  await writeReportFile(reportPath, report)
  for (const [k, v] of Object.entries(report.outputs)) setOutput(k, v)
  await writeJobSummary(report)
  const failed = report.result === 'failure' || (report.result === 'drifted' && s.failOnDrift)
  if (cancelled) {
    core.setFailed(`aks-rdma-action: cancelled by ${cancelled}`)
    return { exitCode: cancelledExitCode(cancelled), report }
  }
  if (failed) core.setFailed(`aks-rdma-action: ${report.result}`)
  return { exitCode: failed ? 1 : 0, report }
}
