// A container's files as the shell model sees them: its own (container-local: what it writes, its
// termination log, /tmp) over the host files its mounts reach, directories implied by the paths of
// files (plus the usual image directories), and the file tools that work on them — `ls` beyond
// /sys and /dev, `mkdir`, `touch`, `rm`, `test -d`, and `tar` (ustar, create `cf - PATH…` and
// extract `xf - [-C DIR]`, the two forms `kubectl cp` runs through exec). A tar archive travels as
// bytes: the shell's text output / input carry it as latin1 (one char per byte).
import type { Command, CommandResult } from './shell.js'

/** Directories every container image has. */
const IMAGE_DIRS = [
  '/',
  '/tmp',
  '/root',
  '/etc',
  '/dev',
  '/proc',
  '/sys',
  '/var',
  '/usr',
  '/bin',
  '/home',
  '/run',
  '/opt'
]

export interface ContainerFs {
  /** Files the container wrote (path → content). */
  own: Map<string, string>
  /** A host file the container's mounts reach (or undefined). */
  hostFile?(path: string): string | undefined
}

export function normalize(path: string, cwd = '/'): string {
  const abs = path.startsWith('/') ? path : `${cwd.replace(/\/$/, '')}/${path}`
  const out: string[] = []
  for (const part of abs.split('/')) {
    if (!part || part === '.') continue
    if (part === '..') out.pop()
    else out.push(part)
  }
  return `/${out.join('/')}`
}

export function readFile(fs: ContainerFs, path: string): string | undefined {
  const p = normalize(path)
  return fs.own.get(p) ?? fs.hostFile?.(p)
}

export function isDir(fs: ContainerFs, path: string): boolean {
  const p = normalize(path)
  if (IMAGE_DIRS.includes(p) || fs.own.get(`${p}/`) !== undefined) return true
  const prefix = p === '/' ? '/' : `${p}/`
  return [...fs.own.keys()].some(k => k.startsWith(prefix))
}

/** The names directly under a directory (files and subdirectories), sorted. */
export function listDir(fs: ContainerFs, path: string): string[] {
  const p = normalize(path)
  const prefix = p === '/' ? '/' : `${p}/`
  const names = new Set<string>()
  for (const k of fs.own.keys()) {
    if (!k.startsWith(prefix)) continue
    const rest = k.slice(prefix.length).replace(/\/$/, '')
    if (rest) names.add(rest.split('/')[0])
  }
  if (p === '/') for (const d of IMAGE_DIRS.slice(1)) names.add(d.slice(1))
  return [...names].sort()
}

// ---- ustar -------------------------------------------------------------------------------------

function header(name: string, size: number, type: '0' | '5', mtime: number): Buffer {
  const h = Buffer.alloc(512)
  const put = (s: string, at: number, len: number) => h.write(s.slice(0, len), at, len, 'latin1')
  const octal = (n: number, len: number) => n.toString(8).padStart(len - 1, '0') + '\0'
  put(name, 0, 100)
  put(octal(type === '5' ? 0o755 : 0o644, 8), 100, 8)
  put(octal(0, 8), 108, 8)
  put(octal(0, 8), 116, 8)
  put(octal(size, 12), 124, 12)
  put(octal(Math.floor(mtime / 1000), 12), 136, 12)
  put('        ', 148, 8)
  put(type, 156, 1)
  put('ustar\0', 257, 6)
  put('00', 263, 2)
  let sum = 0
  for (const b of h) sum += b
  put(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8)
  return h
}

/** A tar archive of files (relative names → contents; a name ending in `/` is a directory). */
export function tarCreate(entries: Array<[string, string]>, mtime: number): Buffer {
  const parts: Buffer[] = []
  for (const [name, content] of entries) {
    if (name.endsWith('/')) {
      parts.push(header(name, 0, '5', mtime))
      continue
    }
    const data = Buffer.from(content, 'utf8')
    parts.push(header(name, data.length, '0', mtime), data, Buffer.alloc((512 - (data.length % 512)) % 512))
  }
  parts.push(Buffer.alloc(1024))
  return Buffer.concat(parts)
}

/** The entries of a tar archive (regular files and directories). */
export function tarRead(buf: Buffer): Array<{ name: string; dir: boolean; content: string }> {
  const out: Array<{ name: string; dir: boolean; content: string }> = []
  for (let at = 0; at + 512 <= buf.length;) {
    const h = buf.subarray(at, at + 512)
    if (h.every(b => b === 0)) break
    const str = (from: number, len: number) => h.toString('latin1', from, from + len).replace(/\0.*$/s, '')
    const prefix = str(345, 155)
    const name = (prefix ? `${prefix}/` : '') + str(0, 100)
    const size = parseInt(str(124, 12).trim() || '0', 8)
    const type = str(156, 1) || '0'
    at += 512
    const data = buf.subarray(at, at + size)
    at += size + ((512 - (size % 512)) % 512)
    if (type === '5') out.push({ name, dir: true, content: '' })
    else if (type === '0' || type === '\0' || type === '7')
      out.push({ name, dir: false, content: data.toString('utf8') })
  }
  return out
}

