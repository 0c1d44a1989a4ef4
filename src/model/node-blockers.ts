// What keeps a pool node out of service (cordoned, or held by a driver upgrade) and what resolves it.
// Docs: docs/troubleshooting.md#a-node-left-cordoned-or-mid-upgrade, docs/day-two.md#sources.
// The OFED driver's name `ofed` in the upgrade-state label: Mellanox/network-operator main.go.
import { LABELS } from './types.js'

/** The two drivers NVIDIA's upgrade controller replaces on the pool, and how to reach their pods. */
export const UPGRADE_DRIVERS = {
  ofed: {
    operator: 'Network Operator',
    what: 'OFED driver',
    label: LABELS.ofedUpgradeState,
    /**
     * The node annotation Network Operator versions before the label kept the state in (its upgrade
     * controller still removes it: controllers/upgrade_controller.go UpgradeStateAnnotation).
     */
    legacyAnnotation: 'nvidia.com/ofed-upgrade-state',
    namespace: 'network-operator',
    podSelector: LABELS.ofedDriverPod,
    policy: 'the NicClusterPolicy ofedDriver.upgradePolicy'
  },
  gpu: {
    operator: 'GPU Operator',
    what: 'GPU driver',
    label: LABELS.gpuUpgradeState,
    namespace: 'gpu-operator',
    podSelector: 'app=nvidia-driver-daemonset',
    policy: 'the ClusterPolicy driver.upgradePolicy'
  }
} as const

export type UpgradeDriver = keyof typeof UPGRADE_DRIVERS

/** Every state k8s-operator-libs defines (consts.go), the empty one (unknown: not processed yet) aside. */
export const UPGRADE_STATES = [
  'upgrade-required',
  'cordon-required',
  'wait-for-jobs-required',
  'pod-deletion-required',
  'drain-required',
  'node-maintenance-required',
  'post-maintenance-required',
  'pod-restart-required',
  'validation-required',
  'uncordon-required',
  'upgrade-done',
  'upgrade-failed'
] as const

/** The states in which the node's driver is not being replaced (and the node is not held by it). */
export const SETTLED_UPGRADE_STATES: ReadonlySet<string> = new Set(['', 'upgrade-done'])

/** What a state means for the node and what resolves it. */
export interface Blocking {
  /** What holds the node, e.g. `GPU driver upgrade: cordoned, being drained`. */
  message: string
  /** The command (or the wait) that resolves it. */
  fix: string
  /** Only a person resolves it: waiting does not help. */
  stuck: boolean
}

/** A node as read from the API (only what the blockers look at). */
export interface NodeLike {
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> }
  spec?: { unschedulable?: boolean }
}

/** `kubectl get pods -A --field-selector spec.nodeName=<node>`: what runs on the node. */
export const podsOnNodeCommand = (node: string): string =>
  `kubectl get pods -A --field-selector spec.nodeName=${node}`

function driverPodCommand(driver: UpgradeDriver, node: string): string {
  const d = UPGRADE_DRIVERS[driver]
  return `kubectl get pods -n ${d.namespace} -l ${d.podSelector} --field-selector spec.nodeName=${node}`
}

/**
 * The upgrade state `state` of `driver` on `node`: what it means and the fix; undefined for a
 * settled one (absent, upgrade-done). An unknown state is named as it is.
 */
