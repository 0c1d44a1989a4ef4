// The Azure steps' bounded waits, on Jest's fake clock: polling with growing delays up to the
// maximum, the server's Retry-After first, a log line per state change with the elapsed time, the
// timeout that names the step and the last state, a state that ends the wait early once stuck, and
// an abortable sleep.
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals'
import {
  AzureWaitTimeoutError,
  pollUntil,
  retryAfterMs,
  sleep,
  type PollOptions
} from '../../../src/azure/wait.js'
import { captureLog } from '../../support/capture-log.js'

type Probe = { done: boolean; state: string; value?: string; retryAfterMs?: number }

/** A probe answering `answers` in turn (the last one again after), noting when it was read. */
function scripted(answers: Probe[]): { probe: () => Promise<Probe>; at: number[] } {
  const at: number[] = []
  let i = 0
  return {
    at,
    probe: async () => {
      at.push(Date.now())
      return answers[Math.min(i++, answers.length - 1)]
    }
  }
}

/** Answers of a wait that is not done yet, in these states. */
const pending = (...states: string[]): Probe[] => states.map(state => ({ done: false, state }))

beforeEach(() => {
  jest.useFakeTimers({ now: 1_000_000 })
})
afterEach(() => {
  jest.useRealTimers()
})

/** Runs `p` to its end on the fake clock. */
async function settle<T>(p: Promise<T>): Promise<T> {
  const outcome = p.then(
    v => ({ v }),
    (e: unknown) => ({ e })
  )
  for (let i = 0; i < 1000; i++) await jest.advanceTimersByTimeAsync(1000)
  const r = (await outcome) as { v?: T; e?: unknown }
  if ('e' in r) throw r.e
  return r.v as T
}

/** pollUntil over the scripted probe, as step x with a log of its own unless `o` says otherwise. */
const pollScripted = (s: ReturnType<typeof scripted>, o: Omit<Partial<PollOptions<string>>, 'probe'>) =>
  pollUntil({
    step: 'x',
    timeoutMs: 60_000,
    backoff: { initialMs: 100, maxMs: 100 },
    log: captureLog(),
    probe: s.probe,
    ...o
  })

