// Entry point of the action's main step (dist/index.js). A failed run and bad input both exit 1,
// as GitHub expects of an action (the CLI keeps 2 for bad input).
import * as core from '@actions/core'
import { EXIT, runMain } from './main.js'

try {
  const code = await runMain()
  process.exitCode = code === EXIT.usage ? EXIT.failure : code
} catch (e) {
  core.setFailed(`aks-rdma-action failed unexpectedly: ${(e as Error).message}`)
  process.exitCode = 1
}
