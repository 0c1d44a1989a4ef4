// ResourceQuota: what it counts and what its admission refuses (kubernetes/kubernetes@v1.33.2
// pkg/quota/v1/evaluator/core/pods.go, services.go, persistent_volume_claims.go, the generic
// `count/<resource>` evaluator in pkg/quota/v1/generic/evaluator.go; staging/src/k8s.io/apiserver/
// pkg/admission/plugin/resourcequota/controller.go for the refusals): `pods` (not finished),
// `requests.cpu` / `cpu`, `requests.memory` / `memory`, `limits.cpu`, `limits.memory`, `requests.<extended>`
// summed over those pods; `services`, `services.nodeports`, `services.loadbalancers`, `configmaps`,
// `secrets`, `persistentvolumeclaims`, `replicationcontrollers`, `resourcequotas` and any
// `count/<plural>[.<group>]`. A create that would take a quota's use above its hard limit is 403
// `exceeded quota: <name>, requested: …, used: …, limited: …`; a pod without the request or limit a
// compute quota tracks, 403 `failed quota: <name>: must specify …`; a quota whose status the
// controller has not written yet, 403 `status unknown for quota`.
import { parseQuantity } from './controllers/placement.js'
import { StoreError, typeKey, type KubeObject, type ObjectStore, type ResourceType } from './store.js'

const COMPUTE: Record<string, ['requests' | 'limits', string]> = {
  cpu: ['requests', 'cpu'],
  memory: ['requests', 'memory'],
  'requests.cpu': ['requests', 'cpu'],
  'requests.memory': ['requests', 'memory'],
  'limits.cpu': ['limits', 'cpu'],
  'limits.memory': ['limits', 'memory']
}

const OBJECT_COUNTS: Record<string, string> = {
  services: 'services',
  configmaps: 'configmaps',
  secrets: 'secrets',
  persistentvolumeclaims: 'persistentvolumeclaims',
  replicationcontrollers: 'replicationcontrollers',
  resourcequotas: 'resourcequotas'
}

const podCounts = (p: KubeObject) =>
  p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed' && !p.metadata.deletionTimestamp

/** The resource (of `name`) a pod uses: a container sum (init containers: their maximum). */
function podCompute(pod: KubeObject, kind: 'requests' | 'limits', res: string): number {
  const of = (c: any) => parseQuantity(String(c?.resources?.[kind]?.[res] ?? '0')) || 0
  const main = (pod.spec?.containers ?? []).reduce((a: number, c: any) => a + of(c), 0)
  const init = Math.max(0, ...(pod.spec?.initContainers ?? []).map(of))
  return Math.max(main, init)
}

function computeKey(name: string): ['requests' | 'limits', string] | undefined {
  if (COMPUTE[name]) return COMPUTE[name]
  const m = /^(requests|limits)\.(.+)$/.exec(name)
  return m ? [m[1] as 'requests' | 'limits', m[2]] : undefined
}

/** What one object adds to quota resource `name` (undefined: the resource does not count it). */
export function usageOf(t: ResourceType, obj: KubeObject, name: string): number | undefined {
  const tk = typeKey(t)
  if (tk === 'pods') {
    if (!podCounts(obj)) return name === 'pods' || name === 'count/pods' ? 0 : undefined
    if (name === 'pods' || name === 'count/pods') return 1
    const ck = computeKey(name)
    return ck ? podCompute(obj, ck[0], ck[1]) : undefined
  }
  if (tk === 'services') {
    const ports = (obj.spec?.ports ?? []).length
    if (name === 'services.nodeports')
      return obj.spec?.type === 'NodePort' || obj.spec?.type === 'LoadBalancer' ? ports : 0
    if (name === 'services.loadbalancers') return obj.spec?.type === 'LoadBalancer' ? 1 : 0
  }
  if (OBJECT_COUNTS[name] === tk) return 1
  const m = /^count\/(.+)$/.exec(name)
  if (m && m[1] === tk) return 1
  return undefined
}

