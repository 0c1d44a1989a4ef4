// The benchmark and transport steps of the flow as far as they go without pods: the step's title,
// what reaches the report and the outputs, the warnings for nodes left out, and a failed verdict
// failing the step (a StepError naming it) with the runner's summary. The Kubernetes client is a
// stand-in that fails any call: no pod is started when there are not two usable nodes.
import { beforeEach, describe, expect, it } from '@jest/globals'
import type { KubeClient } from '../../../src/kube/client.js'
import { emptyReport, type Report } from '../../../src/report/report.js'
import { runBenchmarkStep } from '../../../src/run/benchmark-step.js'
import { StepError } from '../../../src/run/steps.js'
import { runTransportStep } from '../../../src/run/transport-step.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import type { Settings } from '../../../src/settings/settings.js'
import { emptyFacts, type NodeFacts } from '../../../src/verify/probe-output.js'
import type { CapturedLog } from '../../support/capture-log.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'
import { captureLogBackend, verificationOf } from '../../support/step-context.js'

let log: CapturedLog
captureLogBackend(l => (log = l))
let calls: string[]
let kube: KubeClient
beforeEach(() => {
  calls = []
  // Any call is a call it should not have made.
  kube = new Proxy(
    {},
    {
      get: (_t, name) => {
        calls.push(String(name))
        return () => {
          throw new Error(`unexpected kube.${String(name)}`)
        }
      }
    }
  ) as unknown as KubeClient
})

function settings(inputs: Record<string, string>): Settings {
  return readSettings(reader({ ...VALID_APPLY, ...inputs })).settings
}
const verification = verificationOf
/** A node the probe read: one active port, and a GPU when asked. */
function good(node: string, gpus = 0): NodeFacts {
  return {
    ...emptyFacts(node, ''),
    error: null,
    activeDevices: ['mlx5_ib0'],
    rateGbps: { mlx5_ib0: 400 },
    gpus: Array.from({ length: gpus }, (_, i) => ({ cudaIndex: i, pciAddress: `0000:0${i}:00.0` })) as never
  }
}
function noPort(node: string): NodeFacts {
  return { ...emptyFacts(node, ''), error: null }
}

describe('runBenchmarkStep', () => {
  it('records a disabled benchmark as a step that changed nothing, with no outputs', async () => {
    const report: Report = emptyReport('apply')
    await runBenchmarkStep(settings({ benchmark: 'false' }), kube, verification([]), report)
    expect(report.steps).toHaveLength(1)
    expect(report.steps[0]).toMatchObject({
      name: 'benchmark',
      status: 'success',
      changed: false,
      detail: 'benchmark is false'
    })
    expect(report.outputs).toEqual({})
    expect(report.benchmark).toEqual({ scope: 'pair', pairs: [], outliers: [], minBandwidthRatio: 0.9 })
    expect(log.lines[0]).toBe('group: benchmark: perftest (pair, GPUDirect)')
    expect(log.warnings).toEqual([])
    expect(calls).toEqual([])
  })

  it('names the scope without GPUDirect when it is off', async () => {
    const report: Report = emptyReport('apply')
    await runBenchmarkStep(
      settings({ benchmark: 'false', 'benchmark-scope': 'fleet', 'benchmark-gpudirect': 'false' }),
      kube,
      verification([]),
      report
    )
    expect(log.lines[0]).toBe('group: benchmark: perftest (fleet)')
  })

  it('fails the step when fewer than two nodes can be measured, warning for each one left out', async () => {
    const report: Report = emptyReport('apply')
    const facts = [good('aks-rdma-0'), emptyFacts('aks-rdma-1', 'probe pod failed'), noPort('aks-rdma-2')]
    const e = await runBenchmarkStep(settings({}), kube, verification(facts), report).catch((x: unknown) => x)
    const summary =
      'needs two RDMA nodes with an active InfiniBand port, found 1 (excluded: aks-rdma-1: probe pod failed; aks-rdma-2: no active InfiniBand port)'
    expect(e).toBeInstanceOf(StepError)
    expect((e as StepError).step).toBe('benchmark')
    expect((e as StepError).message).toBe(`benchmark: ${summary}`)
    expect(report.steps).toHaveLength(1)
    expect(report.steps[0]).toMatchObject({
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
    expect(calls).toEqual([])
  })
})

describe('runTransportStep', () => {
  it('fails the step without two nodes with GPUs: report, outputs and the fix in the message', async () => {
    const report: Report = emptyReport('apply')
    const s = settings({ 'transport-check': 'ucx' })
    const e = await runTransportStep(s, kube, verification([good('n-0', 1), good('n-1')]), report).catch(
      (x: unknown) => x
    )
    const reason =
      'the transport check needs two RDMA nodes with GPUs and an active InfiniBand port, found 1 (n-0)'
    const fix =
      'see the verification checks: every RDMA node needs GPUs, an active InfiniBand port and allocatable rdma/<name>'
    expect(e).toBeInstanceOf(StepError)
    expect((e as StepError).step).toBe('transport')
    expect((e as StepError).message).toBe(`transport: failed: ${reason}. Fix: ${fix}`)
    expect(report.transport).toMatchObject({ mode: 'failed', verdict: 'fail', reason, fix, pairs: [] })
    expect(report.transport?.workerSnippet).toBeUndefined()
    expect(report.outputs).toEqual({ transport: 'failed' })
    expect(report.diagnostics).toBeUndefined()
    expect(report.steps).toHaveLength(1)
    expect(report.steps[0]).toMatchObject({ name: 'transport', status: 'failure' })
    expect(log.lines[0]).toBe(`group: transport: Dynamo transport (UCX, ${s.transport.image})`)
    expect(calls).toEqual([])
  })

  it('takes a verification without facts (drift) as no nodes at all', async () => {
    const report: Report = emptyReport('apply')
    const e = (await runTransportStep(
      settings({ 'transport-check': 'ucx' }),
      kube,
      verification(),
      report
    ).catch((x: unknown) => x)) as StepError
    expect(e.message).toMatch(
      /^transport: failed: the transport check needs two RDMA nodes with GPUs and an active InfiniBand port, found 0\. Fix: /
    )
    expect(calls).toEqual([])
  })
})
