// The pipelined rollout: every component written in order while the pool may still provision, then
// all waits at once, each node gated by the cluster (docs/rollout.md; why: docs/decisions/0001).
import { COMPONENTS, nodeDependencies, onPoolNodes, type ComponentName } from '../components/index.js'
import { evaluateHealth, poolNodes } from '../health/evaluate.js'
import type { Health, HealthVerdict } from '../health/types.js'
import type { KubeObject } from '../kube/types.js'
import { watchAll, type Snapshot } from '../kube/watch.js'
import { finishedStep, type Diagnostic, type ReportStep } from '../report/report.js'
import { formatDuration } from '../util/duration.js'
import { LocalSignal, PoolGate, type PoolInfo } from './pipeline-gates.js'
import { actionOf, ComponentStepFailure, stepFailureOf, type Applied, type Run } from './run.js'
import type { ApplyStackResult, StackStep } from './types.js'

/** A wait given up because something it depends on will not come (no failure of its own). */
class Stopped extends Error {}

interface Track {
  step: StackStep
  health: Health
  started: number
  applied: Applied
  /** Nodes where this step fails, with the reason (fail-fast pod states). */
  failed: Map<string, string>
  /** Nodes where a step this one depends on failed or is blocked, with that step's name. */
  blocked: Map<string, string>
  settledAt?: number
  /** The step failed as a whole (not one node): its dependents stop waiting. */
  globalFailure?: string
  stopped?: string
  result?: ReportStep
  diagnostic?: Diagnostic
}

function sameMap(a: Map<string, string>, b: Map<string, string>): boolean {
  return a.size === b.size && [...a].every(([k, v]) => b.get(k) === v)
}

function nodeList(names: Iterable<string>): string {
  const all = [...names].sort()
  return all.length > 3 ? `${all.slice(0, 3).join(', ')} and ${all.length - 3} more` : all.join(', ')
}

export interface PipelinedOptions {
  /** Resolves once the node pool is provisioned (its size); absent when it already was. */
  nodePool?: Promise<PoolInfo>
}

export class Pipeline {
  private readonly tracks = new Map<string, Track>()
  private readonly signal = new LocalSignal()
  private readonly pool: PoolGate
  private readonly waits: Array<Promise<void>> = []
  private firstNodeAt?: number

  constructor(
    private readonly run: Run,
    private readonly o: PipelinedOptions
  ) {
    this.pool = new PoolGate(o.nodePool, () => this.signal.poke())
  }

  private get log() {
    return this.run.log
  }

  private finish(
    t: { step: StackStep; started: number },
    status: ReportStep['status'],
    applied: Pick<Applied, 'changed' | 'created' | 'version'>,
    detail: string
  ): ReportStep {
    const action = actionOf(applied)
    return finishedStep(t.step.spec.name, status, t.started, {
      changed: applied.changed,
      ...(status === 'success' || applied.changed ? { action } : {}),
      detail,
      version: applied.version
    })
  }

  /** Steps this one depends on per node, transitively, that are part of this run. */
  private depsOf(name: ComponentName): Track[] {
    const out: Track[] = []
    const visit = (n: ComponentName): void => {
      for (const d of nodeDependencies(COMPONENTS[n])) {
        const t = this.tracks.get(d)
        if (t && !out.includes(t)) out.push(t)
        visit(d)
      }
    }
    visit(name)
    return out
  }

  /** Why a step must not be written or awaited any more: a step it depends on failed as a whole. */
  private deadDependency(name: ComponentName): string | undefined {
    if (this.pool.state === 'failed' && onPoolNodes(COMPONENTS[name]))
      return `the node pool failed (${this.pool.reason})`
    const dead = this.depsOf(name).find(d => d.globalFailure || d.stopped)
    return dead ? `${dead.step.spec.name} ${dead.globalFailure ? 'failed' : 'stopped'}` : undefined
  }

  /** Writes `step` now (in order); a pool-node step is then awaited in the background. */
  async start(step: StackStep): Promise<{ result?: ReportStep; diagnostic?: Diagnostic }> {
    const { spec, component } = step
    const started = Date.now()
    const dead = this.deadDependency(spec.name)
    if (dead)
      return {
        result: this.finish(
          { step, started },
          'skipped',
          { changed: false, created: false },
          `not run: ${dead}`
        )
      }
    this.log.startGroup(`${spec.name}: ${spec.title}`)
    let applied: Applied
    try {
      if (Date.now() >= this.run.deadline)
        throw new ComponentStepFailure('the run timeout was reached before this step started')
      applied = await this.run.converge(step, started)
    } catch (e) {
      const { reason, diagnostic } = await this.run.diagnose(step, e)
      return {
        result: this.finish({ step, started }, 'failure', { changed: false, created: false }, reason),
        diagnostic
      }
    } finally {
      this.log.endGroup()
    }
    const health = component.health(this.run.settings)
    const t: Track = { step, health, started, applied, failed: new Map(), blocked: new Map() }
    this.tracks.set(spec.name, t)
    const wait = this.await(t)
    if (applied.rolling)
      // Two operators must never drain nodes at once: the rest waits for this rollout.
      this.log.info(`${spec.name}: ${applied.rolling}; the next components are written once it is done`)
    if (!onPoolNodes(component) || applied.rolling) {
      await wait
      return { result: t.result, diagnostic: t.diagnostic }
    }
    this.log.info(
      `${spec.name}: written; waiting per node in the background while the next steps are written`
    )
    this.waits.push(wait)
    return {}
  }

