// Judges a transport check from what the two pods printed: the mode read from UCX itself, the cause and
// fix from the preflight, the bandwidth against the pass mark. Pure: no I/O. Rules: docs/transport-check.md.
import { SHM_SIZE } from './dynamo-worker.js'
import { BANDWIDTH_TEST, TRANSPORT_PASS_RATIO } from './plan.js'
import {
  mbsToGbps,
  rowFor,
  type ProtoTable,
  type UcxLogLine,
  type UcxMemoryDomain,
  type UcxPerftestOutput
} from '../parse/ucx.js'
import { parseQuantity } from '../kube/quantity.js'
import type { ReportTransport, TransportMode, TransportSide } from '../report/report.js'
import type { Settings } from '../settings/settings.js'
import { oneLine } from '../util/text.js'
import { netDeviceNames, type Preflight } from './script.js'

/** What one pod produced. */
export interface SideObservation {
  role: 'server' | 'client'
  node: string
  pod: string
  /** The pod never ran its checks: why. */
  problem?: string
  preflight: Preflight | null
  ucxInfo: UcxMemoryDomain[]
  /** UCX's log lines across the pod's sections (ucx_info, ucx_perftest). */
  log: UcxLogLine[]
}

export interface JudgeInput {
  settings: Settings
  server: SideObservation
  client: SideObservation
  bandwidth: UcxPerftestOutput | null
  latency: UcxPerftestOutput | null
  /** Link rate (Gb/s) of an IB device on a node, from the node probe. */
  linkGbps(node: string, device: string): number | null
  /** The IB device local to each GPU of a node (nvidia-smi bus id → device), from the node probe. */
  localNic(node: string, gpuBusId: string): string | null
  /** The UCX environment the pods ran with (before UCX_NET_DEVICES is set at start). */
  ucxEnv: Record<string, string>
}

interface Finding {
  mode: TransportMode
  reason: string
  fix?: string
}

const SHM_KIB = (parseQuantity(SHM_SIZE) ?? 0) / 1024

function ucxSupport(mds: UcxMemoryDomain[]): TransportSide['ucx'] {
  if (!mds.length) return null
  const ib = mds.filter(m => m.component === 'ib')
  const cuda = mds.find(m => m.component === 'cuda_cpy')
  return {
    cuda: !!cuda,
    ib: ib.length > 0,
    cudaMemoryType: ib.some(m => 'cuda' in m.memoryTypes),
    dmabuf: ib.some(m => m.registerDmabuf) && (cuda?.memoryTypes.cuda ?? []).includes('dmabuf')
  }
}

function uverbs(p: Preflight | null): string[] {
  return (p?.infiniband ?? []).filter(f => /^uverbs\d+$/.test(f))
}

export function describeSide(o: SideObservation): TransportSide {
  const p = o.preflight
  const named = netDeviceNames(p?.netDevices ?? 'all')
  const ports = (p?.ports ?? []).filter(x =>
    named.length ? named.includes(x.device) : x.linkLayer === 'InfiniBand'
  )
  return {
    role: o.role,
    node: o.node,
    pod: o.pod,
    ...(o.problem ? { problem: o.problem } : {}),
    uid: p?.uid ?? null,
    memlock: p?.memlock ?? null,
    shmMiB: p?.shmKiB === null || p?.shmKiB === undefined ? null : Math.round(p.shmKiB / 1024),
    uverbs: uverbs(p),
    gpu: p?.gpus[0] ?? null,
    netDevices: p?.netDevices ?? 'all',
    ports,
    peermem: p ? p.peermem !== null : null,
    ucxVersion: p?.ucxVersion ?? null,
    ucx: ucxSupport(o.ucxInfo)
  }
}

const where = (o: SideObservation) => `the ${o.role} pod on ${o.node}`

/** The first UCX error or warning of either side matching `re`, with the side it came from. */
function logMatch(i: JudgeInput, re: RegExp): { side: SideObservation; line: UcxLogLine } | undefined {
  for (const side of [i.client, i.server])
    for (const line of side.log) if (re.test(line.message)) return { side, line }
  return undefined
}

