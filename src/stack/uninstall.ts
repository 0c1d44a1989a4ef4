// uninstallStack: the cluster half of `uninstall`, the stack walked in reverse (removal.ts), removing only
// what the ownership record proves. Docs: docs/day-two.md#uninstalling, docs/multiple-pools.md.
import { uninstallPlan, type RemovableObject, type RemovalPlan } from '../components/removal.js'
import type { SourceSpec } from '../health/types.js'
import { KubeClient } from '../kube/client.js'
import { isKindNotServed, messageOf } from '../kube/errors.js'
import { describeRef, type KubeObject } from '../kube/types.js'
import { watchUntil, WatchTimeoutError } from '../kube/watch.js'
import { log as processLog, type Log } from '../log/index.js'
import { finishedStep, type Diagnostic, type ReportStep } from '../report/report.js'
import { LABELS } from '../model/types.js'
import type { Settings } from '../settings/settings.js'
import { formatDuration } from '../util/duration.js'
import { shortValue } from '../util/text.js'
import type { HelmReleaseStatus } from '../helm/index.js'
import { createHelmReleases, type HelmReleases } from './helm-release.js'
import { OwnershipRecord, proofOfObject, proofOfRelease, releaseRef } from './ownership.js'
import { RunLease } from './run-lease.js'
import type { ApplyStackResult } from './types.js'
import { applyStack } from './apply.js'
import { recordedPools, withPool } from './pools.js'
import { stackPoolsOf, taintOf, type PoolEntry } from './pool-record.js'

/** Why a container waits for an image it cannot get. */
const UNPULLABLE = new Set(['ErrImagePull', 'ImagePullBackOff'])
interface ContainerStatusLike {
  image?: string
  state?: { waiting?: { reason?: string } }
}

export interface UninstallStackContext {
  settings: Settings
  kubeconfigPath: string
  log?: Log
  /** Absolute end of the whole run (epoch ms); default: now + settings.wait.timeoutMs. */
  deadline?: number
  leaseDurationSeconds?: number
  retryBaseDelayMs?: number
}

/** What one part has on the cluster now, and what of it is the action's. */
export interface Found {
  /** Its objects the record proves the action's (`how`: the proof, in words). */
  objects: Array<{ target: RemovableObject; live: KubeObject; how: string }>
  /** The release the action installed or adopted: `<chart> <version>`. */
  release?: string
  /** Why the release is the action's to remove, in words. */
  releaseHow?: string
  /** The release is a hand-installed one of the same chart, removed because adopt-releases says so. */
  adopted?: boolean
  namespaces: Array<{ target: RemovableObject; live: KubeObject; how: string }>
  /** Leftovers still there (what its operator ran). */
  leftovers: Array<{ source: SourceSpec; count: number }>
  /** Kept (not the action's): what, and why. */
  kept: Array<{ what: string; why: string }>
}

/** A kept thing as the log and the report say it. */
export const keptLine = (k: { what: string; why: string }): string => `${k.what} kept: ${k.why}`

/**
 * For an object kept that carries a created-by label (set by a version of the action without the
 * ownership record, or by someone else): how to delete it by hand if it is the user's to remove.
 */
function labelHint(target: RemovableObject, live: KubeObject): string {
  const v = live.metadata.labels?.[LABELS.createdBy]
  if (v === undefined) return ''
  const ns = target.namespace ? ` -n ${target.namespace}` : ''
  return `; its label ${LABELS.createdBy}=${shortValue(v, 63)} proves nothing; if it is yours to remove: kubectl delete ${target.kind.toLowerCase()} ${target.name}${ns}`
}

/** What observing a part reads with: nothing here writes. */
export interface RemovalReaders {
  client: Pick<KubeClient, 'get' | 'list'>
  helmStatus(release: string, namespace: string): Promise<HelmReleaseStatus | undefined>
  record: Pick<OwnershipRecord, 'find' | 'findRelease'>
  adoptReleases: boolean
}

async function liveOf(
  r: RemovalReaders,
  targets: RemovableObject[],
  kept: Found['kept']
): Promise<Found['objects']> {
  const out: Found['objects'] = []
  for (const target of targets) {
    const live = await r.client.get(target).catch(e => {
      // A kind not served (its CRD never installed, or removed) has no objects.
      if (isKindNotServed(e)) return undefined
      throw e
    })
    if (!live) continue
    const proof = proofOfObject(await r.record.find(target), live)
    if (proof.owned) out.push({ target, live, how: proof.how })
    else
      kept.push({
        what: describeRef(target),
        why: `not created by the action (${proof.why})${labelHint(target, live)}`
      })
  }
  return out
}

