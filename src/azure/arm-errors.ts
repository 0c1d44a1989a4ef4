// Reads ARM errors (code, message, status) and scrubs token-shaped text from what we show.
// Rules for secrets in output: docs/security.md.
import type { RestError } from '@azure/core-rest-pipeline'
import { azurePermissionHint } from '../model/permissions.js'

/**
 * Checks by shape, not instanceof: duplicate copies of ts-http-runtime break instanceof, and
 * not importing the SDK lets the components that quote ARM errors load without it.
 */
export function asRestError(e: unknown): RestError | undefined {
  if (typeof e === 'object' && e !== null && (e as { name?: string }).name === 'RestError')
    return e as RestError
  return undefined
}

/** The HTTP status of an ARM (REST) error; the Kubernetes client's is kube/errors.ts' statusOf. */
export function armStatusOf(e: unknown): number | undefined {
  return asRestError(e)?.statusCode
}

export function isArmNotFound(e: unknown): boolean {
  return armStatusOf(e) === 404
}

/** ARM's error code and message (`body.error.code` / `.message`), falling back to the error itself. */
export function armError(e: unknown): { code: string; message: string; status?: number } {
  const re = asRestError(e)
  const details = re?.details as
    { error?: { code?: string; message?: string }; code?: string; message?: string } | undefined
  const code =
    details?.error?.code ?? details?.code ?? re?.code ?? (e as { code?: string })?.code ?? 'Unknown'
  const message = details?.error?.message ?? details?.message ?? (e instanceof Error ? e.message : String(e))
  return { code: String(code), message: scrub(String(message)), status: re?.statusCode }
}

const JWT_RE = /eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g

/** Removes JWT-shaped strings and the given secrets from text meant for logs or errors. */
export function scrub(text: string, secrets: Array<string | undefined> = []): string {
  let out = text.replace(JWT_RE, '***')
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join('***')
  return out
}

/**
 * A one-line summary of an unknown error for messages: `code: message`; a refusal for want of a
 * permission (AuthorizationFailed) also says which role to grant.
 */
export function describeArmError(e: unknown): string {
  // Not an HTTP error (e.g. a sign-in failure already explained): its message says it all.
  if (!asRestError(e)) return scrub(e instanceof Error ? e.message : String(e))
  const { code, message, status } = armError(e)
  const hint = /^AuthorizationFailed$/i.test(code) ? azurePermissionHint(message) : undefined
  return `${status ? `HTTP ${status} ` : ''}${code}: ${message}${hint ? ` — ${hint}` : ''}`
}