function resourceName(s: Settings): string {
  return `rdma/${s.stack.rdmaResourceName}`
}

/** Why UCX had no InfiniBand device on a side, if it had none: no uverbs file, or no verbs in UCX. */
function noIbReason(i: JudgeInput, side: SideObservation): Finding | undefined {
  const s = i.settings
  if (side.preflight && !uverbs(side.preflight).length)
    return {
      mode: 'failed',
      reason: `${where(side)} has no /dev/infiniband device (no uverbs file): it did not get ${resourceName(s)}, so UCX has no InfiniBand device to use`,
      fix: `request ${resourceName(s)}: 1 in every worker container (the worker snippet does); if the pod spec asks for it, something in the cluster removed it before the pod was stored (compare kubectl get pod -o yaml with what you applied; look for a mutating admission policy)`
    }
  const ucx = ucxSupport(side.ucxInfo)
  if (ucx && !ucx.ib)
    return {
      mode: 'failed',
      reason: `UCX in ${s.transport.image} has no InfiniBand support: ucx_info -d in ${where(side)} lists no ib memory domain although the pod has ${uverbs(side.preflight).join(', ')} (UCX built without verbs, or rdma-core's libibverbs/libmlx5 missing from the image)`,
      fix: `run the workers on an image whose UCX is built --with-verbs and ships rdma-core (libibverbs, libmlx5), such as the default transport-image`
    }
  return undefined
}

/** The cause of a transfer that did not complete, from UCX's own messages and the preflight. */
function failureCause(i: JudgeInput): Finding {
  const s = i.settings
  for (const side of [i.server, i.client])
    if (side.problem)
      return {
        mode: 'failed',
        reason: `${where(side)} did not run: ${side.problem}`,
        fix: /Image|image/.test(side.problem)
          ? `check that the nodes can pull ${s.transport.image} (transport-image; nvcr.io needs no credentials for public Dynamo images)`
          : `check the pool's allocatable ${resourceName(s)} and nvidia.com/gpu (each worker pod asks for one of each)`
      }
  const cuda = logMatch(i, /Unsupported memory types? cuda/)
  const noCudaMd = [i.client, i.server].find(x => x.ucxInfo.length && !ucxSupport(x.ucxInfo)!.cuda)
  if (cuda || noCudaMd)
    return {
      mode: 'failed',
      reason: `UCX in ${s.transport.image} has no CUDA support: ucx_info -d lists no cuda_cpy memory domain${cuda ? ` and ucx_perftest -m cuda failed (${oneLine(cuda.line.message)})` : ''}. NIXL in such an image takes VRAM for host memory ("VRAM memory is detected as host") and fails with NIXL_ERR_BACKEND`,
      fix: `run the workers on an image whose UCX is built --with-cuda and finds its CUDA module (libuct_cuda.so in UCX's module directory), such as the default transport-image`
    }
  const memlock = logMatch(
    i,
    /max locked memory|ibv_create_(cq|qp).*Cannot allocate memory|Cannot allocate memory/
  )
  if (memlock) {
    const p = memlock.side.preflight
    const limit =
      p?.memlockKiB !== null && p?.memlockKiB !== undefined
        ? `${p.memlockKiB} KiB`
        : (p?.memlock ?? 'limited')
    return {
      mode: 'failed',
      reason: `UCX could not create its InfiniBand queues in ${where(memlock.side)} (${oneLine(memlock.line.message)}): the worker's locked-memory limit is ${limit} for UID ${p?.uid ?? '?'}, and a non-root user cannot use IPC_LOCK to exceed it`,
      fix: `raise the limit for every container on the pool: ib-node-config sets LimitMEMLOCK=infinity for containerd and restarts it (re-run mode: apply, check its pods' log, and that no later containerd drop-in sets LimitMEMLOCK)`
    }
  }
  for (const side of [i.client, i.server]) {
    const f = noIbReason(i, side)
    if (f) return f
  }
  const eth = ethernetDevice(i)
  if (eth) return eth
  const down = [i.client, i.server]
    .flatMap(side => describeSide(side).ports.map(p => ({ side, p })))
    .find(x => x.p.linkLayer === 'InfiniBand' && x.p.state !== 'ACTIVE')
  if (down)
    return {
      mode: 'failed',
      reason: `${down.p.device} on ${down.side.node} is ${down.p.state}: UCX cannot use it`,
      fix: `bring the port up (the verification's node-probe check names the node and port)`
    }
  const err = logMatch(i, /./)
  const reason = err
    ? `ucx_perftest failed in ${where(err.side)}: ${oneLine(err.line.message)}`
    : `ucx_perftest printed no result (bandwidth run exit ${i.bandwidth ? 'non-zero' : 'unknown'})`
  return { mode: 'failed', reason, fix: 'see the transport pods’ output in the diagnostics' }
}

