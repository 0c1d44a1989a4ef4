// The action's ownership record, the ConfigMap kube-system/aks-rdma-action-owned: what the action created
// and the identity it had then. Docs: docs/security.md#what-the-action-owns.
import type { KubeClient } from '../kube/client.js'
import { httpStatusOf, isConflict, isNotFound, KubeRequestError, messageOf } from '../kube/errors.js'
import type { KubeObject, KubeRef } from '../kube/types.js'
import { LABELS, type KubeManifest } from '../model/types.js'
import { runLabel } from '../model/work-labels.js'
import { parsePools, POOLS_KEY, type PoolEntry } from './pool-record.js'

export { managedPools, POOLS_KEY, type PoolEntry } from './pool-record.js'

export const OWNERSHIP_RECORD = { namespace: 'kube-system', name: 'aks-rdma-action-owned' } as const
/** The record's one data key: a JSON array of entries. */
export const RECORD_KEY = 'owned.json'
/** How a helm release is named in the record (it has no apiVersion of its own). */
export const HELM_RELEASE_KIND = { apiVersion: 'helm.sh/v3', kind: 'HelmRelease' } as const
/** How an AKS node pool is named in the record: its uid is the created-by tag value the run gave it. */
export const AGENT_POOL_KIND = { apiVersion: 'containerservice.azure.com/v1', kind: 'AgentPool' } as const

/** One thing the action created (or, for a release, adopted) and the identity it had. */
export interface OwnedEntry {
  apiVersion: string
  kind: string
  namespace?: string
  name: string
  /** The object's UID once created (absent while pending). */
  uid?: string
  /** A release's chart name, and its first deployment time as helm reports it (absent while pending). */
  chart?: string
  firstDeployed?: string
  /** The run that created or adopted it. */
  runId: string
  /** When the entry was written (ISO time, the runner's clock). */
  at: string
  /** pending: written just before the create; created: completed after it; adopted: a hand-installed release taken over. */
  state: 'pending' | 'created' | 'adopted'
}

/**
 * What the record holds: the owned entries, and the managed pools (undefined: the record has no
 * pools key, as one an earlier version of the action wrote).
 */
export interface RecordData {
  entries: OwnedEntry[]
  pools?: PoolEntry[]
}

/** Where the record lives: read (undefined when there is none), write over a resourceVersion, delete. */
export interface RecordStore {
  read(): Promise<(RecordData & { resourceVersion: string }) | undefined>
  /** Writes both keys; `resourceVersion` undefined creates the record. Throws a 409 error when it moved. */
  write(data: RecordData, resourceVersion: string | undefined): Promise<string>
  /** Deletes the record while it is at `resourceVersion`. */
  remove(resourceVersion: string): Promise<void>
}

const group = (apiVersion: string): string => (apiVersion.includes('/') ? apiVersion.split('/')[0] : '')

/** Whether an entry names this object (group, kind, namespace and name; the version may move). */
export function sameRef(
  e: Pick<OwnedEntry, 'apiVersion' | 'kind' | 'namespace' | 'name'>,
  ref: KubeRef
): boolean {
  return (
    group(e.apiVersion) === group(ref.apiVersion) &&
    e.kind === ref.kind &&
    (e.namespace ?? '') === (ref.namespace ?? '') &&
    e.name === ref.name
  )
}

export function releaseRef(release: string, namespace: string): KubeRef {
  return { ...HELM_RELEASE_KIND, namespace, name: release }
}

/** A node pool as the record names it: `<resource group>/<cluster>/<pool>`. */
export function poolRef(resourceGroup: string, cluster: string, pool: string): KubeRef {
  return { ...AGENT_POOL_KIND, name: `${resourceGroup}/${cluster}/${pool}` }
}

const str = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 400

