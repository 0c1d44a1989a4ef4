// While a step waits, the pool's nodes that hold it (cordoned, or in a driver upgrade), and what to do.
// Docs: docs/day-two.md#when-an-upgrade-is-held.
import type { HealthVerdict } from '../health/types.js'
import type { KubeClient } from '../kube/client.js'
import { isKindNotServed, messageOf } from '../kube/errors.js'
import { isPodTerminal } from '../kube/pods.js'
import type { KubeObject } from '../kube/types.js'
import type { Log } from '../log/index.js'
import { describeBlocker, UPGRADE_DRIVERS, type NodeBlocker } from '../model/node-blockers.js'
import { oneLine } from '../util/text.js'

/** The states in which pods on the node stand between the upgrade and its next state. */
const POD_STATES = new Set([
  'wait-for-jobs-required',
  'pod-deletion-required',
  'drain-required',
  'upgrade-failed'
])
const MAX_PODS = 5
const GPU = 'nvidia.com/gpu'

/** `n1 (nvidia.com/gpu-driver-upgrade-state=drain-required)`, `n2 (cordoned)`. */
export function heldShort(b: NodeBlocker): string {
  return `${b.node} (${b.cause === 'cordoned' ? 'cordoned' : `${UPGRADE_DRIVERS[b.cause].label}=${b.state}`})`
}

/** The progress line's tail: `; held: n1 (…), n2 (…)`, or nothing. */
export function heldSuffix(v: HealthVerdict): string {
  return v.held?.length ? `; held: ${v.held.map(heldShort).join(', ')}` : ''
}

/** A timeout's tail: every held node with its state and fix. */
export function heldDetail(v: HealthVerdict | undefined): string {
  return v?.held?.length ? `; held: ${v.held.map(describeBlocker).join('; ')}` : ''
}

interface Selector {
  matchLabels?: Record<string, string>
  matchExpressions?: Array<{ key: string; operator: string; values?: string[] }>
}

/** A label selector (metav1.LabelSelector) against labels; an empty selector matches all (policy/v1). */
export function selectorMatches(sel: Selector | undefined, labels: Record<string, string> = {}): boolean {
  if (!sel) return false
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) if (labels[k] !== v) return false
  for (const e of sel.matchExpressions ?? []) {
    const has = Object.hasOwn(labels, e.key)
    const inValues = has && (e.values ?? []).includes(labels[e.key])
    const ok =
      e.operator === 'In'
        ? inValues
        : e.operator === 'NotIn'
          ? !inValues
          : e.operator === 'Exists'
            ? has
            : e.operator === 'DoesNotExist'
              ? !has
              : false
    if (!ok) return false
  }
  return true
}

const requestsGpu = (p: KubeObject): boolean =>
  (
    (p.spec?.containers ?? []) as Array<{
      resources?: { requests?: Record<string, unknown>; limits?: Record<string, unknown> }
    }>
  ).some(c => c.resources?.requests?.[GPU] !== undefined || c.resources?.limits?.[GPU] !== undefined)

/** Pods a drain or the GPU pod deletion must remove: not a DaemonSet's, not a mirror pod, not ended. */
function removable(p: KubeObject): boolean {
  if (isPodTerminal(p) || p.metadata.deletionTimestamp) return false
  if (p.metadata.annotations?.['kubernetes.io/config.mirror']) return false
  return !(p.metadata.ownerReferences ?? []).some(
    (r: { kind?: string; controller?: boolean }) => r.kind === 'DaemonSet' && r.controller
  )
}

/**
 * The pods on a held node that stand in the upgrade's way, each with why and its fix, and the
 * operator's last Warning event on the node. Read-only: pods on the node, the budgets of their
 * namespaces, the node's events.
 */
