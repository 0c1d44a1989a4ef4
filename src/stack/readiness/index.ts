// The readiness check of each cluster component, by component name.
import type { ComponentReadiness } from './common.js'
import { gpuOperatorReadiness } from './gpu-operator.js'
import { ibNodeConfigReadiness } from './ib-node-config.js'
import { networkOperatorReadiness } from './network-operator.js'
import { nicClusterPolicyReadiness } from './nic-cluster-policy.js'
import { nodeFeatureRuleReadiness } from './node-feature-rule.js'
import { rdmaDevicePluginReadiness } from './rdma-device-plugin.js'

export const READINESS: Record<string, ComponentReadiness<any>> = {
  'network-operator': networkOperatorReadiness,
  'node-feature-rule': nodeFeatureRuleReadiness,
  'nic-cluster-policy': nicClusterPolicyReadiness,
  'ib-node-config': ibNodeConfigReadiness,
  'rdma-device-plugin': rdmaDevicePluginReadiness,
  'gpu-operator': gpuOperatorReadiness
}

export * from './common.js'