/** The entries of a record's text; anything not of an entry's shape is dropped (the text is the cluster's). */
export function parseEntries(text: string | undefined): OwnedEntry[] {
  let raw: unknown
  try {
    raw = JSON.parse(text ?? '[]')
  } catch {
    return []
  }
  if (!Array.isArray(raw)) return []
  const out: OwnedEntry[] = []
  for (const r of raw as Array<Record<string, unknown>>) {
    if (typeof r !== 'object' || r === null) continue
    if (!str(r.apiVersion) || !str(r.kind) || !str(r.name) || !str(r.runId) || !str(r.at)) continue
    if (r.state !== 'pending' && r.state !== 'created' && r.state !== 'adopted') continue
    out.push({
      apiVersion: r.apiVersion,
      kind: r.kind,
      ...(str(r.namespace) ? { namespace: r.namespace } : {}),
      name: r.name,
      ...(str(r.uid) ? { uid: r.uid } : {}),
      ...(str(r.chart) ? { chart: r.chart } : {}),
      ...(str(r.firstDeployed) ? { firstDeployed: r.firstDeployed } : {}),
      runId: r.runId,
      at: r.at,
      state: r.state
    })
  }
  return out
}

/** The pod security label the operators' namespaces need, and its value. */
export const POD_SECURITY = { label: 'pod-security.kubernetes.io/enforce', value: 'privileged' } as const

/**
 * A namespace that exists and that the action did not create keeps its labels (apply writes none,
 * drift compares none); when it lacks the pod security label the manifest asks for, what to say:
 * the label the operators need and the command that adds it.
 */
export function foreignNamespaceNote(m: KubeManifest, live: KubeObject): string | undefined {
  const wanted = m.metadata.labels?.[POD_SECURITY.label]
  if (!wanted || live.metadata.labels?.[POD_SECURITY.label] === wanted) return undefined
  return `namespace ${m.metadata.name} was not created by the action: its labels are left alone; the operators need ${POD_SECURITY.label}=${wanted} (kubectl label namespace ${m.metadata.name} ${POD_SECURITY.label}=${wanted})`
}

/** Whether a live thing is the action's, and why (or why not), in words. */
export type Proof = { owned: true; how: string } | { owned: false; why: string }

const RECORD_NAME = `${OWNERSHIP_RECORD.namespace}/${OWNERSHIP_RECORD.name}`

/**
 * Whether the live object is the one the action created: its UID is the recorded one. A pending
 * entry (the run stopped between the create and completing the entry) proves it only when the
 * object carries that run's created-by label, which holds the run's random nonce and which the
 * action sets only on an object its own create made; a pre-made or re-created object fails both.
 */
export function proofOfObject(e: OwnedEntry | undefined, live: KubeObject): Proof {
  if (!e) return { owned: false, why: `not in the action's ownership record ${RECORD_NAME}` }
  if (e.uid)
    return live.metadata.uid === e.uid
      ? { owned: true, how: `recorded uid ${e.uid}` }
      : {
          owned: false,
          why: `its uid ${live.metadata.uid ?? '(none)'} is not the recorded ${e.uid}: someone else made it again`
        }
  if (live.metadata.labels?.[LABELS.createdBy] === runLabel(e.runId))
    return { owned: true, how: `created by run ${e.runId} (pending entry, the run's created-by label)` }
  return {
    owned: false,
    why: `the record holds only a pending entry of run ${e.runId}, and it does not carry that run's created-by label`
  }
}

/** ISO times to epoch ms, whatever their fraction's length (helm writes nanoseconds). */
export function timeOf(iso: string | undefined): number {
  if (!iso) return NaN
  return Date.parse(iso.replace(/(\.\d{3})\d+/, '$1'))
}

/**
 * Whether the live release is the one the action installed or adopted: same chart, and its first
 * deployment is the recorded one (a release uninstalled and installed again by hand has another).
 * A pending entry (the run stopped during `helm install`) proves a release of that chart first
 * deployed at or after the entry was written (both times are the installing runner's clock).
 */