  /** Waits for every step started in the background; returns their results by name. */
  async settle(): Promise<Map<string, { result: ReportStep; diagnostic?: Diagnostic }>> {
    await Promise.all(this.waits)
    const out = new Map<string, { result: ReportStep; diagnostic?: Diagnostic }>()
    for (const t of this.tracks.values())
      if (t.result)
        out.set(t.step.spec.name, { result: t.result, ...(t.diagnostic ? { diagnostic: t.diagnostic } : {}) })
    return out
  }

  /** The deadline of a step: step-timeout from when it could last start progressing. */
  private stepDeadline(t: Track): number | undefined {
    if (!onPoolNodes(t.step.component)) return t.applied.stepDeadline
    if (this.pool.state !== 'ready') return undefined
    const deps = this.depsOf(t.step.spec.name)
    if (deps.some(d => d.settledAt === undefined)) return undefined
    const from = Math.max(t.started, this.pool.readyAt ?? 0, ...deps.map(d => d.settledAt!))
    return Math.min(from + this.run.settings.wait.stepTimeoutMs, this.run.deadline)
  }

  private evaluate(t: Track, snap: Snapshot<string>): HealthVerdict {
    const now = Date.now()
    const name = t.step.spec.name
    const dead = this.deadDependency(name)
    if (dead) throw new Stopped(dead)
    const settings = this.run.settings
    const nodes = snap.nodes ? poolNodes(snap.nodes, settings.nodePool.name) : []
    if (nodes.length && this.firstNodeAt === undefined) this.firstNodeAt = now
    const names = new Set(nodes.map(n => n.metadata.name))

    // Nodes where a step this one depends on failed (or is blocked itself): this step cannot come
    // there. Each is blamed on the step that failed on it.
    const blocked = new Map<string, string>()
    for (const d of this.depsOf(name)) {
      for (const n of d.failed.keys()) blocked.set(n, d.step.spec.name)
      for (const [n, origin] of d.blocked) if (!blocked.has(n)) blocked.set(n, origin)
    }
    const view: Snapshot<string> = { ...snap }
    if (snap.pods) view.pods = snap.pods.filter(p => !blocked.has(p.spec?.nodeName))
    const nodeClock = this.firstNodeAt === undefined ? 0 : now - this.firstNodeAt
    const v = evaluateHealth(t.health, view, {
      settings,
      elapsedMs: nodeClock,
      nfdGraceMs: this.run.nfdGraceMs
    })

    // Fail-fast pod states, node by node: they fail that node, not the step.
    const failed = v.failingNodes ?? new Map<string, string>()
    if (!sameMap(failed, t.failed) || !sameMap(blocked, t.blocked)) {
      t.failed = failed
      t.blocked = blocked
      this.signal.poke()
    }
    if (v.fail && ![...failed.values()].includes(v.fail)) return v

    if (!onPoolNodes(t.step.component)) return this.withStepTimeout(t, v, v.message, now)
    const ready = new Set(v.nodes.filter(n => n.ready).map(n => n.node))
    const poolReady = this.pool.state === 'ready'
    const joined = this.pool.count === undefined || nodes.length >= this.pool.count
    const notes: string[] = []
    if (failed.size) notes.push(`failing on ${nodeList(failed.keys())}`)
    if (blocked.size)
      notes.push(
        `blocked on ${nodeList(blocked.keys())} (${[...new Set(blocked.values())].join(', ')} not ready there)`
      )
    if (!poolReady) notes.push('node pool still provisioning')
    else if (!joined) notes.push(`${nodes.length}/${this.pool.count} nodes joined`)
    const message = [v.message, ...notes].join('; ')

    let done: boolean
    if (failed.size === 0 && blocked.size === 0) done = poolReady && joined && v.done
    else {
      const depsSettled = this.depsOf(name).every(d => d.settledAt !== undefined)
      const open = [...names].filter(n => !ready.has(n) && !failed.has(n) && !blocked.has(n))
      done = poolReady && joined && depsSettled && open.length === 0
    }
    return this.withStepTimeout(t, { ...v, done }, message, now)
  }

