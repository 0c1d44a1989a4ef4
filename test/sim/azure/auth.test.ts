// The Azure half's identity side through the real @azure/identity credentials and ARM clients:
// GitHub OIDC stand-in, Entra token endpoint (secret and federated assertion), AADSTS errors,
// simulated token expiry, ARM's bearer checks and TLS verification against the world's CA.
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import https from 'node:https'
import { isRestError } from '@azure/core-rest-pipeline'
import type { AccessToken, TokenCredential } from '@azure/core-auth'
import { ContainerServiceClient } from '@azure/arm-containerservice'
import { ClientSecretCredential } from '@azure/identity'
import { writeCa } from '../../../sim/tls.js'
import { AKS_AAD_SERVER_APP } from '../../../sim/azure/index.js'
import {
  ARM_SCOPE,
  assertionCredential,
  clients,
  fetchIdToken,
  oidcCredential,
  secretCredential,
  startWorld,
  type TestWorld,
  withWorld
} from '../../support/sim-azure-world.js'
import { rejection } from '../../support/rejection.js'

function claimsOf(jwt: string): Record<string, any> {
  return JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString())
}

/** A raw HTTPS request to the world, trusting its CA. */
function raw(
  w: TestWorld,
  method: string,
  p: string,
  headers: Record<string, string> = {}
): Promise<{ status: number; headers: any; body: any }> {
  return new Promise((resolve, reject) => {
    const req = https.request(`${w.sim.armEndpoint}${p}`, { method, ca: w.tls.caPem, headers }, res => {
      const chunks: Buffer[] = []
      res.on('data', c => chunks.push(c))
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString()
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: text ? JSON.parse(text) : undefined
        })
      })
    })
    req.on('error', reject)
    req.end()
  })
}

