// The run report as plain text in 80 columns for a terminal (docs/running-locally.md), with the job
// summary's facts. Control characters from the cluster or Azure are shown as `?`. No I/O.
import { formatDuration } from '../util/duration.js'
import { isBandwidth, outlierReasons } from './benchmark-summary.js'
import { driftFix } from '../drift/item.js'
import type { Report, ReportBenchmark, ReportStep } from './report.js'
import { resultWord, verdictReasons } from './summary.js'

/** The post step's part of a report (src/run/post.ts adds it). */
export interface TextPostSection {
  exitCode?: number
  cleanup?: Array<{ resource: string; name: string; result: string; reason?: string }>
}

export type TextReport = Report & { post?: TextPostSection }

export interface TextOptions {
  /** Widest line (default 80). */
  width?: number
  /** How long the run took, main and post step (default: from the first step's start to the last's end). */
  totalMs?: number
  /**
   * The simulated world's time scale (`kube.timeScale`, 0.01 by default) when the run was against
   * one: its waits take that fraction of their real length, so the times are labelled.
   */
  simTimeScale?: number
  /** Most nodes, checks' failing nodes and drift rows listed (default 10). */
  maxRows?: number
}

/** Text from outside shown as it is, minus what a terminal would act on (escapes, other controls). */
export function plain(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\r\n?|\n/g, ' ').replace(/[\u0000-\u001f\u007f-\u009f]/g, '?')
}

/**
 * Words of `text` in lines of at most `width` columns, the first starting with `first`, the
 * others with `rest`. A word longer than a line (a path, a URL) is kept whole on a line of its own.
 */
export function wrap(text: string, width: number, first = '', rest = first): string[] {
  const words = plain(text).split(' ').filter(Boolean)
  const lines: string[] = []
  let line = first
  let empty = true
  for (const w of words) {
    if (!empty && line.length + 1 + w.length > width) {
      lines.push(line)
      line = rest
      empty = true
    }
    line += (empty ? '' : ' ') + w
    empty = false
  }
  if (!empty || !lines.length) lines.push(line)
  return lines.map(l => l.trimEnd())
}

/** `text` cut to `max` columns with an ellipsis. */
function cut(text: string, max: number): string {
  const t = plain(text)
  return t.length <= max ? t : t.slice(0, Math.max(0, max - 1)) + '…'
}

const pad = (s: string, n: number): string => s + ' '.repeat(Math.max(0, n - s.length))
const padStart = (s: string, n: number): string => ' '.repeat(Math.max(0, n - s.length)) + s

/** The span from the first step's start to the last step's end (ms), when the steps say. */
function stepsSpan(steps: ReportStep[]): number | undefined {
  const starts = steps.map(s => Date.parse(s.startedAt)).filter(t => !Number.isNaN(t))
  const ends = steps.map(s => Date.parse(s.finishedAt)).filter(t => !Number.isNaN(t))
  if (!starts.length || !ends.length) return undefined
  return Math.max(0, Math.max(...ends) - Math.min(...starts))
}

function headline(r: TextReport, o: Required<Omit<TextOptions, 'totalMs' | 'simTimeScale'>> & TextOptions) {
  const total = o.totalMs ?? stepsSpan(r.steps)
  const took =
    total === undefined
      ? ''
      : o.totalMs !== undefined
        ? ` in ${formatDuration(total)} (main and post step)`
        : ` in ${formatDuration(total)}`
  const lines = wrap(`result: ${r.result} — ${r.mode} ${resultWord(r)}${took}`, o.width)
  for (const reason of verdictReasons(r)) lines.push(...wrap(reason, o.width, '  '))
  if (o.simTimeScale !== undefined && o.simTimeScale > 0 && o.simTimeScale < 1) {
    const speed = Math.round(1 / o.simTimeScale)
    lines.push(
      ...wrap(
        `Simulated world: its waits run ${speed}× faster than Azure's and the cluster's ` +
          `(time scale ${o.simTimeScale}); the times here are real, so far shorter than a real run's.`,
        o.width,
        '  '
      )
    )
  }
  return lines
}

