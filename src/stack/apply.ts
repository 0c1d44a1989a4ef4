// applyStack: the cluster half of `apply`, the cluster components walked sequentially or pipelined over one
// Run, always releasing the Lease it took. Docs: docs/design.md#five-walks-of-the-same-list, docs/rollout.md.
import { httpStatusOf, KubeRequestError, messageOf } from '../kube/errors.js'
import { kubeComponents, specOf } from '../components/index.js'
import { log as processLog } from '../log/index.js'
import { finishedStep } from '../report/report.js'
import { applyPipelined } from './pipelined.js'
import { Run } from './run.js'
import { applySequential } from './sequential.js'
import type { ApplyStackContext, ApplyStackResult, StackStep } from './types.js'
import { downgradeRefusal, VersionReadError, type Downgrade } from './downgrade.js'
import {
  applyNeedsPoolWrite,
  poolEntryOf,
  poolsLine,
  recordedPools,
  settingsWithPools,
  withPool,
  type PoolsContext
} from './pools.js'
import { managedPools, type PoolEntry } from './pool-record.js'
import { stackPoolNames } from '../model/stack-pools.js'
import type { Settings } from '../settings/settings.js'

/**
 * Converges the cluster components of the stack on the cluster of `kubeconfigPath`. Sequential
 * rollout waits for each to be ready on every RDMA node before the next; pipelined rollout writes
 * them in order and waits for all at once, per node.
 */
export async function applyStack(ctx: ApplyStackContext): Promise<ApplyStackResult> {
  const run = new Run(ctx, ctx.settings, ctx.log ?? processLog)
  const steps: StackStep[] = kubeComponents().map(component => ({
    component,
    spec: specOf(component, ctx.settings)
  }))
  const pools = new PoolJoin(run, ctx.settings, ctx.leavingPool)
  const useSettings = (next: Settings): void => {
    run.settings = next
    for (const step of steps) step.spec = specOf(step.component, next)
  }
  let result: ApplyStackResult
  try {
    // A downgrade is refused before anything is written (unless allow-downgrade says otherwise).
    let downgrades: Downgrade[]
    try {
      downgrades = await run.downgrades(steps)
    } catch (e) {
      if (!(e instanceof VersionReadError)) throw e
      return await unreadable(run, steps, e)
    }
    if (downgrades.length && !ctx.settings.stack.allowDowngrade) return refused(steps, downgrades)
    for (const d of downgrades)
      run.log.warning(
        `${d.component}: downgrading ${d.what} ${d.live} → ${d.desired} (allow-downgrade: true)`
      )
    // The managed pools, this run's among them (recorded before the first write that selects it).
    const joined = await pools.join().then(
      settings => ({ settings }),
      (e: unknown) => ({ failed: e })
    )
    if ('failed' in joined)
      result = withLeaseVerdict(
        run,
        poolsFailed(run, steps, joined.failed, 'not run: the managed pools were not recorded')
      )
    else {
      useSettings(joined.settings)
      // A write that waited for another run's Lease: that run may have added a pool meanwhile. The
      // steps already converged for the pools read before are converged again for the new ones.
      run.onLeaseTaken = async current => {
        const next = await pools.reread()
        if (stackKey(next) === stackKey(run.settings)) return
        run.log.info(poolsLine(stackPoolNames(run.settings), stackPoolNames(next)))
        useSettings(next)
        for (const step of steps.slice(0, steps.indexOf(current))) await run.converge(step, Date.now())
      }
      result = withLeaseVerdict(
        run,
        ctx.settings.wait.rollout === 'pipelined'
          ? await applyPipelined(run, steps)
          : await applySequential(run, steps)
      )
      if (result.ok)
        await pools.done().catch((e: unknown) => {
          const failed = poolsFailed(run, [], e, '')
          result = withLeaseVerdict(run, {
            ...result,
            ok: false,
            steps: [...result.steps, ...failed.steps],
            diagnostics: [...result.diagnostics, ...failed.diagnostics]
          })
        })
    }
  } finally {
    await run.releaseLease()
  }
  return run.leaseReleased ? { ...result, leaseReleased: true } : result
}

/** Why the pools could not be read or recorded: an API refusal as the other steps say it (what to grant on a 403). */
function poolsReason(e: unknown): string {
  const status = httpStatusOf(e)
  if (e instanceof KubeRequestError || status === undefined) return e instanceof Error ? e.message : String(e)
  return new KubeRequestError('record the managed pools (ownership record, Lease)', status, messageOf(e))
    .message
}

/** Reading or recording the managed pools failed (a lost Lease, a refused request): a `pools` step fails, the rest are not run. */
function poolsFailed(run: Run, steps: StackStep[], e: unknown, skipped: string): ApplyStackResult {
  const now = Date.now()
  const reason = poolsReason(e)
  run.log.error(`pools: ${reason}`)
  return {
    steps: [
      finishedStep('pools', 'failure', now, { detail: reason }, now),
      ...steps.map(({ spec }) => finishedStep(spec.name, 'skipped', now, { detail: skipped }, now))
    ],
    ok: false,
    diagnostics: [{ step: 'pools', title: `pools: ${reason}`, text: reason }]
  }
}