/** UCX touched the node's Ethernet mlx5 device (the accelerated-networking VF). */
function ethernetDevice(i: JudgeInput): Finding | undefined {
  for (const side of [i.client, i.server]) {
    const eth = (side.preflight?.ports ?? []).filter(p => p.linkLayer === 'Ethernet').map(p => p.device)
    const line = side.log.find(l => eth.some(d => l.message.includes(d)))
    if (!line) continue
    const dev = eth.find(d => line.message.includes(d))!
    return {
      mode: 'failed',
      reason: `UCX used ${dev}, the node's Ethernet (accelerated-networking) mlx5 device, in ${where(side)} (UCX_NET_DEVICES=${side.preflight?.netDevices ?? 'all'}): ${oneLine(line.message)}. It has no RDMA path between nodes`,
      fix: `set UCX_NET_DEVICES to the InfiniBand device local to the worker's GPU (transport-ucx-env: dynamo, the worker snippet's prelude), and keep linkTypes [infiniband] in the device plugin's selectors so pods do not get the Ethernet device`
    }
  }
  return undefined
}

/** The endpoints of the GET tables when all are self or intra-node ones; '' otherwise. */
function localTablesOnly(out: UcxPerftestOutput | null): string {
  const tables = (out?.protocols ?? []).filter(t => /ucp_get|remote memory read/.test(t.operation))
  return tables.length && tables.every(t => /\b(?:self|intra-node)\b/.test(t.endpoint))
    ? tables.map(t => t.endpoint).join(', ')
    : ''
}

/**
 * The GET's protocol table of the inter-node endpoint on the client (the initiator); a table of a
 * UCX that names no locality (`ep_cfg[N]`, before 1.15) stands in. A `self` or `intra-node` table
 * says nothing of the path between the nodes.
 */
function getTable(out: UcxPerftestOutput | null): ProtoTable | undefined {
  const tables = (out?.protocols ?? []).filter(t => /ucp_get|remote memory read/.test(t.operation))
  return (
    tables.find(t => /\binter-node\b/.test(t.endpoint)) ??
    tables.find(t => !/\b(?:self|intra-node)\b/.test(t.endpoint))
  )
}

function hostStagedCause(i: JudgeInput, protocol: string, lanes: string[]): Finding {
  const sides = [i.client, i.server].filter(x => {
    const u = ucxSupport(x.ucxInfo)
    return !(u?.cudaMemoryType || u?.dmabuf)
  })
  const nodes = (sides.length ? sides : [i.client, i.server]).map(x => x.node)
  const peermem = [i.client, i.server]
    .filter(x => x.preflight && x.preflight.peermem === null)
    .map(x => x.node)
  return {
    mode: 'host-staged',
    reason: `UCX moved the GPU memory through host memory ("${protocol}" on ${lanes.join(', ') || 'no lane'}): on ${nodes.join(', ')} the mlx5 memory domain cannot register GPU memory${peermem.length ? ` — nvidia_peermem is not loaded (no /sys/module/nvidia_peermem on ${peermem.join(', ')})` : ''} and dma-buf registration is unavailable (ucx_info -d: no cuda memory type and no dmabuf on mlx5)`,
    fix: `load nvidia_peermem on every pool node: the GPU Operator's driver pods must run nvidia-peermem-ctr (driver.rdma.enabled=true, driver.rdma.useHostMofed=false — use-host-mofed: false); or run the open GPU kernel modules so UCX registers GPU memory by dma-buf`
  }
}

