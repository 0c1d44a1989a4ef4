// Judges perftest results against the line rate and the fleet median, and names the outliers
// (`node`, `node/mlx5_ibN` or `a ↔ b`). Rules: docs/benchmark.md ("Pairs and NICs").

import type { ReportBenchmark } from '../report/report.js'
import { outlierName, sortedOutliers, type Outlier } from '../util/outliers.js'

export interface BenchMeasurement {
  server: string
  client: string
  /** Device on the server side (the client side uses the same index). null when not per device. */
  device: string | null
  /** perftest tool, e.g. ib_write_bw or ib_read_lat. */
  test: string
  /** GPUDirect: the CUDA device (the NIC-local GPU) each side registered; null or absent: host memory. */
  cuda?: { server: number; client: number } | null
  bwAvgGbps: number | null
  bwPeakGbps: number | null
  /** Port rate from ibstat (Gb/s); null when unknown. */
  linkGbps: number | null
  /** Bidirectional runs sum both directions, so they are compared with twice the link rate. */
  bidirectional?: boolean
  tMinUs?: number | null
  tTypicalUs?: number | null
  tAvgUs?: number | null
  p99Us?: number | null
  p999Us?: number | null
  /** perftest failed (parse error message); counts as a failing measurement. */
  error?: string | null
  /** Not run: its pods could not be scheduled because workload pods hold the pool's GPUs (fails, blames no one). */
  busy?: boolean
}

export interface AnalysisOptions {
  /** Fail a measurement below this fraction of its line rate (e.g. 0.9). */
  minBandwidthRatio: number
  /** Fail a measurement below this fraction of the median of its test (default 0.8). */
  medianRatio?: number
  /** The median rule applies only with at least this many bandwidth measurements of a test (default 3). */
  minSamplesForMedian?: number
  /** Optional: fail a latency measurement whose t_typical exceeds this many µs. */
  maxLatencyUs?: number
}

export type Verdict = 'pass' | 'fail' | 'warn'

export interface MeasurementVerdict extends BenchMeasurement {
  ratio: number | null
  verdict: 'pass' | 'fail'
  reasons: string[]
}

export interface NodeView {
  node: string
  /**
   * Lowest average bandwidth over the node's pairs and devices (Gb/s), leaving out slow results that a
   * blamed partner explains (so an outlier's healthy neighbours do not look slow); null without BW results.
   */
  bandwidthGbps: number | null
  /** Lowest average bandwidth over all of the node's measurements, explained or not. */
  worstGbps: number | null
  /** Lowest ratio to line rate over the measurements bandwidthGbps uses. */
  ratio: number | null
  partners: string[]
  measurements: number
  failing: number
  /** Devices of this node the analysis blames (`mlx5_ib3`); empty when it blames the whole node. */
  badDevices: string[]
  /** True when the whole node is blamed. */
  blamed: boolean
  verdict: Verdict
  detail: string
}

export interface BenchmarkAnalysis {
  measurements: MeasurementVerdict[]
  nodes: NodeView[]
  /** Blamed nodes, NICs and links; sorted by name. */
  outliers: Outlier[]
  medianGbps: Record<string, number>
  verdict: 'pass' | 'fail'
  summary: string
  outputs: { bandwidthGbps: string; latencyUs: string }
}

function median(values: number[]): number | null {
  if (values.length === 0) return null
  const s = [...values].sort((a, b) => a - b)
  const mid = Math.floor(s.length / 2)
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2
}

function isBandwidth(m: BenchMeasurement): boolean {
  return m.bwAvgGbps !== null || /_bw$/.test(m.test)
}

function round(n: number, digits: number): number {
  const f = 10 ** digits
  return Math.round(n * f) / f
}

function judge(
  m: BenchMeasurement,
  opts: Required<Omit<AnalysisOptions, 'maxLatencyUs'>> & AnalysisOptions,
  medians: Record<string, number>,
  counts: Record<string, number>
): MeasurementVerdict {
  const reasons: string[] = []
  let ratio: number | null = null
  if (m.busy)
    return { ...m, ratio, verdict: 'fail', reasons: [`pool busy: ${m.error ?? 'pods unschedulable'}`] }
  if (m.error) reasons.push(`perftest failed: ${m.error}`)
  if (isBandwidth(m)) {
    if (m.bwAvgGbps === null) {
      if (!m.error) reasons.push('no bandwidth result')
    } else {
      if (m.linkGbps) {
        const line = m.linkGbps * (m.bidirectional ? 2 : 1)
        ratio = round(m.bwAvgGbps / line, 4)
        if (ratio < opts.minBandwidthRatio) {
          reasons.push(
            `${m.bwAvgGbps} Gb/s is ${Math.round(ratio * 100)}% of the ${line} Gb/s line rate (minimum ${Math.round(opts.minBandwidthRatio * 100)}%)`
          )
        }
      }
      const med = medians[m.test]
      if (
        med !== undefined &&
        counts[m.test] >= opts.minSamplesForMedian &&
        m.bwAvgGbps < opts.medianRatio * med
      ) {
        reasons.push(
          `${m.bwAvgGbps} Gb/s is below ${Math.round(opts.medianRatio * 100)}% of the fleet median ${round(med, 2)} Gb/s`
        )
      }
    }
  } else if (opts.maxLatencyUs !== undefined && m.tTypicalUs != null && m.tTypicalUs > opts.maxLatencyUs) {
    reasons.push(`typical latency ${m.tTypicalUs} µs is above ${opts.maxLatencyUs} µs`)
  }
  return { ...m, ratio, verdict: reasons.length ? 'fail' : 'pass', reasons }
}

