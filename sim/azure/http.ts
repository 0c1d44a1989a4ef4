// The small HTTP vocabulary every Azure stand-in speaks: a buffered request, a response
// description the server writes (or a connection reset), body parsing and path globs.
import type { IncomingHttpHeaders } from 'node:http'

export interface SimHttpRequest {
  method: string
  /** URL path, percent-decoded per segment is left to the handlers (ARM names are plain). */
  path: string
  query: URLSearchParams
  headers: IncomingHttpHeaders
  body: Buffer
}

export interface SimHttpResponse {
  status: number
  headers?: Record<string, string>
  /** Serialized as JSON unless a string. */
  body?: unknown
  /** Destroy the connection instead of answering (fault injection). */
  reset?: boolean
}

export function json(status: number, body: unknown, headers?: Record<string, string>): SimHttpResponse {
  return { status, body, headers }
}

/** The request body parsed as JSON; `undefined` when empty, `Error` when malformed. */
export function parseJsonBody(req: SimHttpRequest): unknown {
  const text = req.body.toString('utf8').trim()
  if (!text) return undefined
  try {
    return JSON.parse(text)
  } catch (e) {
    return e instanceof Error ? e : new Error(String(e))
  }
}

/** A form-urlencoded body (OAuth token requests). */
export function parseFormBody(req: SimHttpRequest): URLSearchParams {
  return new URLSearchParams(req.body.toString('utf8'))
}

/** `*` matches any run of characters including `/`; everything else is literal; case-insensitive. */
export function globToRegExp(glob: string): RegExp {
  const body = glob
    .split('*')
    .map(part => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*')
  return new RegExp(`^${body}$`, 'i')
}

export function header(req: SimHttpRequest, name: string): string | undefined {
  const v = req.headers[name.toLowerCase()]
  return Array.isArray(v) ? v[0] : v
}