/** The run refused: the components that would be downgraded fail, naming both versions; the rest are not run. */
function refused(steps: StackStep[], found: Downgrade[]): ApplyStackResult {
  const now = Date.now()
  const message = downgradeRefusal(found)
  const first = found[0].component
  return {
    steps: steps.map(({ spec }) => {
      const d = found.find(x => x.component === spec.name)
      return d
        ? finishedStep(
            spec.name,
            'failure',
            now,
            { detail: `${d.what} ${d.live} → ${d.desired}: ${message}` },
            now
          )
        : finishedStep(spec.name, 'skipped', now, { detail: `not run: ${first} would be downgraded` }, now)
    }),
    ok: false,
    diagnostics: [{ step: first, title: 'Downgrade refused', text: message }]
  }
}

/** A version that could not be read: its component fails (diagnosed), the rest are not run; nothing was written. */
async function unreadable(run: Run, steps: StackStep[], e: VersionReadError): Promise<ApplyStackResult> {
  const now = Date.now()
  const step = steps.find(x => x.spec.name === e.component)!
  const { reason, diagnostic } = await run.diagnose(step, e)
  return {
    steps: steps.map(({ spec }) =>
      spec.name === e.component
        ? finishedStep(spec.name, 'failure', now, { detail: reason }, now)
        : finishedStep(spec.name, 'skipped', now, { detail: `not run: ${e.component} failed` }, now)
    ),
    ok: false,
    diagnostics: [diagnostic]
  }
}

/**
 * A run that lost its Lease on the way has not converged the cluster on its own, whatever its
 * steps say (another run was changing it meanwhile): it fails, naming the loss.
 */
function withLeaseVerdict(run: Run, result: ApplyStackResult): ApplyStackResult {
  const lost = run.lostLease
  if (!lost) return result
  const now = Date.now()
  return {
    steps: [...result.steps, finishedStep('lease', 'failure', now, { detail: lost.message }, now)],
    ok: false,
    diagnostics: [
      ...result.diagnostics,
      { step: 'lease', title: 'The run lost its Lease', text: lost.message }
    ]
  }
}

const stackKey = (s: Settings): string => JSON.stringify(s.stackPools ?? [])

/**
 * The run's pool joining the managed pools: read them (an earlier version's from its objects),
 * record the run's pool as pending under the Lease when it is not managed yet (or its taints or
 * VM size changed), and as managed once the stack is ready. Adding a pool never removes another.
 */
class PoolJoin {
  private readonly c: PoolsContext

  constructor(
    private readonly run: Run,
    private readonly base: Settings,
    private readonly leaving?: string
  ) {
    this.c = { record: run.record, kube: run.client, log: run.log, runId: base.runId }
  }

  private entry(state: PoolEntry['state']): PoolEntry {
    return poolEntryOf(this.base, state, { runId: this.base.runId, at: new Date().toISOString() })
  }

  async join(): Promise<Settings> {
    let read = await recordedPools(this.c)
    const before = managedPools(read)
    if (applyNeedsPoolWrite(this.base, read)) {
      if (await this.run.takeLease()) {
        this.run.record.invalidate()
        read = await recordedPools(this.c)
      }
      if (applyNeedsPoolWrite(this.base, read)) {
        const mine = read.pools.find(p => p.name === this.base.nodePool.name)
        const state = mine?.state === 'managed' ? 'managed' : 'pending'
        await this.run.confirmLease(`recording pool ${this.base.nodePool.name} in the ownership record`)
        const seen = read.pools
        // The pools as stored now (re-read on a conflict); a record without the key: what was proven.
        await this.run.record.changePools(current => withPool(current ?? seen, this.entry(state)))
        read = { pools: (await this.run.record.pools()) ?? [], legacy: false }
      }
    }
    const settings = settingsWithPools(this.base, read.pools)
    this.run.log.info(poolsLine(before, stackPoolNames(settings)))
    return settings
  }

  /** The settings with the pools as recorded now (after the Lease was taken). */
  async reread(): Promise<Settings> {
    return settingsWithPools(this.base, (await recordedPools(this.c)).pools)
  }

  /** The stack is ready on the run's pool: a pending entry becomes managed; a pool taken out is dropped. */
  async done(): Promise<void> {
    const recorded = (await this.run.record.pools()) ?? []
    const gone = recorded.find(p => p.name === this.leaving && p.state === 'leaving')
    if (gone) {
      await this.run.takeLease()
      await this.run.confirmLease(`dropping pool ${gone.name} from the ownership record`)
      await this.run.record.changePools(current =>
        (current ?? []).filter(p => !(p.name === gone.name && p.state === 'leaving'))
      )
      this.run.log.info(`pool ${gone.name} dropped from the managed pools`)
    }
    const mine = recorded.find(p => p.name === this.base.nodePool.name)
    if (mine?.state !== 'pending') return
    await this.run.confirmLease(`recording pool ${this.base.nodePool.name} as managed`)
    await this.run.record.changePools(current =>
      (current ?? []).map(p =>
        p.name === this.base.nodePool.name && p.state === 'pending' ? { ...p, state: 'managed' as const } : p
      )
    )
    this.run.log.info(`pool ${this.base.nodePool.name} recorded as managed`)
  }
}
