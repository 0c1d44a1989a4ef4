// Job summary: rendered through a real GFM renderer (micromark + gfm) the tables must be whole (same
// cell count in every row, pipes and newlines inside cells kept inside), failing nodes listed and healthy
// ones only counted, and a 1000-node fleet with failures must stay under the 1 MiB summary limit.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { micromark } from 'micromark'
import { gfm, gfmHtml } from 'micromark-extension-gfm'
import { analyseBenchmark, toReportBenchmark, type BenchMeasurement } from '../src/benchmark/analysis.js'
import { fleetSchedule } from '../src/benchmark/pairing.js'
import { writeJobSummary, type SummarySink } from '../src/report/job-summary.js'
import {
  deriveResult,
  emptyReport,
  reportToJson,
  writeReportFile,
  type Report
} from '../src/report/report.js'
import { escapeCell, renderSummary, SUMMARY_LIMIT_BYTES } from '../src/report/summary.js'

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
      {
        component: 'NicClusterPolicy',
        field: 'spec.ofedDriver.version',
        desired: '25.04-0.6.1.0-2',
        actual: '24.10|old',
        fixableByApply: true
      },
      {
        component: 'node pool',
        field: 'vmSize',
        desired: 'Standard_ND96asr_v4',
        actual: 'Standard_ND96amsr_A100_v4',
        fixableByApply: false,
        hint: 'recreate the node pool'
      }
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

  it('puts the outlier first in the per-node view, marked', () => {
    const out = html(renderSummary(sampleReport()))
    const nodeTable = tables(out).find(t => t.headers[0] === 'Node')!
    expect(nodeTable.rows[0][0]).toBe('⚠️ <code>aks-ndv4-2</code>')
    expect(nodeTable.rows[0][5]).toMatch(/^❌/)
    expect(out).toContain('<strong>Outliers:</strong> <code>aks-ndv4-2</code>')
    const pairs = tables(out).find(t => t.headers[0] === 'Pair (server → client)')!
    expect(pairs.rows[0][4]).toBe('50.6%')
    expect(pairs.rows[0][6]).toMatch(/^❌/)
    expect(pairs.rows[5][6]).toBe('✅')
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
    expect(md).toMatch(/\d+ more measurements not listed \(\d+ failing\)/)
    expect(md).toMatch(/\d+ more nodes not listed/)
    expect(md).toContain('more drifted fields not listed')
    expect(md).toContain('earlier bytes cut')
    const out = html(md)
    expectWholeTables(out)
    // the outliers (slow nodes) lead the per-node view
    const nodeTable = tables(out).find(t => t.headers[0] === 'Node')!
    expect(nodeTable.rows[0][0]).toMatch(/^⚠️ <code>aks-rdmapool-0005-vmss<\/code>$/)
  })

  it('cuts whole sections when the caps alone are not enough', () => {
    const md = renderSummary(fleetReport(200), { maxBytes: 6_000 })
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(6_000)
    expect(md.split('\n')[0]).toMatch(/^## ❌/)
    expect(md).toContain('Summary cut to stay under the 1 MiB job-summary limit')
    expectWholeTables(html(md))
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
