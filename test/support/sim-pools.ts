// The node pools of the flow tests' simulated clusters: AKS's system pool and a user pool of RDMA
// nodes (CONTRIBUTING.md, "Tests").
import type { SimPool } from '../../sim/contracts.js'

/** The one-node system pool every AKS cluster has. */
export const SYSTEM_POOL: SimPool = {
  name: 'system',
  vmSize: 'Standard_D4s_v5',
  count: 1,
  osSku: 'Ubuntu',
  mode: 'System',
  kubernetesVersion: '1.33'
}

/** A user pool of `count` RDMA nodes of `vmSize`, tainted when `taints` is given. */
export function userPool(name: string, vmSize: string, count: number, taints?: string[]): SimPool {
  return { ...SYSTEM_POOL, name, vmSize, count, mode: 'User', ...(taints ? { taints } : {}) }
}
