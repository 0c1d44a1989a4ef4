// The DaemonSet controller: one pod per eligible node (nodeSelector, required node affinity,
// tolerations versus taints; a pod already on a node stays through a NoSchedule taint it does not
// tolerate and goes only for a NoExecute one, as shouldContinueRunning has it), pods `<ds>-xxxxx` owned by the DaemonSet and labelled with
// controller-revision-hash / pod-template-generation, RollingUpdate (maxUnavailable) or OnDelete
// on template changes, pods removed from nodes that stop matching, and the status counters.
import { fnv32a, safeEncode } from '../hardware.js'
import type { KubeObject } from '../store.js'
import { StoreError } from '../store.js'
import {
  deleteIfPresent,
  isControlledBy,
  isPodReady,
  ownerRef,
  randomSuffix,
  TK,
  typeFromKey,
  type SimContext
} from './context.js'
import { nodeMatchesPod, tolerates, untoleratedTaint, type Taint } from './placement.js'
import type { Reconciler } from './queue.js'

/** What the DaemonSet controller adds to every DaemonSet pod (only node.kubernetes.io/* ones). */
export const AUTO_TOLERATIONS = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }
]

/** The controller-revision-hash of a pod template. */
export function templateHash(template: unknown): string {
  return safeEncode(String(fnv32a(JSON.stringify(template ?? {}))))
}

/** Revision hashes by `<uid>/<resourceVersion>`: a stored version never changes. */
const revisions = new Map<string, string>()

/**
 * The controller-revision-hash of a DaemonSet's current template, hashed once per stored version
 * (the controllers ask on every pod and node event).
 */
export function daemonSetRevision(ds: KubeObject): string {
  const { uid, resourceVersion } = ds.metadata
  if (!uid || !resourceVersion) return templateHash(ds.spec?.template)
  const key = `${uid}/${resourceVersion}`
  let hash = revisions.get(key)
  if (hash === undefined) {
    if (revisions.size >= 4096) revisions.clear()
    hash = templateHash(ds.spec?.template)
    revisions.set(key, hash)
  }
  return hash
}

function podSpecFor(ds: KubeObject): any {
  const spec = structuredClone(ds.spec?.template?.spec ?? {})
  const tolerations = [...(spec.tolerations ?? [])]
  for (const t of AUTO_TOLERATIONS)
    if (!tolerations.some((x: any) => x.key === t.key && x.effect === t.effect)) tolerations.push(t)
  if (spec.hostNetwork)
    tolerations.push({
      key: 'node.kubernetes.io/network-unavailable',
      operator: 'Exists',
      effect: 'NoSchedule'
    })
  spec.tolerations = tolerations
  return spec
}

function labelsChanged(a: KubeObject | undefined, b: KubeObject): boolean {
  if (!a) return true
  return (
    JSON.stringify(a.metadata.labels ?? {}) !== JSON.stringify(b.metadata.labels ?? {}) ||
    JSON.stringify(a.spec?.taints ?? []) !== JSON.stringify(b.spec?.taints ?? []) ||
    !!a.spec?.unschedulable !== !!b.spec?.unschedulable
  )
}

function maxUnavailableOf(ds: KubeObject, desired: number): number {
  const v = ds.spec?.updateStrategy?.rollingUpdate?.maxUnavailable ?? 1
  if (typeof v === 'string' && v.endsWith('%'))
    return Math.max(1, Math.floor((desired * Number(v.slice(0, -1))) / 100))
  return Math.max(1, Number(v))
}

export class DaemonSetController implements Reconciler {
  readonly name = 'daemonset'
  constructor(private readonly ctx: SimContext) {
    ctx.cache.onEvent((e, tk, prev) => {
      if (tk === TK.daemonsets) {
        if (e.type !== 'DELETED')
          ctx.queue.add(this, `${e.object.metadata.namespace}/${e.object.metadata.name}`)
      } else if (tk === TK.pods) {
        const ref = (e.object.metadata.ownerReferences ?? []).find(
          r => r.kind === 'DaemonSet' && r.controller
        )
        if (ref) ctx.queue.add(this, `${e.object.metadata.namespace}/${ref.name}`)
      } else if (tk === TK.nodes) {
        if (e.type !== 'MODIFIED' || labelsChanged(prev, e.object)) this.enqueueAll()
      }
    })
    this.enqueueAll()
  }

  private enqueueAll(): void {
    for (const ds of this.ctx.cache.list(TK.daemonsets))
      this.ctx.queue.add(this, `${ds.metadata.namespace}/${ds.metadata.name}`)
  }

  /** Whether the DaemonSet's pods belong on `node` (a new one is created there). */
  static shouldRun(podSpec: any, node: KubeObject): boolean {
    return nodeMatchesPod(podSpec, node) && !untoleratedTaint(podSpec, node)
  }

  /** Whether a pod already on `node` may stay: only a NoExecute taint it does not tolerate evicts it. */
  static shouldContinueRunning(podSpec: any, node: KubeObject): boolean {
    const taints: Taint[] = node.spec?.taints ?? []
    return (
      nodeMatchesPod(podSpec, node) &&
      !taints.some(t => t.effect === 'NoExecute' && !tolerates(podSpec.tolerations, t))
    )
  }

