// POST pods/<name>/eviction, as kube-apiserver's EvictionREST (kubernetes/kubernetes@v1.33.2
// pkg/registry/core/pod/storage/eviction.go): a pod that is Pending, finished or already being
// deleted is deleted at once; otherwise the PodDisruptionBudget selecting it decides — none: delete;
// more than one: 500; a status not yet observed for the PDB's generation: 429 "still being
// processed"; disruptionsAllowed 0: 429 TooManyRequests with a DisruptionBudget cause ("needs N
// healthy pods and has M currently"); else disruptionsAllowed is decremented and the pod noted in
// disruptedPods (a status write) before the graceful delete. A pod that is not Ready is evicted
// without spending the budget when the budget is met (IfHealthyBudget) or always (AlwaysAllow:
// k8s.io/api@v0.33.2 policy/v1 PodDisruptionBudgetSpec.unhealthyPodEvictionPolicy).
import { decideEviction } from '../disruption-budgets.js'
import { type Reply, type VerbEnv, type VerbRequest, getLive, isDryRun, parseBody } from './handlers.js'
import { ApiError, statusSuccess } from './status.js'

export function podEviction(env: VerbEnv, r: VerbRequest): Reply {
  const eviction = parseBody(r)
  if (eviction?.metadata?.name !== undefined && eviction.metadata.name !== r.route.name)
    throw new ApiError(400, 'BadRequest', 'name in URL does not match name in Eviction object')
  const o = eviction?.deleteOptions ?? {}
  const dryRun = isDryRun(r.query) || (o.dryRun ?? []).length > 0
  const pod = getLive(env, r.route)
  const refused = decideEviction(env.store, pod, dryRun)
  if (refused?.status === 500)
    return {
      status: 500,
      body: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: refused.message,
        code: 500
      }
    }
  if (refused?.status === 403)
    throw new ApiError(403, 'Forbidden', refused.message, {
      name: refused.pdb,
      group: 'policy',
      kind: 'poddisruptionbudget'
    })
  if (refused)
    throw new ApiError(429, 'TooManyRequests', refused.message, {
      causes: [{ reason: 'DisruptionBudget', message: refused.cause }]
    })
  env.store.delete(r.route.type, pod.metadata.namespace, pod.metadata.name, {
    ...(o.gracePeriodSeconds !== undefined ? { gracePeriodSeconds: Number(o.gracePeriodSeconds) } : {}),
    ...(o.preconditions ? { preconditions: o.preconditions } : {}),
    dryRun
  })
  return { status: 201, body: statusSuccess() }
}
