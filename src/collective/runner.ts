// Runs the collective check: creates its pods, reads and judges their logs, and deletes what it
// created, whatever happened. Docs: docs/collective-check.md.
import type { KubeClient } from '../kube/client.js'
import { describePod, failingContainer, isPodTerminal, unschedulableMessage } from '../kube/pods.js'
import { selectorOf, type KubeObject } from '../kube/types.js'
import { watchUntil, WatchTimeoutError, type Verdict } from '../kube/watch.js'
import type { Log } from '../log/index.js'
import type { ReportCollective } from '../report/report.js'
import type { Settings } from '../settings/settings.js'
import { findRdmaVmSize } from '../settings/vm-sizes.js'
import { naturalCompare } from '../util/compare.js'
import { oneLine } from '../util/text.js'
import type { NodeFacts } from '../verify/probe-output.js'
import {
  createPod,
  deletePodsQuietly,
  ensureWorkNamespace,
  WORK_NAMESPACE,
  workRecord
} from '../verify/workspace.js'
import { transportPair } from '../transport/runner.js'
import { ncclEnv, type GpudirectMode } from './nccl-env.js'
import { collectivePassMarks } from './pass-marks.js'
import {
  collectiveLabels,
  collectivePod,
  NCCL_CONTAINER,
  sshKeyPair,
  sshSecret,
  topologyConfigMap,
  type CollectiveRole
} from './pods.js'
import { splitCollectiveLog } from './script.js'
import { topologyFor } from './topology.js'
import { judgeCollective, type InterObservation, type NodeObservation } from './verdict.js'

export interface CollectiveRunOptions {
  settings: Settings
  kube: KubeClient
  /** The node probe's facts (verification's). */
  facts: Map<string, NodeFacts>
  /** How GPU memory reaches the NIC (nccl-env.ts); default peermem. */
  gpudirect?: GpudirectMode
  namespace?: string
  /** Limit of each wait; default settings.wait.stepTimeoutMs. */
  timeoutMs?: number
  log?: Log
}

export interface CollectiveRun {
  collective: ReportCollective
  summary: string
  /** Each pod's log (for diagnostics), by pod name. */
  logs: Record<string, string>
}

/** The nodes of the scope: the pair first (launcher, worker), then, for fleet, every other usable node. */
export function collectiveNodes(s: Settings, facts: Map<string, NodeFacts>): NodeFacts[] | string {
  const pair = transportPair(facts)
  if (typeof pair === 'string') return pair
  if (s.benchmark.scope !== 'fleet') return pair
  const rest = [...facts.values()]
    .filter(f => !f.error && f.activeDevices.length > 0 && f.gpus.length > 0 && !pair.includes(f))
    .sort((a, b) => naturalCompare(a.node, b.node))
  return [...pair, ...rest]
}

interface Planned {
  role: CollectiveRole
  index: number
  facts: NodeFacts
  name: string
  created?: KubeObject
}

const settledRunning = (pod: KubeObject) =>
  isPodTerminal(pod) ||
  !!unschedulableMessage(pod) ||
  !!failingContainer(pod) ||
  (!!pod.status?.podIP &&
    (pod.status?.containerStatuses ?? []).some((c: { state?: { running?: unknown } }) => c.state?.running))

const settledEnded = (pod: KubeObject) =>
  isPodTerminal(pod) || !!unschedulableMessage(pod) || !!failingContainer(pod)

function podProblem(pod: KubeObject | undefined, settled: boolean, timeoutMs: number): string | undefined {
  if (!pod) return `no pod within ${Math.round(timeoutMs / 1000)}s`
  const unsched = unschedulableMessage(pod)
  if (unsched) return `pod ${pod.metadata.name} unschedulable: ${oneLine(unsched)}`
  const stuck = failingContainer(pod)
  if (stuck)
    return `pod ${pod.metadata.name}: container ${stuck.name} is in ${stuck.state!.waiting!.reason}${stuck.state!.waiting!.message ? ` (${oneLine(stuck.state!.waiting!.message, 200)})` : ''}`
  if (!settled)
    return `pod ${pod.metadata.name} did not finish within ${Math.round(timeoutMs / 1000)}s (${describePod(pod)})`
  return undefined
}

/**
 * The pair's worker pod first; once it runs (its pod IP known), the launcher and the other nodes'
 * pods. Their logs are read once the launcher and the other pods have ended. The pods are deleted by
 * the run's selector, the Secret and ConfigMap only as the objects this call created (by uid).
 */
