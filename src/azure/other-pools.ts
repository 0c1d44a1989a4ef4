// Warns (apply mode only) about other GPU pools with the AKS-managed driver, which the GPU Operator
// confinement leaves alone. See docs/design.md ("What the stack touches beyond the pool").
import type { AgentPool } from '@azure/arm-containerservice'
import type { Settings } from '../settings/settings.js'
import { describeArmError } from './arm-errors.js'
import type { ArmClients } from './clients.js'

export interface ManagedDriverPool {
  name: string
  vmSize: string
}

/** N-series sizes carry GPUs (NC, ND, NG, NV …). */
export function isGpuVmSize(vmSize: string): boolean {
  return /^Standard_N[A-Z]*\d/i.test(vmSize)
}

/** Pools other than the RDMA pool with a GPU size and the AKS-installed driver (absent driver means Install). */
export function managedDriverPools(pools: AgentPool[], s: Settings): ManagedDriverPool[] {
  return pools
    .filter(p => (p.name ?? '').toLowerCase() !== s.nodePool.name.toLowerCase())
    .filter(p => isGpuVmSize(p.vmSize ?? ''))
    .filter(p => (p.gpuProfile?.driver ?? 'Install').toLowerCase() === 'install')
    .map(p => ({ name: p.name ?? '?', vmSize: p.vmSize ?? '?' }))
}

/** The warning for those pools: why it matters, why the action goes on, what to check. */
export function managedDriverWarning(pools: ManagedDriverPool[], s: Settings): string {
  const list = pools.map(p => `${p.name} (${p.vmSize})`).join(', ')
  return (
    `pool${pools.length > 1 ? 's' : ''} ${list} ${pools.length > 1 ? 'have' : 'has'} GPUs with the AKS-managed driver (gpuProfile.driver Install), ` +
    "which Azure documents as exclusive with the GPU Operator's driver and container toolkit. The action confines the GPU Operator " +
    `and the NicClusterPolicy to pool ${s.nodePool.name} (NFD, by whose pci-10de label the GPU Operator finds GPU nodes, runs only there), ` +
    'so these pools are left alone. Should another NFD label them (kubectl get nodes -L nvidia.com/gpu.present), label their nodes ' +
    'nvidia.com/gpu.deploy.operands=false.'
  )
}

/** Lists the cluster's pools and returns the warning, if any; a failed list is a warning itself (the run goes on). */
export async function checkOtherGpuPools(clients: ArmClients, s: Settings): Promise<string | undefined> {
  const { resourceGroup, name: cluster } = s.cluster
  const pools: AgentPool[] = []
  try {
    for await (const p of clients.containerService.agentPools.list(resourceGroup, cluster)) pools.push(p)
  } catch (e) {
    return `could not list the cluster's agent pools to look for GPU pools with the AKS-managed driver: ${describeArmError(e)}`
  }
  const found = managedDriverPools(pools, s)
  return found.length ? managedDriverWarning(found, s) : undefined
}
