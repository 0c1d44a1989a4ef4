// watchAll/watchUntil over in-memory sources: list then watch from the list's resourceVersion,
// resume after a dropped connection from the last resourceVersion seen, relist after 410 Gone,
// fail fast, time out with the last state, re-evaluate for grace periods.
import { jest } from '@jest/globals'
import {
  watchAll,
  watchUntil,
  WatchFailError,
  WatchTimeoutError,
  type WatchEvent,
  type WatchSource
} from '../../../src/kube/watch.js'
import type { KubeObject } from '../../../src/kube/types.js'

class FakeSource implements WatchSource {
  name = 'fake'
  rv = 1
  objects = new Map<string, KubeObject>()
  history: Array<{ rv: number; ev: WatchEvent }> = []
  watchers = new Set<{ onEvent: (e: WatchEvent) => void; onDone: (e: unknown) => void }>()
  lists = 0
  watchesFrom: string[] = []
  /** Oldest rv a watch may start from; older → 410. */
  horizon = 0

  put(name: string, data: Record<string, unknown> = {}): void {
    const type = this.objects.has(name) ? 'MODIFIED' : 'ADDED'
    const o: KubeObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'ns', resourceVersion: String(++this.rv) },
      ...data
    }
    this.objects.set(name, o)
    this.emit({ type, object: o })
  }
  remove(name: string): void {
    const o = this.objects.get(name)!
    this.objects.delete(name)
    const del = { ...o, metadata: { ...o.metadata, resourceVersion: String(++this.rv) } }
    this.emit({ type: 'DELETED', object: del })
  }
  private emit(ev: WatchEvent): void {
    this.history.push({ rv: this.rv, ev })
    for (const w of this.watchers) w.onEvent(ev)
  }
  dropAll(err: unknown = new Error('connection reset')): void {
    for (const w of [...this.watchers]) {
      this.watchers.delete(w)
      w.onDone(err)
    }
  }
  async list() {
    this.lists++
    return { items: [...this.objects.values()], resourceVersion: String(this.rv) }
  }
  async watch(resourceVersion: string, onEvent: (e: WatchEvent) => void, onDone: (e: unknown) => void) {
    this.watchesFrom.push(resourceVersion)
    const from = Number(resourceVersion)
    const w = { onEvent, onDone }
    if (from < this.horizon) {
      setImmediate(() => onEvent({ type: 'ERROR', object: { kind: 'Status', code: 410 } as any }))
      setImmediate(() => onDone(null))
      return { stop: () => undefined }
    }
    // replay what happened after `from`
    for (const h of this.history.filter(h => h.rv > from)) setImmediate(() => onEvent(h.ev))
    this.watchers.add(w)
    return { stop: () => this.watchers.delete(w) }
  }
}

const tick = (): Promise<void> => new Promise(r => setTimeout(r, 5))
const readyCount = (objs: KubeObject[]): number => objs.filter(o => o.ready).length

