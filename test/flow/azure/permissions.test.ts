// A missing permission fails with a message naming it and the role to grant: ARM refusing an
// action the scenario denies (403 AuthorizationFailed, as ARM words it) in the feature
// registration, the pool create and the credentials; the API server refusing a write to a
// credential with read-only Kubernetes rights. Every row of the README's Azure permissions table is
// an action the simulated ARM checks.
import { afterEach, describe, expect, it, jest } from '@jest/globals'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { ensureInfinibandFeature } from '../../../src/azure/feature.js'
import { writeClusterCredentials } from '../../../src/azure/credentials.js'
import { ensureNodePool } from '../../../src/azure/node-pool.js'
import { AZURE_PERMISSIONS } from '../../../src/model/permissions.js'
import { applyStack } from '../../../src/stack/index.js'
import { armAction } from '../../../sim/azure/arm/authorization.js'
import { armFixture, startWorld, type TestWorld } from '../../support/azure-world.js'
import { collectLog, startStackWorld, useHelmStandin } from '../../support/stack-world.js'
import { rejection } from '../../support/rejection.js'

jest.setTimeout(120_000)

let world: TestWorld | undefined
afterEach(async () => {
  await world?.close()
  world = undefined
})

/** The message `p` failed with. */
async function failure(p: Promise<unknown>): Promise<string> {
  const e = await rejection(p)
  return e instanceof Error ? e.message : String(e)
}

const SUB = '/subscriptions/00000000-0000-0000-0000-000000000000'
const CLUSTER = `${SUB}/resourceGroups/rg-rdma/providers/Microsoft.ContainerService/managedClusters/aks-rdma`

describe('Azure permissions', () => {
  it('each ARM call the action makes maps to the action of the README table', () => {
    const calls: Array<[string, string]> = [
      [
        'GET',
        `${SUB}/providers/Microsoft.Features/providers/Microsoft.ContainerService/features/AKSInfinibandSupport`
      ],
      [
        'POST',
        `${SUB}/providers/Microsoft.Features/providers/Microsoft.ContainerService/features/AKSInfinibandSupport/register`
      ],
      ['POST', `${SUB}/providers/Microsoft.ContainerService/register`],
      ['GET', CLUSTER],
      ['GET', `${CLUSTER}/agentPools/rdma`],
      ['PUT', `${CLUSTER}/agentPools/rdma`],
      ['DELETE', `${CLUSTER}/agentPools/rdma`],
      ['POST', `${CLUSTER}/listClusterUserCredential`],
      ['POST', `${CLUSTER}/listClusterAdminCredential`],
      ['PUT', CLUSTER],
      ['DELETE', CLUSTER]
    ]
    expect(calls.map(([m, p]) => armAction(m, p)?.action)).toEqual(AZURE_PERMISSIONS.map(p => p.action))
    expect(armAction('GET', `${CLUSTER}/agentPools`)).toEqual({
      action: 'Microsoft.ContainerService/managedClusters/agentPools/read',
      scope: CLUSTER
    })
  })

  it("the README's permissions table is this list", () => {
    const readme = readFileSync(path.resolve(process.cwd(), 'README.md'), 'utf8')
    for (const p of AZURE_PERMISSIONS) expect(readme).toContain(`| \`${p.action}\` | ${p.when} | ${p.role} |`)
  })

  it('a denied pool create fails naming the action, the scope and the role to grant; nothing is written', async () => {
    world = await startWorld({
      azure: { deny: ['Microsoft.ContainerService/managedClusters/agentPools/write'] }
    })
    const { clients, settings, log } = armFixture(world, {}, 0)
    const msg = await failure(
      ensureNodePool(clients, settings, { log, timeoutMs: 10_000, pollIntervalMs: 20 })
    )
    expect(msg).toMatch(
      /HTTP 403 AuthorizationFailed: The client '[0-9a-f-]+' with object id '[0-9a-f-]+' does not have authorization to perform action 'Microsoft\.ContainerService\/managedClusters\/agentPools\/write'/
    )
    expect(msg).toContain(
      `missing Azure permission Microsoft.ContainerService/managedClusters/agentPools/write on ${CLUSTER}/agentPools/rdma: ` +
        'grant the identity Azure Kubernetes Service Agent Pool Manager Role (or Azure Kubernetes Service Contributor Role) on the cluster'
    )
    expect(world.recorder.records.filter(r => r.service === 'arm' && r.mutating && r.status < 400)).toEqual(
      []
    )
  })

  it('a denied feature registration names Microsoft.Features/…/register/action and Contributor on the subscription', async () => {
    world = await startWorld({
      azure: {
        deny: ['Microsoft.Features/providers/features/register/*'],
        feature: { state: 'NotRegistered' }
      }
    })
    const { clients, log } = armFixture(world, {}, 0)
    const msg = await failure(ensureInfinibandFeature(clients, { log, timeoutMs: 10_000 }))
    expect(msg).toContain(
      'missing Azure permission Microsoft.Features/providers/features/register/action on ' +
        `${SUB}/providers/Microsoft.Features/providers/Microsoft.ContainerService/features/AKSInfinibandSupport: ` +
        'grant the identity Contributor (or Owner) on the subscription'
    )
  })

  it('denied user credentials name listClusterUserCredential and the Cluster User Role', async () => {
    world = await startWorld({
      azure: { deny: ['Microsoft.ContainerService/managedClusters/listClusterUserCredential/action'] }
    })
    const { clients, settings, credential, log } = armFixture(world, {}, 0)
    const msg = await failure(
      writeClusterCredentials(clients, settings, credential.credential, {
        log,
        mask: () => {},
        dir: mkdtempSync(path.join(os.tmpdir(), 'perm-'))
      })
    )
    expect(msg).toContain(
      'missing Azure permission Microsoft.ContainerService/managedClusters/listClusterUserCredential/action on ' +
        `${CLUSTER}: grant the identity Azure Kubernetes Service Cluster User Role on the cluster`
    )
    expect(msg).not.toContain('(the identity needs')
  })
})

describe('Kubernetes permissions', () => {
  beforeAll(() => useHelmStandin())

  it('a credential with read-only rights fails the first write, naming the verb, the resource and what to grant', async () => {
    const w = await startStackWorld({
      nodes: 1,
      scenario: {
        kube: {
          timeScale: 0.001,
          access: [
            {
              user: 'clusterUser',
              rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['get', 'list', 'watch'] }]
            }
          ]
        }
      }
    })
    try {
      const kubeconfigPath = path.join(mkdtempSync(path.join(os.tmpdir(), 'perm-kube-')), 'kubeconfig')
      writeFileSync(kubeconfigPath, w.sim.kubeconfig('user'), { mode: 0o600 })
      const log = collectLog()
      const res = await applyStack({ settings: w.settings(), kubeconfigPath, log })
      expect(res.ok).toBe(false)
      const text = [...log.errors, ...res.diagnostics.map(d => d.text)].join('\n')
      expect(text).toMatch(/forbidden: User "clusterUser" cannot (create|patch|update) resource "[a-z.]+"/)
      expect(text).toMatch(/missing Kubernetes permission: clusterUser may not (create|patch|update) [a-z.]+/)
      expect(text).toContain('grant it Azure Kubernetes Service RBAC Cluster Admin on the cluster')
      expect(readFileSync(kubeconfigPath, 'utf8')).toContain('clusterUser')
    } finally {
      await w.close()
    }
  })
})
