// Component 9: the RDMA shared device plugin (ConfigMap rdma-devices, DaemonSet rdma-shared-dp-ds).
// Docs: docs/guide-departures.md#the-device-plugin-also-advertises-the-ethernet-vf, docs/design.md.
import { createHash } from 'node:crypto'
import type { Health } from '../health/types.js'
import { met, missing, missingOrBlocked } from '../health/types.js'
import { allocatableOn, managedLike, noPod, podsOf, rolledOut, toleratesPool } from '../health/rules.js'
import { describePod, isPodReady } from '../kube/pods.js'
import { selectorOf } from '../kube/types.js'
import { LABELS, objectName, type KubeManifest } from '../model/types.js'
import type { DriftItem } from '../drift/item.js'
import type { Settings } from '../settings/settings.js'
import { RDMA_DEVICE_PLUGIN_COMMAND } from '../settings/images.js'
import { nodeAgentTolerations, taintNote } from '../model/tolerations.js'
import { BUSYBOX_IMAGE } from '../settings/images.js'
import { rdmaPlacement } from './ib-node-config.js'
import { IB_NODE_CONFIG_DONE_FILE, NODE_CRITICAL, podImages, reported } from './shared.js'
import type { DriftExtrasContext, KubeComponent } from './types.js'

/** Which devices the plugin advertises: Mellanox (15b3) mlx5 devices on an InfiniBand link only. */
const SELECTORS = { vendors: ['15b3'], drivers: ['mlx5_core'], linkTypes: ['infiniband'] } as const

export function rdmaDevicePluginConfig(s: Settings): Record<string, unknown> {
  return {
    periodicUpdateInterval: 300,
    configList: [
      {
        resourceName: s.stack.rdmaResourceName,
        resourcePrefix: 'rdma',
        rdmaHcaMax: s.stack.rdmaHcaMax,
        selectors: { ...SELECTORS }
      }
    ]
  }
}

/** Where the init container sees the host's folder holding ib-node-config's last file (read-only). */
const DONE_DIR = IB_NODE_CONFIG_DONE_FILE.slice(0, IB_NODE_CONFIG_DONE_FILE.lastIndexOf('/'))
const DONE_MOUNT = `/host${DONE_DIR}`
const DONE_IN_CONTAINER = `/host${IB_NODE_CONFIG_DONE_FILE}`
/** How long one run of the init container waits before it exits 1 (kubelet then retries it). */
export const IB_NODE_CONFIG_WAIT_SECONDS = 600
const WAIT_INTERVAL_SECONDS = 5

/**
 * The per-node gate: the plugin starts on a node only once ib-node-config finished there (its
 * last file exists), whatever started the pod — an action run or a node joining later. Bounded:
 * after IB_NODE_CONFIG_WAIT_SECONDS it exits 1 with the reason and the kubelet retries it.
 */
export const WAIT_FOR_IB_NODE_CONFIG = 'wait-for-ib-node-config'
const WAIT_SCRIPT = `for i in $(seq 1 ${IB_NODE_CONFIG_WAIT_SECONDS / WAIT_INTERVAL_SECONDS}); do
  if [ -f ${DONE_IN_CONTAINER} ]; then echo "ib-node-config has completed on this node"; exit 0; fi
  if [ "$i" = "1" ]; then echo "waiting for ib-node-config to complete on this node (${IB_NODE_CONFIG_DONE_FILE})"; fi
  sleep ${WAIT_INTERVAL_SECONDS}
done
echo "ib-node-config has not completed on this node after ${IB_NODE_CONFIG_WAIT_SECONDS}s (no ${IB_NODE_CONFIG_DONE_FILE}); check the ib-node-config pod on this node"
exit 1
`

/** Template annotation carrying the config's hash: the plugin reads its config only at start, so a
 *  changed config changes the template and the DaemonSet rolls its pods (and only then). */
export const CONFIG_HASH_ANNOTATION = 'aks-rdma-action/config-sha256'

export function rdmaDevicePluginManifests(s: Settings): KubeManifest[] {
  const configJson = JSON.stringify(rdmaDevicePluginConfig(s), null, 2)
  const configMap: KubeManifest = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'rdma-devices', namespace: 'kube-system', labels: { [LABELS.managed]: 'true' } },
    data: { 'config.json': configJson }
  }
  const daemonSet: KubeManifest = {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: {
      name: 'rdma-shared-dp-ds',
      namespace: 'kube-system',
      labels: { name: 'rdma-shared-dp-ds', [LABELS.managed]: 'true' }
    },
    spec: {
      selector: { matchLabels: { name: 'rdma-shared-dp-ds' } },
      template: {
        metadata: {
          labels: { name: 'rdma-shared-dp-ds' },
          annotations: {
            [CONFIG_HASH_ANNOTATION]: createHash('sha256').update(configJson).digest('hex').slice(0, 16)
          }
        },
        spec: {
          // It speaks only to the kubelet (its device plugin sockets), never to the API server
          // (upstream's deployment names no service account): no token in a privileged pod.
          automountServiceAccountToken: false,
          hostNetwork: true,
          priorityClassName: NODE_CRITICAL,
          ...rdmaPlacement(s),
          tolerations: nodeAgentTolerations(s),
          initContainers: [
            {
              name: WAIT_FOR_IB_NODE_CONFIG,
              image: BUSYBOX_IMAGE,
              command: ['sh', '-c', WAIT_SCRIPT],
              volumeMounts: [{ name: 'ib-node-config-done', mountPath: DONE_MOUNT, readOnly: true }]
            }
          ],
          containers: [
            {
              name: 'k8s-rdma-shared-dp-ds',
              image: s.stack.rdmaDevicePluginImage,
              command: [...RDMA_DEVICE_PLUGIN_COMMAND],
              securityContext: { privileged: true },
              volumeMounts: [
                { name: 'device-plugin', mountPath: '/var/lib/kubelet/device-plugins' },
                { name: 'plugins-registry', mountPath: '/var/lib/kubelet/plugins_registry' },
                { name: 'config', mountPath: '/k8s-rdma-shared-dev-plugin' },
                { name: 'devs', mountPath: '/dev/' }
              ]
            }
          ],
          volumes: [
            { name: 'device-plugin', hostPath: { path: '/var/lib/kubelet/device-plugins' } },
            { name: 'plugins-registry', hostPath: { path: '/var/lib/kubelet/plugins_registry' } },
            { name: 'config', configMap: { name: 'rdma-devices' } },
            { name: 'devs', hostPath: { path: '/dev/' } },
            { name: 'ib-node-config-done', hostPath: { path: DONE_DIR, type: 'DirectoryOrCreate' } }
          ]
        }
      }
    }
  }
  return [configMap, daemonSet]
}

