// Test helper: reads a step's output the way the GitHub runner does (actions/runner
// ActionCommandManager: the `::name props::data` form at a line's start after TrimStart, else the
// legacy `##[name props]data` form anywhere in the line, both only for registered commands, and
// `::stop-commands::TOKEN` pausing everything until `::TOKEN::`) and returns the commands it would
// carry out. Lets a test prove that text from the cluster never becomes a workflow command.

export interface RunnerCommand {
  command: string
  properties: Record<string, string>
  data: string
  line: string
}

/** Every command extension the runner registers, plus stop-commands. */
const REGISTERED = [
  'set-env',
  'set-output',
  'save-state',
  'add-mask',
  'add-path',
  'add-matcher',
  'remove-matcher',
  'debug',
  'warning',
  'error',
  'notice',
  'group',
  'endgroup',
  'echo',
  'stop-commands'
]

function unescape(s: string): string {
  return s
    .replace(/%0D/gi, '\r')
    .replace(/%0A/gi, '\n')
    .replace(/%3A/gi, ':')
    .replace(/%2C/gi, ',')
    .replace(/%25/g, '%')
}

/** The command a command's info names (its first word), when the runner registers it, and the rest. */
function commandIn(info: string, registered: Set<string>): { command: string; rest: string } | undefined {
  const space = info.indexOf(' ')
  const command = space < 0 ? info : info.slice(0, space)
  return registered.has(command) ? { command, rest: space < 0 ? '' : info.slice(space + 1) } : undefined
}

/** A command's `key=value` properties, split at `separator`, their values unescaped. */
function propertiesOf(text: string, separator: string): Record<string, string> {
  const properties: Record<string, string> = {}
  for (const pair of text.split(separator).filter(Boolean)) {
    const eq = pair.indexOf('=')
    if (eq > 0) properties[pair.slice(0, eq)] = unescape(pair.slice(eq + 1))
  }
  return properties
}

function v2(line: string, registered: Set<string>): RunnerCommand | undefined {
  // .NET's TrimStart: Unicode white space, U+0085 included.
  const text = line.replace(/^[\s\u0085]+/, '')
  if (!text.startsWith('::')) return undefined
  const end = text.indexOf('::', 2)
  if (end < 0) return undefined
  const named = commandIn(text.slice(2, end), registered)
  if (!named) return undefined
  const properties = propertiesOf(named.rest.trim(), ',')
  return { command: named.command, properties, data: unescape(text.slice(end + 2)), line }
}

function v1(line: string, registered: Set<string>): RunnerCommand | undefined {
  const at = line.indexOf('##[')
  if (at < 0) return undefined
  const rb = line.indexOf(']', at)
  if (rb < 0) return undefined
  const named = commandIn(line.slice(at + 3, rb), registered)
  if (!named) return undefined
  const properties = propertiesOf(named.rest, ';')
  return { command: named.command, properties, data: unescape(line.slice(rb + 1)), line }
}

/** The commands the runner would carry out for this output, in order. */
export function runnerCommands(output: string): RunnerCommand[] {
  const registered = new Set(REGISTERED)
  const done: RunnerCommand[] = []
  let stopToken: string | undefined
  for (const line of output.split(/\r\n|\r|\n/)) {
    const c = v2(line, registered) ?? v1(line, registered)
    if (!c) continue
    if (stopToken !== undefined) {
      if (c.command === stopToken) {
        registered.delete(stopToken)
        stopToken = undefined
      }
      continue
    }
    if (c.command === 'stop-commands' && c.data) {
      stopToken = c.data
      registered.add(stopToken)
      continue
    }
    done.push(c)
  }
  return done
}

/**
 * The lines of `output` that look like a workflow command (`::name` at a line's start after white
 * space) outside a stop-commands block whose token is unguessable (at least 32 hex digits) and
 * closed: what a reader of the output could be made to run. Stricter than runnerCommands, which
 * knows only the commands the runner registers today.
 */
export function commandLikeLines(output: string): string[] {
  const found: string[] = []
  let token: string | undefined
  for (const line of output.split(/\r\n|\r|\n/)) {
    if (token !== undefined) {
      if (line.replace(/^[\s\u0085]+/, '') === `::${token}::`) token = undefined
      continue
    }
    const stop = /^::stop-commands::([0-9a-f]{32,})$/.exec(line)
    if (stop) token = stop[1]
    else if (/^[\s\u0085]*::[a-z-]+/i.test(line) || line.includes('##[')) found.push(line)
  }
  // A block never closed hides nothing: what it held may have been meant for a later reader.
  return token === undefined ? found : [...found, `(stop-commands ::${token}:: never closed)`]
}
