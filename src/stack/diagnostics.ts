// What a failed step leaves behind for a person: the step, what it waited for, what it last saw
// (per node), the pods that are not ready (node, phase, container states, restarts, their last
// events), the tail of failing containers' logs, and the troubleshooting line that matches
// (memlock errors → ib-node-config did not complete; state-OFED notReady with no OFED pod →
// NodeFeatureRule missing; ...). Structured {step, title, text} for the summary's collapsible
// section; the executor also prints the title with core.error.
import type { ComponentSpec } from '../model/types.js'
import { LABELS } from '../model/types.js'
import type { KubeClient } from '../kube/client.js'
import type { KubeObject } from '../kube/types.js'
import type { Diagnostic } from '../report/report.js'
import { containerStates, failingContainer, isPodReady, type ReadinessVerdict } from './readiness/common.js'
import { notReadyStates } from './readiness/nic-cluster-policy.js'

export type { Diagnostic }

export interface FailureInput {
  component: ComponentSpec
  /** Why the step failed (fail-fast reason, timeout or error message). */
  reason: string
  /** The last readiness verdict, when the wait had started. */
  verdict?: ReadinessVerdict
  /** The objects observed last, by source (nodes, pods, daemonsets, policies ...). */
  snapshot?: Record<string, KubeObject[]>
  error?: unknown
}

export interface PodReport {
  namespace: string
  name: string
  node?: string
  phase?: string
  containers: string[]
  events: string[]
  logs: Array<{ container: string; previous: boolean; text: string }>
}

const MAX_PODS = 5
const LOG_LINES = 40
const EVENT_LINES = 5

function describeContainer(c: ReturnType<typeof containerStates>[number]): string {
  const state =
    c.state === 'terminated'
      ? `terminated (exit ${c.exitCode}${c.reason ? `, ${c.reason}` : ''})`
      : c.state === 'waiting'
        ? `waiting (${c.reason ?? 'unknown'}${c.message ? `: ${c.message}` : ''})`
        : c.state
  return `${c.init ? 'init ' : ''}${c.name}: ${state}, ready=${c.ready}, restarts=${c.restarts}`
}

/** Pods worth reporting: failing ones first, then not-ready ones. */
export function podsToReport(pods: KubeObject[]): KubeObject[] {
  const failing = pods.filter(p => failingContainer(p))
  const notReady = pods.filter(p => !failingContainer(p) && !isPodReady(p))
  return [...failing, ...notReady].slice(0, MAX_PODS)
}

/** Containers whose logs explain a failure: failing, crashed or terminated non-zero, else not ready. */
function containersForLogs(pod: KubeObject): Array<{ name: string; previous: boolean }> {
  const states = containerStates(pod)
  const bad = states.filter(
    c =>
      (c.state === 'waiting' &&
        c.reason &&
        c.reason !== 'PodInitializing' &&
        c.reason !== 'ContainerCreating') ||
      (c.state === 'terminated' && c.exitCode !== 0) ||
      c.restarts > 0
  )
  const chosen = bad.length ? bad : states.filter(c => !c.ready && c.state === 'running')
  return chosen.slice(0, 2).map(c => ({ name: c.name, previous: c.state === 'waiting' && c.restarts > 0 }))
}

async function reportPod(client: KubeClient | undefined, pod: KubeObject): Promise<PodReport> {
  const ns = pod.metadata.namespace ?? ''
  const r: PodReport = {
    namespace: ns,
    name: pod.metadata.name,
    node: pod.spec?.nodeName,
    phase: pod.status?.phase,
    containers: containerStates(pod).map(describeContainer),
    events: [],
    logs: []
  }
  if (!client) return r
  try {
    const events = await client.eventsFor(ns, pod.metadata.name, 'Pod')
    r.events = events
      .slice(-EVENT_LINES)
      .map(
        e =>
          `${e.type ?? 'Normal'} ${e.reason ?? ''}: ${e.message ?? ''}${e.count > 1 ? ` (x${e.count})` : ''}`
      )
  } catch {
    // events are best effort
  }
  for (const c of containersForLogs(pod)) {
    try {
      let text = await client.podLog(ns, pod.metadata.name, {
        container: c.name,
        tailLines: LOG_LINES,
        previous: c.previous
      })
      if (!text.trim() && c.previous)
        text = await client.podLog(ns, pod.metadata.name, { container: c.name, tailLines: LOG_LINES })
      if (text.trim()) r.logs.push({ container: c.name, previous: c.previous, text: text.trimEnd() })
    } catch {
      // logs are best effort
    }
  }
  return r
}

