// The cluster, its credentials and the post-step cleanup against the simulated AKS: create or
// reuse the cluster, user/admin/AAD kubeconfigs written 0600 and masked, admin refused with local
// accounts disabled, the AKS token service behind an AAD kubeconfig's exec credential, and cleanup deleting only what the run created.
import { describe, expect, it } from '@jest/globals'
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { parse } from 'yaml'
import { cleanupAzure, type SubmittedCreate, type SubmittedCreates } from '../../../src/azure/cleanup.js'
import { desiredCluster, dnsPrefixFor, ensureCluster } from '../../../src/azure/cluster.js'
import {
  AKS_SERVER_APP_ID,
  removeKubeconfig,
  writeClusterCredentials
} from '../../../src/azure/credentials.js'
import { ensureNodePool, TAG_CREATED_BY } from '../../../src/azure/node-pool.js'
import { requestToken, TOKEN_HELPER, tokenSocketOf } from '../../../src/kube/exec-token.js'
import {
  armFixture,
  leaks,
  settingsFor,
  type CapturedLog,
  type TestWorld
} from '../../support/azure-world.js'
import { POLL_FAST, worldForTest } from '../../support/azure-test-world.js'
import { rejection as failure } from '../../support/rejection.js'

let world: TestWorld | undefined

const run = promisify(execFile)
const tmp = (): string => mkdtempSync(path.join(os.tmpdir(), 'azure-cred-'))

describe('ensureCluster', () => {
  it('creates a minimal tagged cluster when create-cluster is set and it is absent', async () => {
    world = await worldForTest({ azure: { cluster: { exists: false } } })
    const { clients, settings, log } = armFixture(world, {
      cluster: { create: true, kubernetesVersion: '1.34' }
    })
    const body = desiredCluster(settings)
    expect(body).toMatchObject({
      location: 'eastus',
      identity: { type: 'SystemAssigned' },
      kubernetesVersion: '1.34',
      dnsPrefix: 'aks-rdma',
      tags: { [TAG_CREATED_BY]: settings.runId },
      agentPoolProfiles: [
        { name: 'system', mode: 'System', vmSize: 'Standard_D4s_v5', minCount: 1, maxCount: 2 }
      ]
    })
    const r = await ensureCluster(clients, settings, { log, ...POLL_FAST })
    expect(r.action).toBe('created')
    expect(world.sim.clusterExists()).toBe(true)
    expect(world.recorder.records.filter(x => x.mutating).map(x => x.method)).toEqual(['PUT'])
    expect(world.backend.calls).toContain('addPool system 1')
  })

  it('reuses an existing cluster without any write', async () => {
    world = await worldForTest()
    const { clients, settings, log } = armFixture(world, { cluster: { create: true } })
    const r = await ensureCluster(clients, settings, { log, ...POLL_FAST })
    expect(r.action).toBe('reused')
    expect(world.recorder.counts().arm.mutating).toBe(0)
  })

  it('an absent cluster without create-cluster is an error saying what to set', async () => {
    world = await worldForTest({ azure: { cluster: { exists: false } } })
    const { clients, settings, log } = armFixture(world)
    const err = await failure(ensureCluster(clients, settings, { log, ...POLL_FAST }))
    expect(err.message).toMatch(/not found.*create-cluster: true/)
    expect(world.recorder.counts().arm.mutating).toBe(0)
  })

  it('derives a valid DNS prefix', () => {
    expect(dnsPrefixFor('my_cluster.1')).toBe('my-cluster-1')
    expect(dnsPrefixFor('-x')).toBe('x')
  })
})