describe('pollUntil', () => {
  it('polls with delays growing by the factor up to the maximum, and returns the value', async () => {
    const s = scripted([
      ...Array.from({ length: 5 }, () => ({ done: false, state: 'Registering' })),
      { done: true, state: 'Registered', value: 'ok' }
    ])
    const log = captureLog()
    const r = await settle(
      pollScripted(s, {
        step: 'register-feature',
        timeoutMs: 600_000,
        backoff: { initialMs: 1000, maxMs: 4000, factor: 2 },
        log
      })
    )
    expect(r).toEqual({ value: 'ok', state: 'Registered', polls: 6 })
    const gaps = s.at.slice(1).map((t, i) => t - s.at[i])
    expect(gaps).toEqual([1000, 2000, 4000, 4000, 4000])
    expect(log.lines).toEqual([
      'info: register-feature: Registering (0ms elapsed)',
      'info: register-feature: Registered (15s elapsed)'
    ])
  })

  it('grows by half each poll when no factor is given, and counts elapsed time from startedAt', async () => {
    const s = scripted([...pending('a', 'a', 'b'), { done: true, state: 'c' }])
    const log = captureLog()
    await settle(
      pollScripted(s, {
        timeoutMs: 60_000,
        backoff: { initialMs: 1000, maxMs: 10_000 },
        log,
        startedAt: Date.now() - 30_000
      })
    )
    expect(s.at.slice(1).map((t, i) => t - s.at[i])).toEqual([1000, 1500, 2250])
    expect(log.lines).toEqual([
      'info: x: a (30s elapsed)',
      'info: x: b (33s elapsed)',
      'info: x: c (35s elapsed)'
    ])
  })

  it("waits the server's Retry-After instead (bounded by the maximum) without growing the delay", async () => {
    const s = scripted([
      { done: false, state: 'Creating', retryAfterMs: 3000 },
      { done: false, state: 'Creating', retryAfterMs: 60_000 },
      ...pending('Creating', 'Creating'),
      { done: true, state: 'Succeeded' }
    ])
    await settle(
      pollScripted(s, { timeoutMs: 600_000, backoff: { initialMs: 1000, maxMs: 5000, factor: 2 } })
    )
    expect(s.at.slice(1).map((t, i) => t - s.at[i])).toEqual([3000, 5000, 1000, 2000])
  })

  it('calls onState with every state that is not done, before the next poll', async () => {
    const seen: string[] = []
    const s = scripted([...pending('a', 'a'), { done: true, state: 'b' }])
    await settle(
      pollScripted(s, {
        timeoutMs: 60_000,
        backoff: { initialMs: 100, maxMs: 100 },
        onState: st => void seen.push(st)
      })
    )
    expect(seen).toEqual(['a', 'a'])
  })

  it('times out before a poll that would pass the limit, naming the step, last state and hint', async () => {
    const s = scripted([{ done: false, state: 'Pending' }])
    const p = pollScripted(s, {
      step: 'register-feature',
      timeoutMs: 10_000,
      backoff: { initialMs: 4000, maxMs: 4000 },
      timeoutHint: last => (last === 'Pending' ? 'Pending needs approval' : undefined)
    })
    const e = (await settle(p).catch((x: unknown) => x)) as AzureWaitTimeoutError
    expect(e).toBeInstanceOf(AzureWaitTimeoutError)
    expect(e.step).toBe('register-feature')
    expect(e.lastState).toBe('Pending')
    expect(e.elapsedMs).toBe(8000)
    expect(e.message).toBe(
      'register-feature: timed out after 8s; last state seen: Pending. Pending needs approval'
    )
    expect(s.at).toHaveLength(3)
  })

  it('ends early once a stuck state lasted its grace, polling last at the grace’s end', async () => {
    const s = scripted([...pending('Creating', 'failed', 'Failed', 'Failed', 'Failed')])
    const p = pollScripted(s, {
      step: 'node-pool',
      timeoutMs: 600_000,
      backoff: { initialMs: 4000, maxMs: 4000 },
      stuck: { state: 'FAILED', graceMs: 10_000, error: ms => new Error(`failed for ${ms} ms`) }
    })
    await expect(settle(p)).rejects.toThrow('failed for 10000 ms')
    expect(s.at.map(t => t - s.at[0])).toEqual([0, 4000, 8000, 12_000, 14_000])
  })

  it('starts the stuck grace again when the state changes in between', async () => {
    const s = scripted([...pending('Failed', 'Updating', 'Failed'), { done: true, state: 'Succeeded' }])
    const r = await settle(
      pollScripted(s, {
        timeoutMs: 600_000,
        backoff: { initialMs: 4000, maxMs: 4000 },
        stuck: { state: 'Failed', graceMs: 6000, error: () => new Error('stuck') }
      })
    )
    expect(r.state).toBe('Succeeded')
  })

  it('ends with the error a probe throws', async () => {
    const p = pollUntil({
      step: 'x',
      timeoutMs: 60_000,
      backoff: { initialMs: 100, maxMs: 100 },
      log: captureLog(),
      probe: async () => {
        throw new Error('HTTP 403 AuthorizationFailed')
      }
    })
    await expect(settle(p)).rejects.toThrow('HTTP 403 AuthorizationFailed')
  })
})

describe('sleep', () => {
  it('resolves after the time, and rejects with an AbortError when aborted before or during', async () => {
    let done = false
    const p = sleep(500).then(() => (done = true))
    await jest.advanceTimersByTimeAsync(499)
    expect(done).toBe(false)
    await jest.advanceTimersByTimeAsync(1)
    await p
    expect(done).toBe(true)

    const before = new AbortController()
    before.abort()
    await expect(sleep(500, before.signal)).rejects.toMatchObject({ name: 'AbortError' })

    const during = new AbortController()
    const q = sleep(500, during.signal)
    during.abort()
    await expect(q).rejects.toThrow('The operation was aborted.')
    expect(jest.getTimerCount()).toBe(0)
  })
})

describe('retryAfterMs', () => {
  const headers = (v?: string) => ({ get: (n: string) => (n === 'retry-after' ? v : undefined) })
  it('reads delay-seconds or an HTTP date, never below zero', () => {
    expect(retryAfterMs(headers('7'))).toBe(7000)
    expect(retryAfterMs(headers('0.5'))).toBe(500)
    expect(retryAfterMs(headers('-3'))).toBe(0)
    expect(retryAfterMs(headers(new Date(Date.now() + 12_000).toUTCString()))).toBe(12_000)
    expect(retryAfterMs(headers(new Date(Date.now() - 12_000).toUTCString()))).toBe(0)
  })
  it('has none without the header or when it is neither', () => {
    expect(retryAfterMs(headers(undefined))).toBeUndefined()
    expect(retryAfterMs(headers(''))).toBeUndefined()
    expect(retryAfterMs(headers('soon'))).toBeUndefined()
    expect(retryAfterMs(undefined)).toBeUndefined()
  })
})
