// The run report: one JSON document describing what a run did (steps), what it found (checks, drift),
// what it measured (benchmark) and why it failed (diagnostics). The job summary is rendered from it and
// it is written as a file for artifacts and for `--json` CLI output.

import type { DriftItem } from '../drift/item.js'
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'

export type ReportResult = 'success' | 'failure' | 'drifted'
/** `warning`: the step did its work and found something to look at (drift mode's drift). */
export type StepStatus = 'success' | 'warning' | 'failure' | 'skipped' | 'cancelled' | 'running'
export type StepAction = 'created' | 'updated' | 'deleted' | 'unchanged'
export type CheckStatus = 'pass' | 'fail' | 'warn' | 'skipped'

export interface ReportStep {
  /** Component or step name, e.g. `network-operator`. */
  name: string
  status: StepStatus
  changed: boolean
  /** What happened to the component when known; otherwise derived from `changed`. */
  action?: StepAction
  durationMs: number
  /** ISO-8601 timestamps. */
  startedAt: string
  finishedAt: string
  detail?: string
  /** Its version before and after, when the run changed it (an upgrade). */
  version?: { from: string; to: string }
}

/** The one way a step's result is made: the step `name` ran from `startedMs` until `endMs`. */
export function finishedStep(
  name: string,
  status: StepStatus,
  startedMs: number,
  o: {
    changed?: boolean
    action?: StepAction
    detail?: string
    version?: ReportStep['version']
  } = {},
  endMs = Date.now()
): ReportStep {
  const end = endMs
  return {
    name,
    status,
    changed: o.changed ?? false,
    ...(o.action ? { action: o.action } : {}),
    durationMs: end - startedMs,
    startedAt: new Date(startedMs).toISOString(),
    finishedAt: new Date(end).toISOString(),
    detail: o.detail ?? '',
    ...(o.version ? { version: o.version } : {})
  }
}

export interface NodeCheckResult {
  node: string
  status: CheckStatus
  detail: string
}

export interface ReportCheck {
  name: string
  status: CheckStatus
  detail: string
  nodes?: NodeCheckResult[]
}

export interface BenchmarkPairResult {
  server: string
  client: string
  test: string
  device: string | null
  bwAvgGbps: number | null
  bwPeakGbps: number | null
  linkGbps: number | null
  /** bwAvgGbps / line rate (×2 for bidirectional runs). */
  ratio: number | null
  tTypicalUs?: number | null
  tAvgUs?: number | null
  p99Us?: number | null
  p999Us?: number | null
  verdict?: 'pass' | 'fail'
  /** Not run: the pool's GPUs are held by workload pods (the perftest pods were unschedulable). */
  busy?: boolean
  /** Why it failed (perftest error, below line rate, below median). */
  reasons?: string[]
  /**
   * GPUDirect: the CUDA device index each side used (`--use_cuda=<index>`, CUDA_DEVICE_ORDER=PCI_BUS_ID):
   * the GPU local to that side's NIC, whose memory perftest registered. Absent from host memory.
   */
  cuda?: { server: number; client: number }
}

export interface BenchmarkNodeResult {
  node: string
  bandwidthGbps: number | null
  ratio: number | null
  partners: string[]
  failing: number
  measurements: number
  badDevices: string[]
  verdict: 'pass' | 'fail' | 'warn'
  detail: string
}

export interface ReportBenchmark {
  scope?: 'pair' | 'fleet'
  pairs: BenchmarkPairResult[]
  outliers: string[]
  /** Per-node view (fleet scope); the summary computes nothing itself when it is absent. */
  nodes?: BenchmarkNodeResult[]
  minBandwidthRatio?: number
  medianGbps?: Record<string, number>
  /** Set when workload pods held the pool's GPUs: why nothing was measured, and the pods holding them. */
  busy?: { reason: string; holders: Array<{ node: string; namespace: string; name: string }> }
}

export interface Diagnostic {
  step: string
  title: string
  text: string
}

/** How a workload uses the RDMA pool: the pod snippet the summary of a successful run ends with. */
export interface ReportWorkload {
  pool: string
  /** `rdma/<name>`: the extended resource the device plugin advertises. */
  rdmaResource: string
  /** GPUs each node of the pool has (the snippet requests them all); null when unknown. */
  gpusPerNode: number | null
  /** A complete Pod (src/model/workload.ts workloadPod), with the benchmark pods' resources and tolerations. */
  podSnippet: Record<string, unknown>
}

export type TransportMode = 'gpudirect-rdma' | 'host-staged' | 'tcp' | 'failed'

