// What a failed Kubernetes request means: status, whether it is transient and worth retrying, the
// apply conflict that names the other field manager, and what to grant for a 403. See docs/scale.md.
import { KUBERNETES_PERMISSION, kubernetesPermissionHint } from '../model/permissions.js'

export interface KubeStatus {
  kind?: string
  status?: string
  message?: string
  reason?: string
  code?: number
  details?: {
    name?: string
    kind?: string
    causes?: Array<{ reason?: string; message?: string; field?: string }>
  }
}

const TRANSIENT_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'ENOTFOUND',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT'
])

/**
 * The HTTP status of a failed request (ApiException.code, a watch error's statusCode, the status a
 * KubeRequestError kept from the request that failed for good), if any.
 */
export function httpStatusOf(e: unknown): number | undefined {
  if (typeof e !== 'object' || e === null) return undefined
  if (e instanceof KubeRequestError) return e.status
  const o = e as { code?: unknown; statusCode?: unknown }
  if (typeof o.code === 'number') return o.code
  if (typeof o.statusCode === 'number') return o.statusCode
  return undefined
}

/** The Kubernetes Status carried by a failed request, parsed from the body when it is text. */
export function statusOf(e: unknown): KubeStatus | undefined {
  if (typeof e !== 'object' || e === null) return undefined
  const body = (e as { body?: unknown }).body
  if (typeof body === 'string') {
    try {
      const parsed = JSON.parse(body) as unknown
      return typeof parsed === 'object' && parsed !== null ? (parsed as KubeStatus) : { message: body }
    } catch {
      return body ? { message: body } : undefined
    }
  }
  if (typeof body === 'object' && body !== null) return body as KubeStatus
  return undefined
}

/** The Status message when there is one, otherwise the error's own message. */
export function messageOf(e: unknown): string {
  const st = statusOf(e)
  if (st?.message) return st.message
  if (e instanceof Error) {
    const cause = (e as { cause?: { message?: string; code?: string } }).cause
    return cause?.message ? `${e.message}: ${cause.message}` : e.message
  }
  return String(e)
}

function networkCode(e: unknown): string | undefined {
  let cur: unknown = e
  for (let depth = 0; depth < 4 && typeof cur === 'object' && cur !== null; depth++) {
    const code = (cur as { code?: unknown }).code
    if (typeof code === 'string') return code
    cur = (cur as { cause?: unknown }).cause
  }
  return undefined
}

/** Worth retrying: server errors, throttling and dropped or refused connections. */
export function isTransient(e: unknown): boolean {
  const status = httpStatusOf(e)
  if (status !== undefined) return status >= 500 || status === 429
  const code = networkCode(e)
  if (code && TRANSIENT_CODES.has(code)) return true
  return e instanceof Error && /fetch failed|socket hang up|other side closed/i.test(e.message)
}

export function isNotFound(e: unknown): boolean {
  return httpStatusOf(e) === 404
}

export function isConflict(e: unknown): boolean {
  return httpStatusOf(e) === 409
}

/** Seconds the server asked to wait (Retry-After header or Status details.retryAfterSeconds). */
export function retryAfterMs(e: unknown): number | undefined {
  const headers = (e as { headers?: Record<string, string> } | undefined)?.headers
  const h = headers?.['retry-after'] ?? headers?.['Retry-After']
  if (h && /^\d+$/.test(h)) return Number(h) * 1000
  const ra = (statusOf(e)?.details as { retryAfterSeconds?: number } | undefined)?.retryAfterSeconds
  return typeof ra === 'number' ? ra * 1000 : undefined
}

export interface FieldConflict {
  manager: string
  field: string
}

/**
 * The conflicts of a failed server-side apply, from Status details.causes (reason FieldManagerConflict)
 * or, failing that, from the message: `Apply failed with 2 conflicts: conflicts with "helm" using
 * apps/v1:\n- .spec.replicas\n- .spec.x` or `... 1 conflict: conflict with "kubectl" using v1: .data.a`.
 */
export function parseApplyConflicts(status: KubeStatus | undefined): FieldConflict[] {
  const out: FieldConflict[] = []
  for (const c of status?.details?.causes ?? []) {
    if (c.reason !== 'FieldManagerConflict' && !/conflict with/i.test(c.message ?? '')) continue
    const manager = /conflicts? with "([^"]+)"/.exec(c.message ?? '')?.[1]
    if (manager && c.field) out.push({ manager, field: c.field })
  }
  if (out.length > 0) return out
  const message = status?.message ?? ''
  const re = /conflicts? with "([^"]+)"(?: using [^:\s]+)?:([^]*?)(?=conflicts? with "|$)/g
  for (const m of message.matchAll(re)) {
    const fields = m[2]
      .split('\n')
      .map(l => l.replace(/^\s*-\s*/, '').trim())
      .filter(l => l.startsWith('.'))
    for (const field of fields) out.push({ manager: m[1], field })
  }
  return out
}

/** A server-side apply refused because another field manager owns some of the fields. */
export class ApplyConflictError extends Error {
  constructor(
    readonly object: string,
    readonly conflicts: FieldConflict[],
    readonly serverMessage: string
  ) {
    const named = conflicts.length
      ? conflicts.map(c => `${c.field} (owned by field manager "${c.manager}")`).join(', ')
      : serverMessage
    super(
      `${object}: server-side apply conflict: ${named}. Another tool changed these fields; set ` +
        '`force-conflicts: true` to take ownership of them (the values of this action then replace theirs).'
    )
    this.name = 'ApplyConflictError'
  }
}

/** A request that failed for good (after retries when it was transient), with what it was doing. */
export class KubeRequestError extends Error {
  constructor(
    readonly what: string,
    readonly status: number | undefined,
    readonly serverMessage: string,
    cause?: unknown
  ) {
    // A 403 names what the identity may not do; say also what to grant.
    const grant =
      status === 403 ? ` — ${kubernetesPermissionHint(serverMessage) ?? KUBERNETES_PERMISSION}` : ''
    super(`${what}: ${status !== undefined ? `HTTP ${status}: ` : ''}${serverMessage}${grant}`, { cause })
    this.name = 'KubeRequestError'
  }
}

/** The server does not serve a kind (its CRD is not installed): discovery has no resource for it. */
export class KindNotServedError extends Error {
  constructor(
    readonly apiVersion: string,
    readonly kind: string
  ) {
    super(`the server does not serve ${kind} in ${apiVersion} (is its CRD installed?)`)
    this.name = 'KindNotServedError'
  }
}

/**
 * Whether a read failed because the kind is not served: discovery has no such resource (as thrown,
 * or inside the KubeRequestError a client read wraps it in), or the server answered 404 for a
 * collection (a CRD removed after discovery was cached).
 */
export function isKindNotServed(e: unknown): boolean {
  const cause = e instanceof KubeRequestError ? e.cause : undefined
  return e instanceof KindNotServedError || cause instanceof KindNotServedError || isNotFound(e)
}
