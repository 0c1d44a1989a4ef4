// UCX inside simulated pods: `ucx_info -d` / `-v` and `ucx_perftest` (server and client over pod
// IPs), as openucx/ucx v1.19.0 prints them, over a model of what UCX can do in the pod:
//   - what it finds: an `ib` memory domain per /dev/infiniband device the RDMA device plugin gave
//     the pod (none when the image's UCX lacks verbs), tcp on eth0/lo, cuda_cpy/cuda_ipc when the
//     UCX has CUDA and the pod a GPU; filtered by UCX_TLS (with UCX's aliases) and UCX_NET_DEVICES
//     (names it cannot find are warned about, as ucp_context.c does);
//   - whether it can open an InfiniBand interface: its first CQ (4096 entries) needs more locked
//     memory than 64 KiB — the limit is the container's unless it is root with IPC_LOCK
//     (ucs_sys_get_effective_memlock_rlimit) — and the accelerated-networking Ethernet VF has no
//     RoCE GID to query;
//   - which lane the GET takes (UCX_MAX_RMA_RAILS=1): the one InfiniBand device, or with several
//     the first on the GPU's NUMA node (Azure hides the PCIe switches, so UCX cannot tell the NIC
//     behind the GPU's own switch from its neighbour); tcp when no InfiniBand transport is usable;
//   - how GPU memory reaches the NIC: registered by nvidia_peermem (/sys/module/nvidia_peermem) or
//     by dma-buf (an open-module driver), else staged through host memory ("software emulation");
//   - rates: zero-copy near the link rate × the GPU→NIC PCIe path, host-staged about 30 Gb/s, tcp
//     a few Gb/s; UCX_PROTO_INFO=y prints the protocol table the client selected.
import type { GpuDevice, RdmaNic } from '../hardware.js'
import { containerMemlockKiB, dmabufAvailable, gpuNicPath, unitHash } from '../hardware.js'
import type { PodView } from './host-tools.js'
import type { UcxBuild } from './image-contents.js'
import { GPU_PATH_BANDWIDTH, visibleGpus } from './perftest.js'
import type { Command, CommandResult, ShellIo } from './shell.js'

export const UCX_TOOLS = ['ucx_info', 'ucx_perftest'] as const

/** What UCX sees in one container. */
export interface UcxSide {
  view: PodView
  build: UcxBuild
  uid: number
  /** IPC_LOCK added (or privileged). */
  ipcLock: boolean
  privileged: boolean
  env: Record<string, string>
  podName: string
  podIP(): string | undefined
}

/** Locked memory an rc/dc interface needs at open: its 4096-entry CQs alone take 256 KiB. */
const IFACE_MEMLOCK_KIB = 1024

/** The limit UCX works under (KiB), or null for unlimited: root with IPC_LOCK is not bound by it. */
export function effectiveMemlockKiB(side: UcxSide): number | null {
  if (side.privileged || (side.uid === 0 && side.ipcLock)) return null
  return containerMemlockKiB(side.view.hw)
}

// ---- UCX_TLS and UCX_NET_DEVICES ----

const ALIASES: Record<string, string[]> = {
  sm: ['posix', 'sysv', 'cma'],
  shm: ['posix', 'sysv', 'cma'],
  mm: ['posix', 'sysv'],
  ib: ['rc_verbs', 'ud_verbs', 'rc_mlx5', 'ud_mlx5', 'dc_mlx5'],
  ud_v: ['ud_verbs'],
  ud_x: ['ud_mlx5'],
  ud: ['ud_mlx5', 'ud_verbs'],
  rc_v: ['rc_verbs', 'ud_verbs'],
  rc_x: ['rc_mlx5', 'ud_mlx5'],
  rc: ['rc_mlx5', 'ud_mlx5', 'rc_verbs', 'ud_verbs'],
  dc: ['dc_mlx5', 'ud_mlx5'],
  dc_x: ['dc_mlx5', 'ud_mlx5'],
  cuda: ['cuda_copy', 'cuda_ipc', 'gdr_copy']
}
const ALL_TLS = [
  'self',
  'tcp',
  'posix',
  'sysv',
  'cma',
  'cuda_copy',
  'cuda_ipc',
  'gdr_copy',
  'rc_verbs',
  'rc_mlx5',
  'dc_mlx5',
  'ud_verbs',
  'ud_mlx5'
]

