// The LimitRanger admission plugin on pod creation (kubernetes/kubernetes@v1.33.2
// plugin/pkg/admission/limitranger/admission.go): the `Container` items of the namespace's
// LimitRanges give every container (and init container) the `defaultRequest` / `default` it lacks,
// noted in the `kubernetes.io/limit-ranger` annotation (`LimitRanger plugin set: cpu, memory request
// for container c; …`), then `min` and `max` are checked against each container's requests and
// limits: 403 `pods "p" is forbidden: maximum cpu usage per Container is 1, but limit is 2` (several:
// `[…, …]`).
import { parseQuantity } from './controllers/placement.js'
import { StoreError, type KubeObject, type ObjectStore } from './store.js'

type Obj = Record<string, any>
const ANNOTATION = 'kubernetes.io/limit-ranger'

function containerItems(store: ObjectStore, ns: string): Obj[] {
  const t = store.type('', 'limitranges')
  if (!t) return []
  return store
    .list(t, { namespace: ns })
    .items.flatMap(lr => (lr.spec?.limits ?? []) as Obj[])
    .filter(i => i?.type === 'Container')
}

function merge(c: Obj, req: Obj, lim: Obj, prefix: string, notes: string[]): void {
  const resources = (c.resources ??= {})
  const setLimits: string[] = []
  const setRequests: string[] = []
  for (const [k, v] of Object.entries(lim)) {
    resources.limits ??= {}
    if (resources.limits[k] === undefined) {
      resources.limits[k] = v
      setLimits.push(k)
    }
  }
  for (const [k, v] of Object.entries(req)) {
    resources.requests ??= {}
    if (resources.requests[k] === undefined) {
      resources.requests[k] = v
      setRequests.push(k)
    }
  }
  if (setRequests.length) notes.push(`${setRequests.sort().join(', ')} request for ${prefix} ${c.name}`)
  if (setLimits.length) notes.push(`${setLimits.sort().join(', ')} limit for ${prefix} ${c.name}`)
}

function check(c: Obj, item: Obj, errs: string[]): void {
  const req: Obj = c.resources?.requests ?? {}
  const lim: Obj = c.resources?.limits ?? {}
  for (const [k, min] of Object.entries(item.min ?? {})) {
    const m = parseQuantity(String(min))
    if (req[k] === undefined)
      errs.push(`minimum ${k} usage per Container is ${min}.  No request is specified`)
    else if (parseQuantity(String(req[k])) < m)
      errs.push(`minimum ${k} usage per Container is ${min}, but request is ${req[k]}`)
    else if (lim[k] !== undefined && parseQuantity(String(lim[k])) < m)
      errs.push(`minimum ${k} usage per Container is ${min}, but limit is ${lim[k]}`)
  }
  for (const [k, max] of Object.entries(item.max ?? {})) {
    const m = parseQuantity(String(max))
    if (lim[k] === undefined) errs.push(`maximum ${k} usage per Container is ${max}.  No limit is specified`)
    else if (parseQuantity(String(lim[k])) > m)
      errs.push(`maximum ${k} usage per Container is ${max}, but limit is ${lim[k]}`)
    else if (req[k] !== undefined && parseQuantity(String(req[k])) > m)
      errs.push(`maximum ${k} usage per Container is ${max}, but request is ${req[k]}`)
  }
}

/** Defaults and checks a new pod against its namespace's LimitRanges (throws 403). */
export function limitPod(store: ObjectStore, pod: KubeObject): void {
  const ns = pod.metadata.namespace
  if (!ns || !pod.spec) return
  const items = containerItems(store, ns)
  if (!items.length) return
  const req: Obj = {}
  const lim: Obj = {}
  for (const i of items) {
    Object.assign(req, i.defaultRequest ?? {})
    Object.assign(lim, i.default ?? {})
  }
  const notes: string[] = []
  for (const c of pod.spec.containers ?? []) merge(c, req, lim, 'container', notes)
  for (const c of pod.spec.initContainers ?? []) merge(c, req, lim, 'init container', notes)
  if (notes.length)
    pod.metadata.annotations = {
      ...(pod.metadata.annotations ?? {}),
      [ANNOTATION]: `LimitRanger plugin set: ${notes.join('; ')}`
    }
  const errs: string[] = []
  for (const c of [...(pod.spec.containers ?? []), ...(pod.spec.initContainers ?? [])])
    for (const i of items) check(c, i, errs)
  if (errs.length)
    throw new StoreError(
      403,
      'Forbidden',
      `pods "${pod.metadata.name ?? ''}" is forbidden: ${errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`}`
    )
}
