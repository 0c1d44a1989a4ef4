// NCCL inside simulated pods of Azure/aks-rdma-infiniband's nccl-tests image: `all_reduce_perf` as
// nccl-tests v2.17.6 prints it (src/util.cu: the device list, the out-of-place/in-place table,
// `# Avg bus bandwidth`), with NCCL v2.27.7-1's NCCL_DEBUG=INFO lines (src/debug.cc prefix
// `host:pid:tid [dev] NCCL INFO`; net_ib.cc, net_socket.cc, init.cc, graph/topo.cc, graph/paths.cc,
// transport/net.cc); `mpirun` (Open MPI) starting ranks on other pods over ssh, and `sshd`.
// What NCCL can do in the pod decides the path and the rate:
//   - the network: IB when the container has InfiniBand verbs devices (the RDMA device plugin gave
//     them) and NCCL_IB_DISABLE is not 1, else Socket over eth0;
//   - GPUDirect RDMA: NCCL registers GPU memory with the NIC through nvidia_peermem
//     (/sys/module/nvidia_peermem/version, ncclIbGdrSupport) or dma-buf (NCCL_DMABUF_ENABLE, not 0,
//     and a driver that exports dma-buf); Azure's ND v4/v5 VMs hide the PCIe topology, so without
//     NCCL_TOPO_FILE (or NCCL_NET_GDR_LEVEL=SYS) NCCL takes the GPU–NIC distance for SYS and
//     disables GDR by distance (paths.cc);
//   - rates: intra-node NVLink busbw per VM size (Azure's measured figures; a degraded NVLink
//     lowers it), inter-node ring busbw = the slowest NIC × NICs / 8 × 0.936 (187.22 GB/s over
//     8 × HDR, Azure/aks-rdma-infiniband tests/expected-output.md), host-staged 4/186 of that
//     (Azure/AKS#3507), sockets about 3 GB/s (the same file's IPoIB run: 3.15).
import { unitHash, type NodeHardware, type RdmaNic } from '../hardware.js'
import type { PodView } from './host-tools.js'
import { visibleGpus } from './perftest.js'
import type { Command, CommandResult, ShellIo } from './shell.js'

export const NCCL_TOOLS = ['all_reduce_perf', 'mpirun', 'sshd', 'ssh-keygen'] as const

const NCCL_TESTS_IMAGE = /(^|\/)aks-rdma-infiniband\/nccl-tests(:|@|$)/

/** Azure/aks-rdma-infiniband's nccl-tests image (nccl-tests v2.17.6, Open MPI, sshd on 2222). */
export function isNcclTestsImage(image: string): boolean {
  return NCCL_TESTS_IMAGE.test(image)
}

const TESTS_VERSION = '2.17.6'
const NCCL_VERSION = '2.27.7'
const NCCL_CODE = 22707
const SSH_PORT = 2222

/** What NCCL sees in one container. */
export interface NcclSide {
  view: PodView
  env: Record<string, string>
  podName: string
  podIP(): string | undefined
  /** A file the container sees (its own, its volumes'). */
  readFile(path: string): string | undefined
}

/** Listening sshd daemons, keyed `<ip>:<port>`. */
export class NcclNetwork {
  readonly sshd = new Map<string, NcclSide>()
}

export interface NcclEnv {
  side: () => NcclSide
  net: NcclNetwork
  sleep(ms: number): Promise<void>
  /** Writes a file of the container's own (ssh-keygen's host keys). */
  writeFile(path: string, content: string): void
}

/** Intra-node all_reduce busbw (GB/s) at large sizes: Azure's measured single-node figures. */
function nvlinkPeak(hw: NodeHardware): number {
  const name = hw.spec.gpuName ?? ''
  if (/H200/.test(name)) return 479.98
  if (/H100/.test(name)) return 478.87
  if (/A100/.test(name)) return 231.58
  if (/GB[23]00/.test(name)) return 452
  return 150
}

/** NDv4/NDv5 VMs hide the PCIe switches: NCCL needs the topology file to see GPU–NIC affinity. */
function hidesTopology(hw: NodeHardware): boolean {
  return /^Standard_ND96(asr_v4|amsr_A100_v4|isr_H100_v5|isrf?_H200_v5)$/.test(hw.vmSize)
}

