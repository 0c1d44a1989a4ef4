// Microsoft Entra ID stand-in, as MSAL (via @azure/identity with `authorityHost` pointed here and
// `disableInstanceDiscovery: true`) uses it: tenant discovery
// (`GET /{tenant}/v2.0/.well-known/openid-configuration`), the key set, and the v2 token endpoint
// for the client-credentials grant with a client secret or a federated client assertion
// (jwt-bearer, checked against the OIDC stand-in's key, audience, issuer, subject and validity).
// Access tokens are RS256 JWTs signed by this world's Entra key; `exp` is simulated, `expires_in`
// is the real seconds the token stays valid (clients cache by real time). Errors use Entra's JSON
// shape with AADSTS codes.
import { randomUUID } from 'node:crypto'
import type { Scenario } from '../scenario.js'
import { json, parseFormBody, type SimHttpRequest, type SimHttpResponse } from './http.js'
import { decodeJwt, jwks, newJwtKey, signJwt, verifyJwt, type JwtClaims, type JwtKey } from './jwt.js'
import type { OidcStandIn } from './oidc.js'
import type { SimTime } from './sim-time.js'

/** The first-party AKS server application (Entra-integrated clusters). */
export const AKS_AAD_SERVER_APP = '6dae42f8-4368-4678-94ff-3960e28e3630'
export const ARM_AUDIENCES = [
  'https://management.azure.com/',
  'https://management.azure.com',
  'https://management.core.windows.net/',
  'https://management.core.windows.net'
]
/** Audiences a federated credential may require, per cloud (identity SDK deriveAudience). */
export const TOKEN_EXCHANGE_AUDIENCES = [
  'api://AzureADTokenExchange',
  'api://AzureADTokenExchangeUSGov',
  'api://AzureADTokenExchangeChina'
]
const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer'
const OIDC_SCOPES = new Set(['openid', 'profile', 'offline_access', 'email'])

export type AccessTokenCheck =
  | { ok: true; claims: JwtClaims }
  | { ok: false; reason: 'malformed' | 'signature' | 'issuer' | 'expired' | 'audience'; claims?: JwtClaims }

export class EntraStandIn {
  readonly key: JwtKey = newJwtKey()
  readonly issued: string[] = []
  /** Object id of the service principal the tokens are issued to. */
  private readonly servicePrincipalOid = randomUUID()

  constructor(
    private readonly scenario: Scenario,
    private readonly time: SimTime,
    private readonly oidc: OidcStandIn,
    private readonly base: () => string
  ) {}

  get tenantId(): string {
    return this.scenario.azure.tenantId
  }

  issuer(): string {
    return `${this.base()}/${this.tenantId}/v2.0`
  }

  handle(req: SimHttpRequest): SimHttpResponse {
    const m = /^\/([^/]+)(\/.*)$/.exec(req.path)
    if (!m) return json(404, { error: 'not_found', error_description: 'Not Found' })
    const [, tenant, rest] = m
    const known = tenant.toLowerCase() === this.tenantId.toLowerCase()
    if (
      req.method === 'GET' &&
      (rest === '/v2.0/.well-known/openid-configuration' || rest === '/.well-known/openid-configuration')
    ) {
      if (!known) return this.tenantNotFound(tenant)
      return json(200, this.openIdConfiguration())
    }
    if (req.method === 'GET' && rest === '/discovery/v2.0/keys') {
      if (!known) return this.tenantNotFound(tenant)
      return json(200, jwks(this.key))
    }
    if (rest === '/oauth2/v2.0/token') {
      if (req.method !== 'POST')
        return this.error(405, 'invalid_request', 900561, 'The endpoint only accepts POST requests.')
      if (!known) return this.tenantNotFound(tenant)
      return this.token(parseFormBody(req))
    }
    return json(404, { error: 'not_found', error_description: `No Entra endpoint at ${req.path}` })
  }

  private openIdConfiguration(): Record<string, unknown> {
    const t = `${this.base()}/${this.tenantId}`
    return {
      token_endpoint: `${t}/oauth2/v2.0/token`,
      token_endpoint_auth_methods_supported: ['client_secret_post', 'private_key_jwt', 'client_secret_basic'],
      jwks_uri: `${t}/discovery/v2.0/keys`,
      response_modes_supported: ['query', 'fragment', 'form_post'],
      subject_types_supported: ['pairwise'],
      id_token_signing_alg_values_supported: ['RS256'],
      response_types_supported: ['code', 'id_token', 'code id_token', 'id_token token'],
      scopes_supported: ['openid', 'profile', 'email', 'offline_access'],
      issuer: this.issuer(),
      request_uri_parameter_supported: false,
      userinfo_endpoint: `${this.base()}/oidc/userinfo`,
      authorization_endpoint: `${t}/oauth2/v2.0/authorize`,
      device_authorization_endpoint: `${t}/oauth2/v2.0/devicecode`,
      http_logout_supported: true,
      frontchannel_logout_supported: true,
      end_session_endpoint: `${t}/oauth2/v2.0/logout`,
      claims_supported: ['sub', 'iss', 'aud', 'exp', 'iat', 'nbf', 'tid', 'oid'],
      tenant_region_scope: 'NA',
      cloud_instance_name: 'microsoftonline.com',
      cloud_graph_host_name: 'graph.windows.net',
      msgraph_host: 'graph.microsoft.com',
      rbac_url: 'https://pas.windows.net'
    }
  }

