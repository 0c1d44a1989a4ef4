// Errors as the API server reports them: metav1.Status bodies with reason, code and details.
export type Reason =
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Invalid'
  | 'Gone'
  | 'Expired'
  | 'BadRequest'
  | 'Unauthorized'
  | 'Forbidden'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'UnsupportedMediaType'
  | 'InternalError'
  | 'ServiceUnavailable'
  | 'TooManyRequests'

export interface StatusDetails {
  name?: string
  group?: string
  kind?: string
  uid?: string
  causes?: Array<{ reason?: string; message?: string; field?: string }>
  retryAfterSeconds?: number
}

export interface StatusObject {
  kind: 'Status'
  apiVersion: 'v1'
  metadata: Record<string, never>
  status: 'Failure' | 'Success'
  message?: string
  reason?: Reason
  details?: StatusDetails
  code: number
}

export class ApiError extends Error {
  constructor(
    readonly code: number,
    /** '' for the errors a real server reports with no reason (plain Go errors: a 500). */
    readonly reason: Reason | '',
    message: string,
    readonly details?: StatusDetails
  ) {
    super(message)
  }
  toStatus(): StatusObject {
    return statusFailure(this.code, this.reason, this.message, this.details)
  }
}

export function statusFailure(
  code: number,
  reason: Reason | '',
  message: string,
  details?: StatusDetails
): StatusObject {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    ...(reason ? { reason } : {}),
    // An empty `details` is sent as `{}` (go-restful's 404 carries one); none is left out.
    ...(details ? { details } : {}),
    code
  }
}

export function statusSuccess(details?: StatusDetails): StatusObject {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    ...(details ? { details } : {}),
    code: 200
  }
}

/** The reason a bare HTTP status (e.g. from a fault) is reported with. */
export function reasonForCode(code: number): Reason {
  switch (code) {
    case 400:
      return 'BadRequest'
    case 401:
      return 'Unauthorized'
    case 403:
      return 'Forbidden'
    case 404:
      return 'NotFound'
    case 409:
      return 'Conflict'
    case 410:
      return 'Gone'
    case 406:
      return 'NotAcceptable'
    case 415:
      return 'UnsupportedMediaType'
    case 422:
      return 'Invalid'
    case 429:
      return 'TooManyRequests'
    case 503:
      return 'ServiceUnavailable'
    default:
      return 'InternalError'
  }
}
