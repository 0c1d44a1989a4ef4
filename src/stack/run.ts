// What both rollouts share for one apply of the stack: observe, diff, take the Lease on the first write,
// act, watch, diagnose. Docs: docs/design.md#five-walks-of-the-same-list, docs/rollout.md.
import type { Health, HealthVerdict } from '../health/types.js'
import { healthSources } from '../health/evaluate.js'
import { KubeClient } from '../kube/client.js'
import { ApplyConflictError, isKindNotServed, KubeRequestError, messageOf } from '../kube/errors.js'
import { describeRef, refOf, type KubeObject, type KubeRef } from '../kube/types.js'
import { WatchFailError, WatchTimeoutError, type WatchSource } from '../kube/watch.js'
import type { Log } from '../log/index.js'
import type { Diagnostic } from '../report/report.js'
import type { Settings } from '../settings/settings.js'
import { RunCancelledError } from '../util/cancel.js'
import { formatDuration } from '../util/duration.js'
import { buildDiagnostic } from './diagnostics.js'
import { FIELD_MANAGER, LABELS, type KubeManifest } from '../model/types.js'
import { runLabel } from '../model/work-labels.js'
import { createHelmReleases, type HelmPlan, type HelmReleases } from './helm-release.js'
import type { LeaseLostError } from './lease.js'
import {
  foreignNamespaceNote,
  OwnershipRecord,
  proofOfObject,
  proofOfRelease,
  releaseRef,
  type OwnedEntry
} from './ownership.js'
import { RunLease } from './run-lease.js'
import {
  applyCrds,
  crdsToApply,
  findStalePods,
  installedVersion,
  replaceStalePods,
  sameVersion,
  type CrdPlan
} from './upgrade.js'
import { heldDetail, heldSuffix, HeldNodes } from './held-nodes.js'
import type { ApplyStackContext, StackStep } from './types.js'
import { chartName, downgradeOf, VersionReadError, type Downgrade } from './downgrade.js'

/** A kind the API server does not serve yet (its CRD absent): nothing of it is installed. */
const notServed = (e: unknown): undefined => {
  if (isKindNotServed(e)) return undefined
  throw e
}

interface ManifestPlan {
  manifest: KubeManifest
  needed: boolean
  reason?: string
  live?: KubeObject
}

export { POD_SECURITY } from './ownership.js'

interface StepPlan {
  manifests: ManifestPlan[]
  helm?: HelmPlan
  /** A chart upgrade's CRDs that differ from the live ones: applied before the chart. */
  crds: CrdPlan[]
  /** Pods of its OnDelete DaemonSet that ran an earlier version. */
  stalePods: KubeObject[]
  /** Its version as installed (absent: not installed, or no version). */
  from?: string
  /** A hand-installed release of the same chart to take over (adopt-releases). */
  adopt?: { firstDeployed?: string; chartVersion: string }
  /** What the step says without writing it: a namespace found, not created, and the label it lacks. */
  notes: string[]
  /** Pending record entries an earlier run left that the live thing proves: completed with its identity. */
  complete: Array<{ ref: KubeRef; identity: Partial<OwnedEntry> }>
}

const anyNeeded = (p: StepPlan): boolean =>
  p.manifests.some(m => m.needed) ||
  (p.helm?.needed ?? false) ||
  p.crds.some(c => !c.keep) ||
  p.stalePods.length > 0 ||
  p.adopt !== undefined ||
  p.complete.length > 0

/** `nvidia/gpu-operator` → `gpu-operator`: the chart name a release reports. */
export const chartNameOf = (chart: string): string => chart.slice(chart.lastIndexOf('/') + 1)

/** Whether an object a server-side apply reported as created was made by that apply (no other manager wrote it). */
function madeByThisApply(o: KubeObject): boolean {
  const managers = (o.metadata.managedFields ?? []) as Array<{ manager?: string }>
  return managers.every(m => m.manager === FIELD_MANAGER)
}

