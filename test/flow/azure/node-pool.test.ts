// The RDMA node pool against the simulated AKS through the real ContainerServiceClient: create,
// reuse without writes, refusal of an incompatible pool before any write, provisioning failure,
// the If-None-Match race, pools still settling, and transient faults survived by the retries.
import { describe, expect, it } from '@jest/globals'
import type { AgentPool } from '@azure/arm-containerservice'
import {
  comparePool,
  desiredAgentPool,
  ensureNodePool,
  NodePoolError,
  TAG_CREATED_BY,
  TAG_MANAGED,
  untoleratedPoolTaints
} from '../../../src/azure/node-pool.js'
import type { Settings } from '../../../src/settings/settings.js'
import { armFixture, leaks, settingsFor, type TestWorld } from '../../support/azure-world.js'
import { COMPATIBLE_POOL, POLL_FAST, worldForTest } from '../../support/azure-test-world.js'
import { rejection as failure } from '../../support/rejection.js'

let world: TestWorld | undefined

const armWrites = (w: TestWorld) => w.recorder.records.filter(r => r.service === 'arm' && r.mutating)

describe('desiredAgentPool / comparePool (pure)', () => {
  it('builds a User pool with gpuProfile.driver None, labels, taints, zones and run tags, never SkipGPUDriverInstall', async () => {
    world = await worldForTest()
    const s = settingsFor(world, {
      nodePool: {
        taints: [
          { key: 'rdma', value: 'true', effect: 'NoSchedule' },
          { key: 'gpu', value: '', effect: 'NoExecute' }
        ],
        zones: ['1', '2']
      }
    })
    const body = desiredAgentPool(s)
    expect(body).toEqual({
      vmSize: 'Standard_ND96asr_v4',
      count: 2,
      osType: 'Linux',
      osSKU: 'Ubuntu2204',
      mode: 'User',
      gpuProfile: { driver: 'None' },
      nodeLabels: { 'rdma.example/ib': 'true' },
      nodeTaints: ['rdma=true:NoSchedule', 'gpu:NoExecute'],
      availabilityZones: ['1', '2'],
      tags: { [TAG_MANAGED]: 'true', [TAG_CREATED_BY]: s.runId }
    })
    expect(JSON.stringify(body)).not.toMatch(/SkipGPUDriverInstall/i)
    // ARM tag names may not contain `/`.
    for (const k of Object.keys(body.tags ?? {})) expect(k).not.toMatch(/[<>%&\\?/]/)
  })

  it('compares field by field, treating an absent gpuProfile as Install', () => {
    const desired: AgentPool = {
      vmSize: 'Standard_ND96asr_v4',
      count: 2,
      osSKU: 'Ubuntu2204',
      gpuProfile: { driver: 'None' },
      nodeLabels: { a: '1' },
      nodeTaints: ['x=y:NoSchedule']
    }
    const target = { subscriptionId: 'sub-1', resourceGroup: 'rg', cluster: 'aks', pool: 'rdma' }
    expect(comparePool(desired, { ...desired, name: 'rdma' }, target)).toEqual([])
    const diffs = comparePool(
      desired,
      { name: 'rdma', vmSize: 'standard_nd96asr_v4', count: 4, osSKU: 'Ubuntu', nodeLabels: { a: '2' } },
      target
    )
    expect(diffs.map(d => [d.field, d.desired, d.actual, d.immutable, d.fixableByApply])).toEqual([
      ['osSKU', 'Ubuntu2204', 'Ubuntu', true, false],
      ['gpuProfile.driver', 'None', 'Install', true, false],
      ['count', '2', '4', false, false],
      ['nodeLabels', 'a=1', 'a=2', false, false],
      ['nodeTaints', 'x=y:NoSchedule', '(none)', false, false]
    ])
    // Every fix runs as printed: the subscription, the resource group and the cluster are in it.
    expect(Object.fromEntries(diffs.map(d => [d.field, d.fix]))).toEqual({
      osSKU:
        'fixed at creation: choose another node-pool name, or delete the pool (`az aks nodepool delete --subscription sub-1 --resource-group rg --cluster-name aks --name rdma`) and re-run',
      'gpuProfile.driver': expect.stringContaining('(`az aks nodepool delete --subscription sub-1'),
      count: 'set node-count: 4 to match the pool (it has more nodes than node-count; nothing is removed)',
      nodeLabels:
        '`az aks nodepool update --subscription sub-1 --resource-group rg --cluster-name aks --name rdma --labels a=1`',
      nodeTaints:
        '`az aks nodepool update --subscription sub-1 --resource-group rg --cluster-name aks --name rdma --node-taints x=y:NoSchedule`'
    })
    // az refuses a taint without a value: no command for it, the inputs instead.
    const valueless = comparePool(
      { ...desired, nodeTaints: ['gpu:NoExecute'] },
      { ...desired, name: 'rdma', nodeTaints: [] },
      target
    )
    expect(valueless[0].fix).toBe(
      'the Azure CLI sets no taint without a value (gpu:NoExecute): recreate the pool with them, or set node-taints: ""'
    )
  })
})

