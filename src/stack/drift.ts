// Drift mode: every enabled component compared with the live one, strictly read-only.
// Docs: docs/drift.md, docs/existing-kubeconfig.md (the Azure components without a subscription-id).
import type { AzureConnection } from '../azure/index.js'
import { components, isKubeComponent, type Component } from '../components/index.js'
import { ensureHelm, Helm } from '../helm/index.js'
import { KubeClient } from '../kube/client.js'
import { messageOf } from '../kube/errors.js'
import { silentLog, type Log } from '../log/index.js'
import type { DriftItem } from '../drift/item.js'
import type { Settings } from '../settings/settings.js'
import {
  foreignNamespaceNote,
  kubeRecordStore,
  proofOfObject,
  sameRef,
  type OwnedEntry
} from './ownership.js'
import { refOf, type KubeObject } from '../kube/types.js'
import type { KubeManifest } from '../model/types.js'
import { releaseDrift, type ReleaseDrift } from '../drift/helm.js'
import { manifestDrift } from '../drift/manifests.js'
import { NODES_COMPONENT, nodeDrift } from '../drift/nodes.js'
import { managedPools } from './managed-pools.js'
import { settingsWithRecordedPools } from './pools.js'

export { objectName, releaseName } from '../model/types.js'

export interface DriftContext {
  settings: Settings
  /** Absent (a kubeconfig given without subscription-id): the Azure components are not compared. */
  azure?: AzureConnection
  kubeconfigPath: string
  /** Where each component's outcome goes (default: nowhere). */
  log?: Log
}

/** Some components could not be read; `items` holds the drift found in the others. */
export class DriftError extends Error {
  constructor(
    message: string,
    readonly items: DriftItem[]
  ) {
    super(message)
    this.name = 'DriftError'
  }
}

interface Readers {
  ctx: DriftContext
  kube: KubeClient
  helm(): Promise<Helm>
  /** The ownership record's entries (read once; empty when there is none, undefined when it cannot be read). */
  owned(): Promise<OwnedEntry[] | undefined>
}

/**
 * A namespace that exists and that the action did not create keeps its labels (apply writes none),
 * so its labels are not drift; what it lacks is said as apply says it. Undefined: compare it.
 */
async function foreignNamespace(m: KubeManifest, r: Readers): Promise<{ note?: string } | undefined> {
  if (m.kind !== 'Namespace') return undefined
  const live = await r.kube.get(refOf(m as KubeObject))
  if (!live || live.metadata.deletionTimestamp) return undefined
  const entries = await r.owned()
  if (!entries) return undefined
  const entry = entries.find(e => sameRef(e, refOf(live)))
  if (proofOfObject(entry, live).owned) return undefined
  const note = foreignNamespaceNote(m, live)
  return note ? { note } : {}
}

/** One component's drift: an Azure one compares its resource; a cluster one its manifests, its release and its extras. */
async function componentDrift(c: Component, r: Readers): Promise<DriftItem[]> {
  const s = r.ctx.settings
  if (!isKubeComponent(c)) return c.drift({ component: c.name, settings: s, clients: r.ctx.azure!.clients })
  const desired = c.desired(s)
  const found: DriftItem[] = []
  for (const m of desired.manifests ?? []) {
    const foreign = await foreignNamespace(m, r)
    if (foreign) {
      if (foreign.note) (r.ctx.log ?? silentLog).warning(`${c.name}: ${foreign.note}`)
      continue
    }
    found.push(...(await manifestDrift(r.kube, m, { component: c.name, force: s.stack.forceConflicts })))
  }
  let release: ReleaseDrift | undefined
  if (desired.helm) {
    release = await releaseDrift(await r.helm(), desired.helm, c.name, r.kube)
    found.push(...release.items)
    if (release.notCompared) (r.ctx.log ?? silentLog).warning(`${c.name}: ${release.notCompared}`)
  }
  const extras = await c.driftExtras({
    component: c.name,
    settings: s,
    kube: r.kube,
    desired,
    found,
    ...(release ? { release: { status: release.status, valuePaths: release.valuePaths } } : {})
  })
  return [...found, ...extras]
}

/**
 * Compares the desired state of every enabled component with the live one and returns the
 * differences, in stack order. Read-only. Throws DriftError (with the items found elsewhere)
 * when some component could not be read.
 */
export async function detectDrift(given: DriftContext): Promise<DriftItem[]> {
  const log = given.log ?? silentLog
  const kube = KubeClient.fromFile(given.kubeconfigPath, { retries: given.settings.wait.retries, log })
  // The cluster-wide objects as apply writes them: for every managed pool the record lists.
  const ctx = { ...given, settings: await settingsWithRecordedPools(kube, given.settings, log) }
  const s = ctx.settings
  let helm: Promise<Helm> | undefined
  let owned: Promise<OwnedEntry[] | undefined> | undefined
  const readers: Readers = {
    ctx,
    kube,
    owned: () =>
      (owned ??= kubeRecordStore(kube)
        .read()
        .then(
          rec => rec?.entries ?? [],
          (e: unknown) => {
            log.warning(
              `the ownership record could not be read (${messageOf(e)}): namespaces compared as the action's`
            )
            return undefined
          }
        )),
    helm: () =>
      (helm ??= ensureHelm(s.stack.helmVersion, { log, pathSha256: s.stack.helmSha256 }).then(
        helmPath => new Helm({ helmPath, kubeconfig: ctx.kubeconfigPath })
      ))
  }
  const items: DriftItem[] = []
  const failures: string[] = []
  for (const c of components()) {
    if (c.skip(s) !== undefined) continue
    if (!isKubeComponent(c) && !ctx.azure) {
      log.info(`${c.name}: not compared (no Azure sign-in: give subscription-id to compare it)`)
      continue
    }
    try {
      const found = await componentDrift(c, readers)
      items.push(...found)
      log.info(
        found.length
          ? `${c.name}: ${found.length} drifted field${found.length > 1 ? 's' : ''}: ${found.map(f => f.field).join(', ')}`
          : `${c.name}: as desired`
      )
    } catch (e) {
      failures.push(`${c.name}: ${messageOf(e)}`)
      log.info(`${c.name}: could not be read: ${messageOf(e)}`)
    }
  }
  // The pool's nodes (all-pools: every managed pool's): one left cordoned or held by a driver
  // upgrade is named with its fix.
  try {
    const pools = s.allPools ? await managedPools(kube, s.nodePool.name) : { pools: [s.nodePool.name] }
    if ('note' in pools && pools.note) log.warning(`all-pools: ${pools.note}`)
    const found: DriftItem[] = []
    for (const pool of pools.pools) found.push(...(await nodeDrift(kube, pool)))
    items.push(...found)
    log.info(
      found.length
        ? `${NODES_COMPONENT}: ${found.length} node state${found.length > 1 ? 's' : ''} to resolve: ${found.map(f => f.field).join(', ')}`
        : `${NODES_COMPONENT}: none cordoned or mid-upgrade`
    )
  } catch (e) {
    failures.push(`${NODES_COMPONENT}: ${messageOf(e)}`)
    log.info(`${NODES_COMPONENT}: could not be read: ${messageOf(e)}`)
  }
  if (failures.length)
    throw new DriftError(
      `drift could not read ${failures.length} component${failures.length > 1 ? 's' : ''}: ${failures.join('; ')}`,
      items
    )
  return items
}