/** A stack component's step that failed, with what its wait saw last. */
export class ComponentStepFailure extends Error {
  constructor(
    message: string,
    readonly verdict?: HealthVerdict,
    readonly snapshot?: Record<string, KubeObject[]>
  ) {
    super(message)
  }
}

/**
 * A watch's end as the step's failure: a fail-fast verdict as its reason, a timeout as
 * `not ready after <elapsed> (<limit>): <last verdict>`. Anything else is returned unchanged.
 */
export function stepFailureOf(
  e: unknown,
  o: { started: number; limit: string; last?: HealthVerdict; snapshot?: Record<string, KubeObject[]> }
): unknown {
  if (e instanceof WatchFailError)
    return new ComponentStepFailure(e.verdict.fail ?? 'failed', e.verdict as HealthVerdict, e.snapshot)
  if (e instanceof WatchTimeoutError) {
    const last = (e.verdict as HealthVerdict | undefined) ?? o.last
    return new ComponentStepFailure(
      `not ready after ${formatDuration(Date.now() - o.started)} (${o.limit})${last?.message ? `: ${last.message}` : ''}${heldDetail(last)}`,
      last,
      e.snapshot ?? o.snapshot
    )
  }
  return e
}

/** The report's action for what converging wrote. */
export function actionOf(applied: Pick<Applied, 'changed' | 'created'>): 'created' | 'updated' | 'unchanged' {
  return applied.changed ? (applied.created ? 'created' : 'updated') : 'unchanged'
}

/** What converging one component wrote (nothing when it was up to date). */
export interface Applied {
  changed: boolean
  created: boolean
  details: string[]
  /** The step's deadline, moved when the Lease had to be waited for. */
  stepDeadline: number
  /** Its version before and after, when this run changed it. */
  version?: { from: string; to: string }
  /** What its operator now replaces node by node (the component changed on a running cluster). */
  rolling?: string
}

/** The field manager of the action's creation mark (never the main one: its applies leave the mark alone). */
export const CREATION_MANAGER = 'aks-rdma-action-created-by'

export class Run {
  private readonly lease: RunLease
  readonly client: KubeClient
  private readonly helm: HelmReleases
  /** What the action created on this cluster (kube-system/aks-rdma-action-owned). */
  readonly record: OwnershipRecord
  readonly deadline: number
  /** How long the NodeFeatureRule may take to label the first node. */
  readonly nfdGraceMs: number
  /** Each waiting step's held nodes (named while it waits, and in its diagnostic). */
  private held?: Map<string, HeldNodes>

  /**
   * Called when a write first takes the Lease (after waiting for another run, maybe): what the
   * run read before may have moved (applyStack reads the managed pools again).
   */
  onLeaseTaken?: (step: StackStep) => Promise<void>

  constructor(
    readonly ctx: ApplyStackContext,
    /** The run's settings; applyStack sets the managed pools in them (stackPools) once read. */
    public settings: Settings,
    readonly log: Log
  ) {
    this.deadline = ctx.deadline ?? Date.now() + settings.wait.timeoutMs
    this.nfdGraceMs = ctx.nfdGraceMs ?? Math.min(120_000, settings.wait.stepTimeoutMs / 2)
    this.client = KubeClient.fromFile(ctx.kubeconfigPath, {
      retries: settings.wait.retries,
      backoffBaseMs: ctx.retryBaseDelayMs,
      log
    })
    this.helm = createHelmReleases(settings, ctx.kubeconfigPath, log)
    this.record = OwnershipRecord.of(this.client, settings.runId)
    this.lease = new RunLease(this.client, {
      holder: settings.runId,
      leaseDurationSeconds: ctx.leaseDurationSeconds,
      deadline: this.deadline,
      log,
      ...(ctx.leaseClock ? { clock: ctx.leaseClock } : {})
    })
  }

  /** Set once the Lease this run took was found lost (another holder, deleted, renewals failing). */
  get lostLease(): LeaseLostError | undefined {
    return this.lease.lost
  }

  /** True once this run took the Lease and gave it back itself (the post step then has nothing to do). */
  get leaseReleased(): boolean {
    return this.lease.released
  }

