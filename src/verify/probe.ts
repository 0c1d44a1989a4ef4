// The node probe: one DaemonSet over the RDMA nodes, read back through one list and watch of its pods
// and removed by one delete. Rules: docs/probe.md ("One DaemonSet").
import { plain, type KubeClient } from '../kube/client.js'
import { isConflict, isNotFound } from '../kube/errors.js'
import { selectorOf, type KubeObject } from '../kube/types.js'
import type { Log } from '../log/index.js'
import { watchUntil, WatchTimeoutError, type Verdict } from '../kube/watch.js'
import { LABELS } from '../model/types.js'
import { poolTolerations } from '../model/workload.js'
import { BUSYBOX_IMAGE } from '../settings/images.js'
import type { Settings } from '../settings/settings.js'
import { containerStatus, FAIL_FAST_REASONS, unschedulableMessage } from '../kube/pods.js'
import { oneLine } from '../util/text.js'
import {
  emptyFacts,
  parseProbeOutput,
  PROBE_SCRIPT,
  TERMINATION_LOG,
  type NodeFacts
} from './probe-output.js'
import {
  dnsName,
  ensureWorkNamespace,
  workRecord,
  runLabel,
  runTag,
  WORK_LABELS,
  WORK_NAMESPACE,
  workLabels
} from './workspace.js'

export const PROBE_COMPONENT = 'rdma-probe'
/** The init container that probes the node. */
export const PROBE_CONTAINER = 'probe'
/** The container that keeps the DaemonSet's pod running once the probe is done. */
export const HOLD_CONTAINER = 'hold'
/**
 * The probe reads only sysfs, /proc and ulimit (PROBE_SCRIPT: busybox applets and ash builtins), so
 * it runs on the small digest-pinned busybox the stack already pulls, never on the multi-GB
 * benchmark image.
 */
export const PROBE_IMAGE = BUSYBOX_IMAGE

export interface ProbeOptions {
  kube: KubeClient
  settings: Settings
  /** Node names to probe. */
  nodes: string[]
  namespace?: string
  /** How long the pods may take to finish (default settings.wait.stepTimeoutMs). */
  timeoutMs?: number
  /** Where the wait's progress and cleanup trouble go (default: nowhere). */
  log?: Log
}

export function probeLabels(s: Settings): Record<string, string> {
  return workLabels(s.runId, PROBE_COMPONENT)
}

/** The probe DaemonSet's name: one per run. */
export function probeName(s: Settings): string {
  return dnsName(['rdma-probe', runTag(s.runId)])
}

/** Required node affinity on node names: the scheduler places a pod (resource fit included) on those nodes only. */
export function pinToNodes(nodes: string[]): Record<string, unknown> {
  return {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: nodes }] }]
      }
    }
  }
}

/** Required node affinity on one node's name. */
export function pinToNode(node: string): Record<string, unknown> {
  return pinToNodes([node])
}

/** The probe DaemonSet over `nodes` (names) of the RDMA pool. */
export function probeDaemonSet(s: Settings, nodes: string[], namespace = WORK_NAMESPACE): KubeObject {
  const resource = `rdma/${s.stack.rdmaResourceName}`
  const resources = { requests: { [resource]: '1' }, limits: { [resource]: '1' } }
  const labels = probeLabels(s)
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: probeName(s), namespace, labels },
    spec: {
      selector: { matchLabels: labels },
      updateStrategy: { type: 'OnDelete' },
      template: {
        metadata: { labels },
        spec: {
          nodeSelector: { [LABELS.agentPool]: s.nodePool.name },
          affinity: pinToNodes(nodes),
          tolerations: poolTolerations(s),
          automountServiceAccountToken: false,
          enableServiceLinks: false,
          terminationGracePeriodSeconds: 1,
          initContainers: [
            {
              name: PROBE_CONTAINER,
              image: PROBE_IMAGE,
              command: ['sh', '-c', PROBE_SCRIPT],
              terminationMessagePath: TERMINATION_LOG,
              terminationMessagePolicy: 'File',
              resources
            }
          ],
          containers: [
            {
              name: HOLD_CONTAINER,
              image: PROBE_IMAGE,
              command: ['sh', '-c', 'sleep infinity'],
              resources
            }
          ]
        }
      }
    }
  }
}

