// Signing in with the real @azure/identity credentials against a fake Entra answering through the
// identity pipeline's `additionalPolicies` (Entra's documented JSON: the tenant's OpenID
// configuration, token responses, AADSTS error bodies), a fake `az` first on PATH (the JSON of
// `az account get-access-token`), and — only for what has no injection point (probeAuthority's
// own HTTP client, @actions/core's ID token request) — a node:http server on 127.0.0.1. Checks the
// requests sent, the order of attempts, the log lines, what is masked (client secret, GitHub ID
// token, access tokens) and that no secret shows in a log line or an error message.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals'
import {
  createHttpHeaders,
  type PipelinePolicy,
  type PipelineRequest,
  type PipelineResponse
} from '@azure/core-rest-pipeline'
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import http from 'node:http'
import https from 'node:https'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import tls from 'node:tls'
import {
  AzureAuthError,
  createCredential,
  decodeJwtClaims,
  explainAuthError,
  probeAuthority
} from '../../../src/azure/auth.js'
import type { AzureSettings } from '../../../src/settings/settings.js'
import { captureLog, type CapturedLog } from '../../support/capture-log.js'
import { azureSettings } from '../../support/azure-settings.js'
import { rejection } from '../../support/rejection.js'

const CUSTOM = 'https://login.entra.test'
const ARM_SCOPE = 'https://management.azure.com/.default'
const SECRET = 'hunter2-secret-value'

const azure = (over: Partial<AzureSettings> = {}): AzureSettings =>
  azureSettings({ authorityHost: CUSTOM, ...over })

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url')
/** A GitHub-shaped ID token (not signed: the fake Entra does not verify it). */
const idToken = (claims: Record<string, unknown>) =>
  `${b64({ alg: 'RS256', typ: 'JWT' })}.${b64({ iss: 'https://token.actions.githubusercontent.com', aud: 'api://AzureADTokenExchange', ...claims })}.c2ln`

interface SeenRequest {
  method: string
  /** URL without its query. */
  url: string
  form: URLSearchParams
}

type Answer = { status: number; body: unknown }

/** Entra's error body (as the token endpoint and tenant discovery send it). */
function aadError(status: number, error: string, code: number, text: string): Answer {
  return {
    status,
    body: {
      error,
      error_description: `AADSTS${code}: ${text} Trace ID: 0b6e3f1c Correlation ID: 4c1d Timestamp: 2026-01-01 00:00:00Z`,
      error_codes: [code],
      timestamp: '2026-01-01 00:00:00Z',
      trace_id: '0b6e3f1c',
      correlation_id: '4c1d',
      error_uri: `${CUSTOM}/error?code=${code}`
    }
  }
}

function openIdConfiguration(host: string, tenant: string): Answer {
  const t = `${host}/${tenant}`
  return {
    status: 200,
    body: {
      token_endpoint: `${t}/oauth2/v2.0/token`,
      token_endpoint_auth_methods_supported: ['client_secret_post', 'private_key_jwt', 'client_secret_basic'],
      jwks_uri: `${t}/discovery/v2.0/keys`,
      response_types_supported: ['code', 'id_token', 'code id_token', 'id_token token'],
      issuer: `${t}/v2.0`,
      authorization_endpoint: `${t}/oauth2/v2.0/authorize`,
      end_session_endpoint: `${t}/oauth2/v2.0/logout`,
      tenant_region_scope: 'NA',
      cloud_instance_name: 'microsoftonline.com'
    }
  }
}

const tokenAnswer = (token: string): Answer => ({
  status: 200,
  body: { token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599, access_token: token }
})

/**
 * Entra behind the identity pipeline: every request MSAL sends is recorded and answered here.
 * `token` answers the token endpoint (default: a fresh access token per request).
 */