/** Sum of a quantity the way the quota writes it (cpu in cores or millicores, memory in bytes). */
export function formatUsage(name: string, n: number, hard: string): string {
  if (!computeKey(name)) return String(Math.round(n))
  if (n === 0) return '0'
  if (/cpu$/.test(name)) return Number.isInteger(n) ? String(n) : `${Math.round(n * 1000)}m`
  const binary = /i$/.test(hard)
  const units = binary
    ? ([
        ['Ei', 1024 ** 6],
        ['Pi', 1024 ** 5],
        ['Ti', 1024 ** 4],
        ['Gi', 1024 ** 3],
        ['Mi', 1024 ** 2],
        ['Ki', 1024]
      ] as const)
    : ([
        ['E', 1e18],
        ['P', 1e15],
        ['T', 1e12],
        ['G', 1e9],
        ['M', 1e6],
        ['k', 1e3]
      ] as const)
  for (const [u, f] of units) if (n % f === 0) return `${n / f}${u}`
  return String(n)
}

/** The quota's current use of each hard resource, counted from the store. */
export function quotaUsage(store: ObjectStore, quota: KubeObject): Record<string, string> {
  const ns = quota.metadata.namespace
  const out: Record<string, string> = {}
  for (const [name, hard] of Object.entries((quota.spec?.hard ?? {}) as Record<string, string>)) {
    let sum = 0
    for (const t of store.types()) {
      if (!t.namespaced) continue
      for (const o of store.scan(t)) {
        if (o.metadata.namespace !== ns) continue
        const u = usageOf(t, o, name)
        if (u === undefined) continue
        sum += u
      }
    }
    out[name] = formatUsage(name, sum, String(hard))
  }
  return out
}

const pretty = (m: Record<string, string>) =>
  Object.keys(m)
    .sort()
    .map(k => `${k}=${m[k]}`)
    .join(',')

/** ResourceQuota admission of a create of `obj` as `t` (throws 403). */
export function admitQuota(store: ObjectStore, t: ResourceType, obj: KubeObject): void {
  const qt = store.type('', 'resourcequotas')
  const ns = obj.metadata.namespace
  if (!qt || !ns || !t.namespaced) return
  for (const quota of store.list(qt, { namespace: ns }).items) {
    const hard = (quota.spec?.hard ?? {}) as Record<string, string>
    const tracked = Object.keys(hard).filter(name => usageOf(t, obj, name) !== undefined)
    if (!tracked.length) continue
    const forbid = (msg: string) =>
      new StoreError(
        403,
        'Forbidden',
        `${t.group ? `${t.plural}.${t.group}` : t.plural} "${obj.metadata.name ?? ''}" is forbidden: ${msg}`
      )
    if (typeKey(t) === 'pods') {
      const missing: string[] = []
      for (const name of tracked) {
        const ck = computeKey(name)
        if (!ck || name === 'pods') continue
        const lacking = [...(obj.spec?.containers ?? [])]
          .filter((c: any) => c?.resources?.[ck[0]]?.[ck[1]] === undefined)
          .map((c: any) => c.name)
        if (lacking.length) missing.push(`${ck[0]}.${ck[1]} for: ${lacking.join(',')}`)
      }
      if (missing.length)
        throw forbid(
          `failed quota: ${quota.metadata.name}: must specify ${[...new Set(missing)].sort().join('; ')}`
        )
    }
    const used = (quota.status?.used ?? {}) as Record<string, string>
    const unknown = tracked.filter(name => used[name] === undefined)
    if (unknown.length)
      throw forbid(`status unknown for quota: ${quota.metadata.name}, resource: ${unknown.sort().join(', ')}`)
    const requested: Record<string, string> = {}
    const usedOut: Record<string, string> = {}
    const limited: Record<string, string> = {}
    for (const name of tracked) {
      const delta = usageOf(t, obj, name) ?? 0
      if (!delta) continue
      const now = parseQuantity(String(used[name])) || 0
      if (now + delta > parseQuantity(String(hard[name]))) {
        requested[name] = formatUsage(name, delta, String(hard[name]))
        usedOut[name] = String(used[name])
        limited[name] = String(hard[name])
      }
    }
    if (Object.keys(requested).length)
      throw forbid(
        `exceeded quota: ${quota.metadata.name}, requested: ${pretty(requested)}, used: ${pretty(usedOut)}, limited: ${pretty(limited)}`
      )
  }
}