export function upgradeStateBlocking(
  driver: UpgradeDriver,
  state: string,
  node: string,
  key: string = UPGRADE_DRIVERS[driver].label
): Blocking | undefined {
  if (SETTLED_UPGRADE_STATES.has(state)) return undefined
  const d = UPGRADE_DRIVERS[driver]
  const say = (what: string, fix: string, stuck = false): Blocking => ({
    message: `${d.what} upgrade ${state === 'upgrade-failed' ? 'failed' : 'in progress'} (${key}=${state}): ${what}`,
    fix,
    stuck
  })
  const operatorMoves = `none: the ${d.operator} moves it on`
  switch (state) {
    case 'upgrade-required':
      return say(
        'its driver pod is out of date; waiting for an upgrade slot (maxParallelUpgrades, maxUnavailable)',
        `${operatorMoves} once another node's upgrade ends (a node held elsewhere keeps the slot)`
      )
    case 'cordon-required':
      return say('about to be cordoned', operatorMoves)
    case 'wait-for-jobs-required':
      return say(
        'cordoned; waiting for the pods the upgrade policy waits for (waitForCompletion) to finish',
        `let them finish or delete them (${podsOnNodeCommand(node)})`
      )
    case 'pod-deletion-required':
      return say(
        'cordoned; deleting the pods that use its GPUs',
        `a pod that may not be deleted (no controller while gpuPodDeletion.force is off, emptyDir while deleteEmptyDir is off) fails the upgrade: delete it (${podsOnNodeCommand(node)})`
      )
    case 'drain-required':
      return say(
        'cordoned; being drained',
        `a pod whose eviction is refused (a PodDisruptionBudget that allows no disruption) holds the drain until drain.timeoutSeconds, then the node goes upgrade-failed: relax the budget or delete the pod (${podsOnNodeCommand(node)}; kubectl get pdb -A)`
      )
    case 'node-maintenance-required':
    case 'post-maintenance-required':
      return say(
        'handed to the maintenance operator (requestor mode)',
        `see its NodeMaintenance: kubectl get nodemaintenances -A --field-selector spec.nodeName=${node}`
      )
    case 'pod-restart-required':
      return say(
        'cordoned; its driver pod is being replaced',
        `${operatorMoves} once the new driver pod is Ready (${driverPodCommand(driver, node)})`
      )
    case 'validation-required':
      return say(
        'cordoned; the new driver is being validated',
        `${operatorMoves} once the node's validator pod is Ready (kubectl get pods -n ${d.namespace} -l app=nvidia-operator-validator --field-selector spec.nodeName=${node})`
      )
    case 'uncordon-required':
      return say(
        'new driver Ready; about to be uncordoned',
        `${operatorMoves}; if it stays so: kubectl uncordon ${node}`
      )
    case 'upgrade-failed':
      return say(
        'the upgrade failed and the node stays cordoned; it needs a person',
        `kubectl drain ${node} --ignore-daemonsets --delete-emptydir-data, then kubectl delete pod -n ${d.namespace} -l ${d.podSelector} --field-selector spec.nodeName=${node}; the ${d.operator} uncordons it once the new driver pod is Ready`,
        true
      )
    default:
      return say(`a state this version does not know (${state})`, `see the ${d.operator}'s log`)
  }
}

/** One thing holding a node out of service. */
export interface NodeBlocker extends Blocking {
  node: string
  /** `cordoned` (spec.unschedulable, no driver upgrade going on) or the driver whose upgrade holds it. */
  cause: 'cordoned' | UpgradeDriver
  /** The upgrade state (absent for a plain cordon). */
  state?: string
}

/**
 * What holds `node` out: each driver upgrade not settled, or else a cordon with no upgrade going
 * on (someone's, or an interrupted run's): `kubectl uncordon <node>`.
 */
export function nodeBlockers(node: NodeLike): NodeBlocker[] {
  const name = node.metadata.name
  const out: NodeBlocker[] = []
  for (const driver of Object.keys(UPGRADE_DRIVERS) as UpgradeDriver[]) {
    const d: { label: string; legacyAnnotation?: string } = UPGRADE_DRIVERS[driver]
    const label = node.metadata.labels?.[d.label]
    const legacy = d.legacyAnnotation ? node.metadata.annotations?.[d.legacyAnnotation] : undefined
    const key = label === undefined && legacy !== undefined ? d.legacyAnnotation! : d.label
    const state = label ?? legacy ?? ''
    const b = upgradeStateBlocking(driver, state, name, key)
    if (b) out.push({ node: name, cause: driver, state, ...b })
  }
  if (!out.length && node.spec?.unschedulable === true)
    out.push({
      node: name,
      cause: 'cordoned',
      message: 'cordoned (spec.unschedulable: true) with no driver upgrade going on: no new pod lands on it',
      fix: `kubectl uncordon ${name}`,
      stuck: true
    })
  return out
}

/** `<node>: <message>; fix: <fix>`. */
export function describeBlocker(b: NodeBlocker): string {
  return `${b.node}: ${b.message}; fix: ${b.fix}`
}
