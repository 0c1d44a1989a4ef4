// Judges the collective check: each node's own run, then the pair's path and busbw, with cause and fix.
// The rules and marks: docs/collective-check.md#how-it-decides.
import {
  largestRow,
  ncclGdrPath,
  ncclMode,
  parseNcclNetwork,
  parseNcclTable,
  rowBusbw,
  type NcclNetwork,
  type NcclTable
} from '../parse/nccl.js'
import type {
  CollectiveMode,
  CollectiveNodeResult,
  CollectiveSize,
  ReportCollective
} from '../report/report.js'
import type { Settings } from '../settings/settings.js'
import { oneLine } from '../util/text.js'
import type { CollectivePassMarks } from './pass-marks.js'
import type { Section } from './script.js'

export interface NodeObservation {
  node: string
  pod: string
  gpus: number
  /** Why the pod did not run its test (unschedulable, image pull, timeout). */
  problem?: string
  intra?: Section
}

export interface InterObservation {
  launcher: string
  worker: string
  /** Why the run across the pair did not happen (a pod's problem). */
  problem?: string
  inter?: Section
  /** The pods as admitted lack rdma/<name> they were created with (an admission policy removed it). */
  rdmaStripped: string[]
  /** InfiniBand devices of either node whose port runs below the size's link rate: `node/mlx5_ib3 (200 Gb/s)`. */
  slowNics: string[]
}

export interface CollectiveJudgement {
  collective: ReportCollective
  summary: string
}

const fmt = (n: number) => (Math.round(n * 100) / 100).toFixed(2)

function sizesOf(t: NcclTable): CollectiveSize[] {
  return t.rows.map(r => {
    const inPlaceBetter = r.inPlace.busbwGBps > r.outOfPlace.busbwGBps
    const h = inPlaceBetter ? r.inPlace : r.outOfPlace
    return { bytes: r.bytes, algbwGBps: h.algbwGBps, busbwGBps: h.busbwGBps }
  })
}

/** What a run that printed no table said: its first NCCL WARN, else its last non-empty line. */
function failureText(text: string, net: NcclNetwork): string {
  if (net.warnings.length) return `NCCL WARN ${net.warnings[0]}`
  const lines = text
    .split('\n')
    .map(l => l.trim())
    .filter(l => l && !l.startsWith('#') && !l.includes('NCCL INFO'))
  return lines.length ? oneLine(lines.slice(-3).join(' '), 300) : 'no output'
}

export function judgeNode(o: NodeObservation, marks: CollectivePassMarks): CollectiveNodeResult {
  const mark = marks.intra?.gbps ?? null
  const base = { node: o.node, pod: o.pod, gpus: o.gpus, passMarkGBps: mark }
  if (o.problem) return { ...base, verdict: 'fail', busbwGBps: null, reason: o.problem, sizes: [] }
  const text = o.intra?.text ?? ''
  const t = parseNcclTable(text)
  const last = largestRow(t)
  if (!last)
    return {
      ...base,
      verdict: 'fail',
      busbwGBps: null,
      reason: `all_reduce_perf over ${o.gpus} GPUs printed no result (${failureText(text, parseNcclNetwork(text))})`,
      sizes: []
    }
  const busbw = rowBusbw(last)
  const sizes = sizesOf(t)
  if (mark !== null && busbw < mark)
    return {
      ...base,
      verdict: 'fail',
      busbwGBps: busbw,
      reason: `intra-node busbw ${fmt(busbw)} GB/s over ${o.gpus} GPUs is below ${mark} GB/s: a GPU or its NVLink on ${o.node} is degraded`,
      sizes
    }
  return { ...base, verdict: 'pass', busbwGBps: busbw, sizes }
}

interface Cause {
  reason: string
  fix: string
}

function pathCause(s: Settings, mode: CollectiveMode, net: NcclNetwork, o: InterObservation): Cause | null {
  const resource = `rdma/${s.stack.rdmaResourceName}`
  switch (mode) {
    case 'ib-gdr':
      return null
    case 'socket':
      if (o.rdmaStripped.length)
        return {
          reason: `NCCL used sockets (NET/Socket over ${net.socketInterfaces.join(', ') || 'eth0'}): pod ${o.rdmaStripped.join(', ')} was admitted without ${resource}, so it had no InfiniBand device (NET/IB : No device found)`,
          fix: `an admission policy (a mutating webhook, Kyverno, a MutatingAdmissionPolicy) removes ${resource} from the pods' resources: exempt the ${s.collective.image.split(':')[0]} pods, or every pod that requests ${resource}`
        }
      return {
        reason: `NCCL used sockets (NET/Socket over ${net.socketInterfaces.join(', ') || 'eth0'}): the pods had no usable InfiniBand device${net.ibNoDevice ? ' (NET/IB : No device found)' : ''}`,
        fix: `the pods must get ${resource} from the RDMA device plugin and see /dev/infiniband: see the verification checks (device plugin, allocatable ${resource})`
      }
    case 'ib':
      return {
        reason: `NCCL used InfiniBand through host memory: GPU Direct RDMA is disabled for the NICs${net.gdrDisabledHcas ? ` (GPU Direct RDMA Disabled for ${net.gdrDisabledHcas} HCAs)` : ''}, so NCCL could register GPU memory with neither nvidia_peermem nor dma-buf`,
        fix: 'load nvidia_peermem (GPU Operator driver.rdma.enabled=true; see the nvidia-peermem check) or use dma-buf (the open GPU kernel modules, NCCL_DMABUF_ENABLE=1); on ND v4/v5 NCCL also needs the topology file'
      }
    case 'failed':
      return {
        reason: `NCCL did not connect the two nodes (${failureText(o.inter?.text ?? '', net)})`,
        fix: 'see the launcher pod output below: an mpirun that cannot reach the worker, or NCCL finding no network'
      }
  }
}

