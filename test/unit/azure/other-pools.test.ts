// The check of the cluster's other GPU pools (checkOtherGpuPools) over a fake agentPools.list that
// pages like the SDK's: which pools it warns about (GPU size, AKS-installed driver, not the RDMA
// pool), the exact warning in the singular and the plural, and a failed list turned into a
// warning of its own. The pure filter's basics are in pool-decisions.test.ts.
import { describe, expect, it } from '@jest/globals'
import { RestError } from '@azure/core-rest-pipeline'
import type { AgentPool } from '@azure/arm-containerservice'
import type { ArmClients } from '../../../src/azure/clients.js'
import {
  checkOtherGpuPools,
  isGpuVmSize,
  managedDriverPools,
  managedDriverWarning
} from '../../../src/azure/other-pools.js'
import { applySettings } from '../../support/apply-settings.js'

const settings = (over: Record<string, string> = {}) => applySettings(over, { GITHUB_RUN_ID: '5' })

const TAIL =
  "which Azure documents as exclusive with the GPU Operator's driver and container toolkit. The action confines the GPU Operator " +
  'and the NicClusterPolicy to pool rdmapool (NFD, by whose pci-10de label the GPU Operator finds GPU nodes, runs only there), ' +
  'so these pools are left alone. Should another NFD label them (kubectl get nodes -L nvidia.com/gpu.present), label their nodes ' +
  'nvidia.com/gpu.deploy.operands=false.'

/** ARM with the given pools in the cluster, yielded one by one as the SDK pager does; or a list that fails. */
function arm(pools: AgentPool[] | Error) {
  const calls: string[] = []
  const clients = {
    containerService: {
      agentPools: {
        list: (rg: string, cluster: string) => {
          calls.push(`LIST pools ${rg}/${cluster}`)
          return (async function* () {
            if (pools instanceof Error) throw pools
            for (const p of pools) yield p
          })()
        }
      }
    }
  } as unknown as ArmClients
  return { clients, calls }
}

describe('isGpuVmSize', () => {
  it.each([
    ['xStandard_NC6', false],
    ['Standard_N6', true],
    ['Standard_NCC40ads_H100_v5', true],
    ['Standard_NCads_', false],
    ['Standard_NC_x', false],
    ['Standard_D4s_v5', false]
  ])('only a size that starts with Standard_N, letters, then a digit: %s → %s', (size, gpu) => {
    expect(isGpuVmSize(size)).toBe(gpu)
  })
})

describe('managedDriverPools', () => {
  it('keeps every other GPU pool whose driver is Install or absent, in order, with ? for missing fields', () => {
    const s = settings()
    const pools: AgentPool[] = [
      { name: 'rdmapool', vmSize: 'Standard_NC24ads_A100_v4' },
      { name: 'RdmaPool', vmSize: 'Standard_NC24ads_A100_v4', gpuProfile: { driver: 'Install' } },
      { name: 'a', vmSize: 'Standard_NC6', gpuProfile: { driver: 'INSTALL' } },
      { name: 'b', vmSize: 'Standard_NC6', gpuProfile: {} },
      { name: 'c', vmSize: 'Standard_NC6', gpuProfile: { driver: 'None' } },
      { vmSize: 'Standard_NV6' },
      { name: 'nosize' },
      { name: 'cpu', vmSize: 'Standard_D4s_v5' }
    ]
    expect(managedDriverPools(pools, s)).toEqual([
      { name: 'a', vmSize: 'Standard_NC6' },
      { name: 'b', vmSize: 'Standard_NC6' },
      { name: '?', vmSize: 'Standard_NV6' }
    ])
  })

  it('names compare whole and case-insensitively with the RDMA pool’s', () => {
    const s = settings({ 'node-pool': 'gpu' })
    expect(
      managedDriverPools(
        [
          { name: 'gpu2', vmSize: 'Standard_NC6' },
          { name: 'GPU', vmSize: 'Standard_NC6' }
        ],
        s
      )
    ).toEqual([{ name: 'gpu2', vmSize: 'Standard_NC6' }])
  })

  it('nothing for no pools', () => {
    expect(managedDriverPools([], settings())).toEqual([])
  })
})

