// The benchmark part of the job summary (node × NIC grid, chart, folded pair rows) and the outliers
// for its verdict line, from the report's data only. See docs/job-summary.md.
import { naturalCompare } from '../util/compare.js'
import { code, codeSpan, escapeCell, escapeInline, table } from './markdown.js'
import type { BenchmarkNodeResult, BenchmarkPairResult, ReportBenchmark } from './report.js'
import { parseOutlierName } from '../util/outliers.js'

export interface BenchmarkSummaryOptions {
  /** Nodes in the grid and the chart (the slowest first when there are more). */
  maxNodes: number
  /** Node pairs listed in the folded per-pair table (failing and slowest first). */
  maxPairs: number
  maxCellChars: number
}

const PASS = '✅'
const FAIL = '❌'
const PARTNER = '⚠️'
/** A NIC not measured: its perftest pods could not be scheduled on a busy pool. */
const BUSY = '⏸️'
/** Grid column of measurements that name no device (one HCA for the whole pair). */
const NO_DEVICE = ''
/** A common prefix shorter than this is not worth stating. */
const MIN_PREFIX = 4

export function isBandwidth(p: BenchmarkPairResult): boolean {
  return p.bwAvgGbps !== null || /_bw$/.test(p.test)
}

function latencyOf(p: BenchmarkPairResult): number | null {
  return p.tTypicalUs ?? p.tAvgUs ?? null
}

function fmt(n: number | null | undefined, digits = 1): string {
  return n === null || n === undefined ? '—' : n.toFixed(digits)
}

function percent(ratio: number | null | undefined): string {
  return ratio === null || ratio === undefined ? '—' : `${Math.round(ratio * 1000) / 10}%`
}

function minOf(values: Array<number | null | undefined>): number | null {
  const v = values.filter((x): x is number => typeof x === 'number')
  return v.length ? Math.min(...v) : null
}

function maxOf(values: Array<number | null | undefined>): number | null {
  const v = values.filter((x): x is number => typeof x === 'number')
  return v.length ? Math.max(...v) : null
}

/**
 * Node names without the prefix they all share, cut back to a boundary (after a `-`, or after
 * AKS's `vmss`) so no name loses part of a number: `aks-pool-1234-vmss000007` and `…-vmss00000a`
 * become `000007` and `00000a`, `gpu-node-10` and `gpu-node-11` become `10` and `11`. No prefix when
 * it is shorter than 4 characters.
 */
export interface NodeNames {
  prefix: string
  short(node: string): string
}

export function nodeNames(nodes: string[]): NodeNames {
  const names = [...new Set(nodes)]
  let prefix = names[0] ?? ''
  for (const n of names.slice(1)) {
    let i = 0
    while (i < prefix.length && i < n.length && prefix[i] === n[i]) i++
    prefix = prefix.slice(0, i)
  }
  // Every name keeps at least one character of its own, and whole numbers.
  const shortest = Math.min(...names.map(n => n.length))
  prefix = prefix.slice(0, Math.max(0, shortest - 1))
  prefix = /^.*(?:[^A-Za-z0-9]|vmss)/.exec(prefix)?.[0] ?? ''
  if (names.length < 2 || prefix.length < MIN_PREFIX) prefix = ''
  return { prefix, short: n => (prefix && n.startsWith(prefix) ? n.slice(prefix.length) : n) }
}

/** The analysis's outliers by kind: whole nodes, `node/device` ends, and links neither end explains. */
interface Outliers {
  nodes: Set<string>
  ends: Set<string>
  links: string[]
}

function outliersByKind(list: string[]): Outliers {
  const out: Outliers = { nodes: new Set(), ends: new Set(), links: [] }
  for (const name of list) {
    const o = parseOutlierName(name)
    switch (o.kind) {
      case 'link':
        out.links.push(name)
        break
      case 'nic':
        out.ends.add(name)
        break
      case 'node':
        out.nodes.add(name)
        break
    }
  }
  return out
}

const endKey = (node: string, device: string | null): string => (device ? `${node}/${device}` : node)
const partnerOf = (p: BenchmarkPairResult, node: string): string => (p.server === node ? p.client : p.server)

/** One grid cell: a node's NIC, judged by its own measurements (not those a slow partner explains). */
interface Cell {
  gbps: number | null
  ratio: number | null
  mark: string
}

interface Grid {
  test: string
  devices: string[]
  nodes: string[]
  cells: Map<string, Map<string, Cell>>
  /** A node's slowest NIC (its own results) and its worst typical latency. */
  slowest: Map<string, number | null>
  latency: Map<string, number | null>
}

