// Signs in to Azure (OIDC, client secret or Azure CLI), masks every token, and explains AADSTS errors.
// No error or log line carries a token or the client secret. See docs/security.md, docs/troubleshooting.md.
import * as core from '@actions/core'
import {
  AzureCliCredential,
  ClientAssertionCredential,
  ClientSecretCredential,
  type AccessToken,
  type GetTokenOptions,
  type TokenCredential
} from '@azure/identity'
import {
  createDefaultHttpClient,
  createPipelineRequest,
  type PipelinePolicy
} from '@azure/core-rest-pipeline'
import type { AuthType, AzureSettings } from '../settings/settings.js'
import { scrub } from './arm-errors.js'
import { isKnownAuthorityHost } from './cloud.js'
import type { Log } from '../log/index.js'
import { onPath } from '../util/path-lookup.js'

export type AuthMethod = 'oidc' | 'secret' | 'cli'

/** How long one GitHub ID token may serve MSAL's repeated assertion requests of one sign-in. */
const ASSERTION_SHARE_MS = 1000

export interface AzureCredential {
  credential: TokenCredential
  method: AuthMethod
  /** OIDC only: the `sub` claim of the latest GitHub ID token (what the federated credential must match). */
  readonly subject?: string
  /** OIDC only: how many GitHub ID tokens were requested so far. */
  readonly idTokenRequests?: number
}

export interface CreateCredentialOptions {
  /** Where secrets are registered so no log shows them (default: the log's secret()). */
  mask?: Log['secret']
  /** Defaults to process.env (reads ACTIONS_ID_TOKEN_REQUEST_URL). */
  env?: NodeJS.ProcessEnv
  /** Defaults to core.getIDToken. */
  getIDToken?: (audience: string) => Promise<string>
  /** Retry options and policies for the identity pipeline (same bounds as the ARM clients). */
  clientOptions?: {
    retryOptions?: { maxRetries?: number; retryDelayInMs?: number; maxRetryDelayInMs?: number }
    additionalPolicies?: Array<{ policy: PipelinePolicy; position: 'perCall' | 'perRetry' }>
  }
}

export class AzureAuthError extends Error {
  constructor(
    message: string,
    /** `AADSTS700213` etc., when Entra sent one. */
    readonly aadsts?: string
  ) {
    super(message)
    this.name = 'AzureAuthError'
  }
}

/** The claims of a JWT without verifying it; undefined when `token` is not one. */
export function decodeJwtClaims(token: string): Record<string, unknown> | undefined {
  const parts = token.split('.')
  if (parts.length !== 3) return undefined
  try {
    const claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'))
    return typeof claims === 'object' && claims !== null ? claims : undefined
  } catch {
    return undefined
  }
}

interface PickResult {
  method: AuthMethod
  reason: string
}

/** Which sign-in method applies, and why (logged). Throws when an explicit choice cannot work. */
export function pickAuthMethod(azure: AzureSettings, env: NodeJS.ProcessEnv): PickResult {
  const hasOidcEnv = Boolean(env.ACTIONS_ID_TOKEN_REQUEST_URL)
  const hasIds = Boolean(azure.clientId && azure.tenantId)
  const type: AuthType = azure.authType
  if (type === 'oidc') {
    if (!hasOidcEnv)
      throw new AzureAuthError(
        'auth-type oidc: ACTIONS_ID_TOKEN_REQUEST_URL is not set, so no GitHub ID token can be requested. Add `permissions: id-token: write` to the job (or workflow); on pull requests from forks the token is never available.'
      )
    if (!hasIds)
      throw new AzureAuthError(
        'auth-type oidc: client-id and tenant-id are required (the app registration holding the federated credential)'
      )
    return { method: 'oidc', reason: 'auth-type oidc' }
  }
  if (type === 'secret') {
    if (!hasIds || !azure.clientSecret)
      throw new AzureAuthError(
        'auth-type secret: client-id, tenant-id and client-secret (or the creds JSON) are required'
      )
    return { method: 'secret', reason: 'auth-type secret' }
  }
  if (type === 'cli') return { method: 'cli', reason: 'auth-type cli' }
  // auto: GitHub OIDC first (no long-lived secret), then a client secret, then the CLI session.
  if (hasIds && hasOidcEnv)
    return { method: 'oidc', reason: 'ACTIONS_ID_TOKEN_REQUEST_URL, client-id and tenant-id are set' }
  if (hasIds && azure.clientSecret) return { method: 'secret', reason: 'a client secret is set' }
  const missing = [
    !azure.clientId && 'client-id',
    !azure.tenantId && 'tenant-id',
    !hasOidcEnv && 'ACTIONS_ID_TOKEN_REQUEST_URL (permissions: id-token: write)'
  ].filter(Boolean)
  return {
    method: 'cli',
    reason: `OIDC does not apply (missing ${missing.join(', ')}) and no client secret is set; using the Azure CLI login (${env.GITHUB_ACTIONS === 'true' ? 'azure/login' : 'az login'})`
  }
}

