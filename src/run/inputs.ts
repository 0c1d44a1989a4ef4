// Reads inputs the way the runner passes them (INPUT_<NAME> environment variables, read through
// @actions/core) and turns the CLI's `--name value` flags into the same variables, so the action
// and the CLI share one path from inputs to settings.
import * as core from '@actions/core'
import { INPUTS } from '../settings/input-definitions.js'

export function inputEnvName(name: string): string {
  return `INPUT_${name.replace(/ /g, '_').toUpperCase()}`
}

/** Reader over the runner's INPUT_* variables. */
export function actionInputReader(name: string): string | undefined {
  return core.getInput(name) || undefined
}

export interface CliFlags {
  /** Input values by input name. */
  inputs: Record<string, string>
  /** Flags that are not inputs (e.g. output, scenario, report). */
  options: Record<string, string>
  positional: string[]
  problems: string[]
}

/**
 * Parses `--name value`, `--name=value` and bare `--name` (true). Names that are inputs go to
 * `inputs`; names listed in `extraOptions` go to `options`; anything else is a problem.
 */
export function parseCliFlags(argv: string[], extraOptions: readonly string[]): CliFlags {
  const known = new Set(INPUTS.map(i => i.name))
  const out: CliFlags = { inputs: {}, options: {}, positional: [], problems: [] }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (!a.startsWith('--')) {
      out.positional.push(a)
      continue
    }
    const eq = a.indexOf('=')
    const name = eq > 0 ? a.slice(2, eq) : a.slice(2)
    let value: string
    if (eq > 0) value = a.slice(eq + 1)
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) value = argv[++i]
    else value = 'true'
    if (known.has(name)) out.inputs[name] = value
    else if (extraOptions.includes(name)) out.options[name] = value
    else
      out.problems.push(
        `--${name}: unknown option (inputs: see action.yml; options: ${extraOptions.map(o => '--' + o).join(', ')})`
      )
  }
  return out
}

/** Puts CLI input values into the environment as the runner would. */
export function exportInputs(inputs: Record<string, string>, env: NodeJS.ProcessEnv = process.env): void {
  for (const [name, value] of Object.entries(inputs)) env[inputEnvName(name)] = value
}
