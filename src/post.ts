// Entry point of the action's post step (dist/post.js): releases the Lease, deletes what the run
// created when the cleanup input asks, removes what the main step left in RUNNER_TEMP, whatever
// the main step's outcome. Exits 1 (a red job) when a cluster or pool this run created could not
// be deleted, or when the post step itself fails; with no saved state it does nothing and exits 0.
import * as core from '@actions/core'
import { runPost } from './run/post.js'

try {
  process.exitCode = (await runPost()).exitCode
} catch (e) {
  core.setFailed(`aks-rdma-action post step failed unexpectedly: ${(e as Error).message}`)
  process.exitCode = 1
}
