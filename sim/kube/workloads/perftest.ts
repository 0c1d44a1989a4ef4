// perftest (ib_write_bw / ib_read_bw / ib_send_bw and the _lat variants) inside simulated pods:
// option parsing, the server/client rendezvous over pod IPs, the link model (min of the two
// ports' rates × efficiency, degraded NICs, bidirectional,
// a port shared by bandwidth runs at once — a node in two pairs — splitting its rate among them,
// and for GPU memory the PCIe path from the GPU to the NIC: full speed behind the NIC's own PCIe
// switch, markedly slower through the socket (another switch on the same NUMA node) and slower
// still across sockets), and output in perftest's real layout (headers, address lines, BW and
// latency tables, the CUDA device it picked among those the container was given) — or its real
// error texts (no devices, missing device, port down, MR allocation — GPU memory without
// nvidia_peermem too —, DMA-BUF without the open GPU kernel modules, refused connection, no CUDA
// device). Which command lines it accepts, and how it refuses the others, is perftest-params.ts.
import type { GpuDevice, NodeHardware, RdmaNic } from '../hardware.js'
import { dmabufAvailable, gpuNicPath, unitHash } from '../hardware.js'
import type { Command, CommandResult, ShellIo } from './shell.js'
import type { PodView } from './host-tools.js'
import {
  bytesUnit,
  checkPerftestArgv,
  perftestBuildOf,
  type PerftestBuild,
  type PerftestOptions,
  type PerftestTool
} from './perftest-params.js'

export { PERFTEST_TOOLS } from './perftest-params.js'
export type { PerftestOptions, PerftestTool } from './perftest-params.js'

const LINE = '---------------------------------------------------------------------------------------'

function isLat(tool: PerftestTool): boolean {
  return tool.endsWith('_lat')
}

function title(o: PerftestOptions): string {
  const verb = o.tool.startsWith('ib_write')
    ? 'RDMA_Write'
    : o.tool.startsWith('ib_read')
      ? 'RDMA_Read'
      : 'Send'
  if (isLat(o.tool)) return `${verb}${o.writeImm ? '_imm' : ''} Latency Test`
  return `${verb}${o.bidirectional ? ' Bidirectional' : ''} BW Test`
}

function hex(n: number, w: number): string {
  return Math.floor(n).toString(16).padStart(w, '0')
}

function header(o: PerftestOptions, nic: RdmaNic, server: boolean): string[] {
  const lat = isLat(o.tool)
  const eth = nic.linkLayer === 'Ethernet'
  const lines = [
    LINE,
    `                    ${title(o)}`,
    ` Dual-port       : OFF\t\tDevice         : ${nic.name}`,
    ` Number of qps   : ${o.qps}\t\tTransport type : IB`,
    ` Connection type : RC\t\tUsing SRQ      : OFF`,
    ' PCIe relax order: ON',
    ' ibv_wr* API     : ON'
  ]
  if (o.tool === 'ib_send_bw' && server) lines.push(' RX depth        : 512')
  else if (!server || lat) lines.push(` TX depth        : ${lat ? 1 : 128}`)
  if (!lat) lines.push(` CQ Moderation   : ${o.tool === 'ib_send_bw' ? 100 : 1}`)
  lines.push(` Mtu             : ${eth ? 1024 : 4096}[B]`)
  lines.push(` Link type       : ${eth ? 'Ethernet' : 'IB'}`)
  if (eth) lines.push(' GID index       : 3')
  const inline = o.inlineSize ?? (lat && o.cuda === undefined && o.tool !== 'ib_read_lat' ? 220 : 0)
  lines.push(` Max inline data : ${inline}[B]`)
  lines.push(' rdma_cm QPs\t : OFF')
  lines.push(' Data ex. method : Ethernet')
  lines.push(LINE)
  return lines
}

