// Renders a Report as the Markdown job summary, verdict first. No I/O; every table cell is escaped and
// the output stays under the 1 MiB job-summary limit. Sections and rules: docs/job-summary.md.

import { formatDuration } from '../util/duration.js'
import { benchmarkSection, busyReasons, outlierReasons } from './benchmark-summary.js'
import { cellWithCode, code, DEFAULT_CELL_CHARS, escapeCell, escapeInline, fence, table } from './markdown.js'
import { truncate } from '../util/echo.js'
import { driftFix } from '../drift/item.js'
import type { CheckStatus, Report, ReportStep } from './report.js'
import { poolsSection } from './pools-summary.js'
import { transportReason, transportSection } from './transport-summary.js'
import { collectiveReason, collectiveSection } from './collective-summary.js'
import { workloadSection } from './workload-summary.js'

export { code, escapeCell, escapeInline } from './markdown.js'

export interface SummaryOptions {
  /** Failing nodes listed per check and nodes in the benchmark grid. */
  maxNodes?: number
  /** Node pairs listed in the benchmark's per-pair table (failing and slowest first). */
  maxPairs?: number
  /** Drift rows listed. */
  maxDrift?: number
  /** Diagnostics shown, and bytes kept from each (its tail: errors come last). */
  maxDiagnostics?: number
  maxDiagnosticBytes?: number
  /** Longest table cell in characters (a drift fix is never cut). */
  maxCellChars?: number
  /** Hard ceiling for the whole document in bytes (GitHub rejects > 1 MiB). */
  maxBytes?: number
  /** Heading prefix, e.g. the action name. */
  title?: string
}

const DEFAULTS: Required<SummaryOptions> = {
  maxNodes: 25,
  maxPairs: 40,
  maxDrift: 100,
  maxDiagnostics: 10,
  maxDiagnosticBytes: 16 * 1024,
  maxCellChars: DEFAULT_CELL_CHARS,
  maxBytes: 1_000_000,
  title: 'aks-rdma-action'
}

export const SUMMARY_LIMIT_BYTES = 1024 * 1024

const CHECK_ICON: Record<CheckStatus, string> = { pass: '✅', fail: '❌', warn: '⚠️', skipped: '⏭️' }
const STEP_ICON: Record<ReportStep['status'], string> = {
  success: '✅',
  warning: '⚠️',
  failure: '❌',
  skipped: '⏭️',
  cancelled: '🚫',
  running: '⏳'
}

/** Offset from the first step's start, to the second (`+0s`, `+1m35s`). */
function offset(ms: number): string {
  const rounded = Math.max(0, Math.round(ms / 1000)) * 1000
  return rounded === 0 ? '+0s' : `+${formatDuration(rounded)}`
}

/** Why the run ended as it did, as plain sentences (the verdict line's; also the terminal's). */
export function verdictReasons(report: Report): string[] {
  const reasons: string[] = []
  const failedSteps = report.steps.filter(s => s.status === 'failure').map(s => s.name)
  if (failedSteps.length)
    reasons.push(`failed step${failedSteps.length > 1 ? 's' : ''}: ${failedSteps.join(', ')}`)
  const failedChecks = report.checks.filter(c => c.status === 'fail')
  if (failedChecks.length) reasons.push(`${failedChecks.length} of ${report.checks.length} checks failed`)
  const busy = report.benchmark ? busyReasons(report.benchmark) : undefined
  if (busy) reasons.push(busy)
  const slow = report.benchmark ? outlierReasons(report.benchmark) : undefined
  if (slow) reasons.push(slow)
  const transport = transportReason(report.transport)
  if (transport) reasons.push(transport)
  const collective = collectiveReason(report.collective)
  if (collective) reasons.push(collective)
  if (report.drift?.length)
    reasons.push(`${report.drift.length} drifted field${report.drift.length > 1 ? 's' : ''}`)
  if (!reasons.length && report.result === 'success') reasons.push(successFacts(report))
  return reasons
}

/** What the result is, in words: `succeeded`, `found drift`, `failed`. */
export function resultWord(report: Report): string {
  return report.result === 'success' ? 'succeeded' : report.result === 'drifted' ? 'found drift' : 'failed'
}

function verdictLine(report: Report, title: string): string {
  const icon = report.result === 'success' ? '✅' : report.result === 'drifted' ? '⚠️' : '❌'
  const reasons = verdictReasons(report)
  const head = `## ${icon} ${escapeInline(title)} ${code(report.mode)} ${resultWord(report)}`
  return reasons.length ? `${head}\n\n${escapeInline(reasons.join('; '))}` : head
}