describe('writeClusterCredentials', () => {
  it('writes the user kubeconfig as returned, mode 0600, and masks its token', async () => {
    world = await worldForTest()
    const { clients, settings, log, masked, credential } = armFixture(world)
    const dir = tmp()
    const r = await writeClusterCredentials(clients, settings, credential.credential, {
      log,
      mask: s => masked.push(s),
      dir
    })
    expect(r.kind).toBe('user')
    expect(r.aad).toBe(false)
    expect(path.dirname(r.path)).toBe(dir)
    expect(statSync(r.path).mode & 0o777).toBe(0o600)
    const text = readFileSync(r.path, 'utf8')
    expect(parse(text).users[0].user.token).toBe(world.backend.userToken)
    expect(masked).toContain(world.backend.userToken)
    expect(log.text()).not.toContain(world.backend.userToken)
    removeKubeconfig(r.path, log)
    expect(() => statSync(r.path)).toThrow()
  })

  it('admin credentials: masks the client certificate and key', async () => {
    world = await worldForTest()
    const { clients, settings, log, masked, credential } = armFixture(world, {
      cluster: { adminCredentials: true }
    })
    const r = await writeClusterCredentials(clients, settings, credential.credential, {
      log,
      mask: s => masked.push(s),
      dir: tmp()
    })
    expect(r.kind).toBe('admin')
    expect(masked).toEqual(expect.arrayContaining([world.backend.adminKey, world.backend.adminCert]))
  })

  it('admin credentials on a cluster with local accounts disabled: a clear error suggesting admin-credentials: false', async () => {
    world = await worldForTest({ azure: { cluster: { aad: true, localAccounts: false } } })
    const { clients, settings, log, credential } = armFixture(world, { cluster: { adminCredentials: true } })
    const err = await failure(
      writeClusterCredentials(clients, settings, credential.credential, { log, mask: () => {}, dir: tmp() })
    )
    expect(err.message).toMatch(/local accounts disabled/)
    expect(err.message).toMatch(/admin-credentials: false/)
  })

  it('AAD cluster: the kubelogin user becomes an exec credential served by this run, renewed before expiry', async () => {
    world = await worldForTest({ azure: { cluster: { aad: true, localAccounts: false } } })
    const { clients, settings, log, masked, credential } = armFixture(world)
    // The world's ARM/AKS tokens last 36 real seconds (3600 simulated); renew with 1 s left.
    const r = await writeClusterCredentials(clients, settings, credential.credential, {
      log,
      mask: s => masked.push(s),
      dir: tmp(),
      refreshMarginMs: 1000
    })
    try {
      expect(r.aad).toBe(true)
      const read = (): { token?: string; exec?: any } => parse(readFileSync(r.path, 'utf8')).users[0].user
      // No token in the file while the run lasts: the exec entry asks the run's socket.
      const entry = read()
      expect(entry.token).toBeUndefined()
      expect(entry.exec).toMatchObject({
        apiVersion: 'client.authentication.k8s.io/v1',
        command: process.execPath,
        args: ['-e', TOKEN_HELPER],
        interactiveMode: 'Never'
      })
      expect(tokenSocketOf({ exec: entry.exec })).toBe(r.refresher!.socket)
      expect(statSync(r.path).mode & 0o777).toBe(0o600)
      expect(statSync(path.dirname(r.refresher!.socket!)).mode & 0o777).toBe(0o700)

      // What client-go (helm, kubectl) runs: the exec entry itself, as a process.
      const execCredential = async (): Promise<{ code: number; out: any; err: string }> => {
        const env = Object.fromEntries(entry.exec.env.map((e: any) => [e.name, e.value]))
        try {
          const p = await run(entry.exec.command, entry.exec.args, { env: { ...process.env, ...env } })
          return { code: 0, out: JSON.parse(p.stdout), err: p.stderr }
        } catch (e: any) {
          return { code: e.code, out: undefined, err: e.stderr }
        }
      }
      const first = await execCredential()
      expect(first.code).toBe(0)
      expect(first.out).toMatchObject({
        apiVersion: 'client.authentication.k8s.io/v1',
        kind: 'ExecCredential'
      })
      const token = first.out.status.token as string
      expect(world.sim.verifyAccessToken(token, AKS_SERVER_APP_ID)).toBe(true)
      expect(masked).toContain(token)
      expect(Number.isNaN(Date.parse(first.out.status.expirationTimestamp))).toBe(false)

      // Nothing to do while the token is fresh; forced (or near expiry) the service hands out a new one.
      expect(await r.refresher!.refresh()).toBe(false)
      expect((await requestToken(r.refresher!.socket!)).token).toBe(token)
      expect(await r.refresher!.refresh(true)).toBe(true)
      const second = await requestToken(r.refresher!.socket!)
      expect(second.token).not.toBe(token)
      expect(world.sim.verifyAccessToken(second.token, AKS_SERVER_APP_ID)).toBe(true)
      expect(await r.refresher!.token()).toBe(second.token)

      // The run ends: the file keeps the last token (for the post step), the socket is gone.
      const socketDir = path.dirname(r.refresher!.socket!)
      r.refresher!.stop()
      expect(read()).toEqual({ token: second.token })
      expect(existsSync(socketDir)).toBe(false)
      const after = await execCredential()
      expect(after.code).toBe(1)
      expect(after.err).toMatch(
        /aks-rdma-action token: the action run that wrote this kubeconfig is not serving tokens any more/
      )
      expect(leaks(world, log.text())).toEqual([])
    } finally {
      r.refresher?.stop()
    }
  })
})

