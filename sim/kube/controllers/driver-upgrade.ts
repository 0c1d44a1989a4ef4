// NVIDIA's driver upgrade controller (NVIDIA/k8s-operator-libs pkg/upgrade, in-place mode), as the
// Network Operator (driver "ofed", the NicClusterPolicy's ofedDriver.upgradePolicy) and the GPU
// Operator (driver "gpu", the ClusterPolicy's driver.upgradePolicy) run it over their OnDelete
// driver DaemonSets. Each node's state is its label `nvidia.com/<driver>-driver-upgrade-state`;
// one pass moves a node by at most one state, in ApplyState's order:
//   (none)/upgrade-done → upgrade-required   when its driver pod is not of the DaemonSet's template
//                       → upgrade-done       when it is
//   upgrade-required → cordon-required       while upgrade slots are free: maxParallelUpgrades (0:
//                                            all) minus those in progress, capped by maxUnavailable
//                                            (nodes cordoned or NotReady count against it)
//   cordon-required → wait-for-jobs-required (spec.unschedulable set; an already cordoned node is
//                                            annotated so it stays cordoned at the end)
//   wait-for-jobs-required → pod-deletion-required (pod deletion on) / drain-required
//   pod-deletion-required → drain-required / pod-restart-required   (pods using `resource` evicted;
//                                            one it may not delete, or an eviction still refused at
//                                            timeoutSeconds: drain-required with the drain on, else
//                                            upgrade-failed)
//   drain-required → pod-restart-required    once its pods are evicted (DaemonSet pods, mirror pods
//                                            and pods the podSelector leaves out stay; a pod with no
//                                            controller needs force, one with emptyDir
//                                            deleteEmptyDir, else upgrade-failed; a pod whose
//                                            PodDisruptionBudget refuses the eviction is retried until
//                                            timeoutSeconds, then upgrade-failed); drain off: at once
//   pod-restart-required → the driver pod deleted (its DaemonSet recreates it from the new
//                          template); once the new one is Ready: validation-required (GPU) or
//                          uncordon-required
//   validation-required → uncordon-required  once the node's validator pod is Ready
//   uncordon-required → upgrade-done         (spec.unschedulable cleared)
//   upgrade-failed → uncordon-required       once the driver pod is of the template and Ready
// With autoUpgrade off (or no policy) the labels are removed. Passes run on node, pod and
// DaemonSet changes and every two simulated minutes while an upgrade is under way (the operators'
// plannedRequeueInterval).
import type { KubeObject } from '../store.js'
import { matchesLabels, parseLabelSelector } from '../selectors.js'
import { isPodReady, isPodTerminal, TK, typeFromKey, deleteIfPresent, type SimContext } from './context.js'
import { daemonSetRevision } from './daemonset.js'
import { decideEviction } from '../disruption-budgets.js'
import { extendedRequests } from './placement.js'
import type { Reconciler } from './queue.js'

/** The upgrade policy fields the controller reads (NicClusterPolicy and ClusterPolicy share them). */
export interface UpgradePolicy {
  autoUpgrade?: boolean
  maxParallelUpgrades?: number
  maxUnavailable?: number | string
  drain?: {
    enable?: boolean
    force?: boolean
    podSelector?: string
    deleteEmptyDir?: boolean
    timeoutSeconds?: number
  }
  gpuPodDeletion?: { force?: boolean; deleteEmptyDir?: boolean; timeoutSeconds?: number }
}

/** What one operator gives the controller on each pass. */
export interface UpgradeScope {
  policy: UpgradePolicy | undefined
  /** The driver DaemonSets it manages. */
  daemonSets: KubeObject[]
  /** The drain's own pod selector, ANDed with the policy's (the operators skip their own pods). */
  skipDrainSelector: string
  /** Pod deletion before the drain (the GPU Operator: pods using this resource). */
  podDeletionResource?: string
  /** Validation after the restart: the node's pod with this label selector Ready. */
  validatorSelector?: string
}

export const UPGRADE_STATES = [
  'upgrade-required',
  'cordon-required',
  'wait-for-jobs-required',
  'pod-deletion-required',
  'drain-required',
  'pod-restart-required',
  'validation-required',
  'uncordon-required',
  'upgrade-done',
  'upgrade-failed'
] as const

const REQUEUE_MS = 120_000
/** k8s-operator-libs' drain and pod deletion timeout when the policy sets none (api DrainSpec: 300). */
const DRAIN_TIMEOUT_S = 300