describe('watchUntil', () => {
  it('resolves from the initial list when already satisfied (no watch events needed)', async () => {
    const s = new FakeSource()
    s.put('a', { ready: true })
    const out = await watchUntil(s, objs => ({ done: readyCount(objs) === 1 }), { timeoutMs: 30_000 })
    expect(out.objects).toHaveLength(1)
    expect(s.lists).toBe(1)
  })

  it('follows events, reports changes, resumes after a drop from the last resourceVersion', async () => {
    const s = new FakeSource()
    s.put('a')
    s.put('b')
    const messages: string[] = []
    const p = watchUntil(
      s,
      objs => ({ done: readyCount(objs) === 2, message: `${readyCount(objs)}/2 ready` }),
      {
        timeoutMs: 5000,
        onChange: v => messages.push(v.message!)
      }
    )
    await tick()
    s.put('a', { ready: true })
    await tick()
    const rvBeforeDrop = String(s.rv)
    s.dropAll()
    // happens while disconnected: must be replayed on resume
    s.put('b', { ready: true })
    const out = await p
    expect(out.verdict.done).toBe(true)
    expect(messages).toEqual(['0/2 ready', '1/2 ready', '2/2 ready'])
    expect(s.lists).toBe(1)
    expect(s.watchesFrom).toContain(rvBeforeDrop)
  })

  it('relists after 410 Gone and sees deletions that happened meanwhile', async () => {
    const s = new FakeSource()
    s.put('a')
    s.put('b')
    const p = watchUntil(s, objs => ({ done: objs.length === 1 && readyCount(objs) === 1 }), {
      timeoutMs: 5000
    })
    await tick()
    s.dropAll()
    s.remove('b')
    s.put('a', { ready: true })
    s.horizon = s.rv // history compacted: resuming from before these changes is too old
    const out = await p
    expect(out.objects.map(o => o.metadata.name)).toEqual(['a'])
    expect(s.lists).toBe(2)
  })

  it('fails fast with the reason and the observed set', async () => {
    const s = new FakeSource()
    s.put('a')
    const p = watchUntil(
      s,
      objs => (objs.some(o => o.crash) ? { done: false, fail: 'a crashed' } : { done: false }),
      { timeoutMs: 5000 }
    )
    await tick()
    s.put('a', { crash: true })
    await expect(p).rejects.toBeInstanceOf(WatchFailError)
    await expect(p).rejects.toThrow('a crashed')
  })

  it('times out with the last state', async () => {
    const s = new FakeSource()
    s.put('a')
    const err = await watchUntil(s, () => ({ done: false, message: 'still waiting on a' }), {
      timeoutMs: 50
    }).catch(e => e)
    expect(err).toBeInstanceOf(WatchTimeoutError)
    expect(err.message).toContain('still waiting on a')
    expect(err.snapshot.only).toHaveLength(1)
  })

  it('re-evaluates after recheckInMs without any event (grace periods)', async () => {
    const s = new FakeSource()
    s.put('a')
    let calls = 0
    const out = await watchUntil(
      s,
      () => (++calls === 1 ? { done: false, recheckInMs: 10 } : { done: false, fail: 'grace over' }),
      { timeoutMs: 60_000 }
    ).catch(e => e)
    // No event came after the first evaluation: only the recheck can have made the second.
    expect(out).toBeInstanceOf(WatchFailError)
    expect(out.message).toContain('grace over')
    expect(calls).toBe(2)
  })
})

describe('watchAll', () => {
  it('evaluates over several sources only once all are listed', async () => {
    const a = new FakeSource()
    const b = new FakeSource()
    a.put('x')
    const p = watchAll({ a, b }, s => ({ done: s.a.length === 1 && s.b.length === 1 }), { timeoutMs: 30_000 })
    await tick()
    b.put('y')
    const out = await p
    expect(out.snapshot.b[0].metadata.name).toBe('y')
  })
})