/** The transports UCX_TLS enables (`all`, names, aliases, `^` to exclude). */
export function enabledTransports(tls: string | undefined): Set<string> {
  const v = (tls ?? 'all').trim() || 'all'
  const negate = v.startsWith('^')
  const names = (negate ? v.slice(1) : v).split(',').map(x => x.trim())
  const expanded = new Set(names.flatMap(n => (n === 'all' ? ALL_TLS : (ALIASES[n] ?? [n]))))
  return negate ? new Set(ALL_TLS.filter(t => !expanded.has(t))) : expanded
}

export interface NetDevice {
  /** `mlx5_ib0:1`, `eth0`, `lo` */
  name: string
  component: 'ib' | 'tcp'
  nic?: RdmaNic
}

/** The network devices UCX finds in the pod (before UCX_NET_DEVICES). */
export function podNetDevices(side: UcxSide): NetDevice[] {
  const ib = side.build.verbs
    ? [...side.view.verbsDevices]
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
        .map(nic => ({ name: `${nic.name}:1`, component: 'ib' as const, nic }))
    : []
  return [...ib, { name: 'eth0', component: 'tcp' }, { name: 'lo', component: 'tcp' }]
}

/** The devices UCX_NET_DEVICES keeps, and the warning for names it cannot find (ucp_context.c:1321). */
export function selectNetDevices(side: UcxSide): { devices: NetDevice[]; warning?: string } {
  const all = podNetDevices(side)
  const v = (side.env.UCX_NET_DEVICES ?? 'all').trim()
  const want = v
    .split(',')
    .map(x => x.trim())
    .filter(Boolean)
  if (!want.length || want.includes('all')) return { devices: all }
  const missing = want.filter(w => !all.some(d => d.name === w))
  const devices = all.filter(d => want.includes(d.name))
  if (!missing.length) return { devices }
  const avail = all
    .map(d => `'${d.name}'(${d.component})`)
    .sort()
    .join(', ')
  const warning = `network device${missing.length > 1 ? 's' : ''} ${missing.map(m => `'${m}'`).join(',')} ${missing.length > 1 ? 'are' : 'is'} not available, please use one or more of: ${avail}`
  return { devices, warning }
}

// ---- log lines ----

function logLine(side: UcxSide, source: string, level: 'ERROR' | 'WARN', message: string): string {
  const ts = (1_700_000_000 + unitHash(side.podName) * 1e6).toFixed(6)
  const pid = 1000 + Math.floor(unitHash(side.podName + 'pid') * 60000)
  const host = side.podName.slice(0, 40)
  return `[${ts}] [${host}:${pid}:0] ${source.padStart(17)} UCX  ${level.padEnd(5)} ${message}`
}

/** Why an InfiniBand interface of the device will not open in this container, as UCX logs it. */
function ifaceOpenError(side: UcxSide, nic: RdmaNic): string | undefined {
  if (nic.linkLayer === 'Ethernet')
    return logLine(
      side,
      'ib_device.c:908',
      'ERROR',
      `ibv_query_gid(dev=${nic.name} port=1 index=0) failed: Invalid argument`
    )
  const limit = effectiveMemlockKiB(side)
  if (limit !== null && limit < IFACE_MEMLOCK_KIB)
    return logLine(
      side,
      'ib_iface.c:1317',
      'ERROR',
      `${nic.name}: ibv_create_cq(cqe=4096) failed: Cannot allocate memory : Please set max locked memory (ulimit -l) to 'unlimited' (current: ${limit} kbytes)`
    )
  return undefined
}