/** A whole-second duration as Go's time.Duration prints it (`5m0s`, `45s`). */
function goDuration(ms: number): string {
  const total = Math.round(ms / 1000)
  const h = Math.floor(total / 3600)
  const m = Math.floor((total % 3600) / 60)
  const sec = total % 60
  return h ? `${h}h${m}m${sec}s` : m ? `${m}m${sec}s` : `${sec}s`
}

interface NodeState {
  node: KubeObject
  state: string
  pod: KubeObject
  ds: KubeObject
  /** The controller-revision-hash of the DaemonSet's current template (hashed once per pass). */
  revision: string
}

/** k8s-operator-libs' GetScaledValueFromIntOrPercent(…, roundUp = true); absent: every node. */
function scaled(v: number | string | undefined, total: number): number {
  if (v === undefined || v === null || v === '') return total
  if (typeof v === 'string' && v.endsWith('%')) return Math.ceil((total * Number(v.slice(0, -1))) / 100)
  return Number(v)
}

export class DriverUpgrade implements Reconciler {
  readonly name: string
  private readonly stateLabel: string
  private readonly initialAnnotation: string
  private requeue?: () => void
  /** When each node's eviction of pods a budget refuses began (simulated ms). */
  private readonly evicting = new Map<string, number>()

  constructor(
    private readonly ctx: SimContext,
    private readonly driver: string,
    private readonly scope: () => UpgradeScope | undefined
  ) {
    this.name = `${driver}-driver-upgrade`
    this.stateLabel = `nvidia.com/${driver}-driver-upgrade-state`
    this.initialAnnotation = `nvidia.com/${driver}-driver-upgrade.node-initial-state.unschedulable`
    ctx.cache.onEvent((_e, tk) => {
      if (tk === TK.nodes || tk === TK.pods || tk === TK.daemonsets) ctx.queue.add(this, '*')
    })
  }

  reconcile(): void {
    const scope = this.scope()
    if (!scope?.policy?.autoUpgrade) {
      this.clearLabels()
      return
    }
    const states = this.buildState(scope)
    const byState = new Map<string, NodeState[]>()
    for (const n of states) byState.set(n.state, [...(byState.get(n.state) ?? []), n])
    const get = (s: string): NodeState[] => byState.get(s) ?? []
    for (const n of [...get(''), ...get('upgrade-done')])
      this.setState(n.node, this.inSync(n) ? 'upgrade-done' : 'upgrade-required')
    this.processUpgradeRequired(states, get('upgrade-required'), scope.policy)
    for (const n of get('cordon-required')) this.cordon(n.node)
    for (const n of get('wait-for-jobs-required'))
      this.setState(n.node, scope.podDeletionResource ? 'pod-deletion-required' : 'drain-required')
    for (const n of get('pod-deletion-required')) this.deleteGpuPods(n, scope)
    for (const n of get('drain-required')) this.drain(n, scope)
    for (const n of get('pod-restart-required')) this.restart(n, scope)
    for (const n of get('validation-required')) if (this.validated(n, scope)) this.toUncordon(n.node)
    for (const n of get('upgrade-failed')) if (this.inSync(n) && isPodReady(n.pod)) this.toUncordon(n.node)
    for (const n of get('uncordon-required')) this.uncordon(n.node)
    this.scheduleRequeue(states.some(n => n.state !== 'upgrade-done'))
  }

  private scheduleRequeue(busy: boolean): void {
    if (!busy || this.requeue) return
    this.requeue = this.ctx.timers.after(REQUEUE_MS, () => {
      this.requeue = undefined
      this.ctx.queue.add(this, '*')
    })
  }

  /** Every node with a driver pod of a managed DaemonSet, and its state. */
  private buildState(scope: UpgradeScope): NodeState[] {
    const out: NodeState[] = []
    for (const ds of scope.daemonSets) {
      const revision = daemonSetRevision(ds)
      for (const pod of this.ctx.cache.ownedPods(ds.metadata.uid!)) {
        const node = pod.spec?.nodeName
          ? this.ctx.cache.get(TK.nodes, undefined, pod.spec.nodeName)
          : undefined
        if (!node || isPodTerminal(pod)) continue
        out.push({ node, pod, ds, revision, state: node.metadata.labels?.[this.stateLabel] ?? '' })
      }
    }
    return out
  }

  private inSync(n: NodeState): boolean {
    return n.pod.metadata.labels?.['controller-revision-hash'] === n.revision
  }

