// The polite client: the client-side token bucket (burst, then QPS, first come first served) that
// every Kubernetes request and watch start goes through, and a whole run — the stack applied on a
// fresh pool, then verified with the probe DaemonSet — that converges against an API server that
// throttles every client (scenario kube.throttle: 429 with Retry-After), retrying as told.
import { jest } from '@jest/globals'
import { KubeClient } from '../../../src/kube/client.js'
import { TokenBucket } from '../../../src/kube/rate-limit.js'
import { applyStack } from '../../../src/stack/index.js'
import { runVerification } from '../../../src/verify/index.js'
import { collectLog, startStackWorld, useHelmStandin } from '../../support/stack-world.js'

jest.setTimeout(300_000)

describe('the client-side token bucket', () => {
  function fakeClock() {
    let now = 0
    const sleeps: number[] = []
    return {
      sleeps,
      advance: (ms: number) => (now += ms),
      clock: {
        now: () => now,
        sleep: async (ms: number) => {
          sleeps.push(ms)
        }
      }
    }
  }

  it('lets a burst through at once, then spaces requests at 1/QPS in the order they came', async () => {
    const c = fakeClock()
    const b = new TokenBucket({ qps: 20, burst: 30 }, c.clock)
    const waits = await Promise.all(Array.from({ length: 34 }, () => b.take()))
    expect(waits.slice(0, 30)).toEqual(Array(30).fill(0))
    expect(waits.slice(30)).toEqual([50, 100, 150, 200])
    expect(b.taken).toBe(34)
    expect(b.waited).toEqual({ requests: 4, ms: 500 })
  })

  it('refills at QPS while idle, never beyond the burst', async () => {
    const c = fakeClock()
    const b = new TokenBucket({ qps: 5, burst: 10 }, c.clock)
    for (let i = 0; i < 10; i++) await b.take()
    c.advance(1000) // 5 tokens back
    const waits: number[] = []
    for (let i = 0; i < 6; i++) waits.push(await b.take())
    expect(waits).toEqual([0, 0, 0, 0, 0, 200])
    c.advance(60_000)
    const after: number[] = []
    for (let i = 0; i < 11; i++) after.push(await b.take())
    expect(after.filter(w => w === 0)).toHaveLength(10)
  })
})

describe('against an API server that throttles', () => {
  it('a fresh apply and the verification converge; every request took a token; the 429s were retried', async () => {
    await useHelmStandin()
    const w = await startStackWorld({
      nodes: 2,
      scenario: { kube: { timeScale: 0.001, throttle: { qps: 10, burst: 10, retryAfter: 1 } } }
    })
    try {
      const settings = w.settings({ retries: '10' })
      const log = collectLog()
      const res = await applyStack({ settings, kubeconfigPath: w.kubeconfigPath, log })
      if (!res.ok) console.log(res.diagnostics.map(d => d.text).join('\n\n'))
      expect(res.ok).toBe(true)
      expect(res.steps.length).toBeGreaterThan(0)
      expect(res.steps.every(s => s.status === 'success')).toBe(true)
      const kube = KubeClient.fromFile(w.kubeconfigPath, { retries: 10, rateLimit: { qps: 50, burst: 50 } })
      w.recorder.reset()
      const taken = kube.bucket.taken
      // A burst of 100 reads at once through the same client (its own bucket lets 50 go at once and
      // the rest within a second): they outrun a server that admits 10 at once and 10 a second
      // unless the machine takes 9 s to send them, so some are throttled (whether the
      // verification alone outruns it depends on the machine's speed).
      const burst = await Promise.all(
        Array.from({ length: 100 }, () => kube.list('v1', 'ConfigMap', { namespace: 'kube-system' }))
      )
      expect(burst.every(l => Array.isArray(l.items))).toBe(true)
      const v = await runVerification({ settings, kube, mode: 'verify' })
      expect(v.checks.length).toBeGreaterThan(0)
      expect(v.checks.map(c => [c.name, c.status])).toEqual(v.checks.map(c => [c.name, 'pass']))
      const records = w.recorder.records.filter(r => r.service === 'kube')
      // Throttled, and retried until it went through.
      expect(records.filter(r => r.status === 429).length).toBeGreaterThan(0)
      // One token per request the client sent (discovery, lists, the watch start, writes, retries).
      expect(kube.bucket.taken - taken).toBe(records.length)
    } finally {
      await w.close()
    }
  })
})