interface ErrorContext {
  method: AuthMethod
  azure: AzureSettings
  subject?: string
  /** On a GitHub Actions runner (GITHUB_ACTIONS=true): the fix is a workflow step, not a command. */
  onRunner?: boolean
}

/** What to do when the Azure CLI is missing or signed out: on a runner, a step; in a terminal, commands. */
function cliFix(onRunner: boolean | undefined, what: 'missing' | 'signed-out'): string {
  if (onRunner)
    return what === 'missing'
      ? 'Sign in with azure/login before this step, or use OIDC (client-id, tenant-id and `permissions: id-token: write`) or a client secret.'
      : 'Run azure/login before this step, or use OIDC or a client secret.'
  return what === 'missing'
    ? 'Install the Azure CLI (https://learn.microsoft.com/cli/azure/install-azure-cli), then run az login and az account set --subscription ID; or sign in with a service principal (--client-id, --tenant-id, --client-secret).'
    : 'Run az login, then az account set --subscription ID; or sign in with a service principal (--client-id, --tenant-id, --client-secret).'
}

/** The refusal of auth-type cli where no `az` is on PATH: the sign-in step fails, not a later one. */
export function azMissingError(onRunner: boolean): AzureAuthError {
  return new AzureAuthError(
    `auth-type cli: the Azure CLI (az) was not found on ${onRunner ? 'this runner' : 'PATH'}. ${cliFix(onRunner, 'missing')}`
  )
}

/** Turns an error from Entra / the identity SDK into a message saying what to fix. Never echoes secrets. */
export function explainAuthError(e: unknown, ctx: ErrorContext): AzureAuthError {
  if (e instanceof AzureAuthError) return e
  const raw = e instanceof Error ? e.message : String(e)
  const text = scrub(raw, [ctx.azure.clientSecret])
  const code = /AADSTS(\d+)/.exec(raw)?.[1]
  const app = ctx.azure.clientId ?? '(no client-id)'
  const tenant = ctx.azure.tenantId ?? '(no tenant-id)'
  const firstLine = (text.split('\n').find(l => /AADSTS/.test(l)) ?? text.split('\n')[0]).trim().slice(0, 400)
  const aad = code ? `AADSTS${code}` : undefined
  switch (code) {
    case '70021':
    case '700213':
    case '7002138':
      return new AzureAuthError(
        `Azure sign-in (OIDC) failed with ${aad}: no federated credential of app ${app} matches the subject this workflow presents: ` +
          `"${ctx.subject ?? '(unknown: no GitHub ID token was decoded)'}" (issuer https://token.actions.githubusercontent.com, audience ${ctx.azure.audience}). ` +
          'Add a federated credential with exactly this subject to the app registration; matching is case-sensitive, and branch, tag, environment: and pull_request runs present different subjects.',
        aad
      )
    case '700024':
      return new AzureAuthError(
        `Azure sign-in (OIDC) failed with ${aad}: the GitHub ID token was not within its valid time range. The action requests a fresh ID token for every sign-in, so check the runner's clock; if it persists, re-run the job.`,
        aad
      )
    case '7000215':
      return new AzureAuthError(
        `Azure sign-in (client secret) failed with ${aad}: the value of the client-secret input (or creds.clientSecret) is not a valid secret of app ${app}. It may have expired, or be the secret's ID instead of its value; create a new secret or switch to OIDC.`,
        aad
      )
    case '700016':
      return new AzureAuthError(
        `Azure sign-in failed with ${aad}: application ${app} was not found in tenant ${tenant}. Check client-id and tenant-id (and environment: ${ctx.azure.environment}); the app needs a service principal in that tenant.`,
        aad
      )
    case '90002':
      return new AzureAuthError(
        `Azure sign-in failed with ${aad}: tenant ${tenant} was not found. Check tenant-id and environment (${ctx.azure.environment}).`,
        aad
      )
    default:
      // Any other code, or none: judged by the message below.
      break
  }
  if (ctx.method === 'cli' && /Azure CLI could not be found|az: not found|not recognized/i.test(raw)) {
    return azMissingError(ctx.onRunner ?? true)
  }
  if (ctx.method === 'cli' && /az login|Please run/i.test(raw)) {
    return new AzureAuthError(
      `auth-type cli: the Azure CLI is not signed in. ${cliFix(ctx.onRunner ?? true, 'signed-out')} (${firstLine})`
    )
  }
  if (/could not be reached|endpoints_resolution_error/.test(raw)) {
    return new AzureAuthError(
      `Azure sign-in (${ctx.method}) failed: could not read the Entra authority ${ctx.azure.authorityHost}/${tenant}: ${firstLine}. Check tenant-id, environment and authority-host.`,
      aad
    )
  }
  return new AzureAuthError(`Azure sign-in (${ctx.method}) failed: ${firstLine}`, aad)
}

/**
 * MSAL reports an authority whose OpenID configuration it cannot read only as
 * `endpoints_resolution_error`. Reads the document once more to recover Entra's own error
 * (AADSTS90002 for an unknown tenant) or the network failure.
 */