/** The one line under a success heading: what was verified, and the numbers. */
function successFacts(report: Report): string {
  const facts: string[] = []
  if (report.mode === 'drift') facts.push('no drift: the cluster is as the inputs describe it')
  const nodes = report.outputs['rdma-nodes']
  if (nodes) facts.push(`${nodes} RDMA node${nodes === '1' ? '' : 's'} verified`)
  const pass = report.checks.filter(c => c.status === 'pass').length
  if (report.checks.length) facts.push(`${pass}/${report.checks.length} checks pass`)
  if (report.gpudirect?.path) facts.push(`GPUDirect by ${report.gpudirect.path}`)
  const bw = report.outputs['bandwidth-gbps']
  if (bw) facts.push(`lowest pair bandwidth ${bw} Gb/s`)
  const lat = report.outputs['latency-us']
  if (lat) facts.push(`latency ${lat} µs`)
  if (!facts.length) facts.push(`${report.steps.length} step${report.steps.length === 1 ? '' : 's'} done`)
  return facts.join(', ')
}

function outputsSection(report: Report, o: Required<SummaryOptions>): string | null {
  const entries = Object.entries(report.outputs).filter(([, v]) => v !== '')
  if (!entries.length) return null
  return `### Outputs\n\n${table(
    ['Output', 'Value'],
    entries.map(([k, v]) => [code(k), escapeCell(v, o.maxCellChars)])
  )}`
}

function stepsSection(report: Report, o: Required<SummaryOptions>): string | null {
  if (!report.steps.length) return null
  const starts = report.steps.map(s => (s.startedAt ? Date.parse(s.startedAt) : NaN))
  const ends = report.steps.map((s, i) =>
    s.finishedAt ? Date.parse(s.finishedAt) : Number.isNaN(starts[i]) ? NaN : starts[i] + s.durationMs
  )
  const known = starts.filter(t => !Number.isNaN(t))
  const t0 = known.length ? Math.min(...known) : NaN
  const tEnd = Math.max(...ends.filter(t => !Number.isNaN(t)), t0)
  const span = tEnd - t0
  const timeline = (i: number): string => {
    if (Number.isNaN(t0) || Number.isNaN(starts[i]) || span <= 0) return ''
    const cells = 20
    const a = Math.min(cells - 1, Math.floor(((starts[i] - t0) / span) * cells))
    const b = Math.max(a + 1, Math.ceil(((ends[i] - t0) / span) * cells))
    return '`' + '·'.repeat(a) + '█'.repeat(Math.min(cells, b) - a) + '·'.repeat(Math.max(0, cells - b)) + '`'
  }
  const rows = report.steps.map((s, i) => [
    escapeCell(s.name, o.maxCellChars),
    `${STEP_ICON[s.status]} ${s.status}`,
    (s.action ?? (s.status === 'skipped' ? '—' : s.changed ? 'changed' : 'unchanged')) +
      (s.version ? ` ${escapeCell(`${s.version.from} → ${s.version.to}`, o.maxCellChars)}` : ''),
    formatDuration(s.durationMs),
    Number.isNaN(starts[i]) ? '—' : offset(starts[i] - t0),
    Number.isNaN(ends[i]) ? '—' : offset(ends[i] - t0),
    timeline(i),
    escapeCell(s.detail ?? '', o.maxCellChars)
  ])
  return `### Steps\n\n${table(['Component', 'Result', 'Action', 'Duration', 'Start', 'End', 'Timeline', 'Detail'], rows)}`
}

function checksSection(report: Report, o: Required<SummaryOptions>): string | null {
  if (!report.checks.length) return null
  const rows = report.checks.map(c => {
    let nodes = '—'
    if (c.nodes?.length) {
      const bad = c.nodes.filter(n => n.status === 'fail' || n.status === 'warn').length
      const ok = c.nodes.filter(n => n.status === 'pass').length
      nodes = bad
        ? `${bad} of ${c.nodes.length} failing, ${ok} healthy`
        : `${ok} of ${c.nodes.length} healthy`
    }
    return [
      escapeCell(c.name, o.maxCellChars),
      `${CHECK_ICON[c.status]} ${c.status}`,
      nodes,
      escapeCell(c.detail, o.maxCellChars)
    ]
  })
  const parts = [`### Checks\n\n${table(['Check', 'Status', 'Nodes', 'Detail'], rows)}`]
  for (const c of report.checks) {
    const bad = (c.nodes ?? []).filter(n => n.status === 'fail' || n.status === 'warn')
    if (!bad.length) continue
    const healthy = (c.nodes ?? []).length - bad.length
    const listed = bad.slice(0, o.maxNodes)
    const lines = listed.map(
      n => `- ${CHECK_ICON[n.status]} ${code(n.node)}: ${escapeInline(truncate(n.detail, o.maxCellChars))}`
    )
    if (bad.length > listed.length)
      lines.push(`- …and ${bad.length - listed.length} more failing nodes not listed`)
    parts.push(
      `**${escapeInline(c.name)}**: ${bad.length} node${bad.length > 1 ? 's' : ''} failing, ${healthy} healthy (not listed)\n\n${lines.join('\n')}`
    )
  }
  return parts.join('\n\n')
}

