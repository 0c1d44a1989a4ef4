// Scenario faults on the simulated API server (500 N times, 429 with Retry-After, socket reset,
// watch streams cut every N simulated seconds) and how client-node's Watch / ListWatch cope:
// resume from the last resourceVersion, and relist after a 410 Expired.
import { describe, expect, it } from '@jest/globals'
import {
  CoreV1Api,
  ListWatch,
  PatchStrategy,
  Watch,
  setHeaderOptions,
  type V1ConfigMap
} from '@kubernetes/client-node'
import {
  type TestWorld,
  nodeObject,
  podObject,
  startWorldForTest,
  statusOf,
  waitFor
} from '../../support/apiserver-world.js'

const listeners = (world: TestWorld) => (world.store as unknown as { listeners: Set<unknown> }).listeners.size

describe('API faults', () => {
  it('answers matching requests with 500 the given number of times', async () => {
    const w = await startWorldForTest({ faults: [{ api: 'PATCH *', status: 500, times: 2 }] })
    const core = w.kc.makeApiClient(CoreV1Api)
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'c' } } })
    const patch = () =>
      core.patchNamespacedConfigMap(
        { name: 'c', namespace: 'default', body: { data: { k: 'v' } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch)
      )
    for (let i = 0; i < 2; i++) {
      const err = await patch().then(
        () => undefined,
        e => e
      )
      expect(err).toMatchObject({ code: 500 })
      expect(statusOf(err)).toMatchObject({ kind: 'Status', reason: 'InternalError', code: 500 })
    }
    expect((await patch()).data).toEqual({ k: 'v' })
    expect((await core.readNamespacedConfigMap({ name: 'c', namespace: 'default' })).data).toEqual({ k: 'v' })
    const patches = w.recorder.records.filter(r => r.method === 'PATCH')
    expect(patches.map(r => r.status)).toEqual([500, 500, 200])
    expect(patches.every(r => r.resource === 'configmaps' && r.mutating)).toBe(true)
  })

  it('sends Retry-After with a 429 and resets sockets for reset faults', async () => {
    const w = await startWorldForTest({
      faults: [
        { api: 'POST */configmaps', status: 429, retryAfter: 3, times: 1 },
        { api: 'GET */nodes*', reset: true, times: 1 }
      ]
    })
    w.put('', 'nodes', nodeObject('n0'))
    const core = w.kc.makeApiClient(CoreV1Api)
    const err = await core
      .createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'c' } } })
      .then(
        () => undefined,
        e => e
      )
    expect(err).toMatchObject({ code: 429 })
    expect(err.headers['retry-after']).toBe('3')
    expect(statusOf(err).details.retryAfterSeconds).toBe(3)
    await expect(core.listNode()).rejects.toThrow()
    expect((await core.listNode()).items.map(n => n.metadata?.name)).toEqual(['n0'])
    const nodeGets = w.recorder.records.filter(r => r.resource === 'nodes')
    expect(nodeGets.map(r => r.status)).toEqual([0, 200])
  })
})

describe('watch faults', () => {
  it('cuts watch streams every N simulated seconds; a reset fault ends them with an error', async () => {
    const w = await startWorldForTest({
      timeScale: 0.01,
      faults: [
        { watch: 'disconnect', every: '30s', reset: true, times: 1 },
        { watch: 'disconnect', every: '20s' }
      ]
    })
    const watch = new Watch(w.kc)
    const outcomes: Array<unknown> = []
    const started = w.clock.now()
    await watch.watch(
      '/api/v1/nodes',
      {},
      () => undefined,
      err => outcomes.push(err ?? 'clean')
    )
    await waitFor(() => outcomes.length === 1)
    expect(outcomes[0]).toBeInstanceOf(Error)
    await watch.watch(
      '/api/v1/nodes',
      {},
      () => undefined,
      err => outcomes.push(err ?? 'clean')
    )
    await waitFor(() => outcomes.length === 2)
    expect(outcomes[1]).toBe('clean')
    // the cuts came on the simulated schedule: the first at 30 s, the next 20 s after the re-watch
    expect(w.clock.now() - started).toBeGreaterThanOrEqual(50_000)
    // only the CRD controller and the control plane's cache (garbage collector, namespaces) remain
    await waitFor(() => listeners(w) === 2)
  })

  it('a ListWatch resumes after cuts without relisting, and relists after a 410', async () => {
    const w = await startWorldForTest({ timeScale: 0.01, faults: [{ watch: 'disconnect', every: '30s' }] })
    const core = w.kc.makeApiClient(CoreV1Api)
    let lists = 0
    const listFn = async () => {
      lists++
      return core.listNamespacedConfigMap({ namespace: 'default' })
    }
    const lw = new ListWatch<V1ConfigMap>(
      '/api/v1/namespaces/default/configmaps',
      new Watch(w.kc),
      listFn,
      false
    )
    let connects = 0
    const errors: unknown[] = []
    lw.on('connect', () => connects++)
    lw.on('error', e => errors.push(e))
    await lw.start()
    const names = () =>
      lw
        .list('default')
        .map(c => c.metadata?.name)
        .sort()
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'a' } } })
    await waitFor(() => names().includes('a'))
    await waitFor(() => connects >= 3)
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'b' } } })
    await waitFor(() => names().includes('b'))
    expect(lists).toBe(1)

    // Other kinds move the resourceVersion on; after compaction the informer's version is too old.
    for (let i = 0; i < 3; i++) w.put('', 'pods', podObject('default', `p${i}`, 'n0'))
    w.store.compact()
    await waitFor(() => lists >= 2, 20_000)
    expect(names().join()).toBe('a,b')
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'c' } } })
    await waitFor(() => names().join() === 'a,b,c', 20_000)
    expect(errors).toEqual([])
    await lw.stop()
  }, 50_000)
})
