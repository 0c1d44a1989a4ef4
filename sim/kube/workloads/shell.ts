// A small POSIX-shell subset that runs a simulated container's command: words with quotes,
// $VAR / ${VAR} (with :- - :+ + # ## % %%) / $? / $(cmd) expansion, `;` `&&` `||` `|` `&` and
// newlines, redirections to /dev/null and 2>&1, `VAR=x` / export, if/then/else/fi,
// for/while/until loops, `set -e` (errexit with POSIX's exceptions: conditions of if/while/until,
// every command of an && / || list but the last, every command of a pipeline but its status; an
// assignment takes the status of its last command substitution, which inherits errexit), and
// builtins (echo, printf, sleep, exit, true, false, wait, set, cd, test / [ with file tests through
// the container's view of files). Everything else is looked up in a command table (the simulated
// host tools); sleeps and async commands take simulated time.

export interface ShellIo {
  out(text: string): void
  err(text: string): void
}

export interface CommandResult {
  out?: string
  err?: string
  code: number
}

/** A simulated program: gets argv (argv[0] = name), stdin (from a pipe) and the shell's io. */
export type Command = (
  argv: string[],
  stdin: string,
  io: ShellIo,
  env: Record<string, string>
) => CommandResult | Promise<CommandResult>

export interface ShellOptions {
  commands: Record<string, Command>
  env: Record<string, string>
  /** Waits `simMs` of simulated time. `Infinity` never resolves (sleep infinity). */
  sleep(simMs: number): Promise<void>
  io: ShellIo
  /** Receives output redirected to a file (`> path`, `>> path`); without it such output is dropped. */
  writeFile?(path: string, content: string, append: boolean): void
  /** What `test -e/-f/-s PATH` sees (files the container can reach); without it no file exists. */
  fileExists?(path: string): boolean
  /** Set when the container is gone; the shell stops at the next command. */
  aborted?: () => boolean
  /** Start with errexit on (a command substitution of a shell running with `set -e`). */
  errexit?: boolean
}

type Tok = { kind: 'word'; raw: string } | { kind: 'op'; op: string }

const OPS = ['&&', '||', ';;', '2>&1', '&>', '>>', '2>', ';', '|', '&', '>', '<', '\n', '(', ')']

/** Splits shell text into words (raw, quotes kept for expansion) and operators. */
export function tokenize(src: string): Tok[] {
  const toks: Tok[] = []
  let i = 0
  let cur = ''
  let inWord = false
  const flush = () => {
    if (inWord) toks.push({ kind: 'word', raw: cur })
    cur = ''
    inWord = false
  }
  while (i < src.length) {
    const ch = src[i]
    if (ch === '\\' && src[i + 1] === '\n') {
      i += 2
      continue
    }
    if (ch === '#' && !inWord) {
      while (i < src.length && src[i] !== '\n') i++
      continue
    }
    if (ch === "'" || ch === '"') {
      const end = findClose(src, i)
      cur += src.slice(i, end + 1)
      inWord = true
      i = end + 1
      continue
    }
    if (ch === '$' && src[i + 1] === '(') {
      let depth = 0
      let j = i + 1
      for (; j < src.length; j++) {
        if (src[j] === '(') depth++
        else if (src[j] === ')' && --depth === 0) break
      }
      cur += src.slice(i, j + 1)
      inWord = true
      i = j + 1
      continue
    }
    if (ch === '\\') {
      cur += src.slice(i, i + 2)
      inWord = true
      i += 2
      continue
    }
    const op = OPS.find(o => src.startsWith(o, i))
    if (op && !(op === '2>' && inWord) && !(op === '2>&1' && inWord)) {
      flush()
      toks.push({ kind: 'op', op })
      i += op.length
      continue
    }
    if (ch === ' ' || ch === '\t' || ch === '\r') {
      flush()
      i++
      continue
    }
    cur += ch
    inWord = true
    i++
  }
  flush()
  return toks
}

function findClose(src: string, start: number): number {
  const q = src[start]
  for (let j = start + 1; j < src.length; j++) {
    if (q === '"' && src[j] === '\\') {
      j++
      continue
    }
    if (src[j] === q) return j
  }
  return src.length - 1
}