async function count(r: RemovalReaders, src: SourceSpec): Promise<number> {
  try {
    const { items } = await r.client.list(src.apiVersion, src.kind, {
      namespace: src.namespace,
      labelSelector: src.labelSelector
    })
    return items.length
  } catch (e) {
    // A custom resource whose CRD is gone has none.
    if (isKindNotServed(e)) return 0
    throw e
  }
}

/**
 * What one part has on the cluster and what of it is the action's, reading only (GETs, lists,
 * `helm status`): uninstall acts on it, and `uninstall --dry-run` shows it.
 */
export async function observeRemoval(r: RemovalReaders, p: RemovalPlan): Promise<Found> {
  const kept: Found['kept'] = []
  const objects = await liveOf(r, p.objects, kept)
  let release: string | undefined
  let releaseHow: string | undefined
  let adopted = false
  if (p.release) {
    const { release: name, namespace, chart } = p.release
    const where = `${name} -n ${namespace}`
    const st = await r.helmStatus(name, namespace)
    const proof = st && proofOfRelease(await r.record.findRelease(name, namespace), st)
    if (st && st.chartName !== chart)
      kept.push({ what: `helm release ${where}`, why: `it runs chart ${st.chartName}, not ${chart}` })
    else if (st && proof && !proof.owned && !r.adoptReleases)
      kept.push({
        what: `helm release ${where}`,
        why: `not installed by the action (${proof.why}); remove it with helm uninstall ${where}, or let uninstall do it with adopt-releases: true`
      })
    else if (st && proof) {
      release = `${st.chartName} ${st.chartVersion}`
      adopted = !proof.owned
      releaseHow = proof.owned
        ? proof.how
        : `not installed by the action (${proof.why}), taken over because adopt-releases is true`
    }
  }
  const namespaces = await liveOf(r, p.namespaces, kept)
  const leftovers: Found['leftovers'] = []
  // What runs beside something kept is not the action's to wait for (it would never go).
  if (!kept.length)
    for (const source of p.leftovers) {
      const n = await count(r, source)
      if (n) leftovers.push({ source, count: n })
    }
  return {
    objects,
    ...(release ? { release, releaseHow } : {}),
    ...(adopted ? { adopted } : {}),
    namespaces,
    leftovers,
    kept
  }
}

const nothingToDo = (f: Found): boolean =>
  !f.objects.length && !f.release && !f.namespaces.length && !f.leftovers.length

class Uninstall {
  readonly client: KubeClient
  private readonly helm: HelmReleases
  readonly lease: RunLease
  readonly record: OwnershipRecord
  readonly deadline: number

  constructor(
    readonly ctx: UninstallStackContext,
    readonly log: Log
  ) {
    const s = ctx.settings
    this.deadline = ctx.deadline ?? Date.now() + s.wait.timeoutMs
    this.client = KubeClient.fromFile(ctx.kubeconfigPath, {
      retries: s.wait.retries,
      backoffBaseMs: ctx.retryBaseDelayMs,
      log
    })
    this.helm = createHelmReleases(s, ctx.kubeconfigPath, log)
    this.record = OwnershipRecord.of(this.client, s.runId)
    this.lease = new RunLease(this.client, {
      holder: s.runId,
      leaseDurationSeconds: ctx.leaseDurationSeconds,
      deadline: this.deadline,
      log
    })
  }

  get lostLease() {
    return this.lease.lost
  }

  release(): Promise<void> {
    return this.lease.release()
  }

  /** True once this run took the Lease and gave it back itself. */
  get leaseReleased(): boolean {
    return this.lease.released
  }

  /** What is there, reading only. */
  observe(p: RemovalPlan): Promise<Found> {
    return observeRemoval(
      {
        client: this.client,
        helmStatus: (name, namespace) => this.helm.status(name, namespace),
        record: this.record,
        adoptReleases: this.ctx.settings.stack.adoptReleases
      },
      p
    )
  }

