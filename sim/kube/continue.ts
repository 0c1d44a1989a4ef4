// List continue tokens in the API server's shape (kubernetes/kubernetes@v1.33:
// staging/src/k8s.io/apiserver/pkg/storage/continue.go): unpadded URL-safe base64 of
// {"v":"meta.k8s.io/v1","rv":<list resourceVersion>,"start":"<next key>"}; a token that does not
// decode is the client's error, answered 400 (`invalid continue token: …`, etcd3/store.go GetList).
import { StoreError } from './objects.js'

const VERSION = 'meta.k8s.io/v1'
const RAW_URL = /^[A-Za-z0-9_-]*$/

export function encodeContinue(rv: number, after: string): string {
  return Buffer.from(JSON.stringify({ v: VERSION, rv, start: `${after}\u0000` })).toString('base64url')
}

function invalid(why: string): StoreError {
  return new StoreError(400, 'BadRequest', `invalid continue token: continue key is not valid: ${why}`)
}

/** Go's base64.RawURLEncoding error: the offset of the first byte it cannot decode. */
function base64Error(token: string): string | undefined {
  const bad = [...token].findIndex(ch => !RAW_URL.test(ch))
  if (bad >= 0) return `illegal base64 data at input byte ${bad}`
  if (token.length % 4 === 1) return `illegal base64 data at input byte ${token.length - 1}`
  return undefined
}

/** The list resourceVersion and the key the next page starts after; throws 400 when malformed. */
export function decodeContinue(token: string): { rv: number; after: string } {
  const b64 = base64Error(token)
  if (b64) throw invalid(b64)
  const text = Buffer.from(token, 'base64url').toString('utf8')
  let parsed: { v?: unknown; rv?: unknown; start?: unknown }
  try {
    parsed = JSON.parse(text) as typeof parsed
  } catch {
    const first = text.trimStart()[0]
    throw invalid(
      first === undefined
        ? 'unexpected end of JSON input'
        : `invalid character '${first}' looking for beginning of value`
    )
  }
  if (parsed?.v !== VERSION)
    throw invalid(`server does not recognize this encoded version ${String(parsed?.v ?? '')}`.trimEnd())
  if (typeof parsed.rv !== 'number' || parsed.rv === 0)
    throw invalid(`incorrect encoded start resourceVersion (version ${VERSION})`)
  if (typeof parsed.start !== 'string' || !parsed.start.length)
    throw invalid(`encoded start key empty (version ${VERSION})`)
  return { rv: parsed.rv, after: parsed.start.endsWith('\u0000') ? parsed.start.slice(0, -1) : parsed.start }
}
