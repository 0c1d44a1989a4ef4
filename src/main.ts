// The action's main step: inputs → settings (all problems at once, before any network call),
// secrets masked, then the mode: plan prints the desired state; apply, verify and drift run the
// flow. Only orchestrates; each part lives in its own module.
import * as core from '@actions/core'
import { buildPlan, renderPlanMarkdown, renderPlanText } from './plan/plan.js'
import { actionInputReader } from './run/inputs.js'
import { setOutput } from './run/outputs.js'
import { InputError, readSettings, type SettingsResult } from './settings/input-helper.js'

export const EXIT = { success: 0, failure: 1, usage: 2 } as const

export interface MainOptions {
  /** CLI only: plan as JSON on stdout. */
  output?: 'text' | 'json'
  /** CLI only: warnings go to stderr so stdout stays clean JSON. */
  cli?: boolean
}

export async function runMain(opts: MainOptions = {}): Promise<number> {
  let parsed: SettingsResult
  try {
    parsed = readSettings(actionInputReader)
  } catch (e) {
    if (e instanceof InputError) {
      if (opts.cli) process.stderr.write(`${e.message}\n`)
      else core.setFailed(e.message)
      return EXIT.usage
    }
    throw e
  }
  for (const secret of parsed.secrets) core.setSecret(secret)
  for (const w of parsed.warnings) {
    if (opts.cli) process.stderr.write(`warning: ${w}\n`)
    else core.warning(w)
  }
  const { settings } = parsed

  if (settings.mode === 'plan') {
    const plan = buildPlan(settings)
    if (opts.output === 'json') process.stdout.write(JSON.stringify(plan, null, 2) + '\n')
    else process.stdout.write(renderPlanText(plan))
    if (process.env.GITHUB_STEP_SUMMARY) await core.summary.addRaw(renderPlanMarkdown(plan)).write()
    setOutput('result', 'success')
    return EXIT.success
  }

  const { runFlow } = await import('./run/flow.js')
  return runFlow(settings)
}

/** Entry point of `npx @github/local-action . src/main.ts .env` (it imports run and awaits it). */
export async function run(): Promise<void> {
  process.exitCode = await runMain()
}
