// Server-side throttling, as an overloaded API server answers (API Priority and Fairness
// rejecting a request): scenario `kube.throttle: { qps, burst, retryAfter }` keeps one token
// bucket for every client in real time (the clients' own rate limits run in real time too); a
// request that finds it empty is answered 429 Too Many Requests with `Retry-After` (seconds).
// Discovery and health paths are exempt, as APF exempts them; a watch counts when it starts.

export interface ThrottleSpec {
  qps: number
  burst: number
  /** Seconds the 429 asks the client to wait (default 1). */
  retryAfter?: number
}

export class ServerThrottle {
  private tokens: number
  private last = performance.now()

  constructor(readonly spec: ThrottleSpec) {
    this.tokens = spec.burst
  }

  /** Whether the request may go ahead (a token is used); false: answer 429. */
  admit(): boolean {
    const now = performance.now()
    this.tokens = Math.min(this.spec.burst, this.tokens + ((now - this.last) * this.spec.qps) / 1000)
    this.last = now
    if (this.tokens >= 1) {
      this.tokens -= 1
      return true
    }
    return false
  }

  get retryAfterSeconds(): number {
    return this.spec.retryAfter ?? 1
  }
}
