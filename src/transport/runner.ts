// Runs the transport check: on the first two RDMA nodes with GPUs and an active IB port (the
// benchmark's pair), the server pod first; once it runs (its pod IP known) the client pod, which
// connects to it; both logs are read once the client has ended (the server's while it still
// waits: its preflight is what matters), split into sections, parsed and judged (verdict.ts).
// Both pods are deleted before it returns, whatever happened — leftovers of this run first, too.
import type { KubeClient } from '../kube/client.js'
import type { KubeObject } from '../kube/types.js'
import type { Log } from '../log/index.js'
import { watchUntil, WatchTimeoutError, type Verdict } from '../kube/watch.js'
import { describePod, failingContainer, isPodTerminal, unschedulableMessage } from '../kube/pods.js'
import { selectorOf } from '../kube/types.js'
import { dynamoWorkerEnv, nvidiaSmiBusId, WORKER_CONTAINER } from '../model/dynamo-worker.js'
import { parseUcxInfoDevices, parseUcxPerftest, ucxLogLines } from '../parse/ucx.js'
import type { ReportTransport } from '../report/report.js'
import type { Settings } from '../settings/settings.js'
import { naturalCompare } from '../util/compare.js'
import { oneLine } from '../util/text.js'
import type { NodeFacts } from '../verify/probe-output.js'
import { createPod, deletePodsQuietly, ensureWorkNamespace, WORK_NAMESPACE } from '../verify/workspace.js'
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

export async function runTransportCheck(o: TransportRunOptions): Promise<TransportRun> {
  const s = o.settings
  const namespace = o.namespace ?? WORK_NAMESPACE
  const timeoutMs = o.timeoutMs ?? s.wait.stepTimeoutMs
  const selector = selectorOf(transportLabels(s))
  const ucxEnv = Object.fromEntries(
    dynamoWorkerEnv(s)
      .filter(e => e.name.startsWith('UCX_'))
      .map(e => [e.name, e.value])
  )
  const pair = transportPair(o.facts)
  if (typeof pair === 'string') {
    const transport: ReportTransport = {
      check: 'ucx',
      mode: 'failed',
      verdict: 'fail',
      reason: `the transport check ${pair}`,
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
  const [serverFacts, clientFacts] = pair
  const deadlineSeconds = Math.max(60, Math.ceil((timeoutMs * 2) / 1000))
  const wait = async (name: string, settled: (p: KubeObject) => boolean, what: string) => {
    let objects: KubeObject[]
    try {
      const out = await watchUntil(
        o.kube.watchSource('v1', 'Pod', { namespace, labelSelector: selector }),
        (pods): Verdict => {
          const p = pods.find(x => x.metadata.name === name)
          return { done: !!p && settled(p), message: `${what}: ${p ? describePod(p) : 'not created yet'}` }
        },
        { timeoutMs, onChange: v => o.log?.progress('transport', v.message!) }
      )
      objects = out.objects
    } catch (e) {
      if (!(e instanceof WatchTimeoutError)) throw e
      objects = (e.snapshot as Record<string, KubeObject[]>).only ?? []
    }
    const pod = objects.find(x => x.metadata.name === name)
    return { pod, settled: !!pod && settled(pod) }
  }
  const readLog = async (name: string): Promise<string> => {
    try {
      return await o.kube.podLog(namespace, name, { container: WORKER_CONTAINER, tailLines: 20_000 })
    } catch (e) {
      o.log?.warning(
        `transport: could not read the log of pod ${name}: ${e instanceof Error ? e.message : String(e)}`
      )
      return ''
    }
  }
  await ensureWorkNamespace(o.kube, namespace)
  await deletePodsQuietly(o.kube, selector, namespace)
  const logs: Partial<Record<Role, string>> = {}
  try {
    o.log?.info(
      `transport: ${s.transport.image} worker pods on ${serverFacts.node} (server) and ${clientFacts.node} (client)`
    )
    const server = await createPod(
      o.kube,
      transportPod({
        settings: s,
        role: 'server',
        node: serverFacts.node,
        gpuNicMap: gpuNicMapOf(serverFacts),
        namespace,
        deadlineSeconds
      })
    )
    const sw = await wait(server.metadata.name, serverSettled, 'server pod')
    const serverProblem = podProblem(sw.pod, sw.settled, timeoutMs)
    const serverIp = sw.pod?.status?.podIP as string | undefined
    let clientName = ''
    let clientProblem: string | undefined = 'not started: its server did not run'
    if (!serverProblem && serverIp && !isPodTerminal(sw.pod!)) {
      const client = await createPod(
        o.kube,
        transportPod({
          settings: s,
          role: 'client',
          node: clientFacts.node,
          gpuNicMap: gpuNicMapOf(clientFacts),
          serverIp,
          namespace,
          deadlineSeconds
        })
      )
      clientName = client.metadata.name
      const cw = await wait(clientName, clientSettled, 'client pod')
      clientProblem = podProblem(cw.pod, cw.settled, timeoutMs)
      if (cw.pod && !unschedulableMessage(cw.pod) && !failingContainer(cw.pod))
        logs.client = await readLog(clientName)
    } else if (sw.pod && isPodTerminal(sw.pod))
      clientProblem = `not started: the server pod ended (${describePod(sw.pod)})`
    if (sw.pod && !unschedulableMessage(sw.pod) && !failingContainer(sw.pod))
      logs.server = await readLog(server.metadata.name)
    const serverSide = observe('server', serverFacts.node, server.metadata.name, logs.server, serverProblem)
    const clientSide = observe(
      'client',
      clientFacts.node,
      clientName,
      logs.client,
      serverProblem ? undefined : clientProblem
    )
    const clientSections = splitTransportLog(logs.client ?? '')
    const bw = clientSections.get('bandwidth')
    const lat = clientSections.get('latency')
    const judged = judgeTransport({
      settings: s,
      server: serverSide,
      client: clientSide,
      bandwidth: bw ? parseUcxPerftest(bw.text) : null,
      latency: lat ? parseUcxPerftest(lat.text) : null,
      linkGbps: (node, device) => o.facts.get(node)?.rateGbps[device] ?? null,
      localNic: (node, busId) => localNicOf(o.facts.get(node), busId),
      ucxEnv
    })
    return { transport: judged.transport, summary: judged.summary, logs }
  } finally {
    const err = await deletePodsQuietly(o.kube, selector, namespace)
    if (err) o.log?.warning(`could not delete the transport pods (-n ${namespace} -l ${selector}): ${err}`)
  }
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