function fakeEntra(
  o: { discovery?: (req: SeenRequest) => Answer; token?: (req: SeenRequest, n: number) => Answer } = {}
): { policy: PipelinePolicy; seen: SeenRequest[] } {
  const seen: SeenRequest[] = []
  let tokens = 0
  const policy: PipelinePolicy = {
    name: 'fake-entra',
    sendRequest: async (req: PipelineRequest): Promise<PipelineResponse> => {
      const url = req.url.split('?')[0]
      const s: SeenRequest = { method: req.method, url, form: new URLSearchParams(String(req.body ?? '')) }
      seen.push(s)
      const host = new URL(url).origin
      const m = /^\/([^/]+)\/(v2\.0\/\.well-known\/openid-configuration|oauth2\/v2\.0\/token)$/.exec(
        new URL(url).pathname
      )
      let a: Answer
      if (m?.[2].startsWith('v2.0')) a = o.discovery ? o.discovery(s) : openIdConfiguration(host, m[1])
      else if (m) a = o.token ? o.token(s, ++tokens) : tokenAnswer(`access-token-${++tokens}`)
      else a = { status: 404, body: { error: 'not_found', error_description: `No Entra endpoint at ${url}` } }
      return {
        request: req,
        status: a.status,
        headers: createHttpHeaders({ 'content-type': 'application/json; charset=utf-8' }),
        bodyAsText: JSON.stringify(a.body)
      }
    }
  }
  return { policy, seen }
}

const clientOptions = (policy: PipelinePolicy) => ({
  retryOptions: { maxRetries: 0, retryDelayInMs: 1, maxRetryDelayInMs: 1 },
  additionalPolicies: [{ policy, position: 'perCall' as const }]
})

/** Signs in with the client secret at `authorityHost`, Entra behind `policy`: what getToken rejects with. */
const secretSignInFailure = (policy: PipelinePolicy, authorityHost: string): Promise<Error> =>
  rejection(
    createCredential(azure({ clientSecret: SECRET, authorityHost }), captureLog(), {
      env: {},
      clientOptions: clientOptions(policy)
    }).credential.getToken(ARM_SCOPE)
  )

/** A log that also records what was handed to its secret(). */
function recordingLog(): CapturedLog & { secrets: string[] } {
  const secrets: string[] = []
  return Object.assign(captureLog(), { secrets, secret: (s: string) => void secrets.push(s) })
}

const send = (status: number, body: string) => (_: unknown, res: http.ServerResponse) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' })
  res.end(body)
}

// The process's own trust, restored after the local HTTPS server's certificate was added to it.
let originalCAs: string[] = []

// The local HTTPS server's certificate is made by openssl, a program this repository does not ship.
const OPENSSL = ['/usr/bin/openssl', '/usr/local/bin/openssl', '/opt/homebrew/bin/openssl'].find(p =>
  existsSync(p)
)

/**
 * An HTTPS server on 127.0.0.1 with a throwaway self-signed certificate (made by openssl), trusted
 * the way NODE_EXTRA_CA_CERTS would trust it: the action's HTTP clients refuse plain http.
 */
async function localHttps(handler: http.RequestListener): Promise<https.Server> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'auth-tls-'))
  try {
    execFileSync(
      OPENSSL!,
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
        '-days',
        '2',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1'
      ],
      { stdio: 'ignore' }
    )
    const cert = readFileSync(path.join(dir, 'cert.pem'), 'utf8')
    const key = readFileSync(path.join(dir, 'key.pem'), 'utf8')
    originalCAs = [...tls.getCACertificates('bundled'), ...tls.getCACertificates('extra')]
    tls.setDefaultCACertificates([...originalCAs, cert])
    const server = https.createServer({ cert, key }, handler)
    await new Promise<void>(r => server.listen(0, '127.0.0.1', () => r()))
    return server
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

async function closeHttps(server: https.Server): Promise<void> {
  tls.setDefaultCACertificates(originalCAs)
  server.closeAllConnections()
  await new Promise<void>(r => server.close(() => r()))
}

/** A local port nothing listens on (connections are refused at once). */
async function closedPort(): Promise<number> {
  const s = net.createServer()
  await new Promise<void>(r => s.listen(0, '127.0.0.1', () => r()))
  const port = (s.address() as net.AddressInfo).port
  await new Promise<void>(r => s.close(() => r()))
  return port
}

let savedEnv: NodeJS.ProcessEnv
beforeEach(() => {
  savedEnv = { ...process.env }
})
afterEach(() => {
  for (const k of Object.keys(process.env)) if (!(k in savedEnv)) delete process.env[k]
  Object.assign(process.env, savedEnv)
  jest.useRealTimers()
  jest.restoreAllMocks()
})

describe('decodeJwtClaims', () => {
  it('only a three-part token carries claims', () => {
    const claims = b64({ sub: 's' })
    expect(decodeJwtClaims(`h.${claims}.sig`)).toEqual({ sub: 's' })
    expect(decodeJwtClaims(`h.${claims}`)).toBeUndefined()
    expect(decodeJwtClaims(`h.${claims}.sig.x`)).toBeUndefined()
    expect(decodeJwtClaims(`h.${b64([1])}.sig`)).toEqual([1])
  })
})

