// The folder of a `sim up` world and what may happen in it. `sim up` creates the folder itself
// (mode 0700) or takes an empty one the user owns; it refuses a non-empty folder, a symbolic link
// and a folder owned by someone else, so nothing can have been planted in it (a `bin/helm` a later
// `apply --inputs-file` would run, a link that sends the admin kubeconfig elsewhere). Every file is
// created exclusively (O_EXCL: an existing file or link is never followed or overwritten). A
// marker file says the folder is a world's, and the world answers on a Unix socket in it: `sim
// down` stops the world through that socket — proof that the process is the world of this
// folder — and never signals a process by a number read from a file. It removes only what the
// world wrote (WORLD_LAYOUT), so a file the user put there stays, and the folder with it.
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  rmSync,
  rmdirSync,
  writeFileSync
} from 'node:fs'
import net from 'node:net'
import { tmpdir, userInfo } from 'node:os'
import path from 'node:path'

/** The default folder: one per user in TMPDIR (another user's pre-made one is refused). */
export function defaultWorldDir(): string {
  return path.join(tmpdir(), `aks-rdma-sim-${userInfo().uid}`)
}

/** The marker `sim up` writes first: this folder holds (or held) a world. */
export const MARKER = '.aks-rdma-sim'
/** The socket the running world answers on. */
export const CONTROL_SOCKET = 'control.sock'

/**
 * What a world writes into its folder: files (removed one by one), folders it creates for its own
 * state (the helm and az stand-ins' configuration, the simulated runner's files: removed whole),
 * and folders it creates to hold files (removed only when that leaves them empty).
 */
export const WORLD_LAYOUT = {
  files: [
    MARKER,
    CONTROL_SOCKET,
    '.env',
    'env.sh',
    'ca.pem',
    'ca-bundle.pem',
    'kubeconfig',
    'bin/helm',
    'bin/az'
  ],
  trees: ['helm', 'azure', 'runner'],
  dirs: ['bin']
} as const

/** Unix socket paths are limited (104 bytes on macOS, 108 on Linux). */
const MAX_SOCKET_PATH = 100

/** A folder `sim up` cannot use; exit 2 with the message. */
export class WorldDirError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'WorldDirError'
  }
}

function currentUid(): number | undefined {
  return typeof process.getuid === 'function' ? process.getuid() : undefined
}

/**
 * Makes `dir` a fresh world folder: creates it with mode 0700, or takes an existing empty folder
 * the current user owns (and sets it to 0700). Refuses a symbolic link, a non-folder, a non-empty
 * folder and one owned by another user with a WorldDirError. `uid` is the owner to expect.
 */
export function prepareWorldDir(dir: string, uid = currentUid()): void {
  if (Buffer.byteLength(path.join(dir, CONTROL_SOCKET)) > MAX_SOCKET_PATH)
    throw new WorldDirError(`--dir ${dir}: too long for the world's control socket; choose a shorter path`)
  let st: ReturnType<typeof lstatSync> | undefined
  try {
    st = lstatSync(dir)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e
  }
  if (!st) {
    mkdirSync(path.dirname(dir), { recursive: true })
    mkdirSync(dir, { mode: 0o700 })
    st = lstatSync(dir)
  } else {
    if (st.isSymbolicLink())
      throw new WorldDirError(`--dir ${dir}: is a symbolic link; give the real folder, or a new one`)
    if (!st.isDirectory()) throw new WorldDirError(`--dir ${dir}: is not a folder`)
    if (uid !== undefined && st.uid !== uid)
      throw new WorldDirError(
        `--dir ${dir}: is owned by another user (uid ${st.uid}); it may hold files planted for a later run. Use a folder of your own, or a new one`
      )
    const entries = readdirSync(dir)
    if (entries.length)
      throw new WorldDirError(
        `--dir ${dir}: is not empty (${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}); sim up writes only into a new or empty folder, so it never overwrites your files. Give a new folder`
      )
  }
  chmodSync(dir, 0o700)
  writeFileSync(
    path.join(dir, MARKER),
    `${JSON.stringify({ pid: process.pid, started: new Date().toISOString() })}\n`,
    {
      flag: 'wx',
      mode: 0o600
    }
  )
}

