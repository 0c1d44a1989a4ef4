// Sign-in against the simulated Entra and GitHub OIDC service through the real identity SDK and
// @actions/core: each method, fresh ID tokens per assertion, and Entra errors turned into fixes
// without any token or secret in them.
import { afterEach, describe, expect, it } from '@jest/globals'
import { mkdtempSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import * as core from '@actions/core'
import { createCredential, decodeJwtClaims, pickAuthMethod } from '../../../src/azure/auth.js'
import { pipelineOptions } from '../../../src/azure/clients.js'
import { cloudDefaults, isKnownAuthorityHost } from '../../../src/azure/cloud.js'
import { AKS_SERVER_SCOPE } from '../../../src/azure/credentials.js'
import {
  captureLog,
  FAST,
  leaks,
  settingsFor,
  startWorld,
  type TestWorld
} from '../../support/azure-world.js'
import { rejection as failure } from '../../support/rejection.js'

const ARM = 'https://management.azure.com/.default'
let world: TestWorld | undefined
const savedEnv = { ...process.env }

afterEach(async () => {
  await world?.close()
  world = undefined
  process.env = { ...savedEnv }
})

function oidcEnv(w: TestWorld): void {
  process.env.ACTIONS_ID_TOKEN_REQUEST_URL = w.sim.oidcRequestUrl
  process.env.ACTIONS_ID_TOKEN_REQUEST_TOKEN = w.sim.oidcRequestToken
}

const count = (w: TestWorld, service: 'oidc' | 'entra', pathPart = ''): number =>
  w.recorder.records.filter(r => r.service === service && r.path.includes(pathPart)).length

describe('cloud defaults', () => {
  it('gives each cloud its endpoints and token-exchange audience', () => {
    expect(cloudDefaults('AzureCloud')).toEqual({
      armEndpoint: 'https://management.azure.com',
      authorityHost: 'https://login.microsoftonline.com',
      audience: 'api://AzureADTokenExchange'
    })
    expect(cloudDefaults('azureusgovernment').audience).toBe('api://AzureADTokenExchangeUSGov')
    expect(cloudDefaults('AzureChinaCloud').armEndpoint).toBe('https://management.chinacloudapi.cn')
    expect(() => cloudDefaults('AzureStack')).toThrow(/not supported/)
    expect(isKnownAuthorityHost('https://login.microsoftonline.us/')).toBe(true)
    expect(isKnownAuthorityHost('https://127.0.0.1:4443')).toBe(false)
  })
})

describe('choosing the sign-in method', () => {
  const azure = {
    authType: 'auto' as const,
    audience: 'x',
    environment: 'AzureCloud' as const,
    armEndpoint: 'a',
    authorityHost: 'b'
  }
  it('auto prefers OIDC, then a client secret, then the CLI', () => {
    const ids = { ...azure, clientId: 'c', tenantId: 't' }
    expect(pickAuthMethod({ ...ids, clientSecret: 's' }, { ACTIONS_ID_TOKEN_REQUEST_URL: 'u' }).method).toBe(
      'oidc'
    )
    expect(pickAuthMethod({ ...ids, clientSecret: 's' }, {}).method).toBe('secret')
    expect(pickAuthMethod(ids, { ACTIONS_ID_TOKEN_REQUEST_URL: 'u' }).method).toBe('oidc')
    const cli = pickAuthMethod(ids, {})
    expect(cli.method).toBe('cli')
    expect(cli.reason).toMatch(/id-token: write/)
  })
  it('auth-type oidc without the request URL says to add the permission', () => {
    expect(() => pickAuthMethod({ ...azure, authType: 'oidc', clientId: 'c', tenantId: 't' }, {})).toThrow(
      /permissions: id-token: write/
    )
  })
})

describe('OIDC through core.getIDToken', () => {
  it('exchanges the GitHub ID token for an ARM token, masks it and reports the subject', async () => {
    world = await startWorld()
    oidcEnv(world)
    const log = captureLog()
    const masked: string[] = []
    const settings = settingsFor(world)
    const cred = createCredential(settings.azure, log, {
      mask: s => masked.push(s),
      clientOptions: pipelineOptions({ retries: 2, ...FAST })
    })
    expect(cred.method).toBe('oidc')
    const token = await cred.credential.getToken(ARM)
    expect(token).not.toBeNull()
    expect(world.sim.verifyAccessToken(token!.token, 'https://management.azure.com/')).toBe(true)
    expect(cred.subject).toBe('repo:org/repo:ref:refs/heads/main')
    expect(count(world, 'oidc', '/idtoken')).toBe(1)
    // The access token and the GitHub ID token were both masked.
    expect(masked).toContain(token!.token)
    expect(world.sim.issuedSecrets().filter(s => masked.includes(s)).length).toBeGreaterThanOrEqual(2)
    expect(log.text()).toMatch(/Azure sign-in: oidc/)
    expect(log.text()).toMatch(/GitHub OIDC subject: repo:org\/repo:ref:refs\/heads\/main/)
    expect(leaks(world, log.text())).toEqual([])
  })

  it('fetches a fresh GitHub ID token for every assertion, so a run longer than its lifetime keeps working', async () => {
    // 10-minute ID tokens (6 real seconds, far beyond any fetch-to-exchange gap) and access tokens
    // Entra says expire within a second: every getToken needs a new assertion. Between sign-ins the
    // clock jumps 20 simulated minutes, so the ID token of one is long expired by the next.
    world = await startWorld({ azure: { tokens: { oidcLifetime: '10m', accessTokenLifetime: '90s' } } })
    oidcEnv(world)
    const log = captureLog()
    const cred = createCredential(settingsFor(world).azure, log, {
      mask: () => {},
      clientOptions: pipelineOptions({ retries: 2, ...FAST })
    })
    const tokens: string[] = []
    for (let i = 0; i < 3; i++) {
      tokens.push((await cred.credential.getToken(i === 1 ? AKS_SERVER_SCOPE : ARM))!.token)
      world.clock.advance(20 * 60_000)
      await new Promise(r => setTimeout(r, 1100)) // as 20 minutes would: past the assertion sharing (1 s)
    }
    expect(new Set(tokens).size).toBe(3)
    const oidcRequests = count(world, 'oidc', '/idtoken')
    const tokenRequests = world.recorder.records.filter(
      r => r.service === 'entra' && r.path.endsWith('/oauth2/v2.0/token')
    )
    expect(oidcRequests).toBe(3)
    expect(tokenRequests.map(r => r.status)).toEqual([200, 200, 200])
    expect(cred.idTokenRequests).toBe(3)
    // Each assertion was a different GitHub token.
    const idTokens = world.sim
      .issuedSecrets()
      .filter(s => decodeJwtClaims(s)?.sub === 'repo:org/repo:ref:refs/heads/main')
    expect(new Set(idTokens).size).toBe(3)
  })

  it('a captured (reused) ID token fails with AADSTS700024 and the error says why', async () => {
    world = await startWorld({ azure: { tokens: { oidcLifetime: '30s' } } })
    oidcEnv(world)
    const captured = await core.getIDToken('api://AzureADTokenExchange')
    world.clock.advance(60_000) // a simulated minute: the 30-second token is over
    const cred = createCredential(settingsFor(world).azure, captureLog(), {
      mask: () => {},
      getIDToken: async () => captured
    })
    const err = await failure(cred.credential.getToken(ARM))
    expect(err.message).toMatch(/AADSTS700024/)
    expect(err.message).toMatch(/valid time range/)
    expect(leaks(world, err.message)).toEqual([])
  })

  it('a federated subject mismatch (AADSTS70021) shows the subject the workflow presents and the fix', async () => {
    world = await startWorld()
    oidcEnv(world)
    const w = world
    const cred = createCredential(settingsFor(w).azure, captureLog(), {
      mask: () => {},
      getIDToken: async aud => {
        const token = await core.getIDToken(aud) // sub: repo:org/repo:ref:refs/heads/main
        // The app's federated credential was registered as `Main`: case differs, so no match.
        w.scenario.azure.federatedSubject = 'repo:org/repo:ref:refs/heads/Main'
        return token
      }
    })
    const err = await failure(cred.credential.getToken(ARM))
    expect(err.message).toMatch(/AADSTS70021/)
    expect(err.message).toContain('"repo:org/repo:ref:refs/heads/main"')
    expect(err.message).toMatch(/case-sensitive/)
    expect(err.message).toMatch(/federated credential/)
    expect(leaks(w, err.message)).toEqual([])
  })
})

describe('client secret', () => {
  it('signs in with the secret and masks it and every token', async () => {
    world = await startWorld()
    const log = captureLog()
    const masked: string[] = []
    const settings = settingsFor(world, { azure: { clientSecret: world.scenario.azure.clientSecret } })
    const cred = createCredential(settings.azure, log, { env: {}, mask: s => masked.push(s) })
    expect(cred.method).toBe('secret')
    const token = await cred.credential.getToken(ARM)
    expect(world.sim.verifyAccessToken(token!.token, 'https://management.azure.com/')).toBe(true)
    expect(masked).toEqual(expect.arrayContaining([world.scenario.azure.clientSecret, token!.token]))
    expect(leaks(world, log.text())).toEqual([])
  })

  it('a wrong secret names the input and never echoes the value', async () => {
    world = await startWorld()
    const wrong = 'not-the-secret-value-1234'
    const settings = settingsFor(world, { azure: { clientSecret: wrong } })
    const cred = createCredential(settings.azure, captureLog(), { env: {}, mask: () => {} })
    const err = await failure(cred.credential.getToken(ARM))
    expect(err.message).toMatch(/AADSTS7000215/)
    expect(err.message).toMatch(/client-secret input/)
    expect(err.message).not.toContain(wrong)
    expect(leaks(world, err.message, [wrong])).toEqual([])
  })

  it('an unknown app (AADSTS700016) and an unknown tenant (AADSTS90002) say which id to check', async () => {
    world = await startWorld()
    const secret = world.scenario.azure.clientSecret
    const app = createCredential(
      settingsFor(world, {
        azure: { clientSecret: secret, clientId: '99999999-9999-9999-9999-999999999999' }
      }).azure,
      captureLog(),
      { env: {}, mask: () => {} }
    )
    const e1 = await failure(app.credential.getToken(ARM))
    expect(e1.message).toMatch(/AADSTS700016/)
    expect(e1.message).toMatch(/99999999-9999-9999-9999-999999999999 was not found in tenant/)
    const tenant = createCredential(
      settingsFor(world, {
        azure: { clientSecret: secret, tenantId: '88888888-8888-8888-8888-888888888888' }
      }).azure,
      captureLog(),
      {
        env: {},
        mask: () => {}
      }
    )
    const e2 = await failure(tenant.credential.getToken(ARM))
    expect(e2.message).toMatch(/tenant 88888888-8888-8888-8888-888888888888/)
    expect(e2.message).toMatch(/AADSTS90002/)
    expect(leaks(world, `${e1.message}\n${e2.message}`)).toEqual([])
  })
})

describe('Azure CLI', () => {
  it('without az on PATH: signing in fails, saying to run azure/login (a runner) or install az (a terminal)', () => {
    const empty = mkdtempSync(path.join(os.tmpdir(), 'no-az-'))
    process.env.PATH = empty
    const azure = {
      authType: 'cli' as const,
      audience: 'api://AzureADTokenExchange',
      environment: 'AzureCloud' as const,
      armEndpoint: 'https://management.azure.com',
      authorityHost: 'https://login.microsoftonline.com'
    }
    const signIn = (env: NodeJS.ProcessEnv): Error => {
      try {
        createCredential(azure, captureLog(), { env, mask: () => {} })
      } catch (e) {
        return e as Error
      }
      throw new Error('signing in without az succeeded')
    }
    const onRunner = signIn({ GITHUB_ACTIONS: 'true' })
    expect(onRunner.message).toMatch(/Azure CLI \(az\) was not found/)
    expect(onRunner.message).toMatch(/azure\/login/)
    const inTerminal = signIn({})
    expect(inTerminal.message).toMatch(/Azure CLI \(az\) was not found on PATH/)
    expect(inTerminal.message).not.toMatch(/azure\/login/)
  })
})
