// Registers the AKS InfiniBand preview feature and re-registers the resource provider; no write when
// already registered. A feature that stays Pending fails the step: docs/troubleshooting.md.
import { describeArmError } from './arm-errors.js'
import type { ArmClients } from './clients.js'
import type { Log } from '../log/index.js'
import { FEATURE } from '../model/azure-resources.js'
import { formatDuration } from '../util/duration.js'
import { pollUntil, retryAfterMs, type Backoff } from './wait.js'

export const FEATURE_NAMESPACE = FEATURE.namespace
export const FEATURE_NAME = FEATURE.name

export interface FeatureResult {
  /** True when this run registered the feature or the provider. */
  changed: boolean
  /** The feature's final state as ARM spells it. */
  state: string
  providerState?: string
}

export interface FeatureOptions {
  log: Log
  /** Bound of the whole step (settings.wait.stepTimeoutMs). */
  timeoutMs: number
  /** Poll backoff (default 10 s growing to 60 s). */
  backoff?: Backoff
  /** How long a `Pending` feature is polled before the step fails (default PENDING_GRACE_MS). */
  pendingGraceMs?: number
}

/** A `Pending` feature is given this long (from the first time it is seen) to move on. */
export const PENDING_GRACE_MS = 2 * 60_000

/** What to do about a feature that awaits approval (the error's advice). */
export const APPROVAL_ADVICE = `The feature awaits approval by Microsoft for this subscription (state Pending); registration continues in the background. Ask through your Azure account team or a support request to approve ${FEATURE_NAME}, then re-run.`

/** The feature stayed `Pending` (awaiting approval) for the whole grace. */
export class FeaturePendingError extends Error {
  constructor(
    readonly step: string,
    readonly pendingMs: number
  ) {
    super(`${step}: still Pending after ${formatDuration(pendingMs)}. ${APPROVAL_ADVICE}`)
    this.name = 'FeaturePendingError'
  }
}

const same = (a: string | undefined, b: string): boolean => (a ?? '').toLowerCase() === b.toLowerCase()

/** States in which registering again would do nothing. */
const IN_FLIGHT = ['registering', 'pending']

/** Makes sure the feature and the provider are Registered; returns whether anything was written. */
export async function ensureInfinibandFeature(
  clients: ArmClients,
  o: FeatureOptions
): Promise<FeatureResult> {
  const backoff = o.backoff ?? { initialMs: 10_000, maxMs: 60_000, factor: 1.5 }
  const step = `feature ${FEATURE_NAMESPACE}/${FEATURE_NAME}`
  const started = Date.now()
  let hint: number | undefined
  const read = async (): Promise<string> => {
    try {
      hint = undefined
      const f = await clients.features.features.get(FEATURE_NAMESPACE, FEATURE_NAME, {
        onResponse: raw => (hint = retryAfterMs(raw.headers))
      })
      return f.properties?.state ?? 'NotSpecified'
    } catch (e) {
      throw new Error(`${step}: reading the feature failed: ${describeArmError(e)}`)
    }
  }
  const register = async (): Promise<void> => {
    try {
      await clients.features.features.register(FEATURE_NAMESPACE, FEATURE_NAME)
    } catch (e) {
      throw new Error(
        `${step}: registering failed: ${describeArmError(e)}. Registering a feature needs Microsoft.Features/* (Contributor or Owner on the subscription).`
      )
    }
  }

  let changed = false
  let state = await read()
  if (same(state, 'Registered')) {
    o.log.info(`${step}: already Registered`)
  } else {
    o.log.info(`${step}: ${state}; registering`)
    if (!IN_FLIGHT.includes(state.toLowerCase())) {
      await register()
      changed = true
    }
    const r = await pollUntil({
      step,
      timeoutMs: o.timeoutMs,
      startedAt: started,
      backoff,
      log: o.log,
      probe: async () => {
        const s = await read()
        return { done: same(s, 'Registered'), state: s, value: s, retryAfterMs: hint }
      },
      // Registration can fall back (Unregistered) if someone else unregisters meanwhile.
      onState: async s => {
        if (['notregistered', 'unregistered', 'notspecified'].includes(s.toLowerCase())) {
          await register()
          changed = true
        }
      },
      // Approval takes days: fail soon with the advice rather than at the step timeout.
      stuck: {
        state: 'Pending',
        graceMs: o.pendingGraceMs ?? PENDING_GRACE_MS,
        error: ms => new FeaturePendingError(step, ms)
      },
      timeoutHint: last =>
        same(last, 'Pending')
          ? APPROVAL_ADVICE
          : `Check with: az feature show --namespace ${FEATURE_NAMESPACE} --name ${FEATURE_NAME}`
    })
    state = r.value ?? 'Registered'
  }

  const providerState = await ensureProvider(
    clients,
    { ...o, backoff, timeoutMs: Math.max(0, o.timeoutMs - (Date.now() - started)) },
    changed
  )
  return { changed: changed || providerState.changed, state, providerState: providerState.state }
}

/**
 * Re-registers Microsoft.ContainerService after a feature change (needed for the feature to take
 * effect) or when it is not registered; otherwise only reads it.
 */
async function ensureProvider(
  clients: ArmClients,
  o: Required<Pick<FeatureOptions, 'backoff'>> & FeatureOptions,
  force: boolean
): Promise<{ changed: boolean; state: string }> {
  const step = `provider ${FEATURE_NAMESPACE}`
  let hint: number | undefined
  const read = async (): Promise<string> => {
    try {
      hint = undefined
      const p = await clients.resources.providers.get(FEATURE_NAMESPACE, {
        onResponse: raw => (hint = retryAfterMs(raw.headers))
      })
      return p.registrationState ?? 'Unknown'
    } catch (e) {
      throw new Error(`${step}: reading the provider failed: ${describeArmError(e)}`)
    }
  }
  if (!force) {
    const s = await read()
    if (same(s, 'Registered')) return { changed: false, state: s }
  }
  o.log.info(`${step}: registering`)
  try {
    await clients.resources.providers.register(FEATURE_NAMESPACE)
  } catch (e) {
    throw new Error(`${step}: registering failed: ${describeArmError(e)}`)
  }
  const r = await pollUntil({
    step,
    timeoutMs: o.timeoutMs,
    backoff: o.backoff,
    log: o.log,
    probe: async () => {
      const s = await read()
      return { done: same(s, 'Registered'), state: s, value: s, retryAfterMs: hint }
    }
  })
  return { changed: true, state: r.value ?? 'Registered' }
}