export async function runCollectiveCheck(o: CollectiveRunOptions): Promise<CollectiveRun> {
  const s = o.settings
  const namespace = o.namespace ?? WORK_NAMESPACE
  const timeoutMs = o.timeoutMs ?? s.wait.stepTimeoutMs
  const deadlineSeconds = Math.max(60, Math.ceil((timeoutMs * 2) / 1000))
  const selector = selectorOf(collectiveLabels(s))
  const marks = collectivePassMarks(s.nodePool.vmSize, s.collective.minBusbwGBps)
  const topology = topologyFor(s.nodePool.vmSize)
  const env = ncclEnv({
    gpudirect: o.gpudirect ?? 'peermem',
    ...(topology ? { topologyFile: topology.name } : {})
  })
  const scope = collectiveNodes(s, o.facts)
  if (typeof scope === 'string') {
    const j = judgeCollective({ settings: s, marks, nodes: [], inter: null, noPair: scope, ncclEnv: env })
    return { collective: j.collective, summary: j.summary, logs: {} }
  }
  const planned: Planned[] = scope.map((f, k) => {
    const role: CollectiveRole = k === 0 ? 'launcher' : k === 1 ? 'worker' : 'node'
    return { role, index: k, facts: f, name: '' }
  })
  await ensureWorkNamespace(o.kube, namespace, workRecord(o.kube, s.runId))
  await deletePodsQuietly(o.kube, selector, namespace)
  const owned: Array<{ kind: string; name: string; uid: string }> = []
  const logs: Record<string, string> = {}
  try {
    // The ssh key lives only in this Secret (never logged); the topology only where the size needs it.
    const keys = sshKeyPair(`aks-rdma-action-${s.runId.slice(-12)}`)
    for (const m of [
      sshSecret(s, keys, namespace),
      ...(topology ? [topologyConfigMap(s, topology, namespace)] : [])
    ]) {
      const what = `create ${m.kind.toLowerCase()} ${m.metadata.name} -n ${namespace}`
      const created = await o.kube.request(what, () =>
        m.kind === 'Secret'
          ? o.kube.core.createNamespacedSecret({ namespace, body: m as never })
          : o.kube.core.createNamespacedConfigMap({ namespace, body: m as never })
      )
      owned.push({
        kind: m.kind,
        name: m.metadata.name,
        uid: String((created as { metadata?: { uid?: string } }).metadata?.uid ?? '')
      })
    }
    const gpusOf = (f: NodeFacts) => f.gpus.length
    const podFor = (p: Planned, workerIp?: string) =>
      collectivePod({
        settings: s,
        role: p.role,
        index: p.index,
        node: p.facts.node,
        gpus: gpusOf(p.facts),
        env,
        topology: !!topology,
        namespace,
        deadlineSeconds,
        ...(workerIp ? { workerIp } : {})
      })
    o.log?.info(
      `collective: ${s.collective.image} all_reduce_perf on ${scope.map(f => f.node).join(', ')}; across ${scope[0].node} (launcher) and ${scope[1].node} (worker)`
    )
    const worker = planned[1]
    const launcher = planned[0]
    const others = planned.slice(2)
    for (const p of [worker, ...others]) {
      p.created = await createPod(o.kube, podFor(p))
      p.name = p.created.metadata.name
    }
    const wait = async (done: (pods: KubeObject[]) => boolean, what: string): Promise<KubeObject[]> => {
      try {
        const out = await watchUntil(
          o.kube.watchSource('v1', 'Pod', { namespace, labelSelector: selector }),
          (pods): Verdict => ({ done: done(pods), message: `${what}: ${pods.map(describePod).join('; ')}` }),
          { timeoutMs, onChange: v => o.log?.progress('collective', v.message!) }
        )
        return out.objects
      } catch (e) {
        if (!(e instanceof WatchTimeoutError)) throw e
        return (e.snapshot as Record<string, KubeObject[]>).only ?? []
      } finally {
        o.log?.progress('collective', '')
      }
    }
    const find = (pods: KubeObject[], name: string) => pods.find(x => x.metadata.name === name)
    let pods = await wait(
      ps => !!find(ps, worker.name) && settledRunning(find(ps, worker.name)!),
      'worker pod'
    )
    const w = find(pods, worker.name)
    const workerIp = w?.status?.podIP as string | undefined
    const workerRunning =
      !!w && !!workerIp && settledRunning(w) && !isPodTerminal(w) && !podProblem(w, true, timeoutMs)
    if (workerRunning) {
      launcher.created = await createPod(o.kube, podFor(launcher, workerIp))
      launcher.name = launcher.created.metadata.name
    }
    const enders = [...(workerRunning ? [launcher] : []), ...others]
    pods = await wait(
      ps => enders.every(p => !!find(ps, p.name) && settledEnded(find(ps, p.name)!)),
      'collective pods'
    )
    const nodes: NodeObservation[] = []
    const sections = new Map<string, ReturnType<typeof splitCollectiveLog>>()
    for (const p of planned) {
      const pod = p.name ? find(pods, p.name) : undefined
      const settled = !!pod && (p.role === 'worker' ? settledRunning(pod) : settledEnded(pod))
      const problem = !p.name
        ? `not started: the worker pod did not run (${podProblem(w, !!w && settledRunning(w), timeoutMs) ?? describePod(w!)})`
        : podProblem(pod, settled, timeoutMs)
      if (pod && !unschedulableMessage(pod) && !failingContainer(pod)) {
        logs[p.name] = await readLog(o, namespace, p.name)
        sections.set(p.name, splitCollectiveLog(logs[p.name]))
      }
      const intra = sections.get(p.name)?.get('intra')
      nodes.push({
        node: p.facts.node,
        pod: p.name || '(not created)',
        gpus: gpusOf(p.facts),
        ...(problem ? { problem } : intra ? {} : { problem: `pod ${p.name} printed no intra-node result` }),
        ...(intra ? { intra } : {})
      })
    }
    const interSection = sections.get(launcher.name)?.get('inter')
    const interProblem = nodes[0].problem ?? nodes[1].problem
    const inter: InterObservation = {
      launcher: launcher.facts.node,
      worker: worker.facts.node,
      ...(interProblem
        ? { problem: interProblem }
        : !interSection
          ? { problem: 'the launcher printed no inter-node result' }
          : {}),
      ...(interSection ? { inter: interSection } : {}),
      rdmaStripped: [launcher, worker]
        .filter(p => p.created && lacksRdma(s, find(pods, p.name) ?? p.created))
        .map(p => p.name),
      slowNics: slowNics(s, [launcher.facts, worker.facts])
    }
    const j = judgeCollective({ settings: s, marks, nodes, inter, ncclEnv: env })
    return { collective: j.collective, summary: j.summary, logs }
  } finally {
    const err = await deletePodsQuietly(o.kube, selector, namespace)
    if (err) o.log?.warning(`could not delete the collective pods (-n ${namespace} -l ${selector}): ${err}`)
    for (const x of owned) {
      try {
        await o.kube.deleteObject(
          { apiVersion: 'v1', kind: x.kind, name: x.name, namespace },
          x.uid || undefined
        )
      } catch (e) {
        o.log?.warning(
          `could not delete ${x.kind} ${x.name} -n ${namespace}: ${e instanceof Error ? e.message : String(e)}`
        )
      }
    }
  }
}

