// Retries of transient Kubernetes API failures (5xx, 429, dropped connections) with exponential
// backoff and jitter, honouring Retry-After; every other failure is returned at once.
import { isTransient, retryAfterMs } from './errors.js'

export interface RetryOptions {
  /** Retries after the first attempt (settings.wait.retries). */
  retries: number
  /** First backoff; doubles each retry (default 200 ms), capped at maxDelayMs (default 10 s). */
  baseDelayMs?: number
  maxDelayMs?: number
  /** Called before each retry with the attempt number (1-based) and the delay. */
  onRetry?: (attempt: number, delayMs: number, error: unknown) => void
  /** Decides what is retried (default: isTransient). */
  retryable?: (error: unknown) => boolean
}

export function backoffDelay(attempt: number, base: number, max: number): number {
  const exp = Math.min(max, base * 2 ** (attempt - 1))
  return Math.round(exp / 2 + (Math.random() * exp) / 2)
}

export async function withRetry<T>(fn: () => Promise<T>, opts: RetryOptions): Promise<T> {
  const base = opts.baseDelayMs ?? 200
  const max = opts.maxDelayMs ?? 10_000
  const retryable = opts.retryable ?? isTransient
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn()
    } catch (e) {
      if (attempt >= opts.retries || !retryable(e)) throw e
      const delay = Math.min(max, retryAfterMs(e) ?? backoffDelay(attempt + 1, base, max))
      opts.onRetry?.(attempt + 1, delay, e)
      await new Promise(resolve => setTimeout(resolve, delay))
    }
  }
}