describe('explainAuthError, the remaining cases', () => {
  const ctx = (method: 'oidc' | 'secret' | 'cli', over: Partial<AzureSettings> = {}) => ({
    method,
    azure: azure(over)
  })
  it('scrubs the client secret from an unexplained error, and keeps the code', () => {
    const e = explainAuthError(
      new Error(`request with ${SECRET} refused\nAADSTS50034: user ${SECRET} unknown`),
      ctx('secret', { clientSecret: SECRET })
    )
    expect(e.message).toBe('Azure sign-in (secret) failed: AADSTS50034: user *** unknown')
    expect(e.aadsts).toBe('AADSTS50034')
    expect(e.name).toBe('AzureAuthError')
  })
  it('an error without an AADSTS line: its first line; the CLI words only for the CLI', () => {
    expect(explainAuthError(new Error('  first  \nsecond AADST'), ctx('cli')).message).toBe(
      'Azure sign-in (cli) failed: first'
    )
    expect(explainAuthError(new Error('Azure CLI could not be found'), ctx('secret')).message).toBe(
      'Azure sign-in (secret) failed: Azure CLI could not be found'
    )
    expect(explainAuthError(new Error("'az' is not recognized as a command"), ctx('cli')).message).toMatch(
      /^auth-type cli: the Azure CLI \(az\) was not found on this runner\. Sign in with azure\/login/
    )
    expect(explainAuthError(new Error('the authority could not be reached'), ctx('oidc')).message).toBe(
      'Azure sign-in (oidc) failed: could not read the Entra authority https://login.entra.test/tenant-1: the authority could not be reached. Check tenant-id, environment and authority-host.'
    )
    expect(explainAuthError(new Error('AADSTS12345: other'), ctx('oidc')).aadsts).toBe('AADSTS12345')
    expect(explainAuthError(new Error('no code'), ctx('oidc')).aadsts).toBeUndefined()
  })
})

if (!OPENSSL)
  console.log('skipping the probeAuthority tests: openssl not found (it makes their server certificate)')
const describeWithOpenssl = OPENSSL ? describe : describe.skip
describeWithOpenssl(
  'probeAuthority (its own HTTPS client: a local server stands in for the authority)',
  () => {
    let server: https.Server
    let base: string
    let answer: (req: http.IncomingMessage, res: http.ServerResponse) => void
    const paths: string[] = []
    beforeAll(async () => {
      server = await localHttps((req, res) => {
        paths.push(`${req.method} ${req.url}`)
        answer(req, res)
      })
      base = `https://127.0.0.1:${(server.address() as net.AddressInfo).port}`
    })
    afterAll(async () => {
      await closeHttps(server)
    })
    beforeEach(() => {
      paths.length = 0
    })

    it('Entra’s own error_description for an unknown tenant, from the tenant’s discovery URL', async () => {
      answer = send(
        400,
        JSON.stringify(aadError(400, 'invalid_tenant', 90002, "Tenant 'x y' not found.").body)
      )
      const why = await probeAuthority(`${base}//`, 'x y/z')
      expect(why).toBe(
        "AADSTS90002: Tenant 'x y' not found. Trace ID: 0b6e3f1c Correlation ID: 4c1d Timestamp: 2026-01-01 00:00:00Z"
      )
      expect(paths).toEqual(['GET /x%20y%2Fz/v2.0/.well-known/openid-configuration'])
    })

    it('readable now; any other answer by its status', async () => {
      answer = send(200, JSON.stringify(openIdConfiguration(base, 'tenant-1').body))
      const url = `${base}/tenant-1/v2.0/.well-known/openid-configuration`
      expect(await probeAuthority(`${base}/`, 'tenant-1')).toBe(
        `the OpenID configuration at ${url} is readable now (a transient failure?)`
      )
      answer = send(404, 'Not Found')
      expect(await probeAuthority(base, 'tenant-1')).toBe(`${url} answered HTTP 404`)
      answer = send(500, JSON.stringify({ error: 'server_error' }))
      expect(await probeAuthority(base, 'tenant-1')).toBe(`${url} answered HTTP 500`)
      answer = send(503, '')
      expect(await probeAuthority(base, 'tenant-1')).toBe(`${url} answered HTTP 503`)
      expect(paths).toEqual(Array(4).fill('GET /tenant-1/v2.0/.well-known/openid-configuration'))
    })

    it('a host that cannot be reached: the URL and the network error', async () => {
      const port = await closedPort()
      const why = await probeAuthority(`https://127.0.0.1:${port}`, 't')
      expect(why).toMatch(
        new RegExp(
          `^the authority host could not be reached \\(https://127\\.0\\.0\\.1:${port}/t/v2\\.0/\\.well-known/openid-configuration\\): .*ECONNREFUSED`
        )
      )
    })

    it('through the credential: an authority MSAL cannot read is read again, and Entra’s AADSTS90002 explained', async () => {
      answer = send(
        400,
        JSON.stringify(aadError(400, 'invalid_tenant', 90002, "Tenant 'tenant-1' not found.").body)
      )
      const { policy, seen } = fakeEntra({
        discovery: () => aadError(400, 'invalid_tenant', 90002, "Tenant 'tenant-1' not found.")
      })
      const e = await secretSignInFailure(policy, base)
      expect(e).toBeInstanceOf(AzureAuthError)
      expect((e as AzureAuthError).aadsts).toBe('AADSTS90002')
      expect(e.message).toBe(
        'Azure sign-in failed with AADSTS90002: tenant tenant-1 was not found. Check tenant-id and environment (AzureCloud).'
      )
      expect(seen.map(r => `${r.method} ${r.url}`)).toEqual([
        `GET ${base}/tenant-1/v2.0/.well-known/openid-configuration`
      ])
      expect(paths).toEqual(['GET /tenant-1/v2.0/.well-known/openid-configuration'])
    })
  }
)

