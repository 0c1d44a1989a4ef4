// The pool settled before any write: precheckNodePool reads the pool once and refuses an existing
// pool that differs in a field fixed at creation (or whose provisioning failed) with only that GET
// in the simulator's request log; an absent or compatible pool is handed to ensureNodePool, which
// then creates or reuses it without reading it again.
import { describe, expect, it } from '@jest/globals'
import { tmpdir } from 'node:os'
import { ClusterNotFoundError } from '../../../src/azure/cluster-missing.js'
import { writeClusterCredentials } from '../../../src/azure/credentials.js'
import { ensureNodePool, NodePoolError, precheckNodePool } from '../../../src/azure/node-pool.js'
import { armFixture, type TestWorld } from '../../support/azure-world.js'
import { COMPATIBLE_POOL, POLL_FAST, worldForTest } from '../../support/azure-test-world.js'
import { rejection as failure } from '../../support/rejection.js'

const arm = (w: TestWorld) => w.recorder.records.filter(r => r.service === 'arm')
const poolRequests = (w: TestWorld) =>
  arm(w)
    .filter(r => /\/agentPools\/rdma$/.test(r.path))
    .map(r => r.method)

/** A world of `overrides` and its ARM fixture, the world's request log emptied. */
async function freshFixture(overrides: Record<string, unknown> = {}) {
  const world = await worldForTest(overrides)
  const fixture = armFixture(world)
  world.recorder.reset()
  return { world, ...fixture }
}

describe('precheckNodePool', () => {
  it('an existing pool of another VM size: refused with one GET and no write', async () => {
    const { world, clients, settings, log } = await freshFixture({
      azure: { existingPools: [{ ...COMPATIBLE_POOL, vmSize: 'Standard_NC24ads_A100_v4' }] }
    })
    const err = await failure(precheckNodePool(clients, settings, { log }))
    expect(err).toBeInstanceOf(NodePoolError)
    expect(err.message).toContain('node pool rdma: an existing pool differs in fields fixed at creation')
    expect(err.message).toContain('  - vmSize: wanted Standard_ND96asr_v4, found Standard_NC24ads_A100_v4')
    expect(err.message).toMatch(/nothing was changed/)
    expect(arm(world).map(r => r.method)).toEqual(['GET'])
    expect(world.recorder.counts().mutating).toBe(0)
  })

  it('a pool with the AKS-installed GPU driver or another OS SKU: refused the same way', async () => {
    const { world, clients, settings, log } = await freshFixture({
      azure: { existingPools: [{ ...COMPATIBLE_POOL, gpuDriver: 'Install', osSKU: 'Ubuntu2404' }] }
    })
    const err = await failure(precheckNodePool(clients, settings, { log }))
    expect(err.message).toContain('  - osSKU: wanted Ubuntu2204, found Ubuntu2404')
    expect(err.message).toContain('  - gpuProfile.driver: wanted None, found Install')
    expect(world.recorder.counts().mutating).toBe(0)
  })

  it('a pool whose provisioning failed: refused before any write', async () => {
    const { world, clients, settings, log } = await freshFixture({
      azure: { existingPools: [{ ...COMPATIBLE_POOL, provisioningState: 'Failed' }] }
    })
    const err = await failure(precheckNodePool(clients, settings, { log }))
    expect(err.message).toMatch(/^node pool rdma: exists in provisioning state Failed/)
    expect(world.recorder.counts().mutating).toBe(0)
  })

  it('absent: ensureNodePool then creates it without reading it again', async () => {
    const { world, clients, settings, log } = await freshFixture()
    const pre = await precheckNodePool(clients, settings, { log })
    expect(pre).toEqual({ state: 'absent' })
    const r = await ensureNodePool(clients, settings, { log, ...POLL_FAST, precheck: pre })
    expect(r.action).toBe('created')
    // The precheck's GET, then straight to the create (its polls read the pool afterwards).
    expect(poolRequests(world).slice(0, 2)).toEqual(['GET', 'PUT'])
  })

  it('compatible: ensureNodePool reuses it with no further read and no write', async () => {
    const { world, clients, settings, log } = await freshFixture({
      azure: { existingPools: [COMPATIBLE_POOL] }
    })
    const pre = await precheckNodePool(clients, settings, { log })
    expect(pre.state).toBe('present')
    const r = await ensureNodePool(clients, settings, { log, ...POLL_FAST, precheck: pre })
    expect(r.action).toBe('reused')
    expect(poolRequests(world)).toEqual(['GET'])
    expect(world.recorder.counts().mutating).toBe(0)
  })
})

describe('a cluster that does not exist', () => {
  it('is reported as a missing cluster, not an absent pool, with one GET and no write', async () => {
    const { world, clients, settings, log } = await freshFixture({ azure: { cluster: { exists: false } } })
    const err = await failure(precheckNodePool(clients, settings, { log }))
    expect(err).toBeInstanceOf(ClusterNotFoundError)
    expect(err.message).toContain('cluster rg-rdma/aks-rdma does not exist')
    // The fix is the create-cluster input.
    expect(err.message).toContain('create-cluster: true')
    expect(log.lines.some(l => /absent; it will be created/.test(l))).toBe(false)
    expect(arm(world).map(r => r.method)).toEqual(['GET'])
    expect(world.recorder.counts().mutating).toBe(0)
  })

  it('with create-cluster: true the pool is simply absent (the run creates the cluster first)', async () => {
    const world = await worldForTest({ azure: { cluster: { exists: false } } })
    const { clients, settings, log } = armFixture(world, { cluster: { create: true, location: 'eastus' } })
    expect(await precheckNodePool(clients, settings, { log })).toEqual({ state: 'absent' })
  })

  it("verify's credentials say the cluster does not exist, not a bare 404", async () => {
    const world = await worldForTest({ azure: { cluster: { exists: false } } })
    const { clients, settings, log, credential } = armFixture(world, { mode: 'verify' })
    const err = await failure(
      writeClusterCredentials(clients, settings, credential.credential, {
        log,
        mask: () => {},
        dir: tmpdir()
      })
    )
    expect(err).toBeInstanceOf(ClusterNotFoundError)
    expect(err.message).toContain('cluster rg-rdma/aks-rdma does not exist')
    expect(err.message).not.toMatch(/HTTP 404/)
  })
})
