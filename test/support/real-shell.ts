// Runs a container's shell script two ways against the same fake node, to judge the simulator's
// shell by a real one: (1) in the simulator's shell (sim/kube/workloads/shell.ts) with the
// simulator's host tools, wired as sim/kube/workloads shellWorkloads wires them; (2) in the real
// POSIX shell of this machine (/bin/sh: dash on Ubuntu) in a fake root, with stubs first on PATH:
// nsenter (records its options, runs the command after `--`), sleep (records, returns at once),
// and the node tools (ibstat, lsmod, modprobe, systemctl, …) answered by the simulator's own
// implementations through test/support/host-tool-stub.ts, so both runs see identical tools and
// differ only in the shell. Real coreutils (ls, cat, grep, seq, mkdir) do the rest.
//
// The fake root: the script's absolute host paths (/etc/, /dev/, /proc/, /sys/, /host/, /tmp/)
// get the fake root's path put in front of them, in the test only (the shipped text is checked to
// be what remains once that prefix is taken out again). The node's /sys is the simulator's sysfs
// tree (sim/kube/workloads/sysfs.ts) built on disk, symbolic links included, so real ls, cat,
// readlink, dirname and basename read what the simulator's do. What the container writes outside
// the host (its termination log, /tmp) is the container's own in both runs. A prefix rather than chroot/unshare: user
// namespaces are often refused (Ubuntu 24.04 runners restrict them), and a prefix keeps every
// shell construct as it ships. `host` in the fake root links to the fake root itself, as the
// device plugin's hostPath mount of /etc/modules-load.d at /host/etc/modules-load.d does.
import { build } from 'esbuild'
import { spawn } from 'node:child_process'
import * as fs from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { ContainerView } from '../../sim/kube/controllers/behaviour.js'
import type { NodeHardware } from '../../sim/kube/hardware.js'
import { hostPathOf } from '../../sim/kube/workloads/index.js'
import { hostCommands, type PodView } from '../../sim/kube/workloads/host-tools.js'
import { type Command, Shell } from '../../sim/kube/workloads/shell.js'
import { sysfsTree } from '../../sim/kube/workloads/sysfs.js'
import { writeHostProcFiles } from './fake-proc.js'

/** The node tools answered by the simulator's implementations in both runs. */
export const NODE_TOOLS = [
  'ibstat',
  'ibstatus',
  'ibv_devinfo',
  'ibv_devices',
  'rdma',
  'lsmod',
  'modprobe',
  'systemctl',
  'nvidia-smi'
]

export interface ScriptCase {
  /** The container's `sh -c` script, as the action ships it. */
  script: string
  /** The pod (for hostPath mounts) and the container running the script. */
  pod: any
  container: any
  hw: NodeHardware
  /**
   * The container requests the action's rdma/* resource: it gets the node's InfiniBand devices (what
   * the action's device plugin config selects); a privileged container gets every device.
   */
  rdmaDevices: boolean
  /** After the Nth sleep, this host file appears (another pod finished its work meanwhile). */
  onSleep?: { after: number; hostPath: string; content: string }
  /** A program that fails its first `failures` runs, then succeeds (e.g. a perftest client). */
  flaky?: { name: string; failures: number; err: string }
}

export interface ScriptRun {
  code: number
  /** stdout and stderr as one log, in the order they were written (a container log). */
  log: string
  /** Each node tool call: [tool, ...args]. */
  calls: string[][]
  /** Each sleep's argument. */
  sleeps: string[]
  /** Runs of the flaky program, with their arguments. */
  flakyRuns: string[][]
  /** Node state afterwards. */
  state: Pick<
    NodeHardware,
    | 'ibModulesLoaded'
    | 'memlockUnlimited'
    | 'kubeletMemlockUnlimited'
    | 'kubeletRestarts'
    | 'containerdRestarts'
  >
  /** Host files under /etc and /run afterwards. */
  files: Record<string, string>
  /** What the container left in its termination log (/dev/termination-log), if anything. */
  terminationLog?: string
}

