// Runs the transport check on the benchmark's pair: server pod, then client pod; reads and judges their
// logs, and deletes both pods whatever happened. Docs: docs/transport-check.md#what-it-does.
import { busyReason, busyResource, gpuHolders } from '../benchmark/busy.js'
import type { KubeClient } from '../kube/client.js'
import type { KubeObject } from '../kube/types.js'
import type { Log } from '../log/index.js'
import { watchUntil, WatchTimeoutError, type Verdict } from '../kube/watch.js'
import { describePod, failingContainer, isPodTerminal, unschedulableMessage } from '../kube/pods.js'
import { selectorOf } from '../kube/types.js'
import { dynamoWorkerEnv, nvidiaSmiBusId, WORKER_CONTAINER } from './dynamo-worker.js'
import { parseUcxInfoDevices, parseUcxPerftest, ucxLogLines } from '../parse/ucx.js'
import type { ReportTransport } from '../report/report.js'
import type { Settings } from '../settings/settings.js'
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
import { gpuNicMapOf, transportLabels, transportPod, type Role } from './pods.js'
import { parsePreflight, splitTransportLog } from './script.js'
import { judgeTransport, type SideObservation } from './verdict.js'

export interface TransportRunOptions {
  settings: Settings
  kube: KubeClient
  /** The node probe's facts (verification's). */
  facts: Map<string, NodeFacts>
  namespace?: string
  /** Limit of each wait (server start, client end); default settings.wait.stepTimeoutMs. */
  timeoutMs?: number
  log?: Log
  /** What ran before the check, for a busy pool's reason (default: the read-only checks and the node probe). */
  ran?: string
}

export interface TransportRun {
  transport: ReportTransport
  summary: string
  /** Each pod's log (for diagnostics), by role. */
  logs: Partial<Record<Role, string>>
}

/** The two nodes the check runs on: the first two (natural order) with GPUs and an active IB port. */
export function transportPair(facts: Map<string, NodeFacts>): [NodeFacts, NodeFacts] | string {
  const ok = [...facts.values()]
    .filter(f => !f.error && f.activeDevices.length > 0 && f.gpus.length > 0)
    .sort((a, b) => naturalCompare(a.node, b.node))
  if (ok.length < 2)
    return `needs two RDMA nodes with GPUs and an active InfiniBand port, found ${ok.length}${ok.length ? ` (${ok.map(f => f.node).join(', ')})` : ''}`
  return [ok[0], ok[1]]
}

function serverSettled(pod: KubeObject): boolean {
  return (
    isPodTerminal(pod) ||
    !!unschedulableMessage(pod) ||
    !!failingContainer(pod) ||
    (!!pod.status?.podIP &&
      (pod.status?.containerStatuses ?? []).some((c: { state?: { running?: unknown } }) => c.state?.running))
  )
}

function clientSettled(pod: KubeObject): boolean {
  return isPodTerminal(pod) || !!unschedulableMessage(pod) || !!failingContainer(pod)
}

/** Why a pod did not run its script, if so (unschedulable, a container stuck, not started in time). */
function podProblem(pod: KubeObject | undefined, settled: boolean, timeoutMs: number): string | undefined {
  if (!pod) return `no pod within ${Math.round(timeoutMs / 1000)}s`
  const unsched = unschedulableMessage(pod)
  if (unsched) return `unschedulable: ${oneLine(unsched)}`
  const stuck = failingContainer(pod)
  if (stuck)
    return `container ${stuck.name} is in ${stuck.state!.waiting!.reason}${stuck.state!.waiting!.message ? ` (${oneLine(stuck.state!.waiting!.message, 200)})` : ''}`
  if (!settled) return `did not start within ${Math.round(timeoutMs / 1000)}s (${describePod(pod)})`
  return undefined
}

/** The check's pods' namespace, selector and limits, and how to wait for a pod and read its log. */
interface PodOps {
  o: TransportRunOptions
  namespace: string
  selector: string
  timeoutMs: number
  deadlineSeconds: number
}

