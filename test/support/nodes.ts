// Node objects as the RDMA pool's nodes look once the stack runs (agentpool label, the NFD PCI
// label, mofed.wait=false), for the tests that judge nodes without a cluster.
import type { KubeObject } from '../../src/kube/types.js'

export interface RdmaNodeOptions {
  /** true (default), false, or NotReady with the kubelet's reason and message. */
  ready?: boolean | { reason: string; message?: string }
  /** Labels added to (or overriding) the pool's. */
  labels?: Record<string, string>
  /** Allocatable resources besides `cpu: 96`. */
  alloc?: Record<string, string>
}

export function rdmaNode(name: string, o: RdmaNodeOptions = {}): KubeObject {
  const ready = o.ready ?? true
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        'kubernetes.azure.com/agentpool': 'rdmapool',
        'feature.node.kubernetes.io/pci-15b3.present': 'true',
        'network.nvidia.com/operator.mofed.wait': 'false',
        ...o.labels
      }
    },
    status: {
      conditions: [
        ready === true
          ? { type: 'Ready', status: 'True' }
          : { type: 'Ready', status: 'False', ...(ready === false ? {} : ready) }
      ],
      allocatable: { cpu: '96', ...o.alloc }
    }
  }
}