  private token(form: URLSearchParams): SimHttpResponse {
    const grant = form.get('grant_type')
    if (grant !== 'client_credentials') {
      return this.error(
        400,
        'unsupported_grant_type',
        70003,
        `The app requested an unsupported grant type '${grant ?? ''}'.`
      )
    }
    const clientId = form.get('client_id') ?? ''
    if (clientId.toLowerCase() !== this.scenario.azure.clientId.toLowerCase()) {
      return this.error(
        400,
        'unauthorized_client',
        700016,
        `Application with identifier '${clientId}' was not found in the directory '${this.tenantId}'. This can happen if the application has not been installed by the administrator of the tenant or consented to by any user in the tenant. You may have sent your authentication request to the wrong tenant.`
      )
    }
    const scopes = (form.get('scope') ?? '').split(/\s+/).filter(s => s && !OIDC_SCOPES.has(s))
    if (scopes.length !== 1 || !scopes[0].endsWith('/.default')) {
      return this.error(
        400,
        'invalid_scope',
        1002012,
        `The provided value for scope ${scopes.join(' ')} is not valid. Client credential flows must have a scope value with /.default suffixed to the resource identifier (application ID URI).`
      )
    }
    const audience = audienceOf(scopes[0])
    if (!audience) {
      const resource = scopes[0].slice(0, -'/.default'.length)
      return this.error(
        400,
        'invalid_resource',
        500011,
        `The resource principal named ${resource} was not found in the tenant named ${this.tenantId}. This can happen if the application has not been installed by the administrator of the tenant or consented to by any user in the tenant. You might have sent your authentication request to the wrong tenant.`
      )
    }
    const secret = form.get('client_secret')
    const assertion = form.get('client_assertion')
    if (secret !== null) {
      if (secret !== this.scenario.azure.clientSecret) {
        return this.error(
          401,
          'invalid_client',
          7000215,
          `Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '${clientId}'.`
        )
      }
    } else if (assertion !== null) {
      if (form.get('client_assertion_type') !== JWT_BEARER) {
        return this.error(
          400,
          'invalid_request',
          90014,
          `The request body must contain the following parameter: 'client_assertion_type'.`
        )
      }
      const refused = this.checkAssertion(assertion)
      if (refused) return refused
    } else {
      return this.error(
        401,
        'invalid_client',
        7000218,
        `The request body must contain the following parameter: 'client_assertion' or 'client_secret'.`
      )
    }
    return json(200, this.issueAccessToken(audience))
  }

  /** An error response when the federated assertion is not acceptable; undefined when it is. */
  private checkAssertion(assertion: string): SimHttpResponse | undefined {
    if (!decodeJwt(assertion))
      return this.error(400, 'invalid_request', 50027, 'JWT token is invalid or malformed.')
    const claims = this.oidc.verifySignature(assertion)
    if (!claims) {
      return this.error(
        401,
        'invalid_client',
        5002738,
        `Invalid JWT token. The token signature could not be validated against the keys of issuer '${this.oidc.issuer}'.`
      )
    }
    const now = this.time.nowSec()
    const exp = Number(claims.exp)
    const nbf = Number(claims.nbf ?? claims.iat)
    if (!Number.isFinite(exp) || exp <= now || (Number.isFinite(nbf) && nbf > now)) {
      return this.error(
        401,
        'invalid_client',
        700024,
        `Client assertion is not within its valid time range. Current time: ${this.time.iso(now)}, assertion valid from ${Number.isFinite(nbf) ? this.time.iso(nbf) : 'unknown'}, expiry time of assertion ${Number.isFinite(exp) ? this.time.iso(exp) : 'unknown'}. Review the documentation at https://learn.microsoft.com/entra/identity-platform/certificate-credentials .`
      )
    }
    if (claims.iss !== this.oidc.issuer) {
      return this.error(
        400,
        'invalid_request',
        700211,
        `No matching federated identity record found for presented assertion issuer '${String(claims.iss)}'. Please check your federated identity credential Subject, Audience and Issuer against the presented assertion.`
      )
    }
    const auds = Array.isArray(claims.aud) ? claims.aud.map(String) : [String(claims.aud)]
    if (!auds.some(a => TOKEN_EXCHANGE_AUDIENCES.includes(a))) {
      return this.error(
        400,
        'invalid_request',
        700212,
        `No matching federated identity record found for presented assertion audience '${auds.join(',')}'. Please check your federated identity credential Subject, Audience and Issuer against the presented assertion.`
      )
    }
    if (claims.sub !== this.oidc.federatedSubject) {
      return this.error(
        400,
        'invalid_request',
        70021,
        `No matching federated identity record found for presented assertion subject '${String(claims.sub)}'. Please check your federated identity credential Subject, Audience and Issuer against the presented assertion. Assertion Issuer: '${String(claims.iss)}'. Assertion Subject: '${String(claims.sub)}'. Assertion Audience: '${auds.join(',')}'.`
      )
    }
    return undefined
  }

