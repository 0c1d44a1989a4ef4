// The CLI's output for one command: logs to stderr (through the terminal renderer outside Actions),
// results to stdout, redacted and, under Actions, guarded (resultGuard). Rules:
// docs/running-locally.md#what-it-prints and docs/security.md#results-under-actions.
import { commandSafe, looksLikeCommand, setLogBackend, type Log } from './index.js'
import { WorkflowCommandRenderer, type RendererOptions } from './terminal-commands.js'
import { TerminalLog } from './terminal.js'

export interface SessionOptions {
  verbose?: boolean
  /** Results are JSON: nothing but the result may reach stdout. */
  jsonResults?: boolean
  /** Default: process.env.GITHUB_ACTIONS === 'true'. */
  underActions?: boolean
}

export interface OutputSink {
  write(text: string): void
  end(): void
}

export interface TerminalSession {
  /** The terminal backend; undefined under Actions. */
  readonly terminal?: TerminalLog
  /** Writes a result to stdout (with every secret redacted in a terminal). */
  result(text: string): void
  /** A line of the CLI's own (not a result): the terminal, or stdout/stderr as it is under Actions. */
  info(line: string): void
  /** A sink for the raw output of an action bundle run as a child (rendered in a terminal). */
  childOutput(o?: RendererOptions): OutputSink
  /** Flushes partial lines, removes live lines and restores the process streams. */
  close(): void
}

type Write = (text: string) => void
type StreamWrite = typeof process.stdout.write

/**
 * Results printed where the runner reads workflow commands, kept from becoming any: whole lines
 * are passed on (a partial one waits for its end, or for `end`); a block in which some line could
 * be taken for a command is wrapped in stop-commands (commandSafe). JSON results stay one JSON
 * document instead: `##[` — only ever inside a JSON string — is written `#\u0023[`, and no line of
 * JSON.stringify's output starts with `::`.
 */
export function resultGuard(write: Write, json = false): { write: Write; end(): void } {
  let pending = ''
  const emit = (block: string): void => {
    if (!block) return
    const text = json ? block.replace(/##\[/g, '#\\u0023[') : block
    if (!looksLikeCommand(text)) return write(text)
    const body = text.endsWith('\n') ? text.slice(0, -1) : text
    write(commandSafe(body) + '\n')
  }
  return {
    write: text => {
      pending += text
      const cut = pending.lastIndexOf('\n') + 1
      if (!cut) return
      emit(pending.slice(0, cut))
      pending = pending.slice(cut)
    },
    end: () => {
      emit(pending)
      pending = ''
    }
  }
}

function chunkText(chunk: unknown, encoding?: unknown): string {
  if (typeof chunk === 'string') return chunk
  if (chunk instanceof Uint8Array)
    return Buffer.from(chunk).toString(typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
  return String(chunk)
}

/** Replaces a stream's write with `to` (line-oriented sinks); returns the restore function. */
function divert(stream: NodeJS.WriteStream, to: Write): () => void {
  const original = stream.write
  const replacement = function (chunk: unknown, encoding?: unknown, cb?: unknown): boolean {
    to(chunkText(chunk, encoding))
    const done = typeof encoding === 'function' ? encoding : cb
    if (typeof done === 'function') process.nextTick(done as () => void)
    return true
  }
  stream.write = replacement as StreamWrite
  return () => {
    stream.write = original
  }
}

/**
 * Outside Actions, installs the terminal backend and routes everything else the process writes
 * (@actions/core, @actions/exec, a library) through the workflow-command renderer onto stderr.
 */
export function startSession(o: SessionOptions = {}): TerminalSession {
  const underActions = o.underActions ?? process.env.GITHUB_ACTIONS === 'true'
  const rawOut: Write = text => void process.stdout.write(text)
  const rawErr: Write = text => void process.stderr.write(text)
  const origOut = process.stdout.write.bind(process.stdout) as unknown as Write
  const origErr = process.stderr.write.bind(process.stderr) as unknown as Write

  if (underActions) {
    const restore = o.jsonResults ? divert(process.stdout, origErr) : () => {}
    const logOut = o.jsonResults ? rawErr : rawOut
    const results = resultGuard(origOut, o.jsonResults)
    return {
      result: text => results.write(text),
      info: line => logOut(line + '\n'),
      childOutput: () => ({ write: text => logOut(text), end: () => {} }),
      close: () => {
        results.end()
        restore()
      }
    }
  }

  const stderr = process.stderr
  const terminal = new TerminalLog({
    stream: {
      write: text => origErr(text),
      get isTTY() {
        return stderr.isTTY === true
      },
      get columns() {
        return stderr.columns
      }
    },
    verbose: o.verbose
  })
  const previous: Log = setLogBackend(terminal)
  const outRenderer = new WorkflowCommandRenderer(terminal)
  const errRenderer = new WorkflowCommandRenderer(terminal)
  const restoreOut = divert(process.stdout, text => outRenderer.write(text))
  const restoreErr = divert(process.stderr, text => errRenderer.write(text))
  const flushOnExit = (): void => {
    outRenderer.end()
    errRenderer.end()
    terminal.close()
  }
  process.once('exit', flushOnExit)
  let closed = false
  return {
    terminal,
    // The live lines (stderr) are lifted off first: erasing them later must not take a result with them.
    result: text => terminal.around(() => origOut(terminal.redactor.redact(text))),
    info: line => terminal.info(line),
    childOutput: (r?: RendererOptions) => {
      const renderer = new WorkflowCommandRenderer(terminal, r)
      return { write: text => renderer.write(text), end: () => renderer.end() }
    },
    close: () => {
      if (closed) return
      closed = true
      flushOnExit()
      process.removeListener('exit', flushOnExit)
      restoreOut()
      restoreErr()
      setLogBackend(previous)
    }
  }
}
