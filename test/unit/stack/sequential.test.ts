// The sequential rollout over a Run whose converge, diagnose and watch sources the test controls
// (the registry's components, each with a small health rule over a ConfigMap of a MemoryCluster):
// each step converged then awaited before the next is written, the report step of each outcome
// (action, detail, version, times), the wait's timeout and health context, what a failure or the
// run's deadline stops, and disabled steps.
import type { ComponentName } from '../../../src/components/index.js'
import { ComponentStepFailure } from '../../../src/stack/run.js'
import { applySequential } from '../../../src/stack/sequential.js'
import { useFixedNow } from '../../support/fixed-now.js'
import { failedWalk } from '../../support/stack-walk-outcome.js'
import { scriptedRun, skippedAt, stepAt, type Script } from '../../support/scripted-run.js'

const T0 = Date.UTC(2026, 0, 1)
const STEP_TIMEOUT = 1_500_000
const now = useFixedNow(T0)

const harness = (o: { deadline?: number; scripts?: Partial<Record<ComponentName, Script>> } = {}) =>
  scriptedRun({
    t0: T0,
    deadline: o.deadline ?? T0 + 3_600_000,
    stepTimeoutMs: STEP_TIMEOUT,
    ...(o.scripts ? { scripts: o.scripts } : {}),
    // Each write takes a second.
    onConverge: () => void (now.ms += 1000)
  })

/** A converge that created its object (`detail`) and moved the version `from` → `to`. */
const createdMoving = (detail: string, from: string, to: string) => ({
  changed: true,
  created: true,
  details: [detail],
  version: { from, to }
})

/** network-operator alone, in `state`, in a run whose deadline (its step's too) is `ms` after the start. */
async function aloneUntil(ms: number, state: string) {
  const h = harness({
    deadline: T0 + ms,
    scripts: { 'network-operator': { applied: { stepDeadline: T0 + ms } } }
  })
  h.setState('network-operator', state)
  return { h, out: await applySequential(h.run, [h.step('network-operator')]) }
}