  /** The verdict with `message`, failing once the step's deadline has passed (re-checked then). */
  private withStepTimeout(t: Track, v: HealthVerdict, message: string, now: number): HealthVerdict {
    let recheckInMs = v.recheckInMs
    const deadline = this.stepDeadline(t)
    if (!v.done && deadline !== undefined) {
      if (now >= deadline)
        return {
          ...v,
          message,
          fail: `not ready after ${formatDuration(now - t.started)} (${this.run.limitOf(deadline)}): ${message}`
        }
      recheckInMs = Math.min(recheckInMs ?? Infinity, deadline - now)
    }
    const out: HealthVerdict = { ...v, message }
    delete out.fail
    if (recheckInMs !== undefined && recheckInMs !== Infinity) out.recheckInMs = recheckInMs
    else delete out.recheckInMs
    return out
  }

  private async await(t: Track): Promise<void> {
    const { step } = t
    const name = step.spec.name
    const details = t.applied.details.length ? t.applied.details : ['unchanged']
    let last: HealthVerdict | undefined
    let snapshot: Record<string, KubeObject[]> | undefined
    try {
      const out = await watchAll(
        { ...this.run.watchSources(t.health), pipeline: this.signal.source() },
        snap => {
          snapshot = snap
          last = this.evaluate(t, snap)
          return last
        },
        this.run.waitOptions(step, t.started, Math.max(0, this.run.deadline - Date.now()))
      )
      // A background wait belongs to no group: its live line ends with it, not with the command.
      this.log.progress(name, '')
      t.settledAt = Date.now()
      const v = out.verdict
      if (t.failed.size === 0 && t.blocked.size === 0) {
        t.result = this.finish(t, 'success', t.applied, [...details, `ready: ${v.message}`].join('; '))
      } else {
        const own = [...t.failed].map(([n, why]) => `node ${n}: ${why}`)
        const blocked = [...t.blocked].map(([n, dep]) => `node ${n}: blocked (${dep} failed there)`)
        const reason = `not ready on ${t.failed.size + t.blocked.size} of ${v.totalNodes} nodes: ${[...own, ...blocked].join('; ')}`
        t.result = this.finish(t, 'failure', t.applied, [...details, `${reason} (${v.message})`].join('; '))
        if (t.failed.size) {
          const failure = new ComponentStepFailure(
            `${name} failed on ${nodeList(t.failed.keys())} (the other nodes went on): ${own.join('; ')}`,
            { ...v, fail: own[0] },
            out.snapshot
          )
          t.diagnostic = (await this.run.diagnose(step, failure)).diagnostic
        } else this.log.error(`${name}: ${reason}`)
      }
    } catch (e) {
      this.log.progress(name, '')
      t.settledAt = Date.now()
      if (e instanceof Stopped) {
        t.stopped = e.message
        t.result = this.finish(
          t,
          'skipped',
          t.applied,
          [...details, `stopped waiting: ${e.message}`].join('; ')
        )
        this.log.info(`${name}: stopped waiting: ${e.message}`)
      } else {
        t.globalFailure = e instanceof Error ? e.message : String(e)
        const failure = stepFailureOf(e, { started: t.started, limit: 'the run timeout', last, snapshot })
        const { reason, diagnostic } = await this.run.diagnose(step, failure)
        t.result = this.finish(t, 'failure', t.applied, [...details, reason].join('; '))
        t.diagnostic = diagnostic
      }
    } finally {
      this.signal.poke()
    }
  }
}

/** The pipelined rollout: each component written in order, the waits running at once. */
export async function applyPipelined(run: Run, steps: StackStep[]): Promise<ApplyStackResult> {
  const pipeline = new Pipeline(run, { nodePool: run.ctx.nodePool })
  const byName = new Map<string, { result: ReportStep; diagnostic?: Diagnostic }>()
  let failed: string | undefined
  for (const step of steps) {
    const { name, enabled, skipReason } = step.spec
    const now = Date.now()
    if (!enabled)
      byName.set(name, {
        result: finishedStep(name, 'skipped', now, { detail: skipReason ?? 'disabled by the settings' }, now)
      })
    else if (failed)
      byName.set(name, {
        result: finishedStep(name, 'skipped', now, { detail: `not run: ${failed} failed` }, now)
      })
    else {
      const r = await pipeline.start(step)
      if (r.result)
        byName.set(name, { result: r.result, ...(r.diagnostic ? { diagnostic: r.diagnostic } : {}) })
      if (r.result?.status === 'failure') failed = name
    }
  }
  for (const [name, r] of await pipeline.settle()) byName.set(name, r)
  const results = steps.map(s => byName.get(s.spec.name)!.result)
  const diagnostics = steps.flatMap(s => byName.get(s.spec.name)?.diagnostic ?? [])
  const enabled = new Set<string>(steps.filter(s => s.spec.enabled).map(s => s.spec.name))
  const ok = results.every(s => s.status === 'success' || (s.status === 'skipped' && !enabled.has(s.name)))
  return { steps: results, diagnostics, ok }
}