  /** Watches until nothing matches `src` (a deleted object: its name; leftovers: their selector). */
  private async waitGone(src: SourceSpec & { name: string }, fieldSelector?: string): Promise<void> {
    const what = `${src.kind.toLowerCase()}${fieldSelector ? ` ${fieldSelector.replace('metadata.name=', '')}` : `s ${src.labelSelector ?? ''}`}${src.namespace ? ` -n ${src.namespace}` : ''}`
    try {
      await watchUntil(
        this.client.watchSource(src.apiVersion, src.kind, {
          namespace: src.namespace,
          labelSelector: src.labelSelector,
          fieldSelector,
          name: src.name
        }),
        objects => ({
          done: objects.length === 0,
          message: `waiting for ${what} to be gone (${objects.length} left)`
        }),
        {
          timeoutMs: Math.max(
            0,
            Math.min(this.deadline, Date.now() + this.ctx.settings.wait.stepTimeoutMs) - Date.now()
          ),
          onChange: v => this.log.progress(src.name, v.message ?? '')
        }
      )
    } catch (e) {
      if (e instanceof WatchTimeoutError)
        throw new Error(`${what} still there after ${formatDuration(e.timeoutMs)}: ${e.message}`)
      throw e
    } finally {
      // The wait is over: its live line ends here, before the lines that report its outcome.
      this.log.progress(src.name, '')
    }
  }

  private async deleteAndWait(o: { target: RemovableObject; live: KubeObject }): Promise<string> {
    const what = describeRef(o.target)
    await this.lease.confirm(`deleting ${what}`)
    const deleted = await this.client.deleteObject(o.target, o.live.metadata.uid)
    await this.waitGone(
      {
        name: o.target.name,
        apiVersion: o.target.apiVersion,
        kind: o.target.kind,
        namespace: o.target.namespace
      },
      `metadata.name=${o.target.name}`
    )
    await this.lease.confirm(`updating the ownership record for ${what}`)
    await this.record.forget(o.target)
    const line = `${what} ${deleted ? 'deleted' : 'already gone'}`
    this.log.info(line)
    return line
  }

  /**
   * The pods of a namespace whose image cannot be pulled (ErrImagePull, ImagePullBackOff), as
   * `pod (image, reason)`: a chart's pre-delete hook Job among them makes `helm uninstall` wait for
   * a hook that never runs (NVIDIA's GPU Operator uninstall docs: its cleanup hook runs the operator
   * image). Best effort: a failed read finds none.
   */
  private async unpullablePods(namespace: string): Promise<string[]> {
    try {
      const { items } = await this.client.list('v1', 'Pod', { namespace })
      return items.flatMap(pod => {
        const statuses = [
          ...((pod.status?.initContainerStatuses ?? []) as ContainerStatusLike[]),
          ...((pod.status?.containerStatuses ?? []) as ContainerStatusLike[])
        ]
        const stuck = statuses.find(c => UNPULLABLE.has(c.state?.waiting?.reason ?? ''))
        return stuck
          ? [`pod ${pod.metadata.name} (${stuck.image ?? '?'}, ${stuck.state!.waiting!.reason})`]
          : []
      })
    } catch {
      return []
    }
  }

  /** Removes what observe found, in order; `done` gets a line per removal as it happens (a failure keeps them). */
  async act(p: RemovalPlan, f: Found, done: string[]): Promise<void> {
    for (const o of f.objects) done.push(await this.deleteAndWait(o))
    if (p.release && f.release) {
      await this.lease.confirm(`helm uninstall ${p.release.release}`)
      const timeoutMs = Math.max(
        1000,
        Math.min(this.deadline, Date.now() + this.ctx.settings.wait.stepTimeoutMs) - Date.now()
      )
      let removed: boolean
      try {
        removed = await this.helm.uninstall(p.release.release, p.release.namespace, timeoutMs)
      } catch (e) {
        const stuck = await this.unpullablePods(p.release.namespace)
        if (!stuck.length) throw e
        const where = `${p.release.release} -n ${p.release.namespace}`
        throw new Error(
          `${messageOf(e)}; ${stuck.join(', ')} cannot pull its image: a pre-delete hook that cannot run keeps helm uninstall waiting until it times out. ` +
            `Check what the hook does, then finish with \`helm uninstall ${where} --no-hooks\` and run uninstall again`
        )
      }
      await this.lease.confirm(`updating the ownership record for helm release ${p.release.release}`)
      await this.record.forget(releaseRef(p.release.release, p.release.namespace))
      done.push(
        `helm release ${p.release.release} (${f.release})${f.adopted ? ' adopted (installed by hand; adopt-releases) and' : ''} ${removed ? 'uninstalled' : 'already gone'}`
      )
    }
    // Before its namespace: what the operator ran there must be gone first.
    if (!f.kept.length) for (const l of p.leftovers) await this.waitGone(l)
    if (f.leftovers.length)
      done.push(
        `${f.leftovers.map(l => `${l.count} ${l.source.name}`).join(', ')} gone${p.note ? ` (${p.note})` : ''}`
      )
    for (const n of f.namespaces) done.push(await this.deleteAndWait(n))
  }

