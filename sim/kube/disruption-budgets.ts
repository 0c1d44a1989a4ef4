// Which pods a policy/v1 PodDisruptionBudget covers, shared by the eviction subresource and the
// disruption controller (k8s.io/api@v0.33.2 policy/v1 PodDisruptionBudgetSpec.selector: a null
// selector selects no pods, an empty one every pod of the namespace).
import { matchesLabelSelectorObject } from './selectors.js'
import type { KubeObject } from './store.js'

export function pdbSelects(pdb: KubeObject, pod: KubeObject): boolean {
  const sel = pdb.spec?.selector
  if (!sel || pod.metadata.namespace !== pdb.metadata.namespace) return false
  return matchesLabelSelectorObject(sel, pod.metadata.labels ?? {})
}

/** podutil.IsPodReady: the Ready condition is True. */
export function podIsReady(p: KubeObject): boolean {
  return (p.status?.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True')
}