  async releaseLease(): Promise<void> {
    await this.lease.release()
  }

  /** Takes the Lease now (a write other than a component's: the managed pools); true when this call took it. */
  takeLease(): Promise<boolean> {
    return this.lease.ensure()
  }

  /** Before such a write: the Lease is still this run's, and the run is not cancelled. */
  confirmLease(what: string): Promise<void> {
    return this.lease.confirm(what)
  }

  /**
   * A namespace that exists and that the action did not create: its labels are the operators' to
   * set. Nothing is written; when it lacks the pod security label the operators need, say which
   * and how to add it.
   */
  private async foreignNamespace(m: KubeManifest): Promise<{ live: KubeObject; note?: string } | undefined> {
    if (m.kind !== 'Namespace') return undefined
    const live = await this.client.get(refOf(m as KubeObject))
    if (!live || live.metadata.deletionTimestamp) return undefined
    if (proofOfObject(await this.record.find(refOf(live)), live).owned) return undefined
    const note = foreignNamespaceNote(m, live)
    return note ? { live, note } : { live }
  }

  /**
   * Whose the release is: none there (install), the action's (recorded), another chart's (refused),
   * or a same-chart release the action did not install (adopted with adopt-releases, else refused).
   */
  private async releaseOwnership(
    spec: NonNullable<StackStep['spec']['helm']>,
    helm: HelmPlan,
    complete: StepPlan['complete']
  ): Promise<StepPlan['adopt']> {
    const st = helm.status
    if (!st) return undefined
    const chart = chartNameOf(spec.chart)
    const where = `${spec.release} -n ${spec.namespace}`
    if (st.chartName !== chart)
      throw new Error(
        `helm release ${where} runs chart ${st.chartName} ${st.chartVersion}, not ${chart}: the action never replaces another chart's release; it is left untouched (remove or rename it, e.g. helm uninstall ${where}, to install ${chart} here)`
      )
    const entry = await this.record.findRelease(spec.release, spec.namespace)
    const proof = proofOfRelease(entry, st)
    if (proof.owned) {
      // A run stopped during the install left it pending: its first deployment is its identity from now on.
      if (entry?.state === 'pending' && st.firstDeployed)
        complete.push({
          ref: releaseRef(spec.release, spec.namespace),
          identity: { chart, firstDeployed: st.firstDeployed, runId: entry.runId }
        })
      return undefined
    }
    if (this.settings.stack.adoptReleases)
      return { firstDeployed: st.firstDeployed, chartVersion: st.chartVersion }
    throw new Error(
      `helm release ${where} (chart ${st.chartName} ${st.chartVersion}) was not installed by the action (${proof.why}); it is left untouched: set adopt-releases: true to let the action take it over, or remove it (helm uninstall ${where})`
    )
  }

  /** Desired vs live, reading only. */
  private async observe({ spec, component }: StackStep): Promise<StepPlan> {
    const manifests: ManifestPlan[] = []
    const notes: string[] = []
    const complete: StepPlan['complete'] = []
    for (const m of spec.manifests ?? []) {
      const foreign = await this.foreignNamespace(m)
      if (foreign) {
        if (foreign.note) notes.push(foreign.note)
        manifests.push({ manifest: m, needed: false, live: foreign.live })
        continue
      }
      const need = await this.client.needsApply(m as KubeObject, {
        force: this.settings.stack.forceConflicts
      })
      // Fails before any write (and before the Lease): the fix is the force-conflicts input.
      if (need.conflict) throw need.conflict
      manifests.push({ manifest: m, needed: !need.converged, reason: need.reason, live: need.live })
      // A run stopped between a create and its entry's completion: the object proves it, its uid completes it.
      const entry = need.live && (await this.record.find(refOf(need.live)))
      if (need.live && entry?.state === 'pending' && proofOfObject(entry, need.live).owned)
        complete.push({
          ref: refOf(m as KubeObject),
          identity: { uid: need.live.metadata.uid, runId: entry.runId }
        })
    }
    const helm = spec.helm ? await this.helm.plan(spec.helm) : undefined
    // Before any write: a release that is not the action's is refused or, when asked, adopted.
    const adopt = spec.helm && helm ? await this.releaseOwnership(spec.helm, helm, complete) : undefined
    // A chart upgrade: the new version's CRDs go first (helm never upgrades them).
    const upgrading =
      spec.helm && helm?.installedVersion && !sameVersion(helm.installedVersion, spec.helm.version)
    const chart = spec.helm ? { name: chartName(spec.helm.chart), version: spec.helm.version } : undefined
    const crds = upgrading ? await crdsToApply(this.client, await this.helm.crds(spec.helm!), chart) : []
    const stalePods = component.stalePods
      ? await findStalePods(this.client, component.stalePods, this.settings)
      : []
    const from = installedVersion(spec, { chartVersion: helm?.installedVersion, live: manifests })
    return {
      manifests,
      ...(helm ? { helm } : {}),
      crds,
      stalePods,
      ...(from ? { from } : {}),
      ...(adopt ? { adopt } : {}),
      notes,
      complete
    }
  }