function blamed(o: Outliers, node: string, device: string | null): boolean {
  return o.nodes.has(node) || o.ends.has(endKey(node, device))
}

function cellOf(ms: BenchmarkPairResult[], node: string, o: Outliers): Cell {
  const device = ms[0].device
  const explained = (m: BenchmarkPairResult) => m.verdict === 'fail' && blamed(o, partnerOf(m, node), device)
  const own = ms.filter(m => !explained(m))
  const basis = own.length ? own : ms
  // ⚠️ only when every result of this NIC was with a partner named slow (so its own rate is unknown).
  const measured = own.filter(m => !m.busy)
  const mark =
    blamed(o, node, device) || measured.some(m => m.verdict === 'fail')
      ? FAIL
      : measured.length
        ? PASS
        : own.length
          ? BUSY
          : PARTNER
  return {
    gbps: minOf(basis.map(m => m.bwAvgGbps)),
    ratio: minOf(basis.map(m => m.ratio)),
    mark
  }
}

/**
 * Name order for display: names of one length (AKS's `…-vmss00000a`, base 36, zero-padded) by code
 * point, so `vmss000009` < `vmss00000a` < `vmss000010`; otherwise naturally (`node-2` before `node-10`).
 */
export function nameOrder(names: string[]): (a: string, b: string) => number {
  const oneLength = names.every(n => n.length === names[0]?.length)
  return oneLength ? (a, b) => (a < b ? -1 : a > b ? 1 : 0) : naturalCompare
}

function gridOf(pairs: BenchmarkPairResult[], test: string, o: Outliers): Grid {
  const bw = pairs.filter(p => p.test === test)
  const all = [...new Set(pairs.flatMap(p => [p.server, p.client]))]
  const nodes = all.sort(nameOrder(all))
  const devices = [...new Set(bw.map(p => p.device ?? NO_DEVICE))].sort(naturalCompare)
  const cells = new Map<string, Map<string, Cell>>()
  const slowest = new Map<string, number | null>()
  const latency = new Map<string, number | null>()
  for (const node of nodes) {
    const mine = pairs.filter(p => p.server === node || p.client === node)
    const row = new Map<string, Cell>()
    for (const d of devices) {
      const ms = mine.filter(p => p.test === test && (p.device ?? NO_DEVICE) === d)
      if (ms.length) row.set(d, cellOf(ms, node, o))
    }
    cells.set(node, row)
    slowest.set(node, minOf([...row.values()].map(c => c.gbps)))
    latency.set(node, maxOf(mine.filter(p => !isBandwidth(p)).map(latencyOf)))
  }
  return { test, devices, nodes, cells, slowest, latency }
}

function severity(g: Grid, node: string): number {
  const marks = [...(g.cells.get(node)?.values() ?? [])].map(c => c.mark)
  return marks.includes(FAIL) ? 0 : marks.includes(PARTNER) || marks.includes(BUSY) ? 1 : 2
}

/** The nodes the grid and the chart show: all of them in name order, or the slowest `max` first. */
function listedNodes(g: Grid, max: number): string[] {
  if (g.nodes.length <= max) return g.nodes
  const order = nameOrder(g.nodes)
  return [...g.nodes]
    .sort(
      (a, b) =>
        severity(g, a) - severity(g, b) ||
        (g.slowest.get(a) ?? Infinity) - (g.slowest.get(b) ?? Infinity) ||
        order(a, b)
    )
    .slice(0, max)
}

/** The line rate the results were judged against and the pass mark in Gb/s (null when unknown). */
function passMark(b: ReportBenchmark, test: string): { line: number | null; pass: number | null } {
  const line = maxOf(b.pairs.filter(p => p.test === test).map(p => p.linkGbps))
  const pass = line !== null && b.minBandwidthRatio !== undefined ? line * b.minBandwidthRatio : null
  return { line, pass }
}

/** Text safe inside a Mermaid string literal (node names are untrusted). */
function mermaidLabel(text: string): string {
  return text.replace(/[^A-Za-z0-9._:/-]/g, '?').slice(0, 40) || '?'
}

function niceCeiling(n: number): number {
  const step = n > 200 ? 50 : n > 50 ? 10 : 5
  return Math.ceil(n / step) * step
}