describe('ensureNodePool', () => {
  it('creates an absent pool with If-None-Match and logs progress on each poll', async () => {
    world = await worldForTest({ azure: { poolProvisioning: { polls: 3, result: 'Succeeded' } } })
    const { clients, settings, log } = armFixture(world)
    const r = await ensureNodePool(clients, settings, { log, ...POLL_FAST })
    expect(r.action).toBe('created')
    expect(r.warnings).toEqual([])
    expect(r.pool.provisioningState).toBe('Succeeded')
    const live = world.sim.getPool('rdma')
    expect(live.properties).toMatchObject({
      vmSize: 'Standard_ND96asr_v4',
      count: 2,
      osSKU: 'Ubuntu2204',
      mode: 'User',
      gpuProfile: { driver: 'None' },
      nodeLabels: { 'rdma.example/ib': 'true' },
      tags: { [TAG_CREATED_BY]: settings.runId, [TAG_MANAGED]: 'true' },
      provisioningState: 'Succeeded'
    })
    expect(armWrites(world).map(w => w.method)).toEqual(['PUT'])
    expect(world.backend.calls).toContain('addPool rdma 2')
    expect(log.text()).toMatch(/node pool rdma: Creating \(\d+(ms|s) elapsed\)/)
    expect(log.text()).toMatch(/node pool rdma: created/)
    expect(leaks(world, log.text())).toEqual([])
  })

  it('reuses a compatible existing pool without any write', async () => {
    world = await worldForTest({ azure: { existingPools: [COMPATIBLE_POOL] } })
    world.sim.setPool('rdma', { nodeLabels: { 'rdma.example/ib': 'true' } })
    const { clients, settings, log } = armFixture(world)
    const r = await ensureNodePool(clients, settings, { log, ...POLL_FAST })
    expect(r.action).toBe('reused')
    expect(r.warnings).toEqual([])
    expect(world.recorder.counts().arm.mutating).toBe(0)
    expect(log.text()).toMatch(/reusing the existing pool/)
  })

  it('reuses a pool of another size count with a warning, not a change', async () => {
    world = await worldForTest({ azure: { existingPools: [{ ...COMPATIBLE_POOL, count: 4 }] } })
    const { clients, settings, log } = armFixture(world, { nodePool: { labels: {} } })
    const r = await ensureNodePool(clients, settings, { log, ...POLL_FAST })
    expect(r.action).toBe('reused')
    expect(r.warnings).toHaveLength(1)
    expect(r.warnings[0]).toMatch(/count 4, inputs ask for 2/)
    expect(log.warnings).toEqual(r.warnings)
    expect(world.recorder.counts().arm.mutating).toBe(0)
  })

  it('refuses an existing pool whose taints node-taints does not list (the stack would never run there), before any write', async () => {
    world = await worldForTest({
      azure: {
        existingPools: [
          { ...COMPATIBLE_POOL, nodeTaints: ['sku=gpu:NoSchedule', 'soft=yes:PreferNoSchedule'] }
        ]
      }
    })
    const { clients, settings, log } = armFixture(world, { nodePool: { labels: {} } })
    const err = await failure(ensureNodePool(clients, settings, { log, ...POLL_FAST }))
    expect(err.message).toContain(
      "node pool rdma: its nodes carry taint sku=gpu:NoSchedule that node-taints does not list; the stack's pods tolerate exactly node-taints"
    )
    expect(err.message).toContain('Fix: set node-taints: sku=gpu:NoSchedule')
    expect(world.recorder.counts().arm.mutating).toBe(0)
    // Listed: reused (PreferNoSchedule only warns as any other taint difference does).
    const listed = armFixture(world, {
      nodePool: { labels: {}, taints: [{ key: 'sku', value: 'gpu', effect: 'NoSchedule' }] }
    })
    const r = await ensureNodePool(listed.clients, listed.settings, { log: listed.log, ...POLL_FAST })
    expect(r.action).toBe('reused')
  })

  it('matches the pool taints against node-taints as the scheduler does: a valueless entry tolerates any value', () => {
    const base = (taints: Settings['nodePool']['taints']) =>
      ({
        nodePool: { name: 'rdma', taints },
        azure: { subscriptionId: 'sub-1' },
        cluster: { resourceGroup: 'rg', name: 'aks' }
      }) as unknown as Settings
    const live = { nodeTaints: ['sku=gpu:NoSchedule'] }
    expect(
      untoleratedPoolTaints(base([{ key: 'sku', value: '', effect: 'NoSchedule' }]), live)
    ).toBeUndefined()
    expect(
      untoleratedPoolTaints(base([{ key: 'sku', value: 'gpu', effect: 'NoSchedule' }]), live)
    ).toBeUndefined()
    expect(
      untoleratedPoolTaints(base([{ key: 'sku', value: 'cpu', effect: 'NoSchedule' }]), live)?.message
    ).toMatch(/^node pool rdma: its nodes carry taint sku=gpu:NoSchedule that node-taints does not list/)
    // The fix removes it with a command that runs as printed.
    expect(
      untoleratedPoolTaints(base([{ key: 'sku', value: 'cpu', effect: 'NoSchedule' }]), live)?.message
    ).toMatch(
      /\(az aks nodepool update --subscription sub-1 --resource-group rg --cluster-name aks --name rdma --node-taints ''\)\.$/
    )
    expect(
      untoleratedPoolTaints(base([{ key: 'sku', value: 'gpu', effect: 'NoExecute' }]), live)
    ).toBeInstanceOf(NodePoolError)
  })

  it('refuses an incompatible pool before any write, listing each difference and the fix', async () => {
    world = await worldForTest({
      azure: {
        existingPools: [{ name: 'rdma', vmSize: 'Standard_ND40rs_v2', count: 2, osSKU: 'Ubuntu2204' }]
      }
    })
    const { clients, settings, log } = armFixture(world)
    const err = await failure(ensureNodePool(clients, settings, { log, ...POLL_FAST }))
    expect(err.message).toMatch(/vmSize: wanted Standard_ND96asr_v4, found Standard_ND40rs_v2/)
    expect(err.message).toMatch(/gpuProfile\.driver: wanted None, found Install/)
    expect(err.message).toMatch(/node-pool-name|delete the pool/)
    expect(err.message).toMatch(/nothing was changed/)
    expect(world.recorder.counts().arm.mutating).toBe(0)
  })

  it('a provisioning failure reports ARM code and message', async () => {
    world = await worldForTest({
      azure: {
        poolProvisioning: {
          polls: 2,
          result: 'Failed',
          errorCode: 'OverconstrainedAllocationRequest',
          errorMessage: 'Allocation failed. VM(s) with the following constraints cannot be allocated.'
        }
      }
    })
    const { clients, settings, log } = armFixture(world)
    const err = await failure(ensureNodePool(clients, settings, { log, ...POLL_FAST }))
    expect(err.message).toMatch(
      /node pool rdma: provisioning Failed: OverconstrainedAllocationRequest: Allocation failed\. VM\(s\) with the following constraints/
    )
    expect(err.message).toMatch(/az aks nodepool delete/)
  })

  it('a pool appearing between the read and the create (HTTP 412) is re-read and reused, and not claimed', async () => {
    // The first GET misses the pool (as if it did not exist yet); the PUT with If-None-Match: *
    // then finds it and answers 412.
    world = await worldForTest({
      azure: {
        existingPools: [COMPATIBLE_POOL],
        faults: [{ match: 'GET */agentPools/rdma', status: 404, times: 1 }]
      }
    })
    const { clients, settings, log } = armFixture(world)
    // What the run's saved state says it created, as the flow keeps it (core.saveState).
    const saved: string[] = []
    const r = await ensureNodePool(clients, settings, {
      log,
      ...POLL_FAST,
      onCreateSubmit: c => saved.push(`submitted ${c.pool} by ${c.createdBy}`),
      onCreateRefused: () => saved.push('withdrawn')
    })
    expect(r.action).toBe('reused')
    // Announced before the PUT, withdrawn on its 412: the post step never deletes the reused pool.
    expect(saved).toEqual([`submitted rdma by ${settings.runId}`, 'withdrawn'])
    const statuses = world.recorder.records
      .filter(x => x.path.endsWith('/agentPools/rdma'))
      .map(x => `${x.method} ${x.status}`)
    expect(statuses).toEqual(['GET 404', 'PUT 412', 'GET 200'])
    expect(log.text()).toMatch(/HTTP 412/)
  })

  it('waits for an existing pool that is still Updating, then reuses it', async () => {
    world = await worldForTest({
      azure: { existingPools: [{ ...COMPATIBLE_POOL, provisioningState: 'Updating' }] }
    })
    const { clients, settings, log } = armFixture(world)
    const w = world
    // The pool settles only once the action says it is waiting for it (an event, not a delay).
    const settled = (async () => {
      while (!/exists and is Updating; waiting/.test(log.text())) await new Promise(r => setTimeout(r, 10))
      w.sim.setPool('rdma', { provisioningState: 'Succeeded' })
    })()
    const r = await ensureNodePool(clients, settings, { log, ...POLL_FAST })
    await settled
    expect(r.action).toBe('reused')
    expect(log.text()).toMatch(/exists and is Updating; waiting/)
    expect(world.recorder.counts().arm.mutating).toBe(0)
  })

  it('an existing Failed pool is an error, not reused', async () => {
    world = await worldForTest({
      azure: { existingPools: [{ ...COMPATIBLE_POOL, provisioningState: 'Failed' }] }
    })
    const { clients, settings, log } = armFixture(world)
    const err = await failure(ensureNodePool(clients, settings, { log, ...POLL_FAST }))
    expect(err.message).toMatch(/provisioning Failed/)
    expect(world.recorder.counts().arm.mutating).toBe(0)
  })

  it('times out naming the step and the last state seen', async () => {
    world = await worldForTest({ azure: { poolProvisioning: { polls: 100000, result: 'Succeeded' } } })
    const { clients, settings, log } = armFixture(world)
    const err = await failure(ensureNodePool(clients, settings, { log, timeoutMs: 3000, pollIntervalMs: 20 }))
    expect(err.name).toBe('AzureWaitTimeoutError')
    expect(err.message).toMatch(/^node pool rdma: timed out after .*; last state seen: Creating/)
  })
})

