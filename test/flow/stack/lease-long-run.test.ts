// A run that holds the Lease for many lease durations, as a real apply does (20–40 minutes against
// the default 60 s Lease): the OFED and GPU driver builds take simulated quarter-hours and the Lease
// is judged and renewed on the world's clock (test/support/world-clock.ts), so the run lasts half an
// hour of simulated time in a second or two. It succeeds: the renewals keep the Lease this run's
// all along, and every write confirmed after the long waits finds it still held.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals'
import { DEFAULT_LEASE_SECONDS, LEASE_NAME, LEASE_NAMESPACE } from '../../../src/stack/lease.js'
import { applyStack } from '../../../src/stack/index.js'
import type { ApplyStackResult } from '../../../src/stack/types.js'
import type { Clock } from '../../../src/util/clock.js'
import { collectLog, startStackWorld, useHelmStandin, type StackWorld } from '../../support/stack-world.js'
import { worldClock } from '../../support/world-clock.js'
import { clusterStatuses } from '../../support/components.js'

jest.setTimeout(180_000)

let w: StackWorld
let res: ApplyStackResult
/** The Lease as each renewal left it: holder and renewTime. */
const renewals: Array<{ holder?: string; renewTime?: string }> = []
let warnings: string[] = []
let simulatedMs = 0

beforeAll(async () => {
  await useHelmStandin()
  w = await startStackWorld({
    nodes: 2,
    scenario: { kube: { timeScale: 0.001, delays: { mofed: '900s', gpuDriver: '720s', default: '5s' } } }
  })
  const { clock, wallNow } = w.sim.controllers.ctx
  const world = worldClock(clock, wallNow)
  const leases = w.sim.store.type('coordination.k8s.io', 'leases')!
  const leaseClock: Clock = {
    now: () => world.now(),
    every: (ms, tick) =>
      world.every(ms, async () => {
        await tick()
        const l = w.sim.store.tryGet(leases, LEASE_NAMESPACE, LEASE_NAME)
        if (l) renewals.push({ holder: l.spec.holderIdentity, renewTime: l.spec.renewTime })
      })
  }
  const log = collectLog()
  const started = clock.now()
  res = await applyStack({ settings: w.settings(), kubeconfigPath: w.kubeconfigPath, log, leaseClock })
  simulatedMs = clock.now() - started
  warnings = log.lines.filter(l => l.startsWith('warning: '))
  if (!res.ok) console.log(res.diagnostics.map(d => d.text).join('\n\n'))
})

afterAll(() => w?.close())

describe('a run that holds the Lease for many lease durations', () => {
  it('succeeds: every component applied and ready, nothing lost on the way', () => {
    expect(res.steps.map(s => [s.name, s.status])).toEqual(clusterStatuses('success'))
    expect(res.ok).toBe(true)
    expect(warnings).toEqual([])
  })

  it('lasted many lease durations of the world’s time, renewing the Lease all along', () => {
    const leaseMs = DEFAULT_LEASE_SECONDS * 1000
    // The OFED driver build alone is 900 s, 15 lease durations; what else the run takes in world
    // time depends on the machine (a real millisecond is a simulated second here), so the bounds
    // are the build's, less one renewal period.
    const held = 900_000 - leaseMs / 3
    expect(simulatedMs).toBeGreaterThan(held)
    // renewed every third of the lease duration, each time still held by this run
    expect(renewals.length).toBeGreaterThanOrEqual(Math.floor(held / (leaseMs / 3)))
    expect(new Set(renewals.map(r => r.holder))).toEqual(new Set(['run-1']))
    const times = renewals.map(r => Date.parse(r.renewTime!))
    for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBe(leaseMs / 3)
    expect(times[times.length - 1] - times[0]).toBeGreaterThan(held - leaseMs / 3)
  })

  it('released the Lease at the end', () => {
    const leases = w.sim.store.type('coordination.k8s.io', 'leases')!
    expect(w.sim.store.tryGet(leases, LEASE_NAMESPACE, LEASE_NAME)).toBeUndefined()
  })
})
