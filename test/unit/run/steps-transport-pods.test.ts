// The transport step of the flow over a fake client on an in-memory cluster (memory-kube; the
// pods' logs of ucx-pods, around real UCX outputs from test/fixtures/ucx): a pass puts the
// bandwidth into the outputs and the worker snippet (with the client node's GPU-NIC map) into the
// report; a failed verdict fails the step with the runner's summary and its fix, and adds each
// pod's output that was read to the diagnostics, server first.
import { describe, expect, it } from '@jest/globals'
import { dynamoWorkerSnippet } from '../../../src/transport/dynamo-worker.js'
import { emptyReport, type Report } from '../../../src/report/report.js'
import { StepError } from '../../../src/run/steps.js'
import { runTransportStep } from '../../../src/run/transport-step.js'
import { gpuNicMapOf } from '../../../src/transport/pods.js'
import { factsOf, hbFacts as nodeFacts } from '../../support/probe-facts.js'
import {
  captureLogBackend,
  verificationOf as verification,
  expectOnlyStep
} from '../../support/step-context.js'
import {
  clientLog,
  runningWithIp,
  serverLog,
  setStatus,
  succeeded,
  ucxPods,
  ucxSettings as settings,
  waitingOn
} from '../../support/ucx-pods.js'

captureLogBackend()

describe('runTransportStep with pods', () => {
  it('a pass: the report, the outputs, the worker snippet with the client node’s GPU-NIC map', async () => {
    const s = settings()
    const { f, server, client } = ucxPods(s, { server: serverLog, client: clientLog() })
    const report: Report = emptyReport('verify')
    const facts = factsOf('n-b', 'n-a')
    const run = runTransportStep(s, f.kube, verification(facts), report)
    await waitingOn(f, server)
    setStatus(f, server, runningWithIp)
    await waitingOn(f, client)
    setStatus(f, client, succeeded)
    await run
    const summary = 'gpudirect-rdma at 392.11 Gb/s (≥ 160 Gb/s) between n-a and n-b'
    expect(report.outputs).toEqual({ transport: 'gpudirect-rdma', 'transport-gbps': '392.11' })
    expectOnlyStep(report, {
      name: 'transport',
      status: 'success',
      changed: false,
      detail: summary
    })
    expect(report.transport).toMatchObject({ verdict: 'pass', mode: 'gpudirect-rdma' })
    const withMap = dynamoWorkerSnippet(s, { gpuNicMap: gpuNicMapOf(facts.get('n-b')!) })
    expect(report.transport!.workerSnippet).toEqual(withMap)
    expect(withMap).not.toEqual(dynamoWorkerSnippet(s, {}))
    expect(report.diagnostics).toBeUndefined()
  })

  it('a failed verdict: the step fails with the summary and the fix; both pods’ output in the diagnostics', async () => {
    const s = settings()
    const { f, server, client } = ucxPods(s, { server: serverLog, client: clientLog() })
    const fast = (node: string) => ({ ...nodeFacts(node), rateGbps: { mlx5_ib0: 800, mlx5_ib4: 800 } })
    const report: Report = emptyReport('verify')
    report.diagnostics = [{ step: 'verify', title: 'earlier', text: 'x' }]
    const run = runTransportStep(s, f.kube, verification(factsOf(fast('n-a'), fast('n-b'))), report).catch(
      (e: unknown) => e
    )
    await waitingOn(f, server)
    setStatus(f, server, runningWithIp)
    await waitingOn(f, client)
    setStatus(f, client, succeeded)
    const e = (await run) as StepError
    expect(e).toBeInstanceOf(StepError)
    const t = report.transport!
    expect(t.verdict).toBe('fail')
    expect(t.fix).toBeTruthy()
    expect(e.step).toBe('transport')
    expect(t.mode).toBe('gpudirect-rdma')
    expect(e.message).toBe(`transport: gpudirect-rdma: ${t.reason}. Fix: ${t.fix}`)
    expect(report.outputs).toEqual({ transport: t.mode, 'transport-gbps': '392.11' })
    expect(t.workerSnippet).toBeUndefined()
    expect(report.diagnostics).toEqual([
      { step: 'verify', title: 'earlier', text: 'x' },
      { step: 'transport', title: 'server pod output', text: serverLog },
      { step: 'transport', title: 'client pod output', text: clientLog() }
    ])
  })

  it('a failed verdict with only the server’s output read: one diagnostic, no bandwidth', async () => {
    const s = settings()
    const { f, server } = ucxPods(s, { server: serverLog })
    const report: Report = emptyReport('verify')
    const run = runTransportStep(s, f.kube, verification(factsOf('n1', 'n2')), report).catch(
      (e: unknown) => e
    )
    await waitingOn(f, server)
    setStatus(f, server, {
      phase: 'Failed',
      podIP: '10.244.1.7',
      containerStatuses: [{ name: 'worker', state: { terminated: { exitCode: 1, reason: 'Error' } } }]
    })
    const e = (await run) as StepError
    expect(e).toBeInstanceOf(StepError)
    expect(e.message.startsWith(`transport: failed: ${report.transport!.reason}`)).toBe(true)
    expect(report.outputs['transport-gbps']).toBeUndefined()
    expect(report.diagnostics).toEqual([{ step: 'transport', title: 'server pod output', text: serverLog }])
  })
})
