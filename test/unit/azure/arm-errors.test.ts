// Reading ARM errors by shape (a RestError from any copy of the SDK), their code and message from
// ARM's body, token scrubbing of anything shown, and the one-line description that says which role
// a refused action needs.
import { describe, expect, it } from '@jest/globals'
import {
  armError,
  armStatusOf,
  asRestError,
  describeArmError,
  isArmNotFound,
  scrub
} from '../../../src/azure/arm-errors.js'

/** A RestError as @azure/core-rest-pipeline builds it (matched by name, not by class). */
const restError = (
  statusCode: number | undefined,
  details?: unknown,
  message = 'request failed',
  code?: string
) => Object.assign(new Error(message), { name: 'RestError', statusCode, details, code })

const JWT = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJjaSJ9.c2lnbmF0dXJl'

describe('asRestError and the status', () => {
  it('takes any error named RestError, whatever its class', () => {
    const e = restError(404)
    expect(asRestError(e)).toBe(e)
    expect(asRestError({ name: 'RestError', statusCode: 500 })).toEqual({
      name: 'RestError',
      statusCode: 500
    })
    expect(asRestError(new Error('x'))).toBeUndefined()
    expect(asRestError({ statusCode: 404 })).toBeUndefined()
    expect(asRestError(null)).toBeUndefined()
    expect(asRestError('RestError')).toBeUndefined()
  })
  it('reads the status of RestErrors only', () => {
    expect(armStatusOf(restError(409))).toBe(409)
    expect(armStatusOf({ statusCode: 409 })).toBeUndefined()
    expect(isArmNotFound(restError(404))).toBe(true)
    expect(isArmNotFound(restError(400))).toBe(false)
    expect(isArmNotFound({ code: 404 })).toBe(false)
  })
})

describe('armError', () => {
  it("reads ARM's error body, then a flat body, then the RestError's own code", () => {
    expect(
      armError(restError(400, { error: { code: 'InvalidParameter', message: 'vmSize is bad' } }))
    ).toEqual({
      code: 'InvalidParameter',
      message: 'vmSize is bad',
      status: 400
    })
    expect(armError(restError(409, { code: 'OperationNotAllowed', message: 'busy' }))).toEqual({
      code: 'OperationNotAllowed',
      message: 'busy',
      status: 409
    })
    expect(armError(restError(500, undefined, 'socket closed', 'REQUEST_SEND_ERROR'))).toEqual({
      code: 'REQUEST_SEND_ERROR',
      message: 'socket closed',
      status: 500
    })
  })
  it("falls back to the error's code and message, and says Unknown when there is no code", () => {
    expect(armError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toEqual({
      code: 'ECONNREFUSED',
      message: 'connect ECONNREFUSED',
      status: undefined
    })
    expect(armError('text')).toEqual({ code: 'Unknown', message: 'text', status: undefined })
    expect(armError(restError(400, { error: { code: 42 } }, 'numeric code')).code).toBe('42')
  })
  it('scrubs tokens from the message', () => {
    const e = restError(401, {
      error: { code: 'InvalidAuthenticationToken', message: `token ${JWT} expired` }
    })
    expect(armError(e).message).toBe('token *** expired')
  })
})

describe('scrub', () => {
  it('removes JWT-shaped text, every one of them', () => {
    expect(scrub(`a ${JWT} b ${JWT}.`)).toBe('a *** b ***.')
    expect(scrub('eyJ.short.x stays: no JWT has parts this short')).toBe(
      'eyJ.short.x stays: no JWT has parts this short'
    )
  })
  it('removes the given secrets of four characters or more, every occurrence', () => {
    expect(scrub('secret-value and secret-value', ['secret-value'])).toBe('*** and ***')
    expect(scrub('abc is too short to be sure', ['abc', undefined, ''])).toBe('abc is too short to be sure')
    expect(scrub('abcd', ['abcd'])).toBe('***')
  })
})

describe('describeArmError', () => {
  it('is `HTTP <status> <code>: <message>` for an ARM error', () => {
    expect(
      describeArmError(restError(404, { error: { code: 'ResourceNotFound', message: 'no cluster' } }))
    ).toBe('HTTP 404 ResourceNotFound: no cluster')
    expect(describeArmError(restError(undefined, { code: 'X', message: 'y' }))).toBe('X: y')
  })
  it('names the role to grant when ARM refused an action for want of a permission', () => {
    const message =
      "The client 'ci' does not have authorization to perform action " +
      "'Microsoft.Features/providers/features/register/action' over scope '/subscriptions/s' or the scope is invalid."
    const text = describeArmError(restError(403, { error: { code: 'AuthorizationFailed', message } }))
    expect(text).toBe(
      `HTTP 403 AuthorizationFailed: ${message} — missing Azure permission ` +
        'Microsoft.Features/providers/features/register/action on /subscriptions/s: grant the identity Contributor (or Owner) on the subscription (role assignments can take a few minutes to apply)'
    )
    expect(
      describeArmError(restError(403, { error: { code: 'LinkedAuthorizationFailed', message } }))
    ).not.toContain('grant the identity')
  })
  it('says a non-HTTP error by its message alone, scrubbed', () => {
    expect(describeArmError(new Error(`sign-in failed with ${JWT}`))).toBe('sign-in failed with ***')
    expect(describeArmError('plain')).toBe('plain')
  })
})