/** `node/dev` key of one end of a measurement (same device index on both ends). */
function endKey(node: string, device: string | null): string {
  return device ? `${node}/${device}` : node
}

/**
 * Blame, per test: an end (node/device) whose measurements of one test with at least two different
 * partners all fail is bad (so a node slow in bandwidth but fine in latency is still named); a node
 * whose every measured device is bad (or that has no device split) is named alone. A failing
 * measurement with neither end blamed is named as the pair.
 */
function attribute(results: MeasurementVerdict[]): { blamedEnds: Set<string>; pairOutliers: Outlier[] } {
  interface End {
    partners: Set<string>
    total: number
    failing: number
  }
  const ends = new Map<string, End & { end: string }>()
  const touch = (test: string, node: string, partner: string, device: string | null, failing: boolean) => {
    const end = endKey(node, device)
    const key = `${test}\u0000${end}`
    const e = ends.get(key) ?? { end, partners: new Set<string>(), total: 0, failing: 0 }
    e.partners.add(partner)
    e.total++
    if (failing) e.failing++
    ends.set(key, e)
  }
  // A measurement a busy pool kept from running says nothing about the hardware.
  const measured = results.filter(m => !m.busy)
  for (const m of measured) {
    touch(m.test, m.server, m.client, m.device, m.verdict === 'fail')
    touch(m.test, m.client, m.server, m.device, m.verdict === 'fail')
  }
  const blamedEnds = new Set<string>()
  for (const e of ends.values()) if (e.failing === e.total && e.partners.size >= 2) blamedEnds.add(e.end)
  const pairOutliers: Outlier[] = []
  for (const m of measured) {
    if (m.verdict !== 'fail') continue
    if (blamedEnds.has(endKey(m.server, m.device)) || blamedEnds.has(endKey(m.client, m.device))) continue
    pairOutliers.push({
      kind: 'link',
      a: { node: m.server, device: m.device },
      b: { node: m.client, device: m.device }
    })
  }
  return { blamedEnds, pairOutliers }
}

/** The median average bandwidth of each test, and how many results it is the median of. */
function testMedians(input: BenchMeasurement[]): {
  medians: Record<string, number>
  counts: Record<string, number>
} {
  const byTest: Record<string, number[]> = {}
  for (const m of input) {
    if (isBandwidth(m) && m.bwAvgGbps !== null && !m.error) (byTest[m.test] ??= []).push(m.bwAvgGbps)
  }
  const medians: Record<string, number> = {}
  const counts: Record<string, number> = {}
  for (const [test, values] of Object.entries(byTest)) {
    medians[test] = median(values)!
    counts[test] = values.length
  }
  return { medians, counts }
}

/** One node's view: its own measurements (`mine`), judged with the blame of its partners' ends. */
function nodeView(node: string, mine: MeasurementVerdict[], blamedEnds: Set<string>): NodeView {
  const other = (m: MeasurementVerdict) => (m.server === node ? m.client : m.server)
  // A slow result the partner's own blame explains says nothing about this node.
  const explained = (m: MeasurementVerdict) =>
    m.verdict === 'fail' && other(m) !== node && blamedEnds.has(endKey(other(m), m.device))
  const own = mine.filter(m => !explained(m))
  const basis = own.length ? own : mine
  const bw = basis.filter(m => isBandwidth(m))
  const values = bw.map(m => m.bwAvgGbps).filter((v): v is number => v !== null)
  const ratios = bw.map(m => m.ratio).filter((v): v is number => v !== null)
  const allValues = mine
    .filter(isBandwidth)
    .map(m => m.bwAvgGbps)
    .filter((v): v is number => v !== null)
  const devices = [...new Set(mine.map(m => m.device))]
  const blamedDevices = devices.filter(d => blamedEnds.has(endKey(node, d)))
  const blamed = blamedDevices.length > 0 && blamedDevices.length === devices.length
  const badDevices = blamed ? [] : blamedDevices.filter((d): d is string => d !== null)
  const failing = mine.filter(m => m.verdict === 'fail').length
  const unexplained = own.filter(m => m.verdict === 'fail').length
  const partners = [...new Set(mine.map(other))]
  const slowWith = [...new Set(mine.filter(explained).map(other))]
  let verdict: Verdict = 'pass'
  let detail = `${mine.length} measurement(s) with ${partners.length} partner(s) passed`
  if (blamed) {
    verdict = 'fail'
    detail = `slow with every partner (${failing}/${mine.length} measurements failed)`
  } else if (badDevices.length) {
    verdict = 'fail'
    detail = `bad NIC(s) ${badDevices.join(', ')}: slow with every partner`
  } else if (unexplained && own.filter(m => m.verdict === 'fail').every(m => m.busy)) {
    verdict = 'warn'
    detail = `${unexplained}/${mine.length} measurement(s) not run: the pool is busy`
  } else if (unexplained) {
    verdict = 'warn'
    detail = `${unexplained}/${mine.length} measurement(s) failed, but not with every partner`
  } else if (failing) {
    detail = `slow only with outlier partner(s) ${slowWith.join(', ')}; fine otherwise`
  }
  return {
    node,
    bandwidthGbps: values.length ? Math.min(...values) : null,
    worstGbps: allValues.length ? Math.min(...allValues) : null,
    ratio: ratios.length ? Math.min(...ratios) : null,
    partners,
    measurements: mine.length,
    failing,
    badDevices,
    blamed,
    verdict,
    detail
  }
}

