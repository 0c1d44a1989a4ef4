// Whether a helm release must be upgraded, and why: absent, not `deployed`, another chart version
// (with or without the `v`), or other values — compared as helm hands them back (key order,
// undefined fields and a null for no values do not count; types do).
import { describe, expect, it } from '@jest/globals'
import {
  canonicalJson,
  compareVersions,
  isNewerVersion,
  needsUpgrade,
  upgradeReason
} from '../../../src/helm/compare.js'

const live = { chartVersion: 'v26.3.3', status: 'deployed', values: { b: 1, a: { y: true, x: 'z' } } }

describe('upgradeReason', () => {
  it('is none when deployed with the same version and values, whatever the key order or `v`', () => {
    expect(
      upgradeReason({ version: '26.3.3', values: { a: { x: 'z', y: true }, b: 1 } }, live)
    ).toBeUndefined()
    expect(
      upgradeReason({ version: ' v26.3.3 ', values: { b: 1, a: { x: 'z', y: true } } }, live)
    ).toBeUndefined()
    expect(
      upgradeReason({ version: 'v26.3.3', values: live.values }, { ...live, chartVersion: '26.3.3' })
    ).toBe(undefined)
  })
  it('says why in the order helm would care: absent, status, version, values', () => {
    expect(upgradeReason({ version: 'v26.3.3', values: {} }, undefined)).toBe('not installed')
    expect(upgradeReason({ version: 'v26.7.0', values: {} }, { ...live, status: 'failed' })).toBe(
      'release status is failed'
    )
    expect(upgradeReason({ version: 'v26.7.0', values: {} }, { ...live, status: 'pending-upgrade' })).toBe(
      'release status is pending-upgrade'
    )
    expect(upgradeReason({ version: 'v26.7.0', values: {} }, live)).toBe('chart v26.3.3 → v26.7.0')
    expect(upgradeReason({ version: 'v26.3.3', values: { a: { x: 'z', y: 'true' }, b: 1 } }, live)).toBe(
      'values differ'
    )
    expect(upgradeReason({ version: 'v26.3.3', values: { b: 1 } }, live)).toBe('values differ')
  })
  it('takes no values and an empty map as the same', () => {
    expect(upgradeReason({ version: 'v26.3.3', values: {} }, { ...live, values: null })).toBeUndefined()
    expect(upgradeReason({ version: 'v26.3.3', values: {} }, { ...live, values: undefined })).toBeUndefined()
    expect(
      upgradeReason(
        { version: 'v26.3.3', values: undefined as unknown as Record<string, unknown> },
        { ...live, values: {} }
      )
    ).toBeUndefined()
    expect(upgradeReason({ version: 'v26.3.3', values: { a: 1 } }, { ...live, values: null })).toBe(
      'values differ'
    )
  })
  it('needsUpgrade is whether there is a reason', () => {
    expect(needsUpgrade({ version: '26.3.3', values: live.values }, live)).toBe(false)
    expect(needsUpgrade({ version: '26.3.3', values: {} }, live)).toBe(true)
    expect(needsUpgrade({ version: '26.3.3', values: {} }, undefined)).toBe(true)
  })
})

describe('canonicalJson', () => {
  it('sorts keys at every level, keeps array order, drops undefined as JSON does', () => {
    expect(canonicalJson({ b: [{ d: 1, c: undefined }], a: 1 })).toBe('{"a":1,"b":[{"d":1}]}')
    expect(canonicalJson({ z: { b: 2, a: [3, 1] }, y: null })).toBe('{"y":null,"z":{"a":[3,1],"b":2}}')
    expect(canonicalJson([{ b: 1, a: 2 }])).toBe('[{"a":2,"b":1}]')
  })
  it('is an empty map for nothing', () => {
    expect(canonicalJson(undefined)).toBe('{}')
    expect(canonicalJson(null)).toBe('{}')
  })
})

describe('compareVersions', () => {
  it('orders chart versions as semver does, with or without the v', () => {
    expect(compareVersions('v26.7.0', 'v26.3.3')).toBe(1)
    expect(compareVersions('v26.3.3', '26.7.0')).toBe(-1)
    expect(compareVersions('26.3.3', ' v26.3.3 ')).toBe(0)
    expect(compareVersions('v26.10.0', 'v26.9.9')).toBe(1)
    expect(compareVersions('v26.7.0-rc.1', 'v26.7.0')).toBe(-1)
    expect(compareVersions('v26.7.0-rc.10', 'v26.7.0-rc.9')).toBe(1)
    expect(compareVersions('v26.7.0-rc.1', 'v26.7.0-beta')).toBe(1)
    expect(compareVersions('v26.7.0-1', 'v26.7.0-alpha')).toBe(-1)
    expect(compareVersions('v26.7.0+build.2', 'v26.7.0')).toBe(0)
  })

  it('orders other versions of one form by their numbers, and not versions of different forms', () => {
    expect(compareVersions('doca3.4.1-26.04-1.1.0.0-1', 'doca3.3.0-26.01-1.0.0.0-0')).toBe(1)
    expect(compareVersions('doca3.4.1-26.04-1.1.0.0-1', 'doca3.4.1-26.04-1.1.0.0-2')).toBe(-1)
    expect(compareVersions('doca3.4.1-26.04-1.1.0.0-1', 'doca3.4.1-26.04-1.1.0.0-1')).toBe(0)
    expect(compareVersions('doca3.4.1-26.04-1.1.0.0-1', '25.10-1.2.8.0-2')).toBeUndefined()
    expect(compareVersions('latest', 'v26.7.0')).toBeUndefined()
    expect(compareVersions('latest', 'latest')).toBe(0)
  })

  it('isNewerVersion is true only for a version known to be newer', () => {
    expect(isNewerVersion('v26.7.0', 'v26.3.3')).toBe(true)
    expect(isNewerVersion('v26.3.3', 'v26.7.0')).toBe(false)
    expect(isNewerVersion('v26.3.3', 'v26.3.3')).toBe(false)
    expect(isNewerVersion('latest', 'v26.3.3')).toBe(false)
  })
})
