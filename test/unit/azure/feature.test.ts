// The InfiniBand feature step (ensureInfinibandFeature) over an in-memory ARM whose feature and
// resource provider move as ARM's do (NotRegistered → Registering → Registered after a register;
// Pending when the feature awaits Microsoft's approval): no write when all is Registered, the
// register and re-register of the provider after a change, a registration someone undoes while it
// is polled, the Pending grace and its FeaturePendingError, Retry-After, the timeouts and their
// hints, and each failure quoted. Date.now is a fake clock each GET advances; the polls sleep 1 ms.
import { describe, expect, it } from '@jest/globals'
import type { ArmClients } from '../../../src/azure/clients.js'
import {
  APPROVAL_ADVICE,
  ensureInfinibandFeature,
  FEATURE_NAME,
  FEATURE_NAMESPACE,
  FeaturePendingError,
  PENDING_GRACE_MS,
  type FeatureOptions
} from '../../../src/azure/feature.js'
import { AzureWaitTimeoutError } from '../../../src/azure/wait.js'
import { captureLog, type CapturedLog } from '../../support/capture-log.js'
import { armFail } from '../../support/arm-errors.js'
import { useFixedNow } from '../../support/fixed-now.js'

const F = 'feature Microsoft.ContainerService/AKSInfinibandSupport'
const P = 'provider Microsoft.ContainerService'
const FAST = { initialMs: 1, maxMs: 1 }

const now = useFixedNow(1_000_000)

interface ArmOptions {
  /** The feature's state (undefined: a feature without properties.state). Default NotRegistered. */
  feature?: string | null
  /** A register moves the feature to Pending, where it stays (approval needed). */
  approval?: boolean
  /** GETs that still see Registering (after a register, or from the start), before Registered. Default 1. */
  registeringReads?: number
  /** Someone else sets the feature's state just before the given GET (1-based, counting all feature GETs). */
  meddle?: Record<number, string>
  /** Spell Registered this way once reached. */
  registeredAs?: string
  featureGetError?: Error
  featureRegisterError?: Error
  /** Retry-After header of the feature's GETs. */
  retryAfter?: string
  /** The provider's registrationState (null: none). Default Registered. */
  provider?: string | null
  providerRegisteringReads?: number
  providerRegisteredAs?: string
  providerGetError?: Error
  providerRegisterError?: Error
  providerRetryAfter?: string
  /** Each GET takes this long on the fake clock. */
  readMs?: number
}

function arm(o: ArmOptions = {}) {
  const calls: string[] = []
  let feature: string | undefined = o.feature === null ? undefined : (o.feature ?? 'NotRegistered')
  let featureLeft = o.registeringReads ?? 1
  let featureReads = 0
  let provider: string | undefined = o.provider === null ? undefined : (o.provider ?? 'Registered')
  let providerLeft = o.providerRegisteringReads ?? 1
  const headers = (v: string | undefined) => ({
    get: (name: string) => (name.toLowerCase() === 'retry-after' ? v : undefined)
  })
  type Opts = { onResponse?: (raw: { headers: ReturnType<typeof headers> }) => void }
  const clients = {
    subscriptionId: 'sub-1',
    features: {
      features: {
        get: async (ns: string, name: string, opts?: Opts) => {
          calls.push(`GET feature ${ns}/${name}`)
          now.ms += o.readMs ?? 0
          featureReads++
          const m = o.meddle?.[featureReads]
          if (m !== undefined) feature = m
          if (o.featureGetError) throw o.featureGetError
          if (feature === 'Registering') {
            if (featureLeft <= 0) feature = o.registeredAs ?? 'Registered'
            featureLeft--
          }
          opts?.onResponse?.({ headers: headers(o.retryAfter) })
          return { name: `${ns}/${name}`, properties: feature === undefined ? undefined : { state: feature } }
        },
        register: async (ns: string, name: string) => {
          calls.push(`POST feature ${ns}/${name} register`)
          if (o.featureRegisterError) throw o.featureRegisterError
          feature = o.approval ? 'Pending' : 'Registering'
          featureLeft = o.registeringReads ?? 1
          return { properties: { state: feature } }
        }
      }
    },
    resources: {
      providers: {
        get: async (ns: string, opts?: Opts) => {
          calls.push(`GET provider ${ns}`)
          now.ms += o.readMs ?? 0
          if (o.providerGetError) throw o.providerGetError
          if (provider === 'Registering') {
            if (providerLeft <= 0) provider = o.providerRegisteredAs ?? 'Registered'
            providerLeft--
          }
          opts?.onResponse?.({ headers: headers(o.providerRetryAfter) })
          return { namespace: ns, registrationState: provider }
        },
        register: async (ns: string) => {
          calls.push(`POST provider ${ns} register`)
          if (o.providerRegisterError) throw o.providerRegisterError
          provider = 'Registering'
          providerLeft = o.providerRegisteringReads ?? 1
          return { namespace: ns, registrationState: provider }
        }
      }
    }
  } as unknown as ArmClients
  return { clients, calls }
}

