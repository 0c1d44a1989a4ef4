// The one logging seam of the action: every module writes progress, warnings, errors and secrets
// through a `Log`. The process-wide `log` forwards to the current backend: GitHub Actions workflow
// commands (through @actions/core) by default; the CLI installs a terminal backend (no workflow
// commands, secrets redacted, a live progress line on a TTY); tests install a capturing one.
import * as core from '@actions/core'
import { PROGRESS_TAG_ENV } from './terminal-commands.js'
import type { Log } from './types.js'

export type { Annotation, Log } from './types.js'

/** The Actions backend: @actions/core's workflow commands on stdout. */
export const actionsLog: Log = {
  info: line => core.info(line),
  debug: line => core.debug(line),
  warning: (line, a) => core.warning(line, a?.title ? { title: a.title } : {}),
  error: (line, a) => core.error(line, a?.title ? { title: a.title } : {}),
  startGroup: title => core.startGroup(title),
  endGroup: () => core.endGroup(),
  progress: (key, line) => {
    // Under `simulate` (a simulated runner) the line is tagged so its terminal can keep it live.
    const tag = process.env[PROGRESS_TAG_ENV]
    if (tag) core.info(tag + JSON.stringify([key, line]))
    else if (line) core.info(line)
  },
  secret: value => {
    if (value) core.setSecret(value)
  }
}

/** A log that drops everything (for callers that do not care). */
export const silentLog: Log = {
  info: () => {},
  debug: () => {},
  warning: () => {},
  error: () => {},
  startGroup: () => {},
  endGroup: () => {},
  progress: () => {},
  secret: () => {}
}

/** A log whose info, warning and error lines (progress too) all go to `write` (tests, captures). */
export function lineLog(write: (line: string) => void): Log {
  return {
    ...silentLog,
    info: write,
    warning: line => write(line),
    error: line => write(line),
    progress: (_key, line) => write(line)
  }
}

let backend: Log = actionsLog

/** Replaces the process-wide backend (the CLI's terminal, a test's capture); returns the previous one. */
export function setLogBackend(next: Log): Log {
  const previous = backend
  backend = next
  return previous
}

/** The process-wide log: forwards every call to the current backend. */
export const log: Log = {
  info: line => backend.info(line),
  debug: line => backend.debug(line),
  warning: (line, a) => backend.warning(line, a),
  error: (line, a) => backend.error(line, a),
  startGroup: title => backend.startGroup(title),
  endGroup: () => backend.endGroup(),
  progress: (key, line) => backend.progress(key, line),
  secret: value => backend.secret(value)
}