function stepsSection(r: TextReport, width: number): string[] {
  if (!r.steps.length) return []
  const starts = r.steps.map(s => Date.parse(s.startedAt))
  const known = starts.filter(t => !Number.isNaN(t))
  const t0 = known.length ? Math.min(...known) : NaN
  const nameWidth = Math.min(24, Math.max(4, ...r.steps.map(s => plain(s.name).length)))
  const head = `  ${pad('Step', nameWidth)}  ${pad('result', 9)}  ${pad('action', 9)}  ${padStart('time', 6)}  start`
  const lines = ['Steps', head]
  for (const [i, s] of r.steps.entries()) {
    const action = s.action ?? (s.status === 'skipped' ? '-' : s.changed ? 'changed' : 'unchanged')
    const offset = Math.max(0, Math.round((starts[i] - t0) / 1000)) * 1000
    const start = Number.isNaN(offset) ? '-' : offset ? `+${formatDuration(offset)}` : '+0s'
    lines.push(
      `  ${pad(cut(s.name, nameWidth), nameWidth)}  ${pad(s.status, 9)}  ${pad(action, 9)}  ${padStart(formatDuration(s.durationMs), 6)}  ${start}`
    )
    if (s.version) lines.push(...wrap(`${s.version.from} → ${s.version.to}`, width, '    '))
    // The detail of what did not simply succeed: the why of a failure, a skip, a warning.
    if (s.status !== 'success' && s.detail) lines.push(...wrap(s.detail, width, '    '))
  }
  return lines
}

function checksSection(r: TextReport, width: number, maxRows: number): string[] {
  if (!r.checks.length) return []
  const pass = r.checks.filter(c => c.status === 'pass').length
  const nameWidth = Math.min(24, Math.max(...r.checks.map(c => plain(c.name).length)))
  const lines = [`Verification: ${pass}/${r.checks.length} checks pass`]
  for (const c of r.checks) {
    const nodes = c.nodes ?? []
    const bad = nodes.filter(n => n.status === 'fail' || n.status === 'warn')
    const count = nodes.length
      ? bad.length
        ? `${bad.length} of ${nodes.length} nodes failing`
        : `${nodes.length - bad.length} of ${nodes.length} nodes healthy`
      : ''
    lines.push(`  ${pad(cut(c.name, nameWidth), nameWidth)}  ${pad(c.status, 7)}  ${count}`.trimEnd())
    if (c.status !== 'pass' && c.detail) lines.push(...wrap(c.detail, width, '    '))
    for (const n of bad.slice(0, maxRows))
      lines.push(...wrap(`${n.node}: ${n.detail}`, width, '    ', '      '))
    if (bad.length > maxRows)
      lines.push(`    …and ${bad.length - maxRows} more failing nodes (see the report)`)
  }
  if (r.gpudirect) lines.push(...wrap(r.gpudirect.detail, width, '  ', '    '))
  return lines
}