  /**
   * The components whose installed version is newer than the desired one (reading only): a helm
   * release's chart version, or the manifest field its version names. Run before any write.
   */
  async downgrades(steps: StackStep[]): Promise<Downgrade[]> {
    const found: Downgrade[] = []
    for (const { spec } of steps) {
      const version = spec.version
      if (!spec.enabled || !version) continue
      let live: string | undefined
      let what: string
      try {
        if (!version.field && spec.helm) {
          // A same-named release of another chart is no older version of this one: the ownership
          // check refuses it, naming its chart.
          const st = await this.helm.status(spec.helm.release, spec.helm.namespace)
          live = st && st.chartName === chartNameOf(spec.helm.chart) ? st.chartVersion : undefined
          what = `chart ${spec.helm.chart}`
        } else if (version.field) {
          const field = version.field
          const m = spec.manifests?.find(x => x.kind === field.kind)
          const obj = m ? await this.client.get(refOf(m as KubeObject)).catch(notServed) : undefined
          live = m ? installedVersion(spec, { live: [{ manifest: m, live: obj }] }) : undefined
          what = `${field.kind} ${field.path.join('.')}`
        } else continue
      } catch (e) {
        throw new VersionReadError(spec.name, e)
      }
      const d = live ? downgradeOf({ component: spec.name, what, live, desired: version.value }) : undefined
      if (d) found.push(d)
    }
    return found
  }

  /** Server-side applies the manifests that differ; marks those it creates as the action's. */
  private async applyManifests(
    spec: StackStep['spec'],
    plan: StepPlan
  ): Promise<{ created: boolean; details: string[] }> {
    const details: string[] = []
    let created = false
    for (const p of plan.manifests.filter(x => x.needed)) {
      const ref = refOf(p.manifest as KubeObject)
      const what = describeRef(ref)
      // Another run may have taken the Lease over since the last write: never write over it.
      await this.lease.confirm(`writing ${what}`)
      // A create is recorded as pending first: a run stopped after it leaves a provable entry.
      if (!p.live) await this.record.pending(ref)
      const res = await this.client.applyManifest(p.manifest as KubeObject, {
        force: this.settings.stack.forceConflicts,
        live: p.live ?? null
      })
      const madeIt = res.created && madeByThisApply(res.object)
      const verb = madeIt ? 'created' : res.changed ? 'updated' : 'unchanged'
      if (madeIt) {
        created = true
        // The creation mark (a pending entry's proof), then the entry completed with the object's uid.
        await this.client.applyLabels(
          ref,
          { [LABELS.createdBy]: runLabel(this.settings.runId) },
          CREATION_MANAGER
        )
        await this.record.created(ref, { uid: res.object.metadata.uid })
      } else if (!p.live) await this.record.forget(ref)
      const line = `${what} ${verb}${!res.created && p.reason ? ` (${p.reason})` : ''}`
      details.push(line)
      this.log.info(`${spec.name}: ${line}`)
    }
    return { created, details }
  }

