// A step of the run: a core.startGroup around it, its start and end times, elapsed time in the
// log, and a report step whatever happens (an error becomes a failed step, never a lost one).
import * as core from '@actions/core'
import { log } from '../log/index.js'
import type { ReportStep } from '../report/report.js'
import { formatDuration } from '../util/duration.js'

export interface StepOutcome {
  changed: boolean
  action?: ReportStep['action']
  detail: string
}

export class StepError extends Error {
  constructor(
    readonly step: string,
    message: string
  ) {
    super(message)
  }
}

/** Runs `fn` as the step `name`; records its result in `steps`; rethrows a failure as StepError. */
export async function runStep(
  steps: ReportStep[],
  name: string,
  title: string,
  fn: () => Promise<StepOutcome>
): Promise<StepOutcome> {
  const started = Date.now()
  core.startGroup(`${name}: ${title}`)
  const finish = (status: ReportStep['status'], outcome: Partial<StepOutcome>): void => {
    const finished = Date.now()
    steps.push({
      name,
      status,
      changed: outcome.changed ?? false,
      ...(outcome.action ? { action: outcome.action } : {}),
      durationMs: finished - started,
      startedAt: new Date(started).toISOString(),
      finishedAt: new Date(finished).toISOString(),
      detail: outcome.detail ?? ''
    })
  }
  try {
    const outcome = await fn()
    finish('success', outcome)
    log.info(`${name}: ${outcome.detail} (${formatDuration(Date.now() - started)})`)
    return outcome
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e)
    finish('failure', { detail: message })
    core.error(message, { title: `aks-rdma-action: ${name} failed` })
    throw e instanceof StepError ? e : new StepError(name, message)
  } finally {
    core.endGroup()
  }
}