// ---- ucx_info ----

function capabilityLines(tl: string, nic: RdmaNic | undefined): string[] {
  const bw = nic ? (nic.gbps * 1e9) / 8 / 2 ** 20 : tl === 'tcp' ? 4768.37 : 0
  const lines = [
    '#      capabilities:',
    `#            bandwidth: ${nic ? '0.00' : bw.toFixed(2)}/ppn + ${nic ? bw.toFixed(2) : '0.00'} MB/sec`,
    `#              latency: ${nic ? (tl.startsWith('dc') ? '660' : '600') : '10960'} nsec`,
    `#             overhead: ${nic ? '40' : '50000'} nsec`
  ]
  if (nic && !tl.startsWith('ud'))
    lines.push(
      '#            put_zcopy: <= 1G, up to 8 iov',
      '#  put_opt_zcopy_align: <= 512',
      '#        put_align_mtu: <= 4K',
      '#            get_zcopy: 65..1G, up to 8 iov',
      '#  get_opt_zcopy_align: <= 512',
      '#        get_align_mtu: <= 4K'
    )
  lines.push(
    '#             am_short: <= 2046',
    '#             am_bcopy: <= 8254',
    `#           connection: ${tl.startsWith('rc') ? 'to ep' : 'to iface'}`,
    `#      device priority: ${nic ? 50 : 1}`,
    '#     device num paths: 1',
    `#              max eps: ${tl.startsWith('rc') ? '256' : 'inf'}`,
    '#'
  )
  return lines
}

function mdBlock(name: string, component: string, head: string[], transports: TlEntry[]): string[] {
  const out = ['#', `# Memory domain: ${name}`, `#     Component: ${component}`, ...head]
  for (const t of transports) {
    out.push(
      `#      Transport: ${t.tl}`,
      `#         Device: ${t.device}`,
      `#           Type: ${t.type}`,
      `#  System device: ${t.sysdev}`,
      '#',
      ...(t.lines ?? ['#   < failed to open interface >'])
    )
  }
  return out
}

/** A UCX ternary/on-off value that turns a feature off (`no`, `n`, `off`, `0`; ucs_config_sscanf_ternary). */
function turnedOff(v: string | undefined): boolean {
  return v !== undefined && /^(no|n|off|0)$/i.test(v.trim())
}

/**
 * Can the ib memory domain register GPU memory: nvidia_peermem (memory type cuda; not with
 * UCX_IB_GPU_DIRECT_RDMA=no, which skips the peer-memory driver check) or dma-buf (the GPU driver's
 * open kernel modules export it; not with UCX_CUDA_COPY_DMABUF=no).
 */
function gpuRegistration(side: UcxSide): { peermem: boolean; dmabuf: boolean } {
  const hw = side.view.hw
  return {
    peermem: hw.nvidiaPeermemLoaded && !turnedOff(side.env.UCX_IB_GPU_DIRECT_RDMA),
    dmabuf:
      side.build.cuda &&
      dmabufAvailable(hw) &&
      !turnedOff(side.env.UCX_CUDA_COPY_DMABUF) &&
      visibleGpus(side.view).length > 0
  }
}

interface TlEntry {
  tl: string
  device: string
  type: string
  sysdev: string
  /** The capability lines; absent when the interface does not open. */
  lines?: string[]
}

/** A transport on a device with no NIC behind it (self, tcp, cuda). */
function plainTl(tl: string, device: string, type: string, sysdev = '<unknown>'): TlEntry {
  return { tl, device, type, sysdev, lines: capabilityLines(tl, undefined) }
}

const HOST_ONLY = [
  '#             register: unlimited, cost: 0 nsec',
  '#           remote key: 0 bytes',
  '#         memory types: host (access,reg_nonblock,reg,cache)'
]

