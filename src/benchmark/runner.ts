// The RDMA benchmark: perftest between RDMA nodes in pair or fleet scope, judged against the probed
// line rate, naming slow nodes, NICs and links; all pods are deleted afterwards. See docs/benchmark.md.
import type { KubeClient } from '../kube/client.js'
import type { Log } from '../log/index.js'
import { LABELS } from '../model/types.js'
import type { BenchmarkPairResult, ReportBenchmark } from '../report/report.js'
import type { Settings } from '../settings/settings.js'
import { findRdmaVmSize } from '../settings/vm-sizes.js'
import { unprobeable } from '../verify/probe-check.js'
import { localGpuOf, type NodeFacts } from '../verify/probe-output.js'
import { probeNodes } from '../verify/probe.js'
import { selectorOf } from '../kube/types.js'
import { deletePodsQuietly, ensureWorkNamespace, WORK_NAMESPACE, workRecord } from '../verify/workspace.js'
import {
  analyseBenchmark,
  toReportBenchmark,
  type BenchMeasurement,
  type BenchmarkAnalysis
} from './analysis.js'
import { fleetLineRate, refineOutliers, slowPorts } from './link-rate.js'
import { outlierName } from '../util/outliers.js'
import { devicePairs, fleetSchedule, pairScope, type PairSchedule } from './pairing.js'
import {
  benchmarkLabels,
  plannedTest,
  type PairDevice,
  type PairSpec,
  type PerftestTest,
  type PhaseSpec
} from './perftest-pods.js'
import { runPhase } from './phase.js'
import { busyReason, busyResource, gpuHolders } from './busy.js'

export type GpuDirectState = 'on' | 'host-staged' | 'unsupported' | 'off'
export type BenchmarkVerdict = 'pass' | 'fail' | 'warn' | 'skipped'

export interface BenchmarkRunOptions {
  settings: Settings
  kube: KubeClient
  /** Probe facts from verification (reused); the nodes are probed here when absent. */
  facts?: Map<string, NodeFacts>
  namespace?: string
  /** Limit for each wait (server start, client finish, probe); default settings.wait.stepTimeoutMs. */
  timeoutMs?: number
  /** Pod creations / log reads in flight at once (default 16). */
  concurrency?: number
  /** Where progress and cleanup trouble go (default: nowhere). */
  log?: Log
}

export interface ExcludedNode {
  node: string
  reason: string
}

export interface BenchmarkRun {
  verdict: BenchmarkVerdict
  summary: string
  scope: Settings['benchmark']['scope']
  /** Rounds of disjoint pairs the schedule has (fleet: 2 for an even node count, 3 for odd). */
  rounds: number
  /** Phases run (round × test, plus host-memory repeats). */
  phases: number
  schedule: PairSchedule
  pairs: BenchmarkPairResult[]
  outliers: string[]
  gpudirect: GpuDirectState
  gpudirectDetail: string
  /** Lowest average ib_write_bw bandwidth (Gb/s, 2 decimals) and highest typical latency (µs); '' when none. */
  bandwidthGbps: string
  latencyUs: string
  lineRateGbps: number | null
  /** RDMA nodes left out (probe failed, no active IB port). */
  excluded: ExcludedNode[]
  /** The report's benchmark section. */
  report: ReportBenchmark
  analysis?: BenchmarkAnalysis
}

/** The tests of every round, in order, with the short name their phases carry. */
export const BENCHMARK_TESTS: ReadonlyArray<{ test: PerftestTest; short: string }> = [
  { test: 'ib_write_bw', short: 'bw' },
  { test: 'ib_write_lat', short: 'lat' }
]

/**
 * The phases of one test in one round: the first with GPU memory when the run uses GPUs and the
 * plan measures the test on them (bandwidth; latency is host memory), then the host-memory repeat
 * run when perftest cannot use --use_cuda.
 */
export function testPhases(
  s: Settings,
  t: (typeof BENCHMARK_TESTS)[number],
  round: number,
  useCuda: boolean
): { first: PhaseSpec; hostRepeat?: PhaseSpec } {
  const gpu = useCuda && plannedTest(s, t.test).gpuMemory
  const phase = (cuda: boolean, suffix: string): PhaseSpec => ({
    name: `${t.short}-r${round}${suffix}`,
    test: t.test,
    round,
    useCuda: cuda
  })
  return gpu ? { first: phase(true, ''), hostRepeat: phase(false, '-host') } : { first: phase(false, '') }
}