/** Waits until the pod is settled (or the limit); the pod as last seen, and whether it settled. */
async function waitForPod(
  p: PodOps,
  name: string,
  settled: (pod: KubeObject) => boolean,
  what: string
): Promise<{ pod: KubeObject | undefined; settled: boolean }> {
  let objects: KubeObject[]
  try {
    const out = await watchUntil(
      p.o.kube.watchSource('v1', 'Pod', { namespace: p.namespace, labelSelector: p.selector }),
      (pods): Verdict => {
        const pod = pods.find(x => x.metadata.name === name)
        return {
          done: !!pod && settled(pod),
          message: `${what}: ${pod ? describePod(pod) : 'not created yet'}`
        }
      },
      { timeoutMs: p.timeoutMs, onChange: v => p.o.log?.progress('transport', v.message!) }
    )
    objects = out.objects
  } catch (e) {
    if (!(e instanceof WatchTimeoutError)) throw e
    objects = (e.snapshot as Record<string, KubeObject[]>).only ?? []
  } finally {
    // The wait is over: its live line ends here, before the lines that report its outcome.
    p.o.log?.progress('transport', '')
  }
  const pod = objects.find(x => x.metadata.name === name)
  return { pod, settled: !!pod && settled(pod) }
}

/** The worker container's log, '' when it cannot be read (said in the log). */
async function readLog(p: PodOps, name: string): Promise<string> {
  try {
    return await p.o.kube.podLog(p.namespace, name, { container: WORKER_CONTAINER, tailLines: 20_000 })
  } catch (e) {
    p.o.log?.warning(
      `transport: could not read the log of pod ${name}: ${e instanceof Error ? e.message : String(e)}`
    )
    return ''
  }
}

/** A pod whose container ran (its log is worth reading). */
function ran(pod: KubeObject | undefined): pod is KubeObject {
  return !!pod && !unschedulableMessage(pod) && !failingContainer(pod)
}

interface PodsOutcome {
  server: SideObservation
  client: SideObservation
  logs: Partial<Record<Role, string>>
}

/** The server pod, then (once it runs) the client pod; both logs read once the client ended. */
async function runPods(p: PodOps, serverFacts: NodeFacts, clientFacts: NodeFacts): Promise<PodsOutcome> {
  const s = p.o.settings
  const pod = (role: Role, f: NodeFacts, serverIp?: string) =>
    transportPod({
      settings: s,
      role,
      node: f.node,
      gpuNicMap: gpuNicMapOf(f),
      ...(serverIp ? { serverIp } : {}),
      namespace: p.namespace,
      deadlineSeconds: p.deadlineSeconds
    })
  const logs: Partial<Record<Role, string>> = {}
  const server = await createPod(p.o.kube, pod('server', serverFacts))
  const sw = await waitForPod(p, server.metadata.name, serverSettled, 'server pod')
  const serverProblem = podProblem(sw.pod, sw.settled, p.timeoutMs)
  const serverIp = sw.pod?.status?.podIP as string | undefined
  let clientName = ''
  let clientProblem: string | undefined = 'not started: its server did not run'
  if (!serverProblem && serverIp && !isPodTerminal(sw.pod!)) {
    clientName = (await createPod(p.o.kube, pod('client', clientFacts, serverIp))).metadata.name
    const cw = await waitForPod(p, clientName, clientSettled, 'client pod')
    clientProblem = podProblem(cw.pod, cw.settled, p.timeoutMs)
    if (ran(cw.pod)) logs.client = await readLog(p, clientName)
  } else if (sw.pod && isPodTerminal(sw.pod))
    clientProblem = `not started: the server pod ended (${describePod(sw.pod)})`
  if (ran(sw.pod)) logs.server = await readLog(p, server.metadata.name)
  return {
    server: observe('server', serverFacts.node, server.metadata.name, logs.server, serverProblem),
    client: observe(
      'client',
      clientFacts.node,
      clientName,
      logs.client,
      serverProblem ? undefined : clientProblem
    ),
    logs
  }
}

/** The report of a check that could not pick its two nodes. */
function noPair(s: Settings, reason: string, ucxEnv: Record<string, string>): TransportRun {
  const transport: ReportTransport = {
    check: 'ucx',
    mode: 'failed',
    verdict: 'fail',
    reason: `the transport check ${reason}`,
    fix: 'see the verification checks: every RDMA node needs GPUs, an active InfiniBand port and allocatable rdma/<name>',
    image: s.transport.image,
    pairs: [],
    passMarkGbps: null,
    linkGbps: null,
    lanes: [],
    protocol: null,
    gpudirect: null,
    ucxEnv,
    sides: []
  }
  return { transport, summary: `failed: ${transport.reason}`, logs: {} }
}