/** Writes a new file in a world folder: never over an existing file or through a link. */
export function writeNewFile(file: string, content: string, mode = 0o600): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 })
  writeFileSync(file, content, { flag: 'wx', mode })
  chmodSync(file, mode)
}

/** Whether `dir` is a world folder (its marker, a regular file, is there). */
export function isWorldDir(dir: string): boolean {
  try {
    return lstatSync(path.join(dir, MARKER)).isFile()
  } catch {
    return false
  }
}

/** Answers `stop` on the folder's control socket: calls `stop`, then says `stopped` when it resolves. */
export function listenForStop(dir: string, stop: () => Promise<void>): Promise<net.Server> {
  const server = net.createServer(socket => {
    socket.setEncoding('utf8')
    let asked = ''
    socket.on('data', (chunk: string) => {
      asked += chunk
      if (!asked.includes('\n')) return
      if (asked.trim() !== 'stop') {
        socket.end('unknown request\n')
        return
      }
      socket.write('stopping\n')
      void stop().then(
        () => socket.end('stopped\n'),
        e => socket.end(`failed: ${(e as Error).message}\n`)
      )
    })
    socket.on('error', () => undefined)
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(path.join(dir, CONTROL_SOCKET), () => resolve(server))
  })
}

/**
 * Asks the world of `dir` to stop through its control socket: `stopped` when it did, `none` when
 * no world answers (none started, or it died without cleaning up).
 */
export function askToStop(dir: string, timeoutMs = 60_000): Promise<'stopped' | 'none'> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(path.join(dir, CONTROL_SOCKET))
    let answer = ''
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`the world in ${dir} did not stop within ${timeoutMs / 1000}s`))
    }, timeoutMs)
    socket.setEncoding('utf8')
    socket.on('connect', () => socket.write('stop\n'))
    socket.on('data', (chunk: string) => (answer += chunk))
    socket.on('error', e => {
      clearTimeout(timer)
      const code = (e as NodeJS.ErrnoException).code
      if (code === 'ENOENT' || code === 'ECONNREFUSED') resolve('none')
      else reject(e)
    })
    socket.on('close', () => {
      clearTimeout(timer)
      if (/^stopped$/m.test(answer)) resolve('stopped')
      else if (/^failed: /m.test(answer)) reject(new Error(`the world in ${dir} ${answer.trim()}`))
      else resolve('none')
    })
  })
}

/** Whether a world is running in `dir` (its control socket answers). */
export function worldRunning(dir: string): Promise<boolean> {
  return new Promise(resolve => {
    if (!existsSync(path.join(dir, CONTROL_SOCKET))) return resolve(false)
    const socket = net.connect(path.join(dir, CONTROL_SOCKET))
    socket.on('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.on('error', () => resolve(false))
  })
}

/**
 * Removes what the world wrote into `dir` (WORLD_LAYOUT) and nothing else: a file the user added,
 * also inside bin/, stays, and so does the folder holding it. Returns what was left behind.
 */
export function removeWorldFiles(dir: string): string[] {
  for (const f of WORLD_LAYOUT.files) rmSync(path.join(dir, f), { force: true })
  for (const t of WORLD_LAYOUT.trees) {
    const p = path.join(dir, t)
    // A link where a state folder should be is removed as a link, never followed.
    rmSync(p, { recursive: true, force: true })
  }
  for (const d of WORLD_LAYOUT.dirs) {
    try {
      rmdirSync(path.join(dir, d))
    } catch {
      /* absent, or holds the user's files */
    }
  }
  let left: string[] = []
  try {
    left = readdirSync(dir, { recursive: true }).map(String).sort()
    if (!left.length) rmdirSync(dir)
  } catch {
    /* already gone */
  }
  return left
}
