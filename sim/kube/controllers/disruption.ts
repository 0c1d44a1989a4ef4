// The disruption controller, as kube-controller-manager's (kubernetes/kubernetes@v1.33.2
// pkg/controller/disruption/disruption.go): every PodDisruptionBudget's status — the pods its
// selector picks in its namespace (null: none, empty: all), expectedPods and desiredHealthy from
// minAvailable (a number: the pods found; a percentage: the controllers' scale, rounded up) or
// maxUnavailable (the controllers' scale minus it), currentHealthy (Ready pods not being deleted
// and not in disruptedPods), disruptionsAllowed, the DisruptionAllowed condition
// (SufficientPods / InsufficientPods / SyncFailed) and observedGeneration; disruptedPods entries
// go once their pod is gone or after the 2-minute DeletionTimeout. The eviction subresource reads it
// (apiserver/eviction.ts).
import type { KubeObject } from '../store.js'
import { pdbSelects } from '../disruption-budgets.js'
import { isoNow, isPodReady, typeFromKey, type SimContext } from './context.js'
import type { Reconciler } from './queue.js'
import { afterWall } from './wall-timer.js'

export const PDB_KEY = 'poddisruptionbudgets.policy'
/** disruption.go DeletionTimeout: an eviction not followed by a deletion within it is forgotten. */
const DELETION_TIMEOUT_MS = 2 * 60_000

/** intstr.GetScaledValueFromIntOrPercent, rounding up. */
export function scaledValue(v: number | string, total: number): number {
  if (typeof v === 'number') return v
  const m = /^(\d+)%$/.exec(v)
  if (!m) throw new Error(`invalid value for IntOrString: invalid value "${v}"`)
  return Math.ceil((Number(m[1]) * total) / 100)
}

/** The workloads the disruption controller knows the scale of, by pod owner. */
function controllerScale(ctx: SimContext, pod: KubeObject): { uid: string; replicas: number } {
  const ns = pod.metadata.namespace
  const ref = (pod.metadata.ownerReferences ?? []).find((r: any) => r.controller)
  if (!ref) throw new Error(`found no controllers for pod "${pod.metadata.name}"`)
  const get = (tk: string, name: string) => ctx.cache.get(tk, ns, name)
  if (ref.kind === 'ReplicaSet') {
    const rs = get('replicasets.apps', ref.name)
    const dref = (rs?.metadata.ownerReferences ?? []).find(
      (r: any) => r.controller && r.kind === 'Deployment'
    )
    const d = dref ? get('deployments.apps', dref.name) : undefined
    if (d) return { uid: d.metadata.uid!, replicas: d.spec?.replicas ?? 1 }
    if (rs) return { uid: rs.metadata.uid!, replicas: rs.spec?.replicas ?? 1 }
  }
  const byKind: Record<string, string> = {
    ReplicationController: 'replicationcontrollers',
    StatefulSet: 'statefulsets.apps'
  }
  const owner = byKind[ref.kind] ? get(byKind[ref.kind], ref.name) : undefined
  if (owner) return { uid: owner.metadata.uid!, replicas: owner.spec?.replicas ?? 1 }
  throw new Error(`found no controllers for pod "${pod.metadata.name}"`)
}

/** expectedPods and desiredHealthy (disruption.go getExpectedPodCount). */
function expectation(
  ctx: SimContext,
  pdb: KubeObject,
  pods: KubeObject[]
): { expected: number; desired: number } {
  const spec = pdb.spec ?? {}
  const scaleSum = () => {
    const seen = new Map<string, number>()
    for (const p of pods) {
      const c = controllerScale(ctx, p)
      seen.set(c.uid, c.replicas)
    }
    return [...seen.values()].reduce((a, b) => a + b, 0)
  }
  if (spec.maxUnavailable !== undefined && spec.maxUnavailable !== null) {
    const expected = scaleSum()
    return { expected, desired: Math.max(0, expected - scaledValue(spec.maxUnavailable, expected)) }
  }
  if (spec.minAvailable !== undefined && spec.minAvailable !== null) {
    if (typeof spec.minAvailable === 'number') return { expected: pods.length, desired: spec.minAvailable }
    const expected = scaleSum()
    return { expected, desired: scaledValue(spec.minAvailable, expected) }
  }
  return { expected: 0, desired: 0 }
}

