// ARM's front door: every request needs `Authorization: Bearer <token>` with a token this world's
// Entra issued for the ARM audience, still valid in simulated time. Refusals are 401 with ARM's
// codes and a `WWW-Authenticate` challenge (without CAE claims, so the SDK surfaces the error):
// AuthenticationFailed (no header), InvalidAuthenticationToken (not ours / malformed),
// ExpiredAuthenticationToken. A valid token of this world issued for another audience (e.g. the
// AKS server app) is a 403 InvalidAuthenticationTokenAudience: the caller is authenticated but the
// token is not for ARM (the project's simulator contract; real ARM uses 401 with the same code).
import type { EntraStandIn } from '../entra.js'
import { ARM_AUDIENCES } from '../entra.js'
import { header, type SimHttpRequest, type SimHttpResponse } from '../http.js'
import type { SimTime } from '../sim-time.js'
import { armError } from './errors.js'

export function checkArmAuth(
  req: SimHttpRequest,
  entra: EntraStandIn,
  time: SimTime,
  base: string
): SimHttpResponse | undefined {
  const challenge = (description: string) => ({
    'WWW-Authenticate': `Bearer authorization_uri="${base}/${entra.tenantId}", error="invalid_token", error_description="${description}"`
  })
  const auth = header(req, 'authorization')
  if (!auth) {
    return armError(
      401,
      'AuthenticationFailed',
      "Authentication failed. The 'Authorization' header is missing.",
      {
        headers: challenge("The authentication failed because of missing 'Authorization' header.")
      }
    )
  }
  const m = /^Bearer\s+(\S+)$/i.exec(auth)
  if (!m) {
    return armError(
      401,
      'AuthenticationFailed',
      "Authentication failed. The 'Authorization' header is provided in an invalid format.",
      {
        headers: challenge("The authentication failed because of invalid 'Authorization' header.")
      }
    )
  }
  const check = entra.checkAccessToken(m[1], ARM_AUDIENCES)
  if (check.ok) return undefined
  switch (check.reason) {
    case 'expired': {
      const exp = Number(check.claims?.exp)
      return armError(
        401,
        'ExpiredAuthenticationToken',
        `The access token expiry UTC time '${time.iso(exp)}' is earlier than current UTC time '${time.iso(time.nowSec())}'.`,
        { headers: challenge('The access token has expired.') }
      )
    }
    case 'audience':
      return armError(
        403,
        'InvalidAuthenticationTokenAudience',
        `The access token has been obtained for wrong audience or resource '${String(check.claims?.aud)}'. It should exactly match with one of the allowed audiences '${ARM_AUDIENCES.join("','")}'.`,
        { headers: challenge('The access token has been obtained for wrong audience or resource.') }
      )
    default:
      return armError(401, 'InvalidAuthenticationToken', 'The access token is invalid.', {
        headers: challenge('The access token is invalid.')
      })
  }
}
