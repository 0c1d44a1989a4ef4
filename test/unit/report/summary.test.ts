// Job summary: rendered through a real GFM renderer (micromark + gfm) the tables must be whole (same
// cell count in every row, pipes and newlines inside cells kept inside), failing nodes listed and healthy
// ones only counted, the benchmark a node × NIC grid with a chart and the slow NIC named, a 16-node
// fleet (real simulator reports) within 16 KiB, a successful run ending with the pod snippet, drift
// fixes whole with their code spans, and a 1000-node fleet with failures under the 1 MiB limit.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { micromark } from 'micromark'
import { gfm, gfmHtml } from 'micromark-extension-gfm'
import { parse as parseYaml } from 'yaml'
import {
  analyseBenchmark,
  toReportBenchmark,
  type BenchMeasurement
} from '../../../src/benchmark/analysis.js'
import { fleetSchedule } from '../../../src/benchmark/pairing.js'
import { writeJobSummary, type SummarySink } from '../../../src/report/job-summary.js'
import {
  deriveResult,
  emptyReport,
  reportToJson,
  writeReportFile,
  type Report
} from '../../../src/report/report.js'
import { cellWithCode, codeSpan } from '../../../src/report/markdown.js'
import { escapeCell, renderSummary, SUMMARY_LIMIT_BYTES } from '../../../src/report/summary.js'
import { driftItem } from '../../support/drift-items.js'

function html(md: string): string {
  return micromark(md, { extensions: [gfm()], htmlExtensions: [gfmHtml()], allowDangerousHtml: true })
}

interface Table {
  headers: string[]
  rows: string[][]
}