describe('createCredential: client secret', () => {
  it('masks the secret first, then every token; sends the client-credentials grant; logs the choice', async () => {
    const { policy, seen } = fakeEntra()
    const log = recordingLog()
    const masked: string[] = []
    const c = createCredential(azure({ clientSecret: SECRET }), log, {
      env: {},
      mask: s => void masked.push(s),
      clientOptions: clientOptions(policy)
    })
    expect(masked).toEqual([SECRET])
    expect(c.method).toBe('secret')
    expect(c.subject).toBeUndefined()
    expect(c.idTokenRequests).toBeUndefined()
    expect(log.lines).toEqual([
      `info: Azure sign-in: secret (a client secret is set), client app-1, tenant tenant-1, authority ${CUSTOM}`
    ])
    const t = await c.credential.getToken(ARM_SCOPE)
    expect(t?.token).toBe('access-token-1')
    expect(t!.expiresOnTimestamp).toBeGreaterThan(Date.now() + 3_000_000)
    expect(masked).toEqual([SECRET, 'access-token-1'])
    expect(log.secrets).toEqual([])
    // A custom authority is taken as given: no instance discovery at login.microsoftonline.com.
    expect(seen.map(r => `${r.method} ${r.url}`)).toEqual([
      `GET ${CUSTOM}/tenant-1/v2.0/.well-known/openid-configuration`,
      `POST ${CUSTOM}/tenant-1/oauth2/v2.0/token`
    ])
    const form = seen[1].form
    expect(form.get('grant_type')).toBe('client_credentials')
    expect(form.get('client_id')).toBe('app-1')
    expect(form.get('client_secret')).toBe(SECRET)
    expect(form.get('scope')).toBe(ARM_SCOPE)
    expect(log.text()).not.toContain(SECRET)
  })

  it('an explicit choice that cannot work: refused before anything is masked, asked or logged', () => {
    const log = recordingLog()
    expect(() =>
      createCredential(azure({ authType: 'secret', tenantId: undefined, clientSecret: SECRET }), log, {
        env: {}
      })
    ).toThrow(
      new AzureAuthError(
        'auth-type secret: client-id, tenant-id and client-secret (or the creds JSON) are required'
      )
    )
    expect(() => createCredential(azure({ authType: 'oidc' }), log, { env: {} })).toThrow(
      /^auth-type oidc: ACTIONS_ID_TOKEN_REQUEST_URL is not set/
    )
    expect(log.lines).toEqual([])
    expect(log.secrets).toEqual([])
  })

  it('a known authority: no authority in the log line; secrets go to the log’s secret() by default', async () => {
    const { policy, seen } = fakeEntra()
    const log = recordingLog()
    const c = createCredential(
      azure({ authType: 'secret', clientSecret: SECRET, authorityHost: 'https://login.microsoftonline.com' }),
      log,
      {
        env: { ACTIONS_ID_TOKEN_REQUEST_URL: 'https://token.example/?x=1' },
        clientOptions: clientOptions(policy)
      }
    )
    expect(log.lines).toEqual([
      'info: Azure sign-in: secret (auth-type secret), client app-1, tenant tenant-1'
    ])
    expect(await c.credential.getToken(ARM_SCOPE)).toMatchObject({ token: 'access-token-1' })
    expect(log.secrets).toEqual([SECRET, 'access-token-1'])
    expect(seen.map(r => `${r.method} ${r.url}`)).toEqual([
      'POST https://login.microsoftonline.com/tenant-1/oauth2/v2.0/token'
    ])
  })

  it('AADSTS7000215 from Entra: what to fix, without the secret', async () => {
    const { policy, seen } = fakeEntra({
      token: () =>
        aadError(
          401,
          'invalid_client',
          7000215,
          `Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app 'app-1'.`
        )
    })
    const log = recordingLog()
    const c = createCredential(azure({ clientSecret: SECRET }), log, {
      env: {},
      clientOptions: clientOptions(policy)
    })
    const e = await rejection(c.credential.getToken(ARM_SCOPE))
    expect(e).toBeInstanceOf(AzureAuthError)
    expect((e as AzureAuthError).aadsts).toBe('AADSTS7000215')
    expect(e.message).toBe(
      `Azure sign-in (client secret) failed with AADSTS7000215: the value of the client-secret input (or creds.clientSecret) is not a valid secret of app app-1. It may have expired, or be the secret's ID instead of its value; create a new secret or switch to OIDC.`
    )
    expect(seen.filter(r => r.method === 'POST')).toHaveLength(1)
    expect(log.secrets).toEqual([SECRET])
    expect(e.message).not.toContain(SECRET)
    expect(log.text()).not.toContain(SECRET)
  })

  it('an error that is not about the authority is explained as it is, without reading the authority again', async () => {
    const { policy, seen } = fakeEntra({
      token: () => aadError(400, 'invalid_resource', 500011, 'The resource principal named x was not found.')
    })
    // Reading the authority again would be refused at once (and show in the message).
    const host = `https://127.0.0.1:${await closedPort()}`
    const e = await secretSignInFailure(policy, host)
    expect(e.message).toMatch(
      /^Azure sign-in \(secret\) failed: .*AADSTS500011: The resource principal named x was not found\./
    )
    expect(e.message).not.toContain('could not read the Entra authority')
    expect(seen).toHaveLength(2)
  })

  it('an authority MSAL cannot read: read once more for the real cause, then explained', async () => {
    const port = await closedPort()
    const host = `https://127.0.0.1:${port}`
    const { policy, seen } = fakeEntra({
      discovery: () => aadError(400, 'invalid_tenant', 90002, "Tenant 'tenant-1' not found.")
    })
    const e = await secretSignInFailure(policy, host)
    expect(e).toBeInstanceOf(AzureAuthError)
    expect(e.message).toMatch(
      new RegExp(
        `^Azure sign-in \\(secret\\) failed: could not read the Entra authority ${host.replace(/\./g, '\\.')}/tenant-1: the authority host could not be reached \\(${host.replace(/\./g, '\\.')}/tenant-1/v2\\.0/\\.well-known/openid-configuration\\): .*ECONNREFUSED.* \\(MSAL: endpoints_resolution_error\\)\\. Check tenant-id, environment and authority-host\\.$`
      )
    )
    expect(seen.map(r => r.method)).toEqual(['GET'])
  })
})

