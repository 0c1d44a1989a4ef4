// The sequential rollout over a Run whose converge, diagnose and watch sources the test controls
// (the registry's components, each with a small health rule over a ConfigMap of a MemoryCluster):
// each step converged then awaited before the next is written, the report step of each outcome
// (action, detail, version, times), the wait's timeout and health context, what a failure or the
// run's deadline stops, and disabled steps.
import { afterEach, beforeEach, jest } from '@jest/globals'
import { COMPONENTS, specOf, type ComponentName, type ComponentSpec } from '../../../src/components/index.js'
import { healthSources } from '../../../src/health/evaluate.js'
import type { Health } from '../../../src/health/types.js'
import type { WatchSource } from '../../../src/kube/watch.js'
import type { ReportStep } from '../../../src/report/report.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import { ComponentStepFailure, Run, type Applied } from '../../../src/stack/run.js'
import { applySequential } from '../../../src/stack/sequential.js'
import type { StackStep } from '../../../src/stack/types.js'
import { captureLog } from '../../support/capture-log.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'
import { MemoryCluster } from '../../support/memory-cluster.js'

const T0 = Date.UTC(2026, 0, 1)
const STEP_TIMEOUT = 1_500_000
let clock = T0

beforeEach(() => {
  clock = T0
  jest.spyOn(Date, 'now').mockImplementation(() => clock)
})
afterEach(() => {
  jest.restoreAllMocks()
})

const iso = (ms: number): string => new Date(ms).toISOString()

interface Script {
  applied?: Partial<Applied>
  throws?: unknown
  /** Runs inside converge (to change the cluster while the step is awaited). */
  after?: () => void
}

interface Seen {
  step: string
  elapsedMs: number
  nfdGraceMs: number
}

/** A cluster-level health: the ConfigMap labelled step=<name> in namespace test says its state. */
function stateHealth(name: string, seen: Seen[]): Health {
  return {
    summary: `${name} state ready`,
    sources: {
      states: {
        name: `${name}-states`,
        apiVersion: 'v1',
        kind: 'ConfigMap',
        namespace: 'test',
        labelSelector: `step=${name}`
      }
    },
    cluster: [
      {
        text: 'state ready',
        check: (snap, _pool, ctx) => {
          seen.push({ step: name, elapsedMs: ctx.elapsedMs, nfdGraceMs: ctx.nfdGraceMs })
          const state: string = snap.states?.[0]?.data?.state ?? 'absent'
          if (state === 'broken') return { ok: false, message: 'state broken', fail: `${name} is broken` }
          return { ok: state === 'ready', message: `state ${state}` }
        }
      }
    ],
    warnings: []
  }
}

function harness(o: { deadline?: number; scripts?: Partial<Record<ComponentName, Script>> } = {}) {
  const settings = readSettings(reader({ ...VALID_APPLY }), {}).settings
  settings.wait.stepTimeoutMs = STEP_TIMEOUT
  const log = captureLog()
  log.endGroup = () => void log.lines.push('endgroup')
  const events: string[] = []
  const waits: Array<{ step: string; started: number; timeoutMs: number }> = []
  const diagnosed: Array<{ step: string; error: unknown }> = []
  const seen: Seen[] = []
  const cluster = new MemoryCluster()
  const scripts = o.scripts ?? {}
  const fake = {
    ctx: {},
    settings,
    log,
    deadline: o.deadline ?? T0 + 3_600_000,
    nfdGraceMs: 7_000,
    async converge(step: StackStep, started: number): Promise<Applied> {
      const name = step.spec.name
      events.push(`converge ${name} at ${started - T0}`)
      clock += 1000
      const s = scripts[name]
      if (s?.throws) throw s.throws
      s?.after?.()
      return {
        changed: false,
        created: false,
        details: [],
        stepDeadline: started + STEP_TIMEOUT,
        ...s?.applied
      }
    },
    watchSources(h: Health): Record<string, WatchSource> {
      const out: Record<string, WatchSource> = {}
      for (const [k, s] of Object.entries(healthSources(h, settings)))
        out[k] = cluster.source(s.apiVersion, s.kind, {
          namespace: s.namespace,
          labelSelector: s.labelSelector,
          name: s.name
        })
      return out
    },
    waitOptions(step: StackStep, started: number, timeoutMs: number) {
      waits.push({ step: step.spec.name, started: started - T0, timeoutMs })
      return Run.prototype.waitOptions.call(fake as unknown as Run, step, started, timeoutMs)
    },
    limitOf(deadline: number): string {
      return Run.prototype.limitOf.call(fake as unknown as Run, deadline)
    },
    async diagnose(step: StackStep, e: unknown) {
      diagnosed.push({ step: step.spec.name, error: e })
      const reason = e instanceof Error ? e.message : String(e)
      return {
        reason,
        diagnostic: { step: step.spec.name, title: `${step.spec.name}: ${reason}`, text: reason }
      }
    }
  }
  const setState = (name: string, state: string): void => {
    cluster.put({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `${name}-state`, namespace: 'test', labels: { step: name } },
      data: { state }
    })
  }
  const step = (name: ComponentName, spec: Partial<ComponentSpec> = {}): StackStep => ({
    component: { ...COMPONENTS[name], health: () => stateHealth(name, seen) } as StackStep['component'],
    spec: { ...specOf(COMPONENTS[name], settings), title: `${name} title`, ...spec }
  })
  return { run: fake as unknown as Run, log, events, waits, diagnosed, seen, cluster, setState, step }
}

