// Uninstall's view of the stack: the cluster components walked in reverse, each as what removing it
// means — its helm release (by release name and chart), the objects it applied (deleted only when
// they carry the action's created-by label: what the action created, never what it found), then
// what its operator ran, waited for until none is left. The work namespace of the probe and
// benchmark pods comes first (the last thing a run creates). What `plan --mode uninstall` prints
// and what uninstall executes are this one list.
import type { SourceSpec } from '../health/types.js'
import type { KubeRef } from '../kube/types.js'
import { LABELS, type KubeManifest } from '../model/types.js'
import type { Settings } from '../settings/settings.js'
import { APP_NAME, WORK_LABELS, WORK_NAMESPACE } from '../model/work-labels.js'
import { kubeComponents } from './index.js'
import type { KubeComponent } from './types.js'

/** One object uninstall deletes, and the labels that make it the action's (`true`: any value). */
export interface RemovableObject extends KubeRef {
  marks: Record<string, string | true>
}

/** What removing one part of the stack does, in order: objects, then the release, then namespaces; then the waits. */
export interface RemovalPlan {
  /** A component's name, or `probe-leftovers`. */
  name: string
  title: string
  /** Deleted first, in this order (the reverse of apply's). */
  objects: RemovableObject[]
  /** Its helm release, uninstalled with --wait: only when the release of that name runs this chart. */
  release?: { release: string; namespace: string; chart: string }
  /** Its namespaces, deleted once the release is gone (only those the action created). */
  namespaces: RemovableObject[]
  /** Waited for, after everything above, until none is left. */
  leftovers: SourceSpec[]
  note?: string
}

/** What makes an object the action's for uninstall: it created it (the created-by label, set only on create). */
export const CREATED_MARK = { [LABELS.createdBy]: true } as const

function removable(m: KubeManifest): RemovableObject {
  return {
    apiVersion: m.apiVersion,
    kind: m.kind,
    name: m.metadata.name,
    ...(m.metadata.namespace ? { namespace: m.metadata.namespace } : {}),
    marks: { ...CREATED_MARK }
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
 * in it (its own labels mark it: the action creates it, and nothing else lives there).
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
        name: WORK_NAMESPACE,
        marks: { [LABELS.managed]: 'true', [WORK_LABELS.name]: APP_NAME }
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

/** Whether a live object carries the marks that make it the action's. */
export function isMarked(
  labels: Record<string, string> | undefined,
  marks: RemovableObject['marks']
): boolean {
  return Object.entries(marks).every(([k, v]) => (v === true ? labels?.[k] !== undefined : labels?.[k] === v))
}

/** The marks in words: `label aks-rdma-action/created-by`. */
export function describeMarks(marks: RemovableObject['marks']): string {
  return Object.entries(marks)
    .map(([k, v]) => (v === true ? `label ${k}` : `label ${k}=${v}`))
    .join(' and ')
}
