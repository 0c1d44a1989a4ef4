// The node-probe check: judges each node's probe facts and names the nodes that could not be probed.
// Rules: docs/probe.md ("What is judged").
import type { KubeObject } from '../kube/types.js'
import type { NodeCheckResult } from '../report/report.js'
import type { Settings } from '../settings/settings.js'
import { findRdmaVmSize } from '../settings/vm-sizes.js'
import { nodeCheck, nodeResult, type Check } from './check-result.js'
import type { NodeFacts } from './probe-output.js'
import { isNodeReady } from '../kube/pods.js'
import { allocatable } from '../kube/quantity.js'
import { describeTaint, untoleratedTaints } from '../model/tolerations.js'
import { poolTolerations } from '../model/workload.js'

/**
 * The node's first NoSchedule/NoExecute taint that the pool's tolerations (node-taints) do not
 * cover, as the probe DaemonSet's pods see it (with the tolerations the DaemonSet controller adds:
 * a cordoned or pressured node is still probed).
 */
export function untoleratedTaint(node: KubeObject, s: Settings): string | undefined {
  const t = untoleratedTaints(node, poolTolerations(s), { daemonSet: true })[0]
  return t ? describeTaint(t) : undefined
}

/** Why a node cannot be probed, or undefined when it can. */
export function unprobeable(node: KubeObject, s: Settings): string | undefined {
  if (!isNodeReady(node)) return 'node NotReady'
  const resource = `rdma/${s.stack.rdmaResourceName}`
  const a = allocatable(node, resource)
  if (a.value <= 0) return `no allocatable ${resource} for the probe pod to request`
  const taint = untoleratedTaint(node, s)
  if (taint)
    return `taint ${taint} is not in node-taints, so workloads with the pool's tolerations (and the probe) cannot run there`
  return undefined
}

/** What a node that passes shows for GPUDirect, per the gpudirect input. */
function gpuDirectOk(s: Settings): string {
  return s.gpudirect === 'dmabuf' ? 'open GPU kernel modules (dma-buf)' : 'nvidia_peermem loaded'
}

export function judgeFacts(f: NodeFacts, s: Settings): NodeCheckResult {
  if (f.error) return { node: f.node, status: 'fail', detail: f.error }
  const size = findRdmaVmSize(s.nodePool.vmSize)
  const problems: string[] = []
  const warnings: string[] = []
  if (!f.ibPorts.length)
    problems.push(`no InfiniBand ports${f.ibstatError ? ` (ibstat: ${f.ibstatError})` : ''}`)
  else {
    const down = f.ibPorts.filter(p => p.state !== 'Active')
    for (const p of down)
      problems.push(`${p.ca} port ${p.port} ${p.state}${p.physicalState ? `/${p.physicalState}` : ''}`)
    if (size && f.activeDevices.length < size.ibNics && !down.length)
      warnings.push(`${f.activeDevices.length} IB device(s), ${size.name} has ${size.ibNics}`)
    if (size) {
      const slow = f.ibPorts.filter(
        p => p.state === 'Active' && p.rateGbps !== null && p.rateGbps < size.linkGbps
      )
      for (const p of slow)
        warnings.push(`${p.ca} at ${p.rateGbps} Gb/s (${size.name} links run at ${size.linkGbps})`)
    }
  }
  problems.push(...allocationProblems(f, s))
  if (!f.memlockUnlimited)
    problems.push(
      `ulimit -l = ${f.memlock ?? '<none>'} (expected unlimited: ib-node-config memlock not in effect)`
    )
  const gpus = size ? size.gpus > 0 : true
  if (gpus && s.gpudirect === 'peermem') {
    if (f.peermemLoaded === false) problems.push('nvidia_peermem not loaded (GPUDirect RDMA unavailable)')
    else if (f.peermemLoaded === null) warnings.push('/proc/modules unreadable: nvidia_peermem unknown')
  }
  if (gpus && s.gpudirect === 'dmabuf') {
    if (f.openKernelModules === false)
      problems.push(
        'the GPU driver runs the proprietary kernel modules, which cannot export GPU memory as dma-buf (GPUDirect RDMA unavailable: set driver.kernelModuleType=open, or gpudirect: peermem)'
      )
    else if (f.openKernelModules === null)
      warnings.push('/proc/driver/nvidia/version unreadable: GPU kernel modules (dma-buf) unknown')
  }
  const rates = [...new Set(f.activeDevices.map(d => f.rateGbps[d]).filter((r): r is number => r !== null))]
  const ok = `${f.activeDevices.length} IB port(s) Active at ${rates.join('/') || '?'} Gb/s; memlock unlimited${gpus ? `; ${gpuDirectOk(s)}` : ''}`
  return nodeResult(f.node, problems, ok, warnings)
}

/**
 * What rdma/<resource> gave the pod, against the node's InfiniBand ports: an Ethernet device among
 * them (the device plugin's selectors also match the accelerated-networking VF, e.g. no
 * `linkTypes: [infiniband]`), or an IB device the pod cannot open (its selectors miss it).
 */
export function allocationProblems(f: NodeFacts, s: Settings): string[] {
  if (!f.podDevices) return []
  const resource = `rdma/${s.stack.rdmaResourceName}`
  const out: string[] = []
  const ethernet = f.podDevices.filter(d => d.linkLayer === 'Ethernet').map(d => d.ca)
  if (ethernet.length)
    out.push(
      `${resource} gives pods the Ethernet device${ethernet.length > 1 ? 's' : ''} ${ethernet.join(', ')}: the device plugin's selectors also match the accelerated-networking VF (select linkTypes: [infiniband])`
    )
  const open = new Set(f.podDevices.map(d => d.ca))
  const missed = [...new Set(f.ibPorts.map(p => p.ca))].filter(ca => !open.has(ca))
  if (missed.length)
    out.push(
      `${missed.join(', ')} not in what ${resource} gives pods (the probe pod's /dev/infiniband has no uverbs file for ${missed.length > 1 ? 'them' : 'it'}): the device plugin's selectors do not match ${missed.length > 1 ? 'them' : 'it'}`
    )
  return out
}

export function nodeProbeCheck(
  nodes: KubeObject[],
  facts: Map<string, NodeFacts>,
  skipped: Map<string, string>,
  s: Settings
): Check {
  if (!nodes.length)
    return {
      name: 'node-probe',
      status: 'skipped',
      detail: `no nodes of pool ${s.nodePool.name} to probe (see nodes-ready)`,
      nodes: []
    }
  const results = nodes.map(n => {
    const name = n.metadata.name
    const why = skipped.get(name)
    if (why) return { node: name, status: 'fail' as const, detail: `not probed: ${why}` }
    const f = facts.get(name)
    return f ? judgeFacts(f, s) : { node: name, status: 'fail' as const, detail: 'no probe result' }
  })
  return nodeCheck(
    'node-probe',
    results,
    `${results.length} node(s) probed: IB ports Active, memlock unlimited${findRdmaVmSize(s.nodePool.vmSize)?.gpus === 0 ? '' : `, ${gpuDirectOk(s)}`}`
  )
}