function driftSection(report: Report, o: Required<SummaryOptions>): string | null {
  const drift = report.drift ?? []
  if (!drift.length) return null
  const listed = drift.slice(0, o.maxDrift)
  const rows = listed.map(d => [
    escapeCell(d.component, o.maxCellChars),
    code(d.field),
    escapeCell(d.desired, o.maxCellChars),
    escapeCell(d.actual, o.maxCellChars),
    // Whole, with its commands as code spans: a fix cut short is no fix.
    cellWithCode(driftFix(d))
  ])
  const parts = [`### Drift\n\n${table(['Component', 'Field', 'Desired', 'Actual', 'Fix'], rows)}`]
  if (drift.length > listed.length)
    parts.push(`_${drift.length - listed.length} more drifted fields not listed._`)
  return parts.join('\n\n')
}

/** Keeps the last `max` bytes of a text (errors are at the end), on a line boundary when possible. */
function tail(text: string, max: number): string {
  const buf = Buffer.from(text, 'utf8')
  if (buf.length <= max) return text
  let cut = buf
    .subarray(buf.length - max)
    .toString('utf8')
    .replace(/^\uFFFD+/, '')
  const nl = cut.indexOf('\n')
  if (nl >= 0 && nl < 200) cut = cut.slice(nl + 1)
  return `[… ${buf.length - Buffer.byteLength(cut)} earlier bytes cut]\n${cut}`
}

function diagnosticsSection(report: Report, o: Required<SummaryOptions>): string | null {
  const diags = report.diagnostics ?? []
  if (!diags.length) return null
  const listed = diags.slice(0, o.maxDiagnostics)
  const blocks = listed.map(d => {
    const body = tail(d.text.replace(/\r\n?/g, '\n'), o.maxDiagnosticBytes)
    const f = fence(body)
    const summary = `${escapeInline(d.step)}: ${escapeInline(d.title)}`
    return `<details><summary>${summary}</summary>\n\n${f}text\n${body}\n${f}\n\n</details>`
  })
  if (diags.length > listed.length)
    blocks.push(`_${diags.length - listed.length} more diagnostics in the JSON report._`)
  return `### Diagnostics\n\n${blocks.join('\n\n')}`
}

function assemble(report: Report, o: Required<SummaryOptions>): string[] {
  return [
    verdictLine(report, o.title),
    outputsSection(report, o),
    stepsSection(report, o),
    checksSection(report, o),
    poolsSection(report, o.maxCellChars),
    report.benchmark ? benchmarkSection(report.benchmark, o) : null,
    report.transport ? transportSection(report.transport, o) : null,
    report.collective ? collectiveSection(report.collective, o) : null,
    driftSection(report, o),
    diagnosticsSection(report, o),
    // A successful run ends with how a workload uses the pool.
    report.result === 'success' && report.workload
      ? workloadSection(report.workload, (report.benchmark?.pairs.length ?? 0) > 0)
      : null
  ].filter((s): s is string => s !== null)
}

function bytes(sections: string[]): number {
  return Buffer.byteLength(sections.join('\n\n') + '\n', 'utf8')
}

/** Renders the job summary Markdown; always below `maxBytes` (default 1,000,000 < 1 MiB). */
export function renderSummary(report: Report, options: SummaryOptions = {}): string {
  let o: Required<SummaryOptions> = { ...DEFAULTS, ...options }
  let sections = assemble(report, o)
  // Shrink the listed amounts until it fits; each pass halves every cap.
  for (let pass = 0; pass < 6 && bytes(sections) > o.maxBytes; pass++) {
    o = {
      ...o,
      maxNodes: Math.max(5, Math.floor(o.maxNodes / 2)),
      maxPairs: Math.max(5, Math.floor(o.maxPairs / 2)),
      maxDrift: Math.max(10, Math.floor(o.maxDrift / 2)),
      maxDiagnostics: Math.max(1, Math.floor(o.maxDiagnostics / 2)),
      maxDiagnosticBytes: Math.max(1024, Math.floor(o.maxDiagnosticBytes / 2)),
      maxCellChars: Math.max(80, Math.floor(o.maxCellChars / 2))
    }
    sections = assemble(report, o)
  }
  // Still too big (e.g. hundreds of checks): drop whole sections from the end, saying so.
  const note = '_Summary cut to stay under the 1 MiB job-summary limit; the JSON report has everything._'
  while (sections.length > 1 && bytes([...sections, note]) > o.maxBytes) {
    sections.pop()
    if (bytes([...sections, note]) <= o.maxBytes) {
      sections.push(note)
      break
    }
  }
  let md = sections.join('\n\n') + '\n'
  if (Buffer.byteLength(md) > o.maxBytes) md = `${verdictLine(report, o.title)}\n\n${note}\n`
  return md
}
