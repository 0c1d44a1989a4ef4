// The default progress logger: groups, info, warning and error through the one Log seam (src/log),
// which prints diagnostics (events, log tails) so none of their lines can become a workflow command.
import { log } from '../log/index.js'
import type { StackLog } from './types.js'

export const coreLog: StackLog = {
  info: line => log.info(line),
  warning: line => log.warning(line),
  error: line => log.error(line),
  startGroup: name => log.startGroup(name),
  endGroup: () => log.endGroup()
}
