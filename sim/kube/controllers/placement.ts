// Whether a pod spec may run on a node: nodeSelector, required node affinity (matchExpressions
// and matchFields), taints versus tolerations, and extended-resource fit. Shared by the
// DaemonSet controller and the scheduler.
import type { KubeObject } from '../store.js'

export interface Taint {
  key: string
  value?: string
  effect: string
}

interface Toleration {
  key?: string
  operator?: string
  value?: string
  effect?: string
}

interface NodeSelectorRequirement {
  key: string
  operator: string
  values?: string[]
}

function matchRequirement(r: NodeSelectorRequirement, value: string | undefined): boolean {
  const has = value !== undefined
  const vals = r.values ?? []
  switch (r.operator) {
    case 'In':
      return has && vals.includes(value!)
    case 'NotIn':
      return !has || !vals.includes(value!)
    case 'Exists':
      return has
    case 'DoesNotExist':
      return !has
    case 'Gt':
      return has && Number(value) > Number(vals[0])
    case 'Lt':
      return has && Number(value) < Number(vals[0])
    default:
      return false
  }
}

export function matchesNodeSelector(sel: Record<string, string> | undefined, node: KubeObject): boolean {
  const labels = node.metadata.labels ?? {}
  return Object.entries(sel ?? {}).every(([k, v]) => labels[k] === v)
}

/** requiredDuringSchedulingIgnoredDuringExecution: terms are ORed, expressions in a term ANDed. */
export function matchesRequiredAffinity(affinity: any, node: KubeObject): boolean {
  const terms = affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms as
    any[] | undefined
  if (!terms || terms.length === 0) return true
  const labels = node.metadata.labels ?? {}
  return terms.some(term => {
    const exprs: NodeSelectorRequirement[] = term.matchExpressions ?? []
    const fields: NodeSelectorRequirement[] = term.matchFields ?? []
    if (exprs.length === 0 && fields.length === 0) return false
    return (
      exprs.every(e => matchRequirement(e, labels[e.key])) &&
      fields.every(f => matchRequirement(f, f.key === 'metadata.name' ? node.metadata.name : undefined))
    )
  })
}

export function parseTaint(text: string): Taint {
  const [kv, effect] = text.split(':')
  const [key, value] = kv.split('=')
  return { key, ...(value !== undefined ? { value } : {}), effect: effect ?? 'NoSchedule' }
}

export function tolerates(tolerations: Toleration[] | undefined, taint: Taint): boolean {
  return (tolerations ?? []).some(t => {
    if (t.effect && t.effect !== taint.effect) return false
    if (!t.key) return t.operator === 'Exists'
    if (t.key !== taint.key) return false
    if (t.operator === 'Exists') return true
    return (t.value ?? '') === (taint.value ?? '')
  })
}

/** The first taint (NoSchedule/NoExecute) the pod does not tolerate. */
export function untoleratedTaint(podSpec: any, node: KubeObject): Taint | undefined {
  const taints: Taint[] = node.spec?.taints ?? []
  return taints.find(
    t => (t.effect === 'NoSchedule' || t.effect === 'NoExecute') && !tolerates(podSpec.tolerations, t)
  )
}

export function nodeMatchesPod(podSpec: any, node: KubeObject): boolean {
  return matchesNodeSelector(podSpec.nodeSelector, node) && matchesRequiredAffinity(podSpec.affinity, node)
}

/** Extended resources a pod asks for (requests, or limits where requests are absent). */
export function extendedRequests(podSpec: any): Record<string, number> {
  const out: Record<string, number> = {}
  for (const c of podSpec?.containers ?? []) {
    const req = { ...(c.resources?.limits ?? {}), ...(c.resources?.requests ?? {}) }
    for (const [k, v] of Object.entries(req)) {
      if (!k.includes('/') || k.startsWith('kubernetes.io/')) continue
      out[k] = (out[k] ?? 0) + parseQuantity(String(v))
    }
  }
  return out
}

/** Kubernetes quantity → number (`1k` → 1000, `2Ki` → 2048, `500m` → 0.5). */
export function parseQuantity(q: string): number {
  const m = /^([+-]?\d+(?:\.\d+)?)([a-zA-Z]*)$/.exec(q.trim())
  if (!m) return NaN
  const n = Number(m[1])
  const mult: Record<string, number> = {
    '': 1,
    m: 1e-3,
    k: 1e3,
    M: 1e6,
    G: 1e9,
    T: 1e12,
    P: 1e15,
    E: 1e18,
    Ki: 1024,
    Mi: 1024 ** 2,
    Gi: 1024 ** 3,
    Ti: 1024 ** 4,
    Pi: 1024 ** 5,
    Ei: 1024 ** 6
  }
  return mult[m[2]] === undefined ? NaN : n * mult[m[2]]
}

/** Canonical decimal quantity string for an integer (1000 → `1k`, 63 → `63`, 8 → `8`). */
export function formatQuantity(n: number): string {
  if (n === 0) return '0'
  const suffixes: Array<[number, string]> = [
    [1e18, 'E'],
    [1e15, 'P'],
    [1e12, 'T'],
    [1e9, 'G'],
    [1e6, 'M'],
    [1e3, 'k']
  ]
  for (const [m, s] of suffixes) if (Number.isInteger(n) && n % m === 0) return `${n / m}${s}`
  return String(n)
}
