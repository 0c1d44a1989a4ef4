// Component 3: the RDMA node pool (ND-series, Ubuntu, GPU driver None), created with
// If-None-Match: * when absent and reused without a write when its immutable fields match.
// Applied by azure/node-pool.ts; drift compares the live pool field by field (a GET).
import type { AgentPool } from '@azure/arm-containerservice'
import { armError, describeArmError, isArmNotFound } from '../azure/arm-errors.js'
import { comparePool, desiredAgentPool, ensureNodePool } from '../azure/node-pool.js'
import { checkOtherGpuPools } from '../azure/other-pools.js'
import { azTarget, nodepoolCommand, poolTarget } from '../model/az-commands.js'
import { API_VERSIONS, clusterPath, desiredAgentPoolProperties } from '../model/azure-resources.js'
import { LABELS } from '../model/types.js'
import type { DriftItem } from '../drift/item.js'
import type { ArmComponent } from './types.js'

export const nodePool: ArmComponent = {
  name: 'node-pool',
  kind: 'azure',
  skip: () => undefined,
  apply: async ctx => {
    const s = ctx.settings
    // Other GPU pools with the AKS-managed driver: the stack stays off them; say so.
    const others = await checkOtherGpuPools(ctx.clients, s)
    if (others) ctx.log.warning(others)
    const r = await ensureNodePool(ctx.clients, s, {
      log: ctx.log,
      timeoutMs: ctx.timeoutMs,
      precheck: ctx.precheck,
      onCreateSubmit: p => ctx.onCreateSubmit('node-pool', p),
      onCreateRefused: () => ctx.onCreateRefused('node-pool')
    })
    // ensureNodePool has logged its warnings (r.warnings) once already.
    return {
      changed: r.action === 'created',
      action: r.action === 'created' ? 'created' : 'unchanged',
      detail: `pool ${r.action} (${r.pool.count} × ${r.pool.vmSize})`,
      pool: { action: r.action, count: r.pool.count ?? s.nodePool.count }
    }
  },
  desired: s => {
    const path = `${clusterPath(s)}/agentPools/${s.nodePool.name}`
    return {
      title: `Node pool ${s.nodePool.name} (${s.nodePool.count} × ${s.nodePool.vmSize})`,
      azure: [
        { method: 'GET', path, apiVersion: API_VERSIONS.containerService, when: 'always' },
        {
          method: 'PUT',
          path,
          apiVersion: API_VERSIONS.containerService,
          headers: { 'If-None-Match': '*' },
          body: { properties: desiredAgentPoolProperties(s) },
          when: 'pool absent (present: immutable fields vmSize, osType, osSKU, gpuProfile.driver compared; no write)'
        }
      ],
      departsFromGuide:
        'gpuProfile.driver: None instead of the retired --skip-gpu-driver-install tag (rejected since August 2025).'
    }
  },
  readiness: s => ({
    summary: `provisioningState Succeeded and ${s.nodePool.count} nodes labelled ${LABELS.agentPool}=${s.nodePool.name}`,
    conditions: [
      'agentPool provisioningState == Succeeded',
      `nodes -l ${LABELS.agentPool}=${s.nodePool.name} registered`
    ]
  }),
  // The pool as apply would create it vs the live one; a missing pool is the only thing apply fixes.
  drift: async ({ component, clients, settings }) => {
    const { resourceGroup, name: clusterName } = settings.cluster
    const name = settings.nodePool.name
    const desired = desiredAgentPool(settings)
    let live: AgentPool
    try {
      live = await clients.containerService.agentPools.get(resourceGroup, clusterName, name)
    } catch (e) {
      if (isArmNotFound(e) && armError(e).code !== 'ResourceGroupNotFound')
        return [
          {
            component,
            field: 'agentPool',
            desired: `present (${desired.count} × ${desired.vmSize})`,
            actual: 'absent',
            fixableByApply: true,
            hint: `apply creates pool ${name}`
          }
        ]
      throw new Error(`reading node pool ${name} failed: ${describeArmError(e)}`)
    }
    const out: DriftItem[] = comparePool(desired, live, poolTarget(settings)).map(d => ({
      component,
      field: d.field,
      desired: d.desired,
      actual: d.actual,
      fixableByApply: false,
      hint: d.immutable ? d.fix : `apply never changes an existing pool; ${d.fix}`
    }))
    const state = live.provisioningState ?? 'Succeeded'
    if (state.toLowerCase() !== 'succeeded')
      out.push({
        component,
        field: 'provisioningState',
        desired: 'Succeeded',
        actual: state,
        fixableByApply: false,
        hint:
          state.toLowerCase() === 'failed'
            ? `delete the failed pool (\`${nodepoolCommand(azTarget(settings), 'delete', name)}\`) or fix the cause, then apply`
            : `an operation is in progress on pool ${name}; run drift again when it settles`
      })
    return out
  }
}