describe('managedDriverWarning', () => {
  it('one pool, in the singular, word for word', () => {
    expect(managedDriverWarning([{ name: 'gpu', vmSize: 'Standard_NC6' }], settings())).toBe(
      'pool gpu (Standard_NC6) has GPUs with the AKS-managed driver (gpuProfile.driver Install), ' + TAIL
    )
  })

  it('two pools, in the plural, joined with a comma', () => {
    expect(
      managedDriverWarning(
        [
          { name: 'a', vmSize: 'Standard_NC6' },
          { name: 'b', vmSize: 'Standard_NV12' }
        ],
        settings()
      )
    ).toBe(
      'pools a (Standard_NC6), b (Standard_NV12) have GPUs with the AKS-managed driver (gpuProfile.driver Install), ' +
        TAIL
    )
  })

  it('names the RDMA pool of the settings', () => {
    expect(
      managedDriverWarning([{ name: 'a', vmSize: 'Standard_NC6' }], settings({ 'node-pool': 'ib' }))
    ).toContain('and the NicClusterPolicy to pool ib (NFD,')
  })
})

describe('checkOtherGpuPools', () => {
  it('lists the pools of the cluster once and warns about the managed-driver ones', async () => {
    const a = arm([
      { name: 'system', vmSize: 'Standard_D4s_v5' },
      { name: 'rdmapool', vmSize: 'Standard_ND96isr_H100_v5', gpuProfile: { driver: 'None' } },
      { name: 'gpu', vmSize: 'Standard_NC24ads_A100_v4' },
      { name: 'gpu2', vmSize: 'Standard_NV36ads_A10_v5', gpuProfile: { driver: 'Install' } }
    ])
    expect(await checkOtherGpuPools(a.clients, settings())).toBe(
      'pools gpu (Standard_NC24ads_A100_v4), gpu2 (Standard_NV36ads_A10_v5) have GPUs with the AKS-managed driver (gpuProfile.driver Install), ' +
        TAIL
    )
    expect(a.calls).toEqual(['LIST pools rg/aks1'])
  })

  it('nothing to say when no other pool has the managed driver', async () => {
    const a = arm([
      { name: 'system', vmSize: 'Standard_D4s_v5' },
      { name: 'rdmapool', vmSize: 'Standard_ND96isr_H100_v5' },
      { name: 'gpu', vmSize: 'Standard_NC6', gpuProfile: { driver: 'None' } }
    ])
    expect(await checkOtherGpuPools(a.clients, settings())).toBeUndefined()
    expect(await checkOtherGpuPools(arm([]).clients, settings())).toBeUndefined()
  })

  it('a list that fails is a warning naming the ARM error, not a failure', async () => {
    const e = Object.assign(
      new RestError('The client does not have authorization', { statusCode: 403, code: 'Forbidden' }),
      { details: { error: { code: 'Forbidden', message: 'The client does not have authorization' } } }
    )
    expect(await checkOtherGpuPools(arm(e).clients, settings())).toBe(
      "could not list the cluster's agent pools to look for GPU pools with the AKS-managed driver: HTTP 403 Forbidden: The client does not have authorization"
    )
  })

  it('a failure after the first page still warns only about the list', async () => {
    const clients = {
      containerService: {
        agentPools: {
          list: () =>
            (async function* () {
              yield { name: 'gpu', vmSize: 'Standard_NC6' } as AgentPool
              throw new Error('socket hang up')
            })()
        }
      }
    } as unknown as ArmClients
    expect(await checkOtherGpuPools(clients, settings())).toBe(
      "could not list the cluster's agent pools to look for GPU pools with the AKS-managed driver: socket hang up"
    )
  })
})