function addresses(
  o: PerftestOptions,
  local: RdmaNic,
  remote: RdmaNic,
  localSeed: string,
  remoteSeed: string
): string[] {
  const out: string[] = []
  const addr = (nic: RdmaNic, k: number, s: string) => {
    const qpn = 0x100 + ((unitHash(s + k) * 0xeff) | 0)
    const psn = (unitHash(s + 'psn' + k) * 0xffffff) | 0
    const rdma = o.tool.includes('write') || o.tool.includes('read')
    const keys = rdma
      ? ` RKey 0x${hex(unitHash(s + 'rk' + k) * 0x1fffff, 6)} VAddr 0x${hex(0x7f0000000000 + unitHash(s + 'va' + k) * 0xffffffff, 14)}`
      : ''
    return `LID 0x${nic.lid.toString(16)} QPN 0x${hex(qpn, 4)} PSN 0x${hex(psn, 6)}${keys}`
  }
  for (let k = 0; k < o.qps; k++) out.push(` local address: ${addr(local, k, localSeed)}`)
  for (let k = 0; k < o.qps; k++) out.push(` remote address: ${addr(remote, k, remoteSeed)}`)
  out.push(LINE)
  return out
}

/** The GPUs a container sees, in CUDA order (PCI bus order). */
export function visibleGpus(view: PodView): GpuDevice[] {
  const all = view.hw.gpus
  const given = view.gpuIndexes ?? (view.gpus ? all.map(g => g.index) : [])
  return all
    .filter(g => given.includes(g.index))
    .sort((a, b) => (a.pciAddress < b.pciAddress ? -1 : a.pciAddress > b.pciAddress ? 1 : 0))
}

function busId(g: GpuDevice): string {
  return g.pciAddress.toUpperCase().replace(/\.\d$/, '')
}

function cudaLines(
  o: PerftestOptions,
  hw: NodeHardware,
  gpus: GpuDevice[],
  size: number,
  seed: string
): string[] {
  const dev = o.cuda ?? 0
  const buf = hex(0x7f0000000000 + Math.floor(unitHash(seed) * 0xfffff) * 0x200000, 16)
  const lines = ['initializing CUDA', 'Listing all CUDA devices in system:']
  gpus.forEach((g, k) => lines.push(`CUDA device ${k}: PCIe address is ${busId(g)}`))
  lines.push(
    '',
    `Picking device No. ${dev}`,
    `[pid = ${4000 + (hw.ordinal % 1000)}, dev = ${dev}] device name = [${hw.spec.gpuName ?? 'NVIDIA GPU'}]`
  )
  lines.push('creating CUDA Ctx', 'making it the current CUDA Ctx', 'CUDA device integrated: 0')
  lines.push(
    `cuMemAlloc() of a ${Math.max(size * 2, 2097152)} bytes GPU buffer`,
    `allocated GPU buffer address at ${buf} pointer=0x${buf.replace(/^0+/, '')}`
  )
  return lines
}

/**
 * What one port carries in all when two streams go through it at once, as a fraction of what one
 * stream gets alone: a bidirectional run sums both directions to about 1.04 × the one-way rate
 * (204.59 Gb/s on a 200G port), and two runs through one NIC share it the same way.
 */
export const SHARED_PORT_TOTAL = 1.04

/** The fraction of its lone rate each of `streams` runs through one port gets. */
export function portShare(streams: number): number {
  return streams <= 1 ? 1 : SHARED_PORT_TOTAL / streams
}

/** Bandwidth factor of GPU memory reached over the GPU's PCIe path to the NIC. */
export const GPU_PATH_BANDWIDTH = { switch: 1, numa: 0.62, 'cross-numa': 0.4 } as const
/** Added latency (µs) of GPU memory over that path. */
const GPU_PATH_LATENCY = { switch: 0, numa: 0.35, 'cross-numa': 0.9 } as const

export interface PeerSide {
  hw: NodeHardware
  nic: RdmaNic
  /** The GPU whose memory is registered (--use_cuda), if any. */
  gpu?: GpuDevice
  /** The GPUs the container sees, in CUDA order. */
  visibleGpus?: GpuDevice[]
}

