// Parses perftest's output (ib_write_bw, ib_read_lat, ...) into rows in Gb/s and µs, or a structured error
// with perftest's own message. Columns are read from the results header, never guessed. Used by the
// benchmark (docs/benchmark.md) and `perftest parse` (docs/running-locally.md).

import { readFileSync } from 'node:fs'

export type PerftestKind = 'bw' | 'lat'
export type BwUnit = 'Gb/sec' | 'MB/sec' | 'MiB/sec'

export interface BwRow {
  bytes: number
  iterations: number
  /** A peak printed as 0.00 means "not measured": null, never zero. */
  bwPeakGbps: number | null
  bwAvgGbps: number | null
  msgRateMpps: number | null
}

export interface LatRow {
  bytes: number
  iterations: number
  tMinUs: number | null
  tMaxUs: number | null
  tTypicalUs: number | null
  tAvgUs: number | null
  tStdevUs: number | null
  p99Us: number | null
  p999Us: number | null
}

export type PerftestErrorKind =
  | 'connect'
  | 'exchange'
  | 'completion'
  | 'qp'
  | 'device'
  | 'usage'
  | 'resources'
  | 'cuda'
  | 'no-results'
  | 'no-output'

export interface PerftestError {
  /** perftest's own message (the first failure line it printed), or ours when it printed none. */
  message: string
  kind: PerftestErrorKind
  /**
   * The option perftest refused, as written on a command line (`--use_cuda`, `-n`, `-I`): set when
   * perftest refused its command line ('usage') or the build cannot use that memory ('cuda').
   */
  flag?: string
}

/** What the header block and surrounding lines said; none of it is needed to read the rows. */
export interface PerftestMeta {
  title: string | null
  device: string | null
  linkType: string | null
  connectionType: string | null
  qps: number | null
  mtu: number | null
  bidirectional: boolean
  /** false when perftest warned it would not measure the peak or printed every peak as 0.00. */
  peakMeasured: boolean
  /** A literal `...` line showed the copy was cut. */
  truncated: boolean
  /** Rows dropped because an interleaved server/client log printed them twice. */
  mergedDuplicateRows: number
  /** Numbers exactly as printed (in `units` for BW), parallel to `rows`. */
  printed: number[][]
  /** Columns outside the fixed row shape (tps average, CPU_Util, #sl, per-port BW), parallel to `rows`. */
  extra: Array<Record<string, number>>
  /** Failure lines that did not end the run (e.g. a client retrying before its server listened). */
  warnings: string[]
}

export interface PerftestResult {
  tool: string | null
  kind: PerftestKind | null
  /** BW only: the unit perftest printed; rows are converted to Gb/s regardless. null for latency. */
  units: BwUnit | null
  rows: BwRow[] | LatRow[]
  error: PerftestError | null
  meta: PerftestMeta
}

export interface PerftestHint {
  /** Used when the output has no title line (results-only copies), e.g. `ib_write_bw`. */
  tool?: string
}

/** Gb/s per MiB/s: 2^20 bytes × 8 bits / 10^9. */
export const GBPS_PER_MIBPS = 0.008388608

const VERB_TOOL: Record<string, string> = {
  RDMA_Write: 'write',
  RDMA_Read: 'read',
  Send: 'send',
  Atomic: 'atomic',
  Write_imm: 'write',
  RDMA_Write_imm: 'write'
}

const TITLE_RE = /^\s*(\S+)(?:\s+\S+)*?\s+(Bidirectional\s+)?(BW|Latency)\s+Test\s*$/
const NUMBER_RE = /^-?\d+(?:\.\d+)?$/
const INTEGER_RE = /^\d+$/

