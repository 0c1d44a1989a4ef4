// The world's wall clock. Tokens carry `iat`/`nbf`/`exp` in SIMULATED epoch seconds: the real
// start instant of the world plus the simulated milliseconds elapsed since (SimClock.now()). With
// timeScale 0.01 a 300 s OIDC token therefore expires after 3 real seconds. Values the world hands
// to real-time clients (OAuth `expires_in`, `Retry-After`) are converted back to real time.
import type { SimClock } from '../contracts.js'
import { durationOf } from '../scenario.js'

/** The least real time a token the scenario gives no lifetime lives for. */
const MIN_DEFAULT_TOKEN_REAL_MS = 30_000

export class SimTime {
  /** Real epoch milliseconds at which the world's simulated time was 0. */
  private readonly realStart: number
  constructor(readonly clock: SimClock) {
    this.realStart = Date.now() - clock.real(clock.now())
  }
  /** Simulated epoch milliseconds. */
  nowMs(): number {
    return this.realStart + this.clock.now()
  }
  /** Simulated epoch seconds (JWT NumericDate). */
  nowSec(): number {
    return Math.floor(this.nowMs() / 1000)
  }
  /** Simulated milliseconds since the world started. */
  elapsedMs(): number {
    return this.clock.now()
  }
  /** Whole real seconds a simulated span takes, rounded down (so clients never wait longer than the world). */
  realSeconds(simMs: number): number {
    return Math.floor(this.clock.real(simMs) / 1000)
  }
  /**
   * Simulated lifetime of a token: the scenario's `spec` as given, or else `defaultSimMs` but at
   * least 30 real seconds (a scenario that wants a token to expire sooner says so, and a test that
   * wants one expired jumps the clock).
   */
  tokenLifetimeMs(spec: string | undefined, defaultSimMs: number): number {
    if (spec !== undefined) return durationOf(spec, defaultSimMs)
    return Math.max(defaultSimMs, MIN_DEFAULT_TOKEN_REAL_MS / this.clock.timeScale)
  }
  iso(simEpochSec: number): string {
    return new Date(simEpochSec * 1000).toISOString()
  }
}
