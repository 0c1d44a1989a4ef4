// The read-only checks (drift runs them too), each over every node of the RDMA pool, from one
// ClusterState: nodes-ready, ofed-driver, ib-node-config, rdma-device-plugin and gpu-operator.
import { parseQuantity } from '../kube/quantity.js'
import type { KubeObject } from '../kube/types.js'
import { LABELS } from '../model/types.js'
import type { NodeCheckResult } from '../report/report.js'
import type { Settings } from '../settings/settings.js'
import { findRdmaVmSize } from '../settings/vm-sizes.js'
import { nodeCheck, nodeResult, type Check } from './check-result.js'
import type { ClusterState, Fetched, PodSet } from './cluster-state.js'
import {
  conditionOf,
  containerStatus,
  describeContainer,
  describePod,
  hasContainer,
  isNodeReady,
  isPodReady,
  oneLine,
  podsByNode
} from './pod-status.js'

function noNodes(name: string, state: ClusterState): Check {
  return { name, status: 'fail', detail: `no nodes labelled ${LABELS.agentPool}=${state.pool}`, nodes: [] }
}

function label(node: KubeObject, key: string): string | undefined {
  return node.metadata.labels?.[key]
}

/** The allocatable amount of an extended resource on a node, parsed as a quantity (`1k` → 1000). */
export function allocatable(node: KubeObject, resource: string): { text: string | undefined; value: number } {
  const text = node.status?.allocatable?.[resource]
  return { text, value: parseQuantity(text) ?? 0 }
}

export function checkNodesReady(state: ClusterState): Check {
  if (!state.nodes.length) return noNodes('nodes-ready', state)
  const results = state.nodes.map(n => {
    const problems: string[] = []
    if (!isNodeReady(n)) {
      const c = conditionOf(n, 'Ready')
      problems.push(
        `NotReady${c?.reason ? ` (${c.reason}${c.message ? `: ${oneLine(c.message, 120)}` : ''})` : ''}`
      )
    }
    const pci = label(n, LABELS.pci15b3)
    if (pci !== 'true')
      problems.push(`${LABELS.pci15b3}=${pci ?? '<absent>'} (is the NodeFeatureRule applied?)`)
    const wait = label(n, LABELS.mofedWait)
    if (wait !== 'false') problems.push(`${LABELS.mofedWait}=${wait ?? '<absent>'}`)
    return nodeResult(n.metadata.name, problems, 'Ready and labelled')
  })
  return nodeCheck(
    'nodes-ready',
    results,
    `${results.length} node(s) Ready, labelled ${LABELS.pci15b3}=true and ${LABELS.mofedWait}=false`
  )
}

/** The Ready pod of a set on a node, or why there is none. */
function podOnNode(
  set: PodSet,
  byNode: Map<string, KubeObject[]>,
  node: string
): { pod?: KubeObject; problem?: string } {
  const pods = byNode.get(node) ?? []
  if (!pods.length) return { problem: `no pod (-n ${set.namespace} -l ${set.selector})` }
  const ready = pods.find(isPodReady)
  if (ready) return { pod: ready }
  return { pod: pods[0], problem: `pod ${pods[0].metadata.name} ${describePod(pods[0])}` }
}

function policyProblems(
  what: string,
  fetched: Fetched,
  describe: (o: KubeObject) => string | undefined
): string[] {
  if ('error' in fetched) return [`${what} could not be read: ${oneLine(fetched.error)}`]
  if ('absent' in fetched) return [`${what} not found`]
  const p = describe(fetched.object)
  return p ? [p] : []
}

export function checkOfedDriver(state: ClusterState): Check {
  if (!state.nodes.length) return noNodes('ofed-driver', state)
  const byNode = podsByNode(state.ofed.pods)
  const results = state.nodes.map(n => {
    const { pod, problem } = podOnNode(state.ofed, byNode, n.metadata.name)
    const extra =
      !pod && label(n, LABELS.pci15b3) !== 'true'
        ? ` — node lacks ${LABELS.pci15b3}=true, so the driver DaemonSet does not select it`
        : ''
    return nodeResult(
      n.metadata.name,
      problem ? [problem + extra] : [],
      `OFED driver pod ${pod?.metadata.name} Ready`
    )
  })
  const cluster = policyProblems('NicClusterPolicy nic-cluster-policy', state.nicClusterPolicy, o => {
    const st = o.status?.state
    if (st === 'ready') return undefined
    const applied: Array<{ name?: string; state?: string; message?: string }> = o.status?.appliedStates ?? []
    const notReady = applied.filter(a => a.state !== 'ready' && a.state !== 'ignore')
    const list = notReady
      .map(a => `${a.name} ${a.state ?? 'unknown'}${a.message ? ` (${oneLine(a.message, 80)})` : ''}`)
      .join(', ')
    const hint =
      notReady.some(a => a.name === 'state-OFED') && state.ofed.pods.length === 0
        ? ' — no OFED driver pods at all: is the NodeFeatureRule (pci-15b3.present) missing?'
        : ''
    return `NicClusterPolicy state ${st ?? '<none>'}${o.status?.reason ? ` (${oneLine(o.status.reason, 120)})` : ''}${list ? `: ${list}` : ''}${hint}`
  })
  return nodeCheck(
    'ofed-driver',
    results,
    `OFED driver Ready on ${results.length} node(s); NicClusterPolicy ready`,
    cluster
  )
}