/** How GPU memory on this side reaches its NIC (undefined: host memory). */
function gpuPath(side: PeerSide) {
  return side.gpu ? gpuNicPath(side.gpu, side.nic) : undefined
}

export interface BwRow {
  bytes: number
  iters: number
  peak: number
  avg: number
  mpps: number
}

function sizesOf(o: PerftestOptions): number[] {
  if (o.all) return Array.from({ length: 23 }, (_, i) => 2 ** (i + 1))
  return [o.size ?? (isLat(o.tool) ? 2 : 65536)]
}

/**
 * The bandwidth table (Gb/s) between two ports; `share` is the run's part of its busiest port over
 * the run (1 when nothing else ran through either port meanwhile).
 */
export function bwRows(o: PerftestOptions, a: PeerSide, b: PeerSide, seed: string, share = 1): BwRow[] {
  const link = Math.min(a.nic.gbps, b.nic.gbps) * share
  const eff = 0.97 + 0.015 * unitHash(seed + 'eff')
  const k = (2716 * link) / 200 / Math.min(o.qps, 4)
  const mppsCap = link >= 400 ? 4.1 : link >= 200 ? 2.86 : 2.4
  const paths = [gpuPath(a), gpuPath(b)].map(p => (p ? GPU_PATH_BANDWIDTH[p] : 1))
  const pcie = Math.min(...paths)
  const read = o.tool === 'ib_read_bw' ? 0.995 : 1
  return sizesOf(o).map(bytes => {
    const jitter = 1 + (unitHash(`${seed}/${bytes}`) - 0.5) * 0.004
    const mpps = mppsCap * (1 - (0.04 * Math.log2(bytes)) / 23)
    const byLink = ((link * eff * bytes) / (bytes + k)) * jitter * read
    const byRate = (bytes * 8 * mpps * 1e6) / 1e9
    let avg = Math.min(byLink, byRate) * pcie
    if (o.bidirectional) avg *= 2 * portShare(2)
    const noPeak = o.duration !== undefined || (o.iters ?? 5000) > 20000
    const peak = noPeak
      ? 0
      : Math.max(
          avg,
          Math.min(
            link * eff * pcie * (o.bidirectional ? 1.04 : 1),
            avg * (1 + 0.2 * (1 - Math.min(1, avg / (link * eff))))
          )
        )
    const iters =
      o.duration !== undefined ? Math.round(((avg * 1e9) / 8 / bytes) * o.duration) : (o.iters ?? 5000)
    return { bytes, iters, peak, avg, mpps: (avg * 1e9) / 8 / bytes / 1e6 }
  })
}

export interface LatRow {
  bytes: number
  iters: number
  tMin: number
  tMax: number
  tTypical: number
  tAvg: number
  tStdev: number
  p99: number
  p999: number
}

export function latRows(o: PerftestOptions, a: PeerSide, b: PeerSide, seed: string): LatRow[] {
  const link = Math.min(a.nic.gbps, b.nic.gbps)
  const ndr = link >= 400
  const base =
    o.tool === 'ib_read_lat'
      ? ndr
        ? 4.3
        : 5.45
      : o.tool === 'ib_write_lat'
        ? ndr
          ? 1.62
          : 1.78
        : ndr
          ? 1.5
          : 1.6
  const pcie = Math.max(...[gpuPath(a), gpuPath(b)].map(p => (p ? GPU_PATH_LATENCY[p] : 0)))
  return sizesOf(o).map(bytes => {
    const u = unitHash(`${seed}/${bytes}`)
    const t = base + pcie + (bytes * 8) / (link * 1000) + (bytes > 128 ? 0.4 : 0)
    return {
      bytes,
      iters: o.iters ?? 1000,
      tMin: t * 0.975,
      tMax: t * (2 + 4 * u),
      tTypical: t,
      tAvg: t * (1.002 + 0.004 * u),
      tStdev: 0.06 + 0.12 * u,
      p99: t * 1.04,
      p999: t * (1.9 + 0.3 * u)
    }
  })
}

