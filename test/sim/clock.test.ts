// The simulator's clock: simulated time runs `1 / timeScale` times faster than real time, and a
// test can jump it forward. A jump fires at once what fell due in the skipped span and leaves later
// timers at their simulated deadlines; cancelled timers never fire.
import { describe, expect, it } from '@jest/globals'
import { SimClock } from '../../sim/contracts.js'

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

  it('a jump runs the timers it passed, in order, before it returns; later ones keep waiting', () => {
    // One real hour per simulated millisecond: without the jump, nothing here would ever fire.
    const clock = new SimClock(3_600_000)
    const fired: string[] = []
    clock.after(2_000, () => fired.push('2s'))
    clock.after(1_000, () => {
      fired.push('1s')
      clock.after(500, () => fired.push('1s+500ms, set by the 1s timer')) // still within the jump
      clock.after(10_000, () => fired.push('1s+10s'))
    })
    const cancel = clock.after(1_500, () => fired.push('cancelled'))
    clock.after(60_000, () => fired.push('60s'))
    cancel()
    clock.advance(5_000)
    expect(fired).toEqual(['1s', '1s+500ms, set by the 1s timer', '2s'])
    // The others are still pending: a jump past them runs them.
    clock.advance(60_000)
    expect(fired).toEqual(['1s', '1s+500ms, set by the 1s timer', '2s', '1s+10s', '60s'])
  })

  it('each timer of a jump sees the clock at its own due time; a periodic one runs once per period', () => {
    const clock = new SimClock(3_600_000)
    const start = clock.now()
    const seen: number[] = []
    const tick = (): void => {
      seen.push(Math.round(clock.now() - start))
      if (seen.length < 10) clock.after(1_000, tick)
    }
    clock.after(1_000, tick)
    clock.advance(4_500)
    expect(seen).toEqual([1000, 2000, 3000, 4000])
    expect(Math.round(clock.now() - start)).toBe(4500)
  })

  it('a timer that re-arms itself with no delay is named instead of hanging the jump', () => {
    const clock = new SimClock(3_600_000)
    const again = (): void => void clock.after(0, again)
    clock.after(10, again)
    expect(() => clock.advance(20)).toThrow(/keeps re-arming itself with no delay/)
  })

  it('sleep resolves once its simulated span has passed', async () => {
    const clock = new SimClock(3_600_000)
    let slept = false
    void clock.sleep(500).then(() => (slept = true))
    clock.advance(500)
    await Promise.resolve()
    expect(slept).toBe(true)
  })
})
