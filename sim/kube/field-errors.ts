// Field errors as k8s.io/apimachinery/pkg/util/validation/field formats them (v1.33: errors.go
// ErrorBody, and errors.NewInvalid's `<Kind>.<group> "<name>" is invalid: …` aggregate), and the
// StoreError a list of them becomes: 422 Invalid with one cause per error.
import { StoreError, type ResourceType } from './store.js'

export type FieldErrorType =
  'Invalid' | 'Required' | 'Unsupported' | 'Forbidden' | 'Duplicate' | 'TooLong' | 'TooMany'

export interface FieldError {
  type: FieldErrorType
  field: string
  /** The offending value, rendered as Go's %#v / %q would (already formatted). */
  value?: string
  detail?: string
}

const CAUSE: Record<FieldErrorType, string> = {
  Invalid: 'FieldValueInvalid',
  Required: 'FieldValueRequired',
  Unsupported: 'FieldValueNotSupported',
  Forbidden: 'FieldValueForbidden',
  Duplicate: 'FieldValueDuplicate',
  TooLong: 'FieldValueTooLong',
  TooMany: 'FieldValueTooMany'
}

const LABEL: Record<FieldErrorType, string> = {
  Invalid: 'Invalid value',
  Required: 'Required value',
  Unsupported: 'Unsupported value',
  Forbidden: 'Forbidden',
  Duplicate: 'Duplicate value',
  TooLong: 'Too long',
  TooMany: 'Too many'
}

/** A Go value as %#v / %q print it, for the error bodies. */
export function goValue(v: unknown): string {
  if (v === undefined || v === null) return 'null'
  if (typeof v === 'string') return JSON.stringify(v)
  if (typeof v === 'number' || typeof v === 'boolean') return String(v)
  if (Array.isArray(v)) return `[]interface {}{${v.map(goValue).join(', ')}}`
  return JSON.stringify(v)
}

/** `map[string]string{"a":"b"}` (keys sorted), or `map[string]string(nil)`. */
export function goStringMap(m: Record<string, string> | undefined): string {
  if (!m) return 'map[string]string(nil)'
  const keys = Object.keys(m).sort()
  return `map[string]string{${keys.map(k => `${JSON.stringify(k)}:${JSON.stringify(m[k])}`).join(', ')}}`
}

/** What field.Error.ErrorBody() prints after the path. */
export function errorBody(e: FieldError): string {
  const label = LABEL[e.type]
  const withValue =
    e.value !== undefined && e.type !== 'Required' && e.type !== 'Forbidden' && e.type !== 'TooLong'
  let s = withValue ? `${label}: ${e.value}` : label
  if (e.detail) s += `: ${e.detail}`
  return s
}

/** The 422 a list of field errors answers, worded as errors.NewInvalid words it. */
export function invalidError(
  t: Pick<ResourceType, 'kind' | 'group'>,
  name: string,
  errs: FieldError[]
): StoreError {
  const parts = errs.map(e => `${e.field}: ${errorBody(e)}`)
  const agg = parts.length === 1 ? parts[0] : `[${parts.join(', ')}]`
  return new StoreError(
    422,
    'Invalid',
    `${t.kind}${t.group ? '.' + t.group : ''} "${name}" is invalid: ${agg}`,
    errs.map(e => ({ reason: CAUSE[e.type], message: errorBody(e), field: e.field }))
  )
}
