// `status`, read-only: what the action installed on the cluster, for which pools, who holds the Lease,
// and the last run. Docs: docs/day-two.md#what-is-installed-here-status.
import { uninstallPlan } from '../components/removal.js'
import { chartVersionFromObjects, secretsForbidden } from '../drift/helm.js'
import type { HelmReleaseStatus } from '../helm/index.js'
import type { KubeReader } from '../kube/client.js'
import type { KubeObject } from '../kube/types.js'
import { helmSecretsPermission } from '../model/permissions.js'
import { LABELS } from '../model/types.js'
import type { Settings } from '../settings/settings.js'
import { readLastRun, type LastRun } from '../stack/last-run.js'
import { DEFAULT_LEASE_SECONDS, LEASE_NAME, LEASE_NAMESPACE } from '../stack/lease.js'
import {
  AGENT_POOL_KIND,
  HELM_RELEASE_KIND,
  kubeRecordStore,
  OWNERSHIP_RECORD,
  proofOfRelease,
  sameRef,
  type OwnedEntry
} from '../stack/ownership.js'
import type { KubeClient } from '../kube/client.js'

export interface StatusRelease {
  /** The component it belongs to (`gpu-operator`), or `recorded` for one only the record names. */
  component: string
  release: string
  namespace: string
  /** Not installed: the chart and version are null. */
  installed: boolean
  chart: string | null
  version: string | null
  /** helm's status (deployed, failed, …); `unknown` when read from its objects. */
  status: string | null
  revision: number | null
  /** Whether the ownership record proves it the action's, and why (or why not). */
  owned: boolean
  why: string
  /** helm: from `helm status`; objects: from its Deployments' helm annotations (no Secrets read). */
  source: 'helm' | 'objects' | 'none'
}

export interface StatusPool {
  name: string
  /** The pool the inputs select (node-pool). */
  selected: boolean
  /** The ownership record holds it: the action created it. */
  recorded: boolean
  nodes: number
  ready: number
}

export interface StatusLease {
  namespace: string
  name: string
  holder: string | null
  acquireTime: string | null
  renewTime: string | null
  durationSeconds: number
  /** renewTime + duration before now, by this machine's clock (a hint: another machine's clock may differ). */
  expired: boolean
  /** Seconds since the last renewal by this machine's clock (null: never renewed). */
  secondsSinceRenewal: number | null
}

export interface StatusDocument {
  mode: 'status'
  /** The cluster as the kubeconfig names it. */
  cluster: { context?: string; cluster?: string; server?: string; resourceGroup?: string; name?: string }
  /** The ownership record: its entries, or null when there is none. */
  record: { namespace: string; name: string; entries: number } | null
  releases: StatusRelease[]
  pools: StatusPool[]
  /** null: no Lease (no run holds it, none has since it was deleted). */
  lease: StatusLease | null
  /** null: no run recorded. */
  lastRun: LastRun | null
  /** What could not be read, and which permission would read it. */
  notes: string[]
}

export interface StatusContext {
  settings: Settings
  kube: KubeClient
  helmStatus(release: string, namespace: string): Promise<HelmReleaseStatus | undefined>
  cluster: StatusDocument['cluster']
  /** The clock the Lease's expiry is judged by (default: now). */
  now?: () => number
}

const poolOf = (e: OwnedEntry): string => e.name.slice(e.name.lastIndexOf('/') + 1)

function ready(node: KubeObject): boolean {
  const conditions = (node.status?.conditions ?? []) as Array<{ type?: string; status?: string }>
  return conditions.some(c => c.type === 'Ready' && c.status === 'True')
}

async function poolStatus(kube: KubeReader, name: string, selected: boolean, recorded: boolean) {
  const { items } = await kube.list('v1', 'Node', { labelSelector: `${LABELS.agentPool}=${name}` })
  return { name, selected, recorded, nodes: items.length, ready: items.filter(ready).length }
}

