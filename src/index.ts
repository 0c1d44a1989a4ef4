// The action's main step (dist/index.js): bad input and a failed run exit 1, a cancelled run 130 or
// 143 (src/exit-codes.ts; cancellation: docs/lease.md "Cancellation").
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
