// The Azure half's agent pool schema table and response shapes against the official REST
// fixtures (spec excerpt and examples in test/fixtures/azure-rest).
import { readFileSync } from 'node:fs'
import path from 'node:path'
import {
  AGENT_POOL_NAME,
  AGENT_POOL_PROPERTIES,
  CLUSTER_NAME,
  GPU_DRIVER
} from '../../../sim/azure/arm/agent-pool-schema.js'
import { clients, startWorld } from '../../support/sim-azure-world.js'

const fixtures = path.resolve(process.cwd(), 'test/fixtures/azure-rest')
const load = (f: string) => JSON.parse(readFileSync(path.join(fixtures, f), 'utf8'))

describe('agent pool schema table', () => {
  const spec = load('definitions-excerpt.json')
  const props = spec.definitions.ManagedClusterAgentPoolProfileProperties.properties as Record<string, any>

  it('has exactly the properties of ManagedClusterAgentPoolProfileProperties', () => {
    expect(Object.keys(AGENT_POOL_PROPERTIES).sort()).toEqual(Object.keys(props).sort())
  })

  it('agrees on every type, enum, range and read-only flag the excerpt states', () => {
    for (const [name, def] of Object.entries(props)) {
      const mine = AGENT_POOL_PROPERTIES[name]
      if (def.type) expect([name, mine.type]).toEqual([name, def.type])
      if (def.enum) expect([name, mine.enum]).toEqual([name, def.enum])
      if (def.minimum !== undefined) expect([name, mine.minimum]).toEqual([name, def.minimum])
      if (def.maximum !== undefined) expect([name, mine.maximum]).toEqual([name, def.maximum])
      expect([name, !!mine.readOnly]).toEqual([name, !!def.readOnly])
      if (def.items?.type) expect([name, mine.items?.type]).toEqual([name, def.items.type])
      if (def.additionalProperties?.type)
        expect([name, mine.additionalProperties?.type]).toEqual([name, def.additionalProperties.type])
      if (def.$ref && !spec.definitions[def.$ref.split('/').pop()])
        expect(['string', 'object']).toContain(mine.type)
    }
    expect(GPU_DRIVER.enum).toEqual(spec.definitions.GPUDriver.enum)
    expect(AGENT_POOL_PROPERTIES.gpuProfile.properties?.driver).toBe(GPU_DRIVER)
  })

  it('uses the path patterns of AgentPools_CreateOrUpdate', () => {
    const params = Object.values(spec.paths)[0] as any
    const byName = Object.fromEntries(
      params.put.parameters.filter((p: any) => p.name).map((p: any) => [p.name, p])
    )
    expect(AGENT_POOL_NAME.source).toBe(byName.agentPoolName.pattern)
    expect(CLUSTER_NAME.source).toBe(byName.resourceName.pattern)
  })
})

describe('response shapes', () => {
  it('pool, feature and credential bodies carry the keys of the official examples', async () => {
    const w = await startWorld()
    try {
      expect((await clients(w).aks.agentPools.get(w.rg, w.cluster, 'system')).name).toBe('system')
      const pool = w.sim.getPool('system')
      const example = load('AgentPoolsGet.json').responses['200'].body
      expect(Object.keys(pool)).toEqual(expect.arrayContaining(Object.keys(example)))
      expect(Object.keys(pool.properties)).toEqual(expect.arrayContaining(Object.keys(example.properties)))
      const feature = await clients(w).features.features.get(
        'Microsoft.ContainerService',
        'AKSInfinibandSupport'
      )
      for (const k of Object.keys(load('getFeature.json').responses['200'].body))
        expect(feature).toHaveProperty(k)
      const creds = await clients(w).aks.managedClusters.listClusterUserCredentials(w.rg, w.cluster)
      const exampleCreds = load('ManagedClustersListClusterUserCredentials.json').responses['200'].body
      expect(Object.keys(creds.kubeconfigs![0]).sort()).toEqual(
        Object.keys(exampleCreds.kubeconfigs[0]).sort()
      )
    } finally {
      await w.sim.close()
    }
  })
})
