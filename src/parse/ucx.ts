// Parsers of UCX's own output (openucx/ucx v1.19): log lines, `ucx_info -d`, ucx_perftest's `Final:` row
// and the UCX_PROTO_INFO=y protocol tables, so the transport UCX chose is read from UCX itself. Pure: no
// I/O; tolerant of interleaved output. Formats and sources: sim/README.md; use: docs/transport-check.md.

export type UcxLogLevel = 'FATAL' | 'ERROR' | 'WARN' | 'DIAG' | 'INFO' | 'DEBUG'

export interface UcxLogLine {
  level: UcxLogLevel
  /** `ib_log.c:246` */
  source: string
  message: string
}

/**
 * `[1668693503.473099] [ampere:1188443:0]          ib_log.c:246  UCX  ERROR msg`; the source
 * position and level are enough (a quoted line may have lost its timestamp and host).
 */
const LOG_LINE = /(?:^|\s)([\w.-]+\.(?:c|h|cc|inl):\d+)\s+UCX\s+(FATAL|ERROR|WARN|DIAG|INFO|DEBUG)\s+(.*)$/

/** UCX's log lines in a text (other lines ignored). */
export function ucxLogLines(text: string): UcxLogLine[] {
  const out: UcxLogLine[] = []
  for (const line of lines(text)) {
    const m = LOG_LINE.exec(line)
    if (m) out.push({ source: m[1], level: m[2] as UcxLogLevel, message: m[3].trim() })
  }
  return out
}

function lines(text: string): string[] {
  return text.replace(/\r\n?/g, '\n').split('\n')
}

// ---- ucx_info -d ----

export interface UcxTransportResource {
  /** `rc_mlx5` */
  transport: string
  /** `mlx5_ib0:1` */
  device: string
  /** `< failed to open interface >` printed under it. */
  failedToOpen: boolean
}

export interface UcxMemoryDomain {
  /** `mlx5_ib0`, `cuda_cpy`, `tcp` … */
  name: string
  /** `ib`, `cuda_cpy`, `tcp` … */
  component: string
  /** `register: …, dmabuf, …`: the domain registers memory through dma-buf file descriptors. */
  registerDmabuf: boolean
  /** Memory type → its capabilities (`host` → [access, reg, cache]). */
  memoryTypes: Record<string, string[]>
  transports: UcxTransportResource[]
  /** `< failed to open memory domain … >` */
  failedToOpen: boolean
}

/** `host (access,reg,cache), cuda (reg,cache)` → {host: [...], cuda: [...]} */
export function parseMemoryTypes(text: string): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  const re = /([a-z][a-z0-9-]*)(?:\s*\(([^)]*)\))?\s*(?:,|$)/g
  for (const m of text.trim().matchAll(re)) {
    if (!m[1]) continue
    out[m[1]] = (m[2] ?? '')
      .split(',')
      .map(s => s.trim())
      .filter(Boolean)
  }
  return out
}

