// The drift path helpers at their edges: what counts as contained (nulls, a list where a map was
// expected, named lists with a missing element, lists of other lengths), value differences with a
// side absent, resolving a path that leaves the tree, JSON equality with undefined, and how two
// JSON documents in strings are described (the same JSON, inner differences, text that only looks
// like JSON).
import { describe, expect, it } from '@jest/globals'
import {
  containedDifferences,
  describeValues,
  sameJson,
  valueAt,
  valueDifferences
} from '../../../src/drift/paths.js'

describe('containedDifferences', () => {
  it('nothing desired, nothing to differ; a scalar the same or not', () => {
    expect(containedDifferences(undefined, 3)).toEqual([])
    expect(containedDifferences(null, 3)).toEqual([])
    expect(containedDifferences(3, 3)).toEqual([])
    expect(containedDifferences(3, '3')).toEqual([{ path: [], desired: 3, actual: '3' }])
  })

  it('a list where the live value is not one, and a map where the live value is not one', () => {
    expect(containedDifferences([1], { a: 1 }, [{ key: 'x' }])).toEqual([
      { path: [{ key: 'x' }], desired: [1], actual: { a: 1 } }
    ])
    expect(containedDifferences({ a: 1 }, [1], [{ key: 'x' }])).toEqual([
      { path: [{ key: 'x' }], desired: { a: 1 }, actual: [1] }
    ])
    expect(containedDifferences({ a: 1 }, null)).toEqual([{ path: [], desired: { a: 1 }, actual: null }])
  })

  it('named lists match by name (order and extra live elements do not matter); a missing one is named', () => {
    const desired = [
      { name: 'a', v: 1 },
      { name: 'b', v: 2 }
    ]
    expect(
      containedDifferences(desired, [{ name: 'b', v: 2, x: 9 }, { name: 'z' }, 'odd', { name: 'a', v: 1 }])
    ).toEqual([])
    expect(containedDifferences(desired, [{ name: 'a', v: 3 }])).toEqual([
      { path: [{ name: 'a' }, { key: 'v' }], desired: 1, actual: 3 },
      { path: [{ name: 'b' }], desired: { name: 'b', v: 2 }, actual: undefined }
    ])
  })

  it('other lists: the same length element by element, else the whole list', () => {
    expect(containedDifferences([1, 2], [1, 3])).toEqual([{ path: [{ index: 1 }], desired: 2, actual: 3 }])
    expect(containedDifferences([1, 2], [1, 2, 3])).toEqual([
      { path: [], desired: [1, 2], actual: [1, 2, 3] }
    ])
    // A list of maps of which one has no name is not a named list.
    expect(containedDifferences([{ name: 'a' }, { v: 1 }], [{ name: 'a' }, { v: 2 }])).toEqual([
      { path: [{ index: 1 }, { key: 'v' }], desired: 1, actual: 2 }
    ])
    expect(containedDifferences([], [1])).toEqual([{ path: [], desired: [], actual: [1] }])
  })
})

describe('valueDifferences', () => {
  it('a key on one side only, both absent, lists of another length whole, scalars as JSON', () => {
    expect(valueDifferences({ a: 1 }, { b: 2 })).toEqual([
      { path: [{ key: 'a' }], desired: 1, actual: undefined },
      { path: [{ key: 'b' }], desired: undefined, actual: 2 }
    ])
    expect(valueDifferences(undefined, undefined)).toEqual([])
    expect(valueDifferences([1], [1, 2])).toEqual([{ path: [], desired: [1], actual: [1, 2] }])
    expect(valueDifferences([1, { a: 1 }], [1, { a: 2 }])).toEqual([
      { path: [{ index: 1 }, { key: 'a' }], desired: 1, actual: 2 }
    ])
    expect(valueDifferences({ a: { x: 1, y: 2 } }, { a: { y: 2, x: 1 } })).toEqual([])
    expect(valueDifferences('1', 1)).toEqual([{ path: [], desired: '1', actual: 1 }])
  })
})

describe('valueAt and sameJson', () => {
  const obj = { spec: { containers: [{ name: 'a', image: 'x' }, 'odd'], list: [10, 20] } }
  it('resolves keys, names and indexes; undefined once a step leaves the tree', () => {
    expect(valueAt(obj, [{ key: 'spec' }, { key: 'containers' }, { name: 'a' }, { key: 'image' }])).toBe('x')
    expect(valueAt(obj, [{ key: 'spec' }, { key: 'list' }, { index: 1 }])).toBe(20)
    expect(
      valueAt(obj, [{ key: 'spec' }, { key: 'containers' }, { name: 'b' }, { key: 'image' }])
    ).toBeUndefined()
    expect(valueAt(obj, [{ key: 'spec' }, { name: 'a' }])).toBeUndefined()
    expect(valueAt(obj, [{ key: 'spec' }, { index: 0 }])).toBeUndefined()
    expect(valueAt(obj, [{ key: 'spec' }, { key: 'list' }, { key: '0' }])).toBeUndefined()
    expect(valueAt(obj, [{ key: 'nope' }, { key: 'deeper' }])).toBeUndefined()
    expect(valueAt(obj, [])).toBe(obj)
  })
  it('equal JSON whatever the key order; undefined only equals undefined', () => {
    expect(sameJson({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true)
    expect(sameJson({ a: 1 }, { a: 2 })).toBe(false)
    expect(sameJson(undefined, undefined)).toBe(true)
    expect(sameJson(undefined, null)).toBe(false)
    expect(sameJson(null, undefined)).toBe(false)
    expect(sameJson(null, null)).toBe(true)
  })
})

describe('describeValues', () => {
  it('two JSON documents: the same JSON differently written, or the inner paths that differ', () => {
    expect(describeValues('{"a":1,"b":[1,2]}', '  {\n "b": [1, 2], "a": 1 }')).toEqual({
      desired: 'same JSON, other formatting',
      actual: 'JSON text differs'
    })
    expect(describeValues('{"a":1,"b":{"c":"x"}}', '{"a":2,"b":{"c":"x"}}')).toEqual({
      desired: 'a=1',
      actual: 'a=2'
    })
    expect(describeValues('[1,2]', '[1,2,3]')).toEqual({ desired: '.=[1,2]', actual: '.=[1,2,3]' })
  })
  it('anything else as short values: text that only looks like JSON, one side not JSON, non-strings', () => {
    expect(describeValues('{not json', '{"a":1}')).toEqual({ desired: '{not json', actual: '{"a":1}' })
    expect(describeValues('{"a":1}', 'plain')).toEqual({ desired: '{"a":1}', actual: 'plain' })
    expect(describeValues(' x{"a":1}', '{"a":1}')).toEqual({ desired: ' x{"a":1}', actual: '{"a":1}' })
    expect(describeValues(3, { a: 1 })).toEqual({ desired: '3', actual: '{"a":1}' })
  })
})