  /** Writes what differs; returns what was done. */
  private async act(
    { spec }: StackStep,
    plan: StepPlan,
    stepDeadline: number
  ): Promise<{ created: boolean; details: string[] }> {
    const confirm = (what: string): Promise<void> => this.lease.confirm(what)
    for (const c of plan.complete) {
      await this.lease.confirm(`completing the ownership record for ${describeRef(c.ref)}`)
      await this.record.created(c.ref, c.identity)
    }
    const applied = await this.applyManifests(spec, plan)
    const details = [
      ...plan.complete.map(c => `${describeRef(c.ref)}: pending ownership entry completed`),
      ...applied.details
    ]
    let created = applied.created
    if (plan.stalePods.length)
      details.push(...(await replaceStalePods(this.client, plan.stalePods, { confirm, log: this.log })))
    if (plan.crds.length)
      details.push(
        ...(await applyCrds(this.client, plan.crds, {
          confirm,
          log: this.log,
          timeoutMs: stepDeadline - Date.now()
        }))
      )
    if (spec.helm && plan.adopt) {
      const ref = releaseRef(spec.helm.release, spec.helm.namespace)
      await this.lease.confirm(`adopting helm release ${spec.helm.release}`)
      await this.record.adopted(ref, {
        chart: chartNameOf(spec.helm.chart),
        ...(plan.adopt.firstDeployed ? { firstDeployed: plan.adopt.firstDeployed } : {})
      })
      const line = `helm release ${spec.helm.release} -n ${spec.helm.namespace} (chart ${chartNameOf(spec.helm.chart)} ${plan.adopt.chartVersion}, first deployed ${plan.adopt.firstDeployed ?? 'unknown'}) adopted: installed by hand, taken over as adopt-releases asks`
      this.log.warning(`${spec.name}: ${line}`)
      details.push(line)
    }
    if (spec.helm && plan.helm?.needed) {
      await this.lease.confirm(`helm upgrade --install ${spec.helm.release}`)
      const timeoutMs = Math.max(1000, stepDeadline - Date.now())
      const ref = releaseRef(spec.helm.release, spec.helm.namespace)
      const chart = chartNameOf(spec.helm.chart)
      const installing = !plan.helm.status
      if (installing) await this.record.pending(ref, { chart })
      // A CRD kept from a newer chart: the older chart's CRD upgrade hook (upgradeCRDs,
      // operator.upgradeCRD) would apply its older CRDs over it, so its hooks do not run.
      const keeps = plan.crds.some(c => c.keep)
      const r = await this.helm.upgrade(spec.helm, timeoutMs, {
        expectAbsent: installing,
        ...(keeps ? { noHooks: true } : {})
      })
      if (r.installed) {
        created = true
        await this.record.created(ref, {
          chart,
          ...(r.status.firstDeployed ? { firstDeployed: r.status.firstDeployed } : {})
        })
      }
      details.push(
        `helm ${r.installed ? 'install' : 'upgrade'} ${spec.helm.release} ${spec.helm.version} (${plan.helm.reason})` +
          (keeps ? ' with --no-hooks (its CRD upgrade hook would apply the older CRDs)' : '')
      )
    }
    return { created, details }
  }