describe('transient ARM failures', () => {
  it('survives 429 without Retry-After, 500s and a connection reset', async () => {
    world = await worldForTest({
      azure: {
        faults: [
          { match: 'GET */agentPools/rdma', status: 429, times: 2 },
          { match: 'PUT */agentPools/rdma', status: 500, times: 2 },
          { match: 'GET */operations/*', reset: true, times: 1 }
        ]
      }
    })
    const { clients, settings, log } = armFixture(world)
    const r = await ensureNodePool(clients, settings, { log, ...POLL_FAST })
    expect(r.action).toBe('created')
    const statuses = world.recorder.records.filter(x => x.service === 'arm').map(x => x.status)
    expect(statuses.filter(s => s === 429)).toHaveLength(2)
    expect(statuses.filter(s => s === 500)).toHaveLength(2)
    expect(statuses.filter(s => s === 0)).toHaveLength(1)
    // The create was sent until it got through, and only one pool exists.
    expect(world.backend.calls.filter(c => c.startsWith('addPool rdma'))).toHaveLength(1)
  })

  it('without the action policy, a 429 without Retry-After is not retried by the SDK (why the policy exists)', async () => {
    world = await worldForTest({
      azure: { faults: [{ match: 'GET */agentPools/rdma', status: 429, times: 1 }] }
    })
    const { clients, settings, log } = armFixture(world, {}, 0)
    const err = await failure(ensureNodePool(clients, settings, { log, ...POLL_FAST }))
    expect(err.message).toMatch(/HTTP 429 TooManyRequests/)
    expect(world.recorder.counts().arm.mutating).toBe(0)
  })

  it('gives up after settings.wait.retries and names the step', async () => {
    world = await worldForTest({ azure: { faults: [{ match: 'GET */agentPools/rdma', status: 429 }] } })
    const { clients, settings, log } = armFixture(world, {}, 2)
    const err = await failure(ensureNodePool(clients, settings, { log, ...POLL_FAST }))
    expect(err.message).toMatch(/^node pool rdma: reading it failed: HTTP 429/)
    expect(world.recorder.records.filter(x => x.status === 429)).toHaveLength(3)
  })
})
