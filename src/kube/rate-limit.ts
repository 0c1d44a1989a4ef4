// The client-side rate limit of Kubernetes requests: a token bucket like client-go's, shared by every
// client of one API server in the process. See docs/scale.md ("A polite client").

export interface RateLimit {
  /** Sustained requests per second. */
  qps: number
  /** Requests allowed at once after an idle spell. */
  burst: number
}

/**
 * The defaults: client-go's token bucket with the QPS and burst Kubernetes' own controllers use
 * (kube-controller-manager `--kube-api-qps 20 --kube-api-burst 30`). client-go's library default
 * (5 and 10) would stretch a converged run's ~60 requests over 10 s on any cluster size.
 */
export const DEFAULT_RATE_LIMIT: RateLimit = { qps: 20, burst: 30 }

export interface TokenBucketClock {
  /** Milliseconds, monotonic. */
  now(): number
  sleep(ms: number): Promise<void>
}

const realClock: TokenBucketClock = {
  now: () => performance.now(),
  sleep: ms => new Promise(resolve => setTimeout(resolve, ms))
}

export class TokenBucket {
  private tokens: number
  private last: number
  /** Tokens taken (one per request), and the requests that had to wait and for how long in all. */
  taken = 0
  waited = { requests: 0, ms: 0 }

  constructor(
    readonly limit: RateLimit,
    private readonly clock: TokenBucketClock = realClock
  ) {
    if (!(limit.qps > 0) || !(limit.burst >= 1))
      throw new Error(`invalid rate limit ${JSON.stringify(limit)}`)
    this.tokens = limit.burst
    this.last = clock.now()
  }

  /**
   * Reserves a token and waits until it is due; resolves with the milliseconds waited. Tokens are
   * reserved in call order, so waiters are served first come first served.
   */
  async take(): Promise<number> {
    const now = this.clock.now()
    this.tokens = Math.min(this.limit.burst, this.tokens + ((now - this.last) * this.limit.qps) / 1000)
    this.last = now
    this.tokens -= 1
    this.taken++
    if (this.tokens >= 0) return 0
    const wait = Math.ceil((-this.tokens * 1000) / this.limit.qps)
    this.waited.requests++
    this.waited.ms += wait
    await this.clock.sleep(wait)
    return wait
  }
}

const buckets = new Map<string, TokenBucket>()

/** The process-wide bucket of one API server (created with `limit` the first time it is asked for). */
export function bucketFor(server: string, limit: RateLimit = DEFAULT_RATE_LIMIT): TokenBucket {
  const key = `${server}|${limit.qps}|${limit.burst}`
  let b = buckets.get(key)
  if (!b) {
    b = new TokenBucket(limit)
    buckets.set(key, b)
  }
  return b
}
