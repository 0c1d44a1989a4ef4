// Readiness of the Network Operator release: its operator Deployment `network-operator` in the
// network-operator namespace is Available with every replica up to date (helm --wait has usually
// seen this already; a re-run checks it without helm).
import { NETWORK_OPERATOR_NAMESPACE } from '../../model/components/network-operator.js'
import type { KubeObject } from '../../kube/types.js'
import type { ComponentReadiness, ReadinessVerdict } from './common.js'

export const OPERATOR_DEPLOYMENT = 'network-operator'

function isOperator(d: KubeObject): boolean {
  const labels = d.metadata.labels ?? {}
  return d.metadata.name === OPERATOR_DEPLOYMENT || labels['app.kubernetes.io/name'] === OPERATOR_DEPLOYMENT
}

export function deploymentAvailable(d: KubeObject): { ok: boolean; detail: string } {
  const st = d.status ?? {}
  const want = d.spec?.replicas ?? 1
  const available = (st.conditions ?? []).some((c: any) => c.type === 'Available' && c.status === 'True')
  const current = (st.observedGeneration ?? 0) >= (d.metadata.generation ?? 0)
  const updated = st.updatedReplicas ?? 0
  const avail = st.availableReplicas ?? 0
  const ok = available && current && updated >= want && avail >= want
  return { ok, detail: `${avail}/${want} available${available ? '' : ', condition Available not True'}` }
}

export function evaluateNetworkOperator(deployments: KubeObject[]): ReadinessVerdict {
  const ops = deployments.filter(isOperator)
  const target = ops.find(d => d.metadata.name === OPERATOR_DEPLOYMENT) ?? ops[0]
  if (!target) {
    return {
      done: false,
      message: `waiting for deployment/${OPERATOR_DEPLOYMENT}`,
      readyNodes: 0,
      totalNodes: 0,
      nodes: []
    }
  }
  const a = deploymentAvailable(target)
  return {
    done: a.ok,
    message: `operator deployment/${target.metadata.name} ${a.ok ? 'available' : 'not yet available'} (${a.detail})`,
    readyNodes: 0,
    totalNodes: 0,
    nodes: []
  }
}

export const networkOperatorReadiness: ComponentReadiness<'deployments'> = {
  component: 'network-operator',
  sources: client => ({
    deployments: client.watchSource('apps/v1', 'Deployment', {
      namespace: NETWORK_OPERATOR_NAMESPACE,
      name: 'deployments'
    })
  }),
  evaluate: snap => evaluateNetworkOperator(snap.deployments)
}
