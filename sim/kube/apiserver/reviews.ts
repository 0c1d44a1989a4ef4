// The review resources clients ask the server about rights with (`kubectl auth can-i`, `kubectl
// auth whoami`): SelfSubjectAccessReview and SelfSubjectRulesReview for the caller, Subject- and
// LocalSubjectAccessReview for a named user, SelfSubjectReview (authentication.k8s.io) — each
// created (POST) and answered in its status, never stored; plus impersonation (`--as`).
import type { IncomingMessage } from 'node:http'
import type { KubeObject, ObjectStore } from '../store.js'
import type { UserInfo } from './authn.js'
import type { Reply, VerbRequest } from './handlers.js'
import { parseBody } from './handlers.js'
import { type Attributes, authorize, forbidden, rulesFor } from './rbac.js'
import { SA_ISSUER } from './sa-tokens.js'
import { ApiError } from './status.js'

export const REVIEW_GROUPS = new Set(['authorization.k8s.io', 'authentication.k8s.io'])

function attributesOf(spec: any): Attributes {
  const ra = spec?.resourceAttributes
  const nra = spec?.nonResourceAttributes
  if (ra)
    return {
      resourceRequest: true,
      verb: String(ra.verb ?? ''),
      path: '',
      apiGroup: String(ra.group ?? ''),
      apiVersion: String(ra.version ?? ''),
      resource: String(ra.resource ?? ''),
      subresource: String(ra.subresource ?? ''),
      namespace: String(ra.namespace ?? ''),
      name: String(ra.name ?? '')
    }
  if (nra)
    return {
      resourceRequest: false,
      verb: String(nra.verb ?? ''),
      path: String(nra.path ?? ''),
      apiGroup: '',
      apiVersion: '',
      resource: '',
      subresource: '',
      namespace: '',
      name: ''
    }
  throw new ApiError(
    422,
    'Invalid',
    'SelfSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified'
  )
}

function answer(review: KubeObject, status: Record<string, unknown>): Reply {
  return {
    status: 201,
    body: {
      kind: review.kind,
      apiVersion: review.apiVersion,
      metadata: {},
      spec: review.spec ?? {},
      status
    }
  }
}

function decision(store: ObjectStore, user: UserInfo, a: Attributes): Record<string, unknown> {
  const d = authorize(store, user, a)
  return { allowed: d.allowed, ...(d.reason ? { reason: d.reason } : {}) }
}

/** POST of a review resource: answered for `user` (the caller). */
export function review(
  store: ObjectStore,
  user: UserInfo,
  r: VerbRequest,
  authenticateToken: TokenAuthenticator = () => undefined
): Reply {
  const plural = r.route.type.plural
  if (r.method !== 'POST' || r.route.name)
    throw new ApiError(
      405,
      'MethodNotAllowed',
      'the server does not allow this method on the requested resource'
    )
  const body = parseBody(r) as KubeObject
  if (body?.kind && body.kind !== r.route.type.kind)
    throw new ApiError(
      400,
      'BadRequest',
      `the kind in the data (${body.kind}) does not match the expected kind (${r.route.type.kind})`
    )
  const reviewObj = {
    ...body,
    kind: r.route.type.kind,
    apiVersion: `${r.route.type.group}/${r.route.type.version}`
  }
  switch (plural) {
    case 'selfsubjectaccessreviews':
      return answer(reviewObj, decision(store, user, attributesOf(body.spec)))
    case 'localsubjectaccessreviews':
    case 'subjectaccessreviews': {
      const spec = body.spec ?? {}
      const a = attributesOf(spec)
      if (plural === 'localsubjectaccessreviews') {
        if (a.namespace !== (r.route.namespace ?? ''))
          throw new ApiError(
            400,
            'BadRequest',
            `spec.resourceAttributes.namespace must match namespace: ${r.route.namespace ?? ''}`
          )
      }
      const subject: UserInfo = {
        username: String(spec.user ?? ''),
        groups: Array.isArray(spec.groups) ? spec.groups.map(String) : [],
        ...(spec.uid ? { uid: String(spec.uid) } : {})
      }
      return answer(reviewObj, decision(store, subject, a))
    }
    case 'selfsubjectrulesreviews': {
      const ns = String(body.spec?.namespace ?? '')
      const rules = rulesFor(store, user, ns)
      return answer(reviewObj, { ...rules, incomplete: false })
    }
    case 'tokenreviews':
      return tokenReview(reviewObj, authenticateToken)
    case 'selfsubjectreviews':
      return {
        status: 201,
        body: {
          kind: 'SelfSubjectReview',
          apiVersion: 'authentication.k8s.io/v1',
          metadata: {},
          status: {
            userInfo: { username: user.username, ...(user.uid ? { uid: user.uid } : {}), groups: user.groups }
          }
        }
      }
  }
  throw new ApiError(404, 'NotFound', 'the server could not find the requested resource')
}

