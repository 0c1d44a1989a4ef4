// The cluster half of `apply`, Kubernetes-controller style: for each component from
// network-operator to gpu-operator, observe the live state, diff it with the desired state, act
// only when they differ (server-side apply, helm upgrade --install) and then wait — with watches —
// until the component is ready on every RDMA node. The Lease is taken only before the first write,
// so a converged re-run writes nothing at all. A failed step stops the run with a diagnostic.
// That is the sequential rollout; the pipelined one (pipelined.ts) reuses the same observe/act and
// readiness checks but waits for all steps at once, per node.
import { buildStack } from '../model/stack.js'
import type { ComponentSpec, KubeManifest } from '../model/types.js'
import { KubeClient } from '../kube/client.js'
import { ApplyConflictError, KubeRequestError, messageOf } from '../kube/errors.js'
import { describeRef, refOf, type KubeObject } from '../kube/types.js'
import { watchAll, WatchFailError, WatchTimeoutError } from '../kube/watch.js'
import type { Diagnostic } from '../report/report.js'
import type { Settings } from '../settings/settings.js'
import { formatDuration } from '../util/duration.js'
import { buildDiagnostic } from './diagnostics.js'
import { createHelmReleases, type HelmReleases } from './helm-release.js'
import { acquireLease, type LeaseHandle } from './lease.js'
import { coreLog } from './log.js'
import { Pipeline } from './pipelined.js'
import { READINESS, type ReadinessVerdict } from './readiness/index.js'
import type { ApplyStackContext, ApplyStackResult, StackLog, StepResult } from './types.js'

/** The components this executor converges, in order (the Azure ones come before, elsewhere). */
export const CLUSTER_COMPONENTS = [
  'network-operator',
  'node-feature-rule',
  'nic-cluster-policy',
  'ib-node-config',
  'rdma-device-plugin',
  'gpu-operator'
] as const

interface ManifestPlan {
  manifest: KubeManifest
  needed: boolean
  reason?: string
  live?: KubeObject
}

interface StepPlan {
  manifests: ManifestPlan[]
  helm?: { needed: boolean; reason: string }
}

const anyNeeded = (p: StepPlan): boolean => p.manifests.some(m => m.needed) || (p.helm?.needed ?? false)

export class StepFailure extends Error {
  constructor(
    message: string,
    readonly verdict?: ReadinessVerdict,
    readonly snapshot?: Record<string, KubeObject[]>
  ) {
    super(message)
  }
}

/** What converging one component wrote (nothing when it was up to date). */
export interface Applied {
  changed: boolean
  created: boolean
  details: string[]
  /** The step's deadline, moved when the Lease had to be waited for. */
  stepDeadline: number
}

export class Run {
  private lease?: LeaseHandle
  readonly client: KubeClient
  private readonly helm: HelmReleases
  readonly deadline: number

  constructor(
    readonly ctx: ApplyStackContext,
    readonly settings: Settings,
    readonly log: StackLog
  ) {
    this.deadline = ctx.deadline ?? Date.now() + settings.wait.timeoutMs
    this.client = KubeClient.fromFile(ctx.kubeconfigPath, {
      retries: settings.wait.retries,
      backoffBaseMs: ctx.retryBaseDelayMs,
      log: line => log.info(line)
    })
    this.helm = createHelmReleases(settings, ctx.kubeconfigPath, log)
  }

  /** The lease, taken on first need; true when this call had to take it (and so maybe waited). */
  private async ensureLease(): Promise<boolean> {
    if (this.lease) return false
    this.lease = await acquireLease(this.client, {
      holder: this.settings.runId,
      leaseDurationSeconds: this.ctx.leaseDurationSeconds,
      timeoutMs: Math.max(0, this.deadline - Date.now()),
      log: line => this.log.info(line),
      warn: line => this.log.warning(line)
    })
    return true
  }

  async releaseLease(): Promise<void> {
    try {
      await this.lease?.release()
    } catch (e) {
      this.log.warning(`releasing the Lease failed: ${messageOf(e)} (it expires on its own)`)
    }
  }

  /** Desired vs live, reading only. */
  async observe(c: ComponentSpec): Promise<StepPlan> {
    const manifests: ManifestPlan[] = []
    for (const m of c.manifests ?? []) {
      const need = await this.client.needsApply(m as KubeObject, {
        force: this.settings.stack.forceConflicts
      })
      // Fails before any write (and before the Lease): the fix is the force-conflicts input.
      if (need.conflict) throw need.conflict
      manifests.push({ manifest: m, needed: !need.converged, reason: need.reason, live: need.live })
    }
    const helm = c.helm ? await this.helm.plan(c.helm) : undefined
    return { manifests, ...(helm ? { helm } : {}) }
  }

