// ARM in the Azure half, through the real @azure/arm-containerservice, @azure/arm-features and
// @azure/arm-resources clients: feature and provider registration state machines, managed
// cluster reads/credentials/lifecycle, and agent pools as long-running operations with ARM's
// refusals (404, 400, 409, 412) and their effect on the Kubernetes half (the backend).
import { isRestError } from '@azure/core-rest-pipeline'
import { clients, ibPool, startWorld, type TestWorld, withWorld } from '../../support/sim-azure-world.js'
import { rejection } from '../../support/rejection.js'

function armCalls(w: TestWorld): string[] {
  return w.recorder.records
    .filter(r => r.service === 'arm')
    .map(r => {
      const tail = r.path
        .replace(/^.*\/(agentPools|managedClusters|features|operations|providers)\//i, '$1/')
        .replace(/^operations\/.*/, 'operations/<id>')
      return `${r.method} ${tail} ${r.status}`
    })
}

describe('feature registration', () => {
  it('NotRegistered → Registering → Registered at the pollsUntilRegistered-th GET', async () => {
    await withWorld({ feature: { state: 'NotRegistered', pollsUntilRegistered: 3 } }, async w => {
      const { features } = clients(w)
      const ns = 'Microsoft.ContainerService'
      expect((await features.features.get(ns, 'AKSInfinibandSupport')).properties?.state).toBe(
        'NotRegistered'
      )
      const reg = await features.features.register(ns, 'AKSInfinibandSupport')
      expect(reg).toMatchObject({
        name: `${ns}/AKSInfinibandSupport`,
        type: 'Microsoft.Features/providers/features',
        properties: { state: 'Registering' }
      })
      expect(reg.id).toBe(
        `/subscriptions/${w.scenario.azure.subscriptionId}/providers/Microsoft.Features/providers/${ns}/features/AKSInfinibandSupport`
      )
      const states: string[] = []
      for (let i = 0; i < 4; i++)
        states.push((await features.features.get(ns, 'AKSInfinibandSupport')).properties!.state!)
      expect(states).toEqual(['Registering', 'Registering', 'Registered', 'Registered'])
      expect(w.recorder.counts().arm.mutating).toBe(1)
    })
  })

  it('Pending never completes; Registered from the start stays Registered', async () => {
    const pending = await startWorld({ feature: { state: 'Pending', pollsUntilRegistered: 1 } })
    const done = await startWorld({ feature: { state: 'Registered', pollsUntilRegistered: 1 } })
    try {
      const { features } = clients(pending)
      await features.features.register('Microsoft.ContainerService', 'AKSInfinibandSupport')
      for (let i = 0; i < 5; i++) {
        expect(
          (await features.features.get('Microsoft.ContainerService', 'AKSInfinibandSupport')).properties
            ?.state
        ).toBe('Pending')
      }
      const f2 = clients(done).features
      expect(
        (await f2.features.get('Microsoft.ContainerService', 'AKSInfinibandSupport')).properties?.state
      ).toBe('Registered')
      expect(
        (await f2.features.register('Microsoft.ContainerService', 'AKSInfinibandSupport')).properties?.state
      ).toBe('Registered')
    } finally {
      await pending.sim.close()
      await done.sim.close()
    }
  })
})

describe('resource provider registration', () => {
  it('register makes Microsoft.ContainerService Registering until providerPollsUntilRegistered GETs', async () => {
    await withWorld({ providerPollsUntilRegistered: 2 }, async w => {
      const { resources } = clients(w)
      expect((await resources.providers.get('Microsoft.ContainerService')).registrationState).toBe(
        'Registered'
      )
      const reg = await resources.providers.register('Microsoft.ContainerService')
      expect(reg).toMatchObject({ namespace: 'Microsoft.ContainerService', registrationState: 'Registering' })
      expect((await resources.providers.get('Microsoft.ContainerService')).registrationState).toBe(
        'Registering'
      )
      expect((await resources.providers.get('Microsoft.ContainerService')).registrationState).toBe(
        'Registered'
      )
    })
  })
})

describe('managed cluster', () => {
  let w: TestWorld
  beforeAll(async () => {
    w = await startWorld({
      existingPools: [
        {
          name: 'ibold',
          vmSize: 'Standard_ND96asr_v4',
          count: 2,
          osSKU: 'Ubuntu2204',
          gpuDriver: 'None',
          tags: { a: 'b' }
        }
      ]
    })
  })
  afterAll(() => w.sim.close())

  it('exists with a system pool and the scenario pools, whose nodes the backend got', async () => {
    const { aks } = clients(w)
    const mc = await aks.managedClusters.get(w.rg, w.cluster)
    expect(mc).toMatchObject({
      name: 'aks-rdma',
      location: 'eastus',
      provisioningState: 'Succeeded',
      kubernetesVersion: '1.33',
      disableLocalAccounts: false
    })
    expect(mc.agentPoolProfiles?.map(p => p.name).sort()).toEqual(['ibold', 'system'])
    expect(w.backend.pools.get('system')).toMatchObject({
      mode: 'System',
      vmSize: 'Standard_D4s_v5',
      count: 2
    })
    expect(w.backend.pools.get('ibold')).toMatchObject({ mode: 'User', count: 2, osSku: 'Ubuntu2204' })
    const pools: string[] = []
    for await (const p of aks.agentPools.list(w.rg, w.cluster))
      pools.push(`${p.name}:${p.gpuProfile?.driver ?? '-'}`)
    expect(pools.sort()).toEqual(['ibold:None', 'system:-'])
    expect(w.sim.clusterExists()).toBe(true)
  })

  it('gives as its fqdn the address its API server serves on (an AKS-style name without one)', async () => {
    const { aks } = clients(w)
    const named = await aks.managedClusters.get(w.rg, w.cluster)
    expect(named.fqdn).toMatch(/^aks-rdma-dns-[0-9a-f]{8}\.hcp\.eastus\.azmk8s\.io$/)
    w.backend.serverUrl = 'https://127.0.0.1:34567'
    try {
      const served = await aks.managedClusters.get(w.rg, w.cluster)
      expect(served.fqdn).toBe('127.0.0.1:34567')
      expect(served.azurePortalFqdn).toBe(named.azurePortalFqdn)
      expect(served.privateFqdn).toBeUndefined()
    } finally {
      w.backend.serverUrl = undefined
    }
  })

  it('returns base64 kubeconfigs (decoded by the SDK) from the backend', async () => {
    const { aks } = clients(w)
    const user = await aks.managedClusters.listClusterUserCredentials(w.rg, w.cluster)
    expect(user.kubeconfigs?.[0].name).toBe('clusterUser')
    expect(Buffer.from(user.kubeconfigs![0].value!).toString()).toContain('# kind: user')
    const admin = await aks.managedClusters.listClusterAdminCredentials(w.rg, w.cluster)
    expect(Buffer.from(admin.kubeconfigs![0].value!).toString()).toContain('# kind: admin')
    // Credential POSTs are reads.
    expect(
      w.recorder.records
        .filter(r => r.path.endsWith('Credential'))
        .every(r => r.method === 'POST' && !r.mutating)
    ).toBe(true)
  })

  it('answers 404 for another resource group or cluster', async () => {
    const { aks } = clients(w, undefined, 0)
    const rg = await rejection<any>(aks.managedClusters.get('rg-other', w.cluster))
    expect([rg.statusCode, rg.code]).toEqual([404, 'ResourceGroupNotFound'])
    const mc = await rejection<any>(aks.agentPools.get(w.rg, 'aks-other', 'system'))
    expect([mc.statusCode, mc.code]).toEqual([404, 'ResourceNotFound'])
  })
})

describe('Entra-integrated cluster without local accounts', () => {
  it('gives the exec (kubelogin) kubeconfig to users and refuses admin credentials', async () => {
    await withWorld({ cluster: { aad: true, localAccounts: false } }, async w => {
      const { aks } = clients(w, undefined, 0)
      const user = await aks.managedClusters.listClusterUserCredentials(w.rg, w.cluster, { format: 'exec' })
      expect(Buffer.from(user.kubeconfigs![0].value!).toString()).toContain('# kind: aad')
      const e = await rejection<any>(aks.managedClusters.listClusterAdminCredentials(w.rg, w.cluster))
      expect(isRestError(e)).toBe(true)
      expect([e.statusCode, e.code]).toEqual([400, 'BadRequest'])
      expect(e.message).toContain('disable local accounts')
      const mc = await aks.managedClusters.get(w.rg, w.cluster)
      expect(mc.aadProfile?.managed).toBe(true)
      expect(mc.disableLocalAccounts).toBe(true)
    })
  })
})

describe('cluster lifecycle', () => {
  it('creates a cluster (its pools join when the operation succeeds) and deletes it', async () => {
    await withWorld(
      {
        cluster: { exists: false },
        poolProvisioning: { polls: 2, result: 'Succeeded' }
      },
      async w => {
        const { aks } = clients(w, undefined, 0)
        const missing = await rejection<any>(aks.managedClusters.get(w.rg, w.cluster))
        expect([missing.statusCode, missing.code]).toEqual([404, 'ResourceNotFound'])
        expect(w.backend.pools.size).toBe(0)
        const created = await aks.managedClusters.createOrUpdate(
          w.rg,
          w.cluster,
          {
            location: 'eastus',
            dnsPrefix: 'rdma',
            agentPoolProfiles: [{ name: 'sys', count: 1, vmSize: 'Standard_D4s_v5', mode: 'System' }]
          },
          { updateIntervalInMs: 5 }
        )
        expect(created.provisioningState).toBe('Succeeded')
        expect(w.backend.pools.get('sys')).toMatchObject({ mode: 'System', count: 1 })
        expect(w.sim.clusterExists()).toBe(true)
        await aks.managedClusters.delete(w.rg, w.cluster, { updateIntervalInMs: 5 })
        expect(w.sim.clusterExists()).toBe(false)
        expect(w.backend.calls).toEqual(['add sys 1', 'remove sys'])
      }
    )
  })
})

describe('agent pools', () => {
  let w: TestWorld
  beforeAll(async () => {
    // A poll-counted create also ends for a client that reads the pool once polls × 10 simulated
    // seconds passed: at 0.19 that is 5.7 real s, far more than the read right after the create
    // takes on a busy machine; Retry-After stays 1 s (whole real seconds), so polling is as fast.
    w = await startWorld({ poolProvisioning: { polls: 3, result: 'Succeeded' } }, 0.19)
  })
  afterAll(() => w.sim.close())

  it('answers 404 NotFound for a pool that does not exist', async () => {
    const e = await rejection<any>(clients(w, undefined, 0).aks.agentPools.get(w.rg, w.cluster, 'ib'))
    expect(isRestError(e) && e.statusCode).toBe(404)
    expect(e.code).toBe('NotFound')
  })

  it('creates a pool as an LRO: 201 + Azure-AsyncOperation, 3 status polls, final GET; nodes join on success', async () => {
    w.recorder.reset()
    const { aks } = clients(w)
    const poller = aks.agentPools.createOrUpdate(w.rg, w.cluster, 'ib', ibPool(), { updateIntervalInMs: 5 })
    await poller.submitted()
    const during = await aks.agentPools.get(w.rg, w.cluster, 'ib')
    expect(during.provisioningState).toBe('Creating')
    expect(w.backend.pools.has('ib')).toBe(false)
    const pool = await poller
    expect(pool).toMatchObject({
      name: 'ib',
      provisioningState: 'Succeeded',
      vmSize: 'Standard_ND96asr_v4',
      count: 2,
      osSKU: 'Ubuntu2204',
      gpuProfile: { driver: 'None' },
      nodeLabels: { 'aks-rdma/pool': 'ib' },
      nodeTaints: ['sku=gpu:NoSchedule'],
      tags: { owner: 'aks-rdma-action' },
      availabilityZones: ['1'],
      orchestratorVersion: '1.33',
      typePropertiesType: 'VirtualMachineScaleSets'
    })
    expect(pool.eTag).toMatch(/^[0-9a-f]{16}$/)
    expect(armCalls(w)).toEqual([
      'PUT agentPools/ib 201',
      'GET agentPools/ib 200',
      'GET operations/<id> 200',
      'GET operations/<id> 200',
      'GET operations/<id> 200',
      'GET agentPools/ib 200'
    ])
    expect(w.recorder.counts().arm.mutating).toBe(1)
    expect(w.backend.pools.get('ib')).toMatchObject({
      name: 'ib',
      count: 2,
      mode: 'User',
      osSku: 'Ubuntu2204',
      labels: { 'aks-rdma/pool': 'ib' },
      taints: ['sku=gpu:NoSchedule']
    })
    expect(w.sim.getPool('ib').properties.provisioningState).toBe('Succeeded')
  })

  it('refuses If-None-Match: * on an existing pool with 412 PreconditionFailed', async () => {
    const e = await rejection<any>(
      clients(w, undefined, 0).aks.agentPools.createOrUpdate(w.rg, w.cluster, 'ib', ibPool(), {
        ifNoneMatch: '*',
        updateIntervalInMs: 5
      })
    )
    expect([e.statusCode, e.code]).toEqual([412, 'PreconditionFailed'])
  })

  it('refuses changing an immutable field with 400 PropertyChangeNotAllowed naming it', async () => {
    const { aks } = clients(w, undefined, 0)
    const driver = await rejection<any>(
      aks.agentPools.createOrUpdate(w.rg, w.cluster, 'ib', ibPool({ gpuProfile: { driver: 'Install' } }), {
        updateIntervalInMs: 5
      })
    )
    expect([driver.statusCode, driver.code]).toEqual([400, 'PropertyChangeNotAllowed'])
    expect(driver.message).toContain("'gpuProfile.driver'")
    const size = await rejection<any>(
      aks.agentPools.createOrUpdate(w.rg, w.cluster, 'ib', ibPool({ vmSize: 'Standard_ND96isr_H100_v5' }), {
        updateIntervalInMs: 5
      })
    )
    expect(size.code).toBe('PropertyChangeNotAllowed')
    expect(size.message).toContain("'vmSize'")
  })

  it('validates bodies against the schema (types, enums, pool name)', async () => {
    const { aks } = clients(w, undefined, 0)
    const badEnum = await rejection<any>(
      aks.agentPools.createOrUpdate(
        w.rg,
        w.cluster,
        'ib2',
        ibPool({ gpuProfile: { driver: 'Skip' as any } }),
        { updateIntervalInMs: 5 }
      )
    )
    expect([badEnum.statusCode, badEnum.code]).toEqual([400, 'InvalidParameter'])
    expect(badEnum.message).toContain('properties.gpuProfile.driver')
    const badType = await rejection<any>(
      aks.agentPools.createOrUpdate(w.rg, w.cluster, 'ib2', ibPool({ count: 'two' as any }), {
        updateIntervalInMs: 5
      })
    )
    expect([badType.statusCode, badType.code]).toEqual([400, 'InvalidRequestContent'])
    expect(badType.message).toContain('properties.count')
    const badName = await rejection<any>(
      aks.agentPools.createOrUpdate(w.rg, w.cluster, 'IB-pool', ibPool(), { updateIntervalInMs: 5 })
    )
    expect([badName.statusCode, badName.code]).toEqual([400, 'InvalidParameter'])
    expect(badName.message).toContain('agentPoolName')
    expect(w.sim.getPool('ib2')).toBeUndefined()
  })

  it('scales an existing pool (200 + LRO) and tells the backend the new count', async () => {
    const { aks } = clients(w)
    const pool = await aks.agentPools.createOrUpdate(w.rg, w.cluster, 'ib', ibPool({ count: 4 }), {
      updateIntervalInMs: 5
    })
    expect(pool).toMatchObject({ count: 4, provisioningState: 'Succeeded' })
    expect(w.backend.calls).toContain('count ib 4')
    expect(w.recorder.records.filter(r => r.method === 'PUT').map(r => r.status)).toContain(200)
  })

  it('lets the world change a pool behind the action’s back', async () => {
    const before = w.sim.getPool('ib').properties.eTag
    w.sim.setPool('ib', { count: 1, tags: { drifted: 'yes' } })
    const p = await clients(w).aks.agentPools.get(w.rg, w.cluster, 'ib')
    expect(p).toMatchObject({ count: 1, tags: { drifted: 'yes' } })
    expect(p.eTag).not.toBe(before)
    expect(w.backend.pools.get('ib')?.count).toBe(1)
  })

  it('deletes a pool as an LRO (202) and the backend removes its nodes', async () => {
    const { aks } = clients(w)
    await aks.agentPools.delete(w.rg, w.cluster, 'ib', { updateIntervalInMs: 5 })
    expect(w.backend.pools.has('ib')).toBe(false)
    expect(w.sim.getPool('ib')).toBeUndefined()
    expect(w.recorder.records.filter(r => r.method === 'DELETE').map(r => [r.status, r.mutating])).toEqual([
      [202, true]
    ])
  })
})

describe('pool provisioning failure and duration', () => {
  it('fails the LRO with the scenario error; the pool stays Failed and no nodes join', async () => {
    await withWorld(
      {
        poolProvisioning: {
          polls: 2,
          result: 'Failed',
          errorCode: 'SkuNotAvailable',
          errorMessage: 'The requested VM size is not available in eastus.'
        }
      },
      async w => {
        const { aks } = clients(w)
        const e = await rejection<any>(
          aks.agentPools.createOrUpdate(w.rg, w.cluster, 'ib', ibPool(), { updateIntervalInMs: 5 })
        )
        // core-lro turns a Failed status into a plain Error: "The long-running operation has failed. <code>. <message>"
        expect(e.message).toContain(
          'The long-running operation has failed. SkuNotAvailable. The requested VM size is not available'
        )
        expect((await aks.agentPools.get(w.rg, w.cluster, 'ib')).provisioningState).toBe('Failed')
        expect(w.backend.pools.has('ib')).toBe(false)
      }
    )
  })

  it('with poolProvisioning.duration the operation ends after that much simulated time', async () => {
    await withWorld({ poolProvisioning: { polls: 0, result: 'Succeeded', duration: '20s' } }, async w => {
      const { aks } = clients(w)
      const pool = await aks.agentPools.createOrUpdate(w.rg, w.cluster, 'ib', ibPool(), {
        updateIntervalInMs: 10
      })
      expect(pool.provisioningState).toBe('Succeeded')
      // on the simulated clock, never earlier than the duration
      expect(w.clock.now()).toBeGreaterThanOrEqual(20_000)
    })
  })
})

describe('a client that watches the pool instead of the operation', () => {
  it('sees a poll-counted create end after polls × 10 simulated seconds', async () => {
    // 2 polls × 10 s = 20 simulated s = 20 real s at time scale 1: the first read comes long
    // before, however busy the machine; then the test jumps the clock past them.
    await withWorld(
      { poolProvisioning: { polls: 2, result: 'Succeeded' } },
      async w => {
        const { aks } = clients(w)
        const poller = aks.agentPools.createOrUpdate(w.rg, w.cluster, 'ib', ibPool(), {
          updateIntervalInMs: 60_000
        })
        await poller.submitted()
        const submitted = w.clock.now()
        expect((await aks.agentPools.get(w.rg, w.cluster, 'ib')).provisioningState).toBe('Creating')
        // Still Creating just short of 20 simulated seconds after the create, Succeeded at 20.
        w.clock.advance(19_000 - (w.clock.now() - submitted))
        expect((await aks.agentPools.get(w.rg, w.cluster, 'ib')).provisioningState).toBe('Creating')
        w.clock.advance(1_000)
        expect((await aks.agentPools.get(w.rg, w.cluster, 'ib')).provisioningState).toBe('Succeeded')
        expect(w.backend.pools.has('ib')).toBe(true)
        expect(w.recorder.records.filter(r => r.path.includes('/operations/'))).toHaveLength(0)
      },
      { timeScale: 1 }
    )
  })
})

describe('cluster names', () => {
  it('bind lazily to the first names a client uses when the scenario sets none', async () => {
    await withWorld(
      {},
      async w => {
        const { aks } = clients(w, undefined, 0)
        const mc = await aks.managedClusters.get('rg-team', 'gpu-cluster')
        expect(mc.name).toBe('gpu-cluster')
        expect(mc.id).toContain('/resourcegroups/rg-team/')
        expect(w.sim.clusterName()).toEqual({ resourceGroup: 'rg-team', name: 'gpu-cluster' })
        expect((await rejection<any>(aks.managedClusters.get('rg-team', 'other'))).code).toBe(
          'ResourceNotFound'
        )
      },
      { timeScale: 0.01, namedCluster: false }
    )
  })
})
