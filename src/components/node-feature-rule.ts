// Component 6: the NodeFeatureRule that labels the nodes with a Mellanox InfiniBand VF pci-15b3.present=true.
// Docs: docs/guide-departures.md#nodefeaturerules-disabled-and-no-rule-of-its-own-ofed-is-never-scheduled.
import type { Health } from '../health/types.js'
import { met, missingOrBlocked } from '../health/types.js'
import { LABELS, type KubeManifest } from '../model/types.js'
import { taintNote } from '../model/tolerations.js'
import type { Settings } from '../settings/settings.js'
import { IB_VF_DEVICES } from '../settings/vm-sizes.js'
import { formatDuration } from '../util/duration.js'
import { NFD_WORKER_VALUES, nfdWorkerTolerations } from './network-operator.js'
import { NODE_FEATURE_RULE } from './shared.js'
import { noDriftExtras, nothingLeft, type KubeComponent } from './types.js'

export { IB_VF_DEVICES } from '../settings/vm-sizes.js'

export function nodeFeatureRule(): KubeManifest {
  return {
    apiVersion: 'nfd.k8s-sigs.io/v1alpha1',
    kind: 'NodeFeatureRule',
    metadata: { name: NODE_FEATURE_RULE },
    spec: {
      rules: [
        {
          name: NODE_FEATURE_RULE,
          labels: { [LABELS.pci15b3]: 'true' },
          matchFeatures: [
            { feature: 'pci.device', matchExpressions: { device: { op: 'In', value: [...IB_VF_DEVICES] } } }
          ]
        }
      ]
    }
  }
}

export function noInfinibandMessage(pool: string, total: number, graceMs: number): string {
  return (
    `no Mellanox IB device found on the pool's nodes: none of the ${total} node${total === 1 ? '' : 's'} of pool ${pool} ` +
    `was labelled ${LABELS.pci15b3}=true within ${formatDuration(graceMs)} (the NodeFeatureRule matches PCI devices 15b3:${IB_VF_DEVICES.join('/')}). ` +
    'Check that the VM size is RDMA-capable (an "r" size such as Standard_ND96isr_H100_v5) and that InfiniBand is enabled on the pool.'
  )
}

const labelled = (n: { metadata: { labels?: Record<string, string> } }): boolean =>
  n.metadata.labels?.[LABELS.pci15b3] === 'true'

const NFD_WORKER = `the NFD worker (network-operator values ${NFD_WORKER_VALUES}.tolerations)`

function health(s: Settings): Health {
  const tolerations = nfdWorkerTolerations(s)
  return {
    summary: `every node of pool ${s.nodePool.name} labelled ${LABELS.pci15b3}=true`,
    sources: {},
    perNode: {
      progress: 'labelled pci-15b3.present=true',
      rules: [
        {
          text: `labelled ${LABELS.pci15b3}=true`,
          check: node =>
            labelled(node)
              ? met()
              : missingOrBlocked(`no ${LABELS.pci15b3}=true label`, taintNote(node, tolerations, NFD_WORKER))
        }
      ]
    },
    cluster: [
      {
        text: "a first node labelled within the grace period (none: no Mellanox IB device on the pool's nodes)",
        check: (_snap, pool, ctx) => {
          if (pool.length === 0 || pool.some(labelled)) return { ok: true, message: '' }
          if (ctx.elapsedMs >= ctx.nfdGraceMs)
            return {
              ok: true,
              message: '',
              fail: noInfinibandMessage(ctx.settings.nodePool.name, pool.length, ctx.nfdGraceMs)
            }
          return { ok: true, message: '', recheckInMs: Math.max(0, ctx.nfdGraceMs - ctx.elapsedMs) }
        }
      }
    ],
    warnings: []
  }
}

export const nodeFeatureRuleComponent: KubeComponent = {
  name: 'node-feature-rule',
  kind: 'manifests',
  skip: () => undefined,
  desired: () => ({
    title: `NodeFeatureRule ${NODE_FEATURE_RULE} (InfiniBand VFs ${IB_VF_DEVICES.join('/')})`,
    manifests: [nodeFeatureRule()],
    departsFromGuide:
      'The guide sets nfd.deployNodeFeatureRules=false and adds no rule, so nothing labels pci-15b3.present and the OFED driver is never scheduled.'
  }),
  health,
  placement: { on: 'pool-nodes', after: [] },
  driftExtras: noDriftExtras,
  hints: () => [
    `Nodes are labelled by NFD from the NodeFeatureRule ${NODE_FEATURE_RULE} (PCI 15b3 devices ${IB_VF_DEVICES.join('/')}); check \`kubectl get nodes -L ${LABELS.pci15b3}\` and that the VM size has InfiniBand.`
  ],
  check: null,
  removal: nothingLeft
}