/** Mermaid xychart: each listed node's slowest NIC (bars) against the pass mark (line). */
function chart(
  g: Grid,
  listed: string[],
  names: NodeNames,
  mark: { line: number | null; pass: number | null }
): string | null {
  const bars = listed.map(n => g.slowest.get(n) ?? 0)
  if (!bars.some(v => v > 0)) return null
  const top = niceCeiling(Math.max(...bars, mark.line ?? 0, mark.pass ?? 0))
  const lines = [
    '```mermaid',
    'xychart-beta',
    `  title "${mermaidLabel(g.test)}: slowest NIC per node (Gb/s)${mark.pass !== null ? ', line = pass mark' : ''}"`,
    `  x-axis [${listed.map(n => `"${mermaidLabel(names.short(n))}"`).join(', ')}]`,
    `  y-axis "Gb/s" 0 --> ${top}`,
    `  bar [${bars.map(v => Number(v.toFixed(1))).join(', ')}]`,
    ...(mark.pass !== null ? [`  line [${listed.map(() => Number(mark.pass!.toFixed(1))).join(', ')}]`] : []),
    '```'
  ]
  return lines.join('\n')
}

function gridTable(
  g: Grid,
  listed: string[],
  names: NodeNames,
  verdicts: Map<string, BenchmarkNodeResult>,
  o: BenchmarkSummaryOptions
): string {
  const hasLatency = listed.some(n => g.latency.get(n) !== null)
  const hasNotes = listed.some(n => (verdicts.get(n)?.verdict ?? 'pass') !== 'pass')
  const headers = [
    'Node',
    ...g.devices.map(d => (d === NO_DEVICE ? 'all NICs' : code(d))),
    ...(hasLatency ? ['Latency (µs)'] : []),
    ...(hasNotes ? ['Note'] : [])
  ]
  const rows = listed.map(n => {
    const row = g.cells.get(n)!
    const v = verdicts.get(n)
    return [
      code(names.short(n)),
      ...g.devices.map(d => {
        const c = row.get(d)
        return c ? `${c.mark} ${fmt(c.gbps)}` : '—'
      }),
      ...(hasLatency ? [fmt(g.latency.get(n), 2)] : []),
      ...(hasNotes ? [v && v.verdict !== 'pass' ? escapeCell(v.detail, o.maxCellChars) : ''] : [])
    ]
  })
  const align: Array<'left' | 'right'> = headers.map((_, i) =>
    i > 0 && i <= g.devices.length ? 'right' : 'left'
  )
  return table(headers, rows, align)
}

/** Measurements grouped by node pair (server → client), in the order they were first seen. */
function byPair(pairs: BenchmarkPairResult[]): BenchmarkPairResult[][] {
  const groups = new Map<string, BenchmarkPairResult[]>()
  for (const p of pairs) {
    const key = `${p.server}\u0000${p.client}`
    groups.set(key, [...(groups.get(key) ?? []), p])
  }
  return [...groups.values()]
}

function pairTable(pairs: BenchmarkPairResult[], names: NodeNames, o: BenchmarkSummaryOptions): string {
  const groups = byPair(pairs).map(ms => {
    const bw = ms.filter(isBandwidth)
    const worst = [...bw].sort(
      (a, b) => (a.bwAvgGbps ?? -1) - (b.bwAvgGbps ?? -1) || naturalCompare(a.device ?? '', b.device ?? '')
    )[0]
    const failing = ms.filter(m => m.verdict === 'fail')
    return { ms, bw, worst, failing }
  })
  groups.sort(
    (a, b) =>
      Number(b.failing.length > 0) - Number(a.failing.length > 0) ||
      (a.worst?.ratio ?? a.worst?.bwAvgGbps ?? Infinity) - (b.worst?.ratio ?? b.worst?.bwAvgGbps ?? Infinity)
  )
  const listed = groups.slice(0, o.maxPairs)
  const withCuda = pairs.some(p => p.cuda)
  const headers = [
    'Pair (server → client)',
    'Slowest NIC (Gb/s)',
    '% of line rate',
    'Failing NICs',
    'Latency (µs)',
    ...(withCuda ? ['GPUs (server → client) per NIC'] : []),
    'Verdict'
  ]
  const rows = listed.map(({ ms, bw, worst, failing }) => {
    const first = ms[0]
    const failingDevices = [...new Set(failing.map(m => m.device ?? NO_DEVICE))].sort(naturalCompare)
    const reason = failing.flatMap(m => m.reasons ?? [])[0]
    const cuda = [...bw]
      .filter(m => m.cuda)
      .sort((a, b) => naturalCompare(a.device ?? '', b.device ?? ''))
      .map(m => `${m.cuda!.server}→${m.cuda!.client}`)
    return [
      `${code(names.short(first.server))} → ${code(names.short(first.client))}`,
      worst ? `${fmt(worst.bwAvgGbps, 2)}${worst.device ? ` (${code(worst.device)})` : ''}` : '—',
      percent(worst?.ratio),
      failingDevices.length ? failingDevices.map(d => (d ? code(d) : 'all')).join(', ') : '—',
      fmt(maxOf(ms.filter(m => !isBandwidth(m)).map(latencyOf)), 2),
      ...(withCuda ? [cuda.length ? cuda.join(' ') : 'host memory'] : []),
      failing.length
        ? `${failing.every(m => m.busy) ? BUSY : FAIL} ${escapeCell(reason ?? 'fail', Math.min(o.maxCellChars, 160))}`
        : PASS
    ]
  })
  const parts = [table(headers, rows)]
  if (groups.length > listed.length) {
    const rest = groups.slice(listed.length)
    const failing = rest.filter(g => g.failing.length).length
    parts.push(
      `_${rest.length} more pair${rest.length > 1 ? 's' : ''} not listed (${failing ? `${failing} failing` : 'all passing'})._`
    )
  }
  const failingPairs = groups.filter(g => g.failing.length).length
  const summary = `Per node pair (server → client): ${groups.length} pair${groups.length === 1 ? '' : 's'}, ${failingPairs ? `${failingPairs} failing` : 'all passing'}; the JSON report has all ${pairs.length} measurements`
  return `<details><summary>${escapeInline(summary)}</summary>\n\n${parts.join('\n\n')}\n\n</details>`
}

