// A step of the run: one log group around it with its elapsed time, a report entry whatever
// happens (success, a warning when it found something to look at, a failure with the error's
// message), and a failure rethrown as a StepError that names the step.
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals'
import { setLogBackend, type Log } from '../../../src/log/index.js'
import type { ReportStep } from '../../../src/report/report.js'
import { runStep, StepError } from '../../../src/run/steps.js'
import { captureLog, type CapturedLog } from '../../support/capture-log.js'

let log: CapturedLog
let previous: Log
beforeEach(() => {
  log = captureLog()
  previous = setLogBackend({ ...log, endGroup: () => void log.lines.push('endgroup') })
})
afterEach(() => {
  setLogBackend(previous)
})

describe('runStep', () => {
  it('records a success with what it changed, inside one log group', async () => {
    const steps: ReportStep[] = []
    const outcome = await runStep(steps, 'node-pool', 'create or reuse the RDMA pool', async () => ({
      changed: true,
      action: 'created',
      detail: 'created rdma (2 nodes)'
    }))
    expect(outcome.detail).toBe('created rdma (2 nodes)')
    expect(steps).toHaveLength(1)
    expect(steps[0]).toMatchObject({ name: 'node-pool', status: 'success', changed: true, action: 'created' })
    expect(steps[0].durationMs).toBeGreaterThanOrEqual(0)
    expect(log.lines[0]).toBe('group: node-pool: create or reuse the RDMA pool')
    expect(log.lines[1]).toMatch(/^info: node-pool: created rdma \(2 nodes\) \((\d+[hm])*\d+m?s\)$/)
    expect(log.lines[2]).toBe('endgroup')
    expect(log.warnings).toEqual([])
  })

  it('records a step that found something to look at as a warning, and logs it as one', async () => {
    const steps: ReportStep[] = []
    await runStep(steps, 'drift', 'compare', async () => ({
      status: 'warning',
      changed: false,
      detail: '2 drifted'
    }))
    expect(steps[0]).toMatchObject({ name: 'drift', status: 'warning', changed: false })
    expect(log.warnings).toHaveLength(1)
    expect(log.warnings[0]).toMatch(/^drift: 2 drifted \((\d+[hm])*\d+m?s\)$/)
  })

  it('records a failure with the message, logs it as an error and rethrows it as a StepError', async () => {
    const steps: ReportStep[] = []
    const e = await runStep(steps, 'register-feature', 'register', async () => {
      throw new Error('HTTP 403 AuthorizationFailed')
    }).catch((x: unknown) => x)
    expect(e).toBeInstanceOf(StepError)
    expect((e as StepError).step).toBe('register-feature')
    expect((e as StepError).message).toBe('HTTP 403 AuthorizationFailed')
    expect(steps[0]).toMatchObject({
      name: 'register-feature',
      status: 'failure',
      detail: 'HTTP 403 AuthorizationFailed'
    })
    expect(log.lines).toContain('error: HTTP 403 AuthorizationFailed')
    expect(log.lines.at(-1)).toBe('endgroup')
  })

  it('keeps a StepError of an inner step as it is, and takes a thrown value as text', async () => {
    const inner = new StepError('credentials', 'no kubeconfig')
    await expect(
      runStep([], 'stack', 'apply', async () => {
        throw inner
      })
    ).rejects.toBe(inner)
    const steps: ReportStep[] = []
    const e = (await runStep(steps, 'stack', 'apply', async () => {
      throw 'plain text'
    }).catch((x: unknown) => x)) as StepError
    expect(e.step).toBe('stack')
    expect(e.message).toBe('plain text')
    expect(steps[0].detail).toBe('plain text')
  })

  it('logs the time the step took, and titles a failure with the step', async () => {
    jest.useFakeTimers({ now: 1_000_000 })
    try {
      const titles: unknown[] = []
      setLogBackend({
        ...log,
        error: (m, a) => {
          log.lines.push(`error: ${m}`)
          titles.push(a)
        }
      })
      await runStep([], 'pool', 'wait', async () => {
        jest.setSystemTime(1_004_000)
        return { changed: false, detail: 'ready' }
      })
      expect(log.lines).toContain('info: pool: ready (4s)')
      await runStep([], 'stack', 'apply', async () => {
        throw new Error('no')
      }).catch(() => undefined)
      expect(titles).toEqual([{ title: 'aks-rdma-action: stack failed' }])
    } finally {
      jest.useRealTimers()
    }
  })
})
