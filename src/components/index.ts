// The registry: every component of the stack by name. The compiler checks it holds exactly the
// names of COMPONENT_ORDER, each a whole Component. buildStack renders them, in order, for given
// settings: what plan prints, apply converges, verify checks and drift compares.
import { readinessOf } from '../health/evaluate.js'
import type { Settings } from '../settings/settings.js'
import { cluster } from './cluster.js'
import { credentials } from './credentials.js'
import { gpuOperator } from './gpu-operator.js'
import { ibNodeConfig } from './ib-node-config.js'
import { infinibandFeature } from './infiniband-feature.js'
import { networkOperator } from './network-operator.js'
import { nicClusterPolicyComponent } from './nic-cluster-policy.js'
import { nodeFeatureRuleComponent } from './node-feature-rule.js'
import { nodePool } from './node-pool.js'
import { COMPONENT_ORDER, type ComponentName } from './order.js'
import { rdmaDevicePlugin } from './rdma-device-plugin.js'
import type { ArmComponent, Component, ComponentSpec, KubeComponent } from './types.js'

export { COMPONENT_ORDER, type ComponentName } from './order.js'
export type * from './types.js'

export const COMPONENTS = {
  'infiniband-feature': infinibandFeature,
  cluster,
  'node-pool': nodePool,
  credentials,
  'network-operator': networkOperator,
  'node-feature-rule': nodeFeatureRuleComponent,
  'nic-cluster-policy': nicClusterPolicyComponent,
  'ib-node-config': ibNodeConfig,
  'rdma-device-plugin': rdmaDevicePlugin,
  'gpu-operator': gpuOperator
} satisfies Record<ComponentName, Component>

export function isKubeComponent(c: Component): c is KubeComponent {
  return c.kind === 'helm' || c.kind === 'manifests'
}

export function isArmComponent(c: Component): c is ArmComponent {
  return !isKubeComponent(c)
}

/** Whether a component is ready per node of the RDMA pool (so it may be written before the pool exists). */
export function onPoolNodes(c: Component): boolean {
  return isKubeComponent(c) && c.placement.on === 'pool-nodes'
}

/** The components that must be ready on a node before `c` can be there (none for a cluster-level one). */
export function nodeDependencies(c: Component): readonly ComponentName[] {
  return isKubeComponent(c) && c.placement.on === 'pool-nodes' ? c.placement.after : []
}

/** Every component, in stack order. */
export function components(): Component[] {
  return COMPONENT_ORDER.map(n => COMPONENTS[n])
}

/** The components on the cluster (helm releases and manifests), in stack order. */
export function kubeComponents(): KubeComponent[] {
  return components().filter(isKubeComponent)
}

/** One component rendered for these settings. */
export function specOf(c: Component, s: Settings): ComponentSpec {
  const reason = c.skip(s)
  return {
    name: c.name,
    kind: c.kind,
    ...c.desired(s),
    readiness: isKubeComponent(c) ? readinessOf(c.health(s)) : c.readiness(s),
    enabled: reason === undefined,
    ...(reason ? { skipReason: reason } : {}),
    ...onChangeOf(c, s)
  }
}

/** What changing it on a running cluster does beyond writing: a driver rollout, or pods replaced. */
function onChangeOf(c: Component, s: Settings): { onChange?: string } {
  if (!isKubeComponent(c)) return {}
  if (c.rollsDriver) return { onChange: `${c.rollsDriver(s)}; the next component is written once it is done` }
  return c.stalePods ? { onChange: c.stalePods.onChange } : {}
}

/** The whole stack, always every component in order; those these settings leave out carry enabled: false and the reason. */
export function buildStack(s: Settings): ComponentSpec[] {
  return components().map(c => specOf(c, s))
}
