// Who is calling: the identity behind a request's client certificate (CN = user, O = groups), a
// static bearer token (the cluster's user and admin tokens, each with its user name), or an Entra
// (AAD) token the Azure half vouches for (user = its upn or oid claim, groups = its groups claim;
// the simulated cluster treats every Entra identity it accepts as a cluster admin, as if it held
// "Azure Kubernetes Service RBAC Cluster Admin"), or a service account token the server issued
// (sa-tokens.ts). Client certificates win over tokens, as
// kube-apiserver's authenticator chain has it. Users a scenario gives fewer rights (kube.access)
// are never members of system:masters.
import type { IncomingMessage } from 'node:http'
import type { TLSSocket } from 'node:tls'

export interface UserInfo {
  username: string
  uid?: string
  groups: string[]
}

export interface TokenUser {
  username: string
  groups: string[]
}

export interface AuthnOptions {
  /** Accepted static bearer tokens. */
  tokens: Set<string>
  /** The user each static token stands for (default: clusterUser in system:masters). */
  tokenUsers?: Record<string, TokenUser>
  verifyAadToken?: (token: string) => boolean
  /** User names that never get system:masters (their rights come from RBAC only). */
  restricted?: Set<string>
  /** Service account tokens the server issued (sa-tokens.ts). */
  serviceAccountUser?: (token: string, audiences?: string[]) => UserInfo | undefined
}

export const DEFAULT_TOKEN_USER: TokenUser = { username: 'clusterUser', groups: ['system:masters'] }

function jwtClaims(token: string): Record<string, unknown> {
  try {
    const part = token.split('.')[1] ?? ''
    const claims = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown
    return typeof claims === 'object' && claims !== null ? (claims as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

function finish(u: { username: string; groups: string[]; uid?: string }, o: AuthnOptions): UserInfo {
  let groups = [...new Set([...u.groups, 'system:authenticated'])]
  if (o.restricted?.has(u.username)) groups = groups.filter(g => g !== 'system:masters')
  return { username: u.username, groups, ...(u.uid ? { uid: u.uid } : {}) }
}

/** The caller's identity, or undefined when the request carries no valid credential. */
export function authenticate(req: IncomingMessage, o: AuthnOptions): UserInfo | undefined {
  const socket = req.socket as TLSSocket
  if (socket.authorized === true) {
    const cert = socket.getPeerCertificate?.()
    const subject = cert?.subject as Record<string, string | string[]> | undefined
    if (subject?.CN) {
      const cn = Array.isArray(subject.CN) ? subject.CN[0] : subject.CN
      const org = subject.O === undefined ? [] : Array.isArray(subject.O) ? subject.O : [subject.O]
      return finish({ username: cn, groups: org }, o)
    }
  }
  const header = req.headers.authorization
  if (header && /^bearer\s/i.test(header))
    return authenticateToken(header.slice(header.indexOf(' ') + 1).trim(), o)
  return undefined
}

/**
 * The identity behind a bearer token (also what a TokenReview answers), or undefined. With
 * `audiences` (a TokenReview's), a service account token must be meant for one of them and the
 * audience-agnostic kinds (static, Entra) answer only when they include the API audience
 * (k8s.io/apiserver@v0.33.2 pkg/authentication/authenticator/audagnostic.go).
 */
export function authenticateToken(
  token: string,
  o: AuthnOptions,
  audiences?: { requested: string[]; api: string[] }
): UserInfo | undefined {
  const agnosticOk = !audiences || audiences.requested.some(a => audiences.api.includes(a))
  if (!agnosticOk) {
    const sa = o.serviceAccountUser?.(token, audiences!.requested)
    return sa ? finish(sa, o) : undefined
  }
  if (o.tokens.has(token)) return finish(o.tokenUsers?.[token] ?? DEFAULT_TOKEN_USER, o)
  if (o.verifyAadToken?.(token)) {
    const c = jwtClaims(token)
    const username = String(c.upn ?? c.oid ?? c.sub ?? 'aad-user')
    const groups = [...(Array.isArray(c.groups) ? c.groups.map(String) : []), 'system:masters']
    return finish({ username, groups, ...(c.oid ? { uid: String(c.oid) } : {}) }, o)
  }
  const sa = o.serviceAccountUser?.(token, audiences?.requested)
  return sa ? finish(sa, o) : undefined
}
