// Writes the rendered report to the GitHub job summary through @actions/core. The Markdown itself comes
// from the pure renderer in summary.ts; this file is the only one here that touches the runner.

import * as core from '@actions/core'
import { log } from '../log/index.js'
import type { Report } from './report.js'
import { renderSummary, type SummaryOptions } from './summary.js'

/** The part of core.summary this writer uses (lets tests pass their own buffer). */
export interface SummarySink {
  addRaw(text: string, addEOL?: boolean): SummarySink
  write(options?: { overwrite?: boolean }): Promise<unknown>
}

/**
 * Appends the report's summary to $GITHUB_STEP_SUMMARY. Returns false (and writes nothing) when the
 * variable is unset, as when the CLI runs outside Actions; a write failure is logged as a warning,
 * never thrown, so a summary problem cannot fail an otherwise good run.
 */
export async function writeJobSummary(
  report: Report,
  options: SummaryOptions = {},
  sink: SummarySink = core.summary
): Promise<boolean> {
  if (!process.env.GITHUB_STEP_SUMMARY) {
    log.debug('GITHUB_STEP_SUMMARY is not set; job summary skipped')
    return false
  }
  const md = renderSummary(report, options)
  try {
    await sink.addRaw(md, true).write()
    return true
  } catch (err) {
    log.warning(`Could not write the job summary: ${err instanceof Error ? err.message : String(err)}`)
    return false
  }
}