export async function runTransportCheck(o: TransportRunOptions): Promise<TransportRun> {
  const s = o.settings
  const timeoutMs = o.timeoutMs ?? s.wait.stepTimeoutMs
  const p: PodOps = {
    o,
    namespace: o.namespace ?? WORK_NAMESPACE,
    selector: selectorOf(transportLabels(s)),
    timeoutMs,
    deadlineSeconds: Math.max(60, Math.ceil((timeoutMs * 2) / 1000))
  }
  const ucxEnv = Object.fromEntries(
    dynamoWorkerEnv(s)
      .filter(e => e.name.startsWith('UCX_'))
      .map(e => [e.name, e.value])
  )
  const pair = transportPair(o.facts)
  if (typeof pair === 'string') return noPair(s, pair, ucxEnv)
  const [serverFacts, clientFacts] = pair
  await ensureWorkNamespace(o.kube, p.namespace, workRecord(o.kube, s.runId))
  await deletePodsQuietly(o.kube, p.selector, p.namespace)
  try {
    o.log?.info(
      `transport: ${s.transport.image} worker pods on ${serverFacts.node} (server) and ${clientFacts.node} (client)`
    )
    const run = await runPods(p, serverFacts, clientFacts)
    const sections = splitTransportLog(run.logs.client ?? '')
    const bw = sections.get('bandwidth')
    const lat = sections.get('latency')
    const judged = judgeTransport({
      settings: s,
      server: run.server,
      client: run.client,
      bandwidth: bw ? parseUcxPerftest(bw.text) : null,
      latency: lat ? parseUcxPerftest(lat.text) : null,
      linkGbps: (node, device) => o.facts.get(node)?.rateGbps[device] ?? null,
      localNic: (node, busId) => localNicOf(o.facts.get(node), busId),
      ucxEnv
    })
    const busy = await busyPool(o, p.namespace, run, [serverFacts.node, clientFacts.node])
    if (busy)
      return {
        transport: { ...judged.transport, reason: busy.reason, fix: BUSY_FIX, busy },
        summary: `failed: ${busy.reason}`,
        logs: run.logs
      }
    return { transport: judged.transport, summary: judged.summary, logs: run.logs }
  } finally {
    const err = await deletePodsQuietly(o.kube, p.selector, p.namespace)
    if (err)
      o.log?.warning(`could not delete the transport pods (-n ${p.namespace} -l ${p.selector}): ${err}`)
  }
}

const BUSY_FIX =
  'set transport-check: none (and benchmark: false) to verify a pool in use, or run when the pool is drained'

/**
 * When a pod of the check could not be scheduled for want of GPUs or RDMA devices: the pool is busy
 * (docs/transport-check.md), with the pods holding them on the two nodes (benchmark/busy.ts).
 */
async function busyPool(
  o: TransportRunOptions,
  namespace: string,
  run: PodsOutcome,
  nodes: string[]
): Promise<ReportTransport['busy']> {
  const resources = ['nvidia.com/gpu', `rdma/${o.settings.stack.rdmaResourceName}`]
  const resource = [run.server.problem, run.client.problem]
    .map(problem => busyResource(problem, resources))
    .find(Boolean)
  if (!resource) return undefined
  const holders = await gpuHolders(o.kube, nodes, resources, namespace).catch((e: unknown) => {
    o.log?.warning(`could not list the pods holding the GPUs: ${e instanceof Error ? e.message : String(e)}`)
    return []
  })
  const reason = busyReason(resource, holders, 8, {
    pods: 'the transport check’s pods',
    ran: o.ran ?? 'the read-only checks and the node probe ran',
    fix: 'set transport-check: none (and benchmark: false) to verify a pool in use'
  })
  return { reason, holders }
}

/** The IB device local to the GPU with this nvidia-smi bus id, from the probe's map. */
function localNicOf(f: NodeFacts | undefined, busId: string): string | null {
  const gpu = f?.gpus.find(g => nvidiaSmiBusId(g.pciAddress) === busId.toUpperCase())
  if (!gpu) return null
  return f!.nics.find(n => n.localGpu === gpu.cudaIndex)?.device ?? null
}

function observe(
  role: Role,
  node: string,
  pod: string,
  log: string | undefined,
  problem: string | undefined
): SideObservation {
  const sections = splitTransportLog(log ?? '')
  const pre = sections.get('preflight')
  const ucxInfo = sections.get('ucx_info')
  const perftest = [...sections.entries()].filter(([k]) => k !== 'preflight')
  return {
    role,
    node,
    pod,
    ...(problem ? { problem } : {}),
    preflight: pre ? parsePreflight(pre.text) : null,
    ucxInfo: ucxInfo ? parseUcxInfoDevices(ucxInfo.text) : [],
    log: perftest.flatMap(([, sec]) => ucxLogLines(sec.text))
  }
}