type Column =
  | 'bytes'
  | 'sl'
  | 'iterations'
  | 'bwPeak'
  | 'bwAvg'
  | 'msgRate'
  | 'port1Bw'
  | 'port1MsgRate'
  | 'port2Bw'
  | 'port2MsgRate'
  | 'cpuUtil'
  | 'tMin'
  | 'tMax'
  | 'tTypical'
  | 'tAvg'
  | 'tStdev'
  | 'p99'
  | 'p999'
  | 'tps'

/**
 * The results headers' columns. BW: #bytes #iterations BW peak BW average MsgRate (+ #sl, per-port,
 * CPU_Util); latency: #bytes #iterations t_min t_max t_typical [t_avg t_stdev 99% 99.9%] (+ CPU_Util);
 * -D latency: #bytes #iterations t_avg [tps average].
 */
const HEADER_TOKENS: Array<[RegExp, Column]> = [
  [/^#bytes/, 'bytes'],
  [/^#sl/, 'sl'],
  [/^#iterations/, 'iterations'],
  [/^BW peak\[/, 'bwPeak'],
  [/^BW average\[/, 'bwAvg'],
  [/^MsgRate\[/, 'msgRate'],
  [/^BW Port1\[/, 'port1Bw'],
  [/^MsgRate Port1\[/, 'port1MsgRate'],
  [/^BW Port2\[/, 'port2Bw'],
  [/^MsgRate Port2\[/, 'port2MsgRate'],
  [/^CPU_Util\[/, 'cpuUtil'],
  [/^t_min\[/, 'tMin'],
  [/^t_max\[/, 'tMax'],
  [/^t_typical\[/, 'tTypical'],
  [/^t_avg\[/, 'tAvg'],
  [/^t_stdev\[/, 'tStdev'],
  [/^99% percentile\[/, 'p99'],
  [/^99\.9% percentile\[/, 'p999'],
  [/^tps average/, 'tps']
]
const HEADER_SPLIT_RE =
  /#bytes|#sl|#iterations|BW peak\[[^\]]*\]|BW average\[[^\]]*\]|MsgRate(?: Port\d)?\[[^\]]*\]|BW Port\d\[[^\]]*\]|CPU_Util\[[^\]]*\]|t_(?:min|max|typical|avg|stdev)\[[^\]]*\]|99(?:\.9)?% percentile\[[^\]]*\]|tps average/g

/** Optional trailing columns a row may lack (perftest prints CPU_Util only with --cpu_util). */
const OPTIONAL_COLUMNS = new Set<Column>(['cpuUtil', 'tps'])

interface Header {
  kind: PerftestKind
  units: BwUnit | null
  columns: Column[]
  line: number
}

interface Failure {
  pattern: RegExp
  kind: PerftestErrorKind
}

/** A refusal of perftest's parameter checks: the line and the option it names. */
interface Refusal {
  pattern: RegExp
  flag: string | ((m: RegExpExecArray) => string)
  kind?: 'cuda'
}

/** The options perftest's value checks name (CHECK_VALUE* in perftest_parameters.h), by that name. */
const CHECKED_OPTIONS: Record<string, string> = {
  Port: '-p',
  'IB Port': '-i',
  MTU: '-m',
  'Iteration num': '-n',
  'Tx depth': '-t',
  TOS: '-T',
  'Hop Limit': '-L',
  'QP Timeout': '-u',
  'Service Level': '-S',
  'Gid index': '-x',
  'num of Qps': '-q',
  'Max inline': '-I',
  'Outstanding Reads': '-o',
  'Rx depth': '-r',
  'CQ moderation': '-Q',
  'Send Post List size': '-l',
  'Duration period': '-D',
  Margin: '-f',
  EQN: '-X',
  'Message Size': '-s',
  'CUDA device': '--use_cuda',
  'Latency gap time': '--latency_gap'
}

function longOption(name: string): string {
  return name.startsWith('-') ? name : `--${name}`
}

/** The option of a getopt error or an unknown option; --use_cuda* unknown = a build without CUDA. */
function getoptRefusal(option: string): string {
  return option.replace(/=.*$/, '')
}

// perftest's refusals of its command line (parser() and force_dependecies() in
// src/perftest_parameters.c, getopt_long's own messages), each naming the option refused. Checked
// before FAILURES; a line that names an option wins over " Parser function exited with Error".
const REFUSALS: Refusal[] = [
  { pattern: /^Perftest supports CUDA latency tests with read\/send verbs only$/, flag: '--use_cuda' },
  {
    pattern: /^Perftest doesn't support CUDA latency test with write \(without immediate\) verb$/,
    flag: '--use_cuda'
  },
  { pattern: /^Perftest doesn't supports? CUDA tests with inline messages$/, flag: '-I' },
  { pattern: /^Unsupported memory type$/, flag: '--use_cuda', kind: 'cuda' },
  { pattern: /^CUDA DMA-BUF cannot be used without CUDA$/, flag: '--use_cuda_dmabuf' },
  {
    pattern: /unrecognized option [`'](--use_cuda[^'=]*)/,
    flag: m => getoptRefusal(m[1]),
    kind: 'cuda'
  },
  { pattern: /unrecognized option [`'](-[^']+)'/, flag: m => getoptRefusal(m[1]) },
  { pattern: /invalid option -- '?(.)'?$/, flag: m => `-${m[1]}` },
  { pattern: /option requires an argument -- '?(.)'?$/, flag: m => `-${m[1]}` },
  { pattern: /option [`'](--[^'=]+)'? (?:requires|doesn't allow) an argument/, flag: m => m[1] },
  { pattern: /^Duplicated argument: (\S+)$/, flag: m => longOption(m[1]) },
  {
    pattern:
      /^(.+?) (?:argument .* should be \w+|should be between -?\d+ and -?\d+|must be positive|must be non-negative\b.*)$/,
    flag: m => CHECKED_OPTIONS[m[1].trim()] ?? ''
  },
  { pattern: /^IB Port can't be less than \d+$/, flag: '-i' },
  { pattern: /^Only \d+ Service levels$/, flag: '-S' },
  { pattern: /^Multiple QPs only available on bw tests$/, flag: '-q' },
  { pattern: /^Bidirectional is only available in BW test$/, flag: '-b' },
  { pattern: /^NoPeak only valid for BW tests$/, flag: '-N' },
  { pattern: /^Events feature not available on WRITE verb$/, flag: '-e' },
  { pattern: /^Inline feature not available on READ\/Atomic verbs$/, flag: '-I' },
  { pattern: /^Setting Outstanding reads only available on READ verb$/, flag: '-o' },
  { pattern: /^On RDMA verbs rx depth can be only 1$/, flag: '-r' },
  { pattern: /^Message size cannot be changed for Atomic tests/, flag: '-s' },
  {
    pattern: /^Duration mode (?:currently doesn't support running on all sizes|doesn't work with events)\.$/,
    flag: '-D'
  },
  { pattern: /^run_infinitely exists only in BW tests for now\.$/, flag: '--run_infinitely' },
  { pattern: /^Dual-port mode only supports BW tests\.$/, flag: '-O' },
  { pattern: /^Post list is supported in BW tests only$/, flag: '-l' },
  {
    pattern: /^Perftest supports using a null memory region with write\/read verbs only$/,
    flag: '--use-null-mr'
  },
  {
    pattern: /^Write_with_imm can only be used with write_lat and write_bw tests$/,
    flag: '--write_with_imm'
  },
  {
    pattern: /^Invalid Command line\. Please check command rerun$/,
    flag: 'the server address (one operand only)'
  }
]

function findRefusal(line: string): PerftestError | null {
  for (const r of REFUSALS) {
    const m = r.pattern.exec(line)
    if (!m) continue
    const flag = typeof r.flag === 'string' ? r.flag : r.flag(m)
    if (flag) return { message: line, kind: r.kind ?? 'usage', flag }
  }
  return null
}

// Ordered: the first matching line decides the kind. Messages come from perftest's sources
// (perftest_communication.c, perftest_resources.c, perftest_parameters.c).
const FAILURES: Failure[] = [
  { pattern: /Couldn't connect to \S+/, kind: 'connect' },
  { pattern: /Unable to init the socket connection/, kind: 'connect' },
  { pattern: /Unable to open file descriptor for socket connection/, kind: 'connect' },
  { pattern: /Couldn't (?:read|write) remote address|ethernet_(?:read|write)_keys/, kind: 'exchange' },
  { pattern: /Failed to exchange data? between server and clients?/i, kind: 'exchange' },
  { pattern: /Completion with error|got completion with error|syndrom(?:e)? 0x/i, kind: 'completion' },
  { pattern: /Failed to modify (?:the )?QP|Unable to Connect the HCA's through the link/i, kind: 'qp' },
  { pattern: /Couldn't create QP|Unable to create QP|Failed to create QP/i, kind: 'qp' },
  {
    pattern:
      /Did not detect devices|No IB devices found|IB device \S+ not found|Couldn't get context for|Unable to find the Infiniband\/RoCE device|Failed to get IB devices list/i,
    kind: 'device'
  },
  {
    pattern:
      /unrecognized option|invalid option|unknown option|Invalid Command|Parser function exited with Error|option requires an argument/i,
    kind: 'usage'
  },
  { pattern: /CUDA (?:DMA-BUF )?cannot be used|cuInit|CUDA.*(?:failed|error|not supported)/i, kind: 'cuda' },
  {
    pattern: /Couldn't allocate MR|Couldn't create CQ|Couldn't allocate PD|Cannot Allocate/i,
    kind: 'resources'
  },
  { pattern: /Test exited with Error|Error in run iter|Failed to complete run_iter/i, kind: 'completion' }
]

/** A perftest usage dump (what a build without --use_cuda prints for that flag) has this line. */
const USAGE_RE = /^\s*Usage:\s*$|start a server and wait for connection/

function round6(n: number): number {
  return Math.round(n * 1e6) / 1e6
}

function toGbps(value: number | null, units: BwUnit | null): number | null {
  if (value === null) return null
  if (units === 'Gb/sec' || units === null) return value
  return round6(value * GBPS_PER_MIBPS)
}

function parseHeader(line: string, index: number): Header | null {
  if (!line.includes('#bytes')) return null
  const names = line.match(HEADER_SPLIT_RE) ?? []
  const columns: Column[] = []
  for (const name of names) {
    const hit = HEADER_TOKENS.find(([re]) => re.test(name))
    if (hit) columns.push(hit[1])
  }
  if (!columns.includes('bytes') || !columns.includes('iterations')) return null
  const isBw = columns.includes('bwAvg') || columns.includes('bwPeak')
  const isLat = columns.some(c => c === 'tMin' || c === 'tAvg' || c === 'tTypical')
  if (!isBw && !isLat) return null
  let units: BwUnit | null = null
  if (isBw) {
    const unit = /BW (?:average|peak)\[([^\]]+)\]/.exec(line)?.[1]
    units = unit === 'Gb/sec' || unit === 'MB/sec' || unit === 'MiB/sec' ? unit : null
  }
  return { kind: isBw ? 'bw' : 'lat', units, columns, line: index }
}

/** Numbers of a result row, or null when the line is not one for this header. */
function rowTokens(line: string, header: Header): number[] | null {
  const tokens = line.trim().split(/\s+/)
  if (tokens.length === 0 || !INTEGER_RE.test(tokens[0])) return null
  if (!tokens.every(t => NUMBER_RE.test(t))) return null
  const required = header.columns.filter(c => !OPTIONAL_COLUMNS.has(c)).length
  if (tokens.length < required || tokens.length > header.columns.length) return null
  return tokens.map(Number)
}

function pick(values: number[], header: Header, column: Column): number | null {
  const i = header.columns.indexOf(column)
  return i >= 0 && i < values.length ? values[i] : null
}

function buildRow(values: number[], header: Header): { row: BwRow | LatRow; extra: Record<string, number> } {
  const extra: Record<string, number> = {}
  const standard = new Set<Column>(
    header.kind === 'bw'
      ? ['bytes', 'iterations', 'bwPeak', 'bwAvg', 'msgRate']
      : ['bytes', 'iterations', 'tMin', 'tMax', 'tTypical', 'tAvg', 'tStdev', 'p99', 'p999']
  )
  header.columns.forEach((c, i) => {
    if (!standard.has(c) && i < values.length) extra[c] = values[i]
  })
  const bytes = pick(values, header, 'bytes') ?? 0
  const iterations = pick(values, header, 'iterations') ?? 0
  if (header.kind === 'bw') {
    const peak = pick(values, header, 'bwPeak')
    return {
      row: {
        bytes,
        iterations,
        bwPeakGbps: peak === 0 ? null : toGbps(peak, header.units),
        bwAvgGbps: toGbps(pick(values, header, 'bwAvg'), header.units),
        msgRateMpps: pick(values, header, 'msgRate')
      },
      extra
    }
  }
  return {
    row: {
      bytes,
      iterations,
      tMinUs: pick(values, header, 'tMin'),
      tMaxUs: pick(values, header, 'tMax'),
      tTypicalUs: pick(values, header, 'tTypical'),
      tAvgUs: pick(values, header, 'tAvg'),
      tStdevUs: pick(values, header, 'tStdev'),
      p99Us: pick(values, header, 'p99'),
      p999Us: pick(values, header, 'p999')
    },
    extra
  }
}

function headerValue(lines: string[], label: RegExp): string | null {
  for (const line of lines) {
    const m = label.exec(line)
    if (m) return m[1].trim()
  }
  return null
}

function toolFromTitle(title: RegExpExecArray): string | null {
  const verb = VERB_TOOL[title[1]]
  if (!verb) return null
  return `ib_${verb}_${title[3] === 'BW' ? 'bw' : 'lat'}`
}

function findFailure(line: string): PerftestError | null {
  const refusal = findRefusal(line)
  if (refusal) return refusal
  for (const f of FAILURES) {
    if (f.pattern.test(line)) return { message: line.trim(), kind: f.kind }
  }
  return null
}

interface Collected {
  values: number[]
  row: BwRow | LatRow
  extra: Record<string, number>
}

/** What one pass over perftest's lines finds: title, tables, rows, failures. */
interface Scan {
  tool: string | null
  titleKind: PerftestKind | null
  firstHeader: Header | null
  usageSeen: boolean
  failures: Array<{ error: PerftestError; line: number }>
  collected: Collected[]
  lastRowLine: number
  peakWarning: boolean
}

/** Reads every line once: the title, the first results table's rows, failures (meta notes the rest). */
function scanLines(lines: string[], meta: PerftestMeta): Scan {
  const scan: Scan = {
    tool: null,
    titleKind: null,
    firstHeader: null,
    usageSeen: false,
    failures: [],
    collected: [],
    lastRowLine: -1,
    peakWarning: false
  }
  let header: Header | null = null
  for (let index = 0; index < lines.length; index++) {
    const raw = lines[index]
    const line = raw.replace(/\t/g, '    ')
    const trimmed = line.trim()
    if (trimmed === '') continue
    if (trimmed === '...' || trimmed === '…') {
      meta.truncated = true
      continue
    }
    const title = TITLE_RE.exec(trimmed)
    if (title && !trimmed.includes(':')) {
      meta.title ??= trimmed
      scan.tool ??= toolFromTitle(title)
      scan.titleKind ??= title[3] === 'BW' ? 'bw' : 'lat'
      if (title[2]) meta.bidirectional = true
      continue
    }
    if (/BW peak won't be measured/i.test(trimmed)) {
      scan.peakWarning = true
      continue
    }
    if (USAGE_RE.test(line)) scan.usageSeen = true
    const parsedHeader = parseHeader(line, index)
    if (parsedHeader) {
      if (scan.firstHeader && parsedHeader.kind !== scan.firstHeader.kind) {
        meta.warnings.push(`ignored a second results table of another kind at line ${index + 1}`)
        header = null
        continue
      }
      scan.firstHeader ??= parsedHeader
      header = parsedHeader
      continue
    }
    if (header) {
      const values = rowTokens(line, header)
      if (values) {
        const { row, extra } = buildRow(values, header)
        scan.collected.push({ values, row, extra })
        scan.lastRowLine = index
        continue
      }
    }
    const failure = findFailure(trimmed)
    if (failure) scan.failures.push({ error: failure, line: index })
  }
  return scan
}

/** The run's settings perftest prints above its results table. */
function readHeaderMeta(headerLines: string[], meta: PerftestMeta): void {
  meta.device = headerValue(headerLines, /Device\s*:\s*(\S+)/)
  meta.linkType = headerValue(headerLines, /Link type\s*:\s*(\S+)/)
  meta.connectionType = headerValue(headerLines, /Connection type\s*:\s*(\S+)/)
  const qps = headerValue(headerLines, /Number of qps\s*:\s*(\d+)/)
  meta.qps = qps === null ? null : Number(qps)
  const mtu = headerValue(headerLines, /^\s*Mtu\s*:\s*(\d+)/)
  meta.mtu = mtu === null ? null : Number(mtu)
}

/** The error that ended the run, if any (failures before the results are warnings in meta). */
function runError(text: string, scan: Scan, rowCount: number, meta: PerftestMeta): PerftestError | null {
  // A failure printed after the last row ended the run; one printed before the final results table
  // (a client retrying `Couldn't connect` until its server listens) did not.
  const fatal = scan.failures.filter(f => rowCount === 0 || f.line > scan.lastRowLine)
  for (const f of scan.failures) if (!fatal.includes(f)) meta.warnings.push(f.error.message)
  // perftest's stdout reaches a pipe or file only when it exits, after its stderr: a line naming
  // the refused option wins over the generic ones around it, wherever it is.
  let error: PerftestError | null = (fatal.find(f => f.error.flag) ?? fatal[0])?.error ?? null
  if (!error && scan.usageSeen && rowCount === 0) {
    error = { message: 'perftest printed its usage text: an option was not accepted', kind: 'usage' }
  }
  if (!error && rowCount === 0) {
    error = scan.firstHeader
      ? { message: 'perftest printed a results header but no result rows', kind: 'no-results' }
      : {
          message: text.trim() === '' ? 'perftest printed nothing' : 'no perftest results table found',
          kind: 'no-output'
        }
  }
  return error
}

/** Parses perftest's stdout (or stdout+stderr) into rows in Gb/s / µs, or a structured error. */
export function parsePerftestOutput(text: string, hint: PerftestHint = {}): PerftestResult {
  const lines = text.replace(/\r\n?/g, '\n').split('\n')
  const meta: PerftestMeta = {
    title: null,
    device: null,
    linkType: null,
    connectionType: null,
    qps: null,
    mtu: null,
    bidirectional: false,
    peakMeasured: true,
    truncated: false,
    mergedDuplicateRows: 0,
    printed: [],
    extra: [],
    warnings: []
  }
  const scan = scanLines(lines, meta)
  const firstHeader = scan.firstHeader
  readHeaderMeta(lines.slice(0, firstHeader?.line ?? lines.length), meta)

  const rows = mergeInterleaved(scan.collected, firstHeader?.kind ?? null)
  meta.mergedDuplicateRows = scan.collected.length - rows.length
  meta.printed = rows.map(r => r.values)
  meta.extra = rows.map(r => r.extra)
  const kind = firstHeader?.kind ?? scan.titleKind ?? kindFromTool(hint.tool)
  const tool = scan.tool ?? hint.tool ?? null
  if (kind === 'bw') {
    const anyPeak = rows.some(r => (r.row as BwRow).bwPeakGbps !== null)
    meta.peakMeasured = !scan.peakWarning && (rows.length === 0 || anyPeak)
  } else {
    meta.peakMeasured = false
  }
  const error = runError(text, scan, rows.length, meta)

  return {
    tool,
    kind,
    units: kind === 'bw' ? (firstHeader?.units ?? null) : null,
    rows: rows.map(r => r.row) as BwRow[] | LatRow[],
    error,
    meta
  }
}

function kindFromTool(tool: string | undefined): PerftestKind | null {
  if (!tool) return null
  if (/_bw$/.test(tool)) return 'bw'
  if (/_lat$/.test(tool)) return 'lat'
  return null
}

/**
 * Merges the doubled rows of an interleaved server+client log: identical rows collapse into one; when
 * the two sides printed different numbers for one message size, the row with a measured peak (the
 * client; a send-BW server never measures it) replaces the other. Order of first appearance is kept.
 */
function mergeInterleaved(rows: Collected[], kind: PerftestKind | null): Collected[] {
  const bySize = new Map<number, number>()
  const out: Collected[] = []
  for (const r of rows) {
    const at = bySize.get(r.row.bytes)
    if (at === undefined) {
      bySize.set(r.row.bytes, out.length)
      out.push(r)
      continue
    }
    const kept = out[at]
    if (kind === 'bw' && (kept.row as BwRow).bwPeakGbps === null && (r.row as BwRow).bwPeakGbps !== null) {
      out[at] = r
    }
  }
  return out
}

/** The row a single-size run produced or, for an all-sizes run, the largest message size. */
export function headlineRow<R extends BwRow | LatRow>(rows: R[]): R | null {
  if (rows.length === 0) return null
  return rows.reduce((best, r) => (r.bytes >= best.bytes ? r : best), rows[0])
}

/** An error in one line: `refused --use_cuda: <perftest's message>` or `<kind>: <message>`. */
export function describePerftestError(e: PerftestError): string {
  return e.flag ? `refused ${e.flag}: ${e.message}` : `${e.kind}: ${e.message}`
}

/** CLI: `perftest parse FILE [--tool ib_read_lat]` → the PerftestResult as pretty JSON. */
export function perftestParseCommand(file: string, hint: PerftestHint = {}): string {
  const text = readFileSync(file, 'utf8')
  return JSON.stringify(parsePerftestOutput(text, hint), null, 2) + '\n'
}

/** What `perftest parse` prints and exits with. */
export interface ParseCommandResult {
  /** The JSON result (stdout); absent when the input is not the tool's output. */
  json?: string
  /** 0 parsed, 1 the output reports a failed run (a refused command line included), 2 not perftest output. */
  exitCode: 0 | 1 | 2
  /** Why it did not exit 0 (stderr). */
  message?: string
}

/** CLI: the text of `perftest parse FILE|-` → its JSON and exit code. */
export function perftestCliResult(text: string, hint: PerftestHint = {}): ParseCommandResult {
  const r = parsePerftestOutput(text, hint)
  const recognised = r.rows.length > 0 || r.meta.title !== null || r.meta.device !== null
  if (!recognised && (!r.error || r.error.kind === 'no-output'))
    return {
      exitCode: 2,
      message: `not perftest output (${text.trim() === '' ? 'the input is empty' : 'no perftest header or results table'})`
    }
  const json = JSON.stringify(r, null, 2) + '\n'
  if (r.error)
    return { json, exitCode: 1, message: `perftest reported a failure: ${describePerftestError(r.error)}` }
  return { json, exitCode: 0 }
}