interface Path {
  network: 'IB' | 'Socket'
  gdr: boolean
  dmabuf: boolean
  /** Why GDR is off: no registration, or the distance NCCL saw. */
  gdrOff?: 'registration' | 'distance'
  nics: RdmaNic[]
  topoFile?: string
}

function ibNicsOf(side: NcclSide): RdmaNic[] {
  return side.view.verbsDevices
    .filter(n => n.linkLayer === 'InfiniBand')
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}

function pathOf(side: NcclSide): Path {
  const hw = side.view.hw
  const env = side.env
  const nics = env.NCCL_IB_DISABLE === '1' ? [] : ibNicsOf(side)
  const topo = env.NCCL_TOPO_FILE
  const topoOk = !!topo && (side.readFile(topo) ?? '').includes('<system')
  if (!nics.length)
    return { network: 'Socket', gdr: false, dmabuf: false, nics, ...(topo ? { topoFile: topo } : {}) }
  const peermem = hw.nvidiaPeermemLoaded
  const dmabuf = env.NCCL_DMABUF_ENABLE !== '0' && hw.gpuDmabuf && hw.gpuDriverReady
  const far = hidesTopology(hw) && !topoOk && env.NCCL_NET_GDR_LEVEL !== 'SYS'
  const gdrOff = !peermem && !dmabuf ? 'registration' : far ? 'distance' : undefined
  return {
    network: 'IB',
    gdr: !gdrOff,
    dmabuf: !gdrOff && dmabuf,
    ...(gdrOff ? { gdrOff } : {}),
    nics,
    ...(topo ? { topoFile: topo } : {})
  }
}

// ---- all_reduce_perf arguments ----

interface PerfArgs {
  minBytes: number
  maxBytes: number
  factor: number
  gpus: number
  iters: number
  check: number
}

function parseSize(s: string): number {
  const m = /^(\d+)([KMGkmg]?)$/.exec(s)
  if (!m) return NaN
  const mult = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 }[m[2].toUpperCase() as '' | 'K' | 'M' | 'G']
  return Number(m[1]) * mult
}

function parsePerfArgs(argv: string[]): PerfArgs | string {
  const a: PerfArgs = {
    minBytes: 32 * 1024 ** 2,
    maxBytes: 32 * 1024 ** 2,
    factor: 1,
    gpus: 1,
    iters: 20,
    check: 1
  }
  for (let i = 1; i < argv.length; i++) {
    const flag = argv[i]
    const v = argv[i + 1]
    const long = flag.startsWith('--') ? flag.slice(2) : undefined
    const key = long ?? flag.replace(/^-/, '')
    const known: Record<string, keyof PerfArgs> = {
      b: 'minBytes',
      minbytes: 'minBytes',
      e: 'maxBytes',
      maxbytes: 'maxBytes',
      f: 'factor',
      stepfactor: 'factor',
      g: 'gpus',
      ngpus: 'gpus',
      n: 'iters',
      iters: 'iters',
      c: 'check',
      check: 'check'
    }
    const field = known[key]
    if (!field) {
      if (/^-[wmtopdrzyGaCTRMx]$/.test(flag)) {
        i++
        continue
      }
      return `invalid option '${flag.replace(/^-+/, '')}'`
    }
    if (v === undefined) return `option requires an argument -- '${key}'`
    const n = field === 'minBytes' || field === 'maxBytes' ? parseSize(v) : Number(v)
    if (!Number.isFinite(n)) return `invalid size specified for '${key}'`
    a[field] = n
    i++
  }
  return a
}

// ---- output ----

/** nccl-tests' getFloatStr. */
function floatStr(value: number, width: number): string {
  let power = 0
  for (let val = 1; value >= val; val *= 10) power++
  if (power < width - 2) return value.toFixed(2).padStart(width)
  if (power < width - 1) return value.toFixed(1).padStart(width)
  if (power < width + 1) return value.toFixed(0).padStart(width)
  return value.toExponential(1).padStart(width)
}