function f2(n: number): string {
  return n.toFixed(2)
}

/** Gb/s → the printed unit (Gb/sec, or MB/sec = MiB/sec = 2^20 B/s). */
function unit(o: PerftestOptions, gbps: number): number {
  return o.gbits ? gbps : (gbps * 1e9) / 8 / 2 ** 20
}

export function bwTable(o: PerftestOptions, rows: BwRow[], bytesPerSec: string = 'MB/sec'): string[] {
  const u = o.gbits ? 'Gb/sec' : bytesPerSec
  const out = [` #bytes     #iterations    BW peak[${u}]    BW average[${u}]   MsgRate[Mpps]`]
  for (const r of rows) {
    const peak = unit(o, r.peak)
    const avg = unit(o, r.avg)
    if (avg < 0.1 && avg > 0)
      out.push(
        ` ${String(r.bytes).padEnd(7)}    ${String(r.iters).padEnd(7)}        ${peak.toFixed(6)}            ${avg.toFixed(6)}            ${r.mpps.toFixed(6)}`
      )
    else
      out.push(
        ` ${String(r.bytes).padEnd(7)}    ${String(r.iters).padEnd(7)}          ${f2(peak).padEnd(7)}            ${f2(avg).padEnd(7)}\t\t   ${r.mpps.toFixed(6)}`
      )
  }
  out.push(LINE)
  return out
}

export function latTable(rows: LatRow[]): string[] {
  const out = [
    ' #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] '
  ]
  for (const r of rows) {
    out.push(
      ` ${String(r.bytes).padEnd(7)} ${String(r.iters).padEnd(10)}   ${f2(r.tMin).padEnd(7)}        ${f2(r.tMax).padEnd(7)}      ${f2(r.tTypical).padEnd(7)}  \t${f2(r.tAvg).padEnd(7)}     \t${f2(r.tStdev).padEnd(7)}  \t${f2(r.p99).padEnd(7)}  \t${f2(r.p999).padEnd(7)}`
    )
  }
  out.push(LINE)
  return out
}

// ---- processes, rendezvous and the ports' traffic ----

/** One port: a node's RDMA device. */
export interface PortRef {
  node: string
  device: string
}

/** A perftest run between a client's port and a server's, from connection to end (simulated ms). */
export interface PerftestRun {
  tool: PerftestTool
  client: PortRef
  server: PortRef
  start: number
  /** Unset while it runs. */
  end?: number
  /** Both its pods are still on their nodes (not deleted). */
  podsLive(): boolean
}

const samePort = (a: PortRef, b: PortRef): boolean => a.node === b.node && a.device === b.device
const portsOf = (r: PerftestRun): PortRef[] => [r.client, r.server]
const overlap = (a: PerftestRun, b: PerftestRun, now: number): boolean =>
  a.start < (b.end ?? now) && b.start < (a.end ?? now)

interface Listener {
  o: PerftestOptions
  side: PeerSide
  view: PodView
  io: ShellIo
  /** The server's pod is still on its node. */
  alive(): boolean
  /** Called by the client when the test ran (or failed mid-way). */
  finish(code: number, serverOutput: string[]): void
}

/** Listening perftest servers (keyed `<ip>:<port>`) and the runs whose pods are still there. */
export class PerftestNetwork {
  readonly servers = new Map<string, Listener>()
  /** Runs that connected, until a later connection finds their pods deleted. */
  runs: PerftestRun[] = []
  /** `node: partner + partner` for each node seen serving two perftest partners at once. */
  readonly doubleBooked: string[] = []