type TokenAuthenticator = (
  token: string,
  audiences?: { requested: string[]; api: string[] }
) => UserInfo | undefined

/** The requested audiences a token answers for: those in its `aud` claim, else (static, Entra) the API's. */
function tokenAudiences(token: string, requested: string[]): string[] {
  let claims: any
  try {
    claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'))
  } catch {
    claims = undefined
  }
  const aud = claims?.iss === SA_ISSUER ? claims.aud : undefined
  const own = (Array.isArray(aud) ? aud : aud ? [aud] : [SA_ISSUER]).map(String)
  return requested.filter(a => own.includes(a))
}

/**
 * A TokenReview (kubernetes/kubernetes@v1.33.2 pkg/registry/authentication/tokenreview/storage.go):
 * the token is required (400); the answer says whether the server's authenticators accept it and
 * for whom, with the audiences (the API audiences when the review names none).
 */
function tokenReview(review: KubeObject, authenticateToken: TokenAuthenticator): Reply {
  const token = review.spec?.token
  if (!token) throw new ApiError(400, 'BadRequest', 'token is required for TokenReview in authentication')
  const requested: string[] | undefined = review.spec?.audiences?.length
    ? review.spec.audiences.map(String)
    : undefined
  const user = authenticateToken(String(token), requested ? { requested, api: [SA_ISSUER] } : undefined)
  const audiences = requested ? tokenAudiences(String(token), requested) : [SA_ISSUER]
  const status = user
    ? {
        authenticated: true,
        user: { username: user.username, ...(user.uid ? { uid: user.uid } : {}), groups: user.groups },
        audiences
      }
    : { user: {} }
  return answer(review, status)
}

/**
 * The identity a request acts as: the caller, or — with Impersonate-User / -Group / -Uid
 * headers — the impersonated one, after checking the caller may impersonate it.
 */
export function impersonate(store: ObjectStore, caller: UserInfo, req: IncomingMessage): UserInfo {
  const user = req.headers['impersonate-user']
  const groups = req.headersDistinct['impersonate-group'] ?? []
  const uid = req.headers['impersonate-uid']
  if (user === undefined && !groups.length && uid === undefined) return caller
  if (typeof user !== 'string' || !user)
    throw new ApiError(
      500,
      'InternalError',
      'Internal error occurred: requested impersonation of groups or uid without a user'
    )
  const check = (resource: string, name: string, apiGroup = '') => {
    const a: Attributes = {
      resourceRequest: true,
      verb: 'impersonate',
      path: '',
      apiGroup,
      apiVersion: '',
      resource,
      subresource: '',
      namespace: '',
      name
    }
    if (!authorize(store, caller, a).allowed) throw forbidden(caller, a)
  }
  const sa = /^system:serviceaccount:([^:]+):([^:]+)$/.exec(user)
  if (sa) check('serviceaccounts', sa[2])
  else check('users', user)
  for (const g of groups) check('groups', g)
  if (typeof uid === 'string') check('uids', uid, 'authentication.k8s.io')
  const impliedGroups = sa ? ['system:serviceaccounts', `system:serviceaccounts:${sa[1]}`] : []
  return {
    username: user,
    groups: [...new Set([...groups, ...impliedGroups, 'system:authenticated'])],
    ...(typeof uid === 'string' ? { uid } : {})
  }
}
