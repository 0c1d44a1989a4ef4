// Component 10: the NVIDIA GPU Operator helm release (pinned), with RDMA (nvidia-peermem) on and
// useHostMofed from the input (default false: the Network Operator installs the OFED driver, so
// peermem must wait for it), and its own NFD off (the Network Operator's NFD already runs).
import type { Settings } from '../../settings/settings.js'
import { deepMerge } from '../../util/merge.js'
import type { ComponentSpec } from '../types.js'
import { privilegedNamespace } from './namespaces.js'
import { NVIDIA_HELM_REPO } from './network-operator.js'

export const GPU_OPERATOR_NAMESPACE = 'gpu-operator'

export function gpuOperatorValues(s: Settings): Record<string, unknown> {
  return deepMerge(
    {
      nfd: { enabled: false },
      driver: { rdma: { enabled: true, useHostMofed: s.stack.useHostMofed } },
      migManager: { enabled: false },
      vgpuDeviceManager: { enabled: false },
      vfioManager: { enabled: false },
      sandboxDevicePlugin: { enabled: false }
    },
    s.stack.gpuOperatorValues
  )
}

export function gpuOperatorComponent(s: Settings): Omit<ComponentSpec, 'enabled' | 'skipReason'> {
  return {
    name: 'gpu-operator',
    title: `NVIDIA GPU Operator ${s.stack.gpuOperatorVersion}`,
    kind: 'helm',
    nodeLevel: true,
    manifests: [privilegedNamespace(GPU_OPERATOR_NAMESPACE)],
    helm: {
      release: 'gpu-operator',
      chart: `${NVIDIA_HELM_REPO.name}/gpu-operator`,
      repo: { ...NVIDIA_HELM_REPO },
      version: s.stack.gpuOperatorVersion,
      namespace: GPU_OPERATOR_NAMESPACE,
      values: gpuOperatorValues(s)
    },
    readiness: {
      summary:
        'cluster-policy ready; on every RDMA node the driver pod Ready with nvidia-peermem-ctr, and allocatable nvidia.com/gpu > 0',
      conditions: [
        'clusterpolicy/cluster-policy status.state == ready',
        'pods -n gpu-operator -l app=nvidia-driver-daemonset: one Ready per RDMA node, container nvidia-peermem-ctr Ready',
        'every RDMA node: status.allocatable["nvidia.com/gpu"] > 0'
      ]
    },
    departsFromGuide:
      "driver.rdma.useHostMofed stays false (the guide sets true, which makes peermem skip waiting for the Network Operator's driver); the chart version is pinned."
  }
}