/** The CUDA domains (a UCX built with CUDA, in a pod with a GPU). */
function cudaDomains(side: UcxSide): string[] {
  if (!side.build.cuda || !visibleGpus(side.view).length) return []
  const dmabuf = gpuRegistration(side).dmabuf ? ',dmabuf' : ''
  return [
    ...mdBlock(
      'cuda_cpy',
      'cuda_cpy',
      [
        '#             allocate: unlimited',
        '#             register: unlimited, cost: 0 nsec',
        `#         memory types: host (access,reg), cuda (access,alloc,reg,detect${dmabuf}), cuda-managed (access,alloc,reg,cache,detect)`
      ],
      [plainTl('cuda_copy', 'cuda', 'accelerator', 'GPU0 (0)')]
    ),
    ...mdBlock(
      'cuda_ipc',
      'cuda_ipc',
      [
        '#             register: unlimited, cost: 0 nsec',
        '#           remote key: 112 bytes',
        '#         memory types: cuda (access,reg,cache)'
      ],
      [plainTl('cuda_ipc', 'cuda', 'intra-node', 'GPU0 (0)')]
    )
  ]
}

/** One ib domain per device the pod can open; its interfaces, or why they do not open (on `err`). */
function ibDomains(side: UcxSide, err: string[]): string[] {
  const peermem = gpuRegistration(side).peermem
  return podNetDevices(side)
    .filter(d => d.component === 'ib')
    .flatMap((d, k) => {
      const nic = d.nic!
      const problem = ifaceOpenError(side, nic)
      if (problem) err.push(problem)
      return mdBlock(
        nic.name,
        'ib',
        [
          '#             register: unlimited, dmabuf, cost: 16000 + 0.060 * N nsec',
          '#           remote key: 8 bytes',
          '#           local memory handle is required for zcopy',
          `#         memory types: host (access,reg,cache)${peermem ? ', cuda (reg,cache)' : ''}`
        ],
        ['rc_verbs', 'rc_mlx5', 'dc_mlx5', 'ud_verbs', 'ud_mlx5'].map(tl => ({
          tl,
          device: d.name,
          type: 'network',
          sysdev: `${nic.name} (${k + 1})`,
          ...(problem ? {} : { lines: capabilityLines(tl, nic) })
        }))
      )
    })
}

/** `ucx_info -d`: every memory domain and its transports; `< failed to open interface >` where one cannot open. */
export function ucxInfoDevices(side: UcxSide): { out: string; err: string } {
  const err: string[] = []
  const out = [
    ...mdBlock('self', 'self', HOST_ONLY, [plainTl('self', 'memory', 'loopback')]),
    ...mdBlock('tcp', 'tcp', HOST_ONLY, [plainTl('tcp', 'eth0', 'network'), plainTl('tcp', 'lo', 'network')]),
    ...cudaDomains(side),
    ...ibDomains(side, err),
    '#',
    '# Memory domain: cma',
    '#     Component: cma',
    '#             register: unlimited, cost: 9 nsec',
    '#         memory types: host (access,reg_nonblock,reg,cache)'
  ]
  return { out: out.join('\n') + '\n', err: err.map(l => l + '\n').join('') }
}

function ucxInfoVersion(side: UcxSide): string {
  const flags = [
    '--prefix=/usr/local/ucx',
    '--enable-shared',
    '--disable-static',
    '--enable-optimizations',
    '--enable-cma',
    ...(side.build.cuda ? ['--with-cuda=/usr/local/cuda'] : []),
    ...(side.build.verbs ? ['--with-verbs', '--with-dm'] : []),
    ...(side.build.cuda ? ['--with-gdrcopy=/usr/local'] : []),
    '--enable-mt'
  ]
  return (
    [
      `# Library version: ${side.build.version}`,
      '# Library path: /usr/local/ucx/lib/libucs.so.0',
      `# API headers version: ${side.build.version}`,
      `# Git branch '', revision ${side.build.version === '1.19.0' ? '8f1b8a0' : 'unknown'}`,
      `# Configured with: ${flags.join(' ')}`
    ].join('\n') + '\n'
  )
}

