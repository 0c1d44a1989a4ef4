// watchAll/watchUntil over in-memory sources: list then watch from the list's resourceVersion,
// resume after a dropped connection from the last resourceVersion seen, relist after 410 Gone,
// fail fast, time out with the last state, re-evaluate for grace periods.
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
