// The InfiniBand feature registration against the simulated ARM through the real Features and
// Resources clients: NotRegistered → Registered (feature + provider writes), already Registered
// (no writes at all); Pending: a transient one is waited out, one that stays Pending fails after a
// short grace (not the step timeout) with the approval explanation, writing nothing.
import { afterEach, describe, expect, it } from '@jest/globals'
import { ensureInfinibandFeature, FeaturePendingError, PENDING_GRACE_MS } from '../../../src/azure/feature.js'
import { AzureWaitTimeoutError } from '../../../src/azure/wait.js'
import { armFixture, leaks, startWorld, type TestWorld } from '../../support/azure-world.js'

let world: TestWorld | undefined
afterEach(async () => {
  await world?.close()
  world = undefined
})

const FAST_POLL = { initialMs: 10, maxMs: 40, factor: 2 }

const armWrites = (w: TestWorld) => w.recorder.records.filter(r => r.service === 'arm' && r.mutating)

describe('ensureInfinibandFeature', () => {
  it('registers a NotRegistered feature, polls until Registered, then re-registers the provider', async () => {
    world = await startWorld({
      azure: { feature: { state: 'NotRegistered', pollsUntilRegistered: 3 }, providerPollsUntilRegistered: 2 }
    })
    const { clients, log } = armFixture(world)
    const r = await ensureInfinibandFeature(clients, { log, timeoutMs: 20_000, backoff: FAST_POLL })
    expect(r).toEqual({ changed: true, state: 'Registered', providerState: 'Registered' })
    expect(world.sim.featureState()).toBe('Registered')
    expect(armWrites(world).map(w => `${w.method} ${w.path.replace(/^\/subscriptions\/[^/]+/, '')}`)).toEqual(
      [
        'POST /providers/Microsoft.Features/providers/Microsoft.ContainerService/features/AKSInfinibandSupport/register',
        'POST /providers/Microsoft.ContainerService/register'
      ]
    )
    // Each state change is logged with the elapsed time.
    expect(log.text()).toMatch(/AKSInfinibandSupport: Registering \(\d+(ms|s) elapsed\)/)
    expect(log.text()).toMatch(/AKSInfinibandSupport: Registered/)
    expect(leaks(world, log.text())).toEqual([])
  })

  it('does not write anything when the feature and the provider are already Registered', async () => {
    world = await startWorld({ azure: { feature: { state: 'Registered', pollsUntilRegistered: 1 } } })
    const { clients, log } = armFixture(world)
    const r = await ensureInfinibandFeature(clients, { log, timeoutMs: 20_000, backoff: FAST_POLL })
    expect(r.changed).toBe(false)
    expect(r.state).toBe('Registered')
    expect(world.recorder.counts().arm.mutating).toBe(0)
    expect(world.recorder.counts().arm.total).toBe(2) // feature GET + provider GET
    expect(log.text()).toMatch(/already Registered/)
  })

  it('a Pending feature times out with an error explaining it awaits approval', async () => {
    world = await startWorld({ azure: { feature: { state: 'Pending', pollsUntilRegistered: 1 } } })
    const { clients, log } = armFixture(world)
    let err: unknown
    try {
      // Long enough for the sign-in and several polls however busy the machine.
      await ensureInfinibandFeature(clients, { log, timeoutMs: 3000, backoff: FAST_POLL })
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(AzureWaitTimeoutError)
    const e = err as AzureWaitTimeoutError
    expect(e.step).toMatch(/AKSInfinibandSupport/)
    expect(e.lastState).toBe('Pending')
    expect(e.message).toMatch(/awaits approval/)
    expect(e.message).toMatch(/support request|account team/)
    // Pending is already requested: no register call was made.
    expect(world.recorder.counts().arm.mutating).toBe(0)
    expect(
      world.recorder.records.filter(r => r.path.endsWith('/AKSInfinibandSupport')).length
    ).toBeGreaterThan(2)
  })

  it('a feature that stays Pending fails after the grace, long before the step timeout, writing nothing', async () => {
    world = await startWorld({ azure: { feature: { state: 'Pending', pollsUntilRegistered: 1 } } })
    const { clients, log } = armFixture(world)
    let err: unknown
    try {
      // A half-hour step; the grace (here shortened from two minutes) decides.
      await ensureInfinibandFeature(clients, {
        log,
        timeoutMs: 30 * 60_000,
        backoff: FAST_POLL,
        pendingGraceMs: 1000
      })
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(FeaturePendingError)
    const e = err as FeaturePendingError
    expect(e.message).toMatch(/AKSInfinibandSupport: still Pending after/)
    expect(e.message).toMatch(/awaits approval/)
    expect(e.message).toMatch(/support request|account team/)
    expect(e.pendingMs).toBeGreaterThanOrEqual(1000)
    // Only reads: the feature was polled during the grace, never registered, the provider untouched.
    const feature = world.recorder.records.filter(r => r.path.endsWith('/AKSInfinibandSupport'))
    expect(feature.every(r => r.method === 'GET')).toBe(true)
    expect(feature.length).toBeGreaterThan(2)
    expect(world.recorder.counts().arm.mutating).toBe(0)
    expect(world.recorder.records.some(r => /providers\/Microsoft\.ContainerService$/.test(r.path))).toBe(
      false
    )
    expect(world.sim.featureState()).toBe('Pending')
  })

  it('a Pending feature that is approved within the grace is waited for', async () => {
    world = await startWorld({
      azure: { feature: { state: 'Pending', pollsUntilRegistered: 1, pendingPolls: 3 } }
    })
    const { clients, log } = armFixture(world)
    const r = await ensureInfinibandFeature(clients, { log, timeoutMs: 20_000, backoff: FAST_POLL })
    expect(r).toEqual({ changed: false, state: 'Registered', providerState: 'Registered' })
    // Pending three times (the first read and two polls), then Registered: nothing registered.
    const feature = world.recorder.records.filter(r => r.path.endsWith('/AKSInfinibandSupport'))
    expect(feature.map(r => r.method)).toEqual(['GET', 'GET', 'GET', 'GET'])
    expect(world.recorder.counts().arm.mutating).toBe(0)
    expect(log.text()).toMatch(/AKSInfinibandSupport: Pending/)
  })

  it('the grace is two minutes', () => {
    expect(PENDING_GRACE_MS).toBe(120_000)
  })
})