export function ucxInfoCommand(side: () => UcxSide): Command {
  return argv => {
    const s = side()
    if (argv.includes('-v')) return { out: ucxInfoVersion(s), code: 0 }
    if (argv.includes('-d')) {
      const r = ucxInfoDevices(s)
      return { out: r.out, err: r.err, code: 0 }
    }
    return { err: 'Usage: ucx_info [options]\n', code: 1 }
  }
}

// ---- ucx_perftest ----

export interface PerfParams {
  test: string
  sendMem: string
  recvMem: string
  size: number
  iterations: number
  warmup: number
  port: number
  server?: string
}

const TESTS: Record<string, { desc: string; lat: boolean; column: string }> = {
  ucp_get: { desc: 'get latency / bandwidth / message rate', lat: false, column: 'latency' },
  ucp_put_bw: { desc: 'put bandwidth', lat: false, column: 'overhead' },
  tag_bw: { desc: 'tag match bandwidth', lat: false, column: 'overhead' },
  tag_lat: { desc: 'tag match latency', lat: true, column: 'latency' },
  ucp_put_lat: { desc: 'put latency', lat: true, column: 'latency' }
}

export function parsePerfArgv(argv: string[]): PerfParams | string {
  const p: PerfParams = {
    test: 'tag_lat',
    sendMem: 'host',
    recvMem: 'host',
    size: 8,
    iterations: 1000,
    warmup: 100,
    port: 13337
  }
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i]
    const v = () => argv[++i] ?? ''
    if (a === '-t') p.test = v()
    else if (a === '-m') {
      const [s, r] = v().split(',')
      p.sendMem = s
      p.recvMem = r ?? s
    } else if (a === '-s') p.size = Number(v())
    else if (a === '-n') p.iterations = Number(v())
    else if (a === '-w') p.warmup = Number(v())
    else if (a === '-p') p.port = Number(v())
    else if (a.startsWith('-')) return `invalid option -- '${a.slice(1)}'`
    else p.server = a
  }
  if (!TESTS[p.test]) return `invalid test name: '${p.test}'`
  for (const m of [p.sendMem, p.recvMem])
    if (
      ![
        'host',
        'cuda',
        'cuda-managed',
        'rocm',
        'rocm-managed',
        'rdma',
        'ze-host',
        'ze-device',
        'ze-managed'
      ].includes(m)
    )
      return `unsupported memory type: "${m}"`
  return p
}

const RULE =
  '+--------------+--------------+----------+---------+---------+----------+----------+-----------+-----------+'

function resultsHeader(p: PerfParams): string[] {
  const column = TESTS[p.test].column
  return [
    '+--------------+--------------+------------------------------+---------------------+-----------------------+',
    `|              |              |       ${column.padStart(8)} (usec)        |   bandwidth (MB/s)  |  message rate (msg/s) |`,
    RULE,
    '|    Stage     | # iterations | 50.0%ile | average | overall |  average |  overall |  average  |  overall  |',
    RULE
  ]
}

function testBox(p: PerfParams): string[] {
  const row = (k: string, v: string) => `| ${k.padEnd(13)} ${v.padEnd(60)}                               |`
  return [
    '+----------------------------------------------------------------------------------------------------------+',
    row('API:', 'protocol layer'),
    row('Test:', TESTS[p.test].desc),
    row('Data layout:', '(automatic)'),
    row('Send memory:', p.sendMem),
    row('Recv memory:', p.recvMem),
    row('Message size:', String(p.size)),
    row('Window size:', '32'),
    '+----------------------------------------------------------------------------------------------------------+'
  ]
}

