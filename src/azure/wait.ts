// Bounded waiting for the Azure steps: sleeping with backoff, polling a probe until it is done
// (logging each state change with the elapsed time), and the timeout error that names the step
// and the last state seen.
import type { AbortSignalLike } from '@azure/abort-controller'
import { cancelledWhile, cancelSignal } from '../util/cancel.js'
import { formatDuration } from '../util/duration.js'
import type { Log } from '../log/index.js'

/** An Azure step's bounded wait that ran out (the run layer reports it as a StepError). */
export class AzureWaitTimeoutError extends Error {
  constructor(
    readonly step: string,
    readonly lastState: string,
    readonly elapsedMs: number,
    hint?: string
  ) {
    super(
      `${step}: timed out after ${formatDuration(elapsedMs)}; last state seen: ${lastState}${hint ? `. ${hint}` : ''}`
    )
    this.name = 'AzureWaitTimeoutError'
  }
}

export function sleep(ms: number, signal?: AbortSignalLike): Promise<void> {
  return new Promise((resolve, reject) => {
    const abortError = (): Error =>
      Object.assign(new Error('The operation was aborted.'), { name: 'AbortError' })
    if (signal?.aborted) return reject(abortError())
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = (): void => {
      clearTimeout(t)
      reject(abortError())
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

export interface Backoff {
  /** First delay between polls. */
  initialMs: number
  /** Upper bound of the delay. */
  maxMs: number
  /** Growth per poll (1 = constant). */
  factor?: number
}

export interface PollOptions<T> {
  step: string
  timeoutMs: number
  backoff: Backoff
  log: Log
  /**
   * Reads the current state; `done` ends the wait with `value`. Throwing ends it with the error.
   * `retryAfterMs`: the server's Retry-After hint, used for the next delay instead of the backoff
   * (bounded by backoff.maxMs).
   */
  probe: () => Promise<{ done: boolean; state: string; value?: T; retryAfterMs?: number }>
  /** Extra sentence for the timeout error (e.g. what a Pending state means). */
  timeoutHint?: (lastState: string) => string | undefined
  /** When the step began (elapsed times and the timeout count from here); default now. */
  startedAt?: number
  /** Called with every state (not only changes), e.g. to re-issue a request. */
  onState?: (state: string) => Promise<void> | void
  /**
   * A state that ends the wait early: once the probe has reported it (case-insensitive) for
   * `graceMs` without a break, the wait fails with `error(msInState)` instead of waiting out the
   * step timeout. The delay before each poll is shortened so the last poll falls on the grace's end.
   */
  stuck?: { state: string; graceMs: number; error: (msInState: number) => Error }
}

/** Polls until `probe` says done; logs the state and elapsed time whenever the state changes. */
export async function pollUntil<T>(
  o: PollOptions<T>
): Promise<{ value: T | undefined; state: string; polls: number }> {
  const start = o.startedAt ?? Date.now()
  let delay = o.backoff.initialMs
  let last = '(not read yet)'
  let polls = 0
  /** When the probe first reported `stuck.state` (in this run of it). */
  let stuckSince: number | undefined
  for (;;) {
    const r = await o.probe()
    polls++
    if (r.state !== last) {
      o.log.info(`${o.step}: ${r.state} (${formatDuration(Date.now() - start)} elapsed)`)
      last = r.state
    }
    if (r.done) return { value: r.value, state: r.state, polls }
    await o.onState?.(r.state)
    let stuckLeft = Infinity
    if (o.stuck && r.state.toLowerCase() === o.stuck.state.toLowerCase()) {
      stuckSince ??= Date.now()
      const inState = Date.now() - stuckSince
      if (inState >= o.stuck.graceMs) throw o.stuck.error(inState)
      stuckLeft = o.stuck.graceMs - inState
    } else stuckSince = undefined
    const elapsed = Date.now() - start
    const wait = Math.min(
      stuckLeft,
      r.retryAfterMs !== undefined ? Math.min(o.backoff.maxMs, r.retryAfterMs) : delay
    )
    if (elapsed + wait > o.timeoutMs) {
      throw new AzureWaitTimeoutError(o.step, last, elapsed, o.timeoutHint?.(last))
    }
    // A cancelled run stops waiting now (src/util/cancel.ts), the resource left as it is.
    await sleep(wait, cancelSignal()).catch(() => {
      throw cancelledWhile(`${o.step} is ${last} (waiting for it in Azure)`)
    })
    if (r.retryAfterMs === undefined)
      delay = Math.min(o.backoff.maxMs, Math.round(delay * (o.backoff.factor ?? 1.5)))
  }
}

/** The Retry-After header of a raw response in milliseconds (delay-seconds or an HTTP date). */
export function retryAfterMs(
  headers: { get(name: string): string | undefined } | undefined
): number | undefined {
  const v = headers?.get('retry-after')
  if (!v) return undefined
  const seconds = Number(v)
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000)
  const date = Date.parse(v)
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now())
}
