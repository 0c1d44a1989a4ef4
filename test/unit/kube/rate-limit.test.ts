// The client-side token bucket (client-go's flowcontrol: `burst` at once, then `qps` a second, first
// come first served) over a hand-driven clock, its per-server sharing, and the retry backoff's
// bounds (exponential with jitter, capped, the server's Retry-After first).
import { describe, expect, it, jest } from '@jest/globals'
import {
  bucketFor,
  DEFAULT_RATE_LIMIT,
  TokenBucket,
  type TokenBucketClock
} from '../../../src/kube/rate-limit.js'
import { backoffDelay, withRetry } from '../../../src/kube/retry.js'

/** A clock that moves only when told to, or by what the bucket sleeps. */
class ManualClock implements TokenBucketClock {
  t = 1_000
  slept: number[] = []
  now(): number {
    return this.t
  }
  async sleep(ms: number): Promise<void> {
    this.slept.push(ms)
    this.t += ms
  }
}

describe('TokenBucket', () => {
  it('lets `burst` requests through at once, then spaces them 1/qps apart', async () => {
    const clock = new ManualClock()
    const bucket = new TokenBucket({ qps: 10, burst: 3 }, clock)
    const waits: number[] = []
    for (let i = 0; i < 5; i++) waits.push(await bucket.take())
    expect(waits).toEqual([0, 0, 0, 100, 100])
    expect(bucket.taken).toBe(5)
    expect(bucket.waited).toEqual({ requests: 2, ms: 200 })
  })

  it('serves waiters in call order, each a token’s time after the one before', async () => {
    const clock = new ManualClock()
    const sleeps: number[] = []
    const bucket = new TokenBucket(
      { qps: 4, burst: 1 },
      { now: () => clock.t, sleep: async ms => void sleeps.push(ms) }
    )
    const waits = await Promise.all([bucket.take(), bucket.take(), bucket.take()])
    expect(waits).toEqual([0, 250, 500])
    expect(sleeps).toEqual([250, 500])
  })

  it('refills at qps while idle, never above burst', async () => {
    const clock = new ManualClock()
    const bucket = new TokenBucket({ qps: 2, burst: 2 }, clock)
    await bucket.take()
    await bucket.take()
    clock.t += 500 // one token back
    expect(await bucket.take()).toBe(0)
    expect(await bucket.take()).toBe(500)
    clock.t += 60_000 // an idle minute gives back `burst` tokens, not 120
    expect(await bucket.take()).toBe(0)
    expect(await bucket.take()).toBe(0)
    expect(await bucket.take()).toBe(500)
  })

  it('rounds a fractional wait up to the next millisecond', async () => {
    const clock = new ManualClock()
    const bucket = new TokenBucket({ qps: 3, burst: 1 }, clock)
    await bucket.take()
    expect(await bucket.take()).toBe(334)
  })

  it('refuses a limit that would never let a request through', () => {
    expect(() => new TokenBucket({ qps: 0, burst: 5 })).toThrow('invalid rate limit {"qps":0,"burst":5}')
    expect(() => new TokenBucket({ qps: 5, burst: 0 })).toThrow('invalid rate limit')
    expect(() => new TokenBucket({ qps: Number.NaN, burst: 1 })).toThrow('invalid rate limit')
    expect(() => new TokenBucket({ qps: 0.5, burst: 1 })).not.toThrow()
  })

  it('is one bucket per API server and limit, created with the defaults unless given one', () => {
    const a = bucketFor('https://rate-limit-unit-a:443')
    expect(a.limit).toEqual(DEFAULT_RATE_LIMIT)
    expect(DEFAULT_RATE_LIMIT).toEqual({ qps: 20, burst: 30 })
    expect(bucketFor('https://rate-limit-unit-a:443')).toBe(a)
    expect(bucketFor('https://rate-limit-unit-b:443')).not.toBe(a)
    const slow = bucketFor('https://rate-limit-unit-a:443', { qps: 5, burst: 10 })
    expect(slow).not.toBe(a)
    expect(slow.limit).toEqual({ qps: 5, burst: 10 })
  })
})

describe('retry backoff', () => {
  it('doubles from the base with jitter in [half, whole], capped at the maximum', () => {
    const random = jest.spyOn(Math, 'random')
    try {
      random.mockReturnValue(0)
      expect([1, 2, 3, 4].map(a => backoffDelay(a, 200, 10_000))).toEqual([100, 200, 400, 800])
      random.mockReturnValue(0.999999)
      expect([1, 2, 3, 4].map(a => backoffDelay(a, 200, 10_000))).toEqual([200, 400, 800, 1600])
      expect(backoffDelay(10, 200, 10_000)).toBe(10_000)
      random.mockReturnValue(0)
      expect(backoffDelay(10, 200, 10_000)).toBe(5_000)
    } finally {
      random.mockRestore()
    }
  })

  /** An operation that throws `failures` in turn, then returns `value` (or throws the last failure again). */
  function operation(failures: unknown[], value?: string) {
    const op = {
      calls: 0,
      run: async (): Promise<string> => {
        const i = op.calls++
        if (i < failures.length) throw failures[i]
        if (value === undefined) throw failures[failures.length - 1]
        return value
      }
    }
    return op
  }

  it('retries transient failures up to the limit, others never', async () => {
    const recovers = operation([{ code: 500 }, { code: 500 }], 'done')
    expect(await withRetry(recovers.run, { retries: 3, baseDelayMs: 1 })).toBe('done')
    expect(recovers.calls).toBe(3)

    const down = operation([{ code: 503 }])
    await expect(withRetry(down.run, { retries: 2, baseDelayMs: 1 })).rejects.toEqual({ code: 503 })
    expect(down.calls).toBe(3)

    const invalid = operation([{ code: 422 }])
    await expect(withRetry(invalid.run, { retries: 5, baseDelayMs: 1 })).rejects.toEqual({ code: 422 })
    expect(invalid.calls).toBe(1)
  })

  it('waits what the server asked (bounded by the maximum) and tells onRetry each attempt', async () => {
    const seen: Array<[number, number]> = []
    const throttled = operation(
      [
        { code: 429, headers: { 'retry-after': '0' } },
        { code: 503, headers: { 'retry-after': '3600' } }
      ],
      'ok'
    )
    const result = await withRetry(throttled.run, {
      retries: 2,
      maxDelayMs: 5,
      onRetry: (attempt, delay) => seen.push([attempt, delay])
    })
    expect(result).toBe('ok')
    expect(seen).toEqual([
      [1, 0],
      [2, 5]
    ])
  })

  it('retries what `retryable` says, and with no retries left throws the last failure', async () => {
    const conflicts = operation([new Error('conflict 1'), new Error('conflict 2'), new Error('conflict 3')])
    await expect(
      withRetry(conflicts.run, {
        retries: 2,
        baseDelayMs: 1,
        retryable: e => (e as Error).message.startsWith('conflict')
      })
    ).rejects.toThrow('conflict 3')
    expect(conflicts.calls).toBe(3)
    const once = operation([{ code: 500 }])
    await expect(withRetry(once.run, { retries: 0 })).rejects.toEqual({ code: 500 })
    expect(once.calls).toBe(1)
  })
})
