// The []byte fields of Secrets (`data`) and ConfigMaps (`binaryData`) as kube-apiserver decodes a
// request body (kubernetes/kubernetes@v1.33.2): each value is standard base64, decoded as Go's
// encoding/base64 does (a bad one fails the decode: 400 `Secret in version "v1" cannot be handled
// as a Secret: illegal base64 data at input byte N`, pkg/endpoints/handlers/rest.go
// `transformDecodeError`), and a Secret's write-only `stringData` is merged into `data`, each key
// overriding, and never stored (pkg/apis/core/v1/conversion.go `Convert_v1_Secret_To_core_Secret`).
import type { KubeObject, ResourceType } from '../store.js'
import { typeKey } from '../store.js'
import { ApiError } from './status.js'

const ALPHABET = /[A-Za-z0-9+/]/

/**
 * Where Go's base64.StdEncoding.DecodeString reports `illegal base64 data at input byte N` for
 * `s` (undefined when it decodes): Go's decodeQuantum, newlines skipped, `=` padding required.
 */
export function goBase64ErrorOffset(s: string): number | undefined {
  const src = Buffer.from(s, 'utf8')
  const nl = (c: number) => c === 0x0a || c === 0x0d
  let si = 0
  for (;;) {
    let j = 0
    for (; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) return undefined
        return si - j
      }
      const c = src[si++]
      if (ALPHABET.test(String.fromCharCode(c))) continue
      if (nl(c)) {
        j--
        continue
      }
      if (c !== 0x3d) return si - 1
      if (j === 0 || j === 1) return si - 1
      if (j === 2) {
        while (si < src.length && nl(src[si])) si++
        if (si === src.length) return src.length
        if (src[si] !== 0x3d) return si - 1
        si++
      }
      while (si < src.length && nl(src[si])) si++
      return si < src.length ? si : undefined
    }
  }
}

function badBase64(t: ResourceType, obj: KubeObject, offset: number): ApiError {
  const version = (obj.apiVersion ?? '').split('/').pop() || t.version
  return new ApiError(
    400,
    'BadRequest',
    `${obj.kind || t.kind} in version "${version}" cannot be handled as a ${t.kind}: illegal base64 data at input byte ${offset}`
  )
}

function checkBase64(t: ResourceType, obj: KubeObject, field: 'data' | 'binaryData'): void {
  const values = obj[field]
  if (!values || typeof values !== 'object') return
  for (const v of Object.values(values)) {
    if (typeof v !== 'string') continue
    const offset = goBase64ErrorOffset(v)
    if (offset !== undefined) throw badBase64(t, obj, offset)
  }
}

/** Decodes a written Secret or ConfigMap in place as the API server's decoder does (others untouched). */
export function decodeByteFields(t: ResourceType, obj: KubeObject): void {
  const tk = typeKey(t)
  if (tk === 'configmaps') checkBase64(t, obj, 'binaryData')
  if (tk !== 'secrets') return
  checkBase64(t, obj, 'data')
  const stringData = obj.stringData
  if (stringData === undefined) return
  delete obj.stringData
  if (!stringData || typeof stringData !== 'object') return
  const entries = Object.entries(stringData as Record<string, unknown>)
  if (!entries.length) return
  const data: Record<string, string> = obj.data && typeof obj.data === 'object' ? obj.data : {}
  for (const [k, v] of entries) data[k] = Buffer.from(String(v), 'utf8').toString('base64')
  obj.data = data
}