const daemonSetOf = (manifests: KubeManifest[]): KubeManifest => manifests.find(m => m.kind === 'DaemonSet')!

function health(s: Settings): Health {
  const resource = `rdma/${s.stack.rdmaResourceName}`
  const ds = daemonSetOf(rdmaDevicePluginManifests(s))
  const pods = podsOf(ds)
  const tolerations = nodeAgentTolerations(s)
  return {
    summary: `plugin Ready on every RDMA node and allocatable ${resource} > 0 on each`,
    sources: { pods, daemonsets: managedLike(ds) },
    perNode: {
      progress: `${resource} allocatable`,
      rules: [
        {
          text: `a Ready device plugin pod (-n ${pods.namespace} -l ${pods.labelSelector}; its init container ${WAIT_FOR_IB_NODE_CONFIG} completed)`,
          check: (node, onNode) => {
            if (!onNode.length)
              return missingOrBlocked(
                noPod('device plugin', pods),
                taintNote(node, tolerations, 'the RDMA device plugin (its DaemonSet tolerations)')
              )
            const ready = onNode.find(isPodReady)
            if (!ready)
              return missing(
                `device plugin pod ${onNode[0].metadata.name} not Ready (${describePod(onNode[0])})`
              )
            return met(`plugin pod ${ready.metadata.name} Ready`)
          }
        },
        allocatableOn(resource)
      ]
    },
    cluster: [rolledOut(ds), toleratesPool(ds, 'the RDMA device plugin')],
    warnings: []
  }
}

/** The plugin pods run the DaemonSet's desired image; nothing more when the DaemonSet itself differs. */
async function podsImageDrift(ctx: DriftExtrasContext): Promise<DriftItem[]> {
  const ds = daemonSetOf(ctx.desired.manifests ?? [])
  if (reported(ctx.found, objectName(ds))) return []
  const spec = ds.spec as {
    selector: { matchLabels: Record<string, string> }
    template: { spec: { containers: Array<{ name: string; image: string }> } }
  }
  const c = spec.template.spec.containers[0]
  const labelSelector = selectorOf(spec.selector.matchLabels)
  const { items: pods } = await ctx.kube.list('v1', 'Pod', {
    namespace: ds.metadata.namespace,
    labelSelector
  })
  const off = podImages(pods, c.name, image => image === c.image)
  if (!off) return []
  return [
    {
      component: ctx.component,
      field: `pods -l ${labelSelector} spec.containers[${c.name}].image`,
      desired: c.image,
      actual: off.summary,
      fixableByApply: false,
      hint: `the DaemonSet is as desired but ${off.bad} pod(s) still run another image: check the rollout (kubectl rollout status ds/${ds.metadata.name} -n ${ds.metadata.namespace})`
    }
  ]
}

export const rdmaDevicePlugin: KubeComponent = {
  name: 'rdma-device-plugin',
  kind: 'manifests',
  skip: () => undefined,
  desired: s => ({
    title: `RDMA shared device plugin (rdma/${s.stack.rdmaResourceName}, max ${s.stack.rdmaHcaMax})`,
    manifests: rdmaDevicePluginManifests(s),
    departsFromGuide:
      'Adds linkTypes ["infiniband"] to the selector so the Ethernet VF is not advertised as an RDMA device. ' +
      `An init container (${WAIT_FOR_IB_NODE_CONFIG}, bounded) waits until the node shows ib-node-config's last file ` +
      `(${IB_NODE_CONFIG_DONE_FILE}, hostPath mounted read-only), so on every node — also one that joins later — the plugin ` +
      'starts after ib-node-config, with no action running. In pipelined rollout it is also scheduled only on nodes whose ' +
      `OFED driver is ready (${LABELS.mofedWait}=false).`
  }),
  health,
  placement: { on: 'pool-nodes', after: ['ib-node-config'] },
  driftExtras: podsImageDrift,
  hints: view =>
    (view.verdict?.nodes ?? []).some(n => /allocatable/.test(n.detail ?? ''))
      ? [
          `The device plugin runs but advertises no RDMA device: its selectors (vendor ${SELECTORS.vendors.join(', ')}, driver ${SELECTORS.drivers.join(', ')}, linkTypes ${SELECTORS.linkTypes.join(', ')}) matched nothing — is the OFED driver loaded on the node?`
        ]
      : [],
  check: { name: 'rdma-device-plugin', skip: () => undefined },
  removal: s => ({ leftovers: [podsOf(daemonSetOf(rdmaDevicePluginManifests(s)))] })
}
