// Drift of one manifest the action server-side applies, decided as apply decides to write (a GET, then a
// dry-run apply when they differ). Docs: docs/drift.md#how-it-reads.
import type { KubeReader } from '../kube/client.js'
import { checkConverged, dryRunChanges, firstDroppedField } from '../kube/converge.js'
import { ApplyConflictError, httpStatusOf } from '../kube/errors.js'
import { refOf, type KubeObject } from '../kube/types.js'
import { FIELD_MANAGER, objectName, type KubeManifest } from '../model/types.js'
import type { DriftItem } from './item.js'
import {
  containedDifferences,
  describeValues,
  formatPath,
  sameJson,
  valueAt,
  type Difference
} from './paths.js'

export { objectName }

function where(m: KubeManifest): string {
  return `${objectName(m)}${m.metadata.namespace ? ` -n ${m.metadata.namespace}` : ''}`
}

/** What the manifest sets, in the shape checkConverged compares (metadata: labels and annotations only). */
function differences(m: KubeManifest, live: KubeObject): Difference[] {
  const { metadata, apiVersion: _a, kind: _k, ...rest } = m
  return [
    ...containedDifferences({ labels: metadata.labels, annotations: metadata.annotations }, live.metadata, [
      { key: 'metadata' }
    ]),
    ...containedDifferences(rest, live)
  ]
}

interface ManagedEntry {
  manager?: string
  operation?: string
  subresource?: string
  fieldsV1?: unknown
}

/** A field this manager applied earlier that the manifest no longer sets (apply would remove it). */
function droppedField(m: KubeManifest, live: KubeObject): string | undefined {
  const entries = ((live.metadata.managedFields ?? []) as ManagedEntry[]).filter(
    e => e.manager === FIELD_MANAGER && e.operation === 'Apply' && !e.subresource
  )
  for (const e of entries) {
    const d = firstDroppedField(e.fieldsV1, m)
    if (d) return d.replace(/^\./, '')
  }
  return undefined
}

/** What a dry-run apply of `m` needs: patch on its resource, where it lives. */
export function dryRunPermission(m: KubeManifest): string {
  const slash = m.apiVersion.indexOf('/')
  const group = slash > 0 ? `.${m.apiVersion.slice(0, slash)}` : ''
  const kind = m.kind.toLowerCase()
  const resource = kind.endsWith('y') ? `${kind.slice(0, -1)}ies` : `${kind}s`
  return `patch on ${resource}${group}${m.metadata.namespace ? ` in namespace ${m.metadata.namespace}` : ''}`
}

/**
 * The differences the client-side comparison found, when the dry-run apply that would confirm
 * them is forbidden: each reported (apply fixes it), the hint saying it was not confirmed and why.
 */
function withoutDryRun(
  m: KubeManifest,
  diffs: Difference[],
  item: (d: Difference, fixable: boolean, hint: string) => DriftItem,
  at: string
): DriftItem[] {
  const note = `compared without a dry-run apply, which needs ${dryRunPermission(m)}`
  const shown = diffs.length
    ? diffs
    : [{ path: [], desired: 'as applied', actual: 'differs from what the action applied' }]
  return shown.map(d => item(d, true, `apply sets it on ${at} (${note})`))
}

export interface ManifestDriftOptions {
  component: string
  /** settings.stack.forceConflicts: whether apply takes over fields other managers hold. */
  force: boolean
}

/** Drift items of one manifest (none when apply would not change it). */
export async function manifestDrift(
  kube: KubeReader,
  m: KubeManifest,
  o: ManifestDriftOptions
): Promise<DriftItem[]> {
  const name = objectName(m)
  const live = await kube.get(refOf(m))
  if (!live)
    return [
      {
        component: o.component,
        field: name,
        desired: 'present',
        actual: 'absent',
        fixableByApply: true,
        hint: `apply creates ${where(m)}`
      }
    ]
  if (checkConverged(m as KubeObject, live, FIELD_MANAGER).converged) return []

  const diffs = differences(m, live)
  const item = (d: Difference, fixable: boolean, hint: string): DriftItem => ({
    component: o.component,
    field: d.path.length ? `${name} ${formatPath(d.path)}` : name,
    ...describeValues(d.desired, d.actual),
    fixableByApply: fixable,
    hint
  })
  let dry: KubeObject
  try {
    dry = (await kube.dryRunApply(m as KubeObject, { force: o.force, live })).object
  } catch (e) {
    // An identity that may only read (no patch): what the client-side comparison found, said so.
    if (httpStatusOf(e) === 403) return withoutDryRun(m, diffs, item, where(m))
    if (!(e instanceof ApplyConflictError)) throw e
    const hint = `apply fails on a conflict (${e.message}); set \`force-conflicts: true\` to take the fields over`
    const shown = diffs.length
      ? diffs
      : [{ path: [], desired: 'as applied', actual: 'held by another manager' }]
    return shown.map(d => item(d, false, hint))
  }
  if (!dryRunChanges(dry, live)) return []
  const changed = diffs.filter(d => !sameJson(valueAt(dry, d.path), valueAt(live, d.path)))
  if (changed.length) return changed.map(d => item(d, true, `apply sets it on ${where(m)}`))
  const dropped = droppedField(m, live)
  return [
    {
      component: o.component,
      field: dropped ? `${name} ${dropped}` : name,
      desired: dropped ? '(absent)' : 'as applied',
      actual: dropped ? 'set, owned by aks-rdma-action' : 'differs (a dry-run apply would change it)',
      fixableByApply: true,
      hint: dropped ? `apply removes it from ${where(m)}` : `apply re-applies ${where(m)}`
    }
  ]
}