// ---- AST ----

type Node =
  | { t: 'simple'; words: string[]; redirs: Array<{ op: string; target?: string }> }
  | { t: 'pipe'; parts: Node[] }
  | { t: 'and' | 'or'; left: Node; right: Node }
  | { t: 'seq'; items: Array<{ node: Node; bg: boolean }> }
  | { t: 'if'; cond: Node; then: Node; else?: Node }
  | { t: 'loop'; kind: 'while' | 'until'; cond: Node; body: Node }
  | { t: 'for'; name: string; words: string[]; body: Node }

class Parser {
  private i = 0
  constructor(private readonly toks: Tok[]) {}

  private peek(): Tok | undefined {
    return this.toks[this.i]
  }
  private isWord(w: string): boolean {
    const t = this.peek()
    return t?.kind === 'word' && t.raw === w
  }
  private isOp(op: string): boolean {
    const t = this.peek()
    return t?.kind === 'op' && t.op === op
  }
  private skipNewlines(): void {
    while (this.isOp('\n') || this.isOp(';')) this.i++
  }
  private expectWord(w: string): void {
    this.skipNewlines()
    if (!this.isWord(w)) throw new Error(`syntax error: expected "${w}"`)
    this.i++
  }

  parseProgram(): Node {
    const n = this.parseSeq([])
    if (this.i < this.toks.length) throw new Error('syntax error near unexpected token')
    return n
  }

  private parseSeq(terminators: string[]): Node {
    const items: Array<{ node: Node; bg: boolean }> = []
    for (;;) {
      this.skipNewlines()
      const t = this.peek()
      if (!t) break
      if (t.kind === 'word' && terminators.includes(t.raw)) break
      if (t.kind === 'op' && t.op === ')') break
      const node = this.parseAndOr()
      let bg = false
      if (this.isOp('&')) {
        bg = true
        this.i++
      }
      items.push({ node, bg })
    }
    return { t: 'seq', items }
  }

  private parseAndOr(): Node {
    let left = this.parsePipe()
    while (this.isOp('&&') || this.isOp('||')) {
      const op = (this.peek() as { op: string }).op
      this.i++
      while (this.isOp('\n')) this.i++
      const right = this.parsePipe()
      left = { t: op === '&&' ? 'and' : 'or', left, right }
    }
    return left
  }

  private parsePipe(): Node {
    const parts = [this.parseCommand()]
    while (this.isOp('|')) {
      this.i++
      while (this.isOp('\n')) this.i++
      parts.push(this.parseCommand())
    }
    return parts.length === 1 ? parts[0] : { t: 'pipe', parts }
  }

  private parseCommand(): Node {
    if (this.isWord('if')) {
      this.i++
      const cond = this.parseSeq(['then'])
      this.expectWord('then')
      const then = this.parseSeq(['else', 'elif', 'fi'])
      let els: Node | undefined
      if (this.isWord('elif')) {
        ;(this.toks[this.i] as { raw: string }).raw = 'if'
        els = this.parseCommand()
        return { t: 'if', cond, then, else: els }
      }
      if (this.isWord('else')) {
        this.i++
        els = this.parseSeq(['fi'])
      }
      this.expectWord('fi')
      return { t: 'if', cond, then, else: els }
    }
    if (this.isWord('while') || this.isWord('until')) {
      const kind = (this.peek() as { raw: string }).raw as 'while' | 'until'
      this.i++
      const cond = this.parseSeq(['do'])
      this.expectWord('do')
      const body = this.parseSeq(['done'])
      this.expectWord('done')
      return { t: 'loop', kind, cond, body }
    }
    if (this.isWord('for')) {
      this.i++
      const name = (this.peek() as { raw: string }).raw
      this.i++
      const words: string[] = []
      if (this.isWord('in')) {
        this.i++
        while (this.peek()?.kind === 'word') words.push((this.toks[this.i++] as { raw: string }).raw)
      }
      this.expectWord('do')
      const body = this.parseSeq(['done'])
      this.expectWord('done')
      return { t: 'for', name, words, body }
    }
    if (this.isOp('(')) {
      this.i++
      const body = this.parseSeq([])
      if (this.isOp(')')) this.i++
      return body
    }
    const words: string[] = []
    const redirs: Array<{ op: string; target?: string }> = []
    for (;;) {
      const t = this.peek()
      if (!t) break
      if (t.kind === 'word') {
        words.push(t.raw)
        this.i++
        continue
      }
      if (['>', '>>', '2>', '&>', '<'].includes(t.op)) {
        this.i++
        const target = this.peek()
        redirs.push({ op: t.op, target: target?.kind === 'word' ? target.raw : undefined })
        this.i++
        continue
      }
      if (t.op === '2>&1') {
        redirs.push({ op: '2>&1' })
        this.i++
        continue
      }
      break
    }
    return { t: 'simple', words, redirs }
  }
}

