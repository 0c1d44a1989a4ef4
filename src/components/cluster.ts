// Component 2 (only with create-cluster): a minimal AKS cluster with a small system pool, created
// when absent and tagged with the run id; an existing cluster is reused and never modified.
// Applied by azure/cluster.ts from the body in model/azure-resources.ts.
import { ensureCluster } from '../azure/cluster.js'
import { API_VERSIONS, clusterPath, desiredCluster } from '../model/azure-resources.js'
import type { ArmComponent } from './types.js'

/** The same as a REST body (`properties` nested), for the plan. */
function restBody(flat: Record<string, unknown>): Record<string, unknown> {
  const { location, tags, identity, ...properties } = flat
  return { location, tags, identity, properties }
}

export const cluster: ArmComponent = {
  name: 'cluster',
  kind: 'azure',
  skip: s => (s.cluster.create ? undefined : 'create-cluster is false: the existing cluster is used'),
  apply: async ctx => {
    const r = await ensureCluster(ctx.clients, ctx.settings, {
      log: ctx.log,
      timeoutMs: ctx.timeoutMs,
      onCreateSubmit: c => ctx.onCreateSubmit('cluster', c),
      onCreateRefused: () => ctx.onCreateRefused('cluster')
    })
    return {
      changed: r.action === 'created',
      action: r.action === 'created' ? 'created' : 'unchanged',
      detail: `cluster ${r.action}`
    }
  },
  desired: s => ({
    title: `AKS cluster ${s.cluster.name}`,
    azure: [
      { method: 'GET', path: clusterPath(s), apiVersion: API_VERSIONS.containerService, when: 'always' },
      {
        method: 'PUT',
        path: clusterPath(s),
        apiVersion: API_VERSIONS.containerService,
        body: restBody(desiredCluster(s)),
        when: 'cluster absent'
      }
    ]
  }),
  readiness: () => ({
    summary: 'provisioningState Succeeded',
    conditions: ['managedCluster provisioningState == Succeeded']
  }),
  // Nothing to compare: the run has just read the cluster's credentials from it.
  drift: async () => []
}