/** The node a DaemonSet pod is for: where it is bound, else the node its affinity names. */
export function podTargetNode(pod: KubeObject): string | undefined {
  if (pod.spec?.nodeName) return pod.spec.nodeName
  const terms = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution
    ?.nodeSelectorTerms as Array<{ matchFields?: Array<{ key: string; values?: string[] }> }> | undefined
  const f = terms?.[0]?.matchFields?.find(x => x.key === 'metadata.name')
  return f?.values?.length === 1 ? f.values[0] : undefined
}

interface Terminated {
  exitCode?: number
  reason?: string
  message?: string
}

/** The probe container's end: its termination (or the last one, when it is being restarted). */
function probeEnd(pod: KubeObject): Terminated | undefined {
  const st = containerStatus(pod, PROBE_CONTAINER, true) as
    { state?: { terminated?: Terminated }; lastState?: { terminated?: Terminated } } | undefined
  return st?.state?.terminated ?? st?.lastState?.terminated
}

/** Why the probe container will not run (image pull failing, config error), if so. */
function probeStuck(pod: KubeObject): string | undefined {
  const w = containerStatus(pod, PROBE_CONTAINER, true)?.state?.waiting
  return w?.reason && FAIL_FAST_REASONS.has(w.reason)
    ? `${w.reason}${w.message ? ` (${oneLine(w.message, 160)})` : ''}`
    : undefined
}

function settled(pod: KubeObject): boolean {
  return !!probeEnd(pod) || !!probeStuck(pod) || unschedulableMessage(pod) !== undefined
}

/** The facts a settled (or unsettled, at the deadline) probe pod gives for its node. */
export function factsFromPod(node: string, pod: KubeObject | undefined, timeoutMs: number): NodeFacts {
  if (!pod) return emptyFacts(node, `no probe pod on the node within ${Math.round(timeoutMs / 1000)}s`)
  const unsched = unschedulableMessage(pod)
  if (unsched) return emptyFacts(node, `probe pod unschedulable: ${oneLine(unsched)}`)
  const stuck = probeStuck(pod)
  if (stuck) return emptyFacts(node, `probe container not started: ${stuck}`)
  const end = probeEnd(pod)
  if (!end)
    return emptyFacts(
      node,
      `probe did not finish within ${Math.round(timeoutMs / 1000)}s (pod ${pod.status?.phase ?? 'Pending'})`
    )
  const facts = parseProbeOutput(node, end.message ?? '')
  if (end.exitCode !== 0)
    facts.error = `probe exited ${end.exitCode ?? '?'}${end.reason ? ` (${end.reason})` : ''}${facts.error ? `; ${facts.error}` : ''}`
  return facts
}

interface ProbeVerdict extends Verdict {
  finished: number
}

async function createDaemonSet(kube: KubeClient, ds: KubeObject): Promise<KubeObject> {
  const namespace = ds.metadata.namespace!
  const create = () =>
    kube.request(`create daemonset/${ds.metadata.name} -n ${namespace}`, () =>
      kube.apps.createNamespacedDaemonSet({ namespace, body: ds as never })
    )
  try {
    return plain(await create())
  } catch (e) {
    if (!isConflict(e)) throw e
    // Left by an interrupted earlier attempt of this run: replace it.
    await deleteDaemonSet(kube, ds.metadata.name, namespace)
    return plain(await create())
  }
}

