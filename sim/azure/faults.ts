// Scripted failures from `scenario.azure.faults`: `{ match: "PUT */agentPools/*", status: 429,
// retryAfter: 2, times: 2 }`, `{ match: "*", reset: true, times: 1 }`. `match` is `METHOD glob`,
// a bare glob (any method) or `*`; `*` in the glob matches any characters including `/`, and the
// glob is matched against the URL path (no query), case-insensitively. `times` absent = always.
//
// Which services a fault can hit: ARM always. Entra and the OIDC stand-in only when the glob
// names a literal part of their path (e.g. `POST */oauth2/v2.0/token`, `GET /oidc/*`), so that
// a catch-all `*` or `GET *` exercises the ARM clients' retry policies rather than breaking the
// GitHub token fetch that precedes every run.
//
// `retryAfter` is in SIMULATED seconds; the header carries whole real seconds (scaled by the
// clock, rounded down, so `Retry-After: 0` at small time scales, which the SDK's throttling
// policy honours as "retry now"). A fault without `retryAfter` sends no Retry-After header, so the
// Azure SDK's default retry policy does NOT retry a 429 without it and surfaces the error.
import type { FaultSpec } from '../scenario.js'
import { globToRegExp, type SimHttpRequest, type SimHttpResponse } from './http.js'
import type { SimTime } from './sim-time.js'

export type AzureService = 'arm' | 'entra' | 'oidc'

interface ArmedFault {
  spec: FaultSpec
  method: string
  path: RegExp
  wildcardOnly: boolean
  remaining: number
}

const STATUS_TEXT: Record<number, [string, string]> = {
  429: [
    'TooManyRequests',
    'The request is being throttled as the limit has been reached for operation type. Please try again later.'
  ],
  500: ['InternalServerError', 'Encountered internal server error. Please try again later.'],
  502: ['BadGateway', 'The gateway did not receive a response from the resource provider in time.'],
  503: ['ServiceUnavailable', 'The service is temporarily unavailable. Please try again later.'],
  504: ['GatewayTimeout', 'The gateway did not receive a response within the specified time period.']
}

export class FaultInjector {
  private readonly faults: ArmedFault[]
  constructor(
    specs: FaultSpec[],
    private readonly time: SimTime
  ) {
    this.faults = specs
      .filter(s => s.match !== undefined)
      .map(spec => {
        const m = String(spec.match).trim()
        const sp = m.indexOf(' ')
        const method = sp > 0 ? m.slice(0, sp).toUpperCase() : '*'
        const glob = sp > 0 ? m.slice(sp + 1).trim() : m
        return {
          spec,
          method,
          path: globToRegExp(glob),
          wildcardOnly: /^\**$/.test(glob),
          remaining: spec.times ?? Number.POSITIVE_INFINITY
        }
      })
  }

  /** The response a matching fault dictates (consuming one of its `times`), or undefined. */
  take(service: AzureService, req: SimHttpRequest): SimHttpResponse | undefined {
    for (const f of this.faults) {
      if (f.remaining <= 0) continue
      if (service !== 'arm' && f.wildcardOnly) continue
      if (f.method !== '*' && f.method !== req.method.toUpperCase()) continue
      if (!f.path.test(req.path)) continue
      f.remaining--
      return this.responseFor(service, f.spec)
    }
    return undefined
  }

  private responseFor(service: AzureService, spec: FaultSpec): SimHttpResponse {
    if (spec.reset) return { status: 0, reset: true }
    const status = spec.status ?? 500
    const headers: Record<string, string> = {}
    if (spec.retryAfter !== undefined)
      headers['Retry-After'] = String(this.time.realSeconds(spec.retryAfter * 1000))
    const [code, message] = STATUS_TEXT[status] ?? [
      'InjectedFault',
      `Injected failure with status ${status}.`
    ]
    if (service === 'arm') return { status, headers, body: { error: { code, message } } }
    return {
      status,
      headers,
      body: {
        error: 'temporarily_unavailable',
        error_description: `${code}: ${message}`,
        error_codes: [],
        timestamp: new Date().toISOString()
      }
    }
  }
}
