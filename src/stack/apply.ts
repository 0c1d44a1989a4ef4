// applyStack: the cluster half of `apply`. Walks the cluster components of the registry
// (network-operator → gpu-operator; the Azure ones come before, in the run flow) with the rollout
// the settings ask for — sequential (sequential.ts) or pipelined (pipelined.ts) — over one Run
// (run.ts), and always releases the Lease the run took. A run that lost its Lease fails.
import { kubeComponents, specOf } from '../components/index.js'
import { log as processLog } from '../log/index.js'
import { finishedStep } from '../report/report.js'
import { applyPipelined } from './pipelined.js'
import { Run } from './run.js'
import { applySequential } from './sequential.js'
import type { ApplyStackContext, ApplyStackResult, StackStep } from './types.js'
import { downgradeRefusal, VersionReadError, type Downgrade } from './downgrade.js'

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
    result = withLeaseVerdict(
      run,
      ctx.settings.wait.rollout === 'pipelined'
        ? await applyPipelined(run, steps)
        : await applySequential(run, steps)
    )
  } finally {
    await run.releaseLease()
  }
  return run.leaseReleased ? { ...result, leaseReleased: true } : result
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