const skippedAt = (name: string, at: number, detail: string): ReportStep => ({
  name,
  status: 'skipped',
  changed: false,
  durationMs: 0,
  startedAt: iso(at),
  finishedAt: iso(at),
  detail
})

describe('applySequential', () => {
  it('converges each step and waits for it to be ready before writing the next', async () => {
    const h = harness({
      scripts: {
        'network-operator': {
          applied: {
            changed: true,
            created: true,
            details: ['helm install network-operator 26.4.1'],
            version: { from: '25.1.0', to: '26.4.1' }
          },
          after: () =>
            setImmediate(() => {
              clock += 3000
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
        {
          name: 'network-operator',
          status: 'success',
          changed: true,
          action: 'created',
          durationMs: 4000,
          startedAt: iso(T0),
          finishedAt: iso(T0 + 4000),
          detail: 'helm install network-operator 26.4.1; ready: state ready',
          version: { from: '25.1.0', to: '26.4.1' }
        },
        {
          name: 'node-feature-rule',
          status: 'success',
          changed: true,
          action: 'updated',
          durationMs: 1000,
          startedAt: iso(T0 + 4000),
          finishedAt: iso(T0 + 5000),
          detail: 'a updated; b updated; ready: state ready'
        },
        {
          name: 'nic-cluster-policy',
          status: 'success',
          changed: false,
          action: 'unchanged',
          durationMs: 1000,
          startedAt: iso(T0 + 5000),
          finishedAt: iso(T0 + 6000),
          detail: 'unchanged; ready: state ready'
        }
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
    expect(out).toEqual({
      ok: false,
      diagnostics: [{ step: 'network-operator', title: `network-operator: ${reason}`, text: reason }],
      steps: [
        {
          name: 'network-operator',
          status: 'failure',
          changed: true,
          durationMs: 1000,
          startedAt: iso(T0),
          finishedAt: iso(T0 + 1000),
          detail: `x updated; ${reason}`
        }
      ]
    })
    const e = h.diagnosed[0].error as ComponentStepFailure
    expect(e).toBeInstanceOf(ComponentStepFailure)
    expect(e.message).toBe(reason)
    expect(e.verdict?.message).toBe('state pending')
    expect(e.snapshot?.states.map(o => o.data.state)).toEqual(['pending'])
    expect(h.log.lines.at(-1)).toBe('endgroup')
  })

  it('gives a wait whose step deadline has passed no time, and names the run timeout when that is the limit', async () => {
    const h = harness({
      deadline: T0 + 500,
      scripts: { 'network-operator': { applied: { stepDeadline: T0 + 500 } } }
    })
    h.setState('network-operator', 'pending')
    const out = await applySequential(h.run, [h.step('network-operator')])
    expect(h.waits).toEqual([{ step: 'network-operator', started: 0, timeoutMs: 0 }])
    expect(out.steps[0].detail).toBe('not ready after 1s (the run timeout): state pending')
    expect(out.steps[0].changed).toBe(false)
  })

  it('fails fast on a failing verdict; the steps after it are reported as not run, even disabled ones', async () => {
    const h = harness({
      scripts: {
        'node-feature-rule': {
          applied: {
            changed: true,
            created: true,
            details: ['rule created'],
            version: { from: '1', to: '2' }
          }
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
      {
        name: 'node-feature-rule',
        status: 'failure',
        changed: true,
        durationMs: 1000,
        startedAt: iso(T0 + 1000),
        finishedAt: iso(T0 + 2000),
        detail: 'rule created; node-feature-rule is broken',
        version: { from: '1', to: '2' }
      },
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
      {
        name: 'network-operator',
        status: 'failure',
        changed: false,
        durationMs: 1000,
        startedAt: iso(T0),
        finishedAt: iso(T0 + 1000),
        detail: 'apply conflict on field x'
      },
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
    expect(out).toEqual({
      ok: false,
      diagnostics: [{ step: 'network-operator', title: `network-operator: ${reason}`, text: reason }],
      steps: [
        {
          name: 'network-operator',
          status: 'failure',
          changed: false,
          durationMs: 0,
          startedAt: iso(T0),
          finishedAt: iso(T0),
          detail: reason
        }
      ]
    })
    expect(h.diagnosed[0].error).toBeInstanceOf(ComponentStepFailure)
  })

  it('starts a step one millisecond before the run deadline', async () => {
    const h = harness({
      deadline: T0 + 1,
      scripts: { 'network-operator': { applied: { stepDeadline: T0 + 1 } } }
    })
    h.setState('network-operator', 'ready')
    const out = await applySequential(h.run, [h.step('network-operator')])
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
