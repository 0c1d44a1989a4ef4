// The collective check's part of the job summary, from the report's data only; no I/O.
// See docs/job-summary.md and docs/collective-check.md ("Outputs, report and summary").
import { code, escapeCell, escapeInline, table } from './markdown.js'
import type { ReportCollective } from './report.js'

const MODE_ICON: Record<ReportCollective['mode'], string> = {
  'ib-gdr': '🚀',
  ib: '🐢',
  socket: '🐌',
  failed: '❌'
}

function gbs(n: number | null): string {
  return n === null ? '—' : `${n.toFixed(2)} GB/s`
}

/** 1048576 → 1 MiB, 17179869184 → 16 GiB. */
export function sizeLabel(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB']
  let v = bytes
  let u = 0
  while (v >= 1024 && u < units.length - 1 && v % 1024 === 0) {
    v /= 1024
    u++
  }
  return `${v} ${units[u]}`
}

function niceCeiling(n: number): number {
  const step = n > 200 ? 50 : n > 50 ? 10 : 5
  return Math.max(step, Math.ceil(n / step) * step)
}

/** Mermaid xychart: busbw per size across the pair (line), the pass mark (line). */
export function busbwChart(c: ReportCollective): string | null {
  if (!c.sizes.length) return null
  const values = c.sizes.map(s => Number(s.busbwGBps.toFixed(1)))
  const mark = c.passMarkGBps
  const top = niceCeiling(Math.max(...values, mark ?? 0))
  return [
    '```mermaid',
    'xychart-beta',
    `  title "all_reduce busbw across the pair, GB/s${mark !== null ? ' (flat line: pass mark)' : ''}"`,
    `  x-axis [${c.sizes.map(s => `"${sizeLabel(s.bytes)}"`).join(', ')}]`,
    `  y-axis "GB/s" 0 --> ${top}`,
    `  line [${values.join(', ')}]`,
    ...(mark !== null ? [`  line [${c.sizes.map(() => mark).join(', ')}]`] : []),
    '```'
  ].join('\n')
}

export function collectiveSection(c: ReportCollective, o: { maxCellChars: number }): string {
  const verdict = c.verdict === 'pass' ? '✅ pass' : '❌ fail'
  const head = [
    '### NCCL collectives (all_reduce_perf)',
    `${MODE_ICON[c.mode]} ${code(c.mode)} — ${verdict}: ${escapeInline(c.reason)}` +
      (c.fix ? `\n\n**Fix:** ${escapeInline(c.fix)}` : '')
  ]
  const last = c.sizes[c.sizes.length - 1]
  const rows: string[][] = [
    ['Image', code(c.image)],
    ['Pair', c.pair ? `launcher ${code(c.pair.launcher)}, worker ${code(c.pair.worker)}` : '—'],
    [
      'busbw across the pair',
      `${gbs(c.busbwGBps)}${last ? ` at ${sizeLabel(last.bytes)}` : ''}; pass mark ${gbs(c.passMarkGBps)} (${escapeCell(c.passMarkSource, o.maxCellChars)})`
    ],
    [
      'NCCL network',
      c.network
        ? `${code(c.network)}${c.ibDevices.length ? ` on ${c.ibDevices.map(code).join(' ')}` : ''}`
        : '—'
    ],
    ['GPUDirect through', c.gpudirect ? code(c.gpudirect) : '—'],
    ['NCCL', c.ncclVersion ? code(c.ncclVersion) : '—'],
    [
      'NCCL environment',
      Object.entries(c.ncclEnv)
        .map(([k, v]) => code(`${k}=${v}`))
        .join(' ')
    ]
  ]
  const nodes = table(
    ['Node', 'Pod', 'GPUs', 'busbw (largest size)', 'Pass mark', 'Verdict'],
    c.nodes.map(n => [
      code(n.node),
      code(n.pod),
      String(n.gpus),
      gbs(n.busbwGBps),
      gbs(n.passMarkGBps),
      n.verdict === 'pass' ? '✅' : `❌ ${escapeCell(n.reason ?? '', o.maxCellChars)}`
    ])
  )
  const chart = busbwChart(c)
  return [
    ...head,
    table(['', ''], rows),
    ...(chart ? [chart] : []),
    `Within each node (every GPU in one process; pass mark: ${escapeInline(c.intraPassMarkSource ?? 'none published for this size')}):`,
    nodes
  ].join('\n\n')
}

/** The verdict line's words for a failed collective check. */
export function collectiveReason(c: ReportCollective | undefined): string | undefined {
  return c && c.verdict === 'fail' ? `collective check failed (${c.mode})` : undefined
}
