// One read of everything the read-only checks look at, with paginated LIST calls (500 a page,
// following `continue`) and two GETs, never a request per node: the pool's nodes, the OFED driver,
// ib-node-config, device plugin and GPU driver pods, and the two operator policies. A 1000-node
// pool costs about a dozen requests.
import type { KubeClient } from '../kube/client.js'
import type { KubeObject } from '../kube/types.js'
import { GPU_OPERATOR_NAMESPACE } from '../model/components/gpu-operator.js'
import { ibNodeConfigDaemonSet } from '../model/components/ib-node-config.js'
import { NETWORK_OPERATOR_NAMESPACE } from '../model/components/network-operator.js'
import { rdmaDevicePluginManifests } from '../model/components/rdma-device-plugin.js'
import { LABELS } from '../model/types.js'
import type { Settings } from '../settings/settings.js'
import { selectorOf } from './workspace.js'

export const GPU_DRIVER_POD_SELECTOR = 'app=nvidia-driver-daemonset'

/** An object read with GET: the object, absent, or unreadable (e.g. its CRD is not installed). */
export type Fetched = { object: KubeObject } | { absent: true } | { error: string }

export interface PodSet {
  namespace: string
  selector: string
  pods: KubeObject[]
}

export interface ClusterState {
  pool: string
  nodes: KubeObject[]
  ofed: PodSet
  ibNodeConfig: PodSet
  devicePlugin: PodSet
  gpuDriver: PodSet
  nicClusterPolicy: Fetched
  clusterPolicy: Fetched
}

/** Where the stack's workloads live and how their pods are labelled (from the desired-state model). */
export function podSources(
  s: Settings
): Record<'ofed' | 'ibNodeConfig' | 'devicePlugin' | 'gpuDriver', { namespace: string; selector: string }> {
  const ibnc = ibNodeConfigDaemonSet(s, {})
  const dp = rdmaDevicePluginManifests(s).find(m => m.kind === 'DaemonSet')!
  const dpSpec = dp.spec as { selector: { matchLabels: Record<string, string> } }
  const ibncSpec = ibnc.spec as { selector: { matchLabels: Record<string, string> } }
  return {
    ofed: { namespace: NETWORK_OPERATOR_NAMESPACE, selector: LABELS.ofedDriverPod },
    ibNodeConfig: {
      namespace: ibnc.metadata.namespace!,
      selector: selectorOf(ibncSpec.selector.matchLabels)
    },
    devicePlugin: { namespace: dp.metadata.namespace!, selector: selectorOf(dpSpec.selector.matchLabels) },
    gpuDriver: { namespace: GPU_OPERATOR_NAMESPACE, selector: GPU_DRIVER_POD_SELECTOR }
  }
}

async function fetchObject(
  kube: KubeClient,
  apiVersion: string,
  kind: string,
  name: string
): Promise<Fetched> {
  try {
    const object = await kube.get({ apiVersion, kind, name })
    return object ? { object } : { absent: true }
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e)
    // A kind the server does not serve (CRD not installed) means the object cannot exist.
    if (/not serve|404|not found|Unrecognized API/i.test(msg)) return { absent: true }
    return { error: msg }
  }
}

async function podSet(kube: KubeClient, src: { namespace: string; selector: string }): Promise<PodSet> {
  const { items } = await kube.list('v1', 'Pod', {
    namespace: src.namespace,
    labelSelector: src.selector,
    limit: 500
  })
  return { ...src, pods: items }
}

export async function readClusterState(kube: KubeClient, s: Settings): Promise<ClusterState> {
  const src = podSources(s)
  const [nodes, ofed, ibNodeConfig, devicePlugin, gpuDriver, nicClusterPolicy, clusterPolicy] =
    await Promise.all([
      kube
        .list('v1', 'Node', { labelSelector: `${LABELS.agentPool}=${s.nodePool.name}`, limit: 500 })
        .then(r => r.items),
      podSet(kube, src.ofed),
      podSet(kube, src.ibNodeConfig),
      podSet(kube, src.devicePlugin),
      podSet(kube, src.gpuDriver),
      fetchObject(kube, 'mellanox.com/v1alpha1', 'NicClusterPolicy', 'nic-cluster-policy'),
      fetchObject(kube, 'nvidia.com/v1', 'ClusterPolicy', 'cluster-policy')
    ])
  nodes.sort((a, b) => a.metadata.name.localeCompare(b.metadata.name, 'en', { numeric: true }))
  return {
    pool: s.nodePool.name,
    nodes,
    ofed,
    ibNodeConfig,
    devicePlugin,
    gpuDriver,
    nicClusterPolicy,
    clusterPolicy
  }
}
