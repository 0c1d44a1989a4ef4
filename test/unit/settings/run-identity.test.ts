// The identity of one run (src/settings/run-identity.ts): the Lease holder, created-by tag and run
// label. Its shape under Actions and in a terminal, each runner value made one safe path segment,
// the job-key kept readable up to 40 characters and hashed beyond, and the nonce read back only
// from an identity that ends in one.
import { describe, expect, it } from '@jest/globals'
import { createHash } from 'node:crypto'
import { jobKeyPart, newRunNonce, nonceOf, runIdentity } from '../../../src/settings/run-identity.js'

const hashed = (key: string): string => `key-${createHash('sha256').update(key).digest('hex').slice(0, 12)}`

describe('runIdentity', () => {
  it('is <run id>-<attempt>/<job>[/<job-key>]/<nonce> under Actions', () => {
    const env = { GITHUB_RUN_ID: '123', GITHUB_RUN_ATTEMPT: '2', GITHUB_JOB: 'setup' }
    expect(runIdentity(env, undefined, '0123456789ab')).toBe('123-2/setup/0123456789ab')
    expect(runIdentity(env, 'gpu: h100', '0123456789ab')).toBe('123-2/setup/gpu:h100/0123456789ab')
    expect(runIdentity(env, '', '0123456789ab')).toBe('123-2/setup/0123456789ab')
  })
  it('takes attempt 1 and job "job" when the runner does not say', () => {
    expect(runIdentity({ GITHUB_RUN_ID: '9' }, undefined, 'n')).toBe('9-1/job/n')
  })
  it('is local[/<job-key>]/<nonce> outside Actions', () => {
    expect(runIdentity({}, undefined, 'abc')).toBe('local/abc')
    expect(runIdentity({ GITHUB_JOB: 'x' }, 'k', 'abc')).toBe('local/k/abc')
  })
  it('makes every runner value one segment: no slash or space, at most 100 characters, never empty', () => {
    const env = { GITHUB_RUN_ID: '1/2 3', GITHUB_RUN_ATTEMPT: '', GITHUB_JOB: `${'j'.repeat(150)}` }
    expect(runIdentity(env, undefined, 'n')).toBe(`1-2-3--/${'j'.repeat(100)}/n`)
    expect(runIdentity({ GITHUB_RUN_ID: '7', GITHUB_JOB: 'a/b:c=d,e.f_g' }, undefined, 'n')).toBe(
      '7-1/a-b:c=d,e.f_g/n'
    )
  })
})

describe('jobKeyPart', () => {
  it('drops spaces, quotes and brackets of a matrix value and keeps it when 40 characters or fewer', () => {
    expect(jobKeyPart('{"gpu": "h100", "zone": 1}')).toBe('gpu:h100,zone:1')
    expect(jobKeyPart('[a, b]')).toBe('a,b')
    expect(jobKeyPart('a/b#c')).toBe('a-b-c')
    expect(jobKeyPart('k'.repeat(40))).toBe('k'.repeat(40))
  })
  it('hashes a key longer than 40 characters once compacted, or one that compacts to nothing', () => {
    expect(jobKeyPart('k'.repeat(41))).toBe(hashed('k'.repeat(41)))
    expect(jobKeyPart(' {} ')).toBe(hashed(' {} '))
    expect(jobKeyPart(' {} ')).toMatch(/^key-[0-9a-f]{12}$/)
  })
})

describe('the nonce', () => {
  it('is 12 lower-case hex digits, new each time', () => {
    const a = newRunNonce()
    expect(a).toMatch(/^[0-9a-f]{12}$/)
    expect(newRunNonce()).not.toBe(a)
  })
  it('is read back from the last segment of an identity, and only when it is one', () => {
    expect(nonceOf('123-2/setup/gpu:h100/0123456789ab')).toBe('0123456789ab')
    expect(nonceOf('0123456789ab')).toBe('0123456789ab')
    expect(nonceOf('local/0123456789ab/')).toBeUndefined()
    expect(nonceOf('123-2/setup/0123456789AB')).toBeUndefined()
    expect(nonceOf('123-2/setup/0123456789abc')).toBeUndefined()
    expect(nonceOf('0123456789ab/setup')).toBeUndefined()
  })
})