/** A domain's `register: unlimited, dmabuf, cost: …` line names dma-buf registration. */
export function registersDmabuf(line: string): boolean {
  const m = /register:\s*(.*)$/.exec(line.trim().replace(/^#/, ''))
  return !!m && m[1].split(',').some(f => f.trim() === 'dmabuf')
}

/** The memory domains `ucx_info -d` lists, with their transports. */
export function parseUcxInfoDevices(text: string): UcxMemoryDomain[] {
  const out: UcxMemoryDomain[] = []
  let md: UcxMemoryDomain | undefined
  let tl: UcxTransportResource | undefined
  for (const raw of lines(text)) {
    const line = raw.replace(/^\s*#/, '').trim()
    if (!raw.trim().startsWith('#')) continue
    let m = /^Memory domain:\s*(\S+)/.exec(line)
    if (m) {
      md = {
        name: m[1],
        component: '',
        registerDmabuf: false,
        memoryTypes: {},
        transports: [],
        failedToOpen: false
      }
      out.push(md)
      tl = undefined
      continue
    }
    m = /^< failed to open memory domain (\S+)/.exec(line)
    if (m) {
      out.push({
        name: m[1],
        component: '',
        registerDmabuf: false,
        memoryTypes: {},
        transports: [],
        failedToOpen: true
      })
      md = undefined
      continue
    }
    if (!md) continue
    if ((m = /^Component:\s*(\S+)/i.exec(line))) md.component = m[1]
    else if (/^register:/.test(line)) md.registerDmabuf = registersDmabuf(line)
    else if ((m = /^memory types:\s*(.*)$/.exec(line))) md.memoryTypes = parseMemoryTypes(m[1])
    else if ((m = /^Transport:\s*(\S+)/.exec(line))) {
      tl = { transport: m[1], device: '', failedToOpen: false }
      md.transports.push(tl)
    } else if (tl && (m = /^Device:\s*(\S+)/.exec(line))) tl.device = m[1]
    else if (tl && /^< failed to open interface >/.test(line)) tl.failedToOpen = true
  }
  return out
}

// ---- ucx_perftest ----

export interface UcxPerfFinal {
  iterations: number
  /** Latency (or overhead, for bandwidth tests) in µs: the percentile, the last period's and overall. */
  latencyUs: { percentile: number; average: number; overall: number }
  /** MB/s as ucx_perftest prints them (2^20 bytes per second). */
  bandwidthMBs: { average: number; overall: number }
  messageRate: { average: number; overall: number }
}

export interface UcxPerftestOutput {
  /** The `Final:` row; null when the test did not complete. */
  final: UcxPerfFinal | null
  /** `| Send memory:  cuda |` and `| Recv memory: …` of the test box (the server prints it). */
  sendMemory?: string
  recvMemory?: string
  /** `| Test:         get latency / bandwidth / message rate |` */
  test?: string
  log: UcxLogLine[]
  protocols: ProtoTable[]
}

const NUM = '([0-9][0-9,]*(?:\\.[0-9]+)?)'
/** `Final:  1000  0.240  1675.942  1671.351  46615.58  46743.62  597  598` (with -N the numbers carry commas). */
const FINAL_ROW = new RegExp(`^\\s*Final:\\s+${Array(8).fill(NUM).join('\\s+')}\\s*$`)

const num = (s: string) => Number(s.replace(/,/g, ''))

export function parseUcxPerftest(text: string): UcxPerftestOutput {
  let final: UcxPerfFinal | null = null
  const out: UcxPerftestOutput = { final: null, log: ucxLogLines(text), protocols: parseProtoInfo(text) }
  for (const line of lines(text)) {
    const m = FINAL_ROW.exec(line)
    if (m) {
      const v = m.slice(1, 9).map(num)
      final = {
        iterations: v[0],
        latencyUs: { percentile: v[1], average: v[2], overall: v[3] },
        bandwidthMBs: { average: v[4], overall: v[5] },
        messageRate: { average: v[6], overall: v[7] }
      }
      continue
    }
    const box = /^\|\s*(Test|Send memory|Recv memory):\s*(.*?)\s*\|\s*$/.exec(line)
    if (box) {
      if (box[1] === 'Test') out.test = box[2]
      else if (box[1] === 'Send memory') out.sendMemory = box[2]
      else out.recvMemory = box[2]
    }
  }
  out.final = final
  return out
}

/** MB/s (2^20 B/s, ucx_perftest's unit) as Gb/s (10^9 bit/s). */
export function mbsToGbps(mbs: number): number {
  return (mbs * 2 ** 20 * 8) / 1e9
}

// ---- UCX_PROTO_INFO ----

export interface ProtoRow {
  /** Message sizes the row covers, inclusive (Infinity for `inf`). */
  from: number
  to: number
  /** `zero-copy`, `(?) rendezvous zero-copy read from remote`, `software emulation` … */
  protocol: string
  /** `rc_mlx5/mlx5_ib0:1`, `50% on rc_mlx5/mlx5_ib0:1 and 50% on rc_mlx5/mlx5_ib1:1` … */
  config: string
  /** The transport/device lanes the config names (`rc_mlx5/mlx5_ib0:1`). */
  lanes: string[]
}

export interface ProtoTable {
  /** `perftest inter-node cfg#1` */
  endpoint: string
  /** `remote memory read by ucp_get* into cuda/GPU0 from cuda/dev[3]` */
  operation: string
  rows: ProtoRow[]
}

/** UCX's `ucs_memunits_to_str`: `2038`, `8K`, `1.5M`, `inf`. */
export function parseMemunits(s: string): number {
  const t = s.trim()
  if (t === 'inf') return Infinity
  const m = /^(\d+(?:\.\d+)?)([KMGTP]?)B?$/i.exec(t)
  if (!m) return NaN
  const mult = { '': 1, K: 2 ** 10, M: 2 ** 20, G: 2 ** 30, T: 2 ** 40, P: 2 ** 50 }[m[2].toUpperCase()]!
  return Math.round(Number(m[1]) * mult)
}

/** `0..2K` → [0, 2048]; `17298..inf`; `0` → [0, 0]. */
export function parseRange(s: string): [number, number] | undefined {
  const parts = s.trim().split('..')
  const from = parseMemunits(parts[0])
  const to = parts.length > 1 ? parseMemunits(parts[1]) : from
  return Number.isNaN(from) || Number.isNaN(to) ? undefined : [from, to]
}

const LANE = /\b([a-z][a-z0-9_]*)\/([A-Za-z0-9_.:-]+?)(?=\/path\d|\s|,|$)/g

/** The `transport/device` lanes named in a protocol config column. */
export function lanesOf(config: string): string[] {
  return [...new Set([...config.matchAll(LANE)].map(m => `${m[1]}/${m[2]}`))]
}

/** A table cell row `| a | b | c |` (after any log prefix) → its cells; undefined otherwise. */
function cells(line: string): string[] | undefined {
  const i = line.indexOf('|')
  if (i < 0) return undefined
  const body = line.slice(i).trim()
  if (!body.startsWith('|') || !body.endsWith('|')) return undefined
  return body
    .slice(1, -1)
    .split('|')
    .map(c => c.trim())
}

/** Every protocol table UCX_PROTO_INFO printed (log prefixes and separator lines skipped). */
export function parseProtoInfo(text: string): ProtoTable[] {
  const out: ProtoTable[] = []
  let cur: ProtoTable | undefined
  for (const line of lines(text)) {
    const c = cells(line)
    if (!c) continue
    if (c.length === 2 && /\bcfg#\d+|\bep_cfg\[\d+\]/.test(c[0])) {
      cur = { endpoint: c[0], operation: c[1], rows: [] }
      out.push(cur)
      continue
    }
    if (c.length === 3 && cur) {
      const range = parseRange(c[0])
      if (!range) continue
      cur.rows.push({ from: range[0], to: range[1], protocol: c[1], config: c[2], lanes: lanesOf(c[2]) })
    }
  }
  return out
}

/** The row of a table that covers a message size. */
export function rowFor(table: ProtoTable, size: number): ProtoRow | undefined {
  return table.rows.find(r => r.from <= size && size <= r.to)
}