  /**
   * The run's share of its busiest port, averaged over its time: at each moment, 1 / (the
   * bandwidth runs going through that port then) split as portShare says. Latency runs carry one
   * message at a time and take nothing from the others.
   */
  shareOf(run: PerftestRun, now: number): number {
    const end = run.end ?? now
    if (end <= run.start || isLat(run.tool)) return 1
    const others = this.runs.filter(
      r =>
        r !== run &&
        !isLat(r.tool) &&
        overlap(r, run, now) &&
        portsOf(r).some(p => portsOf(run).some(q => samePort(p, q)))
    )
    const cuts = [...new Set([run.start, end, ...others.flatMap(r => [r.start, r.end ?? now])])]
      .filter(t => t >= run.start && t <= end)
      .sort((x, y) => x - y)
    let sum = 0
    for (let i = 0; i + 1 < cuts.length; i++) {
      const mid = (cuts[i] + cuts[i + 1]) / 2
      const busiest = Math.max(
        ...portsOf(run).map(
          p =>
            1 +
            others.filter(r => r.start <= mid && (r.end ?? now) > mid && portsOf(r).some(q => samePort(p, q)))
              .length
        )
      )
      sum += (cuts[i + 1] - cuts[i]) * portShare(busiest)
    }
    return sum / (end - run.start)
  }

  /**
   * A client connects: the run is recorded, and when one of its nodes already has the pods of a
   * run with another partner (a node in two pairs at once: a schedule whose round is not made of
   * disjoint pairs), that node is noted in doubleBooked.
   */
  connect(run: PerftestRun): void {
    const partner = (r: PerftestRun, node: string) => (r.client.node === node ? r.server.node : r.client.node)
    this.runs = this.runs.filter(r => r.podsLive())
    for (const other of this.runs) {
      for (const node of [run.client.node, run.server.node]) {
        if (other.client.node !== node && other.server.node !== node) continue
        const [x, y] = [partner(run, node), partner(other, node)].sort()
        if (x !== y && !this.doubleBooked.includes(`${node}: ${x} + ${y}`))
          this.doubleBooked.push(`${node}: ${x} + ${y}`)
      }
    }
    this.runs.push(run)
  }
}

export interface PerftestEnv {
  view: PodView
  /** The image the container runs: its perftest release and build (perftestBuildOf). */
  image: string
  /** IPC_LOCK or privileged: memlock does not bound MR registration. */
  ipcLock: boolean
  podIP(): string | undefined
  /** Resolves a host name (pod name, node name) to an IP. */
  resolve(host: string): string | undefined
  net: PerftestNetwork
  sleep(simMs: number): Promise<void>
  /** Simulated milliseconds since the world started. */
  now(): number
  /** The pod is still on its node (not deleted). */
  alive(): boolean
}

/**
 * The device a run uses, among those the pod has (its device plugin allocation): -d <name>, or
 * `mlx5_<n>` (the n-th device), or the first InfiniBand one.
 */
function pickDevice(nics: RdmaNic[], name: string | undefined): RdmaNic | undefined {
  if (!name) return nics.find(n => n.linkLayer === 'InfiniBand') ?? nics[0]
  const exact = nics.find(n => n.name === name)
  if (exact) return exact
  const m = /^mlx5_(\d+)$/.exec(name)
  if (m) {
    const ib = nics.filter(n => n.linkLayer === 'InfiniBand')
    const idx = Number(m[1])
    return idx < ib.length
      ? ib[idx]
      : idx === ib.length
        ? nics.find(n => n.linkLayer === 'Ethernet')
        : undefined
  }
  return undefined
}

function memlockNeedKiB(o: PerftestOptions): number {
  const max = Math.max(...sizesOf(o))
  return Math.ceil((max * 2 * (isLat(o.tool) ? 1 : o.qps)) / 1024) + 64
}

