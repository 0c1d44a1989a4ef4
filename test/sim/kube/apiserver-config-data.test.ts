// Secrets and ConfigMaps as kube-apiserver 1.33 decodes and validates them: `stringData` merged into
// `data` and never stored, bad base64 refused while decoding (400), `immutable: true` kept (422),
// and the 1 MiB limit with upstream's field and wording.
import { describe, expect, it } from '@jest/globals'
import { goBase64ErrorOffset } from '../../../sim/kube/apiserver/byte-fields.js'
import { rawRequest, worldForTests, rawPatch } from '../../support/apiserver-world.js'

const b64 = (s: string) => Buffer.from(s).toString('base64')
const post = (plural: string, body: unknown) =>
  rawRequest(w, `/api/v1/namespaces/default/${plural}`, { method: 'POST', body: JSON.stringify(body) })
const put = (plural: string, name: string, body: unknown) =>
  rawRequest(w, `/api/v1/namespaces/default/${plural}/${name}`, { method: 'PUT', body: JSON.stringify(body) })
const patch = (plural: string, name: string, body: unknown) =>
  rawPatch(w, `/api/v1/namespaces/default/${plural}/${name}`, 'application/merge-patch+json', body)

const w = worldForTests()

describe('Secret and ConfigMap data', () => {
  it('merges stringData into data (overriding a key) and never stores it', async () => {
    const created = await post('secrets', {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'sd' },
      data: { a: b64('from-data'), b: b64('kept') },
      stringData: { a: 'from-stringData', c: 'new' }
    })
    expect(created.status).toBe(201)
    expect(created.json.data).toEqual({ a: b64('from-stringData'), b: b64('kept'), c: b64('new') })
    expect(created.json).not.toHaveProperty('stringData')
    expect(w.store.get(w.type('', 'secrets'), 'default', 'sd')).not.toHaveProperty('stringData')
    const replaced = await put('secrets', 'sd', {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'sd' },
      stringData: { only: 'this' }
    })
    expect(replaced.json.data).toEqual({ only: b64('this') })
    const patched = await patch('secrets', 'sd', { stringData: { more: 'x' } })
    expect(patched.json.data).toEqual({ only: b64('this'), more: b64('x') })
    expect(patched.json).not.toHaveProperty('stringData')
  })

  it('refuses data that is not base64 while decoding the body (400, Go offset)', async () => {
    const bad = await post('secrets', {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'bad' },
      data: { k: 'abc$' }
    })
    expect(bad.status).toBe(400)
    expect(bad.json).toMatchObject({
      reason: 'BadRequest',
      message: 'Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 3'
    })
    const binary = await post('configmaps', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'bad' },
      binaryData: { k: 'YWJj' + 'ZA' }
    })
    expect(binary.status).toBe(400)
    expect(binary.json.message).toBe(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: illegal base64 data at input byte 4'
    )
    expect(w.store.tryGet(w.type('', 'secrets'), 'default', 'bad')).toBeUndefined()
  })

  it('places base64 errors where Go encoding/base64 does', () => {
    expect(goBase64ErrorOffset('')).toBeUndefined()
    expect(goBase64ErrorOffset('YWJj')).toBeUndefined()
    expect(goBase64ErrorOffset('YQ==')).toBeUndefined()
    expect(goBase64ErrorOffset('YQ=\n=')).toBeUndefined()
    expect(goBase64ErrorOffset('YQ')).toBe(0) // unpadded: the quantum's start
    expect(goBase64ErrorOffset('YWJjZA')).toBe(4)
    expect(goBase64ErrorOffset('Y===')).toBe(1) // padding too early
    expect(goBase64ErrorOffset('YQ=')).toBe(3) // not enough padding
    expect(goBase64ErrorOffset('YQ=a')).toBe(2) // incorrect padding
    expect(goBase64ErrorOffset('YQ==YQ==')).toBe(4) // trailing garbage
    expect(goBase64ErrorOffset('ab-d')).toBe(2)
  })

  it('keeps an immutable Secret and ConfigMap: 422 on a data change, labels still allowed', async () => {
    await post('configmaps', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'frozen' },
      data: { a: '1' },
      immutable: true
    })
    const changed = await patch('configmaps', 'frozen', { data: { a: '2' } })
    expect(changed.status).toBe(422)
    expect(changed.json.message).toBe(
      'ConfigMap "frozen" is invalid: data: Forbidden: field is immutable when `immutable` is set'
    )
    expect(changed.json.details.causes).toEqual([
      {
        reason: 'FieldValueForbidden',
        message: 'Forbidden: field is immutable when `immutable` is set',
        field: 'data'
      }
    ])
    const thawed = await patch('configmaps', 'frozen', { immutable: false })
    expect(thawed.status).toBe(422)
    expect(thawed.json.details.causes[0].field).toBe('immutable')
    expect((await patch('configmaps', 'frozen', { metadata: { labels: { ok: 'yes' } } })).status).toBe(200)

    await post('secrets', {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'frozen' },
      data: { a: b64('1') },
      immutable: true
    })
    const secret = await patch('secrets', 'frozen', { stringData: { a: '2' } })
    expect(secret.status).toBe(422)
    expect(secret.json.message).toBe(
      'Secret "frozen" is invalid: data: Forbidden: field is immutable when `immutable` is set'
    )
  })

  it('refuses more than 1 MiB of values with upstream field and wording', async () => {
    const big = 'x'.repeat(600 * 1024)
    const cm = await post('configmaps', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'big' },
      data: { a: big, b: big }
    })
    expect(cm.status).toBe(422)
    expect(cm.json.message).toBe(
      'ConfigMap "big" is invalid: []: Too long: may not be more than 1048576 bytes'
    )
    expect(cm.json.details.causes).toEqual([
      { reason: 'FieldValueTooLong', message: 'Too long: may not be more than 1048576 bytes', field: '[]' }
    ])
    const secret = await post('secrets', {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'big' },
      data: { a: b64(big), b: b64(big) }
    })
    expect(secret.status).toBe(422)
    expect(secret.json.message).toBe(
      'Secret "big" is invalid: data: Too long: may not be more than 1048576 bytes'
    )
    // Exactly 1 MiB is allowed.
    const edge = await post('configmaps', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'edge' },
      data: { a: 'y'.repeat(1024 * 1024) }
    })
    expect(edge.status).toBe(201)
  })
})
