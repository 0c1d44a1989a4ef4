// The simulated world's time as the action's Clock (src/util/clock.ts), for runs that must last
// many lease durations without waiting for them: now() is the world's wall clock (its start
// instant plus the simulated milliseconds since), and every() ticks on the world's SimClock. A tick
// counts as instantaneous: the clock never reads past a tick that has not finished its work (a
// Lease renewal's requests), so how fast the machine answers them cannot make a renewal late.
import type { SimClock } from '../../sim/contracts.js'
import type { Clock } from '../../src/util/clock.js'

export interface WorldClock extends Clock {
  /** Ticks run so far, over every loop. */
  readonly ticks: number
}

/** `wallNow` maps the world's time to epoch milliseconds (the controllers' ctx.wallNow). */
export function worldClock(clock: SimClock, wallNow: () => number): WorldClock {
  /** Simulated instants (ms) of the next tick of each running loop, until that tick has finished. */
  const pending = new Set<{ due: number }>()
  let ticks = 0
  const origin = wallNow() - clock.now()
  return {
    get ticks() {
      return ticks
    },
    now: () => origin + Math.min(clock.now(), ...[...pending].map(p => p.due)),
    every(periodMs, tick) {
      const next = { due: clock.now() + periodMs }
      let stopped = false
      let ticking = false
      let cancel = (): void => undefined
      const arm = (): void => {
        pending.add(next)
        cancel = clock.after(next.due - clock.now(), fire)
      }
      const fire = (): void => {
        ticks++
        ticking = true
        void tick().finally(() => {
          ticking = false
          if (stopped) pending.delete(next)
          else {
            next.due += periodMs
            arm()
          }
        })
      }
      arm()
      return () => {
        stopped = true
        cancel()
        // A tick still at work (a renewal racing the release) keeps its instant until it is done.
        if (!ticking) pending.delete(next)
      }
    }
  }
}
