// Entry point of the action's main step (dist/index.js).
import * as core from '@actions/core'
import { runMain } from './main.js'

try {
  process.exitCode = await runMain()
} catch (e) {
  core.setFailed(`aks-rdma-action failed unexpectedly: ${(e as Error).message}`)
  process.exitCode = 1
}
