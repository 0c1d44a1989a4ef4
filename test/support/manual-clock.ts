// Unit-test helper: the action's Clock (src/util/clock.ts) moved only by the test, for the Lease's
// renewals. now() is Jest's faked Date (so the in-memory watches' timers move with it); every()
// registers a tick, as the real clock's setInterval would, which advance() runs (awaiting it) each
// time its period comes round, letting the event loop turn (settle) before and after it. Use with
// jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] }).
import { jest } from '@jest/globals'
import type { Clock } from '../../src/util/clock.js'

/** Lets the real setImmediate callbacks run (the in-memory watches deliver their events on them). */
export async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await new Promise<void>(r => setImmediate(r))
}

export interface ManualTimer {
  periodMs: number
  next: number
  tick: () => Promise<void>
  stopped: boolean
}

export class ManualClock implements Clock {
  readonly timers: ManualTimer[] = []

  now(): number {
    return Date.now()
  }

  every(periodMs: number, tick: () => Promise<void>): () => void {
    const t = { periodMs, next: this.now() + periodMs, tick, stopped: false }
    this.timers.push(t)
    return () => {
      t.stopped = true
    }
  }

  /** Moves Jest's clock `ms` on, running each tick that comes due on the way, in order. */
  async advance(ms: number): Promise<void> {
    const end = this.now() + ms
    for (;;) {
      const due = this.timers.filter(t => !t.stopped && t.next <= end).sort((a, b) => a.next - b.next)[0]
      if (!due) break
      await jest.advanceTimersByTimeAsync(Math.max(0, due.next - this.now()))
      await settle()
      due.next += due.periodMs
      if (!due.stopped) await due.tick()
      await settle()
    }
    await jest.advanceTimersByTimeAsync(Math.max(0, end - this.now()))
    await settle()
  }
}