/** What one outlier is, with its worst number: `slow NIC mlx5_ib3 on node-7 (212.40 Gb/s, 53% of line rate)`. */
function describeOutlier(name: string, pairs: BenchmarkPairResult[]): string {
  const bw = pairs.filter(isBandwidth)
  const worst = (ms: BenchmarkPairResult[]): string => {
    const failing = ms.filter(m => m.verdict === 'fail')
    const basis = failing.length ? failing : ms
    const gbps = minOf(basis.map(m => m.bwAvgGbps))
    const ratio = minOf(basis.map(m => m.ratio))
    if (gbps === null) return ''
    return ` (${gbps.toFixed(2)} Gb/s${ratio !== null ? `, ${percent(ratio)} of line rate` : ''})`
  }
  const o = parseOutlierName(name)
  switch (o.kind) {
    case 'link': {
      const { a, b } = o
      const ms = bw.filter(
        p =>
          ((p.server === a.node && p.client === b.node) || (p.server === b.node && p.client === a.node)) &&
          (a.device === null || p.device === a.device)
      )
      return `slow link ${name}${worst(ms)}`
    }
    case 'nic': {
      const { node, device } = o
      const ms = bw.filter(p => (p.server === node || p.client === node) && p.device === device)
      return `slow NIC ${device} on ${node}${worst(ms)}`
    }
    case 'node':
      return `slow node ${o.node}, every NIC${worst(bw.filter(p => p.server === o.node || p.client === o.node))}`
  }
}

/** Why the benchmark measured nothing on a busy pool, for the verdict line; undefined when it was not busy. */
export function busyReasons(b: ReportBenchmark): string | undefined {
  return b.busy ? `benchmark: ${b.busy.reason}` : undefined
}

/** The busy pool's holders, one row per pod (node, namespace/name). */
function busySection(busy: NonNullable<ReportBenchmark['busy']>, names: NodeNames, max: number): string {
  const parts = [`${FAIL} **Busy:** ${escapeInline(busy.reason)}`]
  if (busy.holders.length) {
    const shown = busy.holders.slice(0, max)
    parts.push(
      table(
        ['Node', 'Pod holding GPUs'],
        shown.map(h => [code(names.short(h.node)), code(`${h.namespace}/${h.name}`)])
      )
    )
    if (busy.holders.length > shown.length)
      parts.push(`_${busy.holders.length - shown.length} more pod(s) not listed; the JSON report has all._`)
  }
  return parts.join('\n\n')
}

/** The outliers named for the verdict line (full node names), at most `max` and a count of the rest. */
export function outlierReasons(b: ReportBenchmark, max = 3): string | undefined {
  if (!b.outliers.length) return undefined
  const shown = b.outliers.slice(0, max).map(o => describeOutlier(o, b.pairs))
  const more = b.outliers.length - shown.length
  return `benchmark: ${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}`
}

