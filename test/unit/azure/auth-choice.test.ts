// Signing in, decided without a call: which method applies and why (OIDC first, then a client
// secret, then the Azure CLI session), the refusals of an explicit choice that cannot work, a JWT's
// claims read without verifying, and Entra's AADSTS errors turned into what to fix — never with
// the client secret in them.
import { AzureAuthError, decodeJwtClaims, explainAuthError, pickAuthMethod } from '../../../src/azure/auth.js'
import type { AzureSettings } from '../../../src/settings/settings.js'
import { azureSettings } from '../../support/azure-settings.js'

const azure = azureSettings
const OIDC_ENV = { ACTIONS_ID_TOKEN_REQUEST_URL: 'https://token.example/' }

describe('which sign-in applies', () => {
  it('auto: OIDC when the ID token can be requested and the app is named, then a secret, then the CLI', () => {
    expect(pickAuthMethod(azure({ clientSecret: 's' }), OIDC_ENV)).toEqual({
      method: 'oidc',
      reason: 'ACTIONS_ID_TOKEN_REQUEST_URL, client-id and tenant-id are set'
    })
    expect(pickAuthMethod(azure({ clientSecret: 's' }), {})).toEqual({
      method: 'secret',
      reason: 'a client secret is set'
    })
    // In a terminal (GITHUB_ACTIONS unset) the CLI session is az login's; on a runner, azure/login's.
    expect(pickAuthMethod(azure(), {})).toEqual({
      method: 'cli',
      reason:
        'OIDC does not apply (missing ACTIONS_ID_TOKEN_REQUEST_URL (permissions: id-token: write)) and no client secret is set; using the Azure CLI login (az login)'
    })
    expect(pickAuthMethod(azure(), { GITHUB_ACTIONS: 'true' }).reason).toMatch(/\(azure\/login\)$/)
    expect(
      pickAuthMethod(azure({ clientId: undefined, tenantId: undefined, clientSecret: 's' }), {
        ...OIDC_ENV,
        GITHUB_ACTIONS: 'true'
      })
    ).toEqual({
      method: 'cli',
      reason:
        'OIDC does not apply (missing client-id, tenant-id) and no client secret is set; using the Azure CLI login (azure/login)'
    })
    expect(pickAuthMethod(azure({ tenantId: undefined }), OIDC_ENV).method).toBe('cli')
  })

  it('an explicit choice is kept, or refused with what it lacks', () => {
    expect(pickAuthMethod(azure({ authType: 'oidc' }), OIDC_ENV)).toEqual({
      method: 'oidc',
      reason: 'auth-type oidc'
    })
    expect(() => pickAuthMethod(azure({ authType: 'oidc' }), {})).toThrow(
      /^auth-type oidc: ACTIONS_ID_TOKEN_REQUEST_URL is not set.*permissions: id-token: write/
    )
    expect(() => pickAuthMethod(azure({ authType: 'oidc', clientId: undefined }), OIDC_ENV)).toThrow(
      'auth-type oidc: client-id and tenant-id are required (the app registration holding the federated credential)'
    )
    expect(pickAuthMethod(azure({ authType: 'secret', clientSecret: 's' }), OIDC_ENV)).toEqual({
      method: 'secret',
      reason: 'auth-type secret'
    })
    for (const over of [{}, { clientSecret: 's', tenantId: undefined }])
      expect(() => pickAuthMethod(azure({ authType: 'secret', ...over }), {})).toThrow(
        'auth-type secret: client-id, tenant-id and client-secret (or the creds JSON) are required'
      )
    expect(pickAuthMethod(azure({ authType: 'cli', clientSecret: 's' }), OIDC_ENV)).toEqual({
      method: 'cli',
      reason: 'auth-type cli'
    })
    let e: unknown
    try {
      pickAuthMethod(azure({ authType: 'secret' }), {})
    } catch (x) {
      e = x
    }
    expect(e).toBeInstanceOf(AzureAuthError)
    expect((e as Error).name).toBe('AzureAuthError')
  })
})

describe('a JWT’s claims', () => {
  const jwt = (claims: unknown) =>
    `e30.${Buffer.from(typeof claims === 'string' ? claims : JSON.stringify(claims)).toString('base64url')}.sig`
  it('read without verifying; nothing from what is not a JWT with an object', () => {
    expect(decodeJwtClaims(jwt({ sub: 'repo:o/r:ref:refs/heads/main' }))).toEqual({
      sub: 'repo:o/r:ref:refs/heads/main'
    })
    expect(decodeJwtClaims('a.b')).toBeUndefined()
    expect(decodeJwtClaims('a.b.c.d')).toBeUndefined()
    expect(decodeJwtClaims(jwt('not json'))).toBeUndefined()
    expect(decodeJwtClaims(jwt('null'))).toBeUndefined()
    expect(decodeJwtClaims(jwt('7'))).toBeUndefined()
  })
})

