// The collective step of the flow as far as it goes without pods: the step's title, what reaches
// the report and the outputs, and a failed verdict failing the step (a StepError naming it) with
// the reason and the fix. The Kubernetes client is a stand-in that fails any call: no object is
// created when there are not two usable nodes.
import { beforeEach, describe, expect, it } from '@jest/globals'
import type { KubeClient } from '../../../src/kube/client.js'
import { emptyReport, type Report } from '../../../src/report/report.js'
import { runCollectiveStep } from '../../../src/run/collective-step.js'
import { StepError } from '../../../src/run/steps.js'
import { readSettings } from '../../../src/settings/input-helper.js'
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

function good(node: string, gpus: number): NodeFacts {
  return {
    ...emptyFacts(node, ''),
    error: null,
    activeDevices: ['mlx5_ib0'],
    rateGbps: { mlx5_ib0: 400 },
    gpus: Array.from({ length: gpus }, (_, i) => ({ cudaIndex: i, pciAddress: `0000:0${i}:00.0` })) as never
  }
}

describe('runCollectiveStep', () => {
  it('fails the step without two nodes with GPUs: report, output, the fix in the message, no request', async () => {
    const report: Report = emptyReport('verify')
    const s = readSettings(reader({ ...VALID_APPLY, 'collective-check': 'nccl' })).settings
    const e = await runCollectiveStep(
      s,
      kube,
      verificationOf([good('n-0', 8), good('n-1', 0)]),
      report
    ).catch((x: unknown) => x)
    const reason =
      'the collective check needs two RDMA nodes with GPUs and an active InfiniBand port, found 1 (n-0)'
    expect(e).toBeInstanceOf(StepError)
    expect((e as StepError).step).toBe('collective')
    expect((e as StepError).message).toBe(
      `collective: failed: ${reason}. Fix: see the verification checks: every RDMA node needs GPUs, an active InfiniBand port and allocatable rdma/<name>`
    )
    expect(report.collective).toMatchObject({
      mode: 'failed',
      verdict: 'fail',
      reason,
      busbwGBps: null,
      pair: null
    })
    expect(report.outputs).toEqual({ collective: 'failed' })
    expect(report.steps[0]).toMatchObject({ name: 'collective', status: 'failure' })
    expect(log.lines[0]).toBe(`group: collective: NCCL collectives (all_reduce_perf, ${s.collective.image})`)
    expect(calls).toEqual([])
  })
})
