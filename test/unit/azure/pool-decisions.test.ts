// The Azure decisions made without a call: an existing pool compared with the desired one field by
// field (what is fixed at creation, the az command that fixes the rest), tags read as ARM stores
// them, the refusals of an incompatible or untolerated pool, the other GPU pools with the
// AKS-managed driver, and a saved create the post step must not trust.
import type { AgentPool } from '@azure/arm-containerservice'
import { savedStateMismatch } from '../../../src/azure/cleanup.js'
import {
  comparePool,
  desiredAgentPool,
  tagValue,
  untoleratedPoolTaints
} from '../../../src/azure/node-pool.js'
import { isGpuVmSize, managedDriverPools, managedDriverWarning } from '../../../src/azure/other-pools.js'
import { applySettings } from '../../support/apply-settings.js'

const settings = (over: Record<string, string> = {}) => applySettings(over, { GITHUB_RUN_ID: '5' })
const T = { resourceGroup: 'rg', cluster: 'aks1', pool: 'rdmapool' }
const NP = 'az aks nodepool'

describe('an existing pool compared with the desired one', () => {
  const desired: AgentPool = {
    vmSize: 'Standard_ND96isr_H100_v5',
    count: 2,
    osType: 'Linux',
    osSKU: 'Ubuntu',
    gpuProfile: { driver: 'None' },
    nodeLabels: { b: '2', a: '1' },
    nodeTaints: ['x=1:NoSchedule']
  }

  it('finds nothing when they agree, whatever the case of sizes and the order of labels and taints', () => {
    const live: AgentPool = {
      ...desired,
      vmSize: 'standard_nd96isr_h100_v5',
      osSKU: 'ubuntu',
      gpuProfile: { driver: 'none' },
      nodeLabels: { a: '1', b: '2' }
    }
    expect(comparePool(desired, live, T)).toEqual([])
    // Absent fields read as the API's defaults: Linux, Ubuntu.
    const { osType: _o, osSKU: _s, ...bare } = desired
    expect(comparePool(bare, { ...bare }, T)).toEqual([])
  })

  it('names each field fixed at creation, and how to get another pool', () => {
    const recreate = `fixed at creation: choose another node-pool name, or delete the pool (\`${NP} delete --resource-group rg --cluster-name aks1 --name rdmapool\`) and re-run`
    const live: AgentPool = {
      ...desired,
      vmSize: 'Standard_ND96asr_v4',
      osType: 'Windows',
      osSKU: 'AzureLinux',
      gpuProfile: {}
    }
    expect(comparePool(desired, live, T)).toEqual([
      {
        field: 'vmSize',
        desired: 'Standard_ND96isr_H100_v5',
        actual: 'Standard_ND96asr_v4',
        fixableByApply: false,
        immutable: true,
        fix: recreate
      },
      {
        field: 'osType',
        desired: 'Linux',
        actual: 'Windows',
        fixableByApply: false,
        immutable: true,
        fix: recreate
      },
      {
        field: 'osSKU',
        desired: 'Ubuntu',
        actual: 'AzureLinux',
        fixableByApply: false,
        immutable: true,
        fix: recreate
      },
      {
        field: 'gpuProfile.driver',
        desired: 'None',
        actual: 'Install',
        fixableByApply: false,
        immutable: true,
        fix: `${recreate} (the GPU Operator needs driver None; a pool with the AKS-installed driver conflicts with it)`
      }
    ])
  })

  it('gives the az command for the count, labels and taints, which can change in place', () => {
    const live: AgentPool = {
      ...desired,
      count: 3,
      nodeLabels: {},
      nodeTaints: ['y=2:NoExecute', 'x=1:NoSchedule']
    }
    expect(comparePool(desired, live, T)).toEqual([
      {
        field: 'count',
        desired: '2',
        actual: '3',
        fixableByApply: false,
        immutable: false,
        // Never a scale-down of a live pool: node-count is to follow it.
        fix: 'set node-count: 3 to match the pool (it has more nodes than node-count; nothing is removed)'
      },
      {
        field: 'nodeLabels',
        desired: 'a=1,b=2',
        actual: '(none)',
        fixableByApply: false,
        immutable: false,
        fix: `\`${NP} update --resource-group rg --cluster-name aks1 --name rdmapool --labels a=1 b=2\``
      },
      {
        field: 'nodeTaints',
        desired: 'x=1:NoSchedule',
        actual: 'x=1:NoSchedule,y=2:NoExecute',
        fixableByApply: false,
        immutable: false,
        fix: `\`${NP} update --resource-group rg --cluster-name aks1 --name rdmapool --node-taints x=1:NoSchedule\``
      }
    ])
  })

  it('says the Azure CLI cannot set a taint without a value', () => {
    const d = comparePool({ ...desired, nodeTaints: ['gpu:NoSchedule'] }, { ...desired, nodeTaints: [] }, T)
    expect(d).toEqual([
      expect.objectContaining({
        field: 'nodeTaints',
        desired: 'gpu:NoSchedule',
        actual: '(none)',
        fix: 'the Azure CLI sets no taint without a value (gpu:NoSchedule): recreate the pool with them, or set node-taints: ""'
      })
    ])
    const other = comparePool(
      { ...desired, nodeTaints: ['gpu:NoSchedule'] },
      { ...desired, nodeTaints: ['a=b:NoSchedule'] },
      T
    )
    expect(other[0].fix).toMatch(/or set node-taints: a=b:NoSchedule$/)
  })

  it('the desired pool is the settings’ agent pool body', () => {
    const s = settings()
    expect(desiredAgentPool(s)).toMatchObject({
      vmSize: s.nodePool.vmSize,
      count: 2,
      gpuProfile: { driver: 'None' }
    })
  })
})