function header(): string[] {
  const p = (s: string, w: number) => s.padStart(w)
  return [
    '#',
    `# ${p('', 10)}  ${p('', 12)}  ${p('', 8)}  ${p('', 6)}  ${p('', 6)}           out-of-place                       in-place          `,
    `# ${p('size', 10)}  ${p('count', 12)}  ${p('type', 8)}  ${p('redop', 6)}  ${p('root', 6)}  ${p('time', 7)}  ${p('algbw', 6)}  ${p('busbw', 6)}  ${p('#wrong', 6)}  ${p('time', 7)}  ${p('algbw', 6)}  ${p('busbw', 6)}  ${p('#wrong', 6)} ${p('', 20)}`,
    `# ${p('(B)', 10)}  ${p('(elements)', 12)}  ${p('', 8)}  ${p('', 6)}  ${p('', 6)}  ${p('(us)', 7)}  ${p('(GB/s)', 6)}  ${p('(GB/s)', 6)}  ${p('', 6)}  ${p('(us)', 7)}  ${p('(GB/s)', 6)}  ${p('(GB/s)', 6)}  ${p('', 6)} ${p('', 20)}`
  ]
}

interface Rank {
  side: NcclSide
  /** CUDA device within its process. */
  dev: number
  pid: number
}

const pidOf = (side: NcclSide, salt: string) => 40 + Math.floor(unitHash(`${side.podName}/${salt}`) * 200)

/** NCCL's INFO line. */
function info(r: Rank, tid: number, msg: string): string {
  return `${r.side.podName}:${r.pid}:${tid} [${r.dev}] NCCL INFO ${msg}`
}

function infoLines(ranks: Rank[], path: Path, inter: boolean, debug: boolean, nranks: number): string[] {
  if (!debug) return []
  const out: string[] = []
  const r0 = ranks[0]
  const tid = r0.pid + 9
  out.push(info(r0, r0.pid, `Bootstrap: Using eth0:${r0.side.podIP() ?? '10.244.0.2'}<0>`))
  out.push(info(r0, r0.pid, 'cudaDriverVersion 13000'))
  out.push(info(r0, r0.pid, `NCCL version ${NCCL_VERSION}+cuda13.0`))
  if (path.topoFile) out.push(info(r0, tid, `NCCL_TOPO_FILE set by environment to ${path.topoFile}`))
  out.push(info(r0, tid, 'NET/Plugin: Could not find: libnccl-net.so.'))
  if (path.dmabuf) out.push(info(r0, tid, `DMA-BUF is available on GPU device ${r0.dev}`))
  if (path.network === 'IB') {
    const devs = path.nics.map((n, i) => ` [${i}]${n.name}:1/IB`).join('')
    out.push(info(r0, tid, `NET/IB : Using${devs} [RO]; OOB eth0:${r0.side.podIP() ?? ''}<0>`))
  } else {
    out.push(info(r0, tid, 'NET/IB : No device found.'))
    out.push(info(r0, tid, `NET/Socket : Using [0]eth0:${r0.side.podIP() ?? ''}<0>`))
  }
  out.push(info(r0, tid, `Using network ${path.network}`))
  if (path.network === 'IB')
    path.nics.forEach((n, i) =>
      out.push(
        info(
          r0,
          tid,
          `NET/IB : GPU Direct RDMA ${path.gdrOff === 'registration' ? 'Disabled' : 'Enabled'} for HCA ${i} '${n.name}'`
        )
      )
    )
  if (path.network === 'IB' && path.gdrOff === 'distance')
    out.push(info(r0, tid, 'GPU Direct RDMA Disabled for GPU 0 / HCA 0 (distance 7 > 5)'))
  else if (path.gdr)
    out.push(
      info(r0, tid, `GPU Direct RDMA Enabled for GPU 0 / HCA 0 (distance 4 <= 5), read 1 mode Default`)
    )
  if (inter) {
    const peer = nranks / 2
    const via = `NET/${path.network}/0${path.gdr ? '/GDRDMA' : ''}`
    for (const ch of ['00', '08']) {
      out.push(info(r0, tid, `Channel ${ch}/0 : ${peer}[0] -> 0[0] [receive] via ${via}`))
      out.push(info(r0, tid, `Channel ${ch}/0 : 0[0] -> ${peer}[0] [send] via ${via}`))
    }
  } else if (ranks.length > 1) {
    out.push(info(r0, tid, `Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read`))
  }
  out.push(
    info(
      r0,
      r0.pid,
      `comm 0x5581 rank 0 nRanks ${nranks} nNodes ${inter ? 2 : 1} localRanks ${inter ? nranks / 2 : nranks} localRank 0 MNNVL 0`
    )
  )
  return out
}