describe('GitHub OIDC stand-in', () => {
  let w: TestWorld
  beforeAll(async () => {
    w = await startWorld()
  })
  afterAll(() => w.sim.close())

  it('issues a signed token for the requested audience with the runner token, 401 without it', async () => {
    const ok = await fetchIdToken(w, 'api://AzureADTokenExchange')
    expect(ok.status).toBe(200)
    const c = claimsOf(ok.body.value)
    expect(c).toMatchObject({
      aud: 'api://AzureADTokenExchange',
      sub: 'repo:org/repo:ref:refs/heads/main',
      iss: `${w.sim.armEndpoint}/oidc`
    })
    // Unset in the scenario: 300 simulated seconds, but at least 30 real seconds (3000 simulated
    // seconds at this world's timeScale 0.01).
    expect(w.scenario.azure.tokens.oidcLifetime).toBeUndefined()
    expect(c.exp - c.iat).toBe(3000)
    expect(w.sim.issuedSecrets()).toContain(ok.body.value)

    const bad = await fetchIdToken(w, 'api://AzureADTokenExchange', 'not-the-runner-token')
    expect(bad.status).toBe(401)
    expect(w.recorder.records.filter(r => r.service === 'oidc').map(r => r.status)).toEqual([200, 401])
  })

  it('serves @actions/core getIDToken unchanged (child process trusting the CA via NODE_EXTRA_CA_CERTS)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sim-azure-'))
    try {
      const ca = writeCa({ ...w.tls }, dir)
      const script =
        "import * as core from '@actions/core'; process.stdout.write(await core.getIDToken('api://AzureADTokenExchange'))"
      const out = await new Promise<string>((resolve, reject) =>
        execFile(
          process.execPath,
          ['--input-type=module', '-e', script],
          {
            cwd: process.cwd(),
            env: {
              PATH: process.env.PATH,
              NODE_EXTRA_CA_CERTS: ca,
              ACTIONS_ID_TOKEN_REQUEST_URL: w.sim.oidcRequestUrl,
              ACTIONS_ID_TOKEN_REQUEST_TOKEN: w.sim.oidcRequestToken
            }
          },
          (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout))
        )
      )
      const token = out.trim().split('\n').pop() as string
      expect(claimsOf(token)).toMatchObject({
        aud: 'api://AzureADTokenExchange',
        sub: 'repo:org/repo:ref:refs/heads/main'
      })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('Entra stand-in', () => {
  let w: TestWorld
  beforeAll(async () => {
    // Lifetimes far beyond any fetch-to-use gap (36 real seconds); expiry is a jump of the clock.
    w = await startWorld({ tokens: { oidcLifetime: '1h', accessTokenLifetime: '3600s' } })
  })
  afterAll(() => w.sim.close())

  it('exchanges a fresh GitHub token for an ARM token that ARM accepts', async () => {
    const { features } = clients(w, oidcCredential(w))
    const f = await features.features.get('Microsoft.ContainerService', 'AKSInfinibandSupport')
    expect(f.properties?.state).toBe('NotRegistered')
    const services = w.recorder.records.map(r => `${r.service} ${r.method} ${r.status}`)
    expect(services).toEqual(expect.arrayContaining(['oidc GET 200', 'entra POST 200', 'arm GET 200']))
  })

  it('issues tokens with the audience of the scope and a real-time expires_in', async () => {
    const cred = oidcCredential(w)
    const arm = await cred.getToken(ARM_SCOPE)
    const before = Date.now()
    const aks = await cred.getToken(`${AKS_AAD_SERVER_APP}/.default`)
    const after = Date.now()
    expect(claimsOf(arm!.token).aud).toBe('https://management.azure.com/')
    expect(claimsOf(aks!.token)).toMatchObject({
      aud: AKS_AAD_SERVER_APP,
      tid: w.scenario.azure.tenantId,
      appid: w.scenario.azure.clientId
    })
    // 3600 simulated seconds at timeScale 0.01 = 36 real seconds (announced as 35, MSAL rounds),
    // counted from when the token was issued (between `before` and `after`, however slow the machine).
    expect(aks!.expiresOnTimestamp).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 35_000)
    expect(aks!.expiresOnTimestamp).toBeLessThanOrEqual(after + 36_000)
    expect(w.sim.verifyAccessToken(aks!.token, AKS_AAD_SERVER_APP)).toBe(true)
    expect(w.sim.verifyAccessToken(arm!.token, AKS_AAD_SERVER_APP)).toBe(false)
    expect(w.sim.verifyAccessToken(aks!.token.slice(0, -4) + 'AAAA', AKS_AAD_SERVER_APP)).toBe(false)
    expect(w.sim.issuedSecrets()).toEqual(
      expect.arrayContaining([arm!.token, aks!.token, w.scenario.azure.clientSecret])
    )
  })

  it('refuses a captured assertion once it expired in simulated time (AADSTS700024), accepts a fresh one', async () => {
    const captured = (await fetchIdToken(w)).body.value as string
    w.clock.advance(2 * 3_600_000) // two simulated hours: the captured token's hour is over
    const stale = assertionCredential(w, async () => captured)
    const e = await rejection<any>(stale.getToken(ARM_SCOPE))
    expect(e.message).toContain('AADSTS700024')
    expect(e.message).toContain('Client assertion is not within its valid time range')
    const fresh = await oidcCredential(w).getToken(ARM_SCOPE)
    expect(fresh?.token).toBeTruthy()
  })

  it('refuses a wrong client secret with AADSTS7000215 and accepts the right one', async () => {
    const e = await rejection<any>(secretCredential(w, 'wrong-secret').getToken(ARM_SCOPE))
    expect(e.message).toContain('AADSTS7000215')
    expect(e.message).toContain('Invalid client secret provided')
    expect((await secretCredential(w).getToken(ARM_SCOPE))?.token).toBeTruthy()
  })

  it('refuses unknown clients, unknown tenants and unknown resources', async () => {
    const strangerApp = new ClientSecretCredential(
      w.scenario.azure.tenantId,
      '99999999-9999-9999-9999-999999999999',
      'x',
      {
        authorityHost: w.sim.authorityHost,
        disableInstanceDiscovery: true,
        tlsOptions: { ca: w.tls.caPem }
      }
    )
    expect((await rejection<any>(strangerApp.getToken(ARM_SCOPE))).message).toContain('AADSTS700016')
    const otherTenant = new ClientSecretCredential(
      '33333333-3333-3333-3333-333333333333',
      w.scenario.azure.clientId,
      w.scenario.azure.clientSecret,
      {
        authorityHost: w.sim.authorityHost,
        disableInstanceDiscovery: true,
        tlsOptions: { ca: w.tls.caPem }
      }
    )
    await expect(otherTenant.getToken(ARM_SCOPE)).rejects.toThrow()
    expect(
      w.recorder.records.some(
        r => r.service === 'entra' && r.path.startsWith('/33333333') && r.status === 400
      )
    ).toBe(true)
    expect(
      (await rejection<any>(secretCredential(w).getToken('https://vault.azure.net/.default'))).message
    ).toContain('AADSTS500011')
  })
})

