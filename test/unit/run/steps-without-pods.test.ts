// The benchmark, transport and collective steps of the flow as far as they go without pods: the step's title,
// what reaches the report and the outputs, the warnings for nodes left out, and a failed verdict
// failing the step (a StepError naming it) with the runner's summary. The Kubernetes client is a
// stand-in that fails any call: no pod is started when there are not two usable nodes.
import { describe, expect, it } from '@jest/globals'
import { emptyReport, type Report } from '../../../src/report/report.js'
import { runBenchmarkStep } from '../../../src/run/benchmark-step.js'
import { runCollectiveStep } from '../../../src/run/collective-step.js'
import { StepError } from '../../../src/run/steps.js'
import { runTransportStep } from '../../../src/run/transport-step.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import type { Settings } from '../../../src/settings/settings.js'
import { emptyFacts, type NodeFacts } from '../../../src/verify/probe-output.js'
import type { CapturedLog } from '../../support/capture-log.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'
import {
  activePortNode,
  captureLogBackend,
  refusingKube,
  verificationOf,
  expectOnlyStep
} from '../../support/step-context.js'

let log: CapturedLog
captureLogBackend(l => (log = l))
const cluster = refusingKube()

function settings(inputs: Record<string, string>): Settings {
  return readSettings(reader({ ...VALID_APPLY, ...inputs })).settings
}
const verification = verificationOf
const good = activePortNode
function noPort(node: string): NodeFacts {
  return { ...emptyFacts(node, ''), error: null }
}

describe('runBenchmarkStep', () => {
  it('records a disabled benchmark as a step that changed nothing, with no outputs', async () => {
    const report: Report = emptyReport('apply')
    await runBenchmarkStep(settings({ benchmark: 'false' }), cluster.kube, verification([]), report)
    expectOnlyStep(report, {
      name: 'benchmark',
      status: 'success',
      changed: false,
      detail: 'benchmark is false'
    })
    expect(report.outputs).toEqual({})
    expect(report.benchmark).toEqual({ scope: 'pair', pairs: [], outliers: [], minBandwidthRatio: 0.9 })
    expect(log.lines[0]).toBe('group: benchmark: perftest (pair, GPUDirect)')
    expect(log.warnings).toEqual([])
    expect(cluster.calls).toEqual([])
  })

  it('names the scope without GPUDirect when it is off', async () => {
    const report: Report = emptyReport('apply')
    await runBenchmarkStep(
      settings({ benchmark: 'false', 'benchmark-scope': 'fleet', 'benchmark-gpudirect': 'false' }),
      cluster.kube,
      verification([]),
      report
    )
    expect(log.lines[0]).toBe('group: benchmark: perftest (fleet)')
  })

  it('fails the step when fewer than two nodes can be measured, warning for each one left out', async () => {
    const report: Report = emptyReport('apply')
    const facts = [good('aks-rdma-0'), emptyFacts('aks-rdma-1', 'probe pod failed'), noPort('aks-rdma-2')]
    const e = await runBenchmarkStep(settings({}), cluster.kube, verification(facts), report).catch(
      (x: unknown) => x
    )
    const summary =
      'needs two RDMA nodes with an active InfiniBand port, found 1 (excluded: aks-rdma-1: probe pod failed; aks-rdma-2: no active InfiniBand port)'
    expect(e).toBeInstanceOf(StepError)
    expect((e as StepError).step).toBe('benchmark')
    expect((e as StepError).message).toBe(`benchmark: ${summary}`)
    expectOnlyStep(report, {
      name: 'benchmark',
      status: 'failure',
      detail: `benchmark: ${summary}`
    })
    expect(log.warnings).toEqual([
      'benchmark: aks-rdma-1 left out: probe pod failed',
      'benchmark: aks-rdma-2 left out: no active InfiniBand port'
    ])
    expect(report.benchmark).toEqual({ scope: 'pair', pairs: [], outliers: [], minBandwidthRatio: 0.9 })
    expect(report.outputs).toEqual({})
    expect(cluster.calls).toEqual([])
  })
})

const GPU_FIX =
  'see the verification checks: every RDMA node needs GPUs, an active InfiniBand port and allocatable rdma/<name>'

describe.each([
  {
    step: 'transport' as const,
    run: runTransportStep,
    inputs: { 'transport-check': 'ucx' } as Record<string, string>,
    mode: 'apply' as const,
    gpus: [1, 0],
    title: (s: Settings) => `Dynamo transport (UCX, ${s.transport.image})`,
    section: { fix: GPU_FIX, pairs: [] },
    unset: ['workerSnippet']
  },
  {
    step: 'collective' as const,
    run: runCollectiveStep,
    inputs: { 'collective-check': 'nccl' } as Record<string, string>,
    mode: 'verify' as const,
    gpus: [8, 0],
    title: (s: Settings) => `NCCL collectives (all_reduce_perf, ${s.collective.image})`,
    section: { busbwGBps: null, pair: null },
    unset: []
  }
])('the $step step', ({ step, run, inputs, mode, gpus, title, section, unset }) => {
  it('fails without two nodes with GPUs: report, output, the fix in the message, no request', async () => {
    const report: Report = emptyReport(mode)
    const s = settings(inputs)
    const e = await run(
      s,
      cluster.kube,
      verification([good('n-0', gpus[0]), good('n-1', gpus[1])]),
      report
    ).catch((x: unknown) => x)
    const reason = `the ${step} check needs two RDMA nodes with GPUs and an active InfiniBand port, found 1 (n-0)`
    expect(e).toBeInstanceOf(StepError)
    expect((e as StepError).step).toBe(step)
    expect((e as StepError).message).toBe(`${step}: failed: ${reason}. Fix: ${GPU_FIX}`)
    expect(report[step]).toMatchObject({ mode: 'failed', verdict: 'fail', reason, ...section })
    for (const key of unset) expect(report[step]).not.toHaveProperty(key)
    expect(report.outputs).toEqual({ [step]: 'failed' })
    expect(report.diagnostics).toBeUndefined()
    expectOnlyStep(report, { name: step, status: 'failure' })
    expect(log.lines[0]).toBe(`group: ${step}: ${title(s)}`)
    expect(cluster.calls).toEqual([])
  })
})

describe('runTransportStep', () => {
  it('takes a verification without facts (drift) as no nodes at all', async () => {
    const report: Report = emptyReport('apply')
    const e = (await runTransportStep(
      settings({ 'transport-check': 'ucx' }),
      cluster.kube,
      verification(),
      report
    ).catch((x: unknown) => x)) as StepError
    expect(e.message).toMatch(
      /^transport: failed: the transport check needs two RDMA nodes with GPUs and an active InfiniBand port, found 0\. Fix: /
    )
    expect(cluster.calls).toEqual([])
  })
})
