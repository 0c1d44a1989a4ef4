// Parsers of NCCL's output (nccl-tests v2.17.6, NVIDIA/nccl v2.27.7-1): the all_reduce_perf results table
// and the NCCL_DEBUG=INFO lines that say which network NCCL used. Pure: no I/O. Formats and their sources:
// sim/README.md; how they are judged: docs/collective-check.md.

/** One row of the results table (the out-of-place and in-place halves). */
export interface NcclRow {
  bytes: number
  count: number
  type: string
  redop: string
  outOfPlace: { timeUs: number; algbwGBps: number; busbwGBps: number; wrong: number | null }
  inPlace: { timeUs: number; algbwGBps: number; busbwGBps: number; wrong: number | null }
}

export interface NcclTable {
  rows: NcclRow[]
  /** `# Avg bus bandwidth    : 56.3994` (GB/s); null when the footer is absent (the run died). */
  avgBusbwGBps: number | null
  /** `# Out of bounds values : 0 OK`; null when absent. */
  outOfBounds: number | null
  /** `# nccl-tests version 2.17.6 nccl-headers=22707 nccl-library=22707` */
  testsVersion: string | null
}

/** The path NCCL's inter-node traffic took, from its INFO lines. */
export type NcclMode = 'ib-gdr' | 'ib' | 'socket' | 'failed'

export interface NcclNetwork {
  /** `Using network IB` (IB, Socket, IBext_v8 …); null when not printed. */
  network: string | null
  /** Devices from `NET/IB : Using [0]mlx5_ib0:1/IB …`: `mlx5_ib0:1`. */
  ibDevices: string[]
  /** `NET/IB : No device found.` */
  ibNoDevice: boolean
  /** Interfaces from `NET/Socket : Using [0]eth0:10.244.1.5<0>`: `eth0`. */
  socketInterfaces: string[]
  /** Channel lines `via NET/<name>/<dev>…`: how many, and how many with `/GDRDMA`. */
  netChannels: number
  gdrChannels: number
  /** `GPU Direct RDMA Enabled|Disabled for HCA …` lines. */
  gdrEnabledHcas: number
  gdrDisabledHcas: number
  /** `DMA-BUF is available on GPU device N` was printed. */
  dmabufAvailable: boolean
  /** `NCCL WARN` messages (the text after `NCCL WARN`). */
  warnings: string[]
  /** `NCCL version 2.27.7+cuda13.0` */
  version: string | null
}

function lines(text: string): string[] {
  return text.replace(/\r\n?/g, '\n').split('\n')
}

const NUM = String.raw`(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)`
const WRONG = String.raw`(N/A|\d+(?:\.\d+)?(?:e[+-]?\d+)?)`
// size count type redop root | time algbw busbw #wrong | time algbw busbw #wrong
const ROW = new RegExp(
  String.raw`^\s*(\d+)\s+(\d+)\s+(\w+)\s+(\w+)\s+(-?\d+)\s+${NUM}\s+${NUM}\s+${NUM}\s+${WRONG}\s+${NUM}\s+${NUM}\s+${NUM}\s+${WRONG}(?:\s|$)`
)

const wrongOf = (s: string): number | null => (s === 'N/A' ? null : Number(s))

/** The all_reduce_perf results table; rows of other lines (NCCL INFO in between) are skipped. */
export function parseNcclTable(text: string): NcclTable {
  const rows: NcclRow[] = []
  let avg: number | null = null
  let oob: number | null = null
  let version: string | null = null
  for (const raw of lines(text)) {
    const line = raw.replace(/^\[\d+(?:,\d+)*\]<stdout>:/, '')
    const m = ROW.exec(line)
    if (m) {
      rows.push({
        bytes: Number(m[1]),
        count: Number(m[2]),
        type: m[3],
        redop: m[4],
        outOfPlace: {
          timeUs: Number(m[6]),
          algbwGBps: Number(m[7]),
          busbwGBps: Number(m[8]),
          wrong: wrongOf(m[9])
        },
        inPlace: {
          timeUs: Number(m[10]),
          algbwGBps: Number(m[11]),
          busbwGBps: Number(m[12]),
          wrong: wrongOf(m[13])
        }
      })
      continue
    }
    const a = /^#\s*Avg bus bandwidth\s*:\s*([\d.e+-]+)/.exec(line)
    if (a) avg = Number(a[1])
    const o = /^#\s*Out of bounds values\s*:\s*(\d+)/.exec(line)
    if (o) oob = Number(o[1])
    const v = /^#\s*nccl-tests version (\S+)/.exec(line)
    if (v) version = v[1]
  }
  return { rows, avgBusbwGBps: avg, outOfBounds: oob, testsVersion: version }
}

