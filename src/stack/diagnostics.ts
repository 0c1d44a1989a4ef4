// What a failed step leaves for a person: what it waited for and last saw, the pods not ready, their
// logs and the matching troubleshooting line. Docs: docs/troubleshooting.md, docs/job-summary.md.
import { COMPONENTS, isKubeComponent, type ComponentSpec } from '../components/index.js'
import { memlockHint } from '../components/ib-node-config.js'
import { KUBERNETES_PERMISSION, kubernetesPermissionHint } from '../model/permissions.js'
import type { HealthVerdict } from '../health/types.js'
import type { KubeClient } from '../kube/client.js'
import { containerStatuses, failingContainer, isPodReady, type ContainerStatus } from '../kube/pods.js'
import type { KubeObject } from '../kube/types.js'
import type { Diagnostic } from '../report/report.js'

export type { Diagnostic }

export interface FailureInput {
  component: ComponentSpec
  /** Why the step failed (fail-fast reason, timeout or error message). */
  reason: string
  /** The last health verdict, when the wait had started. */
  verdict?: HealthVerdict
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

type Container = ContainerStatus & { init: boolean }

const waitingReason = (c: Container): string | undefined => c.state?.waiting?.reason
const exitCode = (c: Container): number | undefined => c.state?.terminated?.exitCode

/** `init ib-setup: terminated (exit 1, Error), ready=false, restarts=2`. */
function describeContainer(c: Container): string {
  const st = c.state ?? {}
  const state = st.terminated
    ? `terminated (exit ${st.terminated.exitCode}${st.terminated.reason ? `, ${st.terminated.reason}` : ''})`
    : st.waiting
      ? `waiting (${st.waiting.reason ?? 'unknown'}${st.waiting.message ? `: ${st.waiting.message}` : ''})`
      : st.running
        ? 'running'
        : 'unknown'
  return `${c.init ? 'init ' : ''}${c.name}: ${state}, ready=${c.ready === true}, restarts=${c.restartCount ?? 0}`
}

/** Pods worth reporting: failing ones first, then not-ready ones. */
export function podsToReport(pods: KubeObject[]): KubeObject[] {
  const failing = pods.filter(p => failingContainer(p))
  const notReady = pods.filter(p => !failingContainer(p) && !isPodReady(p))
  return [...failing, ...notReady].slice(0, MAX_PODS)
}

/** Containers whose logs explain a failure: failing, crashed or terminated non-zero, else not ready. */
function containersForLogs(pod: KubeObject): Array<{ name: string; previous: boolean }> {
  const all = containerStatuses(pod)
  const bad = all.filter(c => {
    const reason = waitingReason(c)
    return (
      (reason && reason !== 'PodInitializing' && reason !== 'ContainerCreating') ||
      (c.state?.terminated !== undefined && exitCode(c) !== 0) ||
      (c.restartCount ?? 0) > 0
    )
  })
  const chosen = bad.length ? bad : all.filter(c => c.ready !== true && c.state?.running)
  return chosen
    .slice(0, 2)
    .map(c => ({ name: c.name, previous: c.state?.waiting !== undefined && (c.restartCount ?? 0) > 0 }))
}

async function reportPod(client: KubeClient | undefined, pod: KubeObject): Promise<PodReport> {
  const ns = pod.metadata.namespace ?? ''
  const r: PodReport = {
    namespace: ns,
    name: pod.metadata.name,
    node: pod.spec?.nodeName,
    phase: pod.status?.phase,
    containers: containerStatuses(pod).map(describeContainer),
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

/** The troubleshooting lines that match what was seen: the general ones and the component's own. */
export function troubleshooting(input: FailureInput, pods: PodReport[]): string[] {
  const hints: string[] = []
  const logs = pods.flatMap(p => p.logs.map(l => l.text)).join('\n')
  const states = pods.flatMap(p => p.containers).join('\n')
  if (/memlock|ibv_reg_mr|Cannot allocate memory|ENOMEM|RLIMIT_MEMLOCK/i.test(logs)) {
    hints.push(memlockHint())
  }
  // The API server refused a request for want of a permission: what to grant.
  if (/\bis forbidden: User "/.test(input.reason) && !/missing Kubernetes permission/.test(input.reason))
    hints.push(kubernetesPermissionHint(input.reason) ?? KUBERNETES_PERMISSION)
  const component = COMPONENTS[input.component.name]
  if (isKubeComponent(component))
    hints.push(
      ...component.hints({
        reason: input.reason,
        verdict: input.verdict,
        snapshot: input.snapshot,
        states,
        logs
      })
    )
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

function lastSeen(v: HealthVerdict | undefined): string[] {
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