function emptyRun(
  s: Settings,
  verdict: BenchmarkVerdict,
  summary: string,
  extra: Partial<BenchmarkRun> = {}
): BenchmarkRun {
  const schedule: PairSchedule = { rounds: [], partners: {}, unpaired: [] }
  return {
    verdict,
    summary,
    scope: s.benchmark.scope,
    rounds: 0,
    phases: 0,
    schedule,
    pairs: [],
    outliers: [],
    gpudirect: 'off',
    gpudirectDetail: '',
    bandwidthGbps: '',
    latencyUs: '',
    lineRateGbps: null,
    excluded: [],
    report: {
      scope: s.benchmark.scope,
      pairs: [],
      outliers: [],
      minBandwidthRatio: s.benchmark.minBandwidthRatio
    },
    ...extra
  }
}

async function probeIfNeeded(
  o: BenchmarkRunOptions,
  excluded: ExcludedNode[]
): Promise<Map<string, NodeFacts>> {
  if (o.facts) return o.facts
  const s = o.settings
  const { items } = await o.kube.list('v1', 'Node', {
    labelSelector: `${LABELS.agentPool}=${s.nodePool.name}`,
    limit: 500
  })
  const nodes: string[] = []
  for (const n of items) {
    const why = unprobeable(n, s)
    if (why) excluded.push({ node: n.metadata.name, reason: why })
    else nodes.push(n.metadata.name)
  }
  return probeNodes({
    kube: o.kube,
    settings: s,
    nodes,
    namespace: o.namespace,
    timeoutMs: o.timeoutMs,
    log: o.log
  })
}

/** Device pairs of a node pair, each with the CUDA devices local to its NICs (when both sides have one). */
export function pairDevices(server: NodeFacts, client: NodeFacts): PairDevice[] {
  return devicePairs(server.activeDevices, client.activeDevices).map(d => {
    const sg = localGpuOf(server, d.serverDevice)
    const cg = localGpuOf(client, d.clientDevice)
    return sg !== null && cg !== null ? { ...d, cuda: { server: sg, client: cg } } : d
  })
}

function gpudirectState(
  s: Settings,
  gpus: number | null,
  cudaRejected: string | undefined,
  measured: NodeFacts[]
): { state: GpuDirectState; detail: string } {
  if (!s.benchmark.gpudirect) return { state: 'off', detail: 'benchmark-gpudirect is false: host memory' }
  if (gpus === 0) return { state: 'off', detail: `${s.nodePool.vmSize} has no GPUs: host memory` }
  if (cudaRejected) {
    return {
      state: 'unsupported',
      detail: `perftest in ${s.benchmark.image} has no CUDA support (${cudaRejected}); measured from host memory instead — use an image with a CUDA build of perftest for GPUDirect`
    }
  }
  if (s.gpudirect === 'dmabuf') {
    const proprietary = measured.filter(f => f.openKernelModules !== true).map(f => f.node)
    if (proprietary.length)
      return {
        state: 'unsupported',
        detail: `the GPU driver does not run the open kernel modules on ${proprietary.join(', ')}: no DMA-BUF there (perftest --use_cuda_dmabuf: "DMA-BUF is not supported on this GPU")`
      }
    return {
      state: 'on',
      detail:
        'GPU memory registered by DMA-BUF (--use_cuda_dmabuf; open GPU kernel modules on every measured node)'
    }
  }
  const without = measured.filter(f => f.peermemLoaded !== true).map(f => f.node)
  if (without.length) {
    return {
      state: 'host-staged',
      detail: `nvidia_peermem not loaded on ${without.join(', ')}: the NIC cannot register GPU memory there (perftest --use_cuda fails: "Couldn't allocate MR")`
    }
  }
  return {
    state: 'on',
    detail: 'GPU memory registered directly (nvidia_peermem loaded on every measured node)'
  }
}