function stateOf(hw: NodeHardware): ScriptRun['state'] {
  return {
    ibModulesLoaded: hw.ibModulesLoaded,
    memlockUnlimited: hw.memlockUnlimited,
    kubeletMemlockUnlimited: hw.kubeletMemlockUnlimited,
    kubeletRestarts: hw.kubeletRestarts,
    containerdRestarts: hw.containerdRestarts
  }
}

function privileged(c: any): boolean {
  return !!c.securityContext?.privileged
}

/** The devices whose /dev/infiniband files the container has (see ScriptCase.rdmaDevices). */
function allocated(k: ScriptCase): NodeHardware['nics'] {
  if (privileged(k.container)) return k.hw.nics
  return k.rdmaDevices ? k.hw.nics.filter(n => n.linkLayer === 'InfiniBand') : []
}

// ---- the simulator's shell -------------------------------------------------------------------

export async function runInSimShell(k: ScriptCase): Promise<ScriptRun> {
  const hw: NodeHardware = structuredClone(k.hw)
  const c: ContainerView = {
    name: k.container.name,
    image: k.container.image,
    init: false,
    spec: k.container
  }
  const own = new Map<string, string>()
  const readFile = (p: string): string | undefined => {
    if (own.has(p)) return own.get(p)
    const host = hostPathOf(k.pod, c, p)
    return host === undefined ? undefined : hw.files[host]
  }
  const local = (p: string) =>
    p === '/dev/termination-log' || p.startsWith('/tmp/') || !privileged(k.container)
  const view: PodView = {
    hw,
    podName: k.pod.metadata.name,
    verbsDevices: hw.nics.filter(n => allocated(k).some(a => a.name === n.name)),
    gpus: privileged(k.container),
    readFile,
    ...(privileged(k.container) ? { host: { mutate: fn => fn(hw), now: () => 0 } } : {})
  }
  const calls: string[][] = []
  const flakyRuns: string[][] = []
  const commands: Record<string, Command> = {}
  for (const [name, impl] of Object.entries(hostCommands(view)))
    commands[name] = NODE_TOOLS.includes(name)
      ? (argv, stdin, io, env) => {
          calls.push([...argv])
          return impl(argv, stdin, io, env)
        }
      : impl
  if (k.flaky) {
    const f = k.flaky
    commands[f.name] = argv => {
      flakyRuns.push(argv.slice(1))
      return flakyRuns.length > f.failures ? { code: 0 } : { err: f.err, code: 1 }
    }
  }
  let log = ''
  const sleeps: string[] = []
  const shell = new Shell({
    commands,
    env: {
      HOSTNAME: k.pod.metadata.name,
      HOME: '/root',
      PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'
    },
    io: { out: t => (log += t), err: t => (log += t) },
    sleep: async ms => {
      sleeps.push(ms === Infinity ? 'infinity' : String(ms / 1000))
      if (k.onSleep && sleeps.length === k.onSleep.after) hw.files[k.onSleep.hostPath] = k.onSleep.content
    },
    aborted: () => false,
    fileExists: p => readFile(p) !== undefined,
    writeFile: (p: string, content: string, append: boolean) => {
      if (local(p)) own.set(p, (append ? (own.get(p) ?? '') : '') + content)
      else hw.files[p] = (append ? (hw.files[p] ?? '') : '') + content
    }
  })
  const code = await shell.run(k.script)
  const files = Object.fromEntries(
    Object.entries(hw.files).filter(([p]) => p.startsWith('/etc/') || p.startsWith('/run/'))
  )
  const terminationLog = own.get('/dev/termination-log')
  return {
    code,
    log,
    calls,
    sleeps,
    flakyRuns,
    state: stateOf(hw),
    files,
    ...(terminationLog !== undefined ? { terminationLog } : {})
  }
}

// ---- the real shell ---------------------------------------------------------------------------

const BANNER = [
  "import { createRequire as __cr } from 'node:module';",
  'const require = __cr(import.meta.url);'
].join('\n')

let stubBundle: Promise<string> | undefined

/** test/support/host-tool-stub.ts bundled once per test file. */
function hostToolStub(): Promise<string> {
  stubBundle ??= (async () => {
    const dir = fs.mkdtempSync(path.join(tmpdir(), 'host-tool-stub-'))
    const out = path.join(dir, 'host-tool-stub.mjs')
    await build({
      entryPoints: [path.resolve(process.cwd(), 'test/support/host-tool-stub.ts')],
      outfile: out,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'error',
      banner: { js: BANNER }
    })
    return out
  })()
  return stubBundle
}