export function parse(src: string): Node {
  return new Parser(tokenize(src)).parseProgram()
}

class ExitSignal {
  constructor(readonly code: number) {}
}

export class Shell {
  private readonly env: Record<string, string>
  private lastCode = 0
  private readonly background: Array<Promise<unknown>> = []
  /** `set -e`: a failing command outside a condition ends the shell with its status. */
  private errexit: boolean
  /** The status of the last command substitution of the command being expanded. */
  private substCode: number | undefined
  constructor(private readonly o: ShellOptions) {
    this.env = { ...o.env }
    this.errexit = o.errexit ?? false
  }

  /** errexit: stop with `code` when it is a failure and the command is not in a condition. */
  private checkErrexit(code: number, cond: boolean): void {
    if (this.errexit && !cond && code !== 0) throw new ExitSignal(code)
  }

  /** `set` options: -e / +e and -o errexit / +o errexit (other options are accepted and ignored). */
  private setOptions(args: string[]): void {
    for (let i = 0; i < args.length; i++) {
      const a = args[i]
      if ((a === '-o' || a === '+o') && args[i + 1] === 'errexit') {
        this.errexit = a === '-o'
        i++
      } else if (/^[-+][a-zA-Z]+$/.test(a) && a.includes('e')) this.errexit = a[0] === '-'
      else if (a === '--') break
    }
  }

  /** Runs a script; resolves to its exit status. */
  async run(script: string): Promise<number> {
    let ast: Node
    try {
      ast = parse(script)
    } catch (e) {
      this.o.io.err(`sh: 1: ${(e as Error).message}\n`)
      return 2
    }
    try {
      await this.exec(ast, '', this.o.io)
      await Promise.all(this.background)
      return this.lastCode
    } catch (e) {
      if (e instanceof ExitSignal) return e.code
      throw e
    }
  }

  /** Runs an argv directly (a container command without a shell). */
  async runArgv(argv: string[]): Promise<number> {
    const r = await this.invoke(argv, '', this.o.io)
    return r
  }

  /**
   * Runs a node. `cond`: it is (part of) a condition — an if/while/until test, a command of an
   * && / || list other than the last, or a pipeline's part — where errexit does not apply.
   */
  private async exec(n: Node, stdin: string, io: ShellIo, cond = false): Promise<number> {
    if (this.o.aborted?.()) throw new ExitSignal(137)
    switch (n.t) {
      case 'seq':
        for (const item of n.items) {
          if (item.bg) {
            const p = this.exec(item.node, '', io, cond).catch(e => {
              if (!(e instanceof ExitSignal)) throw e
            })
            this.background.push(p)
            this.lastCode = 0
          } else this.lastCode = await this.exec(item.node, stdin, io, cond)
        }
        return this.lastCode
      case 'and':
        this.lastCode = await this.exec(n.left, stdin, io, true)
        if (this.lastCode === 0) this.lastCode = await this.exec(n.right, stdin, io, cond)
        return this.lastCode
      case 'or':
        this.lastCode = await this.exec(n.left, stdin, io, true)
        if (this.lastCode !== 0) this.lastCode = await this.exec(n.right, stdin, io, cond)
        return this.lastCode
      case 'pipe': {
        let data = stdin
        let code = 0
        for (let k = 0; k < n.parts.length; k++) {
          const last = k === n.parts.length - 1
          let buf = ''
          const pio: ShellIo = last ? io : { out: t => (buf += t), err: t => io.err(t) }
          code = await this.exec(n.parts[k], data, pio, true)
          data = buf
        }
        this.lastCode = code
        this.checkErrexit(code, cond)
        return code
      }
      case 'if': {
        const c = await this.exec(n.cond, stdin, io, true)
        if (c === 0) return this.exec(n.then, stdin, io, cond)
        if (n.else) return this.exec(n.else, stdin, io, cond)
        this.lastCode = 0
        return 0
      }
      case 'loop': {
        for (let guard = 0; guard < 100_000; guard++) {
          const c = await this.exec(n.cond, stdin, io, true)
          if ((n.kind === 'while') !== (c === 0)) break
          await this.exec(n.body, stdin, io, cond)
        }
        this.lastCode = 0
        return 0
      }
      case 'for': {
        const items: string[] = []
        for (const w of n.words) items.push(...(await this.expandWord(w, true)))
        for (const v of items) {
          this.env[n.name] = v
          await this.exec(n.body, stdin, io, cond)
        }
        return this.lastCode
      }
      case 'simple': {
        const code = await this.simple(n, stdin, io)
        this.checkErrexit(code, cond)
        return code
      }
    }
  }

