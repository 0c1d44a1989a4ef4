// Renders a Report as GitHub-flavoured Markdown for the job summary, for a person scanning it: the
// verdict first, then steps (with start/end offsets and a timeline so parallel work is visible), checks
// (failing nodes listed, healthy ones only counted), benchmark (worst first, outliers marked), drift and
// failure diagnostics folded in <details>. Pure: no I/O. Every table cell is escaped, and the output stays
// under the 1 MiB job-summary limit however large the fleet (lists are capped and say what they omit).

import { formatDuration } from '../util/duration.js'
import type { BenchmarkNodeResult, BenchmarkPairResult, CheckStatus, Report, ReportStep } from './report.js'

export interface SummaryOptions {
  /** Failing nodes listed per check and nodes listed in the per-node benchmark view. */
  maxNodes?: number
  /** Benchmark measurements listed (failing and slowest first). */
  maxPairs?: number
  /** Drift rows listed. */
  maxDrift?: number
  /** Diagnostics shown, and bytes kept from each (its tail: errors come last). */
  maxDiagnostics?: number
  maxDiagnosticBytes?: number
  /** Longest table cell in characters. */
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
  maxCellChars: 300,
  maxBytes: 1_000_000,
  title: 'aks-rdma-action'
}

export const SUMMARY_LIMIT_BYTES = 1024 * 1024

const CHECK_ICON: Record<CheckStatus, string> = { pass: '✅', fail: '❌', warn: '⚠️', skipped: '⏭️' }
const STEP_ICON: Record<ReportStep['status'], string> = {
  success: '✅',
  failure: '❌',
  skipped: '⏭️',
  cancelled: '🚫',
  running: '⏳'
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, Math.max(0, max - 1))}…` : text
}

/** Escapes text for inline Markdown: HTML-significant characters and Markdown punctuation, newlines → space. */
export function escapeInline(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_[\]~|#]/g, c => `\\${c}`)
    .replace(/\r?\n/g, ' ')
}

/** Escapes text for a GFM table cell: pipes and backslashes escaped, newlines → `<br>`, length capped. */
export function escapeCell(text: string, maxChars = DEFAULTS.maxCellChars): string {
  const t = truncate(text.replace(/\r\n?/g, '\n').trim(), maxChars)
  return t
    .split('\n')
    .map(line =>
      line
        .replace(/&/g, '&amp;')
        .replace(/</g, '&lt;')
        .replace(/>/g, '&gt;')
        .replace(/[\\`*_[\]~|]/g, c => `\\${c}`)
    )
    .join('<br>')
}

