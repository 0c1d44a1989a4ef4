// Which pods a policy/v1 PodDisruptionBudget covers, and whether one may be evicted, shared by the
// eviction subresource, the disruption controller and the driver upgrades' drains
// (k8s.io/api@v0.33.2 policy/v1 PodDisruptionBudgetSpec.selector: a null selector selects no pods,
// an empty one every pod of the namespace; the decision: apiserver/eviction.ts).
import { matchesLabelSelectorObject } from './selectors.js'
import type { KubeObject, ObjectStore } from './store.js'

export function pdbSelects(pdb: KubeObject, pod: KubeObject): boolean {
  const sel = pdb.spec?.selector
  if (!sel || pod.metadata.namespace !== pdb.metadata.namespace) return false
  return matchesLabelSelectorObject(sel, pod.metadata.labels ?? {})
}

/** podutil.IsPodReady: the Ready condition is True. */
export function podIsReady(p: KubeObject): boolean {
  return (p.status?.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True')
}

const MAX_DISRUPTED_PODS = 2000
export const EVICTION_REFUSED = "Cannot evict pod as it would violate the pod's disruption budget."

/** Why an eviction is refused, as kube-apiserver answers it. */
export interface EvictionRefusal {
  status: 429 | 403 | 500
  reason: 'TooManyRequests' | 'Forbidden' | 'InternalError'
  message: string
  /** The DisruptionBudget cause of a 429, or the PDB a 403 names. */
  cause?: string
  pdb?: string
}

/** canIgnorePDB: a pod whose eviction disrupts nothing more. */
function canIgnorePdb(pod: KubeObject): boolean {
  const phase = pod.status?.phase
  return (
    phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || !!pod.metadata.deletionTimestamp
  )
}

/**
 * Whether `pod` may be evicted now (EvictionREST's checks, kubernetes/kubernetes@v1.33.2
 * pkg/registry/core/pod/storage/eviction.go); an allowed eviction under a budget spends one of its
 * disruptions and notes the pod in disruptedPods, unless `dryRun`.
 */
export function decideEviction(
  store: ObjectStore,
  pod: KubeObject,
  dryRun = false
): EvictionRefusal | undefined {
  const pdbType = store.type('policy', 'poddisruptionbudgets')
  if (canIgnorePdb(pod) || !pdbType) return undefined
  const pdbs = store
    .list(pdbType, { namespace: pod.metadata.namespace })
    .items.filter(p => pdbSelects(p, pod))
  if (pdbs.length > 1)
    return {
      status: 500,
      reason: 'InternalError',
      message:
        'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.'
    }
  if (!pdbs.length) return undefined
  const pdb = pdbs[0]
  const st = pdb.status ?? {}
  const unhealthy = !podIsReady(pod)
  if (unhealthy && pdb.spec?.unhealthyPodEvictionPolicy === 'AlwaysAllow') return undefined
  if (unhealthy && (st.currentHealthy ?? 0) >= (st.desiredHealthy ?? 0) && (st.desiredHealthy ?? 0) > 0)
    return undefined
  const refuse429 = (cause: string): EvictionRefusal => ({
    status: 429,
    reason: 'TooManyRequests',
    message: EVICTION_REFUSED,
    cause
  })
  const forbid = (why: string): EvictionRefusal => ({
    status: 403,
    reason: 'Forbidden',
    message: `poddisruptionbudget.policy "${pdb.metadata.name}" is forbidden: ${why}`,
    pdb: pdb.metadata.name
  })
  if ((st.observedGeneration ?? 0) < (pdb.metadata.generation ?? 0))
    return refuse429(`The disruption budget ${pdb.metadata.name} is still being processed by the server.`)
  if ((st.disruptionsAllowed ?? 0) < 0) return forbid('pdb disruptions allowed is negative')
  if (Object.keys(st.disruptedPods ?? {}).length > MAX_DISRUPTED_PODS)
    return forbid('DisruptedPods map too big - too many evictions not confirmed by PDB controller')
  if ((st.disruptionsAllowed ?? 0) === 0)
    return refuse429(
      `The disruption budget ${pdb.metadata.name} needs ${st.desiredHealthy ?? 0} healthy pods and has ${st.currentHealthy ?? 0} currently`
    )
  if (!dryRun)
    store.mutate(
      pdbType,
      pdb.metadata.namespace,
      pdb.metadata.name,
      p => {
        const s = (p.status ??= {})
        s.disruptionsAllowed = (s.disruptionsAllowed ?? 0) - 1
        if (s.disruptionsAllowed === 0)
          for (const c of s.conditions ?? [])
            if (c.type === 'DisruptionAllowed' && c.status !== 'False')
              Object.assign(c, {
                status: 'False',
                reason: 'InsufficientPods',
                lastTransitionTime: store.nowTime()
              })
        s.disruptedPods = { ...(s.disruptedPods ?? {}), [pod.metadata.name]: store.nowTime() }
      },
      { subresource: 'status' }
    )
  return undefined
}