/** What one transport check pod saw before the transfer (its preflight and ucx_info -d). */
export interface TransportSide {
  role: 'server' | 'client'
  node: string
  pod: string
  /** Why the pod did not run its checks (unschedulable, image pull, timeout); absent when it did. */
  problem?: string
  uid: number | null
  /** `ulimit -l`: `unlimited` or KiB. */
  memlock: string | null
  shmMiB: number | null
  /** /dev/infiniband/uverbs* the pod got. */
  uverbs: string[]
  gpu: string | null
  /** UCX_NET_DEVICES in effect (`all` when unset). */
  netDevices: string
  /** IB port state of the devices UCX_NET_DEVICES names (all IB devices for `all`). */
  ports: Array<{ device: string; state: string; linkLayer: string; rateGbps: number | null }>
  peermem: boolean | null
  /** UCX's library version in the image (ucx_info -v). */
  ucxVersion: string | null
  /** ucx_info -d: CUDA support (a cuda_cpy domain), an ib domain, cuda among the mlx5 domain memory types, dma-buf registration. */
  ucx: { cuda: boolean; ib: boolean; cudaMemoryType: boolean; dmabuf: boolean } | null
}

export interface TransportPairResult {
  server: string
  client: string
  /** GPU-to-GPU UCX GET bandwidth, Gb/s (2 decimals). */
  bandwidthGbps: number | null
  /** 8-byte tag ping-pong latency between GPU buffers, µs. */
  latencyUs: number | null
}

/** The Dynamo transport check: what UCX did between two Dynamo-shaped pods, judged. */
export interface ReportTransport {
  check: 'ucx'
  mode: TransportMode
  verdict: 'pass' | 'fail'
  /** Why, in the user's terms (the cause first). */
  reason: string
  /** What fixes it; absent on a pass. */
  fix?: string
  image: string
  pairs: TransportPairResult[]
  passMarkGbps: number | null
  linkGbps: number | null
  /** The lanes UCX_PROTO_INFO showed for the GET (`rc_mlx5/mlx5_ib0:1`). */
  lanes: string[]
  /** The protocol UCX_PROTO_INFO showed for the GET (`zero-copy`, `software emulation`). */
  protocol: string | null
  /** How GPU memory reached the NIC: nvidia_peermem, dma-buf, or null (not GPUDirect). */
  gpudirect: 'nvidia_peermem' | 'dma-buf' | null
  /** The UCX environment the pods ran with (UCX_NET_DEVICES as set at start). */
  ucxEnv: Record<string, string>
  sides: TransportSide[]
  /** The worker snippet the check ran, with the pool's GPU→NIC map (shown after a pass). */
  workerSnippet?: Record<string, unknown>
  /** Set when its pods could not be scheduled because workload pods hold the pool's GPUs. */
  busy?: NonNullable<ReportBenchmark['busy']>
}

/** The path NCCL's inter-node traffic took: InfiniBand with GPUDirect RDMA, through host memory, sockets. */
export type CollectiveMode = 'ib-gdr' | 'ib' | 'socket' | 'failed'

/** One size of an all_reduce_perf run: the better of its out-of-place and in-place halves. */
export interface CollectiveSize {
  bytes: number
  algbwGBps: number
  busbwGBps: number
}

/** all_reduce_perf over every GPU of one node, in one process. */
export interface CollectiveNodeResult {
  node: string
  pod: string
  gpus: number
  verdict: 'pass' | 'fail'
  /** busbw at the largest size, GB/s; null when the run printed no table. */
  busbwGBps: number | null
  passMarkGBps: number | null
  /** Why it failed (or why it was not judged); absent on a pass. */
  reason?: string
  sizes: CollectiveSize[]
}

/** The NCCL collective check: all_reduce_perf within each node and across the pair, judged. */
export interface ReportCollective {
  check: 'nccl'
  /** The inter-node path, from NCCL_DEBUG=INFO. */
  mode: CollectiveMode
  verdict: 'pass' | 'fail'
  /** Why, in the user's terms (the cause first). */
  reason: string
  /** What fixes it; absent on a pass. */
  fix?: string
  image: string
  /** busbw across the two nodes at the largest size, GB/s. */
  busbwGBps: number | null
  passMarkGBps: number | null
  passMarkSource: string
  intraPassMarkSource: string | null
  /** The inter-node run per size. */
  sizes: CollectiveSize[]
  /** The pair's launcher and worker nodes; null when no pair could be picked. */
  pair: { launcher: string; worker: string } | null
  nodes: CollectiveNodeResult[]
  /** How GPU memory reached the NIC, when NCCL's log says (dma-buf when it found DMA-BUF). */
  gpudirect: 'dmabuf' | 'peermem' | null
  /** NCCL's network (`IB`, `Socket`, `IBext_v8`) and the IB devices it used. */
  network: string | null
  ibDevices: string[]
  ncclVersion: string | null
  ncclEnv: Record<string, string>
}

