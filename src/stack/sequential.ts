// The sequential rollout: each component in order is converged and then waited for — with
// watches, on its health rules — until it is ready on every RDMA node, before the next is
// written. A failed step stops the run (the rest are reported as not run) with a diagnostic.
import { evaluateHealth } from '../health/evaluate.js'
import type { HealthVerdict } from '../health/types.js'
import type { KubeObject } from '../kube/types.js'
import { watchAll } from '../kube/watch.js'
import { finishedStep, type Diagnostic, type ReportStep } from '../report/report.js'
import { actionOf, ComponentStepFailure, stepFailureOf, type Run } from './run.js'
import type { ApplyStackResult, StackStep } from './types.js'

async function waitReady(
  run: Run,
  step: StackStep,
  stepStarted: number,
  stepDeadline: number
): Promise<HealthVerdict> {
  const h = step.component.health(run.settings)
  const waitStart = Date.now()
  let verdict: HealthVerdict | undefined
  let snapshot: Record<string, KubeObject[]> | undefined
  try {
    const out = await watchAll(
      run.watchSources(h),
      snap => {
        snapshot = snap
        verdict = evaluateHealth(h, snap, {
          settings: run.settings,
          elapsedMs: Date.now() - waitStart,
          nfdGraceMs: run.nfdGraceMs
        })
        return verdict
      },
      run.waitOptions(step, stepStarted, Math.max(0, stepDeadline - Date.now()))
    )
    return out.verdict
  } catch (e) {
    throw stepFailureOf(e, {
      started: stepStarted,
      limit: run.limitOf(stepDeadline),
      last: verdict,
      snapshot
    })
  }
}

async function runStep(run: Run, step: StackStep): Promise<{ result: ReportStep; diagnostic?: Diagnostic }> {
  const { spec } = step
  const started = Date.now()
  run.log.startGroup(`${spec.name}: ${spec.title}`)
  let changed = false
  let details: string[] = []
  let version: ReportStep['version']
  try {
    if (Date.now() >= run.deadline)
      throw new ComponentStepFailure('the run timeout was reached before this step started')
    const applied = await run.converge(step, started)
    changed = applied.changed
    details = applied.details
    version = applied.version
    const verdict = await waitReady(run, step, started, applied.stepDeadline)
    const detail = [...(details.length ? details : ['unchanged']), `ready: ${verdict.message}`].join('; ')
    const action = actionOf(applied)
    return { result: finishedStep(spec.name, 'success', started, { changed, action, detail, version }) }
  } catch (e) {
    const { reason, diagnostic } = await run.diagnose(step, e)
    return {
      result: finishedStep(spec.name, 'failure', started, {
        changed,
        detail: [...details, reason].join('; '),
        version
      }),
      diagnostic
    }
  } finally {
    run.log.endGroup()
  }
}

/** Each step converged and awaited in turn; after a failure the rest are not run. */
export async function applySequential(run: Run, steps: StackStep[]): Promise<ApplyStackResult> {
  const results: ReportStep[] = []
  const diagnostics: Diagnostic[] = []
  let failed: string | undefined
  for (const step of steps) {
    const now = Date.now()
    const { name } = step.spec
    if (failed) {
      results.push(finishedStep(name, 'skipped', now, { detail: `not run: ${failed} failed` }, now))
      continue
    }
    if (!step.spec.enabled) {
      results.push(
        finishedStep(
          name,
          'skipped',
          now,
          { detail: step.spec.skipReason ?? 'disabled by the settings' },
          now
        )
      )
      continue
    }
    const { result, diagnostic } = await runStep(run, step)
    results.push(result)
    if (diagnostic) diagnostics.push(diagnostic)
    if (result.status === 'failure') failed = name
  }
  return { steps: results, diagnostics, ok: failed === undefined }
}
