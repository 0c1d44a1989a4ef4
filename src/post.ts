// Entry point of the action's post step (dist/post.js): releases the Lease, deletes what the run
// created when asked, and removes its temporary files. Rules and exit codes: docs/post-step.md.
import * as core from '@actions/core'
import { runPost } from './run/post.js'

try {
  process.exitCode = (await runPost()).exitCode
} catch (e) {
  core.setFailed(`aks-rdma-action post step failed unexpectedly: ${(e as Error).message}`)
  process.exitCode = 1
}
