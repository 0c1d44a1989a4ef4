// The terminal backend of the Log seam (the CLI outside Actions): headings, plain warnings, secrets
// redacted, live progress lines on a TTY that only ever erase what they drew (docs/running-locally.md).
import type { Annotation, Log } from './types.js'

/** What the terminal writes to (process.stderr, or a fake TTY in tests). */
export interface TerminalStream {
  write(text: string): unknown
  readonly isTTY?: boolean
  readonly columns?: number
}

export interface TerminalOptions {
  stream: TerminalStream
  /** Show debug lines (`--verbose`). */
  verbose?: boolean
  /** Colour; default: on a TTY unless NO_COLOR is set or TERM is dumb. */
  color?: boolean
  /** Without a TTY, a key's progress is printed at most once per this many ms (default 5000). */
  throttleMs?: number
  /** Clock (tests pass a fake one). */
  now?: () => number
}

export const REDACTED = '***'

/** The values to hide, and the forms they take in text (JSON-escaped, URL-encoded, base64, each line). */
export class Redactor {
  private readonly values = new Set<string>()
  private ordered: string[] = []

  add(secret: string): void {
    if (!secret) return
    const forms = new Set<string>([secret, secret.trim()])
    for (const line of secret.split(/\r?\n/)) if (line.trim().length >= 6) forms.add(line.trim())
    forms.add(JSON.stringify(secret).slice(1, -1))
    forms.add(encodeURIComponent(secret))
    if (secret.length >= 8) forms.add(Buffer.from(secret).toString('base64'))
    let added = false
    for (const f of forms)
      if (f.length >= 2 && !this.values.has(f)) {
        this.values.add(f)
        added = true
      }
    // Longest first, so a value that contains another is replaced whole.
    if (added) this.ordered = [...this.values].sort((a, b) => b.length - a.length)
  }

  redact(text: string): string {
    let out = text
    for (const v of this.ordered) if (out.includes(v)) out = out.split(v).join(REDACTED)
    return out
  }

  get size(): number {
    return this.values.size
  }
}

const ANSI = { bold: '1', dim: '2', red: '31', yellow: '33', cyan: '36' } as const
type Style = keyof typeof ANSI

interface LiveLine {
  line: string
  /** When the key was first seen (the elapsed time shown on a TTY). */
  since: number
  /** The group open when the key first appeared: the line goes away when that group ends. */
  group: number
  /** Without a TTY: the last printed line, when, and a change not printed yet. */
  printed?: string
  printedAt?: number
  pending?: string
  timer?: ReturnType<typeof setTimeout>
}