function tcpCause(i: JudgeInput, lanes: string[]): Finding {
  const why = noIbReason(i, i.client) ?? noIbReason(i, i.server)
  const base = `UCX chose tcp (${lanes.join(', ')}) between the pods: KV-cache transfers would run at TCP speed`
  return why
    ? { mode: 'tcp', reason: `${base}: ${why.reason}`, fix: why.fix }
    : {
        mode: 'tcp',
        reason: `${base}: no InfiniBand transport was usable (UCX_TLS=${i.ucxEnv.UCX_TLS ?? 'all'})`,
        fix: 'keep rc_x/rc (and dc_x/dc) in UCX_TLS and UCX_NET_DEVICES on the InfiniBand device local to the GPU'
      }
}

function gpudirectPath(i: JudgeInput): ReportTransport['gpudirect'] {
  const all = [i.client, i.server]
  if (all.every(x => x.preflight?.peermem !== null && ucxSupport(x.ucxInfo)?.cudaMemoryType))
    return 'nvidia_peermem'
  if (all.every(x => ucxSupport(x.ucxInfo)?.dmabuf)) return 'dma-buf'
  return all.every(x => x.preflight?.peermem !== null) ? 'nvidia_peermem' : 'dma-buf'
}

const round2 = (n: number) => Math.round(n * 100) / 100

/** /dev/shm smaller than the worker snippet's: a side and its size. */
function shmProblem(i: JudgeInput): Finding | undefined {
  const small = [i.client, i.server].find(
    x =>
      x.preflight?.shmKiB !== null && x.preflight?.shmKiB !== undefined && x.preflight.shmKiB < SHM_KIB * 0.99
  )
  if (!small) return undefined
  const mib = Math.round(small.preflight!.shmKiB! / 1024)
  return {
    mode: 'failed',
    reason: `/dev/shm is ${mib} MiB in ${where(small)}, less than the ${SHM_SIZE} the worker mounts: a memory limit on the pod caps its memory-backed volume (the kubelet sizes it to the smaller of sizeLimit and the pod's memory limit)`,
    fix: `give worker containers a memory limit above ${SHM_SIZE} or none (a LimitRange or a mutating policy in the namespace may set one), and mount an emptyDir with medium: Memory at /dev/shm (Dynamo sizes it 16Gi for vLLM, up to 80Gi for TensorRT-LLM)`
  }
}

export interface Judgement {
  transport: ReportTransport
  summary: string
}