/** Splits the probed nodes into those a benchmark can use and those it leaves out (added to `excluded`). */
function eligibleNodes(facts: Map<string, NodeFacts>, excluded: ExcludedNode[]): NodeFacts[] {
  const eligible: NodeFacts[] = []
  for (const f of facts.values()) {
    if (f.error) excluded.push({ node: f.node, reason: f.error })
    else if (!f.activeDevices.length) excluded.push({ node: f.node, reason: 'no active InfiniBand port' })
    else eligible.push(f)
  }
  return eligible
}

/** What measuring every round gave: the measurements and how they were taken. */
interface RoundsMeasured {
  measurements: BenchMeasurement[]
  phases: number
  /** Still true when no perftest rejected --use_cuda. */
  useCuda: boolean
  hostOnlyDevices: number
  cudaRejected?: string
}

/** Runs every round's phases (each test, repeated from host memory when perftest refuses --use_cuda). */
async function measureRounds(
  o: BenchmarkRunOptions,
  namespace: string,
  schedule: PairSchedule,
  byNode: Map<string, NodeFacts>,
  line: number | null,
  useCudaAsked: boolean
): Promise<RoundsMeasured> {
  const s = o.settings
  const m: RoundsMeasured = { measurements: [], phases: 0, useCuda: useCudaAsked, hostOnlyDevices: 0 }
  const ctx = {
    kube: o.kube,
    settings: s,
    namespace,
    timeoutMs: o.timeoutMs ?? s.wait.stepTimeoutMs,
    concurrency: o.concurrency ?? 16,
    linkGbps: () => line,
    log: o.log
  }
  for (const round of schedule.rounds) {
    const pairs: PairSpec[] = round.map((p, k) => {
      const server = byNode.get(p.server)!
      const client = byNode.get(p.client)!
      const devices = pairDevices(server, client)
      if (m.useCuda) m.hostOnlyDevices += devices.filter(d => !d.cuda).length
      return {
        id: `p${k + 1}`,
        server: p.server,
        client: p.client,
        devices,
        gpus: { server: server.gpus.length, client: client.gpus.length }
      }
    })
    for (const t of BENCHMARK_TESTS) {
      const { first, hostRepeat } = testPhases(s, t, round[0].round, m.useCuda)
      m.phases++
      o.log?.info(
        `round ${round[0].round}/${schedule.rounds.length}: ${t.test} on ${pairs.length} pair(s)${first.useCuda ? ' with --use_cuda' : ' from host memory'}`
      )
      let out = await runPhase(ctx, first, pairs)
      if (out.cudaUnsupported && hostRepeat) {
        m.cudaRejected = out.cudaUnsupported
        o.log?.info(`perftest rejected --use_cuda (${m.cudaRejected}); repeating from host memory`)
        m.phases++
        out = await runPhase(ctx, hostRepeat, pairs)
        m.useCuda = false
      }
      m.measurements.push(...out.measurements)
    }
  }
  return m
}

/** Why nothing (or not everything) was measured when workload pods hold the pool's GPUs; undefined otherwise. */
async function busyPool(
  o: BenchmarkRunOptions,
  namespace: string,
  measurements: BenchMeasurement[],
  resources: string[]
): Promise<ReportBenchmark['busy']> {
  const busy = measurements.filter(m => m.busy)
  if (!busy.length) return undefined
  const resource = busyResource(busy[0].error, resources)!
  const nodes = [...new Set(busy.flatMap(m => [m.server, m.client]))]
  const holders = await gpuHolders(o.kube, nodes, resources, namespace).catch((e: unknown) => {
    o.log?.warning(`could not list the pods holding the GPUs: ${e instanceof Error ? e.message : String(e)}`)
    return []
  })
  return { reason: busyReason(resource, holders), holders }
}

