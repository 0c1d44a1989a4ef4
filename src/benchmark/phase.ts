// Runs one benchmark phase (one test in one round): server pods, then clients, then one log read per
// client pod parsed per NIC; the pods are deleted before it returns. See docs/benchmark.md.
import type { KubeClient } from '../kube/client.js'
import type { KubeObject } from '../kube/types.js'
import type { Log } from '../log/index.js'
import { watchUntil, WatchTimeoutError, type Verdict } from '../kube/watch.js'
import {
  describePerftestError,
  headlineRow,
  parsePerftestOutput,
  type BwRow,
  type LatRow,
  type PerftestResult
} from '../parse/perftest.js'
import type { Settings } from '../settings/settings.js'
import { mapLimit } from '../util/concurrency.js'
import { describePod, isPodTerminal, unschedulableMessage } from '../kube/pods.js'
import { oneLine } from '../util/text.js'
import { selectorOf } from '../kube/types.js'
import { createPod, deletePodsQuietly, WORK_NAMESPACE } from '../verify/workspace.js'
import type { BenchMeasurement } from './analysis.js'
import {
  benchmarkLabels,
  PERFTEST_CONTAINER,
  perftestPod,
  PHASE_LABEL,
  splitSections,
  type PairDevice,
  type PairSpec,
  type PhaseSpec
} from './perftest-pods.js'

export interface PhaseContext {
  kube: KubeClient
  settings: Settings
  namespace?: string
  timeoutMs: number
  concurrency: number
  /** Line rate of device pair i of a pair (Gb/s). */
  linkGbps(pair: PairSpec, device: PairDevice): number | null
  log?: Log
}

export interface PhaseOutcome {
  measurements: BenchMeasurement[]
  /** Set when perftest rejected --use_cuda: its own message. */
  cudaUnsupported?: string
  /** Kube requests this phase made that create pods (for the report's request accounting). */
  podsCreated: number
}

/** Its container started (or the pod ended / cannot be scheduled): the server side is settled. */
function serverSettled(pod: KubeObject): boolean {
  if (isPodTerminal(pod) || unschedulableMessage(pod)) return true
  const statuses: Array<{ state?: { running?: unknown; terminated?: unknown } }> =
    pod.status?.containerStatuses ?? []
  const want = (pod.spec?.containers ?? []).length
  return (
    !!pod.status?.podIP &&
    statuses.length >= want &&
    statuses.every(c => c.state?.running || c.state?.terminated)
  )
}

function clientSettled(pod: KubeObject): boolean {
  return isPodTerminal(pod) || !!unschedulableMessage(pod)
}

async function waitFor(
  c: PhaseContext,
  selector: string,
  names: Set<string>,
  settled: (p: KubeObject) => boolean,
  what: string
): Promise<Map<string, KubeObject>> {
  const namespace = c.namespace ?? WORK_NAMESPACE
  let objects: KubeObject[]
  try {
    const out = await watchUntil(
      c.kube.watchSource('v1', 'Pod', { namespace, labelSelector: selector }),
      (pods): Verdict => {
        const done = pods.filter(p => names.has(p.metadata.name) && settled(p)).length
        return { done: done >= names.size, message: `${done}/${names.size} ${what}` }
      },
      { timeoutMs: c.timeoutMs, onChange: v => c.log?.progress(`benchmark ${what}`, v.message!) }
    )
    objects = out.objects
  } catch (e) {
    if (!(e instanceof WatchTimeoutError)) throw e
    objects = (e.snapshot as Record<string, KubeObject[]>).only ?? []
  } finally {
    // The wait is over: its live line ends here, before the lines that report its outcome.
    c.log?.progress(`benchmark ${what}`, '')
  }
  return new Map(objects.filter(p => names.has(p.metadata.name)).map(p => [p.metadata.name, p]))
}

/** The CUDA devices a device pair used in this phase (GPUDirect), or null (host memory). */
function cudaUsed(phase: PhaseSpec, d: PairDevice): { server: number; client: number } | null {
  return phase.useCuda && d.cuda ? { ...d.cuda } : null
}

function errorMeasurement(
  pair: PairSpec,
  d: PairDevice,
  phase: PhaseSpec,
  link: number | null,
  error: string
): BenchMeasurement {
  return {
    server: pair.server,
    client: pair.client,
    device: d.serverDevice,
    test: phase.test,
    cuda: cudaUsed(phase, d),
    bwAvgGbps: null,
    bwPeakGbps: null,
    linkGbps: link,
    error
  }
}

