// The stack in order: every component of the desired state, built from settings. plan prints
// it, apply converges it, verify and drift read it. The order is the order the guide requires.
import type { Settings } from '../settings/settings.js'
import { clusterComponent } from './components/cluster.js'
import { credentialsComponent } from './components/credentials.js'
import { gpuOperatorComponent } from './components/gpu-operator.js'
import { ibNodeConfigComponent } from './components/ib-node-config.js'
import { infinibandFeature } from './components/infiniband-feature.js'
import { networkOperatorComponent } from './components/network-operator.js'
import { nicClusterPolicyComponent } from './components/nic-cluster-policy.js'
import { nodeFeatureRuleComponent } from './components/node-feature-rule.js'
import { nodePoolComponent } from './components/node-pool.js'
import { rdmaDevicePluginComponent } from './components/rdma-device-plugin.js'
import type { ComponentSpec } from './types.js'

export const COMPONENT_ORDER = [
  'infiniband-feature',
  'cluster',
  'node-pool',
  'credentials',
  'network-operator',
  'node-feature-rule',
  'nic-cluster-policy',
  'ib-node-config',
  'rdma-device-plugin',
  'gpu-operator'
] as const

export type ComponentName = (typeof COMPONENT_ORDER)[number]

type Built = Omit<ComponentSpec, 'enabled' | 'skipReason'>

function skipReason(c: Built, s: Settings): string | undefined {
  if (c.name === 'cluster' && !s.cluster.create)
    return 'create-cluster is false: the existing cluster is used'
  if (c.name === 'infiniband-feature' && !s.registerFeature) return 'register-feature is false'
  return undefined
}

/** The whole stack, always the ten components in order; those these settings leave out carry enabled: false and the reason. */
export function buildStack(s: Settings): ComponentSpec[] {
  const all: Built[] = [
    infinibandFeature(s),
    clusterComponent(s),
    nodePoolComponent(s),
    credentialsComponent(s),
    networkOperatorComponent(s),
    nodeFeatureRuleComponent(s),
    nicClusterPolicyComponent(s),
    ibNodeConfigComponent(s),
    rdmaDevicePluginComponent(s),
    gpuOperatorComponent(s)
  ]
  return all.map(c => {
    const reason = skipReason(c, s)
    return { ...c, enabled: reason === undefined, ...(reason ? { skipReason: reason } : {}) }
  })
}