const GET_F = `GET feature ${FEATURE_NAMESPACE}/${FEATURE_NAME}`
const REG_F = `POST feature ${FEATURE_NAMESPACE}/${FEATURE_NAME} register`
const GET_P = `GET provider ${FEATURE_NAMESPACE}`
const REG_P = `POST provider ${FEATURE_NAMESPACE} register`

const opts = (log: CapturedLog, more: Partial<FeatureOptions> = {}): FeatureOptions => ({
  log,
  timeoutMs: 600_000,
  backoff: FAST,
  ...more
})

/** The step's result with feature and provider Registered. */
const registered = (changed: boolean) => ({ changed, state: 'Registered', providerState: 'Registered' })

/** Runs the step to its timeout after `timeoutMs`: an AzureWaitTimeoutError; its message. */
async function timedOut(a: ReturnType<typeof arm>, timeoutMs: number): Promise<string> {
  const err = await ensureInfinibandFeature(a.clients, opts(captureLog(), { timeoutMs })).catch(e => e)
  expect(err).toBeInstanceOf(AzureWaitTimeoutError)
  return err.message
}

describe('the constants', () => {
  it('names the feature, the grace and the advice', () => {
    expect(FEATURE_NAMESPACE).toBe('Microsoft.ContainerService')
    expect(FEATURE_NAME).toBe('AKSInfinibandSupport')
    expect(PENDING_GRACE_MS).toBe(120_000)
    expect(APPROVAL_ADVICE).toBe(
      'The feature awaits approval by Microsoft for this subscription (state Pending); registration continues in the background. Ask through your Azure account team or a support request to approve AKSInfinibandSupport, then re-run.'
    )
    const e = new FeaturePendingError('step x', 90_000)
    expect(e.name).toBe('FeaturePendingError')
    expect(e.step).toBe('step x')
    expect(e.pendingMs).toBe(90_000)
    expect(e.message).toBe(`step x: still Pending after 1m30s. ${APPROVAL_ADVICE}`)
  })
})

describe('ensureInfinibandFeature: nothing to do', () => {
  it('feature and provider Registered: two reads, no write', async () => {
    const a = arm({ feature: 'Registered' })
    const log = captureLog()
    expect(await ensureInfinibandFeature(a.clients, opts(log))).toEqual(registered(false))
    expect(a.calls).toEqual([GET_F, GET_P])
    expect(log.lines).toEqual([`info: ${F}: already Registered`])
  })

  it('states compare case-insensitively', async () => {
    const a = arm({ feature: 'registered', provider: 'REGISTERED' })
    const log = captureLog()
    expect(await ensureInfinibandFeature(a.clients, opts(log))).toEqual({
      changed: false,
      state: 'registered',
      providerState: 'REGISTERED'
    })
    expect(a.calls).toEqual([GET_F, GET_P])
  })
})