export function judgeTransport(i: JudgeInput): Judgement {
  const s = i.settings
  const final = i.bandwidth?.final ?? null
  const bandwidthGbps = final ? round2(mbsToGbps(final.bandwidthMBs.overall)) : null
  const latencyUs = i.latency?.final ? round2(i.latency.final.latencyUs.overall) : null
  const table = getTable(i.bandwidth)
  const row = table ? rowFor(table, BANDWIDTH_TEST.size) : undefined
  const lanes = row?.lanes ?? []
  const protocol = row ? row.protocol.replace(/^\(\?\)\s*/, '') : null
  const laneDevices = lanes.map(l => l.split('/')[1]?.replace(/:\d+$/, '') ?? '')
  const linkGbps = Math.max(0, ...laneDevices.map(d => i.linkGbps(i.client.node, d) ?? 0)) || null
  const passMarkGbps = linkGbps ? round2(linkGbps * TRANSPORT_PASS_RATIO) : null
  let f: Finding
  if (!final) f = failureCause(i)
  else if (!row && !table && localTablesOnly(i.bandwidth))
    f = {
      mode: 'failed',
      reason: `UCX printed GET protocol tables only for self or intra-node endpoints (${localTablesOnly(i.bandwidth)}): the path between ${i.client.node} and ${i.server.node} is not known`,
      fix: 'check that the two pods ran on different nodes and that UCX reached the server over the network (the pods’ logs)'
    }
  else if (!row)
    f = {
      mode: 'failed',
      reason: `UCX printed no protocol table for the GET (UCX_PROTO_INFO=y): the transport it chose is not known`,
      fix: 'use an image with UCX ≥ 1.12 (protocols v2 print UCX_PROTO_INFO tables)'
    }
  else if (lanes.some(l => l.startsWith('tcp/'))) f = tcpCause(i, lanes)
  else if (!/zero-copy/.test(protocol ?? '')) f = hostStagedCause(i, protocol ?? '', lanes)
  else f = { mode: 'gpudirect-rdma', reason: '' }
  let verdict: 'pass' | 'fail' = f.mode === 'gpudirect-rdma' ? 'pass' : 'fail'
  if (f.mode === 'gpudirect-rdma') {
    const local = i.client.preflight?.gpus[0] ? i.localNic(i.client.node, i.client.preflight.gpus[0]) : null
    const offLocal = local && !laneDevices.includes(local)
    if (passMarkGbps !== null && bandwidthGbps !== null && bandwidthGbps < passMarkGbps) {
      verdict = 'fail'
      f = {
        mode: 'gpudirect-rdma',
        reason: `GPU-to-GPU bandwidth ${bandwidthGbps} Gb/s is below the pass mark ${passMarkGbps} Gb/s (${TRANSPORT_PASS_RATIO} × the ${linkGbps} Gb/s link)${offLocal ? `: UCX used ${laneDevices.join(', ')}, not ${local}, the NIC local to the client's GPU (UCX_NET_DEVICES=${i.client.preflight?.netDevices})` : ''}`,
        fix: offLocal
          ? 'set UCX_NET_DEVICES to the InfiniBand device local to the worker’s GPU (transport-ucx-env: dynamo, the worker snippet’s prelude)'
          : 'compare with the benchmark’s result for the same NIC (a slow link or NIC shows there too)'
      }
    } else
      f.reason = `UCX read GPU memory with ${protocol} over ${lanes.join(', ')} at ${bandwidthGbps} Gb/s (pass mark ${passMarkGbps ?? '?'} Gb/s)`
  }
  const shm = shmProblem(i)
  if (shm) {
    verdict = 'fail'
    f =
      f.mode === 'gpudirect-rdma' && !f.fix
        ? { ...shm, mode: f.mode }
        : { ...f, reason: `${f.reason}; ${shm.reason}`, fix: f.fix ? `${f.fix}; ${shm.fix}` : shm.fix }
  }
  const transport: ReportTransport = {
    check: 'ucx',
    mode: f.mode,
    verdict,
    reason: f.reason,
    ...(verdict === 'fail' && f.fix ? { fix: f.fix } : {}),
    image: s.transport.image,
    pairs: [{ server: i.server.node, client: i.client.node, bandwidthGbps, latencyUs }],
    passMarkGbps,
    linkGbps,
    lanes,
    protocol,
    gpudirect: f.mode === 'gpudirect-rdma' ? gpudirectPath(i) : null,
    ucxEnv: { ...i.ucxEnv, UCX_NET_DEVICES: i.client.preflight?.netDevices ?? 'all' },
    sides: [describeSide(i.server), describeSide(i.client)]
  }
  const summary =
    verdict === 'pass'
      ? `${f.mode} at ${bandwidthGbps} Gb/s (≥ ${passMarkGbps} Gb/s) between ${i.server.node} and ${i.client.node}`
      : `${f.mode}: ${f.reason}`
  return { transport, summary }
}
