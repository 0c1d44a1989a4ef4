// The Network Operator's own objects as the health and drift tests read them: its Deployment once
// available, and the NicClusterPolicy with a given status.
import type { KubeObject } from '../../src/kube/types.js'

/** The Network Operator's Deployment: one replica, observed, updated and Available. */
export function availableOperatorDeployment(): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'network-operator', namespace: 'network-operator', generation: 1 },
    spec: { replicas: 1 },
    status: {
      observedGeneration: 1,
      replicas: 1,
      updatedReplicas: 1,
      availableReplicas: 1,
      conditions: [{ type: 'Available', status: 'True' }]
    }
  }
}

/** The cluster's NicClusterPolicy (nic-cluster-policy) with this status. */
export function nicClusterPolicy(status: Record<string, unknown>): KubeObject {
  return {
    apiVersion: 'mellanox.com/v1alpha1',
    kind: 'NicClusterPolicy',
    metadata: { name: 'nic-cluster-policy' },
    status
  }
}
