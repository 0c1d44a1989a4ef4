// Uninstall's view of the stack: the cluster components in reverse, each as what removing it means;
// `plan --mode uninstall` prints this list and uninstall runs it. Docs: docs/day-two.md#uninstalling.
import type { SourceSpec } from '../health/types.js'
import type { KubeRef } from '../kube/types.js'
import type { KubeManifest } from '../model/types.js'
import type { Settings } from '../settings/settings.js'
import { WORK_NAMESPACE } from '../model/work-labels.js'
import { kubeComponents } from './index.js'
import type { KubeComponent } from './types.js'

/** One object uninstall deletes when the ownership record proves it the action's. */
export type RemovableObject = KubeRef

/** What removing one part of the stack does, in order: objects, then the release, then namespaces; then the waits. */
export interface RemovalPlan {
  /** A component's name, or `probe-leftovers`. */
  name: string
  title: string
  /** Deleted first, in this order (the reverse of apply's). */
  objects: RemovableObject[]
  /** Its helm release, uninstalled with --wait: only when it runs this chart and the record names it. */
  release?: { release: string; namespace: string; chart: string }
  /** Its namespaces, deleted once the release is gone (only those the action created). */
  namespaces: RemovableObject[]
  /** Waited for, after everything above, until none is left. */
  leftovers: SourceSpec[]
  note?: string
}

/** What makes something the action's for uninstall, in words (the plan says it). */
export const OWNERSHIP_RULE = 'recorded in kube-system/aks-rdma-action-owned with its live uid'

function removable(m: KubeManifest): RemovableObject {
  return {
    apiVersion: m.apiVersion,
    kind: m.kind,
    name: m.metadata.name,
    ...(m.metadata.namespace ? { namespace: m.metadata.namespace } : {})
  }
}

/** `nvidia/gpu-operator` → `gpu-operator`: the chart name a release reports. */
const chartName = (chart: string): string => chart.slice(chart.lastIndexOf('/') + 1)

export function removalOf(c: KubeComponent, s: Settings): RemovalPlan {
  const d = c.desired(s)
  const manifests = [...(d.manifests ?? [])].reverse()
  const r = c.removal(s)
  return {
    name: c.name,
    title: d.title,
    objects: manifests.filter(m => m.kind !== 'Namespace').map(removable),
    ...(d.helm
      ? {
          release: { release: d.helm.release, namespace: d.helm.namespace, chart: chartName(d.helm.chart) }
        }
      : {}),
    namespaces: manifests.filter(m => m.kind === 'Namespace').map(removable),
    leftovers: r.leftovers,
    ...(r.note ? { note: r.note } : {})
  }
}

/**
 * The work namespace of the node probes and perftest pods, with whatever an interrupted run left
 * in it (the run that creates it records it; its labels alone prove nothing).
 */
export function probeLeftoversRemoval(): RemovalPlan {
  return {
    name: 'probe-leftovers',
    title: `namespace ${WORK_NAMESPACE} (node probes, perftest pods)`,
    objects: [],
    namespaces: [
      {
        apiVersion: 'v1',
        kind: 'Namespace',
        name: WORK_NAMESPACE
      }
    ],
    leftovers: []
  }
}

/** Everything uninstall removes, in its order: the probe leftovers, then the cluster components in reverse. */
export function uninstallPlan(s: Settings): RemovalPlan[] {
  return [
    probeLeftoversRemoval(),
    ...kubeComponents()
      .reverse()
      .map(c => removalOf(c, s))
  ]
}