describe('ensureInfinibandFeature: registering', () => {
  it('registers the feature, waits for Registered, then re-registers the provider and waits for it', async () => {
    const a = arm({ readMs: 1000, registeringReads: 2 })
    const log = captureLog()
    expect(await ensureInfinibandFeature(a.clients, opts(log))).toEqual(registered(true))
    expect(a.calls).toEqual([GET_F, REG_F, GET_F, GET_F, GET_F, REG_P, GET_P, GET_P])
    expect(log.lines).toEqual([
      `info: ${F}: NotRegistered; registering`,
      `info: ${F}: Registering (2s elapsed)`,
      `info: ${F}: Registered (4s elapsed)`,
      `info: ${P}: registering`,
      `info: ${P}: Registering (1s elapsed)`,
      `info: ${P}: Registered (2s elapsed)`
    ])
  })

  it('a feature without a state reads as NotSpecified and is registered', async () => {
    const a = arm({ feature: null })
    const log = captureLog()
    expect((await ensureInfinibandFeature(a.clients, opts(log))).changed).toBe(true)
    expect(a.calls.slice(0, 2)).toEqual([GET_F, REG_F])
    expect(log.lines[0]).toBe(`info: ${F}: NotSpecified; registering`)
  })

  it('Unregistered is registered too', async () => {
    const a = arm({ feature: 'Unregistered' })
    await ensureInfinibandFeature(a.clients, opts(captureLog()))
    expect(a.calls.slice(0, 2)).toEqual([GET_F, REG_F])
  })

  it('keeps the state as ARM spells it', async () => {
    const a = arm({ registeredAs: 'registered', providerRegisteredAs: 'registered' })
    expect(await ensureInfinibandFeature(a.clients, opts(captureLog()))).toEqual({
      changed: true,
      state: 'registered',
      providerState: 'registered'
    })
  })

  it('a registration already under way is only waited for; the provider then only read', async () => {
    const a = arm({ feature: 'Registering' })
    const log = captureLog()
    expect(await ensureInfinibandFeature(a.clients, opts(log))).toEqual(registered(false))
    expect(a.calls).toEqual([GET_F, GET_F, GET_P])
    expect(log.lines).toEqual([
      `info: ${F}: Registering; registering`,
      `info: ${F}: Registered (0ms elapsed)`
    ])
  })

  it('registers again each time someone else undoes the registration while it is polled', async () => {
    // GET 1 NotRegistered → register; GET 2 Unregistered; GET 4 NotRegistered; GET 6 NotSpecified.
    const a = arm({
      registeringReads: 5,
      meddle: { 2: 'Unregistered', 4: 'NotRegistered', 6: 'NotSpecified' }
    })
    const log = captureLog()
    expect((await ensureInfinibandFeature(a.clients, opts(log))).state).toBe('Registered')
    expect(a.calls.slice(0, 9)).toEqual([GET_F, REG_F, GET_F, REG_F, GET_F, GET_F, REG_F, GET_F, GET_F])
    expect(a.calls.filter(c => c === REG_F)).toHaveLength(4)
  })

  it('Pending then Registered within the grace is a success', async () => {
    const a = arm({ feature: 'Pending', readMs: 1000, meddle: { 3: 'Registered' } })
    const log = captureLog()
    expect(await ensureInfinibandFeature(a.clients, opts(log, { pendingGraceMs: 5000 }))).toEqual(
      registered(false)
    )
    expect(a.calls).toEqual([GET_F, GET_F, GET_F, GET_P])
  })
})

describe('ensureInfinibandFeature: awaiting approval', () => {
  it('a feature Pending for the whole grace fails with the advice, before any provider call', async () => {
    const a = arm({ approval: true, readMs: 1000 })
    const log = captureLog()
    const err = await ensureInfinibandFeature(a.clients, opts(log, { pendingGraceMs: 2500 })).catch(e => e)
    expect(err).toBeInstanceOf(FeaturePendingError)
    expect(err.message).toBe(`${F}: still Pending after 3s. ${APPROVAL_ADVICE}`)
    expect(err.pendingMs).toBe(3000)
    expect(a.calls).toEqual([GET_F, REG_F, GET_F, GET_F, GET_F, GET_F])
    expect(log.lines).toEqual([`info: ${F}: NotRegistered; registering`, `info: ${F}: Pending (2s elapsed)`])
  })

  it('the grace is two minutes by default', async () => {
    const a = arm({ feature: 'Pending', readMs: 30_000 })
    const err = await ensureInfinibandFeature(a.clients, opts(captureLog())).catch(e => e)
    expect(err).toBeInstanceOf(FeaturePendingError)
    expect(err.message).toBe(`${F}: still Pending after 2m. ${APPROVAL_ADVICE}`)
    expect(a.calls).toEqual([GET_F, GET_F, GET_F, GET_F, GET_F, GET_F])
  })

  it('a step timeout within the grace says why it is Pending', async () => {
    const a = arm({ feature: 'Pending', readMs: 1000 })
    expect(await timedOut(a, 3500)).toBe(
      `${F}: timed out after 4s; last state seen: Pending. ${APPROVAL_ADVICE}`
    )
  })
})

