// The job summary's Pools section (all-pools): one row per pool checked, so other pools are not only
// in the JSON report. No I/O. See docs/day-two.md#several-pools.
import { code, escapeCell, table } from './markdown.js'
import type { Report, ReportPool } from './report.js'

const RESULT_ICON: Record<ReportPool['result'], string> = { success: '✅', drifted: '⚠️', failure: '❌' }

function benchmarkVerdict(p: ReportPool): string {
  const pairs = p.benchmark?.pairs ?? []
  if (!pairs.length) return '—'
  const failing = pairs.filter(x => x.verdict === 'fail').length
  return failing ? `${failing} of ${pairs.length} failing` : `${pairs.length} pass`
}

/** The Pools section, or null for a run that checked one pool. */
export function poolsSection(report: Report, maxCellChars: number): string | null {
  const pools = report.pools ?? []
  if (pools.length < 2) return null
  const rows = pools.map(p => {
    const failing = p.checks.filter(c => c.status === 'fail').map(c => c.name)
    return [
      code(p.pool),
      p.vmSize ? code(p.vmSize) : 'unknown',
      `${RESULT_ICON[p.result]} ${p.result}`,
      failing.length ? escapeCell(failing.join(', '), maxCellChars) : '—',
      benchmarkVerdict(p),
      p.transport ? `${p.transport.verdict} (${p.transport.mode})` : '—'
    ]
  })
  return `### Pools\n\n${table(['Pool', 'VM size', 'Result', 'Checks failing', 'Benchmark', 'Transport'], rows)}`
}
