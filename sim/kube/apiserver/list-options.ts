// The list and watch options kube-apiserver refuses before it reads a collection (v1.33:
// k8s.io/apimachinery pkg/apis/meta/internalversion/validation ValidateListOptions, called from
// k8s.io/apiserver pkg/endpoints/handlers/get.go ListResource): resourceVersionMatch only with a
// resourceVersion and without a continue token, Exact or NotOlderThan (Exact not at "0"), and
// sendInitialEvents never on a list. On a watch, sendInitialEvents needs resourceVersionMatch=
// NotOlderThan and the WatchList feature gate, which v1.33 turns off by default (beta, off; on in
// 1.32 and again in 1.34), so a v1.33 server refuses it whatever its value. The answer is
// errors.NewInvalid for the kind ListOptions.meta.k8s.io: 422 with one cause per error.
import { errorBody, type FieldError } from '../field-errors.js'
import { parseBool } from './parse-bool.js'
import { ApiError } from './status.js'

/** k8s.io/apiserver@v0.33.2 pkg/features/kube_features.go: WatchList is beta and off from 1.33. */
const WATCH_LIST_ENABLED = false

const CAUSE: Record<string, string> = {
  Forbidden: 'FieldValueForbidden',
  Unsupported: 'FieldValueNotSupported'
}

const forbidden = (field: string, detail: string): FieldError => ({ type: 'Forbidden', field, detail })
const notSupported = (field: string, value: string, supported: string[]): FieldError => ({
  type: 'Unsupported',
  field,
  value: JSON.stringify(value),
  detail: `supported values: ${supported.map(s => JSON.stringify(s)).join(', ')}`
})

function watchErrors(q: URLSearchParams): FieldError[] {
  const errs: FieldError[] = []
  const match = q.get('resourceVersionMatch') ?? ''
  const initial = q.has('sendInitialEvents')
  if (initial) {
    if (match !== 'NotOlderThan')
      errs.push(
        forbidden(
          'resourceVersionMatch',
          'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'
        )
      )
    if (!WATCH_LIST_ENABLED)
      errs.push(
        forbidden(
          'sendInitialEvents',
          'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled'
        )
      )
  }
  if (match) {
    if (!initial)
      errs.push(
        forbidden(
          'resourceVersionMatch',
          'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'
        )
      )
    if (match !== 'NotOlderThan') errs.push(notSupported('resourceVersionMatch', match, ['NotOlderThan']))
    if (q.get('continue'))
      errs.push(
        forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided')
      )
  }
  return errs
}

function listErrors(q: URLSearchParams): FieldError[] {
  const errs: FieldError[] = []
  const match = q.get('resourceVersionMatch') ?? ''
  const rv = q.get('resourceVersion') ?? ''
  if (match) {
    if (!rv)
      errs.push(
        forbidden(
          'resourceVersionMatch',
          'resourceVersionMatch is forbidden unless resourceVersion is provided'
        )
      )
    if (q.get('continue'))
      errs.push(
        forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided')
      )
    if (match !== 'Exact' && match !== 'NotOlderThan')
      errs.push(notSupported('resourceVersionMatch', match, ['Exact', 'NotOlderThan', '']))
    if (match === 'Exact' && rv === '0')
      errs.push(
        forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"')
      )
  }
  if (q.has('sendInitialEvents'))
    errs.push(forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'))
  return errs
}

/** The 422 a collection GET with these query parameters gets, or undefined when they are valid. */
export function listOptionsError(q: URLSearchParams): ApiError | undefined {
  const errs = parseBool(q, 'watch') ? watchErrors(q) : listErrors(q)
  if (!errs.length) return undefined
  const parts = errs.map(e => `${e.field}: ${errorBody(e)}`)
  const agg = parts.length === 1 ? parts[0] : `[${parts.join(', ')}]`
  return new ApiError(422, 'Invalid', `ListOptions.meta.k8s.io "" is invalid: ${agg}`, {
    group: 'meta.k8s.io',
    kind: 'ListOptions',
    causes: errs.map(e => ({ reason: CAUSE[e.type], message: errorBody(e), field: e.field }))
  })
}
