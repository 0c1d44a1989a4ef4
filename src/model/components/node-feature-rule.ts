// Component 6: the NodeFeatureRule that labels nodes with a Mellanox InfiniBand VF (PCI device
// 101c ConnectX-6 VF, 101e ConnectX mlx5Gen VF) feature.node.kubernetes.io/pci-15b3.present=true.
// The guide disables the chart's rules and adds none, so the OFED driver is never scheduled.
import type { Settings } from '../../settings/settings.js'
import { LABELS, type ComponentSpec, type KubeManifest } from '../types.js'

export function nodeFeatureRule(): KubeManifest {
  return {
    apiVersion: 'nfd.k8s-sigs.io/v1alpha1',
    kind: 'NodeFeatureRule',
    metadata: { name: 'nfd-network-rule' },
    spec: {
      rules: [
        {
          name: 'nfd-network-rule',
          labels: { [LABELS.pci15b3]: 'true' },
          matchFeatures: [
            { feature: 'pci.device', matchExpressions: { device: { op: 'In', value: ['101c', '101e'] } } }
          ]
        }
      ]
    }
  }
}

export function nodeFeatureRuleComponent(s: Settings): Omit<ComponentSpec, 'enabled' | 'skipReason'> {
  return {
    name: 'node-feature-rule',
    title: 'NodeFeatureRule nfd-network-rule (InfiniBand VFs 101c/101e)',
    kind: 'manifests',
    nodeLevel: false,
    manifests: [nodeFeatureRule()],
    readiness: {
      summary: `every node of pool ${s.nodePool.name} labelled ${LABELS.pci15b3}=true`,
      conditions: [
        `nodes -l ${LABELS.agentPool}=${s.nodePool.name} all carry ${LABELS.pci15b3}=true (none after a grace period: no Mellanox IB device on the pool's nodes)`
      ]
    },
    departsFromGuide:
      'The guide sets nfd.deployNodeFeatureRules=false and adds no rule, so nothing labels pci-15b3.present and the OFED driver is never scheduled.'
  }
}
