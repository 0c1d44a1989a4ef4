// The clock a long-lived loop reads time from and ticks by (the Lease's renewals and renew
// deadline): the process's own by default. A test hands in the simulated world's clock instead, so
// a run can hold the Lease through hours of simulated time without waiting for them.

export interface Clock {
  /** Epoch milliseconds. */
  now(): number
  /**
   * Runs `tick` every `periodMs` until the returned function is called. `tick`'s promise settles
   * when its work is done: a simulated clock does not let time pass the next tick before that.
   */
  every(periodMs: number, tick: () => Promise<void>): () => void
}

/** The process's clock: Date.now and an unref'd setInterval (it never keeps the process alive). */
export const systemClock: Clock = {
  now: () => Date.now(),
  every(periodMs, tick) {
    const timer = setInterval(() => void tick(), periodMs)
    timer.unref?.()
    return () => clearInterval(timer)
  }
}
