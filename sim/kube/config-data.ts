// Update and size rules of Secrets and ConfigMaps, as kubernetes/kubernetes@v1.33.2
// pkg/apis/core/validation/validation.go words them (ValidateSecretUpdate, ValidateConfigMapUpdate:
// an `immutable: true` object keeps `immutable`, `data` and `binaryData`; ValidateSecret,
// ValidateConfigMap: at most 1 MiB (MaxSecretSize) of values, a Secret's under `data`, a
// ConfigMap's over the whole object, field `[]`), with apimachinery's TooLong wording.
import type { FieldError } from './field-errors.js'
import type { KubeObject } from './store.js'

/** core.MaxSecretSize. */
export const MAX_SECRET_SIZE = 1024 * 1024

const IMMUTABLE = 'field is immutable when `immutable` is set'

function sameMap(a: unknown, b: unknown): boolean {
  const x = (a ?? {}) as Record<string, unknown>
  const y = (b ?? {}) as Record<string, unknown>
  const kx = Object.keys(x)
  // reflect.DeepEqual on Go maps: nil and empty differ; a decoded `{}` and an absent field do too.
  if ((a === undefined) !== (b === undefined) && (kx.length || Object.keys(y).length)) return false
  return kx.length === Object.keys(y).length && kx.every(k => k in y && x[k] === y[k])
}

const bytesOf = (values: unknown, base64: boolean): number =>
  Object.values((values ?? {}) as Record<string, unknown>).reduce<number>(
    (n, v) => n + (typeof v === 'string' ? Buffer.from(v, base64 ? 'base64' : 'utf8').length : 0),
    0
  )

const tooLong = (field: string): FieldError => ({
  type: 'TooLong',
  field,
  detail: `may not be more than ${MAX_SECRET_SIZE} bytes`
})

/** The field errors of a Secret or ConfigMap write (`tk`: its type key); none for other kinds. */
export function configDataErrors(tk: string, obj: KubeObject, old?: KubeObject): FieldError[] {
  if (tk !== 'secrets' && tk !== 'configmaps') return []
  const errs: FieldError[] = []
  if (old?.immutable === true) {
    if (obj.immutable !== true) errs.push({ type: 'Forbidden', field: 'immutable', detail: IMMUTABLE })
    if (!sameMap(obj.data, old.data)) errs.push({ type: 'Forbidden', field: 'data', detail: IMMUTABLE })
    if (tk === 'configmaps' && !sameMap(obj.binaryData, old.binaryData))
      errs.push({ type: 'Forbidden', field: 'binaryData', detail: IMMUTABLE })
  }
  if (tk === 'secrets' && bytesOf(obj.data, true) > MAX_SECRET_SIZE) errs.push(tooLong('data'))
  if (tk === 'configmaps' && bytesOf(obj.data, false) + bytesOf(obj.binaryData, true) > MAX_SECRET_SIZE)
    errs.push(tooLong('[]'))
  return errs
}