  /** Writes what differs; returns what was done. */
  async act(
    c: ComponentSpec,
    plan: StepPlan,
    stepDeadline: number
  ): Promise<{ created: boolean; details: string[] }> {
    const details: string[] = []
    let created = false
    for (const p of plan.manifests.filter(x => x.needed)) {
      const what = describeRef(refOf(p.manifest as KubeObject))
      const res = await this.client.applyManifest(p.manifest as KubeObject, {
        force: this.settings.stack.forceConflicts,
        live: p.live ?? null
      })
      const verb = res.created ? 'created' : res.changed ? 'updated' : 'unchanged'
      if (res.created) created = true
      details.push(`${what} ${verb}${!res.created && p.reason ? ` (${p.reason})` : ''}`)
      this.log.info(`${c.name}: ${what} ${verb}${!res.created && p.reason ? ` (${p.reason})` : ''}`)
    }
    if (c.helm && plan.helm?.needed) {
      const timeoutMs = Math.max(1000, stepDeadline - Date.now())
      const r = await this.helm.upgrade(c.helm, timeoutMs)
      if (r.installed) created = true
      details.push(
        `helm ${r.installed ? 'install' : 'upgrade'} ${c.helm.release} ${c.helm.version} (${plan.helm.reason})`
      )
    }
    return { created, details }
  }

  /** Observe, take the Lease on first need, write what differs (no waiting for readiness). */
  async converge(c: ComponentSpec, started: number): Promise<Applied> {
    let stepDeadline = Math.min(started + this.settings.wait.stepTimeoutMs, this.deadline)
    let plan = await this.observe(c)
    if (anyNeeded(plan)) {
      if (await this.ensureLease()) {
        // Another run may have converged it while this one waited for the Lease.
        plan = await this.observe(c)
        stepDeadline = Math.min(Date.now() + this.settings.wait.stepTimeoutMs, this.deadline)
      }
      if (anyNeeded(plan)) {
        const done = await this.act(c, plan, stepDeadline)
        return { changed: true, created: done.created, details: done.details, stepDeadline }
      }
    }
    this.log.info(`${c.name}: up to date, nothing to change`)
    return { changed: false, created: false, details: [], stepDeadline }
  }

  private async waitReady(
    c: ComponentSpec,
    stepStarted: number,
    stepDeadline: number
  ): Promise<ReadinessVerdict> {
    const r = READINESS[c.name]
    const waitStart = Date.now()
    let verdict: ReadinessVerdict | undefined
    let snapshot: Record<string, KubeObject[]> | undefined
    const nfdGraceMs = this.ctx.nfdGraceMs ?? Math.min(120_000, this.settings.wait.stepTimeoutMs / 2)
    try {
      const out = await watchAll(
        r.sources(this.client, this.settings),
        snap => {
          snapshot = snap
          verdict = r.evaluate(snap, {
            settings: this.settings,
            elapsedMs: Date.now() - waitStart,
            nfdGraceMs
          })
          return verdict
        },
        {
          timeoutMs: Math.max(0, stepDeadline - Date.now()),
          onChange: v =>
            this.log.info(`${c.name}: ${v.message} (${formatDuration(Date.now() - stepStarted)})`),
          onNotice: line => this.log.info(`${c.name}: ${line}`)
        }
      )
      return out.verdict
    } catch (e) {
      if (e instanceof WatchFailError)
        throw new StepFailure(e.verdict.fail ?? 'failed', e.verdict as ReadinessVerdict, e.snapshot)
      if (e instanceof WatchTimeoutError) {
        const which =
          stepDeadline >= this.deadline
            ? 'the run timeout'
            : `step-timeout ${formatDuration(this.settings.wait.stepTimeoutMs)}`
        const last = (e.verdict as ReadinessVerdict | undefined)?.message ?? verdict?.message
        throw new StepFailure(
          `not ready after ${formatDuration(Date.now() - stepStarted)} (${which})${last ? `: ${last}` : ''}`,
          (e.verdict as ReadinessVerdict | undefined) ?? verdict,
          e.snapshot ?? snapshot
        )
      }
      throw e
    }
  }

  /** The reason and the diagnostic of a failed step (logged as an error and its details). */
  async diagnose(c: ComponentSpec, e: unknown): Promise<{ reason: string; diagnostic: Diagnostic }> {
    const ours = e instanceof StepFailure || e instanceof ApplyConflictError || e instanceof KubeRequestError
    const reason = ours ? (e as Error).message : messageOf(e)
    const diagnostic = await buildDiagnostic(this.client, {
      component: c,
      reason,
      verdict: e instanceof StepFailure ? e.verdict : undefined,
      snapshot: e instanceof StepFailure ? e.snapshot : undefined,
      error: e
    }).catch(err => ({
      step: c.name,
      title: `${c.name}: ${reason}`,
      text: `${reason}\n(diagnostics incomplete: ${messageOf(err)})`
    }))
    this.log.error(diagnostic.title)
    this.log.info(diagnostic.text)
    return { reason, diagnostic }
  }