/** Deletes the probe DaemonSet; its pods go with it (background garbage collection). */
export async function deleteDaemonSet(kube: KubeClient, name: string, namespace: string): Promise<void> {
  try {
    await kube.request(`delete daemonset/${name} -n ${namespace}`, () =>
      kube.apps.deleteNamespacedDaemonSet({
        name,
        namespace,
        gracePeriodSeconds: 0,
        propagationPolicy: 'Background'
      })
    )
  } catch (e) {
    if (!isNotFound(e)) throw e
  }
}

/**
 * Deletes the probe DaemonSets an earlier run left behind (its process killed before its own
 * delete): those of other runs created longer ago than any probe may last. One list, and a delete
 * only when there is such a leftover.
 */
export async function removeStaleProbes(
  kube: KubeClient,
  s: Settings,
  namespace: string,
  log?: Log,
  now = Date.now()
): Promise<string[]> {
  const { [WORK_LABELS.run]: _own, ...anyRun } = probeLabels(s)
  const { items } = await kube.list('apps/v1', 'DaemonSet', { namespace, labelSelector: selectorOf(anyRun) })
  const maxAge = Math.max(3_600_000, 2 * s.wait.stepTimeoutMs)
  const stale = items.filter(
    d =>
      d.metadata.labels?.[WORK_LABELS.run] !== runLabel(s.runId) &&
      now - Date.parse(d.metadata.creationTimestamp ?? '') > maxAge
  )
  for (const d of stale) {
    log?.info(`node-probe: deleting daemonset/${d.metadata.name} left by an earlier run`)
    await deleteDaemonSet(kube, d.metadata.name, namespace)
  }
  return stale.map(d => d.metadata.name)
}

/** Probes the nodes; every node gets facts (with `error` set when its probe did not produce any). */
export async function probeNodes(o: ProbeOptions): Promise<Map<string, NodeFacts>> {
  const s = o.settings
  const namespace = o.namespace ?? WORK_NAMESPACE
  const facts = new Map<string, NodeFacts>()
  if (!o.nodes.length) return facts
  const wanted = new Set(o.nodes)
  const timeoutMs = o.timeoutMs ?? s.wait.stepTimeoutMs
  await ensureWorkNamespace(o.kube, namespace, workRecord(o.kube, s.runId))
  await removeStaleProbes(o.kube, s, namespace, o.log)
  const ds = await createDaemonSet(o.kube, probeDaemonSet(s, [...wanted], namespace))
  const uid = ds.metadata.uid
  const ours = (p: KubeObject) =>
    (p.metadata.ownerReferences ?? []).some(r => r.uid === uid) && wanted.has(podTargetNode(p) ?? '')
  try {
    let pods: KubeObject[]
    try {
      const out = await watchUntil(
        o.kube.watchSource('v1', 'Pod', { namespace, labelSelector: selectorOf(probeLabels(s)) }),
        (objects): ProbeVerdict => {
          let finished = 0
          for (const p of objects) if (ours(p) && settled(p)) finished++
          return {
            done: finished >= wanted.size,
            finished,
            message: `${finished}/${wanted.size} nodes probed`
          }
        },
        { timeoutMs, onChange: v => o.log?.progress('node-probe', v.message!) }
      )
      pods = out.objects
    } catch (e) {
      if (!(e instanceof WatchTimeoutError)) throw e
      pods = (e.snapshot as Record<string, KubeObject[]>).only ?? []
    } finally {
      // The wait is over: its live line ends here, before the lines that report its outcome.
      o.log?.progress('node-probe', '')
    }
    const byNode = new Map<string, KubeObject>()
    for (const p of pods) if (ours(p)) byNode.set(podTargetNode(p)!, p)
    for (const node of wanted) facts.set(node, factsFromPod(node, byNode.get(node), timeoutMs))
  } finally {
    try {
      await deleteDaemonSet(o.kube, ds.metadata.name, namespace)
    } catch (e) {
      o.log?.warning(
        `could not delete the probe DaemonSet (kubectl delete daemonset ${ds.metadata.name} -n ${namespace}): ${e instanceof Error ? e.message : String(e)}`
      )
    }
  }
  return facts
}