/** A name in a code span (pipes escaped for tables); falls back to escaped text when it holds a backtick. */
export function code(text: string): string {
  if (/[`\r\n]/.test(text) || text === '') return escapeCell(text)
  return `\`${text.replace(/\|/g, '\\|')}\``
}

function table(headers: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.map(c => (c === '' ? ' ' : c)).join(' | ')} |`
  return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n')
}

/** Offset from the first step's start, to the second (`+0s`, `+1m35s`). */
function offset(ms: number): string {
  const rounded = Math.max(0, Math.round(ms / 1000)) * 1000
  return rounded === 0 ? '+0s' : `+${formatDuration(rounded)}`
}

function gbps(n: number | null | undefined): string {
  return n === null || n === undefined ? '—' : n.toFixed(2)
}

function percent(ratio: number | null | undefined): string {
  return ratio === null || ratio === undefined ? '—' : `${Math.round(ratio * 1000) / 10}%`
}

/** A 10-cell bar of a 0..1 ratio. */
function bar(ratio: number | null | undefined): string {
  if (ratio === null || ratio === undefined) return ''
  const filled = Math.max(0, Math.min(10, Math.round(ratio * 10)))
  return '█'.repeat(filled) + '░'.repeat(10 - filled)
}

function verdictLine(report: Report, title: string): string {
  const icon = report.result === 'success' ? '✅' : report.result === 'drifted' ? '⚠️' : '❌'
  const word =
    report.result === 'success' ? 'succeeded' : report.result === 'drifted' ? 'found drift' : 'failed'
  const reasons: string[] = []
  const failedSteps = report.steps.filter(s => s.status === 'failure').map(s => s.name)
  if (failedSteps.length)
    reasons.push(`failed step${failedSteps.length > 1 ? 's' : ''}: ${failedSteps.join(', ')}`)
  const failedChecks = report.checks.filter(c => c.status === 'fail')
  if (failedChecks.length) reasons.push(`${failedChecks.length} of ${report.checks.length} checks failed`)
  const outliers = report.benchmark?.outliers ?? []
  if (outliers.length) {
    const shown = outliers.slice(0, 5).join(', ')
    reasons.push(
      `benchmark outliers: ${shown}${outliers.length > 5 ? ` and ${outliers.length - 5} more` : ''}`
    )
  }
  if (report.drift?.length)
    reasons.push(`${report.drift.length} drifted field${report.drift.length > 1 ? 's' : ''}`)
  const head = `## ${icon} ${escapeInline(title)} ${code(report.mode)} ${word}`
  return reasons.length ? `${head}\n\n${escapeInline(reasons.join('; '))}` : head
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
    s.action ?? (s.status === 'skipped' ? '—' : s.changed ? 'changed' : 'unchanged'),
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

function pairLabel(p: BenchmarkPairResult): string {
  return `${code(p.server)} → ${code(p.client)}`
}

function latencyOf(p: BenchmarkPairResult): number | null {
  return p.tTypicalUs ?? p.tAvgUs ?? null
}

function pairSeverity(p: BenchmarkPairResult): number {
  return p.verdict === 'fail' ? 0 : 1
}

function benchmarkSection(report: Report, o: Required<SummaryOptions>): string | null {
  const b = report.benchmark
  if (!b) return null
  const parts: string[] = ['### Benchmark']
  const facts: string[] = []
  if (b.scope) facts.push(`scope **${b.scope}**`)
  if (b.minBandwidthRatio !== undefined)
    facts.push(`pass ≥ ${Math.round(b.minBandwidthRatio * 100)}% of line rate`)
  const medians = Object.entries(b.medianGbps ?? {})
  if (medians.length)
    facts.push(`median ${medians.map(([t, v]) => `${escapeInline(t)} ${v.toFixed(2)} Gb/s`).join(', ')}`)
  if (facts.length) parts.push(facts.join(' · '))
  if (b.outliers.length) {
    const shown = b.outliers.slice(0, o.maxNodes)
    parts.push(
      `⚠️ **Outliers:** ${shown.map(code).join(', ')}${b.outliers.length > shown.length ? ` and ${b.outliers.length - shown.length} more` : ''}`
    )
  }
  const sorted = [...b.pairs].sort(
    (x, y) =>
      pairSeverity(x) - pairSeverity(y) ||
      (x.ratio ?? Infinity) - (y.ratio ?? Infinity) ||
      (x.bwAvgGbps ?? Infinity) - (y.bwAvgGbps ?? Infinity)
  )
  const listed = sorted.slice(0, o.maxPairs)
  const rows = listed.map(p => [
    pairLabel(p),
    p.device ? code(p.device) : '—',
    escapeCell(p.test, o.maxCellChars),
    gbps(p.bwAvgGbps),
    percent(p.ratio),
    latencyOf(p) === null ? '—' : latencyOf(p)!.toFixed(2),
    p.verdict === 'fail'
      ? `❌ ${escapeCell((p.reasons ?? []).join('; ') || 'fail', o.maxCellChars)}`
      : p.verdict === 'pass'
        ? '✅'
        : '—'
  ])
  parts.push(
    table(
      [
        'Pair (server → client)',
        'Device',
        'Test',
        'Bandwidth (Gb/s)',
        '% of line rate',
        'Latency (µs)',
        'Verdict'
      ],
      rows
    )
  )
  if (sorted.length > listed.length) {
    const omitted = sorted.slice(listed.length)
    const failing = omitted.filter(p => p.verdict === 'fail').length
    parts.push(
      `_${omitted.length} more measurement${omitted.length > 1 ? 's' : ''} not listed (${failing ? `${failing} failing` : 'all passing'}); the JSON report has every one._`
    )
  }
  if (b.nodes && b.nodes.length > 0 && (b.scope === 'fleet' || b.nodes.length > 2))
    parts.push(nodeView(b.nodes, o))
  return parts.join('\n\n')
}

function nodeSeverity(n: BenchmarkNodeResult): number {
  return n.verdict === 'fail' ? 0 : n.verdict === 'warn' ? 1 : 2
}

function nodeView(nodes: BenchmarkNodeResult[], o: Required<SummaryOptions>): string {
  const sorted = [...nodes].sort(
    (a, b) =>
      nodeSeverity(a) - nodeSeverity(b) ||
      (a.ratio ?? a.bandwidthGbps ?? Infinity) - (b.ratio ?? b.bandwidthGbps ?? Infinity) ||
      a.node.localeCompare(b.node)
  )
  const listed = sorted.slice(0, o.maxNodes)
  const rows = listed.map(n => [
    `${n.verdict === 'fail' ? '⚠️ ' : ''}${code(n.node)}`,
    gbps(n.bandwidthGbps),
    n.ratio === null ? '—' : `\`${bar(n.ratio)}\` ${percent(n.ratio)}`,
    `${n.failing}/${n.measurements}`,
    n.badDevices.length ? n.badDevices.map(code).join(', ') : '—',
    `${n.verdict === 'fail' ? '❌' : n.verdict === 'warn' ? '⚠️' : '✅'} ${escapeCell(n.detail, o.maxCellChars)}`
  ])
  const parts = [
    `#### Per node (worst first)\n\n${table(['Node', 'Min bandwidth (Gb/s)', 'Min % of line rate', 'Failing', 'Bad NICs', 'Verdict'], rows)}`
  ]
  if (sorted.length > listed.length) {
    const rest = sorted.slice(listed.length)
    const failing = rest.filter(n => n.verdict !== 'pass').length
    const ratios = rest.map(n => n.ratio).filter((r): r is number => r !== null)
    const low = ratios.length ? `, lowest ${percent(Math.min(...ratios))} of line rate` : ''
    parts.push(
      `_${rest.length} more node${rest.length > 1 ? 's' : ''} not listed (${failing ? `${failing} not passing` : 'all passing'}${low})._`
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
    escapeCell(
      d.fixableByApply
        ? `mode: apply fixes this${d.hint ? ` (${d.hint})` : ''}`
        : (d.hint ?? 'manual fix needed'),
      o.maxCellChars
    )
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

function fence(text: string): string {
  const runs = text.match(/`+/g) ?? []
  const longest = runs.reduce((m, r) => Math.max(m, r.length), 0)
  return '`'.repeat(Math.max(3, longest + 1))
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
    benchmarkSection(report, o),
    driftSection(report, o),
    diagnosticsSection(report, o)
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