function factsLine(
  b: ReportBenchmark,
  g: Grid | undefined,
  mark: { line: number | null; pass: number | null }
): string {
  const facts: string[] = []
  if (b.scope) facts.push(`scope **${b.scope}**`)
  if (g) facts.push(`${g.nodes.length} nodes × ${g.devices.length} NIC${g.devices.length === 1 ? '' : 's'}`)
  const failing = b.pairs.filter(p => p.verdict === 'fail').length
  facts.push(
    `${b.pairs.length} measurement${b.pairs.length === 1 ? '' : 's'}${failing ? `, ${failing} failing` : ''}`
  )
  if (b.minBandwidthRatio !== undefined)
    facts.push(
      mark.line !== null && mark.pass !== null
        ? `pass ≥ ${Math.round(b.minBandwidthRatio * 100)}% of the ${fmt(mark.line, 0)} Gb/s line rate (${fmt(mark.pass)} Gb/s)`
        : `pass ≥ ${Math.round(b.minBandwidthRatio * 100)}% of line rate`
    )
  const medians = Object.entries(b.medianGbps ?? {})
  if (medians.length)
    facts.push(`median ${medians.map(([t, v]) => `${escapeInline(t)} ${v.toFixed(2)} Gb/s`).join(', ')}`)
  const bandwidth = b.pairs.filter(p => isBandwidth(p) && !p.busy)
  const cuda = bandwidth.filter(p => p.cuda).length
  if (cuda) facts.push(`GPUDirect (GPU memory) on ${cuda} of ${bandwidth.length} bandwidth measurements`)
  const latency = b.pairs.filter(p => !isBandwidth(p))
  if (latency.length && latency.every(p => !p.cuda)) facts.push('latency from host memory')
  return facts.join(' · ')
}

/** The `### Benchmark` section. */
export function benchmarkSection(b: ReportBenchmark, o: BenchmarkSummaryOptions): string {
  const parts: string[] = ['### Benchmark']
  const tests = [...new Set(b.pairs.filter(isBandwidth).map(p => p.test))].sort()
  const outliers = outliersByKind(b.outliers)
  const names = nodeNames(b.pairs.flatMap(p => [p.server, p.client]))
  const grids = tests.map(t => gridOf(b.pairs, t, outliers))
  const mark = tests.length ? passMark(b, tests[0]) : { line: null, pass: null }
  parts.push(factsLine(b, grids[0], mark))
  if (b.busy) parts.push(busySection(b.busy, names, o.maxNodes))
  if (b.outliers.length) {
    const end = (node: string, device: string | null) =>
      device ? `${code(names.short(node))} ${code(device)}` : code(names.short(node))
    const shown = b.outliers.slice(0, o.maxNodes).map(name => {
      const x = parseOutlierName(name)
      switch (x.kind) {
        case 'link':
          return `${end(x.a.node, x.a.device)} ↔ ${end(x.b.node, x.b.device)}`
        case 'nic':
          return end(x.node, x.device)
        case 'node':
          return end(x.node, null)
      }
    })
    const more = b.outliers.length - shown.length
    parts.push(`${FAIL} **Slow:** ${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}`)
  }
  if (names.prefix) parts.push(`Node names are shown without their common prefix ${codeSpan(names.prefix)}.`)
  const verdicts = new Map((b.nodes ?? []).map(n => [n.node, n]))
  for (const g of grids) {
    const listed = listedNodes(g, o.maxNodes)
    const heading =
      listed.length < g.nodes.length
        ? `#### ${escapeInline(g.test)} per node and NIC (Gb/s): the ${listed.length} slowest of ${g.nodes.length} nodes`
        : `#### ${escapeInline(g.test)} per node and NIC (Gb/s)`
    parts.push(heading, gridTable(g, listed, names, verdicts, o))
    const legend = [`${PASS} pass`, `${FAIL} below the pass mark`]
    if ([...g.cells.values()].some(r => [...r.values()].some(c => c.mark === PARTNER)))
      legend.push(`${PARTNER} measured only with partners named slow`)
    if ([...g.cells.values()].some(r => [...r.values()].some(c => c.mark === BUSY)))
      legend.push(`${BUSY} not run: the pool is busy`)
    parts.push(`_${legend.join(' · ')}; a cell is the NIC's lowest result, leaving out partners named slow._`)
    if (listed.length < g.nodes.length) {
      const rest = g.nodes.filter(n => !listed.includes(n))
      const notPassing = rest.filter(n => severity(g, n) < 2).length
      const low = minOf(rest.map(n => g.slowest.get(n)))
      parts.push(
        `_${rest.length} more node${rest.length > 1 ? 's' : ''} not listed (${notPassing ? `${notPassing} not passing` : 'all passing'}${low !== null ? `, slowest NIC ${fmt(low)} Gb/s` : ''})._`
      )
    }
    const c = chart(g, listed, names, passMark(b, g.test))
    if (c) parts.push(c)
  }
  if (b.pairs.length) parts.push(pairTable(b.pairs, names, o))
  return parts.join('\n\n')
}
