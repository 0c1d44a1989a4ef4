// What apply does beyond writing when a component changes on a running cluster: CRDs first, OnDelete
// pods replaced, the version as installed. Docs: docs/day-two.md#upgrading.
import type { StalePods } from '../components/types.js'
import type { KubeClient } from '../kube/client.js'
import { refOf, describeRef, type KubeObject } from '../kube/types.js'
import { watchUntil } from '../kube/watch.js'
import type { Log } from '../log/index.js'
import type { KubeManifest } from '../model/types.js'
import type { ComponentSpec } from '../components/index.js'
import type { Settings } from '../settings/settings.js'
import { CRD_SOURCE, newerCrdSource, stampCrd } from './downgrade.js'

/** A CRD of the new chart version that differs from the live one (or is not there yet). */
export interface CrdPlan {
  crd: KubeObject
  reason: string
  live?: KubeObject
  /** Not applied: the live CRD came from this newer version of the chart (it is kept, and said so). */
  keep?: string
}

/**
 * The chart's CRDs that applying would change (absent ones included); the rest are as the chart has
 * them. With `chart` each is stamped with the chart version it comes from (docs/day-two.md), and a
 * live CRD stamped with a newer version of the same chart is planned as kept, never replaced.
 */
export async function crdsToApply(
  client: KubeClient,
  crds: Array<Record<string, any>>,
  chart?: { name: string; version: string }
): Promise<CrdPlan[]> {
  const out: CrdPlan[] = []
  for (const crd of crds) {
    const plain = { ...crd, apiVersion: crd.apiVersion ?? 'apiextensions.k8s.io/v1' } as KubeObject
    const obj = chart ? stampCrd(plain, chart) : plain
    // The CRDs are the chart's: force takes over fields helm (or the chart's own hook) wrote.
    const need = await client.needsApply(obj, { force: true })
    if (need.converged) continue
    const newer = chart ? newerCrdSource(need.live, chart) : undefined
    out.push({
      crd: obj,
      reason: need.reason ?? 'differs',
      ...(need.live ? { live: need.live } : {}),
      ...(newer ? { keep: newer } : {})
    })
  }
  return out
}

const established = (o: KubeObject | undefined): boolean =>
  (o?.status?.conditions ?? []).some((c: any) => c.type === 'Established' && c.status === 'True')

/**
 * Applies the CRDs (server-side, force: they are the chart's) and waits until each is Established,
 * before the chart that serves them is upgraded; one planned as kept is only named. `confirm` is
 * the Lease's check before each write.
 */
export async function applyCrds(
  client: KubeClient,
  plans: CrdPlan[],
  o: { confirm(what: string): Promise<void>; log: Log; timeoutMs: number }
): Promise<string[]> {
  const done: string[] = []
  for (const p of plans) {
    const what = describeRef(refOf(p.crd))
    if (p.keep) {
      const chart = p.crd.metadata.annotations?.[CRD_SOURCE.chart] ?? 'the chart'
      const line = `${what} kept: applied from ${chart} ${p.keep}, newer than ${p.crd.metadata.annotations?.[CRD_SOURCE.chartVersion]} (an older CRD could prune fields of its objects)`
      o.log.info(line)
      done.push(line)
      continue
    }
    await o.confirm(`applying ${what}`)
    const res = await client.applyManifest(p.crd, { force: true, live: p.live ?? null })
    if (!established(res.object))
      await watchUntil(
        client.watchSource('apiextensions.k8s.io/v1', 'CustomResourceDefinition', {
          fieldSelector: `metadata.name=${p.crd.metadata.name}`,
          name: p.crd.metadata.name
        }),
        objects => ({ done: established(objects[0]), message: `waiting for ${what} to be Established` }),
        { timeoutMs: Math.max(1000, o.timeoutMs) }
      )
    const line = `${what} ${res.created ? 'created' : 'updated'} (${p.live ? p.reason : 'new in this chart version'})`
    o.log.info(line)
    done.push(line)
  }
  return done
}

/** Whether two versions are the same (`v26.4.1` and `26.4.1` are, as helm compares chart versions). */
export function sameVersion(a: string, b: string): boolean {
  const bare = (v: string): string => v.trim().replace(/^v/, '')
  return bare(a) === bare(b)
}

/** The value at `path` of an object, as text (undefined when absent or not a scalar). */
function textAt(o: unknown, path: string[]): string | undefined {
  let v: unknown = o
  for (const k of path)
    v = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[k] : undefined
  return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined
}

/**
 * The component's version as installed: its release's chart version, or the field of its
 * manifest it names, read from what observe found (undefined when not installed).
 */
export function installedVersion(
  spec: ComponentSpec,
  o: { chartVersion?: string; live: Array<{ manifest: KubeManifest; live?: KubeObject }> }
): string | undefined {
  const field = spec.version?.field
  if (!spec.version) return undefined
  if (!field) return o.chartVersion
  const m = o.live.find(x => x.manifest.kind === field.kind)
  return m?.live ? textAt(m.live, field.path) : undefined
}

/** Pods of the component's OnDelete DaemonSet that ran what these settings no longer want. */
export async function findStalePods(
  client: KubeClient,
  stale: StalePods,
  s: Settings
): Promise<KubeObject[]> {
  const src = stale.pods(s)
  const { items } = await client.list(src.apiVersion, src.kind, {
    namespace: src.namespace,
    labelSelector: src.labelSelector
  })
  return items.filter(p => !p.metadata.deletionTimestamp && !stale.current(p, s))
}

/** Deletes them (each while it is the pod read); their DaemonSet recreates them from the new template. */
export async function replaceStalePods(
  client: KubeClient,
  pods: KubeObject[],
  o: { confirm(what: string): Promise<void>; log: Log }
): Promise<string[]> {
  const done: string[] = []
  for (const p of pods) {
    const what = `pod/${p.metadata.name} -n ${p.metadata.namespace} on ${p.spec?.nodeName ?? '?'}`
    await o.confirm(`deleting ${what}`)
    if (await client.deleteObject(refOf(p), p.metadata.uid)) {
      const line = `${what} deleted (it ran an earlier version; its replacement runs the current one)`
      o.log.info(line)
      done.push(line)
    }
  }
  return done
}