/** Host path prefixes the shipped scripts use, which the real run redirects into the fake root. */
const HOST_PREFIXES = ['/etc/', '/dev/', '/proc/', '/sys/', '/host/', '/tmp/', '/run/']

/** The script with `root` in front of every absolute host path (only where a path starts). */
export function underRoot(script: string, root: string): string {
  const re = new RegExp(`(^|[\\s'"=>(])(${HOST_PREFIXES.map(p => p.replace(/\//g, '\\/')).join('|')})`, 'g')
  return script.replace(re, (_m, before: string, prefix: string) => `${before}${root}${prefix}`)
}

function sq(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`
}

function executable(file: string, text: string): void {
  fs.writeFileSync(file, text)
  fs.chmodSync(file, 0o755)
}

function walk(root: string, dir: string, out: Record<string, string>): Record<string, string> {
  if (!fs.existsSync(dir)) return out
  for (const name of fs.readdirSync(dir)) {
    const full = path.join(dir, name)
    if (fs.statSync(full).isDirectory()) walk(root, full, out)
    else out['/' + path.relative(root, full).split(path.sep).join('/')] = fs.readFileSync(full, 'utf8')
  }
  return out
}

function lines(file: string): string[] {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : []
}

/** One entry per line written, empty lines (a run without arguments) included. */
function runLines(file: string): string[] {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').slice(0, -1) : []
}

/** The memlock limit the real shell runs with (what containerd gives the container). */
export function memlockOf(hw: NodeHardware): string {
  return hw.memlockUnlimited ? 'unlimited' : String(hw.memlockDefaultKiB)
}

export async function runInRealShell(
  k: ScriptCase,
  shell = '/bin/sh'
): Promise<ScriptRun & { rewritten: string; root: string }> {
  const stub = await hostToolStub()
  const base = fs.mkdtempSync(path.join(tmpdir(), 'real-shell-'))
  const root = path.join(base, 'root')
  const bin = path.join(base, 'bin')
  const rec = path.join(base, 'rec')
  for (const d of [root, bin, rec]) fs.mkdirSync(d, { recursive: true })

  // The fake node: host files, /proc/modules, /dev/infiniband, the folders an Ubuntu node has.
  for (const [p, content] of Object.entries(k.hw.files)) {
    fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true })
    fs.writeFileSync(path.join(root, p), content)
  }
  for (const d of [
    'etc/security/limits.d',
    'etc/systemd/system',
    'etc/modules-load.d',
    'proc',
    'sys',
    'dev',
    'tmp'
  ])
    fs.mkdirSync(path.join(root, d), { recursive: true })
  // The node's sysfs: files, and links pointing inside the fake root.
  const sys = sysfsTree(k.hw)
  for (const [p, content] of sys.files) {
    fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true })
    fs.writeFileSync(path.join(root, p), content)
  }
  for (const [p, target] of sys.links) {
    fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true })
    fs.symlinkSync(path.join(root, target), path.join(root, p))
  }
  writeHostProcFiles(root, k.hw)
  const devices = allocated(k)
  if (devices.length) {
    fs.mkdirSync(path.join(root, 'dev/infiniband'), { recursive: true })
    const index = (n: (typeof devices)[number]) => k.hw.nics.findIndex(x => x.name === n.name)
    const devs = ['rdma_cm', ...devices.map(n => `uverbs${index(n)}`)]
    if (k.hw.ibModulesLoaded) devs.push(...devices.map(n => `umad${index(n)}`))
    for (const d of devs) fs.writeFileSync(path.join(root, 'dev/infiniband', d), '')
  }
  fs.symlinkSync('.', path.join(root, 'host'))
  const { files: _f, ...state } = k.hw
  fs.writeFileSync(path.join(rec, 'node.json'), JSON.stringify(state))

  // Stubs first on PATH.
  for (const tool of NODE_TOOLS)
    executable(path.join(bin, tool), `#!/bin/sh\nexec ${sq(process.execPath)} ${sq(stub)} ${tool} "$@"\n`)
  executable(
    path.join(bin, 'nsenter'),
    [
      '#!/bin/sh',
      'opts=""',
      'while [ $# -gt 0 ] && [ "$1" != "--" ]; do opts="$opts $1"; shift; done',
      `echo "\${opts# }" >> ${sq(path.join(rec, 'nsenter'))}`,
      '[ "$1" = "--" ] && shift',
      'exec "$@"',
      ''
    ].join('\n')
  )
  const onSleep = k.onSleep
    ? [
        `n=$(wc -l < ${sq(path.join(rec, 'sleep'))})`,
        `if [ "$n" -eq ${k.onSleep.after} ]; then`,
        `  mkdir -p ${sq(path.dirname(path.join(root, k.onSleep.hostPath)))}`,
        `  printf %s ${sq(k.onSleep.content)} > ${sq(path.join(root, k.onSleep.hostPath))}`,
        'fi'
      ]
    : []
  executable(
    path.join(bin, 'sleep'),
    ['#!/bin/sh', `echo "$1" >> ${sq(path.join(rec, 'sleep'))}`, ...onSleep, 'exit 0', ''].join('\n')
  )
  if (k.flaky)
    executable(
      path.join(bin, k.flaky.name),
      [
        '#!/bin/sh',
        `printf '%s\\n' "$*" >> ${sq(path.join(rec, 'flaky'))}`,
        `n=$(wc -l < ${sq(path.join(rec, 'flaky'))})`,
        `if [ "$n" -gt ${k.flaky.failures} ]; then exit 0; fi`,
        `printf %s ${sq(k.flaky.err)} >&2`,
        'exit 1',
        ''
      ].join('\n')
    )

  const rewritten = underRoot(k.script, root)
  const logPath = path.join(base, 'log')
  const fd = fs.openSync(logPath, 'w')
  const env = {
    PATH: `${bin}:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin`,
    HOME: '/root',
    HOSTNAME: k.pod.metadata.name,
    FAKE_ROOT: root,
    FAKE_NODE: path.join(rec, 'node.json'),
    FAKE_CALLS: path.join(rec, 'calls'),
    FAKE_VIEW: JSON.stringify({
      podName: k.pod.metadata.name,
      verbsDevices: allocated(k).map(n => n.name),
      gpus: privileged(k.container),
      privileged: privileged(k.container)
    }),
    SCRIPT: rewritten
  }
  // The container's memlock limit (lowering needs no privilege), then the script as `sh -c` runs it.
  const code = await new Promise<number>((resolve, reject) => {
    const child = spawn(
      shell,
      ['-c', `ulimit -l ${memlockOf(k.hw)} || exit 99; exec ${shell} -c "$SCRIPT"`],
      {
        env,
        stdio: ['ignore', fd, fd]
      }
    )
    child.on('error', reject)
    child.on('close', c => resolve(c ?? 128))
  })
  fs.closeSync(fd)
  const after = JSON.parse(fs.readFileSync(path.join(rec, 'node.json'), 'utf8')) as NodeHardware
  const termLog = path.join(root, 'dev/termination-log')
  return {
    ...(fs.existsSync(termLog)
      ? { terminationLog: fs.readFileSync(termLog, 'utf8').split(root).join('') }
      : {}),
    code,
    log: fs.readFileSync(logPath, 'utf8').split(root).join(''),
    calls: lines(path.join(rec, 'calls')).map(l => JSON.parse(l) as string[]),
    sleeps: lines(path.join(rec, 'sleep')),
    flakyRuns: runLines(path.join(rec, 'flaky')).map(l => (l === '' ? [] : l.split(' '))),
    state: stateOf(after),
    files: walk(root, path.join(root, 'run'), walk(root, path.join(root, 'etc'), {})),
    rewritten,
    root
  }
}

/** Whether the real shell can run with the node's memlock limit here (raising it needs privilege). */
export async function canSetMemlock(value: string, shell = '/bin/sh'): Promise<boolean> {
  return new Promise(resolve => {
    const child = spawn(shell, ['-c', `ulimit -l ${value}`], { stdio: 'ignore' })
    child.on('close', c => resolve(c === 0))
    child.on('error', () => resolve(false))
  })
}