/** A measurement from one device's section of a client's log. */
export function measurementFrom(
  pair: PairSpec,
  d: PairDevice,
  phase: PhaseSpec,
  link: number | null,
  parsed: PerftestResult
): BenchMeasurement {
  const base = {
    server: pair.server,
    client: pair.client,
    device: d.serverDevice,
    test: phase.test,
    cuda: cudaUsed(phase, d),
    linkGbps: link
  }
  if (parsed.error)
    return {
      ...base,
      bwAvgGbps: null,
      bwPeakGbps: null,
      error: describePerftestError(parsed.error)
    }
  if (parsed.kind === 'lat') {
    const row = headlineRow(parsed.rows as LatRow[])
    return {
      ...base,
      bwAvgGbps: null,
      bwPeakGbps: null,
      tMinUs: row?.tMinUs ?? null,
      tTypicalUs: row?.tTypicalUs ?? null,
      tAvgUs: row?.tAvgUs ?? null,
      p99Us: row?.p99Us ?? null,
      p999Us: row?.p999Us ?? null
    }
  }
  const row = headlineRow(parsed.rows as BwRow[])
  return {
    ...base,
    bwAvgGbps: row?.bwAvgGbps ?? null,
    bwPeakGbps: row?.bwPeakGbps ?? null,
    bidirectional: parsed.meta.bidirectional
  }
}

/**
 * perftest cannot use --use_cuda: a build without CUDA refuses the option (unknown before perftest
 * 23.07, " Unsupported memory type" from it) or CUDA finds no device. Other refusals of the command
 * line are the action's own errors and fail the measurement instead.
 */
export function isCudaRejection(parsed: PerftestResult): boolean {
  return parsed.error?.kind === 'cuda'
}

/** A server pod that came up, with its pod IP for the clients to connect to. */
interface LiveServer {
  pair: PairSpec
  ip: string
  devices: PairDevice[]
}

/** A pod to start: its pair and devices, and for a client its server's pod IP. */
interface StartEntry {
  pair: PairSpec
  devices: PairDevice[]
  ip?: string
}

/** The pods a step started, by name (with their pair and devices), as they stood when they settled. */
interface StartedPods {
  names: Map<string, { pair: PairSpec; devices: PairDevice[] }>
  pods: Map<string, KubeObject>
}

/** One phase in progress: what its steps share (the pods' names, the measurements so far). */
class PhaseRun {
  readonly namespace: string
  readonly selector: string
  readonly measurements: BenchMeasurement[] = []
  podsCreated = 0
  private readonly deadlineSeconds: number

  constructor(
    private readonly c: PhaseContext,
    private readonly phase: PhaseSpec
  ) {
    this.namespace = c.namespace ?? WORK_NAMESPACE
    this.selector = selectorOf({ ...benchmarkLabels(c.settings), [PHASE_LABEL]: phase.name })
    this.deadlineSeconds = Math.max(60, Math.ceil((c.timeoutMs * 2) / 1000))
  }

  private async create(pod: KubeObject): Promise<string | { error: string }> {
    try {
      this.podsCreated++
      return (await createPod(this.c.kube, pod)).metadata.name
    } catch (e) {
      return { error: `pod not created: ${oneLine(e instanceof Error ? e.message : String(e))}` }
    }
  }

  private fail(pair: PairSpec, d: PairDevice, why: string): void {
    this.measurements.push(errorMeasurement(pair, d, this.phase, this.c.linkGbps(pair, d), why))
  }

  private log(name: string): Promise<string> {
    return this.c.kube.podLog(this.namespace, name, { container: PERFTEST_CONTAINER, tailLines: 20_000 })
  }

  /** A pod that did not settle in time, or cannot be scheduled, fails its devices; true when it did. */
  private settledOrFailed(
    role: 'server' | 'client',
    pair: PairSpec,
    devices: PairDevice[],
    pod: KubeObject | undefined,
    settled: (p: KubeObject) => boolean
  ): pod is KubeObject {
    if (!pod || !settled(pod)) {
      const what = role === 'server' ? 'server pod did not start' : 'client did not finish'
      for (const d of devices)
        this.fail(
          pair,
          d,
          `${what} within ${Math.round(this.c.timeoutMs / 1000)}s${pod ? ` (${describePod(pod)})` : ''}`
        )
      return false
    }
    const unsched = unschedulableMessage(pod)
    if (unsched) {
      for (const d of devices) this.fail(pair, d, `${role} pod unschedulable: ${oneLine(unsched)}`)
      return false
    }
    return true
  }