  private processUpgradeRequired(all: NodeState[], required: NodeState[], policy: UpgradePolicy): void {
    const total = all.length
    const inProgress = all.filter(n => !['', 'upgrade-done', 'upgrade-required'].includes(n.state)).length
    const maxUnavailable = scaled(policy.maxUnavailable, total)
    const parallel = policy.maxParallelUpgrades ?? 1
    let available = parallel === 0 ? required.length : parallel - inProgress
    const unavailable =
      all.filter(n => n.node.spec?.unschedulable || !this.nodeReady(n.node)).length +
      all.filter(n => n.state === 'cordon-required').length
    available = Math.min(available, maxUnavailable)
    if (unavailable >= maxUnavailable) available = 0
    else if (maxUnavailable < total && unavailable + available > maxUnavailable)
      available = maxUnavailable - unavailable
    for (const n of required) {
      // A node already cordoned goes on whatever the slots (it is unavailable anyway).
      if (available <= 0 && !n.node.spec?.unschedulable) continue
      this.setState(n.node, 'cordon-required')
      available--
    }
  }

  private nodeReady(node: KubeObject): boolean {
    return (node.status?.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True')
  }

  private cordon(node: KubeObject): void {
    const name = node.metadata.name
    if (node.spec?.unschedulable) this.setAnnotation(name, this.initialAnnotation, 'true')
    else this.mutateNode(name, o => (o.spec = { ...(o.spec ?? {}), unschedulable: true }))
    this.setState(node, 'wait-for-jobs-required')
  }

  private uncordon(node: KubeObject): void {
    const name = node.metadata.name
    if (node.metadata.annotations?.[this.initialAnnotation] !== undefined)
      this.setAnnotation(name, this.initialAnnotation, undefined)
    else this.mutateNode(name, o => delete o.spec?.unschedulable)
    this.setState(node, 'upgrade-done')
  }

  private toUncordon(node: KubeObject): void {
    this.setState(node, 'uncordon-required')
  }

  /** Pods on the node other than the DaemonSets' own, not yet terminal. */
  private podsOn(node: string): KubeObject[] {
    return this.ctx.cache
      .podsOnNode(node)
      .filter(p => !isPodTerminal(p))
      .filter(p => !(p.metadata.ownerReferences ?? []).some(r => r.kind === 'DaemonSet' && r.controller))
      .filter(p => !p.metadata.annotations?.['kubernetes.io/config.mirror'])
  }

  /**
   * Evicts `pods` as the drain helper does (k8s.io/kubectl/pkg/drain: the eviction API, so a
   * PodDisruptionBudget that allows no disruption refuses a pod, retried until the policy's
   * timeoutSeconds); a pod the policy may not remove at all (no controller without force, emptyDir
   * without deleteEmptyDir) stops it at once. Either failure moves the node to `failTo` (the drain:
   * upgrade-failed with a Warning event, drain_manager.go; the GPU pod deletion: drain-required when
   * the drain is on, else upgrade-failed, pod_manager.go updateNodeToDrainOrFailed, an event only
   * for a failed eviction). True once every pod was evicted.
   */
  private evict(
    n: NodeState,
    pods: KubeObject[],
    o: { force?: boolean; deleteEmptyDir?: boolean; timeoutSeconds?: number },
    how: { kind: 'drain' | 'pod-deletion'; failTo: string }
  ): boolean {
    const podT = typeFromKey(this.ctx, TK.pods)!
    const node = n.node.metadata.name
    const fail = (err: string | undefined): false => {
      this.evicting.delete(node)
      if (err !== undefined)
        this.ctx.events.record(n.node, {
          type: 'Warning',
          reason: `${this.driver.toUpperCase()}DriverUpgrade`,
          message:
            how.kind === 'drain'
              ? `Failed to drain the node, ${err}`
              : `Failed to delete workload pods on the node for the driver upgrade, ${err}`,
          component: this.name
        })
      this.setState(n.node, how.failTo)
      return false
    }
    // kubectl drain's filters: a pod it may not delete stops it before any eviction.
    for (const p of pods) {
      const where = `${p.metadata.namespace}/${p.metadata.name}`
      if (!(p.metadata.ownerReferences ?? []).some(r => r.controller) && !o.force)
        return fail(
          how.kind === 'drain'
            ? `cannot delete Pods that declare no controller (use --force to override): ${where}`
            : undefined
        )
      if ((p.spec?.volumes ?? []).some((v: any) => v.emptyDir) && !o.deleteEmptyDir)
        return fail(
          how.kind === 'drain'
            ? `cannot delete Pods with local storage (use --delete-emptydir-data to override): ${where}`
            : undefined
        )
    }
    let refused = false
    for (const p of pods) {
      if (!decideEviction(this.ctx.store, p))
        deleteIfPresent(this.ctx, podT, p.metadata.namespace, p.metadata.name)
      else refused = true
    }
    if (!refused) {
      this.evicting.delete(node)
      return true
    }
    // A refused eviction is retried until the timeout (0: none, as kubectl drain's).
    const now = this.ctx.clock.now()
    const first = !this.evicting.has(node)
    const started = this.evicting.get(node) ?? now
    this.evicting.set(node, started)
    const limitMs = (o.timeoutSeconds ?? DRAIN_TIMEOUT_S) * 1000
    if (limitMs > 0 && now - started >= limitMs)
      return fail(`drain did not complete within ${goDuration(limitMs)}`)
    if (limitMs > 0 && first)
      this.ctx.timers.after(limitMs - (now - started), () => this.ctx.queue.add(this, '*'))
    return false
  }

  private deleteGpuPods(n: NodeState, scope: UpgradeScope): void {
    const res = scope.podDeletionResource!
    const pods = this.podsOn(n.node.metadata.name).filter(p => (extendedRequests(p.spec)[res] ?? 0) > 0)
    const drainOn = !!scope.policy?.drain?.enable
    const how = { kind: 'pod-deletion' as const, failTo: drainOn ? 'drain-required' : 'upgrade-failed' }
    if (!this.evict(n, pods, scope.policy?.gpuPodDeletion ?? {}, how)) return
    if (pods.some(p => this.ctx.cache.get(TK.pods, p.metadata.namespace, p.metadata.name))) return
    this.setState(n.node, drainOn ? 'drain-required' : 'pod-restart-required')
  }

  private drain(n: NodeState, scope: UpgradeScope): void {
    const drain = scope.policy?.drain
    if (!drain?.enable) {
      this.setState(n.node, 'pod-restart-required')
      return
    }
    const selector = parseLabelSelector(
      [drain.podSelector, scope.skipDrainSelector].filter(Boolean).join(',')
    )
    const pods = this.podsOn(n.node.metadata.name).filter(p => matchesLabels(selector, p.metadata.labels))
    if (!this.evict(n, pods, drain, { kind: 'drain', failTo: 'upgrade-failed' })) return
    // The drain waits until the evicted pods are gone.
    if (pods.some(p => this.ctx.cache.get(TK.pods, p.metadata.namespace, p.metadata.name))) return
    this.setState(n.node, 'pod-restart-required')
  }

  private restart(n: NodeState, scope: UpgradeScope): void {
    if (!this.inSync(n)) {
      if (!n.pod.metadata.deletionTimestamp)
        deleteIfPresent(
          this.ctx,
          typeFromKey(this.ctx, TK.pods)!,
          n.pod.metadata.namespace,
          n.pod.metadata.name
        )
      return
    }
    if (!isPodReady(n.pod)) return
    this.setState(n.node, scope.validatorSelector ? 'validation-required' : 'uncordon-required')
  }

  private validated(n: NodeState, scope: UpgradeScope): boolean {
    const sel = parseLabelSelector(scope.validatorSelector)
    const v = this.ctx.cache.podsOnNode(n.node.metadata.name).find(p => matchesLabels(sel, p.metadata.labels))
    return !v || isPodReady(v)
  }

  private setState(node: KubeObject, state: string): void {
    if (node.metadata.labels?.[this.stateLabel] === state) return
    this.mutateNode(node.metadata.name, o => {
      o.metadata.labels = { ...(o.metadata.labels ?? {}), [this.stateLabel]: state }
    })
  }

  private setAnnotation(node: string, key: string, value: string | undefined): void {
    this.mutateNode(node, o => {
      const a = { ...(o.metadata.annotations ?? {}) }
      if (value === undefined) delete a[key]
      else a[key] = value
      o.metadata.annotations = a
    })
  }

  private mutateNode(name: string, fn: (o: KubeObject) => void): void {
    this.ctx.store.mutate(typeFromKey(this.ctx, TK.nodes)!, undefined, name, fn)
  }

  private clearLabels(): void {
    for (const n of this.ctx.cache.list(TK.nodes))
      if (n.metadata.labels?.[this.stateLabel] !== undefined)
        this.mutateNode(n.metadata.name, o => {
          const l = { ...(o.metadata.labels ?? {}) }
          delete l[this.stateLabel]
          o.metadata.labels = l
        })
  }
}