export async function probeAuthority(authorityHost: string, tenantId: string): Promise<string> {
  const url = `${authorityHost.replace(/\/+$/, '')}/${encodeURIComponent(tenantId)}/v2.0/.well-known/openid-configuration`
  try {
    const res = await createDefaultHttpClient().sendRequest(
      createPipelineRequest({ url, method: 'GET', timeout: 15_000 })
    )
    if (res.status === 200) return `the OpenID configuration at ${url} is readable now (a transient failure?)`
    try {
      const body = JSON.parse(res.bodyAsText ?? '{}') as { error_description?: string }
      if (body.error_description) return body.error_description
    } catch {
      // not JSON: fall through
    }
    return `${url} answered HTTP ${res.status}`
  } catch (e) {
    return `the authority host could not be reached (${url}): ${e instanceof Error ? e.message : String(e)}`
  }
}

/** A credential whose every token is masked and whose errors say what to fix. */
class GuardedCredential implements TokenCredential {
  constructor(
    private readonly inner: TokenCredential,
    private readonly mask: Log['secret'],
    private readonly context: () => ErrorContext
  ) {}
  async getToken(scopes: string | string[], options?: GetTokenOptions): Promise<AccessToken | null> {
    let token: AccessToken | null
    try {
      token = await this.inner.getToken(scopes, options)
    } catch (e) {
      const ctx = this.context()
      const text = e instanceof Error ? e.message : String(e)
      if (ctx.method !== 'cli' && /endpoints_resolution_error/.test(text) && ctx.azure.tenantId) {
        const why = await probeAuthority(ctx.azure.authorityHost, ctx.azure.tenantId)
        throw explainAuthError(new Error(`${why} (MSAL: endpoints_resolution_error)`), ctx)
      }
      throw explainAuthError(e, ctx)
    }
    if (token?.token) this.mask(token.token)
    return token
  }
}

/** Builds the credential for `azure`, logging which method is used and why. */
export function createCredential(
  azure: AzureSettings,
  log: Log,
  options: CreateCredentialOptions = {}
): AzureCredential {
  const env = options.env ?? process.env
  const mask = options.mask ?? ((s: string) => log.secret(s))
  const { method, reason } = pickAuthMethod(azure, env)
  const onRunner = env.GITHUB_ACTIONS === 'true'
  const custom = !isKnownAuthorityHost(azure.authorityHost)
  const common = {
    authorityHost: azure.authorityHost,
    // MSAL validates authorities against Microsoft's instance discovery; a sovereign or test
    // authority it does not know has to be taken as given.
    ...(custom ? { disableInstanceDiscovery: true } : {}),
    ...options.clientOptions
  }
  if (azure.clientSecret) mask(azure.clientSecret)

  let subject: string | undefined
  let idTokenRequests = 0
  let last: { token: Promise<string>; at: number } | undefined
  let inner: TokenCredential
  if (method === 'oidc') {
    const getIDToken = options.getIDToken ?? ((aud: string) => core.getIDToken(aud))
    const fetchIdToken = async (): Promise<string> => {
      idTokenRequests++
      const token = await getIDToken(azure.audience)
      mask(token)
      const sub = decodeJwtClaims(token)?.sub
      if (typeof sub === 'string') {
        if (sub !== subject) log.info(`GitHub OIDC subject: ${sub}`)
        subject = sub
      }
      return token
    }
    inner = new ClientAssertionCredential(
      azure.tenantId!,
      azure.clientId!,
      () => {
        // A fresh GitHub ID token every time MSAL needs an assertion: one captured token expires
        // within minutes (AADSTS700024 in long jobs). MSAL asks twice per token request (request
        // and app configuration), so a token fetched within the last second is shared.
        if (last && Date.now() - last.at < ASSERTION_SHARE_MS) return last.token
        const token = fetchIdToken()
        last = { token, at: Date.now() }
        token.catch(() => (last = undefined))
        return token
      },
      common
    )
  } else if (method === 'secret') {
    inner = new ClientSecretCredential(azure.tenantId!, azure.clientId!, azure.clientSecret!, common)
  } else {
    // Part of signing in: without az on PATH every later Azure call would fail.
    // The PATH AzureCliCredential runs az with: this process's.
    if (!onPath('az', process.env)) throw azMissingError(onRunner)
    inner = new AzureCliCredential(azure.tenantId ? { tenantId: azure.tenantId } : {})
  }
  const credential = new GuardedCredential(inner, mask, () => ({ method, azure, subject, onRunner }))
  log.info(
    `Azure sign-in: ${method} (${reason})${method !== 'cli' ? `, client ${azure.clientId}, tenant ${azure.tenantId}` : ''}${custom ? `, authority ${azure.authorityHost}` : ''}`
  )
  return {
    credential,
    method,
    get subject() {
      return subject
    },
    get idTokenRequests() {
      return method === 'oidc' ? idTokenRequests : undefined
    }
  }
}