export async function runBenchmark(o: BenchmarkRunOptions): Promise<BenchmarkRun> {
  const s = o.settings
  if (!s.benchmark.enabled) return emptyRun(s, 'skipped', 'benchmark is false')
  const namespace = o.namespace ?? WORK_NAMESPACE
  const excluded: ExcludedNode[] = []
  const facts = await probeIfNeeded(o, excluded)
  const eligible = eligibleNodes(facts, excluded)
  const byNode = new Map(eligible.map(f => [f.node, f]))
  const names = eligible.map(f => f.node)
  const schedule = s.benchmark.scope === 'fleet' ? fleetSchedule(names) : pairScope(names)
  if (!schedule.rounds.length) {
    return emptyRun(
      s,
      'fail',
      `needs two RDMA nodes with an active InfiniBand port, found ${names.length}${excluded.length ? ` (excluded: ${excluded.map(e => `${e.node}: ${e.reason}`).join('; ')})` : ''}`,
      { excluded }
    )
  }
  const line = fleetLineRate(eligible, s)
  const size = findRdmaVmSize(s.nodePool.vmSize)
  const gpus = size ? size.gpus : Math.max(0, ...eligible.map(f => f.gpus.length))
  const selector = selectorOf(benchmarkLabels(s))
  await ensureWorkNamespace(o.kube, namespace, workRecord(o.kube, s.runId))
  await deletePodsQuietly(o.kube, selector, namespace)
  let measured: RoundsMeasured
  try {
    measured = await measureRounds(o, namespace, schedule, byNode, line, s.benchmark.gpudirect && gpus !== 0)
  } finally {
    const err = await deletePodsQuietly(o.kube, selector, namespace)
    if (err) o.log?.warning(`could not delete the benchmark pods (-n ${namespace} -l ${selector}): ${err}`)
  }
  const { useCuda, hostOnlyDevices, cudaRejected } = measured
  const resources = ['nvidia.com/gpu', `rdma/${s.stack.rdmaResourceName}`]
  const measurements = measured.measurements.map(m =>
    busyResource(m.error, resources) ? { ...m, busy: true } : m
  )
  const busy = await busyPool(o, namespace, measurements, resources)

  const analysis = analyseBenchmark(measurements, { minBandwidthRatio: s.benchmark.minBandwidthRatio })
  const measuredNodes = [...new Set(measurements.flatMap(m => [m.server, m.client]))]
  const devicesPerNode = new Map(eligible.map(f => [f.node, f.activeDevices.length]))
  const outliers = refineOutliers(analysis.outliers, slowPorts(eligible, line), devicesPerNode).map(
    outlierName
  )
  const report = {
    ...toReportBenchmark(analysis, {
      scope: s.benchmark.scope,
      minBandwidthRatio: s.benchmark.minBandwidthRatio
    }),
    outliers,
    ...(busy ? { busy } : {})
  }
  const gd = gpudirectState(s, gpus, cudaRejected, measuredNodes.map(n => byNode.get(n)!).filter(Boolean))
  let verdict: BenchmarkVerdict = analysis.verdict
  const notes: string[] = []
  if (gd.state === 'unsupported') notes.push('GPUDirect unsupported by the image')
  if (useCuda && hostOnlyDevices)
    notes.push(
      `${hostOnlyDevices} device measurement(s) from host memory: no GPU local to the NIC on one side (see the probe's GPUs)`
    )
  if (excluded.length)
    notes.push(`${excluded.length} node(s) not measured: ${excluded.map(e => e.node).join(', ')}`)
  if (verdict === 'pass' && notes.length) verdict = 'warn'
  const failed = analysis.measurements.filter(m => m.verdict === 'fail').length
  const summary =
    (busy
      ? busy.reason
      : verdict === 'fail'
        ? `${failed} of ${analysis.measurements.length} measurement(s) failed; outliers: ${outliers.join(', ') || 'none attributed'}`
        : `${analysis.measurements.length} measurement(s) over ${schedule.rounds.length} round(s) passed (≥ ${s.benchmark.minBandwidthRatio} × ${line ?? '?'} Gb/s)`) +
    (notes.length ? `; ${notes.join('; ')}` : '')
  return {
    verdict,
    summary,
    scope: s.benchmark.scope,
    rounds: schedule.rounds.length,
    phases: measured.phases,
    schedule,
    pairs: report.pairs,
    outliers,
    gpudirect: gd.state,
    gpudirectDetail: gd.detail,
    bandwidthGbps: analysis.outputs.bandwidthGbps,
    latencyUs: analysis.outputs.latencyUs,
    lineRateGbps: line,
    excluded,
    report,
    analysis
  }
}
