// What every ARM handler shares: the scenario, simulated time, the Kubernetes half behind the
// cluster, the long-running operations, the cluster model and the server's base URL.
import type { ClusterBackend } from '../../contracts.js'
import { durationOf, type Scenario } from '../../scenario.js'
import type { SimTime } from '../sim-time.js'
import type { Operations } from './lro.js'
import type { ClusterModel } from './cluster-model.js'

export interface ArmContext {
  scenario: Scenario
  time: SimTime
  backend: ClusterBackend
  ops: Operations
  cluster: ClusterModel
  /** `https://127.0.0.1:PORT` */
  base(): string
}

/** Parsed route parameters of a request under `/subscriptions/{sub}/resourceGroups/{rg}/...`. */
export interface ClusterRoute {
  subscriptionId: string
  resourceGroup: string
  clusterName: string
  apiVersion: string
}

export const CONTAINER_SERVICE = 'Microsoft.ContainerService'

/** How long a DELETE (cluster or pool) takes: `azure.deletion`, else `azure.poolProvisioning`'s timing. */
export function deletionTiming(scenario: Scenario): { polls: number; durationMs?: number } {
  const t = scenario.azure.deletion ?? scenario.azure.poolProvisioning
  return { polls: t.polls, durationMs: t.duration !== undefined ? durationOf(t.duration, 0) : undefined }
}