/** The table and footer for a run reaching `peak` GB/s busbw at large sizes. */
function table(a: PerfArgs, nranks: number, peak: number, half: number, seed: string): string[] {
  const out = header()
  const factor = (2 * (nranks - 1)) / nranks
  let sum = 0
  let rows = 0
  for (
    let size = a.minBytes;
    size <= a.maxBytes;
    size = a.factor > 1 ? size * a.factor : size + Math.max(1, a.factor)
  ) {
    const count = Math.floor(size / 4)
    const bytes = count * 4
    const cells: string[] = []
    for (const half2 of ['oop', 'ip']) {
      const jitter = 1 + (unitHash(`${seed}/${size}/${half2}`) - 0.5) * 0.02
      const bus = nranks === 1 ? 0 : ((peak * bytes) / (bytes + half)) * jitter
      const alg = nranks === 1 ? bytes / 1e9 / 4e-6 : bus / factor
      const timeUs = alg > 0 ? bytes / (alg * 1e3) : 4
      cells.push(
        `  ${floatStr(timeUs, 7)}  ${floatStr(alg, 6)}  ${floatStr(bus, 6)}  ${a.check ? '     0' : '   N/A'}`
      )
      if (half2 === 'oop') sum += bus
    }
    rows++
    out.push(
      `${String(bytes).padStart(12)}  ${String(count).padStart(12)}  ${'float'.padStart(8)}  ${'sum'.padStart(6)}  ${'-1'.padStart(6)}${cells.join('')}`
    )
    if (a.factor <= 1 && a.minBytes === a.maxBytes) break
  }
  out.push('# Out of bounds values : 0 OK')
  out.push(`# Avg bus bandwidth    : ${Number((sum / Math.max(1, rows)).toPrecision(6))} `)
  out.push('#')
  out.push('# Collective test concluded: all_reduce_perf')
  return out
}

function banner(a: PerfArgs, nGpus: number): string[] {
  return [
    `# nccl-tests version ${TESTS_VERSION} nccl-headers=${NCCL_CODE} nccl-library=${NCCL_CODE}`,
    '# Collective test starting: all_reduce_perf',
    `# nThread 1 nGpus ${nGpus} minBytes ${a.minBytes} maxBytes ${a.maxBytes} step: ${a.factor}(${a.factor > 1 ? 'factor' : 'bytes'}) warmup iters: 1 iters: ${a.iters} agg iters: 1 validation: ${a.check} graph: 0`,
    '#',
    '# Using devices'
  ]
}

function deviceLine(rank: number, r: Rank, g: { pciAddress: string }, name: string): string {
  const [dom = '0', bus = '0', rest = '0'] = g.pciAddress.split(':')
  const dev = rest.split('.')[0]
  return `#  Rank ${String(rank).padStart(2)} Group  0 Pid ${String(r.pid).padStart(6)} on ${r.side.podName.padStart(10)} device ${String(r.dev).padStart(2)} [${dom.slice(-4).padStart(4, '0')}:${bus.padStart(2, '0')}:${dev.padStart(2, '0')}] ${name}`
}

/** NVLink of the node runs degraded (scenario `nodes.nvlinkDegraded`). */
function nvlinkFactor(hw: NodeHardware): number {
  return hw.nvlinkDegraded ? 0.42 : 1
}

