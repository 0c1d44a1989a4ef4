// `kubectl exec` inside a simulated container: the command runs in the shell model with what the
// container sees — its own files and the host files its mounts reach (files.ts), the node's tools
// (host-tools.ts), its environment. Without a TTY the command gets the whole of stdin once the
// client closes it (`kubectl cp`'s tar reads its archive so); with a TTY an interactive shell (`sh`,
// `bash` without -c) reads lines as a terminal delivers them (echo, backspace, ^C, ^D) and prints
// a prompt, everything written with CRLF line ends as a terminal shows it.
import type { BehaviourEnv, ContainerView } from '../controllers/behaviour.js'
import { hostCommands } from './host-tools.js'
import { type ContainerFs, fileCommands, isDir, normalize, readFile } from './files.js'
import { containerEnv, hostPathOf, podView } from './index.js'
import { Shell } from './shell.js'

export interface ExecRequest {
  command: string[]
  stdin: boolean
  tty: boolean
}

export interface ExecIo {
  stdout(data: Buffer): void
  stderr(data: Buffer): void
}

export interface ExecProcess {
  /** Bytes the client sent on stdin. */
  write(data: Buffer): void
  /** The client closed stdin (EOF). */
  closeStdin(): void
  /** The client went away: stop at the next command. */
  kill(): void
  /** The exit status. */
  exited: Promise<number>
}

const SHELLS = new Set(['sh', 'bash', 'ash', 'dash'])

function isInteractiveShell(argv: string[]): boolean {
  return SHELLS.has((argv[0] ?? '').split('/').pop()!) && !argv.includes('-c')
}

/** The shell a command runs in, over the container's files and the node's tools. */
function containerShell(
  env: BehaviourEnv,
  c: ContainerView,
  fs: ContainerFs,
  out: ExecIo,
  killed: () => boolean,
  tty: boolean
): Shell {
  const base = podView(env, c)
  const enc = (t: string) => Buffer.from(tty ? t.replace(/\r?\n/g, '\r\n') : t, 'utf8')
  const host = base ? hostCommands({ ...base, readFile: p => readFile(fs, p) }) : {}
  const files = fileCommands(fs, () => env.ctx.wallNow(), host.ls)
  return new Shell({
    commands: { ...host, ...files },
    env: containerEnv(env, c),
    io: {
      out: t => out.stdout(enc(t)),
      err: t => (tty ? out.stdout : out.stderr)(enc(t)),
      outBytes: b => out.stdout(b)
    },
    sleep: ms =>
      ms === Infinity ? new Promise<void>(() => {}) : new Promise<void>(r => env.ctx.timers.after(ms, r)),
    aborted: () => killed() || !env.alive(),
    fileExists: p => readFile(fs, p) !== undefined,
    isDir: p => isDir(fs, p),
    writeFile: (path, content, append) => {
      const p = normalize(path)
      fs.own.set(p, (append ? (readFile(fs, p) ?? '') : '') + content)
    }
  })
}

/** The container's files: its own over the host paths its mounts reach. */
export function containerFs(env: BehaviourEnv, c: ContainerView, own: Map<string, string>): ContainerFs {
  return {
    own,
    hostFile: p => {
      const host = hostPathOf(env.pod, c, p)
      return host === undefined ? undefined : env.hw()?.files[host]
    }
  }
}

/** Starts `req.command` in container `c`. */
export function startExec(
  env: BehaviourEnv,
  c: ContainerView,
  fs: ContainerFs,
  req: ExecRequest,
  io: ExecIo
): ExecProcess {
  let killed = false
  const shell = containerShell(env, c, fs, io, () => killed, req.tty)
  if (req.tty && req.stdin && isInteractiveShell(req.command))
    return terminalSession(shell, io, () => (killed = true))
  const chunks: Buffer[] = []
  let eof!: () => void
  const input = req.stdin ? new Promise<void>(r => (eof = r)) : Promise.resolve()
  const tar = (req.command[0] ?? '').split('/').pop() === 'tar'
  const exited = input.then(() =>
    shell.runArgv(req.command, Buffer.concat(chunks).toString(tar ? 'latin1' : 'utf8')).catch(err => {
      io.stderr(Buffer.from(`sh: internal error: ${(err as Error).message}\n`))
      return 2
    })
  )
  return {
    write: d => chunks.push(d),
    closeStdin: () => eof?.(),
    kill: () => {
      killed = true
      eof?.()
    },
    exited
  }
}

/** An interactive shell on a terminal: line editing, a `# ` prompt, one line run at a time. */
function terminalSession(shell: Shell, io: ExecIo, kill: () => void): ExecProcess {
  let line = ''
  let queue = Promise.resolve()
  let finish!: (code: number) => void
  const exited = new Promise<number>(r => (finish = r))
  let done = false
  const echo = (t: string) => io.stdout(Buffer.from(t, 'utf8'))
  const end = (code: number) => {
    if (done) return
    done = true
    finish(code)
  }
  echo('# ')
  const runLine = (text: string) => {
    queue = queue.then(async () => {
      if (done) return
      const code = text.trim() ? await shell.run(text) : 0
      if (shell.exitedWith !== undefined) return end(shell.exitedWith)
      void code
      echo('# ')
    })
  }
  const onChar = (ch: string) => {
    if (ch === '\r' || ch === '\n') {
      echo('\r\n')
      runLine(line)
      line = ''
    } else if (ch === '\x7f' || ch === '\b') {
      if (line) {
        line = line.slice(0, -1)
        echo('\b \b')
      }
    } else if (ch === '\x03') {
      echo('^C\r\n# ')
      line = ''
    } else if (ch === '\x04') {
      if (!line) queue = queue.then(() => end(0))
    } else if (ch >= ' ' || ch === '\t') {
      line += ch
      echo(ch)
    }
  }
  return {
    write: d => {
      for (const ch of d.toString('utf8')) onChar(ch)
    },
    closeStdin: () => (queue = queue.then(() => end(0))),
    kill: () => {
      kill()
      end(0)
    },
    exited
  }
}
