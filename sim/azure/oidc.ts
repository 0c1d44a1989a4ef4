// GitHub Actions OIDC stand-in: what ACTIONS_ID_TOKEN_REQUEST_URL/_TOKEN point at. A GET with the
// runner's request token and `&audience=` returns `{"value": "<jwt>"}`, an RS256 token signed by a
// key this world generates, with `sub` = the scenario's federated subject and `exp` =
// simulated now + tokens.oidcLifetime. Also serves the issuer's discovery document and JWKS.
import { randomBytes, randomUUID } from 'node:crypto'
import type { Scenario } from '../scenario.js'
import { header, json, type SimHttpRequest, type SimHttpResponse } from './http.js'
import { jwks, newJwtKey, signJwt, verifyJwt, type JwtClaims, type JwtKey } from './jwt.js'
import type { SimTime } from './sim-time.js'

export const OIDC_PREFIX = '/oidc'

export class OidcStandIn {
  readonly key: JwtKey = newJwtKey()
  /** The runner's ACTIONS_ID_TOKEN_REQUEST_TOKEN. */
  readonly requestToken = randomBytes(24).toString('base64url')
  readonly issued: string[] = []

  constructor(
    private readonly scenario: Scenario,
    private readonly time: SimTime,
    private readonly base: () => string
  ) {}

  get issuer(): string {
    return `${this.base()}${OIDC_PREFIX}`
  }

  /** ACTIONS_ID_TOKEN_REQUEST_URL (already has a query, as @actions/core appends `&audience=`). */
  get requestUrl(): string {
    return `${this.issuer}/idtoken?api-version=2.0`
  }

  /** The subject of the tokens this runner receives. */
  get subject(): string {
    return this.scenario.azure.oidcSubject ?? this.federatedSubject
  }

  /** The subject the federated identity credential in Entra accepts. */
  get federatedSubject(): string {
    return this.scenario.azure.federatedSubject ?? 'repo:org/repo:ref:refs/heads/main'
  }

  handle(req: SimHttpRequest): SimHttpResponse {
    const sub = req.path.slice(OIDC_PREFIX.length)
    if (req.method === 'GET' && sub === '/.well-known/openid-configuration') {
      return json(200, {
        issuer: this.issuer,
        jwks_uri: `${this.issuer}/.well-known/jwks`,
        subject_types_supported: ['public', 'pairwise'],
        response_types_supported: ['id_token'],
        claims_supported: ['sub', 'aud', 'exp', 'iat', 'iss', 'jti', 'nbf', 'ref', 'repository', 'run_id'],
        id_token_signing_alg_values_supported: ['RS256'],
        scopes_supported: ['openid']
      })
    }
    if (req.method === 'GET' && sub === '/.well-known/jwks') return json(200, jwks(this.key))
    if (sub !== '/idtoken') return json(404, { message: 'Not Found' })
    if (req.method !== 'GET') return json(405, { message: 'Method Not Allowed' })
    const auth = header(req, 'authorization') ?? ''
    if (auth !== `Bearer ${this.requestToken}`) {
      return json(401, { message: 'Bad credentials: the ID token request token is missing or invalid.' })
    }
    const audience = req.query.get('audience') ?? `https://github.com/${this.owner()}`
    return json(200, { count: 1, value: this.issue(audience) })
  }

  /** Mints a token as the runner would receive it (also usable directly by tests). */
  issue(audience: string, overrides: JwtClaims = {}): string {
    const now = this.time.nowSec()
    const lifetime = Math.floor(
      this.time.tokenLifetimeMs(this.scenario.azure.tokens?.oidcLifetime, 300_000) / 1000
    )
    const repo = this.repository()
    const token = signJwt(this.key, {
      jti: randomUUID(),
      sub: this.subject,
      aud: audience,
      ref: 'refs/heads/main',
      repository: repo,
      repository_owner: this.owner(),
      run_id: '1',
      event_name: 'push',
      iss: this.issuer,
      nbf: now,
      iat: now,
      exp: now + lifetime,
      ...overrides
    })
    this.issued.push(token)
    return token
  }

  /** Payload of a token this stand-in signed, or undefined (signature only; claims are the caller's job). */
  verifySignature(token: string): JwtClaims | undefined {
    return verifyJwt(token, this.key)
  }

  private repository(): string {
    const m = /^repo:([^:]+):/.exec(this.subject)
    return m ? m[1] : 'org/repo'
  }

  private owner(): string {
    return this.repository().split('/')[0]
  }
}