  /** A token response for `audience` (also used directly by the kube half's tests). */
  issueAccessToken(audience: string): {
    token_type: string
    expires_in: number
    ext_expires_in: number
    access_token: string
  } {
    const now = this.time.nowSec()
    const tokens = this.scenario.azure.tokens
    const lifetimeMs = this.time.tokenLifetimeMs(
      (audience === AKS_AAD_SERVER_APP ? tokens?.aksAccessTokenLifetime : undefined) ??
        tokens?.accessTokenLifetime,
      3_600_000
    )
    const token = signJwt(this.key, {
      aud: audience,
      iss: this.issuer(),
      iat: now,
      nbf: now,
      exp: now + Math.floor(lifetimeMs / 1000),
      appid: this.scenario.azure.clientId,
      azp: this.scenario.azure.clientId,
      idtyp: 'app',
      oid: this.servicePrincipalOid,
      sub: this.servicePrincipalOid,
      tid: this.tenantId,
      uti: randomUUID(),
      ver: '2.0'
    })
    this.issued.push(token)
    // Real seconds: a client caching by its own clock must see the token go stale when the world
    // does. One second less than the real lifetime, because MSAL rounds its clock to whole seconds.
    const expiresIn = Math.max(1, this.time.realSeconds(lifetimeMs) - 1)
    return { token_type: 'Bearer', expires_in: expiresIn, ext_expires_in: expiresIn, access_token: token }
  }

  /** Checks signature, issuer, simulated expiry and audience of an access token this world issued. */
  checkAccessToken(token: string, audiences: string[]): AccessTokenCheck {
    if (!decodeJwt(token)) return { ok: false, reason: 'malformed' }
    const claims = verifyJwt(token, this.key)
    if (!claims) return { ok: false, reason: 'signature' }
    if (claims.iss !== this.issuer() || claims.tid !== this.tenantId)
      return { ok: false, reason: 'issuer', claims }
    if (!(Number(claims.exp) > this.time.nowSec())) return { ok: false, reason: 'expired', claims }
    if (!audiences.includes(String(claims.aud))) return { ok: false, reason: 'audience', claims }
    return { ok: true, claims }
  }

  private tenantNotFound(tenant: string): SimHttpResponse {
    return this.error(
      400,
      'invalid_tenant',
      90002,
      `Tenant '${tenant}' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud. Check with your subscription administrator, this may happen if there are no active subscriptions for the tenant.`
    )
  }

  private error(status: number, error: string, code: number, text: string): SimHttpResponse {
    const traceId = randomUUID()
    const correlationId = randomUUID()
    const ts = this.time
      .iso(this.time.nowSec())
      .replace('T', ' ')
      .replace(/\.\d+Z$/, 'Z')
    return json(status, {
      error,
      error_description: `AADSTS${code}: ${text} Trace ID: ${traceId} Correlation ID: ${correlationId} Timestamp: ${ts}`,
      error_codes: [code],
      timestamp: ts,
      trace_id: traceId,
      correlation_id: correlationId,
      error_uri: `${this.base()}/error?code=${code}`
    })
  }
}

/** The token audience for a `<resource>/.default` scope, or undefined for resources this tenant lacks. */
export function audienceOf(scope: string): string | undefined {
  const resource = scope.slice(0, -'/.default'.length)
  if (resource === AKS_AAD_SERVER_APP || resource === `api://${AKS_AAD_SERVER_APP}`) return AKS_AAD_SERVER_APP
  const normalized = resource.replace(/\/+$/, '') + '/'
  if (normalized === 'https://management.azure.com/' || normalized === 'https://management.core.windows.net/')
    return normalized
  return undefined
}