/** Runs all_reduce_perf over `procs` (one process per side, `gpusEach` GPUs or 1 per rank). */
function runAllReduce(a: PerfArgs, procs: Array<{ side: NcclSide; ranks: number }>): CommandResult {
  const ranks: Rank[] = []
  const lines: string[] = []
  const inter = procs.length > 1
  const nGpus = a.gpus
  for (const p of procs) {
    const gpus = visibleGpus(p.side.view)
    const need = inter ? p.ranks : nGpus
    if (gpus.length < need)
      return {
        err: `Invalid number of GPUs: ${need} requested but only ${gpus.length} were found.\nPlease check the number of processes and GPUs per process.\n`,
        out: banner(a, nGpus).join('\n') + '\n',
        code: 2
      }
    for (let k = 0; k < need; k++)
      ranks.push({ side: p.side, dev: inter ? k : k, pid: pidOf(p.side, inter ? `r${k}` : 'p') })
  }
  const nranks = ranks.length
  lines.push(...banner(a, nGpus))
  ranks.forEach((r, i) => {
    const g = visibleGpus(r.side.view)[r.dev]
    lines.push(deviceLine(i, r, g, r.side.view.hw.spec.gpuName ?? 'NVIDIA GPU'))
  })
  const debug = (procs[0].side.env.NCCL_DEBUG ?? '').toUpperCase() === 'INFO'
  const paths = procs.map(p => pathOf(p.side))
  const path = paths[0]
  lines.push(...infoLines(ranks, path, inter, debug, nranks))
  const seed = procs.map(p => p.side.podName).join('+')
  if (inter) {
    if (paths.some(p => p.network !== path.network)) {
      const r0 = ranks[0]
      lines.push(
        '',
        `${r0.side.podName}:${r0.pid}:${r0.pid + 9} [0] transport/net.cc:681 NCCL WARN NET/${path.network} : peer uses network ${paths.find(p => p.network !== path.network)!.network}`
      )
      lines.push(
        `${r0.side.podName}: Test NCCL failure common.cu:1279 'internal error - please report this issue to the NCCL developers / '`
      )
      return { out: lines.join('\n') + '\n', code: 3 }
    }
    let peak: number
    if (path.network === 'Socket') peak = 2.9
    else {
      const nicCount = Math.min(...paths.map(p => p.nics.length))
      const slowest = Math.min(...paths.flatMap(p => p.nics.map(n => n.gbps)))
      const gdrPeak = (slowest * nicCount * 0.936) / 8
      peak = paths.every(p => p.gdr) ? gdrPeak : (gdrPeak * 4) / 186
    }
    lines.push(...table(a, nranks, peak, 48 * 1024 ** 2, seed))
  } else {
    const hw = procs[0].side.view.hw
    lines.push(...table(a, nranks, nvlinkPeak(hw) * nvlinkFactor(hw), 24 * 1024 ** 2, seed))
  }
  return { out: lines.join('\n') + '\n', code: 0 }
}

// ---- mpirun ----

interface MpirunArgs {
  np: number
  hosts: Array<{ host: string; slots: number }>
  exported: string[]
  program: string[]
}

function parseMpirun(argv: string[]): MpirunArgs | string {
  const out: MpirunArgs = { np: 0, hosts: [], exported: [], program: [] }
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i]
    if (!a.startsWith('-')) {
      out.program = argv.slice(i)
      break
    }
    if (a === '-np' || a === '-n' || a === '--np') out.np = Number(argv[++i])
    else if (a === '-H' || a === '--host' || a === '-host')
      out.hosts = (argv[++i] ?? '').split(',').map(h => {
        const [host, slots] = h.split(':')
        return { host, slots: Number(slots ?? '1') }
      })
    else if (a === '-x') out.exported.push(argv[++i] ?? '')
    else if (a === '--mca' || a === '-mca') i += 2
    else if (a === '--bind-to' || a === '--map-by') i++
    else if (a === '--allow-run-as-root' || a === '--tag-output' || a === '--oversubscribe') continue
    else return `mpirun: Error: unknown option "${a}"`
  }
  if (!out.program.length) return 'mpirun could not find anything to do.'
  return out
}

function publicKeys(text: string | undefined): string[] {
  return (text ?? '')
    .split('\n')
    .map(l => l.trim().split(/\s+/).slice(0, 2).join(' '))
    .filter(Boolean)
}