/** `%18.0f %10.3f %9.3f %9.3f %11.2f %10.2f %11.0f %11.0f` after `Final:    `. */
function finalRow(iters: number, latUs: number, mbs: number): string {
  const rate = latUs > 0 ? 1e6 / latUs : 0
  return (
    'Final:    ' +
    [
      iters.toFixed(0).padStart(18),
      latUs.toFixed(3).padStart(10),
      latUs.toFixed(3).padStart(9),
      latUs.toFixed(3).padStart(9),
      mbs.toFixed(2).padStart(11),
      mbs.toFixed(2).padStart(10),
      rate.toFixed(0).padStart(11),
      rate.toFixed(0).padStart(11)
    ].join(' ')
  )
}

/** The protocol table UCX_PROTO_INFO prints for an operation (proto_debug.c's layout). */
export function protoTable(
  endpoint: string,
  operation: string,
  rows: Array<[string, string, string]>
): string[] {
  const w0 = Math.max(endpoint.length, ...rows.map(r => r[0].length))
  let w1 = Math.max(...rows.map(r => r[1].length))
  const w2 = Math.max(...rows.map(r => r[2].length))
  w1 = Math.max(w1, operation.length - w2)
  const sep = (ws: number[]) => '+' + ws.map(w => '-'.repeat(w + 2)).join('+') + '+'
  return [
    sep([w0, w1 + 3 + w2]),
    `| ${endpoint.padStart(w0)} | ${operation.padEnd(w1 + 3 + w2)} |`,
    sep([w0, w1, w2]),
    ...rows.map(r => `| ${r[0].padStart(w0)} | ${r[1].padEnd(w1)} | ${r[2].padEnd(w2)} |`),
    sep([w0, w1, w2])
  ]
}

interface Outcome {
  client: string[]
  server: string[]
  status?: string
  lane?: string
  protocol?: string
  gbps?: number
  latencyUs?: number
}

/** The devices of a side UCX_TLS and UCX_NET_DEVICES leave for inter-node traffic. */
function interNode(side: UcxSide): { ib: NetDevice[]; tcp: boolean; warning?: string } {
  const tls = enabledTransports(side.env.UCX_TLS)
  const sel = selectNetDevices(side)
  const ibTls = ['rc_mlx5', 'rc_verbs', 'dc_mlx5'].some(t => tls.has(t))
  return {
    ib: ibTls ? sel.devices.filter(d => d.component === 'ib') : [],
    tcp: tls.has('tcp') && sel.devices.some(d => d.name === 'eth0'),
    ...(sel.warning ? { warning: sel.warning } : {})
  }
}

/** UCX_MAX_RMA_RAILS=1: the GET's device, the first on the GPU's NUMA node when there are several. */
function getLane(devices: NetDevice[], gpu: GpuDevice | undefined): NetDevice {
  const active = devices.filter(d => (d.nic?.gbps ?? 0) > 0)
  const pool = active.length ? active : devices
  return (gpu && pool.find(d => d.nic?.numaNode === gpu.numaNode)) ?? pool[0]
}

