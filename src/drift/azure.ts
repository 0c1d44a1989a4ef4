// Drift of the Azure components, read-only (GETs only): the InfiniBand feature and its resource
// provider, and the RDMA node pool compared field by field with comparePool. Apply never
// changes an existing pool, so only a missing pool is fixable by apply.
import type { AgentPool } from '@azure/arm-containerservice'
import {
  armError,
  comparePool,
  describeArmError,
  desiredAgentPool,
  FEATURE_NAME,
  FEATURE_NAMESPACE,
  isNotFound,
  type ArmClients
} from '../azure/index.js'
import type { DriftItem } from '../report/report.js'
import type { Settings } from '../settings/settings.js'

const registered = (s: string | undefined): boolean => (s ?? '').toLowerCase() === 'registered'

/** Feature Microsoft.ContainerService/AKSInfinibandSupport and the provider, both Registered. */
export async function featureDrift(clients: ArmClients, component: string): Promise<DriftItem[]> {
  const out: DriftItem[] = []
  let state: string
  try {
    const f = await clients.features.features.get(FEATURE_NAMESPACE, FEATURE_NAME)
    state = f.properties?.state ?? 'NotSpecified'
  } catch (e) {
    throw new Error(`reading feature ${FEATURE_NAMESPACE}/${FEATURE_NAME} failed: ${describeArmError(e)}`)
  }
  if (!registered(state))
    out.push({
      component,
      field: 'feature.state',
      desired: 'Registered',
      actual: state,
      fixableByApply: true,
      hint:
        state.toLowerCase() === 'pending'
          ? 'registration awaits approval by Microsoft for this subscription; apply keeps waiting for it'
          : 'apply registers the feature, then re-registers the provider'
    })
  let providerState: string
  try {
    const p = await clients.resources.providers.get(FEATURE_NAMESPACE)
    providerState = p.registrationState ?? 'Unknown'
  } catch (e) {
    throw new Error(`reading provider ${FEATURE_NAMESPACE} failed: ${describeArmError(e)}`)
  }
  if (!registered(providerState))
    out.push({
      component,
      field: 'provider.registrationState',
      desired: 'Registered',
      actual: providerState,
      fixableByApply: true,
      hint: `apply registers the resource provider ${FEATURE_NAMESPACE}`
    })
  return out
}

/** The pool as apply would create it vs the live one; a missing pool is the only thing apply fixes. */
export async function poolDrift(
  clients: ArmClients,
  settings: Settings,
  component: string
): Promise<DriftItem[]> {
  const { resourceGroup, name: cluster } = settings.cluster
  const name = settings.nodePool.name
  const desired = desiredAgentPool(settings)
  let live: AgentPool
  try {
    live = await clients.containerService.agentPools.get(resourceGroup, cluster, name)
  } catch (e) {
    if (isNotFound(e) && armError(e).code !== 'ResourceGroupNotFound')
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
  const out: DriftItem[] = comparePool(desired, live).map(d => ({
    component,
    field: d.field,
    desired: d.desired,
    actual: d.actual,
    fixableByApply: false,
    hint: d.immutable
      ? d.fix
      : `apply never changes an existing pool; ${d.fix}${d.field === 'count' ? `, or set node-count: ${d.actual}` : ''}`
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
          ? `delete the failed pool (az aks nodepool delete --name ${name}) or fix the cause, then apply`
          : `an operation is in progress on pool ${name}; run drift again when it settles`
    })
  return out
}