export async function podsHolding(kube: KubeClient, b: NodeBlocker): Promise<string[]> {
  const { items } = await kube.list('v1', 'Pod', { fieldSelector: `spec.nodeName=${b.node}` })
  let pods = items.filter(removable)
  // The GPU Operator deletes the pods using GPUs first (drain off by default): those hold it.
  if (b.cause === 'gpu' && b.state !== 'drain-required') {
    const gpu = pods.filter(requestsGpu)
    if (gpu.length) pods = gpu
  }
  const budgets = new Map<string, KubeObject[]>()
  const budgetsIn = async (ns: string): Promise<KubeObject[]> => {
    if (!budgets.has(ns))
      budgets.set(
        ns,
        await kube.list('policy/v1', 'PodDisruptionBudget', { namespace: ns }).then(
          r => r.items,
          (e: unknown) => {
            if (isKindNotServed(e)) return []
            throw e
          }
        )
      )
    return budgets.get(ns)!
  }
  const lines: string[] = []
  for (const p of pods) {
    const ns = p.metadata.namespace ?? 'default'
    const name = `${ns}/${p.metadata.name}`
    const why: string[] = []
    if (!(p.metadata.ownerReferences ?? []).some((r: { controller?: boolean }) => r.controller))
      why.push('no controller (removed only with force)')
    if ((p.spec?.volumes ?? []).some((v: { emptyDir?: unknown }) => v.emptyDir))
      why.push('emptyDir volume (removed only with deleteEmptyDir)')
    for (const pdb of await budgetsIn(ns))
      if (
        selectorMatches(pdb.spec?.selector, p.metadata.labels) &&
        (pdb.status?.disruptionsAllowed ?? 0) <= 0
      )
        why.push(
          `PodDisruptionBudget ${ns}/${pdb.metadata.name} allows no disruption (kubectl get pdb -n ${ns} ${pdb.metadata.name})`
        )
    if (why.length)
      lines.push(
        `pod ${name} on ${b.node}: ${why.join('; ')}; fix: kubectl delete pod -n ${ns} ${p.metadata.name} (or relax what keeps it)`
      )
  }
  const shown = lines.slice(0, MAX_PODS)
  if (lines.length > MAX_PODS) shown.push(`… and ${lines.length - MAX_PODS} more pods on ${b.node}`)
  if (!shown.length && pods.length)
    shown.push(
      `${pods.length} pod(s) still on ${b.node}: ${pods
        .slice(0, MAX_PODS)
        .map(p => `${p.metadata.namespace}/${p.metadata.name}`)
        .join(', ')}`
    )
  let events: KubeObject[] = []
  try {
    events = await kube.eventsFor('default', b.node, 'Node')
  } catch {
    // the operator's events are best effort
  }
  const warning = events.filter(e => e.type === 'Warning').at(-1)
  if (warning)
    shown.push(`${b.node} event ${warning.reason ?? ''}: ${oneLine(String(warning.message ?? ''), 300)}`)
  return shown
}

/** One step's watch on its held nodes: each new (node, state) looked at once. */
export class HeldNodes {
  private readonly seen = new Map<string, Promise<string[]>>()
  private current: NodeBlocker[] = []

  constructor(
    private readonly kube: KubeClient,
    private readonly log: Log,
    private readonly step: string
  ) {}

  /** Called with every verdict of the wait. */
  onVerdict(v: HealthVerdict): void {
    this.current = v.held ?? []
    for (const b of this.current) {
      const key = `${b.node}|${b.cause}|${b.state ?? ''}`
      if (this.seen.has(key)) continue
      const look = POD_STATES.has(b.state ?? '') ? podsHolding(this.kube, b) : Promise.resolve([])
      const lines = look
        .catch((e: unknown) => [`the pods on ${b.node} could not be read: ${messageOf(e)}`])
        .then(pods => {
          // A state the operator moves through on its own is the progress line's; one that needs a
          // person, or has pods in the way, is said once as a warning.
          if (b.stuck || pods.length)
            for (const l of [describeBlocker(b), ...pods]) this.log.warning(`${this.step}: ${l}`)
          return pods
        })
      this.seen.set(key, lines)
    }
  }

  /** The held nodes of the last verdict, each with its fix and the pods in its way (for the diagnostic). */
  async lines(): Promise<string[]> {
    const out: string[] = []
    for (const b of this.current) {
      out.push(describeBlocker(b))
      for (const l of (await this.seen.get(`${b.node}|${b.cause}|${b.state ?? ''}`)) ?? []) out.push(`  ${l}`)
    }
    return out
  }
}
