// A timer for an instant of the world's wall clock (a CronJob's next schedule time, a disruption
// budget entry's expiry). Wall time runs at real speed while simulated durations are scaled
// (`SimClock.wallNow`), and a test's `SimClock.advance` moves both: so two timers — one at the
// simulated span the wall instant is away under the time scale (real time), one at that span taken
// as simulated time (what `advance` runs through) — and `fn` runs once, from whichever finds the
// wall clock there first.
import type { SimContext } from './context.js'

export function afterWall(ctx: SimContext, wallAt: number, fn: () => void): () => void {
  let done = false
  let cancelSim = (): void => {}
  const run = () => {
    if (done) return
    done = true
    cancelReal()
    cancelSim()
    fn()
  }
  const remaining = () => Math.max(1, wallAt - ctx.wallNow())
  const cancelReal = ctx.timers.after(remaining() / Math.max(ctx.clock.timeScale, 1e-9), run)
  // The simulated-time timer falls due long before the wall instant in real time; it re-arms for
  // what is left until an `advance` carries the wall clock there (or the real-time one fires).
  const armSim = () => {
    cancelSim = ctx.timers.after(remaining(), () => {
      if (done) return
      if (ctx.wallNow() >= wallAt) run()
      else if (remaining() > 1000) armSim()
    })
  }
  armSim()
  return () => {
    done = true
    cancelReal()
    cancelSim()
  }
}