/** The row of the largest size (the figure the pass mark is about), or null. */
export function largestRow(t: NcclTable): NcclRow | null {
  return t.rows.reduce<NcclRow | null>((best, r) => (!best || r.bytes >= best.bytes ? r : best), null)
}

/** The larger busbw of a row's two halves (out-of-place, in-place), GB/s. */
export function rowBusbw(r: NcclRow): number {
  return Math.max(r.outOfPlace.busbwGBps, r.inPlace.busbwGBps)
}

const INFO = /NCCL INFO (.*)$/
const WARN = /NCCL WARN (.*)$/

/** What NCCL's INFO lines say about its network. */
export function parseNcclNetwork(text: string): NcclNetwork {
  const out: NcclNetwork = {
    network: null,
    ibDevices: [],
    ibNoDevice: false,
    socketInterfaces: [],
    netChannels: 0,
    gdrChannels: 0,
    gdrEnabledHcas: 0,
    gdrDisabledHcas: 0,
    dmabufAvailable: false,
    warnings: [],
    version: null
  }
  for (const line of lines(text)) {
    const w = WARN.exec(line)
    if (w) {
      out.warnings.push(w[1].trim())
      continue
    }
    const m = INFO.exec(line)
    if (!m) continue
    const msg = m[1].trim()
    let x: RegExpExecArray | null
    if ((x = /^NCCL version (\S+)/.exec(msg))) out.version = x[1]
    else if ((x = /^Using network (\S+)/.exec(msg))) out.network = x[1]
    else if (/^NET\/IB\S* : No device found/.test(msg)) out.ibNoDevice = true
    else if ((x = /^NET\/IB\S* : Using((?: \[\d+\]\S+)+)/.exec(msg))) {
      for (const d of x[1].matchAll(/\[\d+\]([^\s/]+)/g))
        if (!out.ibDevices.includes(d[1])) out.ibDevices.push(d[1])
    } else if ((x = /^NET\/Socket : Using((?: \[\d+\]\S+)+)/.exec(msg))) {
      for (const d of x[1].matchAll(/\[\d+\]([^:\s]+):/g))
        if (!out.socketInterfaces.includes(d[1])) out.socketInterfaces.push(d[1])
    } else if ((x = /^NET\/\S+ : GPU Direct RDMA (Enabled|Disabled) for HCA/.exec(msg))) {
      if (x[1] === 'Enabled') out.gdrEnabledHcas++
      else out.gdrDisabledHcas++
    } else if (/^DMA-BUF is available on GPU device/.test(msg)) out.dmabufAvailable = true
    else if (/^Channel \d+(?:\/\d+)? : .* via NET\//.test(msg)) {
      out.netChannels++
      if (/via NET\/[^\s]*\/GDRDMA/.test(msg)) out.gdrChannels++
    }
  }
  return out
}

/**
 * The path from the INFO lines: Socket when NCCL's network is Socket (or it printed only socket
 * interfaces); IB with GPUDirect when the network channels carry `/GDRDMA`, through host memory
 * when they do not; failed when no network was chosen at all (or nothing was printed).
 */
export function ncclMode(n: NcclNetwork): NcclMode {
  const net = n.network ?? ''
  if (/^Socket/i.test(net)) return 'socket'
  if (/^IB/i.test(net) || n.ibDevices.length > 0) {
    if (n.netChannels === 0) return 'failed'
    return n.gdrChannels === n.netChannels ? 'ib-gdr' : 'ib'
  }
  if (n.socketInterfaces.length > 0) return 'socket'
  return 'failed'
}

/** Which GPUDirect path the log names: dmabuf when NCCL found DMA-BUF, peermem when GDR without it. */
export function ncclGdrPath(n: NcclNetwork): 'dmabuf' | 'peermem' | null {
  if (n.gdrChannels === 0) return null
  return n.dmabufAvailable ? 'dmabuf' : 'peermem'
}