export interface JudgeInput {
  settings: Settings
  marks: CollectivePassMarks
  nodes: NodeObservation[]
  inter: InterObservation | null
  /** Why no pair could be picked (fewer than two nodes with GPUs and an active port). */
  noPair?: string
  ncclEnv: Record<string, string>
}

export function judgeCollective(i: JudgeInput): CollectiveJudgement {
  const s = i.settings
  const nodes = i.nodes.map(n => judgeNode(n, i.marks))
  const badNodes = nodes.filter(n => n.verdict === 'fail')
  const o = i.inter
  const text = o?.inter?.text ?? ''
  const net = parseNcclNetwork(text)
  const table = parseNcclTable(text)
  const last = largestRow(table)
  const busbw = last ? rowBusbw(last) : null
  let mode: CollectiveMode = o && !o.problem ? ncclMode(net) : 'failed'
  if (mode !== 'failed' && !last) mode = 'failed'
  const mark = i.marks.inter.gbps
  let cause: Cause | null
  if (i.noPair)
    cause = {
      reason: `the collective check ${i.noPair}`,
      fix: 'see the verification checks: every RDMA node needs GPUs, an active InfiniBand port and allocatable rdma/<name>'
    }
  else if (o?.problem) cause = { reason: o.problem, fix: "see the pods' output and events below" }
  else cause = pathCause(s, mode, net, o!)
  if (!cause && busbw !== null && busbw < mark)
    cause = {
      reason: `inter-node busbw ${fmt(busbw)} GB/s at ${last!.bytes} B is below ${mark} GB/s over InfiniBand with GPUDirect RDMA${o!.slowNics.length ? `; NICs below the link rate: ${o!.slowNics.join(', ')}` : ''}`,
      fix: o!.slowNics.length
        ? `the slow NICs drag the ring down: reseat or replace them (Azure support, with the node names), or cordon their nodes; the benchmark's fleet scope measures each NIC`
        : 'run the benchmark with benchmark-scope: fleet to find the slow NIC or node, and check NCCL_TOPO_FILE'
    }
  if (badNodes.length) {
    const nodeCause = {
      reason: badNodes.map(n => `${n.node}: ${n.reason}`).join('; '),
      fix: `drain ${badNodes.map(n => n.node).join(', ')} and run NVIDIA's diagnostics (dcgmi diag -r 3, nvidia-smi nvlink --status), or ask Azure to replace the node`
    }
    // A bad node is named whatever else failed: it is a fault of its own.
    cause = cause
      ? {
          reason: `${cause.reason}; within a node: ${nodeCause.reason}`,
          fix: `${cause.fix}; ${nodeCause.fix}`
        }
      : nodeCause
  }
  const verdict = cause ? 'fail' : 'pass'
  const reason = cause
    ? cause.reason
    : `InfiniBand with GPUDirect RDMA: ${fmt(busbw!)} GB/s busbw across the pair (pass mark ${mark})${nodes.length ? `; every node's GPUs reach their intra-node mark` : ''}`
  const collective: ReportCollective = {
    check: 'nccl',
    mode,
    verdict,
    reason,
    ...(cause ? { fix: cause.fix } : {}),
    image: s.collective.image,
    busbwGBps: busbw,
    passMarkGBps: mark,
    passMarkSource: i.marks.inter.source,
    intraPassMarkSource: i.marks.intra?.source ?? null,
    sizes: sizesOf(table),
    pair: o ? { launcher: o.launcher, worker: o.worker } : null,
    nodes,
    gpudirect: ncclGdrPath(net),
    network: net.network,
    ibDevices: net.ibDevices,
    ncclVersion: net.version,
    ncclEnv: i.ncclEnv
  }
  const summary =
    mode === 'failed'
      ? `failed: ${reason}`
      : `${mode}, ${verdict}${busbw !== null ? `, ${fmt(busbw)} GB/s busbw` : ''}: ${reason}`
  return { collective, summary }
}
