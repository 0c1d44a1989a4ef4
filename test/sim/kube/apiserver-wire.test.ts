// What the simulated API server puts on the wire where clients read it field by field: Status
// causes keyed `reason`, the two kinds of 404 (a Status with empty details inside a built-in
// group-version, Go's plain-text `404 page not found` elsewhere), and watches that turn a selector
// change into DELETED / ADDED and answer a too-old resourceVersion with a 410 ERROR event.
import { describe, expect, it } from '@jest/globals'
import { CoreV1Api, PatchStrategy, Watch, setHeaderOptions } from '@kubernetes/client-node'
import { rawRequest, waitFor, worldForTests, failureStatus } from '../../support/apiserver-world.js'

const w = worldForTests()

describe('Status on the wire', () => {
  it('keys each cause by reason, as metav1.StatusCause serialises', async () => {
    const r = await rawRequest(w, '/api/v1/namespaces/default/configmaps', {
      method: 'POST',
      body: JSON.stringify({ metadata: { name: 'bad' }, data: { 'no/slash': 'x' } })
    })
    expect(r.status).toBe(422)
    expect(r.json.details.causes[0]).toMatchObject({ reason: 'FieldValueInvalid', field: 'data[no/slash]' })
    expect(r.json.details.causes[0]).not.toHaveProperty('type')
  })

  it('answers an unknown resource of a built-in group-version with a Status whose details are empty', async () => {
    for (const p of [
      '/api/v1/frobs',
      '/apis/apps/v1/namespaces/default/frobs',
      '/api/v1/namespaces/default/pods/x/frob'
    ]) {
      const r = await rawRequest(w, p)
      expect(r.status).toBe(404)
      expect(r.json).toEqual(
        failureStatus(404, 'the server could not find the requested resource', {
          reason: 'NotFound',
          details: {}
        })
      )
    }
  })

  it('answers a path no API serves with plain-text 404 page not found', async () => {
    for (const p of [
      '/apis/nowhere.example.com/v1/things',
      '/apis/apps/v9/deployments',
      '/nothing',
      '/apis/nowhere.example.com'
    ]) {
      const r = await rawRequest(w, p)
      expect(r.status).toBe(404)
      expect(r.headers.get('content-type')).toBe('text/plain; charset=utf-8')
      expect(r.text).toBe('404 page not found\n')
    }
  })
})

describe('watches', () => {
  it('delivers an object leaving a label selector as DELETED and one entering it as ADDED', async () => {
    const core = w.kc.makeApiClient(CoreV1Api)
    const cm = (name: string, tier: string) => ({ metadata: { name, labels: { tier } }, data: { v: '1' } })
    await core.createNamespacedConfigMap({ namespace: 'default', body: cm('sel-a', 'gpu') })
    await core.createNamespacedConfigMap({ namespace: 'default', body: cm('sel-b', 'cpu') })
    const list = await core.listNamespacedConfigMap({ namespace: 'default', labelSelector: 'tier=gpu' })
    const seen: string[] = []
    const req = await new Watch(w.kc).watch(
      '/api/v1/namespaces/default/configmaps',
      { labelSelector: 'tier=gpu', resourceVersion: list.metadata!.resourceVersion },
      (type, obj) => seen.push(`${type}:${obj.metadata.name}:${obj.metadata.labels?.tier}`),
      () => undefined
    )
    const relabel = (name: string, tier: string) =>
      core.patchNamespacedConfigMap(
        { namespace: 'default', name, body: { metadata: { labels: { tier } } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch)
      )
    await relabel('sel-a', 'cpu')
    await relabel('sel-b', 'gpu')
    await relabel('sel-b', 'gpu-2')
    await waitFor(() => seen.length >= 3)
    req.abort()
    // The DELETED event carries the object as it last matched.
    expect(seen).toEqual(['DELETED:sel-a:gpu', 'ADDED:sel-b:gpu', 'DELETED:sel-b:gpu'])
  })

  it('answers a watch from a version before the watch cache window with a 410 ERROR event', async () => {
    const core = w.kc.makeApiClient(CoreV1Api)
    const first = await core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'old-0' } }
    })
    const old = first.metadata!.resourceVersion!
    // More than the window's 100 events, spread over more than 75 s of the world's clock.
    for (let i = 1; i <= 120; i++) {
      w.clock.advance(1_000)
      await core.replaceNamespacedConfigMap({
        namespace: 'default',
        name: 'old-0',
        body: { metadata: { name: 'old-0' }, data: { i: String(i) } }
      })
    }
    const r = await rawRequest(w, `/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${old}`)
    expect(r.status).toBe(200)
    const event = JSON.parse(r.text.trim().split('\n')[0])
    expect(event.type).toBe('ERROR')
    expect(event.object).toMatchObject({ kind: 'Status', code: 410, reason: 'Expired' })
    expect(event.object.message).toMatch(/^too old resource version: \d+ \(\d+\)$/)
  })
})