  /** One part: observe; nothing there → nothing to do; else take the Lease and remove it. */
  async step(p: RemovalPlan): Promise<{ result: ReportStep; diagnostic?: Diagnostic }> {
    const started = Date.now()
    this.log.startGroup(`${p.name}: remove ${p.title}`)
    const details: string[] = []
    try {
      let found = await this.observe(p)
      for (const k of found.kept) this.log.info(`${p.name}: ${keptLine(k)}`)
      if (nothingToDo(found)) {
        const detail = ['nothing to remove', ...found.kept.map(keptLine)].join('; ')
        this.log.info(`${p.name}: ${detail}`)
        return {
          result: finishedStep(p.name, 'success', started, { changed: false, action: 'unchanged', detail })
        }
      }
      // Another run may have changed it (or the record) while this one waited for the Lease.
      if (await this.lease.ensure()) {
        this.record.invalidate()
        found = await this.observe(p)
      }
      await this.act(p, found, details)
      const changed = details.length > 0
      return {
        result: finishedStep(p.name, 'success', started, {
          changed,
          action: changed ? 'deleted' : 'unchanged',
          detail: [...details, ...found.kept.map(keptLine)].join('; ') || 'nothing to remove'
        })
      }
    } catch (e) {
      const reason = messageOf(e)
      this.log.error(`${p.name}: ${reason}`)
      return {
        result: finishedStep(p.name, 'failure', started, {
          changed: details.length > 0,
          detail: [...details, reason].join('; ')
        }),
        diagnostic: { step: p.name, title: `${p.name}: ${reason}`, text: [...details, reason].join('\n') }
      }
    } finally {
      this.log.endGroup()
    }
  }
}

/**
 * Removes from the cluster of `kubeconfigPath` what the action installed, in the reverse of the
 * stack's order; a failed part stops the run (the rest are reported as not run). Always releases
 * the Lease it took; a run that lost it fails.
 */
export async function uninstallStack(ctx: UninstallStackContext): Promise<ApplyStackResult> {
  const u = new Uninstall(ctx, ctx.log ?? processLog)
  const steps: ReportStep[] = []
  const diagnostics: Diagnostic[] = []
  let failed: string | undefined
  try {
    let others: OtherPools | undefined
    try {
      others = await otherPools(u)
    } catch (e) {
      // Which pools remain decides whether anything may be removed: unread, nothing is.
      const reason = `the managed pools could not be read from the ownership record: ${messageOf(e)}; nothing removed`
      u.log.error(`pools: ${reason}`)
      steps.push(finishedStep('pools', 'failure', Date.now(), { detail: reason }))
      diagnostics.push({ step: 'pools', title: `pools: ${reason}`, text: reason })
      failed = 'pools'
    }
    if (others) return await leavePool(u, others)
    for (const p of uninstallPlan(ctx.settings)) {
      const now = Date.now()
      if (failed) {
        steps.push(finishedStep(p.name, 'skipped', now, { detail: `not run: ${failed} failed` }, now))
        continue
      }
      const { result, diagnostic } = await u.step(p)
      steps.push(result)
      if (diagnostic) diagnostics.push(diagnostic)
      if (result.status === 'failure') failed = p.name
    }
    if (!failed) await forgetPools(u)
  } finally {
    await u.release()
  }
  const lost = u.lostLease
  if (lost) {
    const now = Date.now()
    steps.push(finishedStep('lease', 'failure', now, { detail: lost.message }, now))
    diagnostics.push({ step: 'lease', title: 'The run lost its Lease', text: lost.message })
  }
  return {
    steps,
    diagnostics,
    ok: failed === undefined && !lost,
    ...(u.leaseReleased ? { leaseReleased: true } : {})
  }
}

