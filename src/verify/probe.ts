// The node probe: one short-lived pod per RDMA node (pinned by node affinity on metadata.name, the
// way DaemonSets pin, so the scheduler still checks the rdma/<resource> request), tolerating every
// taint, requesting rdma/<resource>: 1 and running ibstat / ulimit -l / /proc/modules. Pods live in
// the action's own namespace and are deleted afterwards whatever happens (one delete-by-label).
import type { KubeClient } from '../kube/client.js'
import type { KubeObject } from '../kube/types.js'
import type { Log } from '../log/index.js'
import { watchUntil, WatchTimeoutError, type Verdict } from '../kube/watch.js'
import type { Settings } from '../settings/settings.js'
import { mapLimit } from '../util/concurrency.js'
import { emptyFacts, parseProbeOutput, PROBE_SCRIPT, type NodeFacts } from './probe-output.js'
import { describePod, isPodTerminal, unschedulableMessage } from '../kube/pods.js'
import { oneLine } from '../util/text.js'
import {
  APP_NAME,
  createPod,
  deletePodsQuietly,
  dnsName,
  ensureWorkNamespace,
  runLabel,
  selectorOf,
  WORK_LABELS,
  WORK_NAMESPACE
} from './workspace.js'

export const PROBE_COMPONENT = 'rdma-probe'
export const PROBE_CONTAINER = 'probe'

export interface ProbeOptions {
  kube: KubeClient
  settings: Settings
  /** Node names to probe. */
  nodes: string[]
  namespace?: string
  /** How long the pods may take to finish (default settings.wait.stepTimeoutMs). */
  timeoutMs?: number
  /** Pod creations / log reads in flight at once (default 16). */
  concurrency?: number
  /** Where the wait's progress and cleanup trouble go (default: nowhere). */
  log?: Log
}

export function probeLabels(s: Settings): Record<string, string> {
  return {
    [WORK_LABELS.name]: APP_NAME,
    [WORK_LABELS.component]: PROBE_COMPONENT,
    [WORK_LABELS.run]: runLabel(s.runId)
  }
}

/** Required node affinity on the node's name: the scheduler places it (resource fit included) on that node only. */
export function pinToNode(node: string): Record<string, unknown> {
  return {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }]
      }
    }
  }
}

export function probePod(s: Settings, node: string, namespace = WORK_NAMESPACE): KubeObject {
  const resource = `rdma/${s.stack.rdmaResourceName}`
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: dnsName(['rdma-probe', node]),
      namespace,
      labels: { ...probeLabels(s), [WORK_LABELS.node]: node }
    },
    spec: {
      restartPolicy: 'Never',
      affinity: pinToNode(node),
      tolerations: [{ operator: 'Exists' }],
      automountServiceAccountToken: false,
      terminationGracePeriodSeconds: 1,
      activeDeadlineSeconds: 600,
      containers: [
        {
          name: PROBE_CONTAINER,
          image: s.benchmark.image,
          command: ['sh', '-c', PROBE_SCRIPT],
          resources: { requests: { [resource]: '1' }, limits: { [resource]: '1' } }
        }
      ]
    }
  }
}

interface ProbeVerdict extends Verdict {
  finished: number
}

/** Probes the nodes; every node gets facts (with `error` set when its probe did not produce any). */
export async function probeNodes(o: ProbeOptions): Promise<Map<string, NodeFacts>> {
  const s = o.settings
  const namespace = o.namespace ?? WORK_NAMESPACE
  const facts = new Map<string, NodeFacts>()
  if (!o.nodes.length) return facts
  const selector = selectorOf(probeLabels(s))
  const timeoutMs = o.timeoutMs ?? s.wait.stepTimeoutMs
  const limit = o.concurrency ?? 16
  await ensureWorkNamespace(o.kube, namespace)
  // A pod left by an interrupted earlier attempt of this run would block the name.
  await deletePodsQuietly(o.kube, selector, namespace)
  try {
    const created = new Map<string, string>() // pod name → node
    await mapLimit(o.nodes, limit, async node => {
      try {
        const pod = await createPod(o.kube, probePod(s, node, namespace))
        created.set(pod.metadata.name, node)
      } catch (e) {
        facts.set(
          node,
          emptyFacts(node, `probe pod not created: ${oneLine(e instanceof Error ? e.message : String(e))}`)
        )
      }
    })
    const settled = (p: KubeObject) => isPodTerminal(p) || unschedulableMessage(p) !== undefined
    let pods: KubeObject[]
    try {
      const out = await watchUntil(
        o.kube.watchSource('v1', 'Pod', { namespace, labelSelector: selector }),
        (objects): ProbeVerdict => {
          const mine = objects.filter(p => created.has(p.metadata.name))
          const finished = mine.filter(settled).length
          return {
            done: finished >= created.size,
            finished,
            message: `${finished}/${created.size} probe pods finished`
          }
        },
        { timeoutMs, onChange: v => o.log?.progress('node-probe', v.message!) }
      )
      pods = out.objects
    } catch (e) {
      if (!(e instanceof WatchTimeoutError)) throw e
      pods = (e.snapshot as Record<string, KubeObject[]>).only ?? []
    }
    const byName = new Map(pods.map(p => [p.metadata.name, p]))
    await mapLimit([...created], limit, async ([name, node]) => {
      const pod = byName.get(name)
      if (!pod) return facts.set(node, emptyFacts(node, `probe pod ${name} disappeared`))
      const unsched = unschedulableMessage(pod)
      if (unsched) return facts.set(node, emptyFacts(node, `probe pod unschedulable: ${oneLine(unsched)}`))
      if (!isPodTerminal(pod)) {
        return facts.set(
          node,
          emptyFacts(
            node,
            `probe pod did not finish within ${Math.round(timeoutMs / 1000)}s (${describePod(pod)})`
          )
        )
      }
      const text = await o.kube.podLog(namespace, name, { container: PROBE_CONTAINER, tailLines: 100_000 })
      const parsed = parseProbeOutput(node, text)
      if (parsed.error && pod.status?.phase === 'Failed')
        parsed.error = `probe pod ${describePod(pod)}; ${parsed.error}`
      return facts.set(node, parsed)
    })
  } finally {
    const err = await deletePodsQuietly(o.kube, selector, namespace)
    if (err) o.log?.warning(`could not delete the probe pods (-n ${namespace} -l ${selector}): ${err}`)
  }
  return facts
}
