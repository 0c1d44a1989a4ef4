// Step outputs. Under the runner they go to GITHUB_OUTPUT; run from a terminal (no
// GITHUB_OUTPUT) they are not printed as workflow commands, which would mix into stdout.
import * as core from '@actions/core'

export function setOutput(name: string, value: string | number | boolean): void {
  if (process.env.GITHUB_OUTPUT) core.setOutput(name, String(value))
}
