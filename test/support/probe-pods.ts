// Unit-test helper: the node probe's pods as the DaemonSet controller makes them (named for the
// DaemonSet and the node, its template's labels, a controller owner reference, single-node
// affinity, bound to the node unless said otherwise) and as the kubelet leaves them: the probe init
// container running, or terminated with its termination message (src/verify/probe-output.ts).
import type { KubeObject } from '../../src/kube/types.js'
import { pinToNode } from '../../src/verify/probe.js'

/** A DaemonSet pod for `node` as the controller makes it: owner reference, single-node affinity. */
export function dsPod(
  ds: KubeObject,
  node: string,
  status: object,
  o: { uid?: string; bound?: boolean } = {}
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${ds.metadata.name}-${node}`,
      namespace: ds.metadata.namespace,
      labels: ds.spec.template.metadata.labels,
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'DaemonSet',
          name: ds.metadata.name,
          uid: o.uid ?? ds.metadata.uid!,
          controller: true
        }
      ]
    },
    spec: { ...(o.bound === false ? {} : { nodeName: node }), affinity: pinToNode(node), containers: [] },
    status
  }
}

/** The probe's init container ended with `exitCode` and its termination message. */
export const terminated = (exitCode: number, message: string, reason?: string) => ({
  phase: 'Running',
  initContainerStatuses: [
    { name: 'probe', state: { terminated: { exitCode, message, ...(reason ? { reason } : {}) } } }
  ]
})