describe('applySequential', () => {
  it('converges each step and waits for it to be ready before writing the next', async () => {
    const h = harness({
      scripts: {
        'network-operator': {
          applied: createdMoving('helm install network-operator 26.4.1', '25.1.0', '26.4.1'),
          after: () =>
            setImmediate(() => {
              now.ms += 3000
              h.events.push('network-operator ready')
              h.setState('network-operator', 'ready')
            })
        },
        'node-feature-rule': {
          applied: { changed: true, created: false, details: ['a updated', 'b updated'] }
        }
      }
    })
    h.setState('network-operator', 'pending')
    h.setState('node-feature-rule', 'ready')
    h.setState('nic-cluster-policy', 'ready')
    const out = await applySequential(h.run, [
      h.step('network-operator'),
      h.step('node-feature-rule'),
      h.step('nic-cluster-policy')
    ])
    expect(h.events).toEqual([
      'converge network-operator at 0',
      'network-operator ready',
      'converge node-feature-rule at 4000',
      'converge nic-cluster-policy at 5000'
    ])
    expect(out).toEqual({
      ok: true,
      diagnostics: [],
      steps: [
        stepAt(
          'network-operator',
          'success',
          T0,
          T0 + 4000,
          'helm install network-operator 26.4.1; ready: state ready',
          { changed: true, action: 'created', version: { from: '25.1.0', to: '26.4.1' } }
        ),
        stepAt(
          'node-feature-rule',
          'success',
          T0 + 4000,
          T0 + 5000,
          'a updated; b updated; ready: state ready',
          { changed: true, action: 'updated' }
        ),
        stepAt('nic-cluster-policy', 'success', T0 + 5000, T0 + 6000, 'unchanged; ready: state ready', {
          action: 'unchanged'
        })
      ]
    })
    expect(h.log.lines).toEqual([
      'group: network-operator: network-operator title',
      'info: network-operator: state pending (1s)',
      'info: network-operator: state ready (4s)',
      'endgroup',
      'group: node-feature-rule: node-feature-rule title',
      'info: node-feature-rule: state ready (1s)',
      'endgroup',
      'group: nic-cluster-policy: nic-cluster-policy title',
      'info: nic-cluster-policy: state ready (1s)',
      'endgroup'
    ])
    // Each wait has until the step's deadline; the health rules see the time since the wait began.
    expect(h.waits).toEqual([
      { step: 'network-operator', started: 0, timeoutMs: STEP_TIMEOUT - 1000 },
      { step: 'node-feature-rule', started: 4000, timeoutMs: STEP_TIMEOUT - 1000 },
      { step: 'nic-cluster-policy', started: 5000, timeoutMs: STEP_TIMEOUT - 1000 }
    ])
    expect(h.seen.filter(s => s.step === 'network-operator')).toEqual([
      { step: 'network-operator', elapsedMs: 0, nfdGraceMs: 7000 },
      { step: 'network-operator', elapsedMs: 3000, nfdGraceMs: 7000 }
    ])
    expect(h.diagnosed).toEqual([])
  })

  it('fails a step whose wait times out at its step deadline, naming the limit and the last state', async () => {
    const h = harness({
      scripts: {
        'network-operator': {
          applied: { changed: true, created: false, details: ['x updated'], stepDeadline: T0 + 1005 }
        }
      }
    })
    h.setState('network-operator', 'pending')
    const out = await applySequential(h.run, [h.step('network-operator')])
    expect(h.waits).toEqual([{ step: 'network-operator', started: 0, timeoutMs: 5 }])
    const reason = 'not ready after 1s (step-timeout 25m): state pending'
    expect(out).toEqual(
      failedWalk('network-operator', reason, [
        stepAt('network-operator', 'failure', T0, T0 + 1000, `x updated; ${reason}`, { changed: true })
      ])
    )
    const e = h.diagnosed[0].error as ComponentStepFailure
    expect(e).toBeInstanceOf(ComponentStepFailure)
    expect(e.message).toBe(reason)
    expect(e.verdict?.message).toBe('state pending')
    expect(e.snapshot?.states.map(o => o.data.state)).toEqual(['pending'])
    expect(h.log.lines.at(-1)).toBe('endgroup')
  })

  it('gives a wait whose step deadline has passed no time, and names the run timeout when that is the limit', async () => {
    const { h, out } = await aloneUntil(500, 'pending')
    expect(h.waits).toEqual([{ step: 'network-operator', started: 0, timeoutMs: 0 }])
    expect(out.steps[0].detail).toBe('not ready after 1s (the run timeout): state pending')
    expect(out.steps[0].changed).toBe(false)
  })

  it('fails fast on a failing verdict; the steps after it are reported as not run, even disabled ones', async () => {
    const h = harness({
      scripts: {
        'node-feature-rule': {
          applied: createdMoving('rule created', '1', '2')
        }
      }
    })
    h.setState('network-operator', 'ready')
    h.setState('node-feature-rule', 'broken')
    const out = await applySequential(h.run, [
      h.step('network-operator'),
      h.step('node-feature-rule'),
      h.step('nic-cluster-policy'),
      h.step('gpu-operator', { enabled: false, skipReason: 'gpu-operator input is false' })
    ])
    expect(h.events).toEqual(['converge network-operator at 0', 'converge node-feature-rule at 1000'])
    expect(out.ok).toBe(false)
    expect(out.steps).toEqual([
      expect.objectContaining({ name: 'network-operator', status: 'success' }),
      stepAt(
        'node-feature-rule',
        'failure',
        T0 + 1000,
        T0 + 2000,
        'rule created; node-feature-rule is broken',
        { changed: true, version: { from: '1', to: '2' } }
      ),
      skippedAt('nic-cluster-policy', T0 + 2000, 'not run: node-feature-rule failed'),
      skippedAt('gpu-operator', T0 + 2000, 'not run: node-feature-rule failed')
    ])
    expect(out.diagnostics).toEqual([
      {
        step: 'node-feature-rule',
        title: 'node-feature-rule: node-feature-rule is broken',
        text: 'node-feature-rule is broken'
      }
    ])
    const e = h.diagnosed[0].error as ComponentStepFailure
    expect(h.diagnosed.map(d => d.step)).toEqual(['node-feature-rule'])
    expect(e).toBeInstanceOf(ComponentStepFailure)
    expect(e.verdict?.fail).toBe('node-feature-rule is broken')
    expect(e.snapshot?.states.map(o => o.data.state)).toEqual(['broken'])
  })

  it('fails a step whose converge throws with the reason alone, and closes its log group', async () => {
    const h = harness({ scripts: { 'network-operator': { throws: new Error('apply conflict on field x') } } })
    const out = await applySequential(h.run, [h.step('network-operator'), h.step('node-feature-rule')])
    expect(out.steps).toEqual([
      stepAt('network-operator', 'failure', T0, T0 + 1000, 'apply conflict on field x'),
      skippedAt('node-feature-rule', T0 + 1000, 'not run: network-operator failed')
    ])
    expect(out.diagnostics.map(d => d.title)).toEqual(['network-operator: apply conflict on field x'])
    expect(h.waits).toEqual([])
    expect(h.log.lines).toEqual(['group: network-operator: network-operator title', 'endgroup'])
  })

  it('does not start a step once the run deadline is reached', async () => {
    const h = harness({ deadline: T0 })
    const out = await applySequential(h.run, [h.step('network-operator')])
    expect(h.events).toEqual([])
    const reason = 'the run timeout was reached before this step started'
    expect(out).toEqual(
      failedWalk('network-operator', reason, [stepAt('network-operator', 'failure', T0, T0, reason)])
    )
    expect(h.diagnosed[0].error).toBeInstanceOf(ComponentStepFailure)
  })

  it('starts a step one millisecond before the run deadline', async () => {
    const { h, out } = await aloneUntil(1, 'ready')
    expect(h.events).toEqual(['converge network-operator at 0'])
    expect(out.ok).toBe(true)
    expect(out.steps[0].detail).toBe('unchanged; ready: state ready')
  })

  it('reports disabled steps as skipped with their reason and runs the rest', async () => {
    const h = harness()
    h.setState('node-feature-rule', 'ready')
    const out = await applySequential(h.run, [
      h.step('network-operator', { enabled: false, skipReason: 'managed elsewhere' }),
      h.step('node-feature-rule'),
      h.step('gpu-operator', { enabled: false, skipReason: undefined })
    ])
    expect(h.events).toEqual(['converge node-feature-rule at 0'])
    expect(out).toEqual({
      ok: true,
      diagnostics: [],
      steps: [
        skippedAt('network-operator', T0, 'managed elsewhere'),
        expect.objectContaining({ name: 'node-feature-rule', status: 'success' }),
        skippedAt('gpu-operator', T0 + 1000, 'disabled by the settings')
      ]
    })
    expect(h.log.lines.filter(l => l.startsWith('group:'))).toEqual([
      'group: node-feature-rule: node-feature-rule title'
    ])
  })
})