export function checkIbNodeConfig(state: ClusterState): Check {
  if (!state.nodes.length) return noNodes('ib-node-config', state)
  const byNode = podsByNode(state.ibNodeConfig.pods)
  const results = state.nodes.map(n => {
    const pods = byNode.get(n.metadata.name) ?? []
    if (!pods.length)
      return nodeResult(
        n.metadata.name,
        [
          `no ib-node-config pod (-n ${state.ibNodeConfig.namespace} -l ${state.ibNodeConfig.selector}): memlock and IB modules not configured`
        ],
        ''
      )
    const done = pods.find(p => containerStatus(p, 'ib-setup', true)?.state?.terminated?.exitCode === 0)
    if (done) return nodeResult(n.metadata.name, [], `ib-setup completed (pod ${done.metadata.name})`)
    const p = pods[0]
    const s = containerStatus(p, 'ib-setup', true)
    const why = hasContainer(p, 'ib-setup', true)
      ? `init container ib-setup ${describeContainer(s)}`
      : 'pod has no ib-setup init container'
    return nodeResult(n.metadata.name, [`pod ${p.metadata.name}: ${why}`], '')
  })
  return nodeCheck('ib-node-config', results, `ib-setup completed on ${results.length} node(s)`)
}

export function checkRdmaDevicePlugin(state: ClusterState, s: Settings): Check {
  if (!state.nodes.length) return noNodes('rdma-device-plugin', state)
  const resource = `rdma/${s.stack.rdmaResourceName}`
  const byNode = podsByNode(state.devicePlugin.pods)
  const amounts = new Set<string>()
  const results = state.nodes.map(n => {
    const problems: string[] = []
    const { pod, problem } = podOnNode(state.devicePlugin, byNode, n.metadata.name)
    if (problem) problems.push(`device plugin ${problem}`)
    const a = allocatable(n, resource)
    if (a.value <= 0) problems.push(`allocatable ${resource} = ${a.text ?? '<absent>'}`)
    else amounts.add(a.text!)
    return nodeResult(
      n.metadata.name,
      problems,
      `plugin pod ${pod?.metadata.name} Ready; allocatable ${resource} = ${a.text}`
    )
  })
  return nodeCheck(
    'rdma-device-plugin',
    results,
    `device plugin Ready and ${resource} allocatable (${[...amounts].join(', ')}) on ${results.length} node(s)`
  )
}

export function checkGpuOperator(state: ClusterState, s: Settings): Check {
  const size = findRdmaVmSize(s.nodePool.vmSize)
  if (size && size.gpus === 0)
    return { name: 'gpu-operator', status: 'skipped', detail: `${size.name} has no GPUs` }
  if (!state.nodes.length) return noNodes('gpu-operator', state)
  const byNode = podsByNode(state.gpuDriver.pods)
  const hostMofedHint = s.stack.useHostMofed
    ? ' (use-host-mofed is true: peermem looks for a host MOFED instead of the Network Operator driver)'
    : ''
  const results: NodeCheckResult[] = state.nodes.map(n => {
    const problems: string[] = []
    const pods = byNode.get(n.metadata.name) ?? []
    if (!pods.length)
      problems.push(`no GPU driver pod (-n ${state.gpuDriver.namespace} -l ${state.gpuDriver.selector})`)
    else {
      const withPeermem = pods.filter(p => hasContainer(p, 'nvidia-peermem-ctr'))
      if (!withPeermem.length)
        problems.push('driver pod has no nvidia-peermem-ctr container (driver.rdma.enabled is not true)')
      else {
        const ready = withPeermem.find(p => containerStatus(p, 'nvidia-peermem-ctr')?.ready === true)
        if (!ready)
          problems.push(
            `nvidia-peermem-ctr ${describeContainer(containerStatus(withPeermem[0], 'nvidia-peermem-ctr'))}${hostMofedHint}`
          )
      }
    }
    const gpus = allocatable(n, 'nvidia.com/gpu')
    if (gpus.value <= 0) problems.push(`allocatable nvidia.com/gpu = ${gpus.text ?? '<absent>'}`)
    return nodeResult(
      n.metadata.name,
      problems,
      `nvidia-peermem-ctr Ready; allocatable nvidia.com/gpu = ${gpus.text}`
    )
  })
  const cluster = policyProblems('ClusterPolicy cluster-policy', state.clusterPolicy, o =>
    o.status?.state === 'ready' ? undefined : `ClusterPolicy state ${o.status?.state ?? '<none>'}`
  )
  // With useHostMofed the peermem container looks for a MOFED on the host instead of the Network
  // Operator's driver, so a Ready sidecar does not mean the module loaded (the probe checks that).
  const warnings = s.stack.useHostMofed
    ? [
        'use-host-mofed is true: nvidia-peermem-ctr builds against a host MOFED, not the Network Operator driver (the node probe shows whether nvidia_peermem loaded)'
      ]
    : []
  return nodeCheck(
    'gpu-operator',
    results,
    `ClusterPolicy ready; nvidia-peermem-ctr Ready and GPUs allocatable on ${results.length} node(s)`,
    cluster,
    warnings
  )
}

export function readOnlyChecks(state: ClusterState, s: Settings): Check[] {
  return [
    checkNodesReady(state),
    checkOfedDriver(state),
    checkIbNodeConfig(state),
    checkRdmaDevicePlugin(state, s),
    checkGpuOperator(state, s)
  ]
}