describe('cleanupAzure', () => {
  /** ensureNodePool / ensureCluster options that remember the create they submit, as the flow does. */
  // How long these tests wait for creates that never finish: the sign-in, the read and the create
  // request must fit in it however busy the machine (they take milliseconds when it is quiet).
  const CREATE_WAIT_MS = 3000
  const remembering = (into: SubmittedCreates, log: CapturedLog, timeoutMs = POLL_FAST.timeoutMs) => ({
    log,
    timeoutMs,
    pollIntervalMs: POLL_FAST.pollIntervalMs,
    onCreateSubmit: (c: SubmittedCreate) => (c.pool ? (into.nodePool = c) : (into.cluster = c))
  })

  it('deletes the node pool this run created', async () => {
    world = await worldForTest()
    const { clients, settings, log } = armFixture(world, { cleanup: 'node-pool' })
    const submitted: SubmittedCreates = {}
    expect((await ensureNodePool(clients, settings, remembering(submitted, log))).action).toBe('created')
    expect(submitted.nodePool).toEqual({
      resourceGroup: 'rg-rdma',
      cluster: 'aks-rdma',
      pool: 'rdma',
      createdBy: settings.runId
    })
    expect(await cleanupAzure(clients, settings, submitted, { log, ...POLL_FAST })).toEqual([
      { resource: 'node-pool', name: 'rdma', result: 'deleted', reason: 'was Succeeded' }
    ])
    expect(world.sim.getPool('rdma')).toBeUndefined()
    expect(world.backend.calls).toContain('removePool rdma')
  })

  it('deletes a pool whose create timed out (still Creating) and one whose provisioning failed', async () => {
    world = await worldForTest({
      azure: { poolProvisioning: { polls: 0, duration: '100000s' }, deletion: { polls: 1 } }
    })
    const slow = armFixture(world, { cleanup: 'node-pool' })
    const submitted: SubmittedCreates = {}
    const timedOut = await failure(
      ensureNodePool(slow.clients, slow.settings, remembering(submitted, slow.log, CREATE_WAIT_MS))
    )
    expect(timedOut.message).toMatch(/node pool rdma: timed out after .*; last state seen: Creating/)
    expect(world.sim.getPool('rdma').properties.provisioningState).toBe('Creating')
    expect(
      await cleanupAzure(slow.clients, slow.settings, submitted, { log: slow.log, ...POLL_FAST })
    ).toEqual([{ resource: 'node-pool', name: 'rdma', result: 'deleted', reason: 'was Creating' }])
    expect(world.sim.getPool('rdma')).toBeUndefined()

    world = await worldForTest({ azure: { poolProvisioning: { polls: 1, result: 'Failed' } } })
    const failing = armFixture(world, { cleanup: 'node-pool' })
    const failedCreate: SubmittedCreates = {}
    const failed = await failure(
      ensureNodePool(failing.clients, failing.settings, remembering(failedCreate, failing.log))
    )
    expect(failed.message).toMatch(/provisioning Failed: AllocationFailed/)
    expect(
      await cleanupAzure(failing.clients, failing.settings, failedCreate, { log: failing.log, ...POLL_FAST })
    ).toEqual([{ resource: 'node-pool', name: 'rdma', result: 'deleted', reason: 'was Failed' }])
    expect(world.sim.getPool('rdma')).toBeUndefined()
  })

  it('keeps a pool the run reused, and one whose created-by tag names another run', async () => {
    world = await worldForTest({
      azure: {
        existingPools: [
          {
            name: 'rdma',
            vmSize: 'Standard_ND96asr_v4',
            count: 2,
            osSKU: 'Ubuntu2204',
            gpuDriver: 'None',
            tags: { [TAG_CREATED_BY]: 'run-other' }
          }
        ]
      }
    })
    const { clients, settings, log } = armFixture(world, { cleanup: 'node-pool' })
    expect(await cleanupAzure(clients, settings, {}, { log, ...POLL_FAST })).toEqual([
      { resource: 'node-pool', name: 'rdma', result: 'skipped', reason: 'this run did not create it' }
    ])
    // Even if the saved state claimed the create, the tag check refuses.
    const claimed = { resourceGroup: 'rg-rdma', cluster: 'aks-rdma', pool: 'rdma', createdBy: settings.runId }
    expect(await cleanupAzure(clients, settings, { nodePool: claimed }, { log, ...POLL_FAST })).toEqual([
      {
        resource: 'node-pool',
        name: 'rdma',
        result: 'kept',
        reason: `its ${TAG_CREATED_BY} tag is run-other, not this run's (${settings.runId})`
      }
    ])
    expect(world.recorder.counts().arm.mutating).toBe(0)
    expect(world.sim.getPool('rdma')).toBeDefined()
  })

  it('cleanup none, and cleanup cluster for a cluster the run did not create, touch nothing (no sign-in)', async () => {
    world = await worldForTest()
    const none = armFixture(world, { cleanup: 'none' })
    const claimed = { resourceGroup: 'rg-rdma', cluster: 'aks-rdma', createdBy: none.settings.runId }
    const connect = (): never => {
      throw new Error('signed in although there was nothing to delete')
    }
    expect(
      await cleanupAzure(
        connect,
        none.settings,
        { cluster: claimed, nodePool: { ...claimed, pool: 'rdma' } },
        {
          log: none.log,
          ...POLL_FAST
        }
      )
    ).toEqual([
      { resource: 'cluster', name: 'rg-rdma/aks-rdma', result: 'kept', reason: 'cleanup is none' },
      { resource: 'node-pool', name: 'rdma', result: 'kept', reason: 'cleanup is none' }
    ])
    const cl = armFixture(world, { cleanup: 'cluster' })
    expect(await cleanupAzure(connect, cl.settings, {}, { log: cl.log, ...POLL_FAST })).toEqual([
      {
        resource: 'cluster',
        name: 'rg-rdma/aks-rdma',
        result: 'skipped',
        reason: 'this run did not create it'
      },
      { resource: 'node-pool', name: 'rdma', result: 'skipped', reason: 'this run did not create it' }
    ])
    expect(world.recorder.records).toEqual([])
    expect(world.sim.clusterExists()).toBe(true)
  })

  it('deletes a cluster this run created, with its pool', async () => {
    world = await worldForTest({ azure: { cluster: { exists: false } } })
    const { clients, settings, log } = armFixture(world, { cluster: { create: true }, cleanup: 'cluster' })
    const submitted: SubmittedCreates = {}
    expect((await ensureCluster(clients, settings, remembering(submitted, log))).action).toBe('created')
    expect((await ensureNodePool(clients, settings, remembering(submitted, log))).action).toBe('created')
    expect(submitted.cluster).toEqual({
      resourceGroup: 'rg-rdma',
      cluster: 'aks-rdma',
      createdBy: settings.runId
    })
    expect(await cleanupAzure(clients, settings, submitted, { log, ...POLL_FAST })).toEqual([
      { resource: 'cluster', name: 'rg-rdma/aks-rdma', result: 'deleted', reason: 'was Succeeded' },
      { resource: 'node-pool', name: 'rdma', result: 'deleted', reason: 'with its cluster' }
    ])
    expect(world.sim.clusterExists()).toBe(false)
  })

  it('deletes a cluster whose create timed out: the delete preempts the create, as in AKS', async () => {
    world = await worldForTest({
      azure: { cluster: { exists: false }, poolProvisioning: { polls: 100_000 }, deletion: { polls: 1 } }
    })
    const { clients, settings, log } = armFixture(world, { cluster: { create: true }, cleanup: 'cluster' })
    const submitted: SubmittedCreates = {}
    const timedOut = await failure(
      ensureCluster(clients, settings, remembering(submitted, log, CREATE_WAIT_MS))
    )
    expect(timedOut.message).toMatch(/cluster rg-rdma\/aks-rdma: timed out after/)
    expect(await cleanupAzure(clients, settings, submitted, { log, ...POLL_FAST })).toEqual([
      { resource: 'cluster', name: 'rg-rdma/aks-rdma', result: 'deleted', reason: 'was Creating' },
      { resource: 'node-pool', name: 'rdma', result: 'skipped', reason: 'this run did not create it' }
    ])
    expect(world.sim.clusterExists()).toBe(false)
  })
})

void settingsFor
