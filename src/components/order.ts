// The stack's components in the order the guide requires: the names the registry (index.ts) must
// hold exactly, and the order plan prints, apply converges and verify and drift read them.

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