/** Device, port and memory checks both sides run before connecting; an error text or the side. */
function prepare(o: PerftestOptions, env: PerftestEnv): { err: string } | { side: PeerSide } {
  const hw = env.view.hw
  const nics = env.view.verbsDevices
  if (nics.length === 0) {
    return {
      err: ' Did not detect devices \n If device exists, check if driver is up\n Unable to find the Infiniband/RoCE device\n'
    }
  }
  const nic = pickDevice(nics, o.device)
  if (!nic) return { err: `IB device ${o.device} not found\n Unable to find the Infiniband/RoCE device\n` }
  if (nic.gbps <= 0) return { err: " Port number 1 state is Down\n Couldn't set the link layer\n" }
  const gpuMem = o.cuda !== undefined || o.cudaDmabuf
  const gpus = visibleGpus(env.view)
  let gpu: GpuDevice | undefined
  if (gpuMem) {
    if (!gpus.length)
      return { err: 'initializing CUDA\nThere are no available device(s) that support CUDA\n' }
    const byBus = o.cudaBusId
      ? gpus.findIndex(g => g.pciAddress.toLowerCase().startsWith(o.cudaBusId!.toLowerCase()))
      : undefined
    const want = byBus ?? o.cuda ?? 0
    if (want < 0 || want >= gpus.length)
      return {
        err: `initializing CUDA\nThere are ${gpus.length} devices supporting CUDA, picking first...\nNo such device ID (${want}) exists in system\n`
      }
    gpu = gpus[want]
    o.cuda = want
  }
  // GPU memory is registered by DMA-BUF (--use_cuda_dmabuf: the driver must export it, which only
  // the open kernel modules do) or through nvidia_peermem (ibv_reg_mr on a device pointer); perftest
  // stages nothing through host memory, it fails.
  if (gpuMem && o.cudaDmabuf && !dmabufAvailable(hw))
    return {
      err: "DMA-BUF is not supported on this GPU\nFailed to init memory\n Couldn't create IB resources\n"
    }
  if (gpuMem && !o.cudaDmabuf && !hw.nvidiaPeermemLoaded)
    return {
      err: "Couldn't allocate MR\nfailed to create mr\nFailed to create MR\n Couldn't create IB resources\n"
    }
  if (!gpuMem && !hw.memlockUnlimited && !env.ipcLock && memlockNeedKiB(o) > hw.memlockDefaultKiB) {
    return {
      err: "Couldn't allocate MR\nfailed to create mr\nFailed to create MR\n Couldn't create IB resources\n"
    }
  }
  return { side: { hw, nic, ...(gpu ? { gpu, visibleGpus: gpus } : {}) } }
}

function results(
  o: PerftestOptions,
  client: PeerSide,
  server: PeerSide,
  seed: string,
  build: PerftestBuild,
  share: number
): string[] {
  return isLat(o.tool)
    ? latTable(latRows(o, client, server, seed))
    : bwTable(o, bwRows(o, client, server, seed, share), bytesUnit(build))
}

function runSeconds(o: PerftestOptions): number {
  if (o.duration !== undefined) return o.duration + 2
  return 1 + sizesOf(o).length * 0.2
}