describe('Entra’s errors, in what to fix', () => {
  const ctx = (method: 'oidc' | 'secret' | 'cli', over: Partial<AzureSettings> = {}, subject?: string) => ({
    method,
    azure: azure(over),
    ...(subject ? { subject } : {})
  })
  const explain = (msg: string, c = ctx('oidc')) => explainAuthError(new Error(msg), c)

  it('no federated credential for the subject: the subject, issuer and audience to register', () => {
    for (const code of ['70021', '700213', '7002138']) {
      const e = explain(
        `AADSTS${code}: No matching federated identity record found`,
        ctx('oidc', {}, 'repo:o/r:environment:prod')
      )
      expect(e.aadsts).toBe(`AADSTS${code}`)
      expect(e.message).toBe(
        `Azure sign-in (OIDC) failed with AADSTS${code}: no federated credential of app app-1 matches the subject this workflow presents: "repo:o/r:environment:prod" (issuer https://token.actions.githubusercontent.com, audience api://AzureADTokenExchange). ` +
          'Add a federated credential with exactly this subject to the app registration; matching is case-sensitive, and branch, tag, environment: and pull_request runs present different subjects.'
      )
    }
    expect(explain('AADSTS70021: x').message).toContain('"(unknown: no GitHub ID token was decoded)"')
  })

  it('each known code with its own fix, naming the app and tenant', () => {
    expect(explain('AADSTS700024: Client assertion is not within its valid time range.').message).toMatch(
      /^Azure sign-in \(OIDC\) failed with AADSTS700024: the GitHub ID token was not within its valid time range/
    )
    const secret = explainAuthError(
      new Error('AADSTS7000215: Invalid client secret provided. hunter2-secret'),
      ctx('secret', { clientSecret: 'hunter2-secret' })
    )
    expect(secret.message).toMatch(
      /^Azure sign-in \(client secret\) failed with AADSTS7000215: the value of the client-secret input .* of app app-1\./
    )
    expect(secret.message).not.toContain('hunter2-secret')
    expect(explain('AADSTS700016: Application not found', ctx('oidc', { clientId: undefined })).message).toBe(
      'Azure sign-in failed with AADSTS700016: application (no client-id) was not found in tenant tenant-1. Check client-id and tenant-id (and environment: AzureCloud); the app needs a service principal in that tenant.'
    )
    expect(explain('AADSTS90002: Tenant not found', ctx('oidc', { tenantId: undefined })).message).toBe(
      'Azure sign-in failed with AADSTS90002: tenant (no tenant-id) was not found. Check tenant-id and environment (AzureCloud).'
    )
  })

  it('the Azure CLI missing or not signed in', () => {
    expect(explain('Azure CLI could not be found', ctx('cli')).message).toMatch(
      /^auth-type cli: the Azure CLI \(az\) was not found on this runner/
    )
    expect(explain('az: not found', ctx('cli')).message).toMatch(/was not found on this runner/)
    expect(explain('ERROR: Please run az login to setup account.\nmore', ctx('cli')).message).toBe(
      'auth-type cli: the Azure CLI is not signed in. Run azure/login before this step, or use OIDC or a client secret. (ERROR: Please run az login to setup account.)'
    )
    // The same words from another method are not about the CLI.
    expect(explain('Please run az login', ctx('secret')).message).toBe(
      'Azure sign-in (secret) failed: Please run az login'
    )
  })

  it('an authority it cannot read, any other error by its AADSTS line, and its own errors as they are', () => {
    expect(explain('endpoints_resolution_error: could not resolve', ctx('secret')).message).toBe(
      'Azure sign-in (secret) failed: could not read the Entra authority https://login.microsoftonline.com/tenant-1: endpoints_resolution_error: could not resolve. Check tenant-id, environment and authority-host.'
    )
    const other = explain('request failed\n  AADSTS50034: The user account does not exist\ntrace')
    expect(other.message).toBe('Azure sign-in (oidc) failed: AADSTS50034: The user account does not exist')
    expect(other.aadsts).toBe('AADSTS50034')
    expect(explainAuthError('plain text', ctx('cli')).message).toBe('Azure sign-in (cli) failed: plain text')
    expect(explain('x'.repeat(500)).message).toBe(`Azure sign-in (oidc) failed: ${'x'.repeat(400)}`)
    const own = new AzureAuthError('mine')
    expect(explainAuthError(own, ctx('oidc'))).toBe(own)
  })
})
