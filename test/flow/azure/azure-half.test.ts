// The whole Azure half in the order the action runs it, signed in with OIDC through
// core.getIDToken against one simulated world with transient faults, plus the error paths; then
// a scan of everything logged and every error for the client secret and every token the world
// issued.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createCredential } from '../../../src/azure/auth.js'
import { cleanupAzure, type SubmittedCreates } from '../../../src/azure/cleanup.js'
import { createArmClients, pipelineOptions } from '../../../src/azure/clients.js'
import { ensureCluster } from '../../../src/azure/cluster.js'
import { writeClusterCredentials } from '../../../src/azure/credentials.js'
import { ensureInfinibandFeature } from '../../../src/azure/feature.js'
import { ensureNodePool } from '../../../src/azure/node-pool.js'
import * as azureWorld from '../../support/azure-world.js'
import type { TestWorld } from '../../support/azure-world.js'

let world: TestWorld
const savedEnv = { ...process.env }
const log = azureWorld.captureLog()
const errors: string[] = []

beforeAll(async () => {
  world = await azureWorld.startWorld({
    azure: {
      cluster: { aad: true, localAccounts: false },
      feature: { state: 'NotRegistered', pollsUntilRegistered: 2 },
      // ID tokens live 10 simulated minutes (6 real seconds): far longer than any fetch-to-exchange
      // gap, so no sign-in races the machine's speed; the test jumps the clock to expire them.
      tokens: { oidcLifetime: '10m', accessTokenLifetime: '1000h' },
      faults: [
        { match: 'GET */features/AKSInfinibandSupport', status: 429, times: 1 },
        { match: 'PUT */agentPools/rdma', status: 503, times: 1 },
        { match: 'POST */listClusterUserCredential', reset: true, times: 1 }
      ]
    }
  })
  process.env.ACTIONS_ID_TOKEN_REQUEST_URL = world.sim.oidcRequestUrl
  process.env.ACTIONS_ID_TOKEN_REQUEST_TOKEN = world.sim.oidcRequestToken
})

afterAll(async () => {
  await world.close()
  process.env = { ...savedEnv }
})

async function expectFailure(p: Promise<unknown>): Promise<string> {
  try {
    await p
  } catch (e) {
    const text = e instanceof Error ? `${e.name}: ${e.message}\n${e.stack ?? ''}` : String(e)
    errors.push(text)
    return text
  }
  throw new Error('expected a failure')
}

