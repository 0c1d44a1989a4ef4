// Unit-test helper: what a stack walk (applySequential, applyPipelined) returns when a step fails —
// the step's diagnostic, its title naming the step before what failed, and the report's steps.
import type { ReportStep } from '../../src/report/report.js'

/** A failed step's diagnostic. */
export const stepFailure = (step: string, text: string) => ({ step, title: `${step}: ${text}`, text })

/** The walk's outcome when `step` failed with `text`: not ok, its one diagnostic, the steps as reported. */
export const failedWalk = (step: string, text: string, steps: unknown[]) => ({
  ok: false,
  diagnostics: [stepFailure(step, text)],
  steps: steps as ReportStep[]
})
