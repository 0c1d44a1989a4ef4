// The simulated default-scheduler: binds pods without spec.nodeName to a node that satisfies
// nodeSelector, required node affinity, taints/tolerations, extended-resource requests
// (rdma/*, nvidia.com/gpu against allocatable) and required pod anti-affinity on hostname;
// otherwise marks the pod Unschedulable with the real message and a FailedScheduling event.
import type { KubeObject } from '../store.js'
import { matchesLabelSelectorObject } from '../selectors.js'
import { isoNow, isPodTerminal, TK, typeFromKey, type SimContext } from './context.js'
import {
  extendedRequests,
  matchesNodeSelector,
  matchesRequiredAffinity,
  parseQuantity,
  tolerates,
  untoleratedTaint
} from './placement.js'
import type { Reconciler } from './queue.js'

function isNodeReady(n: KubeObject): boolean {
  return (n.status?.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True')
}

export class Scheduler implements Reconciler {
  readonly name = 'scheduler'
  private readonly pending = new Set<string>()
  constructor(private readonly ctx: SimContext) {
    ctx.cache.onEvent((e, tk) => {
      if (tk === TK.pods) {
        const k = `${e.object.metadata.namespace}/${e.object.metadata.name}`
        if (e.type === 'DELETED') {
          this.pending.delete(k)
          if (e.object.spec?.nodeName) this.retryAll()
        } else if (!e.object.spec?.nodeName && !isPodTerminal(e.object)) {
          this.pending.add(k)
          ctx.queue.add(this, k)
        } else this.pending.delete(k)
      } else if (tk === TK.nodes) this.retryAll()
    })
    for (const p of ctx.cache.list(TK.pods)) {
      if (!p.spec?.nodeName && !isPodTerminal(p)) {
        this.pending.add(`${p.metadata.namespace}/${p.metadata.name}`)
        ctx.queue.add(this, `${p.metadata.namespace}/${p.metadata.name}`)
      }
    }
  }

  private retryAll(): void {
    for (const k of this.pending) this.ctx.queue.add(this, k)
  }

  reconcile(key: string): void {
    const [ns, name] = key.split('/')
    const pod = this.ctx.cache.get(TK.pods, ns, name)
    if (!pod || pod.spec?.nodeName || isPodTerminal(pod)) return
    if (pod.spec?.schedulerName && pod.spec.schedulerName !== 'default-scheduler') return
    const podT = typeFromKey(this.ctx, TK.pods)!
    const nodes = this.ctx.cache.list(TK.nodes).sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))
    const reasons = new Map<string, number>()
    const why = (r: string) => reasons.set(r, (reasons.get(r) ?? 0) + 1)
    const req = extendedRequests(pod.spec)
    const fits: Array<{ node: KubeObject; load: number }> = []
    for (const n of nodes) {
      if (!isNodeReady(n)) {
        why('node(s) had untolerated taint {node.kubernetes.io/not-ready: }')
        continue
      }
      // NodeUnschedulable: a cordoned node only for pods tolerating its unschedulable taint.
      const cordonTaint = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }
      if (n.spec?.unschedulable && !tolerates(pod.spec?.tolerations, cordonTaint)) {
        why('node(s) were unschedulable')
        continue
      }
      if (!matchesNodeSelector(pod.spec.nodeSelector, n) || !matchesRequiredAffinity(pod.spec.affinity, n)) {
        why("node(s) didn't match Pod's node affinity/selector")
        continue
      }
      const taint = untoleratedTaint(pod.spec, n)
      if (taint) {
        why(`node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`)
        continue
      }
      const onNode = this.ctx.cache.podsOnNode(n.metadata.name).filter(p => !isPodTerminal(p))
      let short: string | undefined
      for (const [res, amount] of Object.entries(req)) {
        const alloc = parseQuantity(String(n.status?.allocatable?.[res] ?? '0')) || 0
        const used = onNode.reduce((a, p) => a + (extendedRequests(p.spec)[res] ?? 0), 0)
        if (used + amount > alloc) {
          short = `Insufficient ${res}`
          break
        }
      }
      if (short) {
        why(short)
        continue
      }
      if (this.antiAffinityBlocks(pod, onNode)) {
        why("node(s) didn't match pod anti-affinity rules")
        continue
      }
      fits.push({ node: n, load: onNode.length })
    }
    if (fits.length) {
      fits.sort((a, b) => a.load - b.load)
      const node = fits[0].node.metadata.name
      this.pending.delete(key)
      this.ctx.store.mutate(podT, ns, name, o => {
        o.spec.nodeName = node
      })
      return
    }
    const detail = [...reasons.entries()]
      .sort((a, b) => a[0].localeCompare(b[0]))
      .map(([r, n]) => `${n} ${r}`)
      .join(', ')
    const message = `0/${nodes.length} nodes are available${detail ? ': ' + detail : ''}. preemption: 0/${nodes.length} nodes are available: ${nodes.length} Preemption is not helpful for scheduling.`
    const prev = (pod.status?.conditions ?? []).find((c: any) => c.type === 'PodScheduled')
    if (prev?.message === message) return
    this.ctx.store.mutate(
      podT,
      ns,
      name,
      o => {
        o.status = {
          phase: 'Pending',
          qosClass: o.status?.qosClass ?? 'BestEffort',
          conditions: [
            {
              type: 'PodScheduled',
              status: 'False',
              lastProbeTime: null,
              lastTransitionTime: isoNow(this.ctx),
              reason: 'Unschedulable',
              message
            }
          ]
        }
      },
      { subresource: 'status' }
    )
    this.ctx.events.record(pod, {
      type: 'Warning',
      reason: 'FailedScheduling',
      message,
      component: 'default-scheduler'
    })
  }

  private antiAffinityBlocks(pod: KubeObject, onNode: KubeObject[]): boolean {
    const terms: any[] =
      pod.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []
    return terms.some(
      t =>
        (t.topologyKey ?? 'kubernetes.io/hostname') === 'kubernetes.io/hostname' &&
        onNode.some(
          p =>
            p.metadata.name !== pod.metadata.name &&
            matchesLabelSelectorObject(t.labelSelector, p.metadata.labels)
        )
    )
  }
}