describe('the Azure half end to end (OIDC)', () => {
  it('signs in, registers the feature, reuses the cluster, creates the pool, writes AAD credentials and cleans up', async () => {
    const settings = azureWorld.settingsFor(world, { cleanup: 'node-pool' })
    const tuning = { retries: settings.wait.retries, ...azureWorld.FAST }
    const cred = createCredential(settings.azure, log, {
      mask: () => {},
      clientOptions: pipelineOptions(tuning, log)
    })
    expect(cred.method).toBe('oidc')
    const clients = createArmClients(settings.azure, cred.credential, { ...tuning, log })

    const feature = await ensureInfinibandFeature(clients, {
      log,
      timeoutMs: 20_000,
      backoff: { initialMs: 10, maxMs: 20 }
    })
    expect(feature.changed).toBe(true)
    const cluster = await ensureCluster(clients, settings, { log, timeoutMs: 20_000, pollIntervalMs: 20 })
    expect(cluster.action).toBe('reused')
    // Every ID token fetched so far expires (20 simulated minutes pass at once): later sign-ins need
    // fresh ones. The real wait outlasts the credential's assertion sharing (1 s), as the 20
    // minutes would in a real job.
    world.clock.advance(20 * 60_000)
    await new Promise(r => setTimeout(r, 1100))
    const submitted: SubmittedCreates = {}
    const pool = await ensureNodePool(clients, settings, {
      log,
      timeoutMs: 20_000,
      pollIntervalMs: 20,
      onCreateSubmit: c => (submitted.nodePool = c)
    })
    expect(pool.action).toBe('created')
    const kube = await writeClusterCredentials(clients, settings, cred.credential, {
      log,
      mask: () => {},
      dir: mkdtempSync(path.join(os.tmpdir(), 'flow-'))
    })
    expect(kube.aad).toBe(true)
    kube.refresher?.stop()
    const cleaned = await cleanupAzure(clients, settings, submitted, {
      log,
      timeoutMs: 20_000,
      pollIntervalMs: 20
    })
    expect(cleaned).toEqual([
      { resource: 'node-pool', name: 'rdma', result: 'deleted', reason: 'was Succeeded' }
    ])

    // More than one ID token was needed, and none was rejected as expired.
    expect(cred.idTokenRequests).toBeGreaterThan(1)
    const entra = world.recorder.records.filter(r => r.service === 'entra' && r.path.endsWith('/token'))
    expect(entra.filter(r => r.status !== 200).map(r => `${r.method} ${r.path} ${r.status}`)).toEqual([])
    // The faults happened and were survived.
    expect(world.recorder.records.some(r => r.status === 429)).toBe(true)
    expect(world.recorder.records.some(r => r.status === 503)).toBe(true)
    expect(world.recorder.records.some(r => r.status === 0)).toBe(true)
  })

  it('the error paths say what to fix', async () => {
    // Incompatible pool, admin credentials on an AAD-only cluster, a wrong secret, a subject mismatch.
    world.sim.setPool('rdmaold', { vmSize: 'Standard_NC24ads_A100_v4', osSKU: 'Ubuntu', count: 1 })
    const s = azureWorld.settingsFor(world, {
      nodePool: { name: 'rdmaold' },
      cluster: { adminCredentials: true }
    })
    const tuning = { retries: 1, ...azureWorld.FAST }
    const cred = createCredential(s.azure, log, {
      mask: () => {},
      clientOptions: pipelineOptions(tuning, log)
    })
    const clients = createArmClients(s.azure, cred.credential, { ...tuning, log })
    expect(
      await expectFailure(ensureNodePool(clients, s, { log, timeoutMs: 5000, pollIntervalMs: 20 }))
    ).toMatch(/vmSize: wanted/)
    expect(
      await expectFailure(
        writeClusterCredentials(clients, s, cred.credential, { log, mask: () => {}, dir: os.tmpdir() })
      )
    ).toMatch(/admin-credentials: false/)

    const wrong = createCredential(
      azureWorld.settingsFor(world, { azure: { clientSecret: 'definitely-not-the-secret' } }).azure,
      log,
      { env: {}, mask: () => {} }
    )
    expect(await expectFailure(wrong.credential.getToken('https://management.azure.com/.default'))).toMatch(
      /AADSTS7000215/
    )

    world.scenario.azure.federatedSubject = 'repo:org/repo:environment:prod'
    const mismatch = createCredential(s.azure, log, {
      mask: () => {},
      getIDToken: async () =>
        (await import('@actions/core'))
          .getIDToken(s.azure.audience)
          .finally(() => (world.scenario.azure.federatedSubject = 'repo:org/repo:ref:refs/heads/main'))
    })
    const mm = await expectFailure(mismatch.credential.getToken('https://management.azure.com/.default'))
    expect(mm).toMatch(/AADSTS70021|AADSTS/)
  })

  it('nothing logged and no error contains the client secret or any token the world issued', () => {
    const issued = world.sim.issuedSecrets()
    // Every ID token and access token of the sign-ins above (ARM, AKS, the error paths' own), the
    // ID-token request token and the client secret.
    expect(issued.length).toBeGreaterThanOrEqual(8)
    const everything = `${log.text()}\n${errors.join('\n')}`
    if (process.env.SHOW_AZURE_LOG) console.log(everything)
    expect(log.lines.length).toBeGreaterThan(20)
    expect(
      azureWorld.leaks(world, everything, ['definitely-not-the-secret', world.backend.userToken])
    ).toEqual([])
  })
})