function benchmarkSection(b: ReportBenchmark, width: number, maxRows: number): string[] {
  const bw = b.pairs.filter(isBandwidth)
  const lat = b.pairs.filter(p => !isBandwidth(p))
  const failing = b.pairs.filter(p => p.verdict === 'fail').length
  const nodes = new Set(b.pairs.flatMap(p => [p.server, p.client]))
  const nics = new Set(bw.map(p => p.device ?? ''))
  const facts = [
    ...(b.scope ? [`${b.scope} scope`] : []),
    `${nodes.size} node${nodes.size === 1 ? '' : 's'} × ${nics.size} NIC${nics.size === 1 ? '' : 's'}`,
    `${b.pairs.length} measurement${b.pairs.length === 1 ? '' : 's'}`,
    failing ? `${failing} failing` : 'all pass'
  ]
  const lines = wrap(`Benchmark: ${facts.join(', ')}`, width, '', '  ')
  const numbers = bw.map(p => p.bwAvgGbps).filter((n): n is number => typeof n === 'number')
  const line = Math.max(0, ...bw.map(p => p.linkGbps ?? 0))
  const said: string[] = []
  if (numbers.length) {
    const lowest = bw.find(p => p.bwAvgGbps === Math.min(...numbers))!
    const where = [
      lowest.device,
      lowest.ratio !== null ? `${Math.round(lowest.ratio * 1000) / 10}% of line rate` : undefined
    ].filter(Boolean)
    said.push(
      `lowest bandwidth ${lowest.bwAvgGbps!.toFixed(2)} Gb/s${where.length ? ` (${where.join(', ')})` : ''}`
    )
  }
  if (b.minBandwidthRatio !== undefined && line > 0)
    said.push(
      `pass mark ${(line * b.minBandwidthRatio).toFixed(1)} Gb/s (${Math.round(b.minBandwidthRatio * 100)}% of ${line} Gb/s)`
    )
  for (const [test, v] of Object.entries(b.medianGbps ?? {})) said.push(`median ${test} ${v.toFixed(2)} Gb/s`)
  const latencies = lat.map(p => p.tTypicalUs ?? p.tAvgUs).filter((n): n is number => typeof n === 'number')
  if (latencies.length) said.push(`latency ${Math.max(...latencies).toFixed(2)} µs (worst typical)`)
  const ran = bw.filter(p => !p.busy)
  const cuda = ran.filter(p => p.cuda).length
  if (ran.length) said.push(cuda ? `GPUDirect on ${cuda} of ${ran.length} bandwidth runs` : 'host memory')
  for (const s of said) lines.push(...wrap(s, width, '  ', '    '))
  if (b.busy) {
    lines.push(...wrap('busy: not measured, the GPUs are held by', width, '  ', '    '))
    for (const h of b.busy.holders.slice(0, maxRows))
      lines.push(...wrap(`${h.node}: ${h.namespace}/${h.name}`, width, '    ', '      '))
    if (b.busy.holders.length > maxRows)
      lines.push(`    and ${b.busy.holders.length - maxRows} more (the JSON report has all)`)
  }
  const slow = outlierReasons(b, maxRows)
  if (slow) lines.push(...wrap(slow.replace(/^benchmark: /, 'slow: '), width, '  ', '    '))
  return lines
}

function transportSection(r: TextReport, width: number): string[] {
  const t = r.transport
  if (!t) return []
  const pair = t.pairs[0]
  const lines = wrap(`Transport (Dynamo, UCX): ${t.mode}, ${t.verdict}: ${t.reason}`, width, '', '  ')
  const numbers: string[] = []
  if (pair?.bandwidthGbps != null)
    numbers.push(
      `bandwidth ${pair.bandwidthGbps.toFixed(2)} Gb/s${t.passMarkGbps !== null ? ` (pass mark ${t.passMarkGbps.toFixed(2)})` : ''}`
    )
  if (pair?.latencyUs != null) numbers.push(`latency ${pair.latencyUs.toFixed(2)} µs`)
  if (t.protocol) numbers.push(`${t.protocol} on ${t.lanes.join(', ') || 'no lane shown'}`)
  if (t.gpudirect) numbers.push(`GPUDirect through ${t.gpudirect}`)
  if (numbers.length) lines.push(...wrap(numbers.join(', '), width, '  ', '    '))
  if (t.fix) lines.push(...wrap(`fix: ${t.fix}`, width, '  ', '    '))
  return lines
}

