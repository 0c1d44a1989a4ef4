// The default progress logger: @actions/core groups, info, warning and error (they print
// ::group::/::error:: lines, which the CLI shows as they are).
import * as core from '@actions/core'
import type { StackLog } from './types.js'

export const coreLog: StackLog = {
  info: line => core.info(line),
  warning: line => core.warning(line),
  error: line => core.error(line),
  startGroup: name => core.startGroup(name),
  endGroup: () => core.endGroup()
}