/** Which path GPUDirect RDMA took, from what each probed node shows (verify/gpudirect.ts). */
export interface ReportGpuDirect {
  /** The gpudirect input. */
  mode: 'dmabuf' | 'peermem'
  /** The path every probed node shows; null when some node shows none. */
  path: 'dma-buf' | 'nvidia_peermem' | null
  nodes: Array<{ node: string; path: 'dma-buf' | 'nvidia_peermem' | null; shows: string }>
  /** One line for the summary. */
  detail: string
}

/** The cluster a run is about: as resource-group and cluster-name name it, and the kubeconfig context used. */
export interface ReportCluster {
  resourceGroup?: string
  name?: string
  /** The context of a given kubeconfig (the kubeconfig input, or the CLI's default one). */
  context?: string
}

/** One pool's results when several are checked (all-pools); the run's node-pool is also the top level's. */
export interface ReportPool {
  pool: string
  /** The VM size its nodes run (their instance-type label), by which its results are judged. */
  vmSize: string | null
  result: ReportResult
  /** Its verify, benchmark and transport steps. */
  steps: ReportStep[]
  checks: ReportCheck[]
  benchmark?: ReportBenchmark
  transport?: ReportTransport
}

export interface Report {
  mode: string
  /** The action's version (package.json's). */
  version?: string
  /** ISO-8601: when the run started. */
  startedAt?: string
  cluster?: ReportCluster
  result: ReportResult
  outputs: Record<string, string>
  steps: ReportStep[]
  checks: ReportCheck[]
  benchmark?: ReportBenchmark
  transport?: ReportTransport
  collective?: ReportCollective
  /** How GPU memory reached the NIC on the probed nodes (verify and apply, GPU sizes). */
  gpudirect?: ReportGpuDirect
  drift?: DriftItem[]
  diagnostics?: Diagnostic[]
  workload?: ReportWorkload
  /** Every pool checked, the run's node-pool first: only when several were (all-pools). */
  pools?: ReportPool[]
}

/** A report with nothing in it yet (but what the run is: its version, start and cluster). */
export function emptyReport(
  mode: string,
  about: Pick<Report, 'version' | 'startedAt' | 'cluster'> = {}
): Report {
  return { mode, ...about, result: 'success', outputs: {}, steps: [], checks: [] }
}

/**
 * The result a report's contents call for: any failed step, failed check or failed benchmark
 * measurement → failure; otherwise drift entries → drifted; otherwise success.
 */
export function deriveResult(report: Report): ReportResult {
  const failed =
    report.steps.some(s => s.status === 'failure') ||
    report.checks.some(c => c.status === 'fail') ||
    (report.benchmark?.pairs.some(p => p.verdict === 'fail') ?? false) ||
    report.transport?.verdict === 'fail' ||
    report.collective?.verdict === 'fail' ||
    (report.pools?.some(p => p.result === 'failure') ?? false)
  if (failed) return 'failure'
  if (driftFound(report)) return 'drifted'
  return 'success'
}

/**
 * Whether the run found drift: any drift entry, whatever else failed (the `drifted` output). A
 * failure outranks drift in the result (`failure`), never hides it here.
 */
export function driftFound(report: Report): boolean {
  return (report.drift?.length ?? 0) > 0
}

/** The outputs that hold a number: JSON numbers in the report (the step's outputs are strings). */
export const NUMERIC_OUTPUTS = [
  'rdma-nodes',
  'bandwidth-gbps',
  'latency-us',
  'transport-gbps',
  'nccl-busbw-gbps'
] as const

const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?$/

/** A numeric string as a number; anything else as it is. */
function asNumber(v: string): string | number {
  return NUMBER.test(v) ? Number(v) : v
}

/**
 * The report as its JSON holds it: numbers as JSON numbers — the numeric outputs and a node pool's
 * count in drift — where the in-memory report keeps the strings the step outputs are.
 */
export function reportForJson(report: Report): Record<string, unknown> {
  const outputs: Record<string, string | number> = { ...report.outputs }
  for (const k of NUMERIC_OUTPUTS) if (outputs[k] !== undefined) outputs[k] = asNumber(report.outputs[k])
  const drift = report.drift?.map(d =>
    d.component === 'node-pool' && d.field === 'count'
      ? { ...d, desired: asNumber(d.desired), actual: asNumber(d.actual) }
      : d
  )
  return { ...report, outputs, ...(drift ? { drift } : {}) }
}

/** Stable JSON text of a report (2-space indent, trailing newline). */
export function reportToJson(report: Report): string {
  return JSON.stringify(reportForJson(report), null, 2) + '\n'
}

/** Writes the report as JSON, creating the directory when needed. */
export async function writeReportFile(path: string, report: Report): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  await writeFile(path, reportToJson(report), 'utf8')
}