  /** Observe, take the Lease on first need, write what differs (no waiting for readiness). */
  async converge(step: StackStep, started: number): Promise<Applied> {
    let stepDeadline = Math.min(started + this.settings.wait.stepTimeoutMs, this.deadline)
    let plan = await this.observe(step)
    for (const n of plan.notes) this.log.warning(`${step.spec.name}: ${n}`)
    if (anyNeeded(plan)) {
      if (await this.lease.ensure()) {
        // Another run may have converged it (or changed the record) while this one waited for the Lease.
        this.record.invalidate()
        await this.onLeaseTaken?.(step)
        plan = await this.observe(step)
        stepDeadline = Math.min(Date.now() + this.settings.wait.stepTimeoutMs, this.deadline)
      }
      if (anyNeeded(plan)) {
        const done = await this.act(step, plan, stepDeadline)
        const to = step.spec.version?.value
        const version =
          plan.from && to && !sameVersion(plan.from, to) ? { version: { from: plan.from, to } } : {}
        const rolls = step.component.rollsDriver
        // Installed before (not created now): its operator replaces what runs, node by node.
        const rolling =
          rolls && !done.created && plan.from !== undefined ? { rolling: rolls(this.settings) } : {}
        return {
          changed: true,
          created: done.created,
          details: [...done.details, ...plan.notes],
          stepDeadline,
          ...version,
          ...rolling
        }
      }
    }
    this.log.info(`${step.spec.name}: up to date, nothing to change`)
    return {
      changed: false,
      created: false,
      details: plan.notes.length ? ['unchanged', ...plan.notes] : [],
      stepDeadline
    }
  }

  /** What a wait on `h` watches: its sources (and the pool's nodes) as list+watch sources. */
  watchSources(h: Health): Record<string, WatchSource> {
    const out: Record<string, WatchSource> = {}
    for (const [key, src] of Object.entries(healthSources(h, this.settings)))
      out[key] = this.client.watchSource(src.apiVersion, src.kind, {
        namespace: src.namespace,
        labelSelector: src.labelSelector,
        name: src.name
      })
    return out
  }

  /** The watch options every wait shares: its deadline, progress lines keyed by the step, notices. */
  waitOptions(step: StackStep, started: number, timeoutMs: number) {
    const name = step.spec.name
    const held = new HeldNodes(this.client, this.log, name)
    this.held ??= new Map()
    this.held.set(name, held)
    return {
      timeoutMs,
      onChange: (v: HealthVerdict) => {
        // The nodes that hold the step (cordoned, mid-upgrade) are named while it waits.
        this.log.progress(
          name,
          `${name}: ${v.message}${heldSuffix(v)} (${formatDuration(Date.now() - started)})`
        )
        held.onVerdict(v)
      },
      onNotice: (line: string) => this.log.info(`${name}: ${line}`)
    }
  }

  /** Which limit a deadline is: the run's timeout or the step's. */
  limitOf(deadline: number): string {
    return deadline >= this.deadline
      ? 'the run timeout'
      : `step-timeout ${formatDuration(this.settings.wait.stepTimeoutMs)}`
  }

  /** The reason and the diagnostic of a failed step (logged as an error and its details). */
  async diagnose({ spec }: StackStep, e: unknown): Promise<{ reason: string; diagnostic: Diagnostic }> {
    // A cancelled run reads nothing more: it says where it stopped and gets on with releasing the Lease.
    if (e instanceof RunCancelledError) {
      this.log.warning(`${spec.name}: ${e.message}`)
      return {
        reason: e.message,
        diagnostic: { step: spec.name, title: `${spec.name}: ${e.message}`, text: e.message }
      }
    }
    const ours =
      e instanceof ComponentStepFailure || e instanceof ApplyConflictError || e instanceof KubeRequestError
    const reason = ours ? (e as Error).message : messageOf(e)
    const diagnostic = await buildDiagnostic(this.client, {
      component: spec,
      reason,
      verdict: e instanceof ComponentStepFailure ? e.verdict : undefined,
      snapshot: e instanceof ComponentStepFailure ? e.snapshot : undefined,
      error: e
    }).catch(err => ({
      step: spec.name,
      title: `${spec.name}: ${reason}`,
      text: `${reason}\n(diagnostics incomplete: ${messageOf(err)})`
    }))
    const heldLines = await this.held
      ?.get(spec.name)
      ?.lines()
      .catch(() => [])
    if (heldLines?.length)
      diagnostic.text += `\nHeld nodes (cordoned or mid driver upgrade):\n${heldLines.map(l => `  ${l}`).join('\n')}`
    this.log.error(diagnostic.title)
    this.log.info(diagnostic.text)
    return { reason, diagnostic }
  }
}