  /**
   * Steps 1 and 3: one pod per entry (servers; clients with their server's pod IP); waits until each
   * has settled (a server running, a client finished) or cannot.
   */
  private async startPods(role: 'server' | 'client', entries: StartEntry[]): Promise<StartedPods> {
    const { c, phase } = this
    const names = new Map<string, { pair: PairSpec; devices: PairDevice[] }>()
    await mapLimit(entries, c.concurrency, async e => {
      const name = await this.create(
        perftestPod({
          settings: c.settings,
          phase,
          pair: e.pair,
          role,
          devices: e.devices,
          ...(e.ip !== undefined ? { serverIp: e.ip } : {}),
          namespace: this.namespace,
          deadlineSeconds: this.deadlineSeconds
        })
      )
      if (typeof name === 'string') names.set(name, { pair: e.pair, devices: e.devices })
      else for (const d of e.devices) this.fail(e.pair, d, `${role} ${name.error}`)
    })
    const server = role === 'server'
    const pods = await waitFor(
      c,
      this.selector,
      new Set(names.keys()),
      server ? serverSettled : clientSettled,
      `${phase.name} perftest ${server ? 'servers started' : 'clients finished'}`
    )
    return { names, pods }
  }

  /** 1. Servers: one pod per pair; waits until each runs (or cannot). */
  startServers(pairs: PairSpec[]): Promise<StartedPods> {
    return this.startPods(
      'server',
      pairs.map(pair => ({ pair, devices: pair.devices }))
    )
  }

  /**
   * 2. Servers that could not start: CUDA rejection stops the phase (its message returned); anything
   * else fails that device. The servers that run are added to `live`.
   */
  async judgeServers({ names, pods }: StartedPods, live: LiveServer[]): Promise<string | undefined> {
    const { c, phase } = this
    let cudaUnsupported: string | undefined
    await mapLimit([...names], c.concurrency, async ([name, { pair }]) => {
      const pod = pods.get(name)
      if (!this.settledOrFailed('server', pair, pair.devices, pod, serverSettled)) return
      if (!isPodTerminal(pod) && pod.status?.podIP) {
        live.push({ pair, ip: pod.status.podIP as string, devices: pair.devices })
        return
      }
      // The server container ended before any client came: its sections say why.
      const sections = splitSections(await this.log(name))
      for (const d of pair.devices) {
        const text = sections.get(d.index)?.text ?? ''
        const parsed = parsePerftestOutput(text, { tool: phase.test })
        if (phase.useCuda && isCudaRejection(parsed)) {
          cudaUnsupported ??= parsed.error!.message
          continue
        }
        this.fail(
          pair,
          d,
          `server ${parsed.error ? describePerftestError(parsed.error) : `exited (${describePod(pod)})`}`
        )
      }
    })
    return cudaUnsupported
  }

  /** 3. Clients, each connecting to its server's pod IP; waits until each has finished (or cannot). */
  startClients(live: LiveServer[]): Promise<StartedPods> {
    return this.startPods('client', live)
  }

  /** 4. One log read per client pod, one measurement per device section. */
  async measureClients({ names, pods }: StartedPods): Promise<void> {
    const { c, phase } = this
    await mapLimit([...names], c.concurrency, async ([name, { pair, devices }]) => {
      const pod = pods.get(name)
      if (!this.settledOrFailed('client', pair, devices, pod, clientSettled)) return
      const sections = splitSections(await this.log(name))
      for (const d of devices) {
        const section = sections.get(d.index)
        if (!section) {
          this.fail(pair, d, `no output for ${d.clientDevice} in the client's log (${describePod(pod)})`)
          continue
        }
        this.measurements.push(
          measurementFrom(
            pair,
            d,
            phase,
            c.linkGbps(pair, d),
            parsePerftestOutput(section.text, { tool: phase.test })
          )
        )
      }
    })
  }
}

export async function runPhase(c: PhaseContext, phase: PhaseSpec, pairs: PairSpec[]): Promise<PhaseOutcome> {
  const run = new PhaseRun(c, phase)
  try {
    const servers = await run.startServers(pairs)
    const live: LiveServer[] = []
    const cudaUnsupported = await run.judgeServers(servers, live)
    if (cudaUnsupported) return { measurements: [], cudaUnsupported, podsCreated: run.podsCreated }
    const clients = await run.startClients(live)
    await run.measureClients(clients)
    return { measurements: run.measurements, podsCreated: run.podsCreated }
  } finally {
    const err = await deletePodsQuietly(c.kube, run.selector, run.namespace)
    if (err) c.log?.warning(`could not delete the ${phase.name} perftest pods: ${err}`)
  }
}
