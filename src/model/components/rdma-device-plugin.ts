// Component 9: the RDMA shared device plugin (ConfigMap rdma-devices + DaemonSet
// kube-system/rdma-shared-dp-ds). Its selector adds linkTypes ["infiniband"], without which the
// accelerated-networking Ethernet VF is counted too.
import type { Settings } from '../../settings/settings.js'
import { LABELS, type ComponentSpec, type KubeManifest } from '../types.js'
import { rdmaNodeSelector } from './ib-node-config.js'

export function rdmaDevicePluginConfig(s: Settings): Record<string, unknown> {
  return {
    periodicUpdateInterval: 300,
    configList: [
      {
        resourceName: s.stack.rdmaResourceName,
        resourcePrefix: 'rdma',
        rdmaHcaMax: s.stack.rdmaHcaMax,
        selectors: { vendors: ['15b3'], drivers: ['mlx5_core'], linkTypes: ['infiniband'] }
      }
    ]
  }
}

export function rdmaDevicePluginManifests(s: Settings): KubeManifest[] {
  const configMap: KubeManifest = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'rdma-devices', namespace: 'kube-system', labels: { [LABELS.managed]: 'true' } },
    data: { 'config.json': JSON.stringify(rdmaDevicePluginConfig(s), null, 2) }
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
        metadata: { labels: { name: 'rdma-shared-dp-ds' } },
        spec: {
          hostNetwork: true,
          nodeSelector: rdmaNodeSelector(s),
          tolerations: [{ operator: 'Exists' }],
          containers: [
            {
              name: 'k8s-rdma-shared-dp-ds',
              image: s.stack.rdmaDevicePluginImage,
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
            { name: 'devs', hostPath: { path: '/dev/' } }
          ]
        }
      }
    }
  }
  return [configMap, daemonSet]
}

export function rdmaDevicePluginComponent(s: Settings): Omit<ComponentSpec, 'enabled' | 'skipReason'> {
  const resource = `rdma/${s.stack.rdmaResourceName}`
  return {
    name: 'rdma-device-plugin',
    title: `RDMA shared device plugin (${resource}, max ${s.stack.rdmaHcaMax})`,
    kind: 'manifests',
    nodeLevel: true,
    manifests: rdmaDevicePluginManifests(s),
    readiness: {
      summary: `plugin Ready on every RDMA node and allocatable ${resource} > 0 on each`,
      conditions: [
        'daemonset/rdma-shared-dp-ds numberReady == desiredNumberScheduled == RDMA nodes',
        `every RDMA node: status.allocatable["${resource}"] > 0`
      ]
    },
    departsFromGuide:
      'Adds linkTypes ["infiniband"] to the selector so the Ethernet VF is not advertised as an RDMA device.'
  }
}