describe('tags, read as ARM stores them', () => {
  it('case-insensitively, also in the a/b spelling', () => {
    expect(tagValue({ 'AKS-RDMA-ACTION-MANAGED': 'true' }, 'aks-rdma-action-managed')).toBe('true')
    expect(tagValue({ 'aks-rdma-action/created-by': 'run-1' }, 'aks-rdma-action-created-by')).toBe('run-1')
    expect(tagValue({ other: 'x' }, 'aks-rdma-action-managed')).toBeUndefined()
    expect(tagValue(undefined, 'aks-rdma-action-managed')).toBeUndefined()
  })
})

describe('a pool whose taints the stack does not tolerate', () => {
  it('is refused naming the taints, the input to set and the command that removes them', () => {
    const s = settings({ 'node-taints': 'sku=gpu:NoSchedule' })
    const live: AgentPool = {
      nodeTaints: ['sku=gpu:NoSchedule', 'team=ml:NoExecute', 'soft=1:PreferNoSchedule']
    }
    const e = untoleratedPoolTaints(s, live)!
    expect(e.name).toBe('NodePoolError')
    expect(e.message).toBe(
      "node pool rdmapool: its nodes carry taint team=ml:NoExecute that node-taints does not list; the stack's pods tolerate exactly node-taints, so they would never be scheduled there (nothing was changed).\n" +
        `Fix: set node-taints: sku=gpu:NoSchedule,team=ml:NoExecute, or remove the taint from the pool (${NP} update --subscription ${s.azure.subscriptionId} --resource-group rg --cluster-name aks1 --name rdmapool --node-taints sku=gpu:NoSchedule,soft=1:PreferNoSchedule).`
    )
    expect(untoleratedPoolTaints(s, { nodeTaints: ['sku=gpu:NoSchedule'] })).toBeUndefined()
    expect(untoleratedPoolTaints(s, {})).toBeUndefined()
  })

  it('several taints in the plural; a valueless one only in the input', () => {
    const s = settings()
    const e = untoleratedPoolTaints(s, { nodeTaints: ['a=1:NoSchedule', 'b:NoExecute'] })!
    expect(e.message).toMatch(/carry taints a=1:NoSchedule, b:NoExecute that node-taints/)
    expect(e.message).toMatch(
      /Fix: set node-taints: a=1:NoSchedule,b:NoExecute, or remove the taint from the pool \(.* --node-taints ''\)\.$/
    )
    // When a taint the pool keeps has no value, the Azure CLI cannot write the rest: no command then.
    const kept = untoleratedPoolTaints(settings({ 'node-taints': 'k:NoSchedule' }), {
      nodeTaints: ['k:NoSchedule', 'a=1:NoSchedule']
    })!
    expect(kept.message).toMatch(/Fix: set node-taints: k:NoSchedule,a=1:NoSchedule\.$/)
    // A valueless entry in node-taints tolerates any value of that key.
    expect(
      untoleratedPoolTaints(settings({ 'node-taints': 'a:NoSchedule' }), { nodeTaints: ['a=1:NoSchedule'] })
    ).toBeUndefined()
  })
})