  async step(c: ComponentSpec): Promise<{ result: StepResult; diagnostic?: Diagnostic }> {
    const started = Date.now()
    const finish = (
      status: StepResult['status'],
      changed: boolean,
      detail: string,
      action?: StepResult['action']
    ): StepResult => {
      const end = Date.now()
      return {
        name: c.name,
        status,
        changed,
        ...(action ? { action } : {}),
        durationMs: end - started,
        startedAt: new Date(started).toISOString(),
        finishedAt: new Date(end).toISOString(),
        detail
      }
    }
    this.log.startGroup(`${c.name}: ${c.title}`)
    let changed = false
    let created = false
    let details: string[] = []
    try {
      if (Date.now() >= this.deadline)
        throw new StepFailure('the run timeout was reached before this step started')
      const applied = await this.converge(c, started)
      changed = applied.changed
      created = applied.created
      details = applied.details
      const verdict = await this.waitReady(c, started, applied.stepDeadline)
      const detail = [...(details.length ? details : ['unchanged']), `ready: ${verdict.message}`].join('; ')
      return {
        result: finish('success', changed, detail, changed ? (created ? 'created' : 'updated') : 'unchanged')
      }
    } catch (e) {
      const { reason, diagnostic } = await this.diagnose(c, e)
      return { result: finish('failure', changed, [...details, reason].join('; ')), diagnostic }
    } finally {
      this.log.endGroup()
    }
  }
}

function skipped(name: string, detail: string): StepResult {
  const now = new Date().toISOString()
  return { name, status: 'skipped', changed: false, durationMs: 0, startedAt: now, finishedAt: now, detail }
}

/**
 * Converges the cluster components of the stack (network-operator → gpu-operator) on the cluster of
 * `kubeconfigPath`. Sequential rollout waits for each to be ready on every RDMA node before the
 * next; pipelined rollout writes them in order and waits for all at once, per node (pipelined.ts).
 */
export async function applyStack(ctx: ApplyStackContext): Promise<ApplyStackResult> {
  const log = ctx.log ?? coreLog
  const run = new Run(ctx, ctx.settings, log)
  const components = buildStack(ctx.settings).filter(x =>
    (CLUSTER_COMPONENTS as readonly string[]).includes(x.name)
  )
  if (ctx.settings.wait.rollout === 'pipelined') {
    try {
      return await applyPipelined(run, components)
    } finally {
      await run.releaseLease()
    }
  }
  const steps: StepResult[] = []
  const diagnostics: Diagnostic[] = []
  let failed: string | undefined
  try {
    for (const c of components) {
      if (failed) {
        steps.push(skipped(c.name, `not run: ${failed} failed`))
        continue
      }
      if (!c.enabled) {
        steps.push(skipped(c.name, c.skipReason ?? 'disabled by the settings'))
        continue
      }
      const { result, diagnostic } = await run.step(c)
      steps.push(result)
      if (diagnostic) diagnostics.push(diagnostic)
      if (result.status === 'failure') failed = c.name
    }
  } finally {
    await run.releaseLease()
  }
  return { steps, diagnostics, ok: failed === undefined }
}

/** The pipelined rollout: each component written in order, the waits running at once. */
async function applyPipelined(run: Run, components: ComponentSpec[]): Promise<ApplyStackResult> {
  const pipeline = new Pipeline(run, {
    nodePool: run.ctx.nodePool,
    nfdGraceMs: run.ctx.nfdGraceMs ?? Math.min(120_000, run.settings.wait.stepTimeoutMs / 2)
  })
  const byName = new Map<string, { result: StepResult; diagnostic?: Diagnostic }>()
  let failed: string | undefined
  for (const c of components) {
    if (!c.enabled)
      byName.set(c.name, { result: skipped(c.name, c.skipReason ?? 'disabled by the settings') })
    else if (failed) byName.set(c.name, { result: skipped(c.name, `not run: ${failed} failed`) })
    else {
      const r = await pipeline.start(c)
      if (r.result)
        byName.set(c.name, { result: r.result, ...(r.diagnostic ? { diagnostic: r.diagnostic } : {}) })
      if (r.result?.status === 'failure') failed = c.name
    }
  }
  for (const [name, r] of await pipeline.settle()) byName.set(name, r)
  const steps = components.map(c => byName.get(c.name)!.result)
  const diagnostics = components.flatMap(c => byName.get(c.name)?.diagnostic ?? [])
  const enabled = new Set(components.filter(c => c.enabled).map(c => c.name))
  const ok = steps.every(s => s.status === 'success' || (s.status === 'skipped' && !enabled.has(s.name)))
  return { steps, diagnostics, ok }
}
