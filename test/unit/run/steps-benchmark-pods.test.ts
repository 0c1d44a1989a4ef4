// The benchmark step of the flow over a fake client on an in-memory cluster whose kubelet runs
// the perftest pods at once with real perftest output from test/fixtures (perftest-pods'
// perftestKube, as test/unit/benchmark/runner.test.ts uses it): the outputs (bandwidth, latency)
// and the report's benchmark section, a warning per node left out and for GPUDirect unsupported or host-staged
// (never when it is on or off), and a failed verdict failing the step with the runner's summary.
import { describe, expect, it } from '@jest/globals'
import { emptyReport, type Report } from '../../../src/report/report.js'
import { runBenchmarkStep } from '../../../src/run/benchmark-step.js'
import { StepError } from '../../../src/run/steps.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import type { Settings } from '../../../src/settings/settings.js'
import type { NodeFacts } from '../../../src/verify/probe-output.js'
import type { CapturedLog } from '../../support/capture-log.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'
import { BW_196, BW_394, LAT, noCudaOutput, perftestKube as benchKube } from '../../support/perftest-pods.js'
import { benchFacts as nodeFacts, factsOf } from '../../support/probe-facts.js'
import {
  captureLogBackend,
  verificationOf as verification,
  expectOnlyStep
} from '../../support/step-context.js'

function settings(over: Record<string, string> = {}): Settings {
  return readSettings(reader({ ...VALID_APPLY, mode: 'verify', ...over })).settings
}

let log: CapturedLog
captureLogBackend(l => (log = l))

/** Runs the benchmark step in verify mode with `over` inputs on nodes with these facts, the pods
 * answering with `output`; the settings, the report, and the step's error if it threw. */
async function runStep(
  over: Record<string, string>,
  facts: NodeFacts[],
  output?: Parameters<typeof benchKube>[0]
): Promise<{ s: Settings; report: Report; error: unknown }> {
  const s = settings(over)
  const report: Report = emptyReport('verify')
  const error = await runBenchmarkStep(
    s,
    benchKube(output).kube,
    verification(factsOf(...facts)),
    report
  ).then(
    () => undefined,
    (x: unknown) => x
  )
  return { s, report, error }
}

describe('runBenchmarkStep with pods', () => {
  it('a pass over GPUDirect: bandwidth and latency in the outputs, the report, no warning', async () => {
    const { report, error } = await runStep({}, [nodeFacts('node-a', 1), nodeFacts('node-b', 1)])
    expect(error).toBeUndefined()
    expect(report.outputs).toEqual({ 'bandwidth-gbps': '394.40', 'latency-us': '5.49' })
    expectOnlyStep(report, {
      name: 'benchmark',
      status: 'success',
      changed: false,
      detail: '2 measurement(s) over 1 round(s) passed (≥ 0.9 × 400 Gb/s)'
    })
    expect(report.benchmark).toMatchObject({ scope: 'pair', minBandwidthRatio: 0.9, outliers: [] })
    expect(report.benchmark!.pairs).toHaveLength(2)
    expect(log.warnings).toEqual([])
  })

  it('perftest without CUDA: a warning that GPUDirect is unsupported, the step still passes', async () => {
    const { s, report, error } = await runStep(
      { 'benchmark-scope': 'fleet' },
      [nodeFacts('n1', 1), nodeFacts('n2', 1)],
      noCudaOutput
    )
    expect(error).toBeUndefined()
    expect(log.warnings[0]).toBe(
      `benchmark: GPUDirect unsupported: perftest in ${s.benchmark.image} has no CUDA support (Unsupported memory type); measured from host memory instead — use an image with a CUDA build of perftest for GPUDirect`
    )
    expect(log.warnings).toHaveLength(1)
    expect(report.steps[0]).toMatchObject({
      name: 'benchmark',
      status: 'success',
      detail: '2 measurement(s) over 1 round(s) passed (≥ 0.9 × 400 Gb/s); GPUDirect unsupported by the image'
    })
  })

  it('host-staged and a node left out: a warning for each, in order', async () => {
    const { error } = await runStep({}, [
      nodeFacts('a', 1, { peermem: null }),
      nodeFacts('b', 1, { peermem: false }),
      nodeFacts('d', 1, { error: 'probe pod failed' })
    ])
    expect(error).toBeUndefined()
    expect(log.warnings.slice(0, 2)).toEqual([
      'benchmark: d left out: probe pod failed',
      'benchmark: GPUDirect host-staged: nvidia_peermem not loaded on a, b: the NIC cannot register GPU memory there (perftest --use_cuda fails: "Couldn\'t allocate MR")'
    ])
  })

  it('benchmark-gpudirect false: no GPUDirect warning', async () => {
    const { report, error } = await runStep({ 'benchmark-gpudirect': 'false' }, [
      nodeFacts('a', 1),
      nodeFacts('b', 1)
    ])
    expect(error).toBeUndefined()
    expect(log.warnings.filter(w => w.includes('GPUDirect'))).toEqual([])
    expect(report.steps[0].status).toBe('success')
  })

  it('a measurement below the line rate fails the step, with the bandwidth still in the outputs', async () => {
    const { report, error } = await runStep({}, [nodeFacts('a', 2), nodeFacts('b', 2)], (_p, _r, phase, i) =>
      phase.startsWith('lat') ? LAT() : i === 1 ? BW_196() : BW_394()
    )
    const e = error as StepError
    expect(e).toBeInstanceOf(StepError)
    expect(e.step).toBe('benchmark')
    expect(e.message).toBe('benchmark: 1 of 4 measurement(s) failed; outliers: a/mlx5_ib1 ↔ b/mlx5_ib1')
    expect(report.outputs['bandwidth-gbps']).toBe('196.55')
    expect(report.benchmark!.outliers).toEqual(['a/mlx5_ib1 ↔ b/mlx5_ib1'])
    expect(report.steps[0]).toMatchObject({ name: 'benchmark', status: 'failure', detail: e.message })
  })
})
