// Reads inputs the way the runner passes them (INPUT_<NAME> environment variables, read through
// @actions/core) and puts the CLI's flag values into the same variables, so the action and the
// CLI share one path from inputs to settings.
import * as core from '@actions/core'
import { INPUTS } from '../settings/input-definitions.js'

export function inputEnvName(name: string): string {
  return `INPUT_${name.replace(/ /g, '_').toUpperCase()}`
}

/** Reader over the runner's INPUT_* variables. */
export function actionInputReader(name: string): string | undefined {
  return core.getInput(name) || undefined
}

/** Puts input values into the environment as the runner would. */
export function exportInputs(inputs: Record<string, string>, env: NodeJS.ProcessEnv = process.env): void {
  for (const [name, value] of Object.entries(inputs)) env[inputEnvName(name)] = value
}

/** The values of secret inputs (client-secret, creds) set in the environment: never to be shown. */
export function secretInputValues(env: NodeJS.ProcessEnv = process.env): string[] {
  return INPUTS.filter(i => i.kind === 'secret')
    .map(i => env[inputEnvName(i.name)]?.trim())
    .filter((v): v is string => !!v)
}
