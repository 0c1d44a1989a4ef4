// POST pods/<name>/eviction, as kube-apiserver's EvictionREST (kubernetes/kubernetes@v1.33.2
// pkg/registry/core/pod/storage/eviction.go): a pod that is Pending, finished or already being
// deleted is deleted at once; otherwise the PodDisruptionBudget selecting it decides — none: delete;
// more than one: 500; a status not yet observed for the PDB's generation: 429 "still being
// processed"; disruptionsAllowed 0: 429 TooManyRequests with a DisruptionBudget cause ("needs N
// healthy pods and has M currently"); else disruptionsAllowed is decremented and the pod noted in
// disruptedPods (a status write) before the graceful delete. A pod that is not Ready is evicted
// without spending the budget when the budget is met (IfHealthyBudget) or always (AlwaysAllow:
// k8s.io/api@v0.33.2 policy/v1 PodDisruptionBudgetSpec.unhealthyPodEvictionPolicy).
import { pdbSelects, podIsReady as isPodReady } from '../disruption-budgets.js'
import type { KubeObject } from '../store.js'
import { type Reply, type VerbEnv, type VerbRequest, getLive, isDryRun, parseBody } from './handlers.js'
import { ApiError, statusSuccess } from './status.js'

const MAX_DISRUPTED_PODS = 2000

function tooManyRequests(cause: string): ApiError {
  return new ApiError(
    429,
    'TooManyRequests',
    "Cannot evict pod as it would violate the pod's disruption budget.",
    {
      causes: [{ reason: 'DisruptionBudget', message: cause }]
    }
  )
}

function forbiddenPdb(name: string, why: string): ApiError {
  return new ApiError(403, 'Forbidden', `poddisruptionbudget.policy "${name}" is forbidden: ${why}`, {
    name,
    group: 'policy',
    kind: 'poddisruptionbudget'
  })
}

/** canIgnorePDB: a pod whose eviction disrupts nothing more. */
function canIgnorePdb(pod: KubeObject): boolean {
  const phase = pod.status?.phase
  return (
    phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || !!pod.metadata.deletionTimestamp
  )
}

export function podEviction(env: VerbEnv, r: VerbRequest): Reply {
  const eviction = parseBody(r)
  if (eviction?.metadata?.name !== undefined && eviction.metadata.name !== r.route.name)
    throw new ApiError(400, 'BadRequest', 'name in URL does not match name in Eviction object')
  const o = eviction?.deleteOptions ?? {}
  const dryRun = isDryRun(r.query) || (o.dryRun ?? []).length > 0
  const pod = getLive(env, r.route)
  const del = () => {
    env.store.delete(r.route.type, pod.metadata.namespace, pod.metadata.name, {
      ...(o.gracePeriodSeconds !== undefined ? { gracePeriodSeconds: Number(o.gracePeriodSeconds) } : {}),
      ...(o.preconditions ? { preconditions: o.preconditions } : {}),
      dryRun
    })
    return { status: 201, body: statusSuccess() }
  }
  const pdbType = env.store.type('policy', 'poddisruptionbudgets')
  if (canIgnorePdb(pod) || !pdbType) return del()
  const pdbs = env.store
    .list(pdbType, { namespace: pod.metadata.namespace })
    .items.filter(p => pdbSelects(p, pod))
  if (pdbs.length > 1)
    return {
      status: 500,
      body: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message:
          'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
        code: 500
      }
    }
  if (!pdbs.length) return del()
  const pdb = pdbs[0]
  const st = pdb.status ?? {}
  const unhealthy = !isPodReady(pod)
  if (unhealthy && pdb.spec?.unhealthyPodEvictionPolicy === 'AlwaysAllow') return del()
  if (unhealthy && (st.currentHealthy ?? 0) >= (st.desiredHealthy ?? 0) && (st.desiredHealthy ?? 0) > 0)
    return del()
  if ((st.observedGeneration ?? 0) < (pdb.metadata.generation ?? 0))
    throw tooManyRequests(
      `The disruption budget ${pdb.metadata.name} is still being processed by the server.`
    )
  if ((st.disruptionsAllowed ?? 0) < 0)
    throw forbiddenPdb(pdb.metadata.name, 'pdb disruptions allowed is negative')
  if (Object.keys(st.disruptedPods ?? {}).length > MAX_DISRUPTED_PODS)
    throw forbiddenPdb(
      pdb.metadata.name,
      'DisruptedPods map too big - too many evictions not confirmed by PDB controller'
    )
  if ((st.disruptionsAllowed ?? 0) === 0)
    throw tooManyRequests(
      `The disruption budget ${pdb.metadata.name} needs ${st.desiredHealthy ?? 0} healthy pods and has ${st.currentHealthy ?? 0} currently`
    )
  if (!dryRun)
    env.store.mutate(
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
                lastTransitionTime: env.store.nowTime()
              })
        s.disruptedPods = { ...(s.disruptedPods ?? {}), [pod.metadata.name]: env.store.nowTime() }
      },
      { subresource: 'status' }
    )
  return del()
}