function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000))
  if (s < 60) return `${s}s`
  const m = Math.floor(s / 60)
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`
}

export class TerminalLog implements Log {
  readonly redactor = new Redactor()
  private readonly stream: TerminalStream
  private readonly verbose: boolean
  private readonly color: boolean
  private readonly tty: boolean
  private readonly throttleMs: number
  private readonly now: () => number
  private readonly live = new Map<string, LiveLine>()
  private readonly groups: number[] = []
  private nextGroup = 1
  /** Lines of the live block currently on screen (TTY). */
  private drawn = 0
  private ticker?: ReturnType<typeof setInterval>

  constructor(o: TerminalOptions) {
    this.stream = o.stream
    this.verbose = o.verbose ?? false
    this.tty = o.stream.isTTY === true
    this.color = o.color ?? (this.tty && !process.env.NO_COLOR && process.env.TERM !== 'dumb')
    this.throttleMs = o.throttleMs ?? 5000
    this.now = o.now ?? Date.now
  }

  info(line: string): void {
    this.print(line)
  }

  debug(line: string): void {
    if (this.verbose) this.print(line, { label: 'debug', style: 'dim', whole: true })
  }

  warning(line: string, a?: Annotation): void {
    this.print(this.titled(line, a), { label: 'warning', style: 'yellow' })
  }

  error(line: string, a?: Annotation): void {
    this.print(this.titled(line, a), { label: 'error', style: 'red' })
  }

  notice(line: string, a?: Annotation): void {
    this.print(this.titled(line, a), { label: 'notice', style: 'cyan' })
  }

  startGroup(title: string): void {
    this.groups.push(this.nextGroup++)
    this.emit([this.paint(`==> ${this.redactor.redact(title)}`, 'bold')])
  }

  endGroup(): void {
    const group = this.groups.at(-1)
    if (group === undefined) return
    // Its keys end inside it (a last held-back line is printed at the group's indent).
    for (const [key, l] of this.live) if (l.group === group) this.finish(key)
    this.groups.pop()
  }

  progress(key: string, line: string): void {
    if (!line) {
      this.finish(key)
      return
    }
    let l = this.live.get(key)
    if (!l) {
      l = { line, since: this.now(), group: this.groups.at(-1) ?? 0 }
      this.live.set(key, l)
    }
    l.line = line
    if (this.tty) {
      this.redraw()
      this.ticker ??= setInterval(() => this.redraw(), 1000)
      this.ticker.unref?.()
      return
    }
    if (line === l.printed) {
      l.pending = undefined
      return
    }
    const wait = l.printedAt === undefined ? 0 : l.printedAt + this.throttleMs - this.now()
    if (wait <= 0) {
      this.printProgress(l, line)
      return
    }
    l.pending = line
    if (!l.timer) {
      l.timer = setTimeout(() => {
        l.timer = undefined
        if (l.pending !== undefined && this.live.get(key) === l) this.printProgress(l, l.pending)
      }, wait)
      l.timer.unref?.()
    }
  }

  secret(value: string): void {
    this.redactor.add(value)
  }

  /**
   * Runs `write` (output to another stream of the same screen: a result on stdout) with the live
   * block lifted off, then draws the block again under it, so an erase never moves the cursor up
   * over lines this terminal did not draw.
   */
  around(write: () => void): void {
    this.erase()
    try {
      write()
    } finally {
      if (this.tty && this.live.size) this.draw()
    }
  }

  /** Removes every live line and stops the timers (the end of the command). */
  close(): void {
    for (const key of [...this.live.keys()]) this.finish(key)
    this.erase()
  }

  // ---- internals ----

  private titled(line: string, a?: Annotation): string {
    return a?.title ? `${a.title}: ${line}` : line
  }

  private printProgress(l: LiveLine, line: string): void {
    l.printed = line
    l.printedAt = this.now()
    l.pending = undefined
    this.print(line)
  }

  private finish(key: string): void {
    const l = this.live.get(key)
    if (!l) return
    if (l.timer) clearTimeout(l.timer)
    // Without a TTY a key ends on its last state (`3/3`), never on a count the throttle held back.
    if (!this.tty && l.pending !== undefined) this.printProgress(l, l.pending)
    this.live.delete(key)
    if (this.live.size === 0 && this.ticker) {
      clearInterval(this.ticker)
      this.ticker = undefined
    }
    if (this.tty) this.redraw()
  }

  private paint(text: string, style: Style): string {
    return this.color ? `\x1b[${ANSI[style]}m${text}\x1b[0m` : text
  }

  /** A message as lines: `label: ` on the first, continuation lines indented; inside a group, indented. */
  private print(text: string, o: { label?: string; style?: Style; whole?: boolean } = {}): void {
    const indent = this.groups.length ? '  ' : ''
    const lines = this.redactor.redact(text).replace(/\r\n?/g, '\n').replace(/\n+$/, '').split('\n')
    const out = lines.map((line, i) => {
      if (i > 0) return indent + (o.label ? '  ' : '') + line
      if (!o.label || !o.style) return indent + (o.label ? `${o.label}: ` : '') + line
      if (o.whole) return indent + this.paint(`${o.label}: ${line}`, o.style)
      return indent + this.paint(`${o.label}:`, o.style) + ' ' + line
    })
    this.emit(out)
  }

  /** Writes whole lines; on a TTY the live block is lifted off and redrawn under them. */
  private emit(lines: string[]): void {
    if (this.tty && this.drawn) this.erase()
    this.stream.write(lines.join('\n') + '\n')
    if (this.tty && this.live.size) this.draw()
  }

  private erase(): void {
    if (!this.drawn) return
    // Cursor to the start of the block's first line, then clear to the end of the screen.
    this.stream.write(`\x1b[${this.drawn}F\x1b[J`)
    this.drawn = 0
  }

  private draw(): void {
    const width = Math.max(20, (this.stream.columns ?? 80) - 1)
    const now = this.now()
    const lines = [...this.live.values()].map(l => {
      const elapsed = ` [${formatElapsed(now - l.since)}]`
      let text = `  … ${this.redactor.redact(l.line).replace(/\s*\n\s*/g, ' ')}`
      if (text.length + elapsed.length > width)
        text = text.slice(0, Math.max(0, width - elapsed.length - 1)) + '…'
      return text + this.paint(elapsed, 'dim')
    })
    if (!lines.length) return
    this.stream.write(lines.join('\n') + '\n')
    this.drawn = lines.length
  }

  private redraw(): void {
    this.erase()
    this.draw()
  }
}
