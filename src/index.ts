// Entry point of the action's main step (dist/index.js). A failed run and bad input both exit 1,
// as GitHub expects of an action (the CLI keeps 2 for bad input). SIGINT or SIGTERM (the runner
// cancelling the job) stops the run at its next safe point: it releases the Lease, removes its
// temporary files, says what it left half-done and exits 130 or 143; a second signal exits at once.
import * as core from '@actions/core'
import { cancelledExitCode, EXIT } from './exit-codes.js'
import { runMain } from './main.js'
import { handleCancelSignals } from './run/cancel-signals.js'
import { cancelledBy } from './util/cancel.js'

handleCancelSignals()
try {
  const code = await runMain()
  process.exitCode = code === EXIT.usage ? EXIT.failure : code
} catch (e) {
  core.setFailed(`aks-rdma-action failed unexpectedly: ${(e as Error).message}`)
  process.exitCode = 1
}
const signal = cancelledBy()
if (signal) process.exitCode = cancelledExitCode(signal)
