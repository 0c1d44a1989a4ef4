// Renders the workflow commands @actions/core writes onto a terminal Log: no `::` line reaches a terminal
// and masked values are redacted. Used by the CLI and `simulate` (docs/running-locally.md#what-it-prints).
import type { Annotation, Log } from './types.js'

export interface WorkflowCommand {
  command: string
  properties: Record<string, string>
  message: string
}

/** A Log that can also show notices (TerminalLog); other logs get them as info. */
export type CommandLog = Log & { notice?(line: string, a?: Annotation): void }

function unescapeData(s: string): string {
  return s.replace(/%0D/gi, '\r').replace(/%0A/gi, '\n').replace(/%25/g, '%')
}

function unescapeProperty(s: string): string {
  return s
    .replace(/%0D/gi, '\r')
    .replace(/%0A/gi, '\n')
    .replace(/%3A/gi, ':')
    .replace(/%2C/gi, ',')
    .replace(/%25/g, '%')
}

/** `::name k=v,k2=v2::message` → its parts; undefined when the line is not a command. */
export function parseWorkflowCommand(line: string): WorkflowCommand | undefined {
  const text = line.trimStart()
  if (!text.startsWith('::')) return undefined
  const end = text.indexOf('::', 2)
  if (end < 0) return undefined
  const info = text.slice(2, end)
  const space = info.indexOf(' ')
  const command = space < 0 ? info : info.slice(0, space)
  if (!/^[A-Za-z][A-Za-z0-9_-]*$/.test(command)) return undefined
  const properties: Record<string, string> = {}
  if (space >= 0)
    for (const pair of info.slice(space + 1).split(',')) {
      const eq = pair.indexOf('=')
      if (eq > 0) properties[pair.slice(0, eq).trim()] = unescapeProperty(pair.slice(eq + 1))
    }
  return { command: command.toLowerCase(), properties, message: unescapeData(text.slice(end + 2)) }
}

/** Commands that only change the runner's state; a terminal shows nothing for them. */
const SILENT = new Set([
  'set-output',
  'save-state',
  'set-env',
  'add-path',
  'echo',
  'add-matcher',
  'remove-matcher'
])

export interface RendererOptions {
  /** Only collect ::add-mask:: values (a run whose log is not shown), print nothing. */
  masksOnly?: boolean
  /**
   * Lines starting with this tag carry a progress update as JSON `[key, line]` (what a simulated
   * child's Log writes when `simulate` asks it to; see progressTagEnv).
   */
  progressTag?: string
}

/** The environment variable that asks an action bundle run by `simulate` to tag its progress lines. */
export const PROGRESS_TAG_ENV = 'AKS_RDMA_ACTION_PROGRESS_TAG'

/** Line-buffered: feed it chunks as they come (`write`), then `end()`. */
export class WorkflowCommandRenderer {
  private buffer = ''
  private stopToken?: string
  private blankHeld = false
  /** Progress keys the output started and has not ended: its end ends them (a child that exited). */
  private readonly liveKeys = new Set<string>()

  constructor(
    private readonly log: CommandLog,
    private readonly options: RendererOptions = {}
  ) {}

  write(chunk: string): void {
    this.buffer += chunk
    let nl = this.buffer.indexOf('\n')
    while (nl >= 0) {
      this.line(this.buffer.slice(0, nl))
      this.buffer = this.buffer.slice(nl + 1)
      nl = this.buffer.indexOf('\n')
    }
  }

  /** Renders a last line without its newline. */
  end(): void {
    if (this.buffer) this.line(this.buffer)
    this.buffer = ''
    if (this.blankHeld && !this.options.masksOnly) this.log.info('')
    this.blankHeld = false
    for (const key of this.liveKeys) this.log.progress(key, '')
    this.liveKeys.clear()
  }

  line(raw: string): void {
    const line = raw.replace(/\r$/, '')
    if (this.stopToken !== undefined) {
      if (line.trim() === `::${this.stopToken}::`) this.stopToken = undefined
      else if (!this.options.masksOnly) this.log.info(line)
      return
    }
    const tag = this.options.progressTag
    if (tag && line.startsWith(tag)) {
      if (this.options.masksOnly) return
      try {
        const [key, text] = JSON.parse(line.slice(tag.length)) as [string, string]
        if (text) this.liveKeys.add(String(key))
        else this.liveKeys.delete(String(key))
        this.log.progress(String(key), String(text))
      } catch {
        this.log.info(line.slice(tag.length))
      }
      return
    }
    const c = parseWorkflowCommand(line)
    // @actions/core writes an empty line before `::set-output` (and its kind): held back until
    // the next line shows whether it belongs to a command a terminal does not show.
    if (this.blankHeld) {
      this.blankHeld = false
      if (!(c && SILENT.has(c.command)) && !this.options.masksOnly) this.log.info('')
    }
    if (!c && line === '') {
      this.blankHeld = true
      return
    }
    if (!c) {
      if (!this.options.masksOnly) this.log.info(line)
      return
    }
    if (c.command === 'add-mask') {
      this.log.secret(c.message)
      return
    }
    if (c.command === 'stop-commands') {
      this.stopToken = c.message
      return
    }
    if (this.options.masksOnly) return
    this.render(c)
  }

  private render(c: WorkflowCommand): void {
    const where = c.properties.file
      ? `${c.properties.file}${c.properties.line ? `:${c.properties.line}` : ''}: `
      : ''
    const annotation: Annotation | undefined = c.properties.title ? { title: c.properties.title } : undefined
    switch (c.command) {
      case 'group':
        return this.log.startGroup(c.message)
      case 'endgroup':
        return this.log.endGroup()
      case 'debug':
        return this.log.debug(c.message)
      case 'warning':
        return this.log.warning(where + c.message, annotation)
      case 'error':
        return this.log.error(where + c.message, annotation)
      case 'notice':
        if (this.log.notice) return this.log.notice(where + c.message, annotation)
        return this.log.info(
          `notice: ${annotation?.title ? `${annotation.title}: ` : ''}${where}${c.message}`
        )
      default:
        if (SILENT.has(c.command)) return this.log.debug(`(${c.command})`)
        // An unknown command: the runner would print it as it is; a terminal shows it as text.
        return this.log.info(`${c.command}: ${c.message}`)
    }
  }
}