describe('watch edges', () => {
  it('a timeout says the seconds and the last state, and names itself', async () => {
    const s = new FakeSource()
    const err = await watchUntil(s, () => ({ done: false }), { timeoutMs: 40 }).catch(e => e)
    expect(err.name).toBe('WatchTimeoutError')
    expect(err.message).toBe('timed out after 0s')
    expect(err.objects).toEqual([])
    expect(new WatchTimeoutError({ done: false, message: 'm' }, {}, 90_400).message).toBe(
      'timed out after 90s; last state: m'
    )
    const fail = new WatchFailError({ done: false }, {})
    expect([fail.name, fail.message]).toEqual(['WatchFailError', 'failed'])
  })

  it('reports a change of message only, and stops every watch when it settles', async () => {
    const s = new FakeSource()
    s.put('a')
    const seen: string[] = []
    let n = 0
    const p = watchUntil(s, objs => ({ done: readyCount(objs) === 1, message: n++ < 2 ? 'same' : 'other' }), {
      timeoutMs: 5000,
      onChange: v => seen.push(v.message!)
    })
    await tick()
    s.put('b')
    await tick()
    s.put('a', { ready: true })
    await p
    expect(seen).toEqual(['same', 'other'])
    expect(s.watchers.size).toBe(0)
  })

  it('ignores bookmarks for the set but resumes from their resourceVersion; a deletion leaves the set', async () => {
    const s = new FakeSource()
    s.put('a')
    s.put('b')
    let evaluations = 0
    const p = watchUntil(
      s,
      objs => {
        evaluations++
        return { done: objs.length === 1 }
      },
      { timeoutMs: 5000 }
    )
    await tick()
    for (const w of s.watchers)
      w.onEvent({ type: 'BOOKMARK', object: { metadata: { resourceVersion: '99' } } as KubeObject })
    await tick()
    expect(evaluations).toBe(1)
    s.dropAll()
    // It resumes after its reconnect delay: wait for the new watch, however busy the machine.
    for (let i = 0; i < 1000 && s.watchers.size === 0; i++) await tick()
    expect(s.watchesFrom.at(-1)).toBe('99')
    s.history = []
    s.remove('b')
    const out = await p
    expect(out.objects.map(o => o.metadata.name)).toEqual(['a'])
  })

  it('fails with the predicate’s own error', async () => {
    const s = new FakeSource()
    await expect(
      watchUntil(
        s,
        () => {
          throw new Error('predicate broke')
        },
        { timeoutMs: 5000 }
      )
    ).rejects.toThrow('predicate broke')
  })

  it('stops at once on an abort, before or during the wait', async () => {
    const s = new FakeSource()
    const before = new AbortController()
    before.abort(new Error('cancelled before'))
    await expect(
      watchUntil(s, () => ({ done: false }), { timeoutMs: 5000, signal: before.signal })
    ).rejects.toThrow('cancelled before')
    expect(s.lists).toBe(0)
    const during = new AbortController()
    const p = watchUntil(s, () => ({ done: false }), { timeoutMs: 60_000, signal: during.signal })
    await tick()
    during.abort()
    await expect(p).rejects.toThrow()
    expect(s.watchers.size).toBe(0)
  })

  it('says why it resumes or relists; an idle stream closed by the client resumes at once, without a notice', async () => {
    const s = new FakeSource()
    s.put('a')
    const notices: string[] = []
    const p = watchUntil(s, objs => ({ done: readyCount(objs) === 1 }), {
      timeoutMs: 5000,
      onNotice: line => notices.push(line)
    })
    await tick()
    const idle = Object.assign(new Error('idle'), { name: 'TimeoutError' })
    s.dropAll(idle)
    for (let i = 0; i < 1000 && s.watchers.size === 0; i++) await tick()
    expect(notices).toEqual([])
    expect(s.watchers.size).toBe(1)
    s.dropAll({ statusCode: 410 })
    for (let i = 0; i < 1000 && s.lists < 2; i++) await tick()
    expect(notices).toEqual(['fake: watch history expired (410 Gone); listing again'])
    expect(s.lists).toBe(2)
    s.dropAll(new Error('connection reset'))
    for (let i = 0; i < 1000 && notices.length < 2; i++) await tick()
    expect(notices[1]).toBe(`fake: watch dropped (connection reset); resuming from resourceVersion ${s.rv}`)
    s.put('a', { ready: true })
    await p
  })

  it('waits longer after each failure in a row, up to five seconds, and ends the wait on a timeout', async () => {
    jest.useFakeTimers()
    try {
      const s = new FakeSource()
      const failing: WatchSource = {
        name: 'down',
        list: () => s.list(),
        watch: async (_rv, _onEvent, onDone) => {
          queueMicrotask(() => onDone(new Error('refused')))
          return { stop: () => undefined }
        }
      }
      const notices: number[] = []
      const p = watchUntil(failing, () => ({ done: false }), {
        timeoutMs: 20_000,
        onNotice: () => notices.push(Date.now())
      }).catch(e => e)
      // Delays 100, 200, 400 … ms (50 × 2^failures), capped at 5000.
      for (let i = 0; i < 40; i++) await jest.advanceTimersByTimeAsync(100)
      const gaps = notices.slice(1).map((t, i) => t - notices[i])
      expect(gaps.slice(0, 5)).toEqual([100, 200, 400, 800, 1600])
      await jest.advanceTimersByTimeAsync(20_000)
      expect(await p).toBeInstanceOf(WatchTimeoutError)
      expect(Math.max(...notices.slice(1).map((t, i) => t - notices[i]))).toBeLessThanOrEqual(5000)
    } finally {
      jest.useRealTimers()
    }
  })
})
