// An adapter over analysis.ts: blame is attributed per test. analyseBenchmark blames an end
// (node/device) only when all its measurements fail, counting every test together, so a node
// whose bandwidth is slow with both partners but whose latency is fine would only be named as
// two slow links. Here each test is analysed on its own for the outliers and the node verdicts;
// the measurement verdicts, medians and outputs are those of the whole run.
import {
  analyseBenchmark,
  type AnalysisOptions,
  type BenchMeasurement,
  type BenchmarkAnalysis,
  type NodeView
} from './analysis.js'

const RANK = { pass: 0, warn: 1, fail: 2 } as const

export function analysePerTest(measurements: BenchMeasurement[], opts: AnalysisOptions): BenchmarkAnalysis {
  const all = analyseBenchmark(measurements, opts)
  const tests = [...new Set(measurements.map(m => m.test))]
  const perTest = tests.map(t => ({
    test: t,
    a: analyseBenchmark(
      measurements.filter(m => m.test === t),
      opts
    )
  }))
  const outliers = [...new Set(perTest.flatMap(p => p.a.outliers))].sort()
  const nodes: NodeView[] = all.nodes.map(n => {
    const views = perTest
      .map(p => ({ test: p.test, v: p.a.nodes.find(x => x.node === n.node) }))
      .filter(x => x.v)
    const bad = views.filter(x => x.v!.verdict !== 'pass')
    if (!bad.length) return n
    const verdict = bad.reduce<NodeView['verdict']>(
      (w, x) => (RANK[x.v!.verdict] > RANK[w] ? x.v!.verdict : w),
      'pass'
    )
    return {
      ...n,
      verdict,
      blamed: bad.some(x => x.v!.blamed),
      badDevices: [...new Set(bad.flatMap(x => x.v!.badDevices))].sort(),
      detail: bad.map(x => `${x.test}: ${x.v!.detail}`).join('; ')
    }
  })
  const failed = all.measurements.filter(m => m.verdict === 'fail').length
  const summary =
    all.verdict === 'pass'
      ? all.summary
      : `${failed} of ${all.measurements.length} measurement(s) failed; outliers: ${outliers.join(', ') || 'none attributed'}`
  return { ...all, nodes, outliers, summary }
}
