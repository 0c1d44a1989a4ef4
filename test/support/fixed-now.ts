// Unit-test helper: Date.now() as the test sets it, for modules that read the time only through
// Date.now (the rollouts' step times, deadlines and report instants) while their timers and the
// event loop run for real. useFixedNow registers the hooks: before each test Date.now() answers
// `now.ms`, reset to `t0`; after it the real Date.now is back.
import { afterEach, beforeEach, jest } from '@jest/globals'

export interface FixedNow {
  /** What Date.now() answers; the test moves it. */
  ms: number
}

export function useFixedNow(t0: number): FixedNow {
  const now: FixedNow = { ms: t0 }
  let restore = (): void => undefined
  beforeEach(() => {
    now.ms = t0
    const spy = jest.spyOn(Date, 'now').mockImplementation(() => now.ms)
    restore = () => spy.mockRestore()
  })
  afterEach(() => restore())
  return now
}
