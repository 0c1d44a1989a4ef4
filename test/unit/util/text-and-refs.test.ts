// Short text for people and the names of objects in it: a value cut to a length with an ellipsis
// (strings as they are, others as JSON, absent said so), a message folded onto one line and cut,
// an object's reference (namespace only when it has one) and how a log line names it, and a label
// map as a selector.
import { describe, expect, it } from '@jest/globals'
import { describeRef, refOf, selectorOf } from '../../../src/kube/types.js'
import { MAX_VALUE_CHARS, oneLine, shortValue } from '../../../src/util/text.js'

describe('shortValue', () => {
  it('gives strings as they are, other values as JSON, and says when a value is absent', () => {
    expect(shortValue('ready')).toBe('ready')
    expect(shortValue({ a: [1, true] })).toBe('{"a":[1,true]}')
    expect(shortValue(0)).toBe('0')
    expect(shortValue(null)).toBe('null')
    expect(shortValue(undefined)).toBe('(absent)')
  })
  it('keeps a value of exactly the limit, cuts a longer one to the limit with an ellipsis', () => {
    expect(MAX_VALUE_CHARS).toBe(120)
    expect(shortValue('x'.repeat(120))).toBe('x'.repeat(120))
    expect(shortValue('x'.repeat(121))).toBe(`${'x'.repeat(119)}…`)
    expect(shortValue('abcdef', 4)).toBe('abc…')
    expect(shortValue('abcd', 4)).toBe('abcd')
  })
})

describe('oneLine', () => {
  it('folds every run of white space into one space and trims the ends', () => {
    expect(oneLine('  Back-off\r\n\trestarting   failed\ncontainer  ')).toBe(
      'Back-off restarting failed container'
    )
  })
  it('cuts to 200 characters by default, counting after the fold', () => {
    expect(oneLine(`${'a'.repeat(200)}   `)).toBe('a'.repeat(200))
    expect(oneLine('a'.repeat(201))).toBe(`${'a'.repeat(199)}…`)
    expect(oneLine('one  two three', 7)).toBe('one tw…')
    expect(oneLine('one  two', 7)).toBe('one two')
  })
})

describe('object references', () => {
  it('carries the namespace only when the object has one', () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', uid: 'u' } }
    expect(refOf(pod)).toEqual({ apiVersion: 'v1', kind: 'Pod', name: 'p', namespace: 'ns' })
    const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n', namespace: '' } }
    expect(refOf(node)).toStrictEqual({ apiVersion: 'v1', kind: 'Node', name: 'n' })
  })
  it('names an object as kubectl does: lower-case kind/name, then -n and its namespace', () => {
    expect(
      describeRef({
        apiVersion: 'apps/v1',
        kind: 'DaemonSet',
        name: 'ib-node-config',
        namespace: 'kube-system'
      })
    ).toBe('daemonset/ib-node-config -n kube-system')
    expect(
      describeRef({
        apiVersion: 'mellanox.com/v1alpha1',
        kind: 'NicClusterPolicy',
        name: 'nic-cluster-policy'
      })
    ).toBe('nicclusterpolicy/nic-cluster-policy')
  })
  it('writes a label map as a selector, in the map order', () => {
    expect(selectorOf({ app: 'rdma-probe', 'aks-rdma-action/run': 'x' })).toBe(
      'app=rdma-probe,aks-rdma-action/run=x'
    )
    expect(selectorOf({})).toBe('')
  })
})