  private async simple(n: Extract<Node, { t: 'simple' }>, stdin: string, io: ShellIo): Promise<number> {
    const words: string[] = []
    this.substCode = undefined
    let leading = true
    for (const w of n.words) {
      // Assignments (leading NAME=value words) are expanded without field splitting.
      leading = leading && /^[A-Za-z_][A-Za-z0-9_]*=/.test(w)
      words.push(...(await this.expandWord(w, !leading)))
    }
    // Leading assignments.
    let k = 0
    const assigns: Record<string, string> = {}
    while (k < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[k])) {
      const eq = words[k].indexOf('=')
      assigns[words[k].slice(0, eq)] = words[k].slice(eq + 1)
      k++
    }
    const argv = words.slice(k)
    if (argv.length === 0) {
      // No command: the status of the last command substitution (POSIX), else 0.
      Object.assign(this.env, assigns)
      this.lastCode = this.substCode ?? 0
      return this.lastCode
    }
    let out = io.out
    let err = io.err
    let file: { path: string; append: boolean; buf: string } | undefined
    for (const r of n.redirs) {
      if (r.op === '>' || r.op === '>>') {
        const target = r.target ? (await this.expandWord(r.target, false))[0] : '/dev/null'
        if (target !== '/dev/null' && this.o.writeFile) {
          const f = { path: target, append: r.op === '>>', buf: '' }
          file = f
          out = t => (f.buf += t)
        } else out = () => {}
      } else if (r.op === '2>') err = () => {}
      else if (r.op === '&>') {
        out = () => {}
        err = () => {}
      } else if (r.op === '2>&1') err = out
    }
    const saved = { ...this.env }
    Object.assign(this.env, assigns)
    const code = await this.invoke(argv, stdin, { out, err })
    if (file) this.o.writeFile!(file.path, file.buf, file.append)
    if (Object.keys(assigns).length) {
      for (const key of Object.keys(assigns)) {
        if (key in saved) this.env[key] = saved[key]
        else delete this.env[key]
      }
    }
    this.lastCode = code
    return code
  }

  private async invoke(argv: string[], stdin: string, io: ShellIo): Promise<number> {
    const [cmd, ...args] = argv
    const name = cmd.split('/').pop()!
    switch (name) {
      case 'exec':
        return args.length ? this.invoke(args, stdin, io) : 0
      case 'nsenter': {
        const rest = args.indexOf('--')
        const inner =
          rest >= 0 ? args.slice(rest + 1) : args.filter(a => !a.startsWith('-') && !/^\d+$/.test(a))
        return inner.length ? this.invoke(inner, stdin, io) : 0
      }
      case 'echo': {
        let a = args
        let nl = true
        if (a[0] === '-n') {
          nl = false
          a = a.slice(1)
        } else if (a[0] === '-e') a = a.slice(1)
        io.out(a.join(' ') + (nl ? '\n' : ''))
        return 0
      }
      case 'printf': {
        const fmt = (args[0] ?? '').replace(/\\n/g, '\n').replace(/\\t/g, '\t')
        let idx = 1
        io.out(fmt.replace(/%[sd]/g, () => args[idx++] ?? ''))
        return 0
      }
      case 'true':
      case ':':
        return 0
      case 'false':
        return 1
      case 'set':
        this.setOptions(args)
        return 0
      case 'cd':
      case 'trap':
      case 'ulimit':
        if (name === 'ulimit' && this.o.commands.ulimit) break
        return 0
      case 'export':
        for (const a of args) {
          const eq = a.indexOf('=')
          if (eq > 0) this.env[a.slice(0, eq)] = a.slice(eq + 1)
        }
        return 0
      case 'exit':
        throw new ExitSignal(args[0] !== undefined ? Number(args[0]) : this.lastCode)
      case 'wait':
        await Promise.all(this.background)
        return 0
      case 'sleep': {
        const arg = args[0] ?? '0'
        const ms = arg === 'infinity' ? Infinity : parseSleep(arg)
        await this.o.sleep(ms)
        return 0
      }
      case 'sh':
      case 'bash':
      case 'ash': {
        const c = args.indexOf('-c')
        if (c >= 0) return new Shell({ ...this.o, env: this.env, errexit: false }).run(args[c + 1] ?? '')
        return 0
      }
      case 'test':
      case '[':
        return testExpr(
          name === '[' ? args.slice(0, args[args.length - 1] === ']' ? -1 : undefined) : args,
          p => this.o.fileExists?.(p) ?? false
        )
          ? 0
          : 1
      case 'tail':
        if (args.includes('-f')) {
          await this.o.sleep(Infinity)
          return 0
        }
        break
    }
    const impl = this.o.commands[name]
    if (!impl) {
      io.err(`sh: 1: ${cmd}: not found\n`)
      return 127
    }
    const r = await impl([name, ...args], stdin, io, this.env)
    if (r.out) io.out(r.out)
    if (r.err) io.err(r.err)
    return r.code
  }

  private async expandWord(raw: string, split: boolean): Promise<string[]> {
    let out = ''
    let quotedAny = false
    let i = 0
    const expandDollar = async (s: string, at: number): Promise<[string, number]> => {
      if (s[at + 1] === '(') {
        let depth = 0
        let j = at + 1
        for (; j < s.length; j++) {
          if (s[j] === '(') depth++
          else if (s[j] === ')' && --depth === 0) break
        }
        const inner = s.slice(at + 2, j)
        let buf = ''
        const sub = new Shell({
          ...this.o,
          env: this.env,
          errexit: this.errexit,
          io: { out: t => (buf += t), err: t => this.o.io.err(t) }
        })
        this.substCode = await sub.run(inner)
        return [buf.replace(/\n+$/, ''), j + 1]
      }
      if (s[at + 1] === '{') {
        const j = s.indexOf('}', at)
        return [parameterExpansion(s.slice(at + 2, j), this.env), j + 1]
      }
      if (s[at + 1] === '?') return [String(this.lastCode), at + 2]
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(s.slice(at + 1))
      if (!m) return ['$', at + 1]
      return [this.env[m[0]] ?? '', at + 1 + m[0].length]
    }
    while (i < raw.length) {
      const ch = raw[i]
      if (ch === "'") {
        const end = raw.indexOf("'", i + 1)
        out += raw.slice(i + 1, end < 0 ? raw.length : end)
        quotedAny = true
        i = end < 0 ? raw.length : end + 1
      } else if (ch === '"') {
        quotedAny = true
        let j = i + 1
        while (j < raw.length && raw[j] !== '"') {
          if (raw[j] === '\\' && j + 1 < raw.length && '"\\$`'.includes(raw[j + 1])) {
            out += raw[j + 1]
            j += 2
          } else if (raw[j] === '$') {
            const [v, next] = await expandDollar(raw, j)
            out += v
            j = next
          } else out += raw[j++]
        }
        i = j + 1
      } else if (ch === '\\') {
        out += raw[i + 1] ?? ''
        i += 2
      } else if (ch === '$') {
        const [v, next] = await expandDollar(raw, i)
        out += v
        i = next
      } else out += raw[i++]
    }
    if (!split || quotedAny) return [out]
    return out.split(/\s+/).filter(Boolean)
  }
}

