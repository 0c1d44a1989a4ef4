// Component 7: the NicClusterPolicy `nic-cluster-policy` (the only name the Network Operator
// reconciles), embedded and pinned rather than applied from a branch of a GitHub repository.
// It deploys the DOCA/OFED driver on the nodes labelled pci-15b3.present=true.
import type { Settings } from '../../settings/settings.js'
import { isPlainObject } from '../../util/merge.js'
import { LABELS, type ComponentSpec, type KubeManifest } from '../types.js'

export function nicClusterPolicySpec(s: Settings): Record<string, unknown> {
  return {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchExpressions: [{ key: LABELS.pci15b3, operator: 'In', values: ['true'] }] }]
      }
    },
    ofedDriver: {
      repository: 'nvcr.io/nvidia/mellanox',
      image: 'doca-driver',
      version: s.stack.docaDriverVersion,
      env: [
        { name: 'OFED_BLACKLIST_MODULES_FILE', value: '/host/etc/modprobe.d/blacklist-ofed-modules.conf' }
      ],
      forcePrecompiled: false,
      upgradePolicy: {
        autoUpgrade: true,
        maxParallelUpgrades: 1,
        drain: { enable: true, force: true, deleteEmptyDir: true, timeoutSeconds: 300 }
      },
      startupProbe: { initialDelaySeconds: 10, periodSeconds: 20 },
      livenessProbe: { initialDelaySeconds: 30, periodSeconds: 30 },
      readinessProbe: { initialDelaySeconds: 10, periodSeconds: 30 }
    },
    docaTelemetryService: {
      repository: 'nvcr.io/nvidia/doca',
      image: 'doca_telemetry',
      version: '1.22.5-doca3.1.0-host'
    }
  }
}

/** The policy; a nic-cluster-policy file replaces the spec (a whole NicClusterPolicy or just its spec). */
export function nicClusterPolicy(s: Settings): KubeManifest {
  const override = s.stack.nicClusterPolicy
  const spec = override ? (isPlainObject(override.spec) ? override.spec : override) : nicClusterPolicySpec(s)
  return {
    apiVersion: 'mellanox.com/v1alpha1',
    kind: 'NicClusterPolicy',
    metadata: { name: 'nic-cluster-policy' },
    spec
  }
}

export function nicClusterPolicyComponent(s: Settings): Omit<ComponentSpec, 'enabled' | 'skipReason'> {
  return {
    name: 'nic-cluster-policy',
    title: `NicClusterPolicy nic-cluster-policy (DOCA driver ${s.stack.docaDriverVersion})`,
    kind: 'manifests',
    nodeLevel: true,
    manifests: [nicClusterPolicy(s)],
    readiness: {
      summary: `an OFED driver pod (-l ${LABELS.ofedDriverPod}) Ready on every RDMA node, ${LABELS.mofedWait}=false on each, status.state ready`,
      conditions: [
        `pods -n network-operator -l ${LABELS.ofedDriverPod}: at least one per RDMA node, all Ready`,
        `every RDMA node labelled ${LABELS.mofedWait}=false`,
        'nicclusterpolicy/nic-cluster-policy status.state == ready'
      ]
    },
    departsFromGuide:
      'Waits on the label nvidia.com/ofed-driver (on every OFED pod) instead of app=mofed-ubuntu22.04-ds, which matches no pod since Network Operator v24.4; the policy is embedded and pinned instead of kubectl apply -k of a moving branch.'
  }
}