export function proofOfRelease(
  e: OwnedEntry | undefined,
  live: { chartName: string; firstDeployed?: string }
): Proof {
  if (!e) return { owned: false, why: `not in the action's ownership record ${RECORD_NAME}` }
  if (e.chart && e.chart !== live.chartName)
    return { owned: false, why: `it runs chart ${live.chartName}, the record chart ${e.chart}` }
  if (e.firstDeployed)
    return live.firstDeployed === e.firstDeployed
      ? { owned: true, how: `${e.state === 'adopted' ? 'adopted' : 'installed'} by run ${e.runId}` }
      : {
          owned: false,
          why: `first deployed ${live.firstDeployed ?? '(unknown)'}, not at the recorded ${e.firstDeployed}: installed again by someone else`
        }
  if (timeOf(live.firstDeployed) >= timeOf(e.at))
    return { owned: true, how: `installed by run ${e.runId} (pending entry, first deployed after it)` }
  return {
    owned: false,
    why: `first deployed ${live.firstDeployed ?? '(unknown)'}, before run ${e.runId}'s pending entry (${e.at})`
  }
}

/**
 * A failed write of the record, as every other failed request reads (a 403 names the permission
 * to grant); a conflict stays as the server sent it, for the caller to read again.
 */
function named(what: string): (e: unknown) => never {
  return e => {
    if (isConflict(e)) throw e
    throw new KubeRequestError(what, httpStatusOf(e), messageOf(e), e)
  }
}

/** The record over a KubeClient: a GET, then create or replace with the resourceVersion read. */
export function kubeRecordStore(client: KubeClient): RecordStore {
  const ref = { apiVersion: 'v1', kind: 'ConfigMap', ...OWNERSHIP_RECORD }
  /** The record's other data keys as last read or written (the last run's, stack/last-run.ts): kept on a write. */
  let others: Record<string, string> = {}
  const keepOthers = (data: Record<string, string> | undefined): void => {
    others = Object.fromEntries(
      Object.entries(data ?? {}).filter(([k]) => k !== RECORD_KEY && k !== POOLS_KEY)
    )
  }
  const body = (data: RecordData, resourceVersion?: string) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      ...OWNERSHIP_RECORD,
      labels: { [LABELS.managed]: 'true' },
      ...(resourceVersion ? { resourceVersion } : {})
    },
    data: {
      ...(resourceVersion ? others : {}),
      [RECORD_KEY]: JSON.stringify(data.entries, null, 1),
      ...(data.pools ? { [POOLS_KEY]: JSON.stringify(data.pools, null, 1) } : {})
    }
  })
  return {
    async read() {
      const live = await client.get(ref)
      keepOthers(live?.data as Record<string, string> | undefined)
      if (!live) return undefined
      const data = live.data as Record<string, string> | undefined
      const pools = parsePools(data?.[POOLS_KEY])
      return {
        entries: parseEntries(data?.[RECORD_KEY]),
        ...(pools ? { pools } : {}),
        resourceVersion: live.metadata.resourceVersion ?? ''
      }
    },
    async write(entries, resourceVersion) {
      const what = `${resourceVersion ? 'update' : 'create'} configmap ${RECORD_NAME}`
      const out = await client
        .request(
          what,
          () =>
            resourceVersion
              ? client.core.replaceNamespacedConfigMap({
                  ...OWNERSHIP_RECORD,
                  body: body(entries, resourceVersion) as never
                })
              : client.core.createNamespacedConfigMap({
                  namespace: OWNERSHIP_RECORD.namespace,
                  body: body(entries) as never
                }),
          true
        )
        .catch(named(what))
      const written = out as { metadata?: { resourceVersion?: string }; data?: Record<string, string> }
      keepOthers(written.data)
      return written.metadata?.resourceVersion ?? ''
    },
    async remove(resourceVersion) {
      try {
        await client.request(
          `delete configmap ${RECORD_NAME}`,
          () =>
            client.core.deleteNamespacedConfigMap({
              ...OWNERSHIP_RECORD,
              body: { preconditions: { resourceVersion } } as never
            }),
          true
        )
      } catch (e) {
        if (!isNotFound(e)) named(`delete configmap ${RECORD_NAME}`)(e)
      }
    }
  }
}

/**
 * The record as one run uses it: read once (again after `invalidate`), changed by a function of
 * the entries, written over the resourceVersion it read; when another writer moved it, read again
 * and apply the change again.
 */
export class OwnershipRecord {
  private state?: RecordData & { resourceVersion?: string }
  /** Changes one after another (the pipelined rollout converges several components at once). */
  private queue: Promise<unknown> = Promise.resolve()

