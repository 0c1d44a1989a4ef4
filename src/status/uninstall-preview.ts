// `uninstall --dry-run`: what uninstall would remove and keep, and why, walking the same parts with the
// same read-only observation. Docs: docs/day-two.md#before-uninstalling-uninstall---dry-run.
import { uninstallPlan } from '../components/removal.js'
import type { HelmReleaseStatus } from '../helm/index.js'
import type { KubeClient } from '../kube/client.js'
import { describeRef } from '../kube/types.js'
import { buildUninstallPlan } from '../plan/uninstall-plan.js'
import type { Settings } from '../settings/settings.js'
import { OwnershipRecord, OWNERSHIP_RECORD } from '../stack/ownership.js'
import { observeRemoval } from '../stack/uninstall.js'
import { secretsForbidden } from '../drift/helm.js'
import { helmSecretsPermission } from '../model/permissions.js'
import type { StatusDocument } from './status.js'

export interface PreviewItem {
  what: string
  why: string
}

export interface PreviewPart {
  name: string
  title: string
  /** What uninstall would delete, in its order. */
  remove: PreviewItem[]
  /** What its operator ran, that uninstall would wait for until it is gone. */
  waits: string[]
  /** What it would leave, and why. */
  keep: PreviewItem[]
  /** What waiting for its operator's leftovers means (the driver pods unloading, say). */
  note?: string
}

export interface UninstallPreview {
  mode: 'uninstall'
  dryRun: true
  cluster: StatusDocument['cluster']
  record: string
  parts: PreviewPart[]
  /** The node pool and cluster (the cleanup input): not read, as plan --mode uninstall says it. */
  azure: string
  /** What uninstall never removes (plan --mode uninstall's list). */
  stays: string[]
  removeCount: number
  keepCount: number
}

export interface PreviewContext {
  settings: Settings
  kube: KubeClient
  helmStatus(release: string, namespace: string): Promise<HelmReleaseStatus | undefined>
  cluster: StatusDocument['cluster']
}

export async function previewUninstall(c: PreviewContext): Promise<UninstallPreview> {
  const s = c.settings
  const record = OwnershipRecord.of(c.kube, s.runId)
  const parts: PreviewPart[] = []
  for (const p of uninstallPlan(s)) {
    const unreadable: PreviewItem[] = []
    const found = await observeRemoval(
      {
        client: c.kube,
        helmStatus: async (name, namespace) => {
          try {
            return await c.helmStatus(name, namespace)
          } catch (e) {
            if (!secretsForbidden(e)) throw e
            unreadable.push({
              what: `helm release ${name} -n ${namespace}`,
              why: `not read: ${helmSecretsPermission(namespace)}; uninstall needs it`
            })
            return undefined
          }
        },
        record,
        adoptReleases: s.stack.adoptReleases
      },
      p
    )
    const remove: PreviewItem[] = found.objects.map(o => ({ what: describeRef(o.target), why: o.how }))
    if (p.release && found.release)
      remove.push({
        what: `helm release ${p.release.release} -n ${p.release.namespace} (${found.release})`,
        why: found.releaseHow ?? ''
      })
    remove.push(...found.namespaces.map(o => ({ what: describeRef(o.target), why: o.how })))
    parts.push({
      name: p.name,
      title: p.title,
      remove,
      waits: found.leftovers.map(l => `${l.count} ${l.source.name}`),
      keep: [...found.kept, ...unreadable],
      ...(found.leftovers.length && p.note ? { note: p.note } : {})
    })
  }
  const removeCount = parts.reduce((n, p) => n + p.remove.length, 0)
  const plan = buildUninstallPlan(s)
  return {
    mode: 'uninstall',
    dryRun: true,
    cluster: c.cluster,
    record: `${OWNERSHIP_RECORD.namespace}/${OWNERSHIP_RECORD.name}`,
    parts,
    azure: plan.azure,
    stays: plan.stays,
    removeCount,
    keepCount: parts.reduce((n, p) => n + p.keep.length, 0)
  }
}
