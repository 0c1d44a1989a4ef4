// A step of the run: a log group around it, its start and end times, elapsed time in the log, and
// a report step whatever happens (an error becomes a failed step, never a lost one; a step that
// found something to look at, such as drift, ends as a warning).
import { log } from '../log/index.js'
import { finishedStep, type ReportStep } from '../report/report.js'
import { throwIfCancelled } from '../util/cancel.js'
import { formatDuration } from '../util/duration.js'

export interface StepOutcome {
  /** `warning`: done, but it found something to look at (shown ⚠️; logged as a warning). Default success. */
  status?: 'success' | 'warning'
  changed: boolean
  action?: ReportStep['action']
  detail: string
}

/**
 * A step of the run that failed, named: what the job summary and the report show. Below it, an
 * Azure wait fails with AzureWaitTimeoutError (runStep wraps it) and a stack component with
 * ComponentStepFailure (recorded in the stack's own step list).
 */
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
  // A cancelled run starts no further step (src/util/cancel.ts).
  throwIfCancelled(`before the ${name} step`)
  const started = Date.now()
  log.startGroup(`${name}: ${title}`)
  const finish = (status: ReportStep['status'], outcome: Partial<StepOutcome>): void => {
    steps.push(finishedStep(name, status, started, outcome))
  }
  try {
    const outcome = await fn()
    finish(outcome.status ?? 'success', outcome)
    const line = `${name}: ${outcome.detail} (${formatDuration(Date.now() - started)})`
    if (outcome.status === 'warning') log.warning(line)
    else log.info(line)
    return outcome
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e)
    finish('failure', { detail: message })
    log.error(message, { title: `aks-rdma-action: ${name} failed` })
    throw e instanceof StepError ? e : new StepError(name, message)
  } finally {
    log.endGroup()
  }
}