function runOutcome(p: PerfParams, client: UcxSide, server: UcxSide, seed: string): Outcome {
  const o: Outcome = { client: [], server: [] }
  const both: Array<[UcxSide, string[]]> = [
    [client, o.client],
    [server, o.server]
  ]
  const cuda = p.sendMem === 'cuda' || p.recvMem === 'cuda'
  for (const [side, out] of both)
    if (cuda && !(side.build.cuda && visibleGpus(side.view).length))
      out.push(
        logLine(side, 'libperf.c:2161', 'ERROR', `Unsupported memory types ${p.sendMem}<->${p.recvMem}`)
      )
  if (o.client.length || o.server.length) return { ...o, status: 'Unsupported operation' }
  const nets = both.map(([side, out]) => {
    const n = interNode(side)
    if (n.warning) out.push(logLine(side, 'ucp_context.c:1321', 'WARN', n.warning))
    return n
  })
  for (const [k, [side, out]] of both.entries())
    for (const d of nets[k].ib) {
      const e = ifaceOpenError(side, d.nic!)
      if (e) out.push(e)
    }
  if (o.client.some(l => / ERROR /.test(l)) || o.server.some(l => / ERROR /.test(l)))
    return { ...o, status: 'Input/output error' }
  const [c, s] = nets
  const gpuC = visibleGpus(client.view)[0]
  const gpuS = visibleGpus(server.view)[0]
  if (c.ib.length && s.ib.length) {
    const lane = getLane(c.ib, gpuC)
    const remote = getLane(s.ib, gpuS)
    const regC = gpuRegistration(client)
    const regS = gpuRegistration(server)
    const zcopy = !cuda || ((regC.peermem || regC.dmabuf) && (regS.peermem || regS.dmabuf))
    const link = Math.min(lane.nic!.gbps, remote.nic!.gbps)
    const eff = 0.95 + 0.02 * unitHash(seed + 'eff')
    const path = (g: GpuDevice | undefined, n: RdmaNic) => (g ? GPU_PATH_BANDWIDTH[gpuNicPath(g, n)] : 1)
    const gbps = zcopy
      ? link * eff * Math.min(path(gpuC, lane.nic!), path(gpuS, remote.nic!))
      : Math.min(link * eff, 30 + 2 * unitHash(seed + 'staged'))
    const tl = enabledTransports(client.env.UCX_TLS).has('rc_mlx5') ? 'rc_mlx5' : 'rc_verbs'
    return {
      ...o,
      lane: `${tl}/${lane.name}`,
      protocol: zcopy ? 'zero-copy' : 'software emulation',
      gbps,
      latencyUs: 1.9 + (cuda ? 5.1 : 0) + 0.3 * unitHash(seed + 'lat')
    }
  }
  if (c.tcp && s.tcp)
    return {
      ...o,
      lane: 'tcp/eth0',
      protocol: 'software emulation',
      gbps: 4 + 1.5 * unitHash(seed + 'tcp'),
      latencyUs: 31 + (cuda ? 5.1 : 0) + 4 * unitHash(seed + 'lat')
    }
  const tried = (n: (typeof nets)[number]) => [
    ...n.ib.map(d => `rc_mlx5/${d.name}`),
    ...(n.tcp ? ['tcp/eth0'] : [])
  ]
  const list = tried(c).length
    ? tried(c)
        .map(t => `${t} - Destination is unreachable`)
        .join(', ')
    : 'self/memory - Destination is unreachable'
  o.client.push(
    logLine(client, 'select.c:649', 'ERROR', `no active messages transport to ${server.podName}: ${list}`)
  )
  return { ...o, status: 'Destination is unreachable' }
}

interface Listener {
  params: PerfParams
  side: UcxSide
  io: ShellIo
  finish(code: number, lines: string[]): void
}

/** Listening ucx_perftest servers, keyed `<ip>:<port>`. */
export class UcxNetwork {
  readonly servers = new Map<string, Listener>()
}

export interface PerftestEnv {
  side(): UcxSide
  resolve(host: string): string | undefined
  net: UcxNetwork
  sleep(simMs: number): Promise<void>
}

function protoInfoWanted(env: Record<string, string>): boolean {
  const v = (env.UCX_PROTO_INFO ?? 'n').toLowerCase()
  return v !== 'n' && v !== 'no' && v !== '0' && v !== 'off' && v !== ''
}

/** ucs_log_print_compact's prefix on each line of a table (one timestamp for the whole table). */
function prefixLog(side: UcxSide, line: string, at: number): string {
  const pid = 1000 + Math.floor(unitHash(side.podName + 'pid') * 60000)
  return `[${at.toFixed(6)}] [${side.podName.slice(0, 40)}:${pid}:0]   ${line}`
}