  reconcile(key: string): void {
    const [ns, name] = key.split('/')
    const ds = this.ctx.cache.get(TK.daemonsets, ns, name)
    const podT = typeFromKey(this.ctx, TK.pods)
    const dsT = typeFromKey(this.ctx, TK.daemonsets)
    if (!ds || !podT || !dsT || ds.metadata.deletionTimestamp) return
    const hash = daemonSetRevision(ds)
    const spec = podSpecFor(ds)
    const nodes = this.ctx.cache.list(TK.nodes)
    const should = new Set(
      nodes.filter(n => DaemonSetController.shouldRun(spec, n)).map(n => n.metadata.name)
    )
    const mayStay = new Set(
      nodes.filter(n => DaemonSetController.shouldContinueRunning(spec, n)).map(n => n.metadata.name)
    )
    const byNode = new Map<string, KubeObject[]>()
    for (const p of this.ctx.cache.ownedPods(ds.metadata.uid!)) {
      // A pod being deleted no longer counts: its node gets a new one (podsShouldBeOnNode).
      if (!isControlledBy(p, ds.metadata.uid) || p.metadata.deletionTimestamp) continue
      const n = p.spec?.nodeName ?? ''
      byNode.set(n, [...(byNode.get(n) ?? []), p])
    }
    const del = (p: KubeObject) => deleteIfPresent(this.ctx, podT, ns, p.metadata.name)
    // Pods on nodes that should not run them, failed pods, duplicates.
    for (const [node, pods] of byNode) {
      if (!mayStay.has(node)) {
        pods.forEach(del)
        byNode.delete(node)
        continue
      }
      const live = pods.filter(p => p.status?.phase !== 'Failed')
      pods.filter(p => p.status?.phase === 'Failed').forEach(del)
      live.sort((a, b) =>
        (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '')
      )
      live.slice(1).forEach(del)
      if (live.length) byNode.set(node, live.slice(0, 1))
      else byNode.delete(node)
    }
    for (const node of should) if (!byNode.has(node)) this.createPod(ds, spec, hash, node)
    // Rolling update.
    const strategy = ds.spec?.updateStrategy?.type ?? 'RollingUpdate'
    if (strategy === 'RollingUpdate') {
      const old = [...byNode.values()]
        .map(p => p[0])
        .filter(p => p.metadata.labels?.['controller-revision-hash'] !== hash)
      if (old.length) {
        let unavailable = [...should].filter(n => {
          const p = byNode.get(n)?.[0]
          return !p || !isPodReady(p)
        }).length
        const budget = maxUnavailableOf(ds, should.size)
        for (const p of old.filter(p => !isPodReady(p))) del(p)
        for (const p of old.filter(p => isPodReady(p))) {
          if (unavailable >= budget) break
          del(p)
          unavailable++
        }
      }
    }
    this.writeStatus(ds, hash, should)
  }

  private createPod(ds: KubeObject, spec: any, hash: string, node: string): void {
    const podT = typeFromKey(this.ctx, TK.pods)!
    const tmpl = ds.spec?.template?.metadata ?? {}
    const affinity = structuredClone(spec.affinity ?? {})
    affinity.nodeAffinity = affinity.nodeAffinity ?? {}
    affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution = {
      nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }]
    }
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        this.ctx.store.create(podT, {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: {
            name: `${ds.metadata.name}-${randomSuffix()}`,
            generateName: `${ds.metadata.name}-`,
            namespace: ds.metadata.namespace,
            labels: {
              ...(tmpl.labels ?? {}),
              'controller-revision-hash': hash,
              'pod-template-generation': String(ds.metadata.generation ?? 1)
            },
            ...(tmpl.annotations ? { annotations: tmpl.annotations } : {}),
            ownerReferences: [ownerRef(ds)]
          },
          spec: {
            restartPolicy: 'Always',
            dnsPolicy: spec.hostNetwork ? 'ClusterFirstWithHostNet' : 'ClusterFirst',
            schedulerName: 'default-scheduler',
            serviceAccountName: spec.serviceAccountName ?? 'default',
            terminationGracePeriodSeconds: 30,
            ...spec,
            affinity,
            nodeName: node
          },
          status: { phase: 'Pending' }
        })
        return
      } catch (e) {
        if (e instanceof StoreError && e.code === 403) {
          // Refused by admission (e.g. an unknown priorityClassName): retried on the next change.
          this.ctx.events.record(ds, {
            type: 'Warning',
            reason: 'FailedCreate',
            message: `Error creating: ${e.message}`,
            component: 'daemonset-controller'
          })
          return
        }
        if (!(e instanceof StoreError && e.code === 409)) throw e
      }
    }
  }

  private writeStatus(ds: KubeObject, hash: string, should: Set<string>): void {
    const dsT = typeFromKey(this.ctx, TK.daemonsets)!
    const pods = this.ctx.cache
      .ownedPods(ds.metadata.uid!)
      .filter(p => isControlledBy(p, ds.metadata.uid) && !p.metadata.deletionTimestamp)
    const onNode = new Map<string, KubeObject>()
    const misscheduled = new Set<string>()
    for (const p of pods) {
      const n = p.spec?.nodeName
      if (!n) continue
      if (should.has(n)) onNode.set(n, p)
      else misscheduled.add(n)
    }
    const ready = [...onNode.values()].filter(isPodReady).length
    const updated = [...onNode.values()].filter(
      p => p.metadata.labels?.['controller-revision-hash'] === hash
    ).length
    const status: any = {
      currentNumberScheduled: onNode.size,
      desiredNumberScheduled: should.size,
      numberMisscheduled: misscheduled.size,
      numberReady: ready,
      numberAvailable: ready,
      updatedNumberScheduled: updated,
      observedGeneration: ds.metadata.generation ?? 1
    }
    if (should.size - ready > 0) status.numberUnavailable = should.size - ready
    if (ds.status?.collisionCount !== undefined) status.collisionCount = ds.status.collisionCount
    this.ctx.store.mutate(
      dsT,
      ds.metadata.namespace,
      ds.metadata.name,
      o => {
        o.status = status
      },
      { subresource: 'status' }
    )
  }
}
