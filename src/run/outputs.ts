// Step outputs, always through core.setOutput: under the runner (and in a local run, which gives
// the step a GITHUB_OUTPUT file) they go to that file; without one @actions/core prints the
// `::set-output` command, which @github/local-action reads and the CLI's terminal never shows.
import * as core from '@actions/core'

export function setOutput(name: string, value: string | number | boolean): void {
  core.setOutput(name, String(value))
}