function collectiveSection(r: TextReport, width: number): string[] {
  const c = r.collective
  if (!c) return []
  const lines = wrap(`Collectives (NCCL all_reduce): ${c.mode}, ${c.verdict}: ${c.reason}`, width, '', '  ')
  const numbers: string[] = []
  if (c.busbwGBps !== null)
    numbers.push(
      `busbw across the pair ${c.busbwGBps.toFixed(2)} GB/s${c.passMarkGBps !== null ? ` (pass mark ${c.passMarkGBps.toFixed(2)})` : ''}`
    )
  for (const n of c.nodes)
    if (n.busbwGBps !== null) numbers.push(`${n.node} ${n.busbwGBps.toFixed(2)} GB/s over ${n.gpus} GPUs`)
  if (c.gpudirect) numbers.push(`GPUDirect through ${c.gpudirect}`)
  if (numbers.length) lines.push(...wrap(numbers.join(', '), width, '  ', '    '))
  if (c.fix) lines.push(...wrap(`fix: ${c.fix}`, width, '  ', '    '))
  return lines
}

function driftSection(r: TextReport, width: number, maxRows: number): string[] {
  const drift = r.drift ?? []
  if (!drift.length) return []
  const lines = [`Drift: ${drift.length} drifted field${drift.length === 1 ? '' : 's'}`]
  for (const d of drift.slice(0, maxRows)) {
    lines.push(...wrap(`${d.component}: ${d.field}`, width, '  ', '    '))
    lines.push(...wrap(`desired: ${d.desired}`, width, '    ', '      '))
    lines.push(...wrap(`actual:  ${d.actual}`, width, '    ', '      '))
    lines.push(...wrap(`fix: ${driftFix(d)}`, width, '    ', '      '))
  }
  if (drift.length > maxRows) lines.push(`  …and ${drift.length - maxRows} more (see the report)`)
  return lines
}

function diagnosticsSection(r: TextReport, width: number): string[] {
  const diags = r.diagnostics ?? []
  if (!diags.length) return []
  return [
    `Diagnostics (whole in the job summary and the report):`,
    ...diags.flatMap(d => wrap(`${d.step}: ${d.title}`, width, '  ', '    '))
  ]
}

function cleanupSection(r: TextReport, width: number): string[] {
  const post = r.post
  if (!post?.cleanup?.length) return []
  const failed = post.exitCode !== undefined && post.exitCode !== 0
  return [
    `Cleanup (post step)${failed ? ': failed' : ''}`,
    ...post.cleanup.flatMap(e =>
      wrap(`${e.resource} ${e.name}: ${e.result}${e.reason ? ` (${e.reason})` : ''}`, width, '  ', '    ')
    )
  ]
}

function outputsSection(r: TextReport, width: number): string[] {
  const entries = Object.entries(r.outputs).filter(([, v]) => v !== '')
  if (!entries.length) return []
  // name=value whole (a value is often a path to copy), one per line.
  return ['outputs:', ...entries.flatMap(([k, v]) => wrap(`${k}=${v}`, width, '  ', '    '))]
}

/** The report as terminal text: lines of at most `width` columns (80), ending with a newline. */
export function renderReportText(given: TextReport, options: TextOptions = {}): string {
  const o = { width: 80, maxRows: 10, ...options }
  // A report read from a file (a run that failed early) may lack its lists.
  const report: TextReport = {
    ...given,
    outputs: given.outputs ?? {},
    steps: given.steps ?? [],
    checks: given.checks ?? []
  }
  const sections = [
    headline(report, o),
    stepsSection(report, o.width),
    checksSection(report, o.width, o.maxRows),
    report.benchmark ? benchmarkSection(report.benchmark, o.width, o.maxRows) : [],
    transportSection(report, o.width),
    collectiveSection(report, o.width),
    driftSection(report, o.width, o.maxRows),
    diagnosticsSection(report, o.width),
    cleanupSection(report, o.width),
    outputsSection(report, o.width)
  ].filter(s => s.length)
  return sections.map(s => s.join('\n')).join('\n\n') + '\n'
}