describe('federated subject mismatch', () => {
  it('refuses a token whose subject the federated credential does not match (AADSTS70021)', async () => {
    await withWorld(
      {
        federatedSubject: 'repo:org/repo:environment:production',
        oidcSubject: 'repo:org/repo:pull_request'
      },
      async w => {
        const e = await rejection<any>(oidcCredential(w).getToken(ARM_SCOPE))
        expect(e.message).toContain('AADSTS70021')
        expect(e.message).toContain(
          "No matching federated identity record found for presented assertion subject 'repo:org/repo:pull_request'"
        )
      }
    )
  })
})

describe("ARM's front door", () => {
  let w: TestWorld
  beforeAll(async () => {
    w = await startWorld({ tokens: { oidcLifetime: '300s', accessTokenLifetime: '1h' } })
  })
  afterAll(() => w.sim.close())
  const poolPath = (w: TestWorld) =>
    `/subscriptions/${w.scenario.azure.subscriptionId}/resourceGroups/${w.rg}/providers/Microsoft.ContainerService/managedClusters/${w.cluster}/agentPools/system?api-version=2026-06-01`

  it('answers 401 AuthenticationFailed without a token and InvalidAuthenticationToken for a forged one', async () => {
    const none = await raw(w, 'GET', poolPath(w))
    expect(none.status).toBe(401)
    expect(none.body.error.code).toBe('AuthenticationFailed')
    expect(none.headers['www-authenticate']).toMatch(/^Bearer /)
    const forged = await raw(w, 'GET', poolPath(w), {
      Authorization: 'Bearer eyJhbGciOiJSUzI1NiJ9.eyJhdWQiOiJ4In0.c2ln'
    })
    expect(forged.status).toBe(401)
    expect(forged.body.error.code).toBe('InvalidAuthenticationToken')
  })

  it('refuses a token for the wrong audience and an expired token, through the SDK', async () => {
    const cred = secretCredential(w)
    const aksToken = (await cred.getToken(`${AKS_AAD_SERVER_APP}/.default`))!
    const armToken = (await cred.getToken(ARM_SCOPE))!
    const fixed = (t: AccessToken): TokenCredential => ({
      getToken: async () => ({ token: t.token, expiresOnTimestamp: Date.now() + 3_600_000 })
    })
    const wrongAud = await rejection<any>(
      clients(w, fixed(aksToken), 0).aks.agentPools.get(w.rg, w.cluster, 'system')
    )
    expect(isRestError(wrongAud) && wrongAud.statusCode).toBe(403)
    expect(wrongAud.code).toBe('InvalidAuthenticationTokenAudience')
    // The same ARM token works now and is refused once its simulated hour is over.
    const { aks } = clients(w, fixed(armToken), 0)
    expect((await aks.agentPools.get(w.rg, w.cluster, 'system')).name).toBe('system')
    w.clock.advance(2 * 3_600_000)
    const expired = await rejection<any>(aks.agentPools.get(w.rg, w.cluster, 'system'))
    expect(expired.statusCode).toBe(401)
    expect(expired.code).toBe('ExpiredAuthenticationToken')
  })

  it('needs the world CA: clients that do not trust it fail the TLS handshake', async () => {
    w.recorder.reset()
    const untrusting = new ContainerServiceClient(
      { getToken: async () => ({ token: 'x', expiresOnTimestamp: Date.now() + 60_000 }) },
      w.scenario.azure.subscriptionId,
      { endpoint: w.sim.armEndpoint, retryOptions: { maxRetries: 0 } }
    )
    const e = await rejection<any>(untrusting.agentPools.get(w.rg, w.cluster, 'system'))
    expect(String(e.code ?? e.message)).toMatch(/SELF_SIGNED|UNABLE_TO_VERIFY|CERT/)
    const cred = new ClientSecretCredential(
      w.scenario.azure.tenantId,
      w.scenario.azure.clientId,
      w.scenario.azure.clientSecret,
      {
        authorityHost: w.sim.authorityHost,
        disableInstanceDiscovery: true,
        retryOptions: { maxRetries: 0 }
      }
    )
    await expect(cred.getToken(ARM_SCOPE)).rejects.toThrow()
    // Neither reached a handler.
    expect(w.recorder.records).toHaveLength(0)
  })
})
