// Unit-test helper: a Run (src/stack/run.ts) whose converge, diagnose and watch sources the test
// scripts, for the rollouts (applySequential, applyPipelined) without a cluster or helm. converge
// records `converge <step> at <ms since t0>` and returns the step's script (Applied, unchanged by
// default, its step deadline stepTimeoutMs after it started) or throws its error; the watch sources
// are a MemoryCluster's; waitOptions and limitOf are the real Run's (the wait recorded); diagnose
// says the error's message. The steps are the registry's components with the registry's specs,
// their health replaced by small rules: stateHealth (cluster-level: a ConfigMap labelled
// step=<name> in namespace test says its state; `broken` fails the step) and nodeHealth (per node:
// the node's label ready.<name>=true, its pods' container states, the same ConfigMap to fail it).
import { COMPONENTS, specOf, type ComponentName, type ComponentSpec } from '../../src/components/index.js'
import { healthSources } from '../../src/health/evaluate.js'
import { met, missing, type Health } from '../../src/health/types.js'
import type { WatchSource } from '../../src/kube/watch.js'
import type { ReportStep } from '../../src/report/report.js'
import { readSettings } from '../../src/settings/input-helper.js'
import { Run, type Applied } from '../../src/stack/run.js'
import type { StackStep } from '../../src/stack/types.js'
import { captureLog } from './capture-log.js'
import { reader, VALID_APPLY } from './inputs.js'
import { MemoryCluster } from './memory-cluster.js'

export interface Script {
  applied?: Partial<Applied>
  throws?: unknown
  /** Runs inside converge (to change the cluster while the step is awaited). */
  after?: () => void
}

/** What a health rule was given, each time it was evaluated. */
export interface Seen {
  step: string
  elapsedMs: number
  nfdGraceMs: number
}

const statesSource = (name: string) => ({
  name: `${name}-states`,
  apiVersion: 'v1',
  kind: 'ConfigMap',
  namespace: 'test',
  labelSelector: `step=${name}`
})

/** Cluster-level: the ConfigMap labelled step=<name> in namespace test says its state (recorded in `seen` when given). */
export function stateHealth(name: string, seen?: Seen[]): Health {
  return {
    summary: `${name} state ready`,
    sources: { states: statesSource(name) },
    cluster: [
      {
        text: 'state ready',
        check: (snap, _pool, ctx) => {
          seen?.push({ step: name, elapsedMs: ctx.elapsedMs, nfdGraceMs: ctx.nfdGraceMs })
          const state: string = snap.states?.[0]?.data?.state ?? 'absent'
          if (state === 'broken') return { ok: false, message: 'state broken', fail: `${name} is broken` }
          return { ok: state === 'ready', message: `state ${state}` }
        }
      }
    ],
    warnings: []
  }
}

/**
 * Per node: the node carries the label ready.<name>=true. Its pods (app=<name> in namespace test)
 * fail a node by their container states; a ConfigMap state=broken fails the whole step.
 */
export function nodeHealth(name: string, seen: Seen[]): Health {
  return {
    summary: `${name} on every node`,
    sources: {
      pods: {
        name: `${name}-pods`,
        apiVersion: 'v1',
        kind: 'Pod',
        namespace: 'test',
        labelSelector: `app=${name}`
      },
      states: statesSource(name)
    },
    perNode: {
      progress: `${name} ready`,
      rules: [
        {
          text: 'labelled',
          check: (node, _pods, ctx) => {
            seen.push({ step: name, elapsedMs: ctx.elapsedMs, nfdGraceMs: ctx.nfdGraceMs })
            return node.metadata.labels?.[`ready.${name}`] === 'true' ? met() : missing(`no ${name}`)
          }
        }
      ]
    },
    cluster: [
      {
        text: 'not broken',
        check: snap =>
          snap.states?.[0]?.data?.state === 'broken'
            ? { ok: false, message: 'state broken', fail: `${name} is broken` }
            : { ok: true, message: '' }
      }
    ],
    warnings: []
  }
}

export interface ScriptedRunOptions {
  /** The instant times are counted from in `events` and `waits`. */
  t0: number
  deadline: number
  stepTimeoutMs: number
  ctx?: Record<string, unknown>
  scripts?: Partial<Record<ComponentName, Script>>
  /** Called in each converge before its script runs (to move the test's clock). */
  onConverge?: (step: string) => void
  /** Each step's health rule (stateHealth, recording into `seen`, by default). */
  health?: (name: ComponentName, seen: Seen[]) => Health
}

export function scriptedRun(o: ScriptedRunOptions) {
  const settings = readSettings(reader({ ...VALID_APPLY }), {}).settings
  settings.wait.stepTimeoutMs = o.stepTimeoutMs
  const log = captureLog()
  log.endGroup = () => void log.lines.push('endgroup')
  const events: string[] = []
  const waits: Array<{ step: string; started: number; timeoutMs: number }> = []
  const diagnosed: Array<{ step: string; error: unknown }> = []
  const seen: Seen[] = []
  const cluster = new MemoryCluster()
  const scripts = o.scripts ?? {}
  const health = o.health ?? stateHealth
  const fake = {
    ctx: o.ctx ?? {},
    settings,
    log,
    deadline: o.deadline,
    nfdGraceMs: 7_000,
    async converge(step: StackStep, started: number): Promise<Applied> {
      const name = step.spec.name
      events.push(`converge ${name} at ${started - o.t0}`)
      o.onConverge?.(name)
      const s = scripts[name]
      if (s?.throws) throw s.throws
      s?.after?.()
      return {
        changed: false,
        created: false,
        details: [],
        stepDeadline: started + settings.wait.stepTimeoutMs,
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
      waits.push({ step: step.spec.name, started: started - o.t0, timeoutMs })
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
  /** Puts the state ConfigMap of step `name`. */
  const setState = (name: string, state: string): void => {
    cluster.put({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `${name}-state`, namespace: 'test', labels: { step: name } },
      data: { state }
    })
  }
  /** The registry's step `name`, titled `<name> title`, with its health replaced. */
  const step = (name: ComponentName, spec: Partial<ComponentSpec> = {}): StackStep => ({
    component: { ...COMPONENTS[name], health: () => health(name, seen) } as StackStep['component'],
    spec: { ...specOf(COMPONENTS[name], settings), title: `${name} title`, ...spec }
  })
  return {
    run: fake as unknown as Run,
    settings,
    log,
    events,
    waits,
    diagnosed,
    seen,
    cluster,
    setState,
    step
  }
}

const iso = (ms: number): string => new Date(ms).toISOString()

/** A report step from `from` to `to` (epoch ms); nothing changed unless `more` says so. */
export const stepAt = (
  name: string,
  status: ReportStep['status'],
  from: number,
  to: number,
  detail: ReportStep['detail'],
  more: Partial<ReportStep> = {}
): ReportStep => ({
  name,
  status,
  changed: false,
  durationMs: to - from,
  startedAt: iso(from),
  finishedAt: iso(to),
  detail,
  ...more
})

/** A step skipped at `at`, with why. */
export const skippedAt = (name: string, at: number, detail: string): ReportStep =>
  stepAt(name, 'skipped', at, at, detail)