/** The client's result lines for a completed run. */
function clientResult(p: PerfParams, side: UcxSide, r: Outcome): string[] {
  const lat = TESTS[p.test].lat
  const mbs = lat ? p.size / (r.latencyUs! * 1e-6) / 2 ** 20 : (r.gbps! * 1e9) / 8 / 2 ** 20
  const latUs = lat ? r.latencyUs! : (p.size / (mbs * 2 ** 20)) * 1e6
  const out: string[] = []
  if (protoInfoWanted(side.env) && r.lane && !lat) {
    const op = `remote memory read by ucp_get* into ${p.recvMem}/GPU0 from ${p.sendMem}/dev[1]`
    const at = 1_700_000_000 + unitHash(side.podName) * 1e6
    for (const l of protoTable('perftest inter-node cfg#1', op, [['0..inf', r.protocol!, r.lane]]))
      out.push(prefixLog(side, l, at))
  }
  out.push(finalRow(p.iterations, latUs, mbs))
  return out
}

/** ucx_perftest as a shell command: a server listens on its pod IP; a client connects and runs the test. */
export function ucxPerftestCommand(env: PerftestEnv): Command {
  return async (argv, _stdin, io, shellEnv): Promise<CommandResult> => {
    const side = { ...env.side(), env: { ...env.side().env, ...shellEnv } }
    const parsed = parsePerfArgv(argv)
    if (typeof parsed === 'string')
      return { err: `${argv[0]}: ${parsed}\n  Usage: ucx_perftest [ server-address ] [ options ]\n`, code: 1 }
    const p = parsed
    if (!p.server) {
      const key = `${side.podIP()}:${p.port}`
      io.out('Waiting for connection...\n')
      return new Promise<CommandResult>(resolve => {
        env.net.servers.set(key, {
          params: p,
          side,
          io,
          finish: (code, lines) => {
            env.net.servers.delete(key)
            if (lines.length) io.out(lines.join('\n') + '\n')
            resolve({ code })
          }
        })
      })
    }
    await env.sleep(200)
    const target = /^\d+\.\d+\.\d+\.\d+$/.test(p.server) ? p.server : env.resolve(p.server)
    const server = target ? env.net.servers.get(`${target}:${p.port}`) : undefined
    if (!server) {
      return {
        err:
          logLine(side, 'perftest.c:424', 'ERROR', 'client failed. connect() failed: Connection refused') +
          '\n',
        code: 1
      }
    }
    const seed = `${side.view.hw.nodeName}->${server.side.view.hw.nodeName}/${p.test}`
    io.out(resultsHeader(p).join('\n') + '\n')
    const r = runOutcome(p, side, server.side, seed)
    const serverHead = [
      `Accepted connection from ${side.podIP() ?? '0.0.0.0'}:${40000 + Math.floor(unitHash(seed) * 20000)}`,
      ...testBox(p)
    ]
    if (r.status) {
      server.finish(1, [
        ...serverHead,
        ...r.server,
        logLine(server.side, 'perftest_run.c:345', 'ERROR', `Failed to run test: ${r.status}`)
      ])
      return {
        err:
          [...r.client, logLine(side, 'perftest_run.c:345', 'ERROR', `Failed to run test: ${r.status}`)].join(
            '\n'
          ) + '\n',
        code: 1
      }
    }
    const bytes = p.size * (p.iterations + p.warmup)
    const seconds = TESTS[p.test].lat
      ? (r.latencyUs! * 2 * (p.iterations + p.warmup)) / 1e6
      : (bytes * 8) / (r.gbps! * 1e9)
    await env.sleep(500 + seconds * 1000)
    server.finish(0, serverHead)
    return { out: clientResult(p, side, r).join('\n') + '\n', code: 0 }
  }
}

/** The container's UCX tools, when its image ships UCX. */
export function ucxCommands(env: PerftestEnv): Record<string, Command> {
  return { ucx_info: ucxInfoCommand(env.side), ucx_perftest: ucxPerftestCommand(env) }
}