describe('ensureInfinibandFeature: timeouts and Retry-After', () => {
  it('a registration that does not end in the step time names the command to check it', async () => {
    const a = arm({ readMs: 1000, registeringReads: 100 })
    expect(await timedOut(a, 3500)).toBe(
      `${F}: timed out after 4s; last state seen: Registering. Check with: az feature show --namespace Microsoft.ContainerService --name AKSInfinibandSupport`
    )
    expect(a.calls).toEqual([GET_F, REG_F, GET_F, GET_F, GET_F])
  })

  it('polls 10 s apart by default: a step shorter than that times out at the first wait', async () => {
    const a = arm({ feature: 'Registering', registeringReads: 100 })
    const log = captureLog()
    const err = await ensureInfinibandFeature(a.clients, { log, timeoutMs: 9_999 }).catch(e => e)
    expect(err).toBeInstanceOf(AzureWaitTimeoutError)
    expect(a.calls).toEqual([GET_F, GET_F])
  })

  it.each([
    [
      "follows the feature's Retry-After rather than the backoff",
      'state',
      { retryAfter: '0.001', providerRetryAfter: '0.001' }
    ],
    [
      "follows the provider's Retry-After rather than the backoff",
      'providerState',
      { feature: 'Registered', provider: 'NotRegistered', providerRetryAfter: '0.001' }
    ]
  ] as const)('%s', async (_name, registered, o: ArmOptions) => {
    const slow = { initialMs: 60_000, maxMs: 60_000 }
    const r = await ensureInfinibandFeature(
      arm(o).clients,
      opts(captureLog(), { timeoutMs: 30_000, backoff: slow })
    )
    expect(r[registered]).toBe('Registered')
  })

  it('the provider gets what is left of the step time', async () => {
    // 3 s of the 4.5 s go to the feature; the provider's wait has 1.5 s.
    const a = arm({ readMs: 1000, providerRegisteringReads: 100 })
    expect(await timedOut(a, 4500)).toBe(`${P}: timed out after 2s; last state seen: Registering`)
    expect(a.calls).toEqual([GET_F, REG_F, GET_F, GET_F, REG_P, GET_P, GET_P])
  })
})

describe('ensureInfinibandFeature: the provider alone', () => {
  it('a provider not registered is registered even when the feature is', async () => {
    const a = arm({ feature: 'Registered', provider: 'NotRegistered' })
    const log = captureLog()
    expect(await ensureInfinibandFeature(a.clients, opts(log))).toEqual(registered(true))
    expect(a.calls).toEqual([GET_F, GET_P, REG_P, GET_P, GET_P])
    expect(log.lines).toEqual([
      `info: ${F}: already Registered`,
      `info: ${P}: registering`,
      `info: ${P}: Registering (0ms elapsed)`,
      `info: ${P}: Registered (0ms elapsed)`
    ])
  })

  it('a provider without a state is registered', async () => {
    const a = arm({ feature: 'Registered', provider: null })
    expect((await ensureInfinibandFeature(a.clients, opts(captureLog()))).changed).toBe(true)
    expect(a.calls).toEqual([GET_F, GET_P, REG_P, GET_P, GET_P])
  })
})

describe('ensureInfinibandFeature: failures', () => {
  it('reading the feature', async () => {
    const a = arm({ featureGetError: armFail(500, 'InternalServerError', 'boom') })
    await expect(ensureInfinibandFeature(a.clients, opts(captureLog()))).rejects.toThrow(
      new Error(`${F}: reading the feature failed: HTTP 500 InternalServerError: boom`)
    )
    expect(a.calls).toEqual([GET_F])
  })

  it('registering the feature, with the permission it needs', async () => {
    const a = arm({ featureRegisterError: armFail(400, 'BadRequest', 'no') })
    const log = captureLog()
    await expect(ensureInfinibandFeature(a.clients, opts(log))).rejects.toThrow(
      new Error(
        `${F}: registering failed: HTTP 400 BadRequest: no. Registering a feature needs Microsoft.Features/* (Contributor or Owner on the subscription).`
      )
    )
    expect(a.calls).toEqual([GET_F, REG_F])
  })

  it('reading the provider', async () => {
    const a = arm({ feature: 'Registered', providerGetError: armFail(503, 'ServiceUnavailable', 'later') })
    await expect(ensureInfinibandFeature(a.clients, opts(captureLog()))).rejects.toThrow(
      new Error(`${P}: reading the provider failed: HTTP 503 ServiceUnavailable: later`)
    )
    expect(a.calls).toEqual([GET_F, GET_P])
  })

  it('registering the provider', async () => {
    const a = arm({ providerRegisterError: armFail(409, 'Conflict', 'busy'), registeringReads: 0 })
    await expect(ensureInfinibandFeature(a.clients, opts(captureLog()))).rejects.toThrow(
      new Error(`${P}: registering failed: HTTP 409 Conflict: busy`)
    )
    expect(a.calls).toEqual([GET_F, REG_F, GET_F, REG_P])
  })
})