/** The pod as admitted requests no rdma/<name> (the check created it with one). */
function lacksRdma(s: Settings, pod: KubeObject): boolean {
  const r = `rdma/${s.stack.rdmaResourceName}`
  const c = (pod.spec?.containers ?? []).find((x: { name: string }) => x.name === NCCL_CONTAINER)
  return !c?.resources?.requests?.[r] && !c?.resources?.limits?.[r]
}

/** Active InfiniBand ports below the size's link rate, as the probe read them: `node/device (rate Gb/s)`. */
function slowNics(s: Settings, facts: NodeFacts[]): string[] {
  const link = findRdmaVmSize(s.nodePool.vmSize)?.linkGbps
  if (!link) return []
  return facts.flatMap(f =>
    f.activeDevices
      .filter(d => (f.rateGbps[d] ?? link) < link)
      .map(d => `${f.node}/${d} (${f.rateGbps[d]} Gb/s)`)
  )
}

async function readLog(o: CollectiveRunOptions, namespace: string, name: string): Promise<string> {
  try {
    return await o.kube.podLog(namespace, name, { container: NCCL_CONTAINER, tailLines: 20_000 })
  } catch (e) {
    o.log?.warning(
      `collective: could not read the log of pod ${name}: ${e instanceof Error ? e.message : String(e)}`
    )
    return ''
  }
}
