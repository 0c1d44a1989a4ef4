// The store's equality of stored objects (sameJson): what decides that an update is a no-op (the
// resourceVersion kept, no watch event) and that a spec changed (generation bumped).
import { describe, expect, it } from '@jest/globals'
import { registerBuiltins } from '../../../sim/kube/resources.js'
import { ObjectStore, sameJson } from '../../../sim/kube/store.js'

describe('sameJson', () => {
  it('ignores key order and undefined members, and reads undefined in an array as null', () => {
    expect(sameJson({ a: 1, b: { c: [1, 2], d: 'x' } }, { b: { d: 'x', c: [1, 2] }, a: 1 })).toBe(true)
    expect(sameJson({ a: 1, gone: undefined }, { a: 1 })).toBe(true)
    expect(sameJson({ a: 1 }, { a: 1, gone: undefined })).toBe(true)
    expect(sameJson([undefined, 1], [null, 1])).toBe(true)
    expect(sameJson(1, 1.0)).toBe(true)
  })

  it('tells apart a changed, added or removed member at any depth, and arrays from objects', () => {
    expect(sameJson({ a: { b: [1, 2] } }, { a: { b: [2, 1] } })).toBe(false)
    expect(sameJson({ a: 1 }, { a: 1, b: 0 })).toBe(false)
    expect(sameJson({ a: 1, b: 0 }, { a: 1 })).toBe(false)
    expect(sameJson({ a: null }, { a: 0 })).toBe(false)
    expect(sameJson([], {})).toBe(false)
    expect(sameJson({ 0: 'x' }, ['x'])).toBe(false)
    expect(sameJson('1', 1)).toBe(false)
  })

  it('makes an update that changes nothing a no-op, and a spec change a new generation', () => {
    const store = new ObjectStore()
    registerBuiltins(store)
    const t = store.type('apps', 'deployments')!
    const template = {
      metadata: { labels: { a: 'b' } },
      spec: { containers: [{ name: 'c', image: 'busybox:1.36' }] }
    }
    const spec = { replicas: 1, selector: { matchLabels: { a: 'b' } }, template }
    const created = store.create(t, { metadata: { name: 'd', namespace: 'ns' }, spec } as never)
    const same = store.update(t, {
      ...created,
      spec: { template: spec.template, selector: spec.selector, replicas: 1 }
    })
    expect(same.metadata.resourceVersion).toBe(created.metadata.resourceVersion)
    const changed = store.update(t, { ...same, spec: { ...spec, replicas: 2 } })
    expect(changed.metadata.resourceVersion).not.toBe(created.metadata.resourceVersion)
    expect(changed.metadata.generation).toBe((created.metadata.generation ?? 1) + 1)
  })
})
