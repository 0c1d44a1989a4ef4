// The namespace of the action's short-lived pods (recorded in the ownership record so uninstall may
// remove it), run labels, pod creation and cleanup by label. Touches no stack resource. See docs/day-two.md.
import { createHash } from 'node:crypto'
import { plain, type KubeClient, type KubeReader, type KubeWriter } from '../kube/client.js'
import type { KubeObject } from '../kube/types.js'
import { LABELS } from '../model/types.js'
import { APP_NAME, runLabel, WORK_LABELS, WORK_NAMESPACE } from '../model/work-labels.js'
import { OwnershipRecord } from '../stack/ownership.js'

export { APP_NAME, runLabel, WORK_LABELS, WORK_NAMESPACE, workLabels } from '../model/work-labels.js'

/**
 * The spec fields every run-once work pod shares: never restarted, no API token or service links,
 * gone a second after it is deleted, and bounded in time.
 */
export function runOncePodSpec(deadlineSeconds = 1800) {
  return {
    restartPolicy: 'Never',
    automountServiceAccountToken: false,
    enableServiceLinks: false,
    terminationGracePeriodSeconds: 1,
    activeDeadlineSeconds: deadlineSeconds
  } as const
}

/** A short stable tag of a run for pod names (6 hex characters). */
export function runTag(runId: string): string {
  return createHash('sha256').update(runId).digest('hex').slice(0, 6)
}

/** A DNS-1123 label of at most `max` characters built from parts (lower case, `-` joined). */
export function dnsName(parts: string[], max = 63): string {
  const s = parts
    .join('-')
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-')
    .replace(/-+/g, '-')
  const cut =
    s.length > max ? `${s.slice(0, max - 7)}-${createHash('sha256').update(s).digest('hex').slice(0, 6)}` : s
  return cut.replace(/^-+|-+$/g, '')
}

/** The work namespace; `runId`: the run creating it (its created-by label, a pending entry's proof). */
export function workNamespaceManifest(namespace = WORK_NAMESPACE, runId?: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name: namespace,
      labels: {
        [LABELS.managed]: 'true',
        [WORK_LABELS.name]: APP_NAME,
        ...(runId ? { [LABELS.createdBy]: runLabel(runId) } : {}),
        // Probe and perftest pods are unprivileged (no IPC_LOCK: memlock comes from ib-node-config,
        // as for real workloads), so the baseline pod security level is enough.
        'pod-security.kubernetes.io/enforce': 'baseline'
      }
    }
  }
}

/**
 * Creates the work namespace when absent (one GET when it exists). With `record`, the create is
 * recorded in the ownership record (pending before it, its uid after), so uninstall may remove it;
 * a namespace found there is never recorded.
 */
export async function ensureWorkNamespace(
  kube: KubeReader & KubeWriter,
  namespace = WORK_NAMESPACE,
  record?: OwnershipRecord
): Promise<void> {
  const ref = { apiVersion: 'v1', kind: 'Namespace', name: namespace }
  const live = await kube.get(ref)
  if (live && !live.metadata.deletionTimestamp) return
  await record?.pending(ref)
  const res = await kube.applyManifest(workNamespaceManifest(namespace, record?.runId), {
    live: live ?? null
  })
  if (res.created) await record?.created(ref, { uid: res.object.metadata.uid })
  else await record?.forget(ref)
}

/** The ownership record a run writes the work namespace into (see ensureWorkNamespace). */
export function workRecord(kube: KubeClient, runId: string): OwnershipRecord {
  return OwnershipRecord.of(kube, runId)
}

export async function createPod(kube: KubeClient, pod: KubeObject): Promise<KubeObject> {
  const namespace = pod.metadata.namespace ?? WORK_NAMESPACE
  const what = `create pod ${pod.metadata.name ?? pod.metadata.generateName ?? ''} -n ${namespace}`
  const out = await kube.request(what, () => kube.core.createNamespacedPod({ namespace, body: pod as never }))
  return plain(out)
}

/** Deletes every pod matching the selector in one request (grace 0: they are ours and short-lived). */
export async function deletePods(
  kube: KubeClient,
  labelSelector: string,
  namespace = WORK_NAMESPACE
): Promise<void> {
  await kube.request(`delete pods -n ${namespace} -l ${labelSelector}`, () =>
    kube.core.deleteCollectionNamespacedPod({
      namespace,
      labelSelector,
      gracePeriodSeconds: 0,
      propagationPolicy: 'Background'
    })
  )
}

/** Deletes like deletePods but never throws (cleanup in finally blocks); returns the error text. */
export async function deletePodsQuietly(
  kube: KubeClient,
  labelSelector: string,
  namespace = WORK_NAMESPACE
): Promise<string | undefined> {
  try {
    await deletePods(kube, labelSelector, namespace)
    return undefined
  } catch (e) {
    return e instanceof Error ? e.message : String(e)
  }
}