/** The troubleshooting lines that match what was seen. */
export function troubleshooting(input: FailureInput, pods: PodReport[]): string[] {
  const hints: string[] = []
  const logs = pods.flatMap(p => p.logs.map(l => l.text)).join('\n')
  const name = input.component.name
  const states = pods.flatMap(p => p.containers).join('\n')
  if (/memlock|ibv_reg_mr|Cannot allocate memory|ENOMEM|RLIMIT_MEMLOCK/i.test(logs)) {
    hints.push(
      'memlock errors: ib-node-config did not complete on this node (memlock is not unlimited for containerd/kubelet). ' +
        'Check `kubectl -n kube-system logs -l app=ib-node-config -c ib-setup` for FAIL: lines.'
    )
  }
  if (name === 'nic-cluster-policy') {
    const policy = input.snapshot?.policies?.find(p => p.metadata.name === 'nic-cluster-policy')
    const ofedNotReady = (policy?.status?.appliedStates ?? []).some(
      (s: any) => s.name === 'state-OFED' && s.state !== 'ready'
    )
    const ofedPods = input.snapshot?.pods?.length ?? 0
    if (ofedPods === 0 && (ofedNotReady || !policy?.status)) {
      hints.push(
        `state-OFED is not ready and there is no OFED driver pod: the NodeFeatureRule is missing or matched no node, so nothing labels ` +
          `${LABELS.pci15b3}=true and the Network Operator schedules no driver (check \`kubectl get nodefeaturerule nfd-network-rule\` and the node labels).`
      )
    }
    const nr = notReadyStates(policy)
    if (nr.length) hints.push(`NicClusterPolicy states not ready: ${nr.join('; ')}.`)
  }
  if (name === 'node-feature-rule') {
    hints.push(
      `Nodes are labelled by NFD from the NodeFeatureRule nfd-network-rule (PCI 15b3 devices 101c/101e); check \`kubectl get nodes -L ${LABELS.pci15b3}\` and that the VM size has InfiniBand.`
    )
  }
  if (
    name === 'gpu-operator' &&
    /nvidia-peermem-ctr/.test(states + (input.verdict?.nodes ?? []).map(n => n.detail).join(' '))
  ) {
    hints.push(
      'nvidia-peermem-ctr waits for the OFED driver (/run/mellanox/drivers/.driver-ready); check the OFED pods (-l nvidia.com/ofed-driver) and keep driver.rdma.useHostMofed false.'
    )
  }
  if (
    name === 'rdma-device-plugin' &&
    (input.verdict?.nodes ?? []).some(n => /allocatable/.test(n.detail ?? ''))
  ) {
    hints.push(
      'The device plugin runs but advertises no RDMA device: its selectors (vendor 15b3, driver mlx5_core, linkTypes infiniband) matched nothing — is the OFED driver loaded on the node?'
    )
  }
  if (/ImagePullBackOff|ErrImagePull|InvalidImageName/.test(states)) {
    hints.push(
      'An image cannot be pulled: check the image name and tag (pinned versions) and that the nodes can reach the registry.'
    )
  }
  if (/CrashLoopBackOff/.test(states) && hints.length === 0) {
    hints.push('A container keeps crashing: its log tail above shows why.')
  }
  return hints
}

function lastSeen(v: ReadinessVerdict | undefined): string[] {
  if (!v) return ['(the wait had not started)']
  const lines = [v.message]
  for (const n of v.nodes.filter(n => !n.ready).slice(0, 20))
    lines.push(`  ${n.node}: ${n.detail ?? 'not ready'}`)
  const more = v.nodes.filter(n => !n.ready).length - 20
  if (more > 0) lines.push(`  ... and ${more} more nodes`)
  return lines
}

/** Builds the diagnostic of a failed step, reading events and log tails of the pods involved. */
export async function buildDiagnostic(
  client: KubeClient | undefined,
  input: FailureInput
): Promise<Diagnostic> {
  const c = input.component
  const pods = podsToReport(input.snapshot?.pods ?? [])
  const reports: PodReport[] = []
  for (const p of pods) reports.push(await reportPod(client, p))
  const hints = troubleshooting(input, reports)
  const out: string[] = []
  out.push(`Step: ${c.name} (${c.title})`)
  out.push(`Failed: ${input.reason}`)
  out.push(`Waited for: ${c.readiness.summary}`)
  for (const cond of c.readiness.conditions) out.push(`  - ${cond}`)
  out.push('Last seen:')
  for (const l of lastSeen(input.verdict)) out.push(`  ${l}`)
  if (reports.length) {
    out.push('Pods not ready:')
    for (const r of reports) {
      out.push(`  ${r.namespace}/${r.name} on ${r.node ?? '(unscheduled)'}: phase ${r.phase ?? 'unknown'}`)
      for (const cs of r.containers) out.push(`    ${cs}`)
      if (r.events.length) {
        out.push('    events:')
        for (const e of r.events) out.push(`      ${e}`)
      }
      for (const l of r.logs) {
        out.push(`    log ${l.container}${l.previous ? ' (previous run)' : ''}, last lines:`)
        for (const line of l.text.split('\n')) out.push(`      ${line}`)
      }
    }
  }
  if (hints.length) {
    out.push('Troubleshooting:')
    for (const h of hints) out.push(`  - ${h}`)
  }
  return { step: c.name, title: `${c.name}: ${input.reason}`, text: out.join('\n') }
}