async function releaseStatus(
  c: StatusContext,
  component: string,
  spec: { release: string; namespace: string; chart: string },
  entry: OwnedEntry | undefined,
  notes: string[]
): Promise<StatusRelease> {
  const base = { component, release: spec.release, namespace: spec.namespace }
  let st: HelmReleaseStatus | undefined
  try {
    st = await c.helmStatus(spec.release, spec.namespace)
  } catch (e) {
    if (!secretsForbidden(e)) throw e
    const version = await chartVersionFromObjects(c.kube, spec)
    notes.push(
      `${spec.release} -n ${spec.namespace}: read from its objects' helm annotations; status and first deployment not read (${helmSecretsPermission(spec.namespace)})`
    )
    return {
      ...base,
      installed: version !== undefined,
      chart: version ? spec.chart : null,
      version: version ?? null,
      status: version ? 'unknown' : null,
      revision: null,
      owned: false,
      why: entry
        ? `recorded by run ${entry.runId}; not proven (helm's release Secrets not readable)`
        : `not in the ownership record`,
      source: version ? 'objects' : 'none'
    }
  }
  if (!st)
    return {
      ...base,
      installed: false,
      chart: null,
      version: null,
      status: null,
      revision: null,
      owned: false,
      why: entry ? `recorded by run ${entry.runId}, not installed now` : 'not installed',
      source: 'none'
    }
  const proof = proofOfRelease(entry, st)
  return {
    ...base,
    installed: true,
    chart: st.chartName,
    version: st.chartVersion,
    status: st.status,
    revision: st.revision,
    owned: proof.owned,
    why: proof.owned ? proof.how : proof.why,
    source: 'helm'
  }
}

async function leaseStatus(kube: KubeReader, now: number): Promise<StatusLease | null> {
  const lease = await kube.get({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    namespace: LEASE_NAMESPACE,
    name: LEASE_NAME
  })
  if (!lease) return null
  const spec = (lease.spec ?? {}) as Record<string, unknown>
  const time = (v: unknown): string | null => (typeof v === 'string' && v ? v : null)
  const holder = typeof spec.holderIdentity === 'string' && spec.holderIdentity ? spec.holderIdentity : null
  const durationSeconds =
    typeof spec.leaseDurationSeconds === 'number' ? spec.leaseDurationSeconds : DEFAULT_LEASE_SECONDS
  const renewTime = time(spec.renewTime) ?? time(spec.acquireTime)
  const renewed = renewTime ? Date.parse(renewTime) : NaN
  const since = Number.isNaN(renewed) ? null : Math.max(0, Math.round((now - renewed) / 1000))
  return {
    namespace: LEASE_NAMESPACE,
    name: LEASE_NAME,
    holder,
    acquireTime: time(spec.acquireTime),
    renewTime,
    durationSeconds,
    expired: !holder || since === null || since > durationSeconds,
    secondsSinceRenewal: since
  }
}

/** The cluster's status, reading only. */
export async function readStatus(c: StatusContext): Promise<StatusDocument> {
  const s = c.settings
  const notes: string[] = []
  const stored = await kubeRecordStore(c.kube).read()
  const entries = stored?.entries ?? []
  const releases: StatusRelease[] = []
  const listed: OwnedEntry[] = []
  for (const p of uninstallPlan(s)) {
    if (!p.release) continue
    const ref = { ...HELM_RELEASE_KIND, namespace: p.release.namespace, name: p.release.release }
    const entry = entries.find(e => sameRef(e, ref))
    if (entry) listed.push(entry)
    releases.push(await releaseStatus(c, p.name, p.release, entry, notes))
  }
  // A release the record holds that the inputs' stack does not name (another release name, say).
  for (const e of entries)
    if (sameRef(e, { ...HELM_RELEASE_KIND, namespace: e.namespace, name: e.name }) && !listed.includes(e))
      releases.push(
        await releaseStatus(
          c,
          'recorded',
          { release: e.name, namespace: e.namespace ?? '', chart: e.chart ?? '' },
          e,
          notes
        )
      )
  const recordedPools = entries.filter(e => sameRef(e, { ...AGENT_POOL_KIND, name: e.name })).map(poolOf)
  const names = [...new Set([s.nodePool.name, ...recordedPools])]
  const pools: StatusPool[] = []
  for (const name of names)
    pools.push(await poolStatus(c.kube, name, name === s.nodePool.name, recordedPools.includes(name)))
  return {
    mode: 'status',
    cluster: c.cluster,
    record: stored ? { ...OWNERSHIP_RECORD, entries: entries.length } : null,
    releases,
    pools,
    lease: await leaseStatus(c.kube, (c.now ?? Date.now)()),
    lastRun: (await readLastRun(c.kube)) ?? null,
    notes
  }
}
