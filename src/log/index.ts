// The one logging seam: every module logs through the process-wide `log`, which forwards to a backend
// (Actions workflow commands, the CLI's terminal, a test's capture). The Actions backend prints every
// plain line through commandSafe, so text from the cluster stays text (docs/security.md).
import * as core from '@actions/core'
import { randomBytes } from 'node:crypto'
import { PROGRESS_TAG_ENV } from './terminal-commands.js'
import type { Log } from './types.js'

export type { Annotation, Log } from './types.js'

/** How the runner splits what a step prints into lines (.NET's ReadLine: CR, LF or CRLF). */
const LINE_BREAK = /\r\n|\r|\n/
/**
 * A line the runner could take for a workflow command: `::` at its start after the whitespace it
 * trims (.NET's TrimStart, which also trims U+0085), or the legacy `##[command]` anywhere in it.
 */
const COMMAND_LIKE = /^[\s\u0085]*::|##\[/

/** True when some line of `text` could be taken for a workflow command by the runner. */
export function looksLikeCommand(text: string): boolean {
  return text.split(LINE_BREAK).some(line => COMMAND_LIKE.test(line))
}

/**
 * Untrusted text made safe to print as plain log lines: unchanged when no line of it could be
 * taken for a workflow command, otherwise wrapped in `::stop-commands::<random token>` …
 * `::<token>::`, so the runner shows it exactly as it is and carries out none of it.
 */
export function commandSafe(text: string): string {
  if (!looksLikeCommand(text)) return text
  let token = randomBytes(16).toString('hex')
  while (text.includes(token)) token = randomBytes(16).toString('hex')
  return `::stop-commands::${token}\n${text}\n::${token}::`
}

/**
 * What to mask of a secret: each of its lines (trimmed, the empty ones left out). The runner masks
 * what it prints line by line, so a multi-line value masked whole would hide none of its lines. Of a
 * value of several lines, a line with no letter or digit (`{`, `},`, `---`) is structure, not secret:
 * masking it would blank that text in every line of the log.
 */
export function secretLines(value: string): string[] {
  const lines = [...new Set(value.split(LINE_BREAK).map(l => l.trim()))].filter(Boolean)
  return lines.length > 1 ? lines.filter(l => /[\p{L}\p{N}]/u.test(l)) : lines
}

/** A single-line field (an annotation title, a name): line breaks become spaces. */
export function withoutLineBreaks(text: string): string {
  return text.replace(/[\r\n\u0085\u2028\u2029]+/g, ' ')
}

/** The Actions backend: @actions/core's workflow commands on stdout. */
export const actionsLog: Log = {
  info: line => core.info(commandSafe(line)),
  debug: line => core.debug(line),
  // @actions/core escapes a command's message and properties (no line break survives in them).
  warning: (line, a) => core.warning(line, a?.title ? { title: withoutLineBreaks(a.title) } : {}),
  error: (line, a) => core.error(line, a?.title ? { title: withoutLineBreaks(a.title) } : {}),
  startGroup: title => core.startGroup(withoutLineBreaks(title)),
  endGroup: () => core.endGroup(),
  progress: (key, line) => {
    // Under `simulate` (a simulated runner) the line is tagged so its terminal can keep it live.
    const tag = process.env[PROGRESS_TAG_ENV]
    if (tag) core.info(tag + JSON.stringify([key, line]))
    else if (line) core.info(commandSafe(line))
  },
  secret: value => {
    for (const line of secretLines(value)) core.setSecret(line)
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

/**
 * A log whose info, warning and error lines (progress too, but not the empty line that ends a
 * key's live line) all go to `write` (tests, captures).
 */
export function lineLog(write: (line: string) => void): Log {
  return {
    ...silentLog,
    info: write,
    warning: line => write(line),
    error: line => write(line),
    progress: (_key, line) => {
      if (line) write(line)
    }
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