/** A shell glob (`*`, `?`) as an anchored regex. */
function globRegex(glob: string): RegExp {
  const body = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.')
  return new RegExp(`^${body}$`, 's')
}

/**
 * `${name}` and POSIX's parameter expansions: `:-` / `-` (default), `:+` / `+` (alternative),
 * `#` / `##` (remove the shortest / longest matching prefix) and `%` / `%%` (suffix); the word is
 * taken literally (no expansion inside it).
 */
export function parameterExpansion(expr: string, env: Record<string, string>): string {
  const m = /^([A-Za-z_][A-Za-z0-9_]*|\?)(:-|-|:\+|\+|##|#|%%|%)?([\s\S]*)$/.exec(expr)
  if (!m) return ''
  const [, name, op, word] = m
  const v = env[name]
  const set = v !== undefined
  const value = v ?? ''
  switch (op) {
    case ':-':
      return value !== '' ? value : word
    case '-':
      return set ? value : word
    case ':+':
      return value !== '' ? word : ''
    case '+':
      return set ? word : ''
    case '#':
    case '##': {
      const re = globRegex(word)
      const ends = Array.from({ length: value.length + 1 }, (_, i) => i)
      const i = (op === '#' ? ends : ends.reverse()).find(k => re.test(value.slice(0, k)))
      return i === undefined ? value : value.slice(i)
    }
    case '%':
    case '%%': {
      const re = globRegex(word)
      const starts = Array.from({ length: value.length + 1 }, (_, i) => i)
      const i = (op === '%%' ? starts : starts.reverse()).find(k => re.test(value.slice(k)))
      return i === undefined ? value : value.slice(0, i)
    }
    default:
      return value
  }
}

/** `test` / `[ … ]`: string and integer comparisons, -n/-z, negation; file tests are false. */
function testExpr(a: string[], exists: (path: string) => boolean): boolean {
  if (a[0] === '!') return !testExpr(a.slice(1), exists)
  if (a.length === 0) return false
  if (a.length === 1) return a[0] !== ''
  if (a.length === 2) {
    if (a[0] === '-n') return a[1] !== ''
    if (a[0] === '-z') return a[1] === ''
    if (a[0] === '-e' || a[0] === '-f' || a[0] === '-s' || a[0] === '-r') return exists(a[1])
    return false
  }
  const [l, op, r] = a
  const n = (x: string) => Number(x)
  switch (op) {
    case '=':
    case '==':
      return l === r
    case '!=':
      return l !== r
    case '-eq':
      return n(l) === n(r)
    case '-ne':
      return n(l) !== n(r)
    case '-gt':
      return n(l) > n(r)
    case '-ge':
      return n(l) >= n(r)
    case '-lt':
      return n(l) < n(r)
    case '-le':
      return n(l) <= n(r)
    default:
      return false
  }
}

function parseSleep(s: string): number {
  const m = /^(\d+(?:\.\d+)?)([smhd]?)$/.exec(s)
  if (!m) return 0
  const mult = { '': 1000, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[
    m[2] as '' | 's' | 'm' | 'h' | 'd'
  ]
  return Number(m[1]) * mult
}

/** The script a container runs: `sh -c <script>` unwrapped, else the argv joined for the shell. */
export function containerScript(c: { command?: string[]; args?: string[] }): {
  script?: string
  argv?: string[]
} {
  const argv = [...(c.command ?? []), ...(c.args ?? [])]
  if (argv.length === 0) return {}
  const shells = ['sh', 'bash', 'ash', '/bin/sh', '/bin/bash', '/usr/bin/bash', '/usr/bin/env']
  if (shells.includes(argv[0])) {
    const i = argv.indexOf('-c')
    if (i >= 0) return { script: argv.slice(i + 1, i + 2).join(' ') }
    if (argv[0] === '/usr/bin/env') return { argv: argv.slice(1) }
  }
  return { argv }
}