describe('createCredential: GitHub OIDC', () => {
  const MAIN = 'repo:o/r:ref:refs/heads/main'

  it('a fresh ID token as the client assertion; its subject logged once and kept; everything masked', async () => {
    const tokens = [
      idToken({ sub: MAIN }),
      idToken({ sub: MAIN }),
      idToken({ sub: 'repo:o/r:environment:prod' })
    ]
    const audiences: string[] = []
    const { policy, seen } = fakeEntra()
    const log = recordingLog()
    const masked: string[] = []
    let now = 1_800_000_000_000
    jest.spyOn(Date, 'now').mockImplementation(() => now)
    const c = createCredential(azure(), log, {
      env: { ACTIONS_ID_TOKEN_REQUEST_URL: 'https://token.example/?x=1' },
      mask: s => void masked.push(s),
      getIDToken: async aud => {
        audiences.push(aud)
        return tokens[audiences.length - 1]
      },
      clientOptions: clientOptions(policy)
    })
    expect(c.method).toBe('oidc')
    expect(c.idTokenRequests).toBe(0)
    expect(log.lines).toEqual([
      `info: Azure sign-in: oidc (ACTIONS_ID_TOKEN_REQUEST_URL, client-id and tenant-id are set), client app-1, tenant tenant-1, authority ${CUSTOM}`
    ])
    expect(await c.credential.getToken(ARM_SCOPE)).toMatchObject({ token: 'access-token-1' })
    expect(c.idTokenRequests).toBe(1)
    expect(c.subject).toBe(MAIN)
    expect(audiences).toEqual(['api://AzureADTokenExchange'])
    const post = seen.filter(r => r.method === 'POST')
    expect(post).toHaveLength(1)
    expect(post[0].form.get('client_assertion')).toBe(tokens[0])
    expect(post[0].form.get('client_assertion_type')).toBe(
      'urn:ietf:params:oauth:client-assertion-type:jwt-bearer'
    )
    expect(post[0].form.get('client_secret')).toBeNull()
    expect(masked).toEqual([tokens[0], 'access-token-1'])

    // Within a second the same ID token serves; from a second on a fresh one is asked for.
    now += 999
    await c.credential.getToken('https://other.example/.default')
    expect(c.idTokenRequests).toBe(1)
    now += 1
    await c.credential.getToken('https://third.example/.default')
    expect(c.idTokenRequests).toBe(2)
    expect(seen.filter(r => r.method === 'POST').map(r => r.form.get('client_assertion'))).toEqual([
      tokens[0],
      tokens[0],
      tokens[1]
    ])
    // The same subject is not logged again; a new one is.
    now += 5000
    await c.credential.getToken('https://fourth.example/.default')
    expect(c.idTokenRequests).toBe(3)
    expect(c.subject).toBe('repo:o/r:environment:prod')
    expect(log.lines.filter(l => l.includes('GitHub OIDC subject'))).toEqual([
      `info: GitHub OIDC subject: ${MAIN}`,
      'info: GitHub OIDC subject: repo:o/r:environment:prod'
    ])
    expect(masked).toEqual([
      tokens[0],
      'access-token-1',
      'access-token-2',
      tokens[1],
      'access-token-3',
      tokens[2],
      'access-token-4'
    ])
    expect(log.secrets).toEqual([])
  })

  it('an ID token without a string subject leaves the subject as it was', async () => {
    const { policy } = fakeEntra()
    const log = recordingLog()
    const c = createCredential(azure({ authType: 'oidc' }), log, {
      env: { ACTIONS_ID_TOKEN_REQUEST_URL: 'https://token.example/?x=1' },
      getIDToken: async () => idToken({ sub: 42 }),
      clientOptions: clientOptions(policy)
    })
    await c.credential.getToken(ARM_SCOPE)
    expect(c.subject).toBeUndefined()
    expect(log.text()).not.toContain('GitHub OIDC subject')
    const opaque = createCredential(azure({ authType: 'oidc' }), log, {
      env: { ACTIONS_ID_TOKEN_REQUEST_URL: 'https://token.example/?x=1' },
      getIDToken: async () => 'not-a-jwt',
      clientOptions: clientOptions(fakeEntra().policy)
    })
    await opaque.credential.getToken(ARM_SCOPE)
    expect(opaque.subject).toBeUndefined()
    expect(opaque.idTokenRequests).toBe(1)
    expect(log.secrets).toEqual([idToken({ sub: 42 }), 'access-token-1', 'not-a-jwt', 'access-token-1'])
  })

  it('a failed ID token request is not shared: the next attempt asks again at once', async () => {
    const { policy, seen } = fakeEntra()
    let calls = 0
    jest.spyOn(Date, 'now').mockReturnValue(1_800_000_000_000)
    const c = createCredential(azure(), captureLog(), {
      env: { ACTIONS_ID_TOKEN_REQUEST_URL: 'https://token.example/?x=1' },
      getIDToken: async () => {
        calls++
        if (calls === 1) throw new Error('Error message: Failed to get ID Token. Error Code : 500')
        return idToken({ sub: MAIN })
      },
      clientOptions: clientOptions(policy)
    })
    const e = await rejection(c.credential.getToken(ARM_SCOPE))
    expect(e).toBeInstanceOf(AzureAuthError)
    expect(e.message).toMatch(/^Azure sign-in \(oidc\) failed: .*Failed to get ID Token\. Error Code : 500/)
    expect(seen.filter(r => r.method === 'POST')).toHaveLength(0)
    expect(await c.credential.getToken(ARM_SCOPE)).toMatchObject({ token: 'access-token-1' })
    expect(calls).toBe(2)
    expect(c.idTokenRequests).toBe(2)
  })

  it('no federated credential for the subject (AADSTS70021): the subject that was presented', async () => {
    const { policy } = fakeEntra({
      token: () =>
        aadError(
          400,
          'invalid_request',
          70021,
          `No matching federated identity record found for presented assertion subject '${MAIN}'.`
        )
    })
    const c = createCredential(azure(), captureLog(), {
      env: { ACTIONS_ID_TOKEN_REQUEST_URL: 'https://token.example/?x=1' },
      getIDToken: async () => idToken({ sub: MAIN }),
      clientOptions: clientOptions(policy)
    })
    const e = await rejection(c.credential.getToken(ARM_SCOPE))
    expect((e as AzureAuthError).aadsts).toBe('AADSTS70021')
    expect(e.message).toContain(`matches the subject this workflow presents: "${MAIN}" (issuer`)
  })

  it('by default asks GitHub’s ID token endpoint (@actions/core), which masks the token itself', async () => {
    const jwt = idToken({ sub: MAIN })
    const asked: Array<{ url?: string; auth?: string }> = []
    const server = http.createServer((req, res) => {
      asked.push({ url: req.url, auth: req.headers.authorization })
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ count: 1, value: jwt }))
    })
    await new Promise<void>(r => server.listen(0, '127.0.0.1', () => r()))
    const out: string[] = []
    jest.spyOn(process.stdout, 'write').mockImplementation(chunk => {
      out.push(String(chunk))
      return true
    })
    try {
      const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/idtoken?api-version=2.0`
      process.env.ACTIONS_ID_TOKEN_REQUEST_URL = url
      process.env.ACTIONS_ID_TOKEN_REQUEST_TOKEN = 'request-token'
      const { policy, seen } = fakeEntra()
      const masked: string[] = []
      // No env option: process.env decides (OIDC).
      const c = createCredential(azure({ audience: 'api://AzureADTokenExchangeUSGov' }), captureLog(), {
        mask: s => void masked.push(s),
        clientOptions: clientOptions(policy)
      })
      expect(c.method).toBe('oidc')
      await c.credential.getToken(ARM_SCOPE)
      expect(asked).toEqual([
        {
          url: '/idtoken?api-version=2.0&audience=api%3A%2F%2FAzureADTokenExchangeUSGov',
          auth: 'Bearer request-token'
        }
      ])
      expect(seen.find(r => r.method === 'POST')?.form.get('client_assertion')).toBe(jwt)
      expect(masked[0]).toBe(jwt)
      expect(out.join('')).toContain(`::add-mask::${jwt}`)
    } finally {
      await new Promise<void>(r => server.close(() => r()))
    }
  })
})

describe('createCredential: Azure CLI (a fake az first on PATH)', () => {
  let bin: string
  beforeEach(() => {
    bin = mkdtempSync(path.join(os.tmpdir(), 'fake-az-'))
    // Answers `az account get-access-token --output json --resource R [--tenant T]` as the CLI does.
    writeFileSync(
      path.join(bin, 'az'),
      [
        '#!/bin/sh',
        'printf "%s\\n" "$*" >> "$FAKE_AZ_ARGS"',
        'case "$FAKE_AZ_MODE" in',
        `  signed-out) echo "ERROR: Please run 'az login' to setup account." >&2; exit 1 ;;`,
        '  empty) echo \'{"accessToken": "", "expires_on": 4070908800, "tokenType": "Bearer"}\'; exit 0 ;;',
        '  unresolved) echo "ERROR: endpoints_resolution_error: could not resolve endpoints" >&2; exit 1 ;;',
        'esac',
        'echo \'{"accessToken": "cli-token-1", "expiresOn": "2099-01-01 00:00:00.000000", "expires_on": 4070908800, "subscription": "sub-1", "tenant": "tenant-1", "tokenType": "Bearer"}\''
      ].join('\n') + '\n'
    )
    chmodSync(path.join(bin, 'az'), 0o755)
    process.env.PATH = `${bin}${path.delimiter}${process.env.PATH ?? ''}`
    process.env.FAKE_AZ_ARGS = path.join(bin, 'args')
    writeFileSync(process.env.FAKE_AZ_ARGS, '')
  })
  afterEach(() => rmSync(bin, { recursive: true, force: true }))
  const args = () => readFileSync(path.join(bin, 'args'), 'utf8')

  it('uses the CLI session for the tenant (or its default one), masks the token, logs no client', async () => {
    const log = recordingLog()
    const c = createCredential(azure({ clientId: undefined, clientSecret: undefined }), log, { env: {} })
    expect(c.method).toBe('cli')
    expect(c.idTokenRequests).toBeUndefined()
    expect(log.lines).toEqual([
      `info: Azure sign-in: cli (OIDC does not apply (missing client-id, ACTIONS_ID_TOKEN_REQUEST_URL (permissions: id-token: write)) and no client secret is set; using the Azure CLI login (az login)), authority ${CUSTOM}`
    ])
    expect(await c.credential.getToken(ARM_SCOPE)).toMatchObject({
      token: 'cli-token-1',
      expiresOnTimestamp: 4070908800000
    })
    expect(log.secrets).toEqual(['cli-token-1'])
    expect(args()).toBe(
      'account get-access-token --output json --resource https://management.azure.com --tenant tenant-1\n'
    )
    const noTenant = createCredential(
      azure({ authType: 'cli', tenantId: undefined, authorityHost: 'https://login.microsoftonline.com' }),
      log,
      { env: {} }
    )
    expect(log.lines[1]).toBe('info: Azure sign-in: cli (auth-type cli)')
    await noTenant.credential.getToken(ARM_SCOPE)
    expect(args().split('\n')[1]).toBe(
      'account get-access-token --output json --resource https://management.azure.com'
    )
  })

  it('a token without a value is handed on, not masked', async () => {
    process.env.FAKE_AZ_MODE = 'empty'
    const log = recordingLog()
    const c = createCredential(azure({ authType: 'cli' }), log, { env: {} })
    expect(await c.credential.getToken(ARM_SCOPE)).toMatchObject({ token: '' })
    expect(log.secrets).toEqual([])
  })

  it('signed out: run azure/login first on a runner, az login in a terminal', async () => {
    process.env.FAKE_AZ_MODE = 'signed-out'
    const runner = { env: { GITHUB_ACTIONS: 'true' } }
    const c = createCredential(azure({ authType: 'cli' }), captureLog(), runner)
    const e = await rejection(c.credential.getToken(ARM_SCOPE))
    expect(e).toBeInstanceOf(AzureAuthError)
    expect(e.message).toBe(
      "auth-type cli: the Azure CLI is not signed in. Run azure/login before this step, or use OIDC or a client secret. (Please run 'az login' from a command prompt to authenticate before using this credential.)"
    )
    // GITHUB_ACTIONS unset: a terminal, where the fix is a command, not a workflow step.
    const t = createCredential(azure({ authType: 'cli' }), captureLog(), { env: {} })
    const te = await rejection(t.credential.getToken(ARM_SCOPE))
    expect(te.message).toMatch(/az login/)
    expect(te.message).not.toMatch(/azure\/login|this step/)
  })

  it('an unresolved authority from the CLI is explained without reading the authority itself', async () => {
    process.env.FAKE_AZ_MODE = 'unresolved'
    const host = `https://127.0.0.1:${await closedPort()}`
    const c = createCredential(azure({ authType: 'cli', authorityHost: host }), captureLog(), { env: {} })
    const e = await rejection(c.credential.getToken(ARM_SCOPE))
    expect(e.message).toBe(
      `Azure sign-in (cli) failed: could not read the Entra authority ${host}/tenant-1: ERROR: endpoints_resolution_error: could not resolve endpoints. Check tenant-id, environment and authority-host.`
    )
  })

  it('no az on PATH: signing in fails (not a later step), worded for where it runs', () => {
    process.env.PATH = path.join(bin, 'empty')
    const onRunner = (() => {
      try {
        createCredential(azure({ authType: 'cli' }), captureLog(), { env: { GITHUB_ACTIONS: 'true' } })
      } catch (e) {
        return e as Error
      }
    })()
    expect(onRunner).toBeInstanceOf(AzureAuthError)
    expect(onRunner?.message).toMatch(/^auth-type cli: the Azure CLI \(az\) was not found on this runner\./)
    expect(() => createCredential(azure({ authType: 'cli' }), captureLog(), { env: {} })).toThrow(
      /^auth-type cli: the Azure CLI \(az\) was not found on PATH\. Install the Azure CLI/
    )
  })
})