export class DisruptionController implements Reconciler {
  readonly name = 'disruption'
  private readonly rechecks = new Map<string, () => void>()
  constructor(private readonly ctx: SimContext) {
    ctx.cache.onEvent((e, tk, prev) => {
      if (tk === PDB_KEY) ctx.queue.add(this, `${e.object.metadata.namespace}/${e.object.metadata.name}`)
      else if (tk === 'pods') {
        for (const pdb of ctx.cache.list(PDB_KEY))
          if (pdbSelects(pdb, e.object) || (prev && pdbSelects(pdb, prev)))
            ctx.queue.add(this, `${pdb.metadata.namespace}/${pdb.metadata.name}`)
      }
    })
    for (const pdb of ctx.cache.list(PDB_KEY))
      ctx.queue.add(this, `${pdb.metadata.namespace}/${pdb.metadata.name}`)
  }

  reconcile(key: string): void {
    const [ns, name] = key.split('/')
    const pdb = this.ctx.cache.get(PDB_KEY, ns, name)
    const t = typeFromKey(this.ctx, PDB_KEY)
    if (!pdb || !t) return
    const pods = this.ctx.cache.list('pods').filter(p => pdbSelects(pdb, p))
    const now = this.ctx.wallNow()
    const disrupted: Record<string, string> = {}
    let recheck: number | undefined
    for (const [pod, at] of Object.entries((pdb.status?.disruptedPods ?? {}) as Record<string, string>)) {
      const live = pods.find(p => p.metadata.name === pod)
      const expires = Date.parse(at) + DELETION_TIMEOUT_MS
      if (!live || live.metadata.deletionTimestamp || expires <= now) continue
      disrupted[pod] = at
      recheck = Math.min(recheck ?? Infinity, expires - now)
    }
    let status: Record<string, any>
    try {
      const { expected, desired } = expectation(this.ctx, pdb, pods)
      const healthy = pods.filter(
        p => isPodReady(p) && !p.metadata.deletionTimestamp && !(p.metadata.name in disrupted)
      ).length
      const allowed = Math.max(0, healthy - desired)
      status = {
        ...(Object.keys(disrupted).length ? { disruptedPods: disrupted } : {}),
        disruptionsAllowed: allowed,
        currentHealthy: healthy,
        desiredHealthy: desired,
        expectedPods: expected,
        condition: allowed > 0 ? ['True', 'SufficientPods', ''] : ['False', 'InsufficientPods', '']
      }
    } catch (err) {
      status = {
        disruptionsAllowed: 0,
        currentHealthy: pdb.status?.currentHealthy ?? 0,
        desiredHealthy: pdb.status?.desiredHealthy ?? 0,
        expectedPods: pdb.status?.expectedPods ?? 0,
        condition: ['False', 'SyncFailed', (err as Error).message]
      }
    }
    const [cStatus, reason, message] = status.condition as string[]
    delete status.condition
    this.ctx.store.mutate(
      t,
      ns,
      name,
      o => {
        const old = (o.status?.conditions ?? []).find((c: any) => c.type === 'DisruptionAllowed')
        const condition = {
          type: 'DisruptionAllowed',
          status: cStatus,
          observedGeneration: o.metadata.generation,
          lastTransitionTime: old && old.status === cStatus ? old.lastTransitionTime : isoNow(this.ctx),
          reason,
          message
        }
        o.status = { observedGeneration: o.metadata.generation, ...status, conditions: [condition] }
      },
      { subresource: 'status' }
    )
    this.rechecks.get(key)?.()
    this.rechecks.delete(key)
    if (recheck !== undefined)
      this.rechecks.set(
        key,
        afterWall(this.ctx, now + recheck, () => this.ctx.queue.add(this, key))
      )
  }
}