// ---- commands ----------------------------------------------------------------------------------

function tarCommand(fs: ContainerFs, now: () => number): Command {
  return (argv, stdin, io) => {
    let flags = ''
    let dir = '/'
    const paths: string[] = []
    const args = argv.slice(1)
    for (let i = 0; i < args.length; i++) {
      const a = args[i]
      if (a === '-C') dir = args[++i] ?? '/'
      else if (a === '-' || a.startsWith('--')) continue
      else if (!flags && /^-?[a-zA-Z]+$/.test(a)) flags = a.replace(/^-/, '')
      else paths.push(a)
    }
    if (flags.includes('x')) return tarExtract(fs, Buffer.from(stdin, 'latin1'), dir)
    if (!flags.includes('c')) return { err: 'tar: You must specify one of the options\n', code: 2 }
    return tarCreateCommand(fs, paths, dir, now(), io)
  }
}

function tarExtract(fs: ContainerFs, archive: Buffer, dir: string): CommandResult {
  if (!isDir(fs, dir)) return { err: `tar: ${dir}: Cannot open: No such file or directory\n`, code: 2 }
  for (const e of tarRead(archive)) {
    const p = normalize(e.name, normalize(dir))
    if (e.dir) fs.own.set(`${p}/`, '')
    else fs.own.set(p, e.content)
  }
  return { code: 0 }
}

function tarCreateCommand(
  fs: ContainerFs,
  paths: string[],
  dir: string,
  mtime: number,
  io: { out(text: string): void; outBytes?(b: Buffer): void }
): CommandResult {
  const entries: Array<[string, string]> = []
  let err = ''
  for (const raw of paths) {
    const p = normalize(raw, normalize(dir))
    const name = raw.replace(/^\/+/, '')
    const file = readFile(fs, p)
    if (file !== undefined) entries.push([name, file])
    else if (isDir(fs, p)) {
      entries.push([`${name.replace(/\/$/, '')}/`, ''])
      for (const k of [...fs.own.keys()].sort())
        if (k.startsWith(`${p}/`) && !k.endsWith('/'))
          entries.push([`${name.replace(/\/$/, '')}/${k.slice(p.length + 1)}`, fs.own.get(k)!])
    } else err += `tar: ${raw}: Cannot stat: No such file or directory\n`
  }
  if (paths.some(p => p.startsWith('/'))) err = "tar: Removing leading `/' from member names\n" + err
  const archive = tarCreate(entries, mtime)
  if (io.outBytes) io.outBytes(archive)
  else io.out(archive.toString('latin1'))
  return { err, code: err.includes('Cannot stat') ? 2 : 0 }
}

/** File tools over the container's files; `ls` of other paths falls to `fallbackLs`. */
export function fileCommands(
  fs: ContainerFs,
  now: () => number,
  fallbackLs?: Command
): Record<string, Command> {
  return {
    tar: tarCommand(fs, now),
    mkdir: argv => {
      for (const p of argv.slice(1).filter(a => !a.startsWith('-'))) fs.own.set(`${normalize(p)}/`, '')
      return { code: 0 }
    },
    touch: argv => {
      for (const p of argv.slice(1).filter(a => !a.startsWith('-')))
        if (readFile(fs, p) === undefined) fs.own.set(normalize(p), '')
      return { code: 0 }
    },
    rm: argv => {
      const recursive = argv.some(a => /^-[a-zA-Z]*r/.test(a))
      for (const raw of argv.slice(1).filter(a => !a.startsWith('-'))) {
        const p = normalize(raw)
        fs.own.delete(p)
        if (recursive)
          for (const k of [...fs.own.keys()]) if (k === `${p}/` || k.startsWith(`${p}/`)) fs.own.delete(k)
      }
      return { code: 0 }
    },
    ls: (argv, stdin, io, env) => {
      const p = argv.slice(1).filter(a => !a.startsWith('-'))[0] ?? '/'
      if ((p.startsWith('/sys') || p.startsWith('/dev')) && fallbackLs)
        return fallbackLs(argv, stdin, io, env)
      if (readFile(fs, p) !== undefined) return { out: `${p}\n`, code: 0 }
      if (!isDir(fs, p)) return { err: `ls: cannot access '${p}': No such file or directory\n`, code: 2 }
      return {
        out: listDir(fs, p)
          .map(n => `${n}\n`)
          .join(''),
        code: 0
      }
    }
  }
}
