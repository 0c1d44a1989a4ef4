// Entry point of the action's post step (dist/post.js): always removes what the main step left
// in RUNNER_TEMP (the kubeconfig, values files), whatever the main step's outcome.
import * as core from '@actions/core'
import { runPost } from './run/post.js'

try {
  await runPost()
} catch (e) {
  core.warning(`post step: ${(e as Error).message}`)
}