/** Analyses all measurements of one benchmark run. */
export function analyseBenchmark(input: BenchMeasurement[], options: AnalysisOptions): BenchmarkAnalysis {
  const opts = { medianRatio: 0.8, minSamplesForMedian: 3, ...options }
  const { medians, counts } = testMedians(input)
  const measurements = input.map(m => judge(m, opts, medians, counts))
  const { blamedEnds, pairOutliers } = attribute(measurements)

  const byNode = new Map<string, MeasurementVerdict[]>()
  for (const m of measurements) {
    for (const n of new Set([m.server, m.client])) {
      const list = byNode.get(n) ?? []
      list.push(m)
      byNode.set(n, list)
    }
  }
  const nodes: NodeView[] = [...byNode].map(([node, mine]) => nodeView(node, mine, blamedEnds))
  nodes.sort(
    (a, b) =>
      severity(b) - severity(a) ||
      (a.ratio ?? a.bandwidthGbps ?? Infinity) - (b.ratio ?? b.bandwidthGbps ?? Infinity) ||
      a.node.localeCompare(b.node)
  )

  const outliers = sortedOutliers([
    ...nodes.filter(n => n.blamed).map((n): Outlier => ({ kind: 'node', node: n.node })),
    ...nodes.flatMap(n => n.badDevices.map((device): Outlier => ({ kind: 'nic', node: n.node, device }))),
    ...pairOutliers
  ])

  const bwValues = measurements.filter(m => isBandwidth(m) && m.bwAvgGbps !== null).map(m => m.bwAvgGbps!)
  const latValues = measurements
    .filter(m => !isBandwidth(m))
    .map(m => m.tTypicalUs ?? m.tAvgUs ?? null)
    .filter((v): v is number => v !== null)
  const failed = measurements.filter(m => m.verdict === 'fail')
  const verdict = failed.length ? 'fail' : 'pass'
  const summary =
    verdict === 'pass'
      ? `${measurements.length} measurement(s) passed`
      : `${failed.length} of ${measurements.length} measurement(s) failed; outliers: ${outliers.map(outlierName).join(', ') || 'none attributed'}`
  return {
    measurements,
    nodes,
    outliers,
    medianGbps: medians,
    verdict,
    summary,
    outputs: {
      bandwidthGbps: bwValues.length ? Math.min(...bwValues).toFixed(2) : '',
      latencyUs: latValues.length ? Math.max(...latValues).toFixed(2) : ''
    }
  }
}

function severity(n: NodeView): number {
  return n.verdict === 'fail' ? 2 : n.verdict === 'warn' ? 1 : 0
}

/** The report's benchmark section from an analysis (every measurement, the node view, the outliers). */
export function toReportBenchmark(
  analysis: BenchmarkAnalysis,
  context: { scope?: 'pair' | 'fleet'; minBandwidthRatio?: number } = {}
): ReportBenchmark {
  return {
    scope: context.scope,
    minBandwidthRatio: context.minBandwidthRatio,
    medianGbps: analysis.medianGbps,
    outliers: analysis.outliers.map(outlierName),
    pairs: analysis.measurements.map(m => ({
      server: m.server,
      client: m.client,
      test: m.test,
      device: m.device,
      ...(m.cuda ? { cuda: m.cuda } : {}),
      bwAvgGbps: m.bwAvgGbps,
      bwPeakGbps: m.bwPeakGbps,
      linkGbps: m.linkGbps,
      ratio: m.ratio,
      tTypicalUs: m.tTypicalUs ?? null,
      tAvgUs: m.tAvgUs ?? null,
      p99Us: m.p99Us ?? null,
      p999Us: m.p999Us ?? null,
      verdict: m.verdict,
      ...(m.busy ? { busy: true } : {}),
      reasons: m.reasons
    })),
    nodes: analysis.nodes.map(n => ({
      node: n.node,
      bandwidthGbps: n.bandwidthGbps,
      ratio: n.ratio,
      partners: n.partners,
      failing: n.failing,
      measurements: n.measurements,
      badDevices: n.badDevices,
      verdict: n.verdict,
      detail: n.detail
    }))
  }
}
