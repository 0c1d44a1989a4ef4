// The simulator's clock: simulated time runs `1 / timeScale` times faster than real time, and a
// test can jump it forward. A jump fires at once what fell due in the skipped span and leaves later
// timers at their simulated deadlines; cancelled timers never fire.
import { describe, expect, it } from '@jest/globals'
import { SimClock } from '../sim/contracts.js'

/** Resolves once `ok()` holds, checking on every turn of the event loop (no time budget). */
async function until(ok: () => boolean): Promise<void> {
  while (!ok()) await new Promise(r => setImmediate(r))
}

describe('SimClock', () => {
  it('scales simulated spans to real ones', () => {
    const clock = new SimClock(0.01)
    expect(clock.real(60_000)).toBe(600)
    expect(clock.real(-5)).toBe(0)
  })

  it('advance moves now() forward by exactly the jump', () => {
    // A time scale so small that real time adds almost nothing; the bounds allow for it anyway.
    const clock = new SimClock(1e9)
    const before = clock.now()
    clock.advance(3_600_000)
    const after = clock.now()
    expect(after - before).toBeGreaterThanOrEqual(3_600_000)
    expect(after - before).toBeLessThan(3_600_001)
    clock.advance(-10) // never backwards
    expect(clock.now()).toBeGreaterThanOrEqual(after)
  })

  it('a jump fires the timers it passed, in order, and keeps the later ones waiting', async () => {
    // One real hour per simulated millisecond: without the jump, nothing here would ever fire.
    const clock = new SimClock(3_600_000)
    const fired: string[] = []
    clock.after(2_000, () => fired.push('2s'))
    clock.after(1_000, () => fired.push('1s'))
    const cancel = clock.after(1_500, () => fired.push('cancelled'))
    clock.after(60_000, () => fired.push('60s'))
    let slept = false
    void clock.sleep(500).then(() => (slept = true))
    cancel()
    clock.advance(5_000)
    await until(() => fired.length >= 2 && slept)
    expect(fired).toEqual(['1s', '2s'])
    // The 60 s timer is still pending: another jump past it fires it.
    clock.advance(60_000)
    await until(() => fired.length >= 3)
    expect(fired).toEqual(['1s', '2s', '60s'])
  })
})
