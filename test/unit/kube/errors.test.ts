// What a failed Kubernetes request means, read from every shape the client hands over: an
// ApiException (code, body text), a watch error (statusCode), a network error (code on the error or
// its causes), a KubeRequestError; which are worth retrying, what the server asked to wait, and the
// errors' own messages (a 403 says what to grant, a missing kind asks about its CRD).
import { describe, expect, it } from '@jest/globals'
import {
  ApplyConflictError,
  httpStatusOf,
  isConflict,
  isKindNotServed,
  isNotFound,
  isTransient,
  KindNotServedError,
  KubeRequestError,
  messageOf,
  retryAfterMs,
  statusOf
} from '../../../src/kube/errors.js'
import { KUBERNETES_PERMISSION } from '../../../src/model/permissions.js'

const apiException = (code: number, body: unknown, headers: Record<string, string> = {}) =>
  Object.assign(new Error(`HTTP-Code: ${code}`), { code, body, headers })

describe('httpStatusOf', () => {
  it('reads ApiException.code, a watch error’s statusCode and a KubeRequestError’s status', () => {
    expect(httpStatusOf(apiException(404, ''))).toBe(404)
    expect(httpStatusOf({ statusCode: 410 })).toBe(410)
    expect(httpStatusOf(new KubeRequestError('get x', 503, 'down'))).toBe(503)
    expect(httpStatusOf(new KubeRequestError('get x', undefined, 'reset'))).toBeUndefined()
  })
  it('has none for a network code (a string), a plain error or a non-object', () => {
    expect(httpStatusOf({ code: 'ECONNRESET' })).toBeUndefined()
    expect(httpStatusOf(new Error('x'))).toBeUndefined()
    expect(httpStatusOf(null)).toBeUndefined()
    expect(httpStatusOf('HTTP 500')).toBeUndefined()
    expect(httpStatusOf(500)).toBeUndefined()
  })
  it('prefers code to statusCode', () => {
    expect(httpStatusOf({ code: 409, statusCode: 500 })).toBe(409)
  })
})

describe('statusOf and messageOf', () => {
  it('parses a Status from body text, keeps an object body, and takes other text as the message', () => {
    const status = { kind: 'Status', message: 'pods "x" not found', reason: 'NotFound', code: 404 }
    expect(statusOf({ body: JSON.stringify(status) })).toEqual(status)
    expect(statusOf({ body: status })).toBe(status)
    expect(statusOf({ body: 'upstream connect error' })).toEqual({ message: 'upstream connect error' })
    expect(statusOf({ body: '"just a string"' })).toEqual({ message: '"just a string"' })
    expect(statusOf({ body: 'null' })).toEqual({ message: 'null' })
    expect(statusOf({ body: '' })).toBeUndefined()
    expect(statusOf({ body: 42 })).toBeUndefined()
    expect(statusOf({})).toBeUndefined()
    expect(statusOf(undefined)).toBeUndefined()
  })
  it('says the Status message first, then the error with its cause, then the value itself', () => {
    expect(messageOf(apiException(404, JSON.stringify({ message: 'pods "x" not found' })))).toBe(
      'pods "x" not found'
    )
    expect(
      messageOf(new TypeError('fetch failed', { cause: { message: 'connect ECONNREFUSED', code: 'E' } }))
    ).toBe('fetch failed: connect ECONNREFUSED')
    expect(messageOf(new Error('plain'))).toBe('plain')
    expect(messageOf(apiException(500, JSON.stringify({ reason: 'InternalError' })))).toBe('HTTP-Code: 500')
    expect(messageOf('text')).toBe('text')
    expect(messageOf(7)).toBe('7')
  })
})

describe('isTransient', () => {
  it('retries 5xx and 429, nothing else with a status', () => {
    for (const code of [500, 502, 503, 504, 429]) expect(isTransient({ code })).toBe(true)
    for (const code of [400, 401, 403, 404, 409, 410, 422, 499]) expect(isTransient({ code })).toBe(false)
  })
  it('retries dropped and refused connections, found on the error or up to three causes deep', () => {
    for (const code of ['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN', 'ENOTFOUND'])
      expect(isTransient(Object.assign(new Error('x'), { code }))).toBe(true)
    for (const code of [
      'UND_ERR_SOCKET',
      'UND_ERR_CLOSED',
      'UND_ERR_CONNECT_TIMEOUT',
      'UND_ERR_HEADERS_TIMEOUT',
      'UND_ERR_BODY_TIMEOUT'
    ])
      expect(isTransient(new Error('x', { cause: { cause: { code } } }))).toBe(true)
    const deep = new Error('a', { cause: { cause: { cause: { code: 'ECONNRESET' } } } })
    expect(isTransient(deep)).toBe(true)
    const tooDeep = new Error('a', { cause: { cause: { cause: { cause: { code: 'ECONNRESET' } } } } })
    expect(isTransient(tooDeep)).toBe(false)
  })
  it('stops at the first code it finds, and an unknown code is not transient', () => {
    expect(isTransient(new Error('x', { cause: { code: 'ERR_TLS_CERT_ALTNAME_INVALID' } }))).toBe(false)
    expect(
      isTransient(Object.assign(new Error('x', { cause: { code: 'ECONNRESET' } }), { code: 'EACCES' }))
    ).toBe(false)
  })
  it('knows undici’s and Node’s messages for a dropped connection, but only on errors', () => {
    expect(isTransient(new TypeError('fetch failed'))).toBe(true)
    expect(isTransient(new Error('socket hang up'))).toBe(true)
    expect(isTransient(new Error('other side closed'))).toBe(true)
    expect(isTransient(new Error('Socket Hang Up while reading'))).toBe(true)
    expect(isTransient({ message: 'socket hang up' })).toBe(false)
    expect(isTransient('socket hang up')).toBe(false)
    expect(isTransient(new Error('forbidden'))).toBe(false)
  })
})