describe('other GPU pools with the AKS-managed driver', () => {
  it('N-series sizes only, the RDMA pool left out, an absent driver counted as Install', () => {
    expect(
      ['Standard_NC24ads_A100_v4', 'standard_nd40rs_v2', 'Standard_NV36ads_A10_v5'].every(isGpuVmSize)
    ).toBe(true)
    expect(['Standard_D4s_v5', 'Standard_N', 'Standard_E8s_v5'].some(isGpuVmSize)).toBe(false)
    const s = settings()
    const pools: AgentPool[] = [
      { name: 'RDMAPOOL', vmSize: 'Standard_ND96isr_H100_v5' },
      { name: 'gpu', vmSize: 'Standard_NC24ads_A100_v4' },
      { name: 'gpunone', vmSize: 'Standard_NC24ads_A100_v4', gpuProfile: { driver: 'None' } },
      { name: 'gpuinstall', vmSize: 'Standard_NV36ads_A10_v5', gpuProfile: { driver: 'install' } },
      { name: 'system', vmSize: 'Standard_D4s_v5' }
    ]
    const found = managedDriverPools(pools, s)
    expect(found).toEqual([
      { name: 'gpu', vmSize: 'Standard_NC24ads_A100_v4' },
      { name: 'gpuinstall', vmSize: 'Standard_NV36ads_A10_v5' }
    ])
    expect(managedDriverWarning(found, s)).toMatch(
      /^pools gpu \(Standard_NC24ads_A100_v4\), gpuinstall \(Standard_NV36ads_A10_v5\) have GPUs with the AKS-managed driver/
    )
    expect(managedDriverWarning(found.slice(0, 1), s)).toMatch(
      /^pool gpu \(Standard_NC24ads_A100_v4\) has GPUs/
    )
    expect(managedDriverWarning(found, s)).toContain('to pool rdmapool (NFD')
  })
})

describe('a saved create the post step must not trust', () => {
  it('names each part that is not this job’s', () => {
    const s = settings()
    const mine = { resourceGroup: 'rg', cluster: 'aks1', pool: 'rdmapool', createdBy: s.runId }
    expect(savedStateMismatch(s, mine)).toBeUndefined()
    expect(savedStateMismatch(s, { ...mine, pool: undefined })).toBeUndefined()
    expect(
      savedStateMismatch(s, { ...mine, resourceGroup: 'other', pool: 'p2', createdBy: 'x'.repeat(100) })
    ).toBe(
      `the saved state names resource group other (this job: rg), node pool p2 (this job: rdmapool), created-by identity ${'x'.repeat(80)} (this job: ${s.runId}); not trusted`
    )
    expect(savedStateMismatch(s, { ...mine, cluster: 'c2' })).toBe(
      'the saved state names cluster c2 (this job: aks1); not trusted'
    )
  })
})
