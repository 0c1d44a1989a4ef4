// Content negotiation as the API server does it: the Accept header's clauses in order (q-values
// honoured) against the media types a route can serve — JSON, YAML, and protobuf for built-in
// types (custom resources are JSON/YAML only; a Table is JSON/YAML only) — with `as=Table`
// conversions and `stream=watch`; none acceptable is 406. A request body's Content-Type selects
// its decoder; an unknown one is 415.
import { ApiError } from './status.js'
import { PROTOBUF_MEDIA_TYPE } from './protobuf.js'

export type Encoding = 'json' | 'yaml' | 'protobuf'

export interface OutputMedia {
  encoding: Encoding
  /** The client asked for the object as a meta.k8s.io Table. */
  table: boolean
}

/** Every media type the server knows (listed in 406/415 answers, as a real server lists them). */
export const SERVER_MEDIA_TYPES = ['application/json', 'application/yaml', PROTOBUF_MEDIA_TYPE]

interface Clause {
  type: string
  subtype: string
  params: Record<string, string>
  q: number
  order: number
}

export function parseAccept(header: string): Clause[] {
  const out: Clause[] = []
  header.split(',').forEach((part, order) => {
    const [range, ...rest] = part.split(';').map(s => s.trim())
    if (!range) return
    const [type, subtype = '*'] = range.toLowerCase().split('/')
    const params: Record<string, string> = {}
    let q = 1
    for (const p of rest) {
      const eq = p.indexOf('=')
      if (eq < 0) continue
      const k = p.slice(0, eq).trim()
      const v = p.slice(eq + 1).trim()
      if (k === 'q') q = Number(v)
      else params[k] = v
    }
    if (Number.isFinite(q) && q > 0) out.push({ type, subtype, params, q, order })
  })
  return out.sort((a, b) => b.q - a.q || a.order - b.order)
}

const SUBTYPES: Record<string, Encoding> = {
  json: 'json',
  yaml: 'yaml',
  'vnd.kubernetes.protobuf': 'protobuf'
}

/**
 * The response media for `accept` on a route that may (`protobuf`) or may not speak protobuf
 * and may (`table`) convert to a Table. An empty header means JSON; undefined means nothing the
 * client accepts can be served (the caller answers 406).
 */
export function negotiate(
  accept: string,
  can: { protobuf: boolean; table: boolean; watch?: boolean }
): OutputMedia | undefined {
  if (!accept.trim()) return { encoding: 'json', table: false }
  for (const c of parseAccept(accept)) {
    const candidates: Encoding[] =
      c.type === '*' && c.subtype === '*'
        ? ['json']
        : c.type === 'application' && c.subtype === '*'
          ? ['json']
          : c.type === 'application' && SUBTYPES[c.subtype]
            ? [SUBTYPES[c.subtype]]
            : []
    for (const encoding of candidates) {
      if (encoding === 'protobuf' && !can.protobuf) continue
      if (c.params.stream && (c.params.stream !== 'watch' || !can.watch || encoding === 'yaml')) continue
      const as = c.params.as
      if (as === 'Table') {
        const g = c.params.g ?? ''
        if (!can.table || encoding === 'protobuf' || g !== 'meta.k8s.io') continue
        return { encoding, table: true }
      }
      if (as) continue
      return { encoding, table: false }
    }
  }
  return undefined
}

export function notAcceptable(watch = false): ApiError {
  const types = watch
    ? SERVER_MEDIA_TYPES.filter(t => t !== 'application/yaml').map(t => `${t};stream=watch`)
    : SERVER_MEDIA_TYPES
  return new ApiError(
    406,
    'NotAcceptable',
    `only the following media types are accepted: ${types.join(', ')}`
  )
}

/** The decoder a request body's Content-Type selects (JSON when there is none). */
export function bodyEncoding(contentType: string): Encoding {
  const mt = contentType.split(';')[0].trim().toLowerCase()
  if (!mt || mt === 'application/json' || mt === '*/*') return 'json'
  if (mt === 'application/yaml') return 'yaml'
  if (mt === PROTOBUF_MEDIA_TYPE) return 'protobuf'
  throw new ApiError(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: ${SERVER_MEDIA_TYPES.join(', ')}`
  )
}