/** What the run's pool leaves behind when other managed pools remain: undefined when it is the last (or none is recorded). */
interface OtherPools {
  pools: PoolEntry[]
  /** The run's pool as recorded (absent: not one of the managed pools). */
  mine?: PoolEntry
  remaining: PoolEntry[]
}

/** The managed pools other than the run's, read (an earlier version's taken from its objects). */
async function readOthers(u: Uninstall): Promise<OtherPools | undefined> {
  const s = u.ctx.settings
  const { pools } = await recordedPools({ record: u.record, kube: u.client, log: u.log, runId: s.runId })
  const remaining = pools.filter(p => p.name !== s.nodePool.name && p.state !== 'leaving')
  if (!remaining.length) return undefined
  const mine = pools.find(p => p.name === s.nodePool.name)
  return { pools, remaining, ...(mine ? { mine } : {}) }
}

/** Other managed pools remain: read again under the Lease when the run's pool is to be taken out. */
async function otherPools(u: Uninstall): Promise<OtherPools | undefined> {
  const first = await readOthers(u)
  if (!first?.mine) return first
  if (await u.lease.ensure()) u.record.invalidate()
  return readOthers(u)
}

/**
 * Takes the run's pool out: recorded leaving (under the Lease), then the cluster-wide objects
 * applied again for the remaining pools (waited for on the first of them); the entry is dropped
 * once they are ready. A pool that is not managed changes nothing.
 */
async function leavePool(u: Uninstall, o: OtherPools): Promise<ApplyStackResult> {
  const s = u.ctx.settings
  const started = Date.now()
  const names = o.remaining.map(p => p.name).sort()
  if (!o.mine) {
    const detail = `pool ${s.nodePool.name} is not one of the managed pools (${names.join(', ')}): the stack stays and nothing is removed`
    u.log.warning(detail)
    await u.release()
    return {
      steps: [finishedStep('pools', 'success', started, { changed: false, action: 'unchanged', detail })],
      diagnostics: [],
      ok: true,
      ...(u.leaseReleased ? { leaseReleased: true } : {})
    }
  }
  await u.lease.confirm(`recording pool ${s.nodePool.name} as leaving`)
  const mine = o.mine
  await u.record.changePools(current => withPool(current ?? o.pools, { ...mine, state: 'leaving' }))
  const line = `pool ${s.nodePool.name} taken out of the managed pools; the stack stays for ${names.join(', ')} (its objects select them only now: the driver pods on ${s.nodePool.name} stop and unload their drivers)`
  u.log.info(line)
  // The apply takes the Lease itself (same run): this one gives it back first.
  await u.release()
  const next = o.remaining.slice().sort((a, b) => (a.name < b.name ? -1 : 1))[0]
  const settings = {
    ...s,
    mode: 'apply' as const,
    nodePool: {
      ...s.nodePool,
      name: next.name,
      taints: next.taints.map(taintOf),
      ...(next.vmSize ? { vmSize: next.vmSize } : {})
    },
    stackPools: stackPoolsOf(o.remaining)
  }
  const applied = await applyStack({
    settings,
    kubeconfigPath: u.ctx.kubeconfigPath,
    log: u.log,
    deadline: u.deadline,
    leavingPool: s.nodePool.name,
    ...(u.ctx.leaseDurationSeconds ? { leaseDurationSeconds: u.ctx.leaseDurationSeconds } : {}),
    ...(u.ctx.retryBaseDelayMs !== undefined ? { retryBaseDelayMs: u.ctx.retryBaseDelayMs } : {})
  })
  return {
    ...applied,
    steps: [
      finishedStep('pools', 'success', started, { changed: true, action: 'updated', detail: line }),
      ...applied.steps
    ],
    ...(applied.leaseReleased || u.leaseReleased ? { leaseReleased: true } : {})
  }
}

/** The stack is gone: the managed pools with it (the record goes once nothing is left in it). */
async function forgetPools(u: Uninstall): Promise<void> {
  u.record.invalidate()
  if (!(await u.record.pools())?.length) return
  await u.lease.ensure()
  await u.lease.confirm('dropping the managed pools from the ownership record')
  await u.record.changePools(() => [])
  u.log.info('the managed pools dropped from the ownership record with the stack')
}