/** A perftest binary as a shell command. */
export function perftestCommand(env: PerftestEnv): Command {
  return async (argv, _stdin, io): Promise<CommandResult> => {
    const build = perftestBuildOf(env.image)
    const checked = checkPerftestArgv(argv, build)
    if (!checked.ok) {
      // stderr is unbuffered; stdout (a pipe or file) is flushed when perftest exits.
      if (checked.refusal.stderr) io.err(checked.refusal.stderr)
      return { out: checked.refusal.stdout, code: checked.refusal.code }
    }
    const o = checked.options
    const pre = checked.notices
    const prep = prepare(o, env)
    if ('err' in prep) {
      if (pre.length) io.out(pre.join('\n') + '\n')
      return { err: prep.err, code: 1 }
    }
    const cuda =
      o.cuda !== undefined
        ? cudaLines(o, prep.side.hw, prep.side.visibleGpus ?? [], Math.max(...sizesOf(o)), argv.join(' '))
        : []
    if (!o.host) {
      // Server: listen and wait for a client.
      const ip = env.podIP()
      if (pre.length) io.out(pre.join('\n') + '\n')
      io.out(
        '\n************************************\n* Waiting for client to connect... *\n************************************\n'
      )
      const key = `${ip}:${o.port}`
      return new Promise<CommandResult>(resolve => {
        env.net.servers.set(key, {
          o,
          side: prep.side,
          view: env.view,
          io,
          alive: () => env.alive(),
          finish: (code, lines) => {
            env.net.servers.delete(key)
            if (lines.length) io.out(lines.join('\n') + '\n')
            resolve({ code })
          }
        })
      })
    }
    // Client.
    if (pre.length) io.out(pre.join('\n') + '\n')
    const own = env.podIP()
    const target = ['localhost', '127.0.0.1'].includes(o.host)
      ? own
      : /^\d+\.\d+\.\d+\.\d+$/.test(o.host)
        ? o.host
        : env.resolve(o.host)
    await env.sleep(200)
    const server = target ? env.net.servers.get(`${target}:${o.port}`) : undefined
    if (!server) {
      return {
        err: `Couldn't connect to ${o.host}:${o.port}\nUnable to open file descriptor for socket connection Unable to init the socket connection\n`,
        code: 1
      }
    }
    const client = prep.side
    const seed = `${client.hw.nodeName}/${client.nic.name}->${server.side.hw.nodeName}/${server.side.nic.name}/${o.tool}`
    if (cuda.length) io.out(cuda.join('\n') + '\n')
    const serverCuda =
      server.o.cuda !== undefined
        ? cudaLines(
            server.o,
            server.side.hw,
            server.side.visibleGpus ?? [],
            Math.max(...sizesOf(o)),
            seed + 'srv'
          )
        : []
    if (client.nic.linkLayer !== server.side.nic.linkLayer || client.nic.linkLayer === 'Ethernet') {
      const hdr = header(o, client.nic, false)
      io.out(hdr.join('\n') + '\n')
      server.finish(1, [
        ...serverCuda,
        ...header(server.o, server.side.nic, true),
        ` Failed to modify QP 0x${hex(0x120, 4)} to RTR`,
        " Unable to Connect the HCA's through the link"
      ])
      return {
        err: ` Failed to modify QP 0x${hex(0x121, 4)} to RTR\n Unable to Connect the HCA's through the link\n`,
        code: 1
      }
    }
    const effective: PerftestOptions = {
      ...o,
      bidirectional: o.bidirectional || server.o.bidirectional,
      qps: Math.max(o.qps, server.o.qps)
    }
    const run: PerftestRun = {
      tool: o.tool,
      client: { node: client.hw.nodeName, device: client.nic.name },
      server: { node: server.side.hw.nodeName, device: server.side.nic.name },
      start: env.now(),
      podsLive: () => env.alive() && server.alive()
    }
    env.net.connect(run)
    await env.sleep(runSeconds(o) * 1000)
    run.end = env.now()
    const table = results(effective, client, server.side, seed, build, env.net.shareOf(run, run.end))
    const tail =
      o.cuda !== undefined
        ? [`deallocating GPU buffer ${hex(0x7f0000000000, 16)}`, 'destroying current CUDA Ctx']
        : []
    const clientOut = [
      ...header(effective, client.nic, false),
      ...addresses(effective, client.nic, server.side.nic, seed + 'C', seed + 'S'),
      ...table,
      ...tail
    ]
    const serverTail =
      server.o.cuda !== undefined
        ? [`deallocating GPU buffer ${hex(0x7f0000000000, 16)}`, 'destroying current CUDA Ctx']
        : []
    const serverOut = [
      ...serverCuda,
      ...header(effective, server.side.nic, true),
      ...addresses(effective, server.side.nic, client.nic, seed + 'S', seed + 'C'),
      ...table,
      ...serverTail
    ]
    server.finish(0, serverOut)
    return { out: clientOut.join('\n') + '\n', code: 0 }
  }
}