describe('status checks', () => {
  it('tells not found and conflict apart', () => {
    expect(isNotFound({ code: 404 })).toBe(true)
    expect(isNotFound({ code: 409 })).toBe(false)
    expect(isConflict({ code: 409 })).toBe(true)
    expect(isConflict({ code: 404 })).toBe(false)
    expect(isConflict(undefined)).toBe(false)
  })
})

describe('retryAfterMs', () => {
  it('reads the Retry-After header in whole seconds, either spelling', () => {
    expect(retryAfterMs(apiException(429, '', { 'retry-after': '3' }))).toBe(3000)
    expect(retryAfterMs(apiException(429, '', { 'Retry-After': '0' }))).toBe(0)
  })
  it('ignores a header that is not whole seconds, then reads the Status details', () => {
    expect(retryAfterMs(apiException(429, '', { 'retry-after': '1.5' }))).toBeUndefined()
    expect(
      retryAfterMs(apiException(429, '', { 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' }))
    ).toBeUndefined()
    const body = JSON.stringify({ code: 429, details: { retryAfterSeconds: 2 } })
    expect(retryAfterMs(apiException(429, body, { 'retry-after': 'soon' }))).toBe(2000)
    expect(retryAfterMs(apiException(429, body))).toBe(2000)
    expect(
      retryAfterMs(apiException(429, JSON.stringify({ details: { retryAfterSeconds: '2' } })))
    ).toBeUndefined()
    expect(retryAfterMs(undefined)).toBeUndefined()
    expect(retryAfterMs({})).toBeUndefined()
  })
  it('prefers the header to the details', () => {
    const body = JSON.stringify({ details: { retryAfterSeconds: 9 } })
    expect(retryAfterMs(apiException(429, body, { 'retry-after': '1' }))).toBe(1000)
  })
})

describe('the errors’ messages', () => {
  it('a request that failed names what it did, the status and the server’s words', () => {
    const e = new KubeRequestError('read DaemonSet kube-system/x', 500, 'etcd timeout', new Error('inner'))
    expect(e.message).toBe('read DaemonSet kube-system/x: HTTP 500: etcd timeout')
    expect(e.name).toBe('KubeRequestError')
    expect(e.status).toBe(500)
    expect(e.serverMessage).toBe('etcd timeout')
    expect((e.cause as Error).message).toBe('inner')
    expect(new KubeRequestError('watch pods', undefined, 'connection reset').message).toBe(
      'watch pods: connection reset'
    )
  })
  it('a 403 also says what to grant: the verb and resource when the server names them', () => {
    const named = new KubeRequestError(
      'apply NicClusterPolicy nic-cluster-policy',
      403,
      'nicclusterpolicies.mellanox.com "x" is forbidden: User "ci" cannot patch resource "nicclusterpolicies" in API group "mellanox.com" at the cluster scope'
    )
    expect(named.message).toContain(
      ' — missing Kubernetes permission: ci may not patch nicclusterpolicies.mellanox.com.'
    )
    const unnamed = new KubeRequestError('list nodes', 403, 'Forbidden')
    expect(unnamed.message).toBe(`list nodes: HTTP 403: Forbidden — ${KUBERNETES_PERMISSION}`)
    expect(new KubeRequestError('list nodes', 401, 'Unauthorized').message).toBe(
      'list nodes: HTTP 401: Unauthorized'
    )
  })
  it('an apply conflict names each field and its manager, or the server’s message when it names none', () => {
    const e = new ApplyConflictError('ConfigMap default/x', [{ manager: 'kubectl', field: '.data.a' }], 'msg')
    expect(e.name).toBe('ApplyConflictError')
    expect(e.message).toMatch(
      /^ConfigMap default\/x: server-side apply conflict: \.data\.a \(owned by field manager "kubectl"\)\. /
    )
    expect(e.message).toContain('`force-conflicts: true`')
    expect(new ApplyConflictError('ConfigMap default/x', [], 'Apply failed').message).toContain(
      'server-side apply conflict: Apply failed. '
    )
  })
})

describe('isKindNotServed', () => {
  it('is the discovery miss, thrown or wrapped by a read, or a 404 on the collection', () => {
    const miss = new KindNotServedError('mellanox.com/v1alpha1', 'NicClusterPolicy')
    expect(miss.message).toBe(
      'the server does not serve NicClusterPolicy in mellanox.com/v1alpha1 (is its CRD installed?)'
    )
    expect(miss.name).toBe('KindNotServedError')
    expect(isKindNotServed(miss)).toBe(true)
    expect(
      isKindNotServed(new KubeRequestError('list NicClusterPolicy', undefined, miss.message, miss))
    ).toBe(true)
    expect(
      isKindNotServed(new KubeRequestError('list NicClusterPolicy', 404, 'the server could not find'))
    ).toBe(true)
    expect(isKindNotServed(new KubeRequestError('list pods', 500, 'x', new Error('y')))).toBe(false)
    expect(isKindNotServed(new Error('x', { cause: miss }))).toBe(false)
  })
})
