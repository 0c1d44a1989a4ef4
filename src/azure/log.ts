// The small logging and masking seams every Azure module writes through, so tests can capture
// all output and check it for secrets. Production writes through the one Log seam (src/log), which
// keeps text from Azure or the cluster from becoming a workflow command.
import * as core from '@actions/core'
import { log } from '../log/index.js'

export interface AzureLog {
  info(message: string): void
  warning(message: string): void
  debug(message: string): void
}

/** Registers a value with the runner so it is replaced by *** in every log line. */
export type MaskFn = (secret: string) => void

export const coreLog: AzureLog = {
  info: m => log.info(m),
  warning: m => log.warning(m),
  debug: m => log.debug(m)
}

export const coreMask: MaskFn = s => {
  if (s) core.setSecret(s)
}

/** A log that drops everything (for callers that do not care). */
export const silentLog: AzureLog = { info: () => {}, warning: () => {}, debug: () => {} }