/** Tables of rendered HTML; cells as inner HTML. */
function tables(out: string): Table[] {
  return [...out.matchAll(/<table>([\s\S]*?)<\/table>/g)].map(t => {
    const trs = [...t[1].matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map(tr =>
      [...tr[1].matchAll(/<t[hd](?: [^>]*)?>([\s\S]*?)<\/t[hd]>/g)].map(c => c[1])
    )
    return { headers: trs[0], rows: trs.slice(1) }
  })
}

function expectWholeTables(out: string): Table[] {
  const ts = tables(out)
  for (const t of ts) for (const row of t.rows) expect(row).toHaveLength(t.headers.length)
  return ts
}

const t0 = Date.parse('2025-06-01T10:00:00Z')
const iso = (s: number) => new Date(t0 + s * 1000).toISOString()

function sampleReport(): Report {
  const nodes = Array.from({ length: 6 }, (_, i) => `aks-ndv4-${i}`)
  const ring = fleetSchedule(nodes)
  const measurements: BenchMeasurement[] = ring.rounds.flat().map(p => ({
    server: p.server,
    client: p.client,
    device: 'mlx5_ib0',
    test: 'ib_write_bw',
    bwAvgGbps: p.server === 'aks-ndv4-2' || p.client === 'aks-ndv4-2' ? 101.3 : 196.55,
    bwPeakGbps: null,
    linkGbps: 200
  }))
  const analysis = analyseBenchmark(measurements, { minBandwidthRatio: 0.9 })
  return {
    mode: 'apply',
    result: 'failure',
    outputs: { bandwidthGbps: analysis.outputs.bandwidthGbps, 'nodes-ready': '5/6' },
    steps: [
      {
        name: 'network-operator',
        status: 'success',
        changed: true,
        action: 'created',
        durationMs: 95_000,
        startedAt: iso(0),
        finishedAt: iso(95)
      },
      {
        name: 'gpu-operator',
        status: 'success',
        changed: false,
        durationMs: 40_000,
        startedAt: iso(10),
        finishedAt: iso(50)
      },
      {
        name: 'nic-cluster-policy',
        status: 'failure',
        changed: true,
        action: 'updated',
        durationMs: 600_000,
        startedAt: iso(95),
        finishedAt: iso(695),
        detail: 'timed out | waiting\nfor mofed pods'
      }
    ],
    checks: [
      {
        name: 'ib-ports',
        status: 'fail',
        detail: '1 node with a Down port',
        nodes: [
          ...nodes
            .filter(n => n !== 'aks-ndv4-4')
            .map(n => ({ node: n, status: 'pass' as const, detail: '8/8 ports Active' })),
          { node: 'aks-ndv4-4', status: 'fail' as const, detail: 'mlx5_ib3 Down | Polling' }
        ]
      },
      { name: 'rdma-resource', status: 'pass', detail: 'rdma/ib: 8 on 6 nodes' },
      { name: 'gpudirect', status: 'skipped', detail: 'gpudirect: false' }
    ],
    benchmark: toReportBenchmark(analysis, { scope: 'fleet', minBandwidthRatio: 0.9 }),
    drift: [
      driftItem('NicClusterPolicy', 'spec.ofedDriver.version', '25.04-0.6.1.0-2', '24.10|old', true),
      driftItem(
        'node pool',
        'vmSize',
        'Standard_ND96asr_v4',
        'Standard_ND96amsr_A100_v4',
        false,
        'recreate the node pool'
      )
    ],
    diagnostics: [
      {
        step: 'nic-cluster-policy',
        title: 'mofed pod logs',
        text: 'line 1\n```\nnot a fence end | pipe\n</details>\nlast line: modprobe failed'
      }
    ]
  }
}

describe('job summary Markdown', () => {
  it('renders whole tables for every section', () => {
    const md = renderSummary(sampleReport())
    const out = html(md)
    const ts = expectWholeTables(out)
    const byFirstHeader = Object.fromEntries(ts.map(t => [t.headers[0], t]))
    expect(Object.keys(byFirstHeader)).toEqual(
      expect.arrayContaining(['Output', 'Component', 'Check', 'Pair (server → client)', 'Node'])
    )
    expect(ts.find(t => t.headers.includes('Start'))!.rows).toHaveLength(3) // steps
    expect(byFirstHeader.Check.rows).toHaveLength(3)
    expect(byFirstHeader['Pair (server → client)'].rows).toHaveLength(6)
    expect(byFirstHeader.Node.rows).toHaveLength(6)
    // the drift table is the one whose header starts with Component and has a Desired column
    const drift = ts.find(t => t.headers.includes('Desired'))!
    expect(drift.rows).toHaveLength(2)
    expect(drift.rows[0][3]).toBe('24.10|old') // a pipe stays inside its cell
    expect(drift.rows[1][4]).toBe('recreate the node pool')
  })

  it('leads with the verdict and names what failed', () => {
    const md = renderSummary(sampleReport())
    const first = md.split('\n')[0]
    expect(first).toMatch(/^## ❌ /)
    expect(md).toContain('failed step: nic-cluster-policy')
    expect(md).toContain('aks-ndv4-2')
    expect(renderSummary({ ...emptyReport('verify') }).split('\n')[0]).toMatch(/^## ✅ .*succeeded/)
    // A success has its one line under the heading too: what was verified, and the numbers.
    const ok = renderSummary({
      ...emptyReport('apply'),
      result: 'success',
      outputs: { 'rdma-nodes': '2', 'bandwidth-gbps': '387.16', 'latency-us': '1.62' },
      checks: [
        { name: 'nodes-ready', status: 'pass', detail: '' },
        { name: 'ofed-driver', status: 'pass', detail: '' }
      ]
    }).split('\n')
    expect(ok.slice(0, 3)).toEqual([
      '## ✅ aks-rdma-action `apply` succeeded',
      '',
      '2 RDMA nodes verified, 2/2 checks pass, lowest pair bandwidth 387.16 Gb/s, latency 1.62 µs'
    ])
    expect(renderSummary({ ...emptyReport('drift'), result: 'success' }).split('\n')[2]).toBe(
      'no drift: the cluster is as the inputs describe it'
    )
    expect(renderSummary({ ...emptyReport('drift'), result: 'drifted' }).split('\n')[0]).toMatch(
      /^## ⚠️ .*found drift/
    )
  })

  it('shows step offsets so overlapping steps are visible, and keeps newlines and pipes inside cells', () => {
    const out = html(renderSummary(sampleReport()))
    const steps = tables(out).find(t => t.headers[0] === 'Component' && t.headers.includes('Start'))!
    const col = (name: string) => steps.headers.indexOf(name)
    expect(steps.rows.map(r => r[col('Start')])).toEqual(['+0s', '+10s', '+1m35s'])
    expect(steps.rows.map(r => r[col('End')])).toEqual(['+1m35s', '+50s', '+11m35s'])
    expect(steps.rows.map(r => r[col('Action')])).toEqual(['created', 'unchanged', 'updated'])
    expect(steps.rows[2][col('Detail')]).toBe('timed out | waiting<br>for mofed pods')
  })

  it('lists failing nodes of a check and only counts the healthy ones', () => {
    const md = renderSummary(sampleReport())
    const out = html(md)
    expect(out).toContain('<code>aks-ndv4-4</code>: mlx5_ib3 Down | Polling')
    const checks = tables(out).find(t => t.headers[0] === 'Check')!
    expect(checks.rows[0][2]).toBe('1 of 6 failing, 5 healthy')
    expect(md).not.toContain('8/8 ports Active')
  })

  it('shows the benchmark as a node × NIC grid with names shortened, the slow node marked and named', () => {
    const md = renderSummary(sampleReport())
    const out = html(md)
    // The verdict names the slow node (in full) with its number.
    expect(md.split('\n')[2]).toContain('slow node aks-ndv4-2, every NIC (101.30 Gb/s, 50.6% of line rate)')
    expect(out).toContain('Node names are shown without their common prefix <code>aks-ndv4-</code>.')
    const grid = tables(out).find(t => t.headers[0] === 'Node')!
    expect(grid.headers.slice(0, 2)).toEqual(['Node', '<code>mlx5_ib0</code>'])
    expect(grid.rows.map(r => r[0])).toEqual(['0', '1', '2', '3', '4', '5'].map(n => `<code>${n}</code>`))
    expect(grid.rows[2][1]).toBe('❌ 101.3')
    // Its neighbours were slow only with it: their own NIC passes, at their other partner's rate.
    for (const i of [0, 1, 3, 4, 5]) expect(grid.rows[i][1]).toMatch(/^✅ 196\.\d$/)
    expect(grid.rows[2][grid.headers.indexOf('Note')]).toMatch(/slow with every partner/)
    expect(out).toContain('<strong>Slow:</strong> <code>2</code>')
    // Per-pair rows are folded, failing first.
    const details = out.slice(out.indexOf('<details><summary>Per node pair'))
    const pairs = tables(details)[0]
    expect(pairs.headers[0]).toBe('Pair (server → client)')
    expect(pairs.rows).toHaveLength(6)
    expect(pairs.rows.slice(0, 2).map(r => r[pairs.headers.length - 1])).toEqual([
      expect.stringMatching(/^❌ 101\.3 Gb\/s is 51% of the 200 Gb\/s line rate/),
      expect.stringMatching(/^❌/)
    ])
    expect(pairs.rows[5][pairs.headers.length - 1]).toBe('✅')
  })

  it('names a slow link in pair scope, where neither end can be blamed, and shows GPUDirect devices', () => {
    const measurements: BenchMeasurement[] = [0, 1].map(k => ({
      server: 'gpu-node-10',
      client: 'gpu-node-9',
      device: `mlx5_ib${k}`,
      test: 'ib_write_bw',
      bwAvgGbps: k === 1 ? 150 : 390,
      bwPeakGbps: null,
      linkGbps: 400
    }))
    const bench = toReportBenchmark(analyseBenchmark(measurements, { minBandwidthRatio: 0.9 }), {
      scope: 'pair',
      minBandwidthRatio: 0.9
    })
    bench.pairs = bench.pairs.map((p, k) => ({ ...p, cuda: { server: k, client: k + 4 } }))
    const md = renderSummary({ ...emptyReport('verify'), result: 'failure', benchmark: bench })
    expect(md).toContain(
      'slow link gpu-node-10/mlx5\\_ib1 ↔ gpu-node-9/mlx5\\_ib1 (150.00 Gb/s, 37.5% of line rate)'
    )
    const out = html(md)
    const grid = tables(out).find(t => t.headers[0] === 'Node')!
    // Natural order, the prefix `gpu-node-` stated once.
    expect(grid.rows.map(r => r[0])).toEqual(['<code>9</code>', '<code>10</code>'])
    expect(grid.rows.map(r => r.slice(1, 3))).toEqual([
      ['✅ 390.0', '❌ 150.0'],
      ['✅ 390.0', '❌ 150.0']
    ])
    const pairs = tables(out).find(t => t.headers[0] === 'Pair (server → client)')!
    expect(pairs.rows[0][pairs.headers.indexOf('GPUs (server → client) per NIC')]).toBe('0→4 1→5')
    expect(out).toContain('GPUDirect (GPU memory) on 2 of 2 bandwidth measurements')
    // Latency (host memory: perftest refuses GPU memory for write latency) is not a bandwidth measurement: still 2 of 2.
    const latency = bench.pairs.map(p => ({ ...p, cuda: undefined, test: 'ib_write_lat', bwAvgGbps: null }))
    const both = renderSummary({
      ...emptyReport('verify'),
      result: 'failure',
      benchmark: { ...bench, pairs: [...bench.pairs, ...latency] }
    })
    expect(both).toContain(
      'GPUDirect (GPU memory) on 2 of 2 bandwidth measurements · latency from host memory'
    )
  })

  it('folds diagnostics into <details> with a fence longer than any in the text', () => {
    const md = renderSummary(sampleReport())
    const out = html(md)
    expect(out).toContain('<details><summary>nic-cluster-policy: mofed pod logs</summary>')
    expect(out).toContain('&lt;/details&gt;') // the log's own tag is shown, not interpreted
    expect(out).toContain('last line: modprobe failed')
    expect(md).toContain('````text')
  })

  it('escapes cell text', () => {
    expect(escapeCell('a|b\nc')).toBe('a\\|b<br>c')
    expect(escapeCell('<RDMA-NIC-2> *x* C:\\')).toBe('&lt;RDMA-NIC-2&gt; \\*x\\* C:\\\\')
    const out = html(`| h |\n| --- |\n| ${escapeCell('x\\|y | `z` [l](u)')} |\n`)
    expect(tables(out)[0].rows[0]).toEqual(['x\\|y | `z` [l](u)'])
  })
})

describe('job summary size', () => {
  function fleetReport(n: number): Report {
    const nodes = Array.from({ length: n }, (_, i) => `aks-rdmapool-${String(i).padStart(4, '0')}-vmss`)
    const ring = fleetSchedule(nodes)
    const devices = Array.from({ length: 8 }, (_, i) => `mlx5_ib${i}`)
    const slow = new Set(nodes.filter((_, i) => i % 97 === 5))
    const measurements: BenchMeasurement[] = ring.rounds.flat().flatMap(p =>
      devices.map(device => ({
        server: p.server,
        client: p.client,
        device,
        test: 'ib_write_bw',
        bwAvgGbps: slow.has(p.server) || slow.has(p.client) ? 88.4 : 196.5,
        bwPeakGbps: 197.1,
        linkGbps: 200
      }))
    )
    const analysis = analyseBenchmark(measurements, { minBandwidthRatio: 0.9 })
    const checkNodes = (name: string, failEvery: number) => ({
      name,
      status: 'fail' as const,
      detail: `${name} failed on some nodes`,
      nodes: nodes.map((node, i) => ({
        node,
        status: i % failEvery === 0 ? ('fail' as const) : ('pass' as const),
        detail:
          i % failEvery === 0
            ? `port mlx5_ib${i % 8} is Down (physical state Polling) | reboot needed`
            : 'all 8 ports Active at 200 Gb/s'
      }))
    })
    return {
      mode: 'verify',
      result: 'failure',
      outputs: { bandwidthGbps: analysis.outputs.bandwidthGbps },
      steps: Array.from({ length: 30 }, (_, i) => ({
        name: `step-${i}`,
        status: 'success' as const,
        changed: i % 2 === 0,
        durationMs: 1000 * i,
        startedAt: iso(i),
        finishedAt: iso(2 * i)
      })),
      checks: [
        checkNodes('ib-ports', 3),
        checkNodes('rdma-resource', 2),
        checkNodes('kernel-modules', 1),
        checkNodes('gpudirect', 5)
      ],
      benchmark: toReportBenchmark(analysis, { scope: 'fleet', minBandwidthRatio: 0.9 }),
      drift: Array.from({ length: 3000 }, (_, i) => ({
        component: `node/${nodes[i % n]}`,
        field: `metadata.labels.feature-${i}`,
        desired: 'x'.repeat(200),
        actual: 'y|'.repeat(100),
        fixableByApply: i % 2 === 0
      })),
      diagnostics: Array.from({ length: 40 }, (_, i) => ({
        step: `step-${i}`,
        title: `pod logs ${i}`,
        text: `start\n${'error: something went wrong | ``` fence\n'.repeat(20_000)}end of log ${i}`
      }))
    }
  }

  it('stays under 1 MiB for a 1000-node fleet with failures, says what it omitted, and keeps tables whole', () => {
    const report = fleetReport(1000)
    expect(Buffer.byteLength(reportToJson(report))).toBeGreaterThan(SUMMARY_LIMIT_BYTES) // the input really is big
    const md = renderSummary(report)
    expect(Buffer.byteLength(md, 'utf8')).toBeLessThan(SUMMARY_LIMIT_BYTES)
    expect(md).toContain('more failing nodes not listed')
    expect(md).toMatch(/\d+ more pairs not listed \((\d+ failing|all passing)\)/)
    expect(md).toMatch(/\d+ more nodes not listed \(all passing, slowest NIC 196\.5 Gb\/s\)/)
    expect(md).toContain('more drifted fields not listed')
    expect(md).toContain('earlier bytes cut')
    const out = html(md)
    expectWholeTables(out)
    // the slow nodes lead the grid when not every node fits, each of their NICs marked
    const grid = tables(out).find(t => t.headers[0] === 'Node')!
    expect(grid.rows).toHaveLength(25)
    expect(grid.rows[0][0]).toBe('<code>0005-vmss</code>') // prefix aks-rdmapool-, not inside the number
    expect(grid.rows[0].slice(1, 9).every(c => c.startsWith('❌ 88.4'))).toBe(true)
    expect(out).toContain('the 25 slowest of 1000 nodes')
  })

  it('cuts whole sections when the caps alone are not enough', () => {
    const md = renderSummary(fleetReport(200), { maxBytes: 6_000 })
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(6_000)
    expect(md.split('\n')[0]).toMatch(/^## ❌/)
    expect(md).toContain('Summary cut to stay under the 1 MiB job-summary limit')
    expectWholeTables(html(md))
  })
})

describe('a 16-node fleet at a glance (reports of the simulator, test/fixtures/reports)', () => {
  const fixture = (name: string): Report =>
    JSON.parse(readFileSync(path.join('test', 'fixtures', 'reports', name), 'utf8')) as Report
  const FULL = 'aks-rdmapool-54215238-vmss000007'
  const NICS = Array.from({ length: 8 }, (_, i) => `mlx5_ib${i}`)

  /** The Mermaid chart's x labels and series, as written. */
  function chart(md: string): { x: string[]; bar: number[]; line: number[]; top: number } {
    const block = /```mermaid\n([\s\S]*?)```/.exec(md)![1]
    const list = (key: string) => /\[(.*)\]/.exec(block.split('\n').find(l => l.trim().startsWith(key))!)![1]
    return {
      x: list('x-axis')
        .split(', ')
        .map(v => JSON.parse(v) as string),
      bar: list('bar').split(', ').map(Number),
      line: list('line').split(', ').map(Number),
      top: Number(/y-axis "Gb\/s" 0 --> (\d+)/.exec(block)![1])
    }
  }

  it('one slow NIC: within 16 KiB, a 16 × 8 grid with one ❌, named in the verdict, charted, pairs folded', () => {
    const report = fixture('fleet16-slow-nic.json')
    const md = renderSummary(report)
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(16 * 1024)
    const out = html(md)
    const ts = expectWholeTables(out)
    // The verdict line names the node (in full) and the NIC, with its number.
    expect(md.split('\n')[2]).toMatch(
      new RegExp(`slow NIC mlx5\\\\_ib3 on ${FULL} \\(205\\.98 Gb/s, 51\\.5% of line rate\\)`)
    )
    // The common prefix is stated once; in the benchmark section no full name repeats.
    const bench = md.slice(md.indexOf('### Benchmark'))
    expect(bench.split('aks-rdmapool-54215238-vmss').length - 1).toBe(1)
    // Cut after `vmss`, never inside the instance number.
    expect(out).toContain('without their common prefix <code>aks-rdmapool-54215238-vmss</code>')
    // One row per node, one column per NIC, a Gb/s figure and a mark in every cell.
    const grid = ts.find(t => t.headers[0] === 'Node')!
    expect(grid.headers.slice(1, 9)).toEqual(NICS.map(n => `<code>${n}</code>`))
    const names = [...'0123456789abcdef'].map(c => `<code>00000${c}</code>`)
    expect(grid.rows.map(r => r[0])).toEqual(names)
    const failing: string[] = []
    for (const row of grid.rows)
      row.slice(1, 9).forEach((cell, i) => {
        expect(cell).toMatch(/^(✅|❌) \d{3}\.\d$/)
        if (cell.startsWith('❌')) failing.push(`${row[0]} ${NICS[i]}: ${cell}`)
      })
    expect(failing).toEqual(['<code>000007</code> mlx5_ib3: ❌ 206.0'])
    expect(grid.rows[7][grid.headers.indexOf('Note')]).toBe('bad NIC(s) mlx5_ib3: slow with every partner')
    // The chart: each node's slowest NIC (bars) against the pass mark (line), in the grid's order.
    const c = chart(md)
    expect(c.x).toEqual([...'0123456789abcdef'].map(c => `00000${c}`))
    expect(c.bar).toHaveLength(16)
    expect(c.bar[7]).toBe(206)
    expect(c.bar.filter((v, i) => i !== 7).every(v => v >= 360)).toBe(true)
    expect(c.line).toEqual(Array(16).fill(360))
    expect(c.top).toBe(400)
    expect(out).toContain('<pre><code class="language-mermaid">xychart-beta')
    // Per-pair rows only inside <details>, failing first.
    const folded = out.indexOf('<details><summary>Per node pair (server → client): 16 pairs, 2 failing')
    expect(folded).toBeGreaterThan(0)
    expect(tables(out.slice(0, folded)).some(t => t.headers[0].startsWith('Pair'))).toBe(false)
    const pairs = tables(out.slice(folded))[0]
    expect(pairs.rows).toHaveLength(16)
    expect(pairs.rows.slice(0, 2).map(r => r[0])).toEqual([
      '<code>000006</code> → <code>000007</code>',
      '<code>000007</code> → <code>000008</code>'
    ])
    // No pod snippet after a failed run.
    expect(md).not.toContain('Run a workload on this pool')
  })

  it('a successful run: within 16 KiB, every cell passing, ending with the pod snippet', () => {
    const report = fixture('fleet16-success.json')
    const md = renderSummary(report)
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(16 * 1024)
    const out = html(md)
    const grid = expectWholeTables(out).find(t => t.headers[0] === 'Node')!
    expect(grid.rows).toHaveLength(16)
    expect(grid.rows.every(r => r.slice(1, 9).every(cell => /^✅ \d{3}\.\d$/.test(cell)))).toBe(true)
    expect(chart(md).bar.every(v => v >= 360)).toBe(true)
    // The last section: how a workload uses the pool, its YAML the report's snippet exactly.
    const headings = [...md.matchAll(/^### (.+)$/gm)].map(m => m[1])
    expect(headings.at(-1)).toBe('Run a workload on this pool')
    const yaml = /```yaml\n([\s\S]*?)\n```\n\nSave it as `rdma-workload.yaml`/.exec(md)![1]
    expect(parseYaml(yaml)).toEqual(report.workload!.podSnippet)
    expect(yaml).not.toMatch(/[&*]a\d/) // no YAML anchors: a person copies it
    expect(md).toContain('`rdma/hca_shared_devices_a: 1`')
    expect(md).toContain('No `IPC_LOCK` capability')
    expect(md).toContain('benchmark pods were built from this same spec')
  })
})

describe('drift and steps read right', () => {
  it('a step that found drift shows ⚠️; a Fix cell keeps its code spans and is never cut', () => {
    const long = 'then wait for the pool to settle and run drift again; '.repeat(8)
    const report: Report = {
      ...emptyReport('drift'),
      result: 'drifted',
      steps: [
        {
          name: 'drift',
          status: 'warning',
          changed: false,
          durationMs: 1000,
          startedAt: iso(0),
          finishedAt: iso(1),
          detail: '2 drifted fields'
        }
      ],
      drift: [
        driftItem(
          'node-pool',
          'count',
          '2',
          '3 | <b>three</b>',
          false,
          `run \`az aks nodepool scale --name rdma --node-count 2 | tee /dev/null\`, ${long}`
        ),
        {
          component: 'gpu-operator',
          field: 'ClusterPolicy/cluster-policy spec.driver.rdma.enabled',
          desired: 'x'.repeat(400),
          actual: 'false',
          fixableByApply: true,
          hint: 'an unmatched ` backtick stays text'
        }
      ]
    }
    const out = html(renderSummary(report))
    const steps = tables(out).find(t => t.headers.includes('Timeline'))!
    expect(steps.rows[0][1]).toBe('⚠️ warning')
    const drift = tables(out).find(t => t.headers.includes('Fix'))!
    const fix = drift.rows[0][4]
    expect(fix).toContain('<code>az aks nodepool scale --name rdma --node-count 2 | tee /dev/null</code>')
    expect(fix).toContain(long.trim())
    expect(fix).not.toContain('…')
    expect(drift.rows[0][3]).toBe('3 | &lt;b&gt;three&lt;/b&gt;')
    expect(drift.rows[1][4]).toBe('mode: apply fixes this (an unmatched ` backtick stays text)')
    expect(drift.rows[1][2]).toMatch(/^x{299}…$/) // values are still capped; fixes are not
  })
})

describe('markdown helpers', () => {
  it('cellWithCode: code spans kept (CommonMark run lengths), the rest escaped, pipes safe', () => {
    const cell = (t: string) => tables(html(`| h |\n| --- |\n| ${cellWithCode(t)} |\n`))[0].rows[0][0]
    expect(cell('run `a | b` now *x*')).toBe('run <code>a | b</code> now *x*')
    expect(cell('``one ` tick``')).toBe('<code>one ` tick</code>')
    expect(cell('no `close')).toBe('no `close')
    expect(cell('two\nlines `c`')).toBe('two<br>lines <code>c</code>')
    expect(codeSpan('a`b')).toBe('``a`b``')
    expect(codeSpan('`x')).toBe('`` `x ``')
  })
})

describe('report and writer', () => {
  it('derives the result from the contents', () => {
    const r = sampleReport()
    expect(deriveResult(r)).toBe('failure')
    expect(deriveResult({ ...emptyReport('drift'), drift: r.drift })).toBe('drifted')
    expect(deriveResult(emptyReport('verify'))).toBe('success')
  })

  it('writes the JSON report and the job summary file', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'summary-test-'))
    const saved = process.env.GITHUB_STEP_SUMMARY
    try {
      const file = path.join(dir, 'out', 'report.json')
      await writeReportFile(file, sampleReport())
      expect(JSON.parse(readFileSync(file, 'utf8')).mode).toBe('apply')

      const written: string[] = []
      const sink: SummarySink = {
        addRaw(text) {
          written.push(text)
          return sink
        },
        async write() {
          return sink
        }
      }
      delete process.env.GITHUB_STEP_SUMMARY
      expect(await writeJobSummary(sampleReport(), {}, sink)).toBe(false)
      expect(written).toEqual([])

      const summaryFile = path.join(dir, 'step-summary.md')
      process.env.GITHUB_STEP_SUMMARY = summaryFile
      expect(await writeJobSummary(sampleReport(), {}, sink)).toBe(true)
      expect(written[0]).toBe(renderSummary(sampleReport()))

      // through the real @actions/core summary buffer
      const { writeFileSync } = await import('node:fs')
      writeFileSync(summaryFile, '')
      expect(await writeJobSummary(sampleReport())).toBe(true)
      expect(readFileSync(summaryFile, 'utf8')).toContain('## ❌ aks-rdma-action')
    } finally {
      if (saved === undefined) delete process.env.GITHUB_STEP_SUMMARY
      else process.env.GITHUB_STEP_SUMMARY = saved
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('the verdict line and the diagnostics, exactly', () => {
  const step = (name: string, status: 'success' | 'failure') => ({
    name,
    status,
    changed: false,
    durationMs: 1000,
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:00:01.000Z'
  })

  it('names every kind of failure, in the plural when there are several', () => {
    const r: Report = {
      ...emptyReport('apply'),
      result: 'failure',
      steps: [step('a', 'failure'), step('b', 'failure'), step('c', 'success')],
      checks: [
        { name: 'x', status: 'fail', detail: '' },
        { name: 'y', status: 'pass', detail: '' }
      ],
      drift: [
        { component: 'c', field: 'f', desired: '1', actual: '2', fixableByApply: true },
        { component: 'c', field: 'g', desired: '1', actual: '2', fixableByApply: true }
      ]
    }
    expect(renderSummary(r).split('\n').slice(0, 3)).toEqual([
      '## ❌ aks-rdma-action `apply` failed',
      '',
      'failed steps: a, b; 1 of 2 checks failed; 2 drifted fields'
    ])
    const one = { ...r, steps: [step('a', 'failure')], drift: [r.drift![0]], checks: [] }
    expect(renderSummary(one).split('\n')[2]).toBe('failed step: a; 1 drifted field')
    // A failure without a named cause has the heading alone.
    expect(
      renderSummary({ ...emptyReport('apply'), result: 'failure' }, { title: 'mine' }).split('\n')[0]
    ).toBe('## ❌ mine `apply` failed')
    expect(renderSummary({ ...emptyReport('apply'), result: 'failure' }).split('\n')[1]).not.toMatch(/\w/)
  })

  it('says what a success did: one node, the checks that pass, else the steps done', () => {
    const ok = (o: Partial<Report>) => renderSummary({ ...emptyReport('apply'), ...o }).split('\n')[2]
    expect(
      ok({
        outputs: { 'rdma-nodes': '1' },
        checks: [
          { name: 'a', status: 'pass', detail: '' },
          { name: 'b', status: 'warn', detail: '' }
        ]
      })
    ).toBe('1 RDMA node verified, 1/2 checks pass')
    expect(ok({ steps: [step('a', 'success')] })).toBe('1 step done')
    expect(ok({ steps: [step('a', 'success'), step('b', 'success')] })).toBe('2 steps done')
    expect(ok({ outputs: { 'rdma-nodes': '' } })).toBe('0 steps done')
  })

  it('keeps a long diagnostic’s tail from a line start, says how much was cut, and lists the rest as a count', () => {
    const lines = Array.from(
      { length: 300 },
      (_, i) => `line ${String(i).padStart(3, '0')} ${'é'.repeat(20)}`
    )
    const text = lines.join('\n')
    const diag = (i: number) => ({ step: `s${i}`, title: `t${i}`, text })
    const md = renderSummary(
      { ...emptyReport('apply'), result: 'failure', diagnostics: [diag(1), diag(2), diag(3)] },
      { maxDiagnostics: 2, maxDiagnosticBytes: 2000 }
    )
    const body = md.slice(md.indexOf('```text\n') + 8, md.indexOf('\n```\n'))
    const [head, ...kept] = body.split('\n')
    // Whole lines only (the cut is moved to the next line start), the last one kept.
    expect(kept[0]).toMatch(/^line \d{3} é{20}$/)
    expect(kept.at(-1)).toBe(lines.at(-1))
    expect(kept.join('\n')).toBe(lines.slice(lines.indexOf(kept[0])).join('\n'))
    expect(Buffer.byteLength(kept.join('\n'))).toBeLessThanOrEqual(2000)
    expect(head).toBe(`[… ${Buffer.byteLength(text) - Buffer.byteLength(kept.join('\n'))} earlier bytes cut]`)
    expect(md).toContain('_1 more diagnostics in the JSON report._')
    expect(md.match(/<details>/g)).toHaveLength(2)
    // A text within the limit is shown whole.
    const short = renderSummary({
      ...emptyReport('apply'),
      diagnostics: [{ step: 's', title: 't', text: 'a\r\nb' }]
    })
    expect(short).toContain('```text\na\nb\n```')
  })

  it('keeps a tail without a near line start as it is, without a broken character', () => {
    const text = 'x'.repeat(10) + '\n' + 'é'.repeat(2000)
    const md = renderSummary(
      { ...emptyReport('apply'), result: 'failure', diagnostics: [{ step: 's', title: 't', text }] },
      { maxDiagnosticBytes: 1001 }
    )
    const body = md.slice(md.indexOf('```text\n') + 8, md.indexOf('\n```\n'))
    const kept = body.split('\n')[1]
    expect(kept).toBe('é'.repeat(500))
    expect(body.split('\n')[0]).toBe(`[… ${Buffer.byteLength(text) - 1000} earlier bytes cut]`)
  })

  it('halves its caps to fit before cutting sections, never below their floors', () => {
    const diagnostics = Array.from({ length: 4 }, (_, i) => ({
      step: `s${i}`,
      title: 't',
      text: 'y'.repeat(40_000)
    }))
    const r: Report = { ...emptyReport('apply'), result: 'failure', diagnostics }
    const full = renderSummary(r)
    expect(full.match(/<details>/g)).toHaveLength(4)
    // 16 KiB of ten at first; halved four times to fit 2 KB: one diagnostic, at its 1 KiB floor.
    const fitted = renderSummary(r, { maxBytes: 2_000 })
    expect(Buffer.byteLength(fitted)).toBeLessThanOrEqual(2_000)
    expect(fitted.match(/<details>/g)).toHaveLength(1)
    expect(fitted).toContain('_3 more diagnostics in the JSON report._')
    expect(fitted).toContain(`[… ${40_000 - 1024} earlier bytes cut]`)
    expect(fitted).not.toContain('Summary cut to stay under')
    // Halved twice (two of them, 4 KiB each) it fits 10 KB.
    const roomier = renderSummary(r, { maxBytes: 10_000 })
    expect(roomier.match(/<details>/g)).toHaveLength(2)
    expect(roomier).toContain(`[… ${40_000 - 4096} earlier bytes cut]`)
  })
})