export function ncclCommands(env: NcclEnv): Record<string, Command> {
  const allReduce: Command = argv => {
    const a = parsePerfArgs(argv)
    if (typeof a === 'string') return { out: `${a}\n`, code: 1 }
    return runAllReduce(a, [{ side: env.side(), ranks: a.gpus }])
  }
  const sshd: Command = async () => {
    const side = env.side()
    const ip = side.podIP()
    if (!ip) return { err: 'sshd: no address\n', code: 255 }
    if (!side.readFile('/etc/ssh/ssh_host_ecdsa_key'))
      return { err: 'sshd: no hostkeys available -- exiting.\n', code: 1 }
    env.net.sshd.set(`${ip}:${SSH_PORT}`, side)
    await new Promise<void>(() => {})
    return { code: 0 }
  }
  const sshKeygen: Command = argv => {
    if (!argv.includes('-A')) return { err: 'ssh-keygen: only -A is modelled\n', code: 1 }
    for (const t of ['rsa', 'ecdsa', 'ed25519'])
      env.writeFile(`/etc/ssh/ssh_host_${t}_key`, `-----BEGIN OPENSSH PRIVATE KEY-----\n(${t})\n`)
    return { out: 'ssh-keygen: generating new host keys: RSA ECDSA ED25519 \n', code: 0 }
  }
  const mpirun: Command = async (argv, _stdin, _io: ShellIo, shellEnv) => {
    const m = parseMpirun(argv)
    if (typeof m === 'string') return { err: `${m}\n`, code: 1 }
    const self = env.side()
    const myIp = self.podIP()
    const slots = m.hosts.reduce((s, h) => s + h.slots, 0)
    if (m.np > slots)
      return {
        err: `--------------------------------------------------------------------------\nThere are not enough slots available in the system to satisfy the ${m.np}\nslots that were requested by the application:\n\n  ${m.program[0]}\n\n--------------------------------------------------------------------------\n`,
        code: 1
      }
    const myKey = publicKeys(self.readFile('/root/.ssh/id_ecdsa.pub'))[0]
    const procs: Array<{ side: NcclSide; ranks: number }> = []
    for (const h of m.hosts) {
      if (h.host === myIp || h.host === 'localhost' || h.host === self.podName) {
        procs.push({ side: self, ranks: h.slots })
        continue
      }
      const remote = env.net.sshd.get(`${h.host}:${SSH_PORT}`)
      if (!remote)
        return {
          err: `ssh: connect to host ${h.host} port ${SSH_PORT}: Connection refused\r\n--------------------------------------------------------------------------\nORTE was unable to reliably start one or more daemons.\n--------------------------------------------------------------------------\n`,
          code: 1
        }
      if (!myKey || !publicKeys(remote.readFile('/root/.ssh/authorized_keys')).includes(myKey))
        return {
          err: `Warning: Permanently added '[${h.host}]:${SSH_PORT}' (ECDSA) to the list of known hosts.\r\nroot@${h.host}: Permission denied (publickey).\r\n--------------------------------------------------------------------------\nORTE was unable to reliably start one or more daemons.\n--------------------------------------------------------------------------\n`,
          code: 1
        }
      // The exported variables reach the remote ranks (-x NAME takes the launcher's value).
      const remoteEnv = { ...remote.env }
      for (const x of m.exported) {
        const eq = x.indexOf('=')
        if (eq > 0) remoteEnv[x.slice(0, eq)] = x.slice(eq + 1)
        else if (shellEnv[x] !== undefined) remoteEnv[x] = shellEnv[x]
      }
      procs.push({ side: { ...remote, env: remoteEnv }, ranks: h.slots })
    }
    await env.sleep(2000)
    const name = (m.program[0] ?? '').split('/').pop()
    if (name !== 'all_reduce_perf')
      return { err: `mpirun was unable to find the specified executable file: ${m.program[0]}\n`, code: 1 }
    const a = parsePerfArgs(m.program)
    if (typeof a === 'string') return { out: `${a}\n`, code: 1 }
    const selfEnv = { ...self.env, ...shellEnv }
    return runAllReduce(
      a,
      procs.map((p, i) => (i === 0 && p.side === self ? { ...p, side: { ...self, env: selfEnv } } : p))
    )
  }
  return { all_reduce_perf: allReduce, mpirun, sshd, 'ssh-keygen': sshKeygen }
}
