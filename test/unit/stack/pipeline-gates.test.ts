// What the pipelined waits share besides the cluster: LocalSignal (a watch source holding one
// Signal object whose resourceVersion goes up on each poke, told on the next turn of the event
// loop, pokes in one turn coalesced, stop ending the watch once) and PoolGate (the node pool as
// ready, provisioning, then ready with its size or failed with the reason, telling onChange).
import { afterEach, jest } from '@jest/globals'
import type { WatchEvent } from '../../../src/kube/watch.js'
import { LocalSignal, PoolGate, type PoolInfo } from '../../../src/stack/pipeline-gates.js'

const turn = (): Promise<void> => new Promise(r => setImmediate(r))

const signalObject = (rv: string) => ({
  apiVersion: 'v1',
  kind: 'Signal',
  metadata: { name: 'pipeline', resourceVersion: rv }
})

afterEach(() => {
  jest.restoreAllMocks()
})

describe('LocalSignal', () => {
  it('lists one Signal object at resourceVersion 0 before any poke', async () => {
    const source = new LocalSignal().source()
    expect(source.name).toBe('pipeline-signal')
    expect(await source.list()).toEqual({ items: [signalObject('0')], resourceVersion: '0' })
  })

  it('tells every watch on the next turn, not inside poke, with a MODIFIED at the next version', async () => {
    const signal = new LocalSignal()
    const source = signal.source()
    const a: WatchEvent[] = []
    const b: WatchEvent[] = []
    await source.watch(
      '0',
      e => a.push(e),
      () => undefined
    )
    await source.watch(
      '0',
      e => b.push(e),
      () => undefined
    )
    signal.poke()
    expect(a).toEqual([])
    await turn()
    expect(a).toEqual([{ type: 'MODIFIED', object: signalObject('1') }])
    expect(b).toEqual([{ type: 'MODIFIED', object: signalObject('1') }])
    expect(await source.list()).toEqual({ items: [signalObject('1')], resourceVersion: '1' })
  })

  it('coalesces pokes of one turn into one event, and pokes again after it was told', async () => {
    const signal = new LocalSignal()
    const source = signal.source()
    const seen: string[] = []
    await source.watch(
      '0',
      e => seen.push(e.object.metadata.resourceVersion!),
      () => undefined
    )
    signal.poke()
    signal.poke()
    signal.poke()
    await turn()
    await turn()
    expect(seen).toEqual(['1'])
    signal.poke()
    await turn()
    expect(seen).toEqual(['1', '2'])
  })

  it('moves its version on a poke even with no watch open', async () => {
    const signal = new LocalSignal()
    signal.poke()
    await turn()
    expect((await signal.source().list()).resourceVersion).toBe('1')
  })

  it('tells every listener of the turn even when one stops another meanwhile', async () => {
    const signal = new LocalSignal()
    const source = signal.source()
    const seen: string[] = []
    const handles: { second?: { stop(): void } } = {}
    await source.watch(
      '0',
      () => {
        seen.push('first')
        handles.second?.stop()
      },
      () => undefined
    )
    handles.second = await source.watch(
      '0',
      () => seen.push('second'),
      () => undefined
    )
    signal.poke()
    await turn()
    expect(seen).toEqual(['first', 'second'])
    signal.poke()
    await turn()
    expect(seen).toEqual(['first', 'second', 'first'])
  })

  it('stop ends the watch with onDone(null) once, and no event comes after it', async () => {
    const signal = new LocalSignal()
    const source = signal.source()
    const events: WatchEvent[] = []
    const done: unknown[] = []
    const w = await source.watch(
      '0',
      e => events.push(e),
      e => done.push(e)
    )
    expect(done).toEqual([])
    w.stop()
    expect(done).toEqual([null])
    w.stop()
    expect(done).toEqual([null])
    signal.poke()
    await turn()
    expect(events).toEqual([])
  })
})

describe('PoolGate', () => {
  it('is ready at once, since now and with no size, without a promise; onChange is not called', () => {
    jest.spyOn(Date, 'now').mockReturnValue(1_000)
    const onChange = jest.fn()
    const gate = new PoolGate(undefined, onChange)
    expect(gate.state).toBe('ready')
    expect(gate.readyAt).toBe(1_000)
    expect(gate.count).toBeUndefined()
    expect(gate.reason).toBeUndefined()
    expect(onChange).not.toHaveBeenCalled()
  })

  it('is provisioning until the pool resolves, then ready with its size and when, telling onChange', async () => {
    const now = jest.spyOn(Date, 'now').mockReturnValue(1_000)
    let resolve!: (p: PoolInfo) => void
    const pool = new Promise<PoolInfo>(r => (resolve = r))
    const onChange = jest.fn()
    const gate = new PoolGate(pool, onChange)
    expect(gate.state).toBe('provisioning')
    expect(gate.readyAt).toBeUndefined()
    expect(gate.count).toBeUndefined()
    now.mockReturnValue(5_000)
    resolve({ count: 3 })
    await pool
    await turn()
    expect(gate.state).toBe('ready')
    expect(gate.count).toBe(3)
    expect(gate.readyAt).toBe(5_000)
    expect(gate.reason).toBeUndefined()
    expect(onChange).toHaveBeenCalledTimes(1)
  })

  it('is failed with the error message when the pool rejects, telling onChange', async () => {
    const onChange = jest.fn()
    const gate = new PoolGate(Promise.reject(new Error('quota exceeded')), onChange)
    expect(gate.state).toBe('provisioning')
    await turn()
    expect(gate.state).toBe('failed')
    expect(gate.reason).toBe('quota exceeded')
    expect(gate.readyAt).toBeUndefined()
    expect(gate.count).toBeUndefined()
    expect(onChange).toHaveBeenCalledTimes(1)
  })

  it('takes a rejection that is not an Error as its string', async () => {
    const gate = new PoolGate(Promise.reject('VM size unavailable'), () => undefined)
    await turn()
    expect(gate.state).toBe('failed')
    expect(gate.reason).toBe('VM size unavailable')
  })
})