  constructor(
    private readonly store: RecordStore,
    readonly runId: string,
    private readonly now: () => Date = () => new Date()
  ) {}

  static of(client: KubeClient, runId: string): OwnershipRecord {
    return new OwnershipRecord(kubeRecordStore(client), runId)
  }

  /** Forget what was read: the next look reads the record again (another run may have changed it). */
  invalidate(): void {
    this.state = undefined
  }

  async entries(): Promise<OwnedEntry[]> {
    this.state ??= (await this.store.read()) ?? { entries: [] }
    return this.state.entries
  }

  /** The managed pools as recorded (undefined: the record has no pools key; an earlier version wrote it, or there is none). */
  async pools(): Promise<PoolEntry[] | undefined> {
    await this.entries()
    return this.state?.pools
  }

  async find(ref: KubeRef): Promise<OwnedEntry | undefined> {
    return (await this.entries()).find(e => sameRef(e, ref))
  }

  async findRelease(release: string, namespace: string): Promise<OwnedEntry | undefined> {
    return this.find(releaseRef(release, namespace))
  }

  /** Applies `change` to the entries and writes them (an empty record is deleted); retried on a conflict. */
  private change(change: (entries: OwnedEntry[]) => OwnedEntry[]): Promise<void> {
    return this.changeData(d => ({ ...d, entries: change(d.entries) }))
  }

  /**
   * Applies `change` to the pools (the record's pools key; undefined: none yet) and writes the
   * record; retried on a conflict like every change.
   */
  changePools(change: (pools: PoolEntry[] | undefined) => PoolEntry[]): Promise<void> {
    return this.changeData(d => ({ ...d, pools: change(d.pools?.slice()) }))
  }

  private changeData(change: (data: RecordData) => RecordData): Promise<void> {
    const next = this.queue.then(() => this.write(change))
    this.queue = next.catch(() => undefined)
    return next
  }

  private async write(change: (data: RecordData) => RecordData): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const entries = await this.entries()
      const rv = this.state?.resourceVersion
      const next = change({
        entries: entries.slice(),
        ...(this.state?.pools ? { pools: this.state.pools } : {})
      })
      // Nothing owned and no pool: the record goes (an empty pools key says no more than none).
      const empty = !next.entries.length && !next.pools?.length
      try {
        if (empty && rv) {
          await this.store.remove(rv)
          this.state = { entries: [] }
        } else if (!empty) this.state = { ...next, resourceVersion: await this.store.write(next, rv) }
        return
      } catch (e) {
        if (!isConflict(e) || attempt >= 4) throw e
        this.invalidate()
      }
    }
  }

  private entry(ref: KubeRef, extra: Partial<OwnedEntry>, state: OwnedEntry['state']): OwnedEntry {
    return {
      apiVersion: ref.apiVersion,
      kind: ref.kind,
      ...(ref.namespace ? { namespace: ref.namespace } : {}),
      name: ref.name,
      runId: this.runId,
      at: this.now().toISOString(),
      ...extra,
      state
    }
  }

  private put(e: OwnedEntry): Promise<void> {
    return this.change(es => [...es.filter(x => !sameRef(x, e)), e])
  }

  /** Before creating `ref`: what a run stopped right after the create leaves. */
  pending(ref: KubeRef, extra: Partial<OwnedEntry> = {}): Promise<void> {
    return this.put(this.entry(ref, extra, 'pending'))
  }

  /** After creating it: its identity (uid, or a release's first deployment); `runId` to keep a pending entry's run. */
  created(ref: KubeRef, identity: Partial<OwnedEntry>): Promise<void> {
    return this.put(this.entry(ref, identity, 'created'))
  }

  /** A hand-installed release taken over (adopt-releases). */
  adopted(ref: KubeRef, identity: Partial<OwnedEntry>): Promise<void> {
    return this.put(this.entry(ref, identity, 'adopted'))
  }

  /** Drops the entry of `ref` (deleted, or a pending create that made nothing); no write when there is none. */
  async forget(ref: KubeRef): Promise<void> {
    if (!(await this.find(ref))) return
    await this.change(es => es.filter(x => !sameRef(x, ref)))
  }
}
