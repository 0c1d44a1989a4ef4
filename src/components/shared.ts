// What more than one component module uses: the names and files components share, the
// privileged namespace, the pods a chart leaves, and drift's reading of the images pods run.
import type { KubeObject } from '../kube/types.js'
import type { KubeManifest } from '../model/types.js'
import { shortValue } from '../util/text.js'
import type { Removal } from './types.js'

export const NVIDIA_HELM_REPO = { name: 'nvidia', url: 'https://helm.ngc.nvidia.com/nvidia' } as const
export const NETWORK_OPERATOR_NAMESPACE = 'network-operator'

/** The chart's pods (the operator, NFD) carry its instance label; helm uninstall --wait leaves them terminating. */
export function releasePods(release: string, namespace: string): Removal {
  return {
    leftovers: [
      {
        name: `${release}-pods`,
        apiVersion: 'v1',
        kind: 'Pod',
        namespace,
        labelSelector: `app.kubernetes.io/instance=${release}`
      }
    ]
  }
}

export const NODE_FEATURE_RULE = 'nfd-network-rule'

/** Node agents the pool cannot do without: evicted last, scheduled first. */
export const NODE_CRITICAL = 'system-node-critical'

/**
 * The host file ib-node-config writes LAST (after memlock, the restarts of containerd and kubelet
 * and the checks of the result): the modules to load at boot. Its presence on a node means the
 * node's setup is complete, so the RDMA device plugin's init container waits for it (the per-node
 * order ib-node-config → device plugin, which needs no action running). Nodes set up by the
 * guide's own DaemonSet have it too.
 */
export const IB_NODE_CONFIG_DONE_FILE = '/etc/modules-load.d/ib-umad.conf'

/** A namespace labelled for the privileged pod security level the operators need. */
export function privilegedNamespace(name: string): KubeManifest {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, labels: { 'pod-security.kubernetes.io/enforce': 'privileged' } }
  }
}

/** Pod images of `container` that differ from `ok`, as "image on N/M pods (node, …)". */
export function podImages(
  pods: KubeObject[],
  container: string,
  ok: (image: string) => boolean
): { bad: number; summary: string } | undefined {
  const off = new Map<string, string[]>()
  for (const p of pods) {
    const c = (p.spec?.containers ?? []).find((x: { name: string }) => x.name === container)
    if (!c || ok(c.image)) continue
    off.set(c.image, [...(off.get(c.image) ?? []), p.spec?.nodeName ?? p.metadata.name])
  }
  if (off.size === 0) return undefined
  const bad = [...off.values()].reduce((n, l) => n + l.length, 0)
  const summary = [...off.entries()]
    .map(
      ([img, where]) =>
        `${img} on ${where.length}/${pods.length} pods (${where.slice(0, 3).join(', ')}${where.length > 3 ? ', …' : ''})`
    )
    .join('; ')
  return { bad, summary: shortValue(summary, 200) }
}

/** Whether drift already reported `object` itself, or a path in it under `under`. */
export function reported(found: Array<{ field: string }>, object: string, under = ''): boolean {
  return found.some(i => i.field === object || i.field.startsWith(`${object} ${under}`))
}
