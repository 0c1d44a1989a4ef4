// The endpoints and EndpointSlice controllers of kube-controller-manager (kubernetes/kubernetes
// @v1.33.2 pkg/controller/endpoint/endpoints_controller.go; pkg/controller/endpointslice/
// reconciler.go and staging/src/k8s.io/endpointslice/utils.go): for every Service with a selector,
// an Endpoints object of its name (ready pods' IPs under `addresses`, the others under
// `notReadyAddresses` unless publishNotReadyAddresses, terminating pods left out; each with its
// nodeName and targetRef; ports by targetPort, a name resolved against the pod's container ports)
// and an EndpointSlice `<service>-<suffix>` (labels `kubernetes.io/service-name` and
// `endpointslice.kubernetes.io/managed-by: endpointslice-controller.k8s.io`, owned by the Service,
// addressType IPv4, one endpoint per pod with its ready / serving / terminating conditions).
// Services without a selector are left to whoever writes their endpoints.
import type { KubeObject } from '../store.js'
import { sameJson } from '../store.js'
import { matchesLabelSelectorObject } from '../selectors.js'
import {
  createIfAbsent,
  deleteIfPresent,
  isPodReady,
  ownerRef,
  randomSuffix,
  TK,
  typeFromKey,
  type SimContext
} from './context.js'
import type { Reconciler } from './queue.js'

const SLICE_KEY = 'endpointslices.discovery.k8s.io'
const SERVICE_NAME = 'kubernetes.io/service-name'
const MANAGED_BY = 'endpointslice.kubernetes.io/managed-by'
const SLICE_CONTROLLER = 'endpointslice-controller.k8s.io'

/** podutil.FindPort: a number, or a named container port of the pod. */
function resolvePort(pod: KubeObject, target: unknown): number | undefined {
  if (typeof target === 'number') return target
  if (typeof target === 'string' && /^\d+$/.test(target)) return Number(target)
  for (const c of pod.spec?.containers ?? [])
    for (const p of c.ports ?? []) if (p.name === target) return p.containerPort
  return undefined
}

/** The Service's ports as the pod serves them; slices name every port ("" for an unnamed one). */
function portsFor(
  svc: KubeObject,
  pod: KubeObject,
  slice = false
): Array<{ name?: string; port: number; protocol: string }> {
  const out: Array<{ name?: string; port: number; protocol: string }> = []
  for (const sp of svc.spec?.ports ?? []) {
    const port = resolvePort(pod, sp.targetPort ?? sp.port)
    if (port === undefined) continue
    out.push({ ...(sp.name || slice ? { name: sp.name ?? '' } : {}), port, protocol: sp.protocol ?? 'TCP' })
  }
  return out
}

const targetRef = (p: KubeObject) => ({
  kind: 'Pod',
  namespace: p.metadata.namespace,
  name: p.metadata.name,
  uid: p.metadata.uid
})

export class EndpointsController implements Reconciler {
  readonly name = 'endpoints'
  constructor(private readonly ctx: SimContext) {
    ctx.cache.onEvent((e, tk) => {
      const o = e.object
      if (tk === 'services') ctx.queue.add(this, `${o.metadata.namespace}/${o.metadata.name}`)
      else if (tk === TK.pods)
        for (const svc of ctx.cache.list('services', o.metadata.namespace))
          if (svc.spec?.selector) ctx.queue.add(this, `${svc.metadata.namespace}/${svc.metadata.name}`)
    })
    for (const svc of ctx.cache.list('services'))
      ctx.queue.add(this, `${svc.metadata.namespace}/${svc.metadata.name}`)
  }

  reconcile(key: string): void {
    const [ns, name] = key.split('/')
    const svc = this.ctx.cache.get('services', ns, name)
    const epT = typeFromKey(this.ctx, 'endpoints')
    const sliceT = typeFromKey(this.ctx, SLICE_KEY)
    const slices = this.ctx.cache
      .list(SLICE_KEY, ns)
      .filter(
        s =>
          s.metadata.labels?.[SERVICE_NAME] === name && s.metadata.labels?.[MANAGED_BY] === SLICE_CONTROLLER
      )
    if (!svc || svc.metadata.deletionTimestamp) {
      if (epT && this.ctx.cache.get('endpoints', ns, name)) deleteIfPresent(this.ctx, epT, ns, name)
      if (sliceT) for (const s of slices) deleteIfPresent(this.ctx, sliceT, ns, s.metadata.name)
      return
    }
    const selector = svc.spec?.selector
    if (!selector || !Object.keys(selector).length || svc.spec?.type === 'ExternalName') return
    const pods = this.ctx.cache
      .list(TK.pods, ns)
      .filter(p => matchesLabelSelectorObject({ matchLabels: selector }, p.metadata.labels ?? {}))
      .filter(p => p.status?.podIP && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed')
      .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))
    if (epT) this.writeEndpoints(epT, svc, pods)
    if (sliceT) this.writeSlice(sliceT, svc, pods, slices)
  }

  private writeEndpoints(
    t: NonNullable<ReturnType<typeof typeFromKey>>,
    svc: KubeObject,
    pods: KubeObject[]
  ): void {
    const { namespace: ns, name } = svc.metadata
    const publishNotReady = svc.spec?.publishNotReadyAddresses === true
    const ready: any[] = []
    const notReady: any[] = []
    let ports: any[] | undefined
    for (const p of pods) {
      if (p.metadata.deletionTimestamp && !publishNotReady) continue
      const addr = { ip: p.status.podIP, nodeName: p.spec?.nodeName, targetRef: targetRef(p) }
      if (isPodReady(p) || publishNotReady) ready.push(addr)
      else notReady.push(addr)
      ports ??= portsFor(svc, p)
    }
    const subsets =
      ready.length || notReady.length
        ? [
            {
              ...(ready.length ? { addresses: ready } : {}),
              ...(notReady.length ? { notReadyAddresses: notReady } : {}),
              ...(ports?.length ? { ports } : {})
            }
          ]
        : undefined
    const labels = { ...(svc.metadata.labels ?? {}) }
    const cur = this.ctx.cache.get('endpoints', ns, name)
    if (!cur) {
      createIfAbsent(this.ctx, t, {
        apiVersion: 'v1',
        kind: 'Endpoints',
        metadata: { name, namespace: ns, ...(Object.keys(labels).length ? { labels } : {}) },
        ...(subsets ? { subsets } : {})
      } as KubeObject)
      return
    }
    if (sameJson(cur.subsets, subsets) && sameJson(cur.metadata.labels ?? {}, labels)) return
    this.ctx.store.mutate(t, ns, name, o => {
      if (subsets) o.subsets = subsets
      else delete o.subsets
      if (Object.keys(labels).length) o.metadata.labels = labels
      else delete o.metadata.labels
    })
  }

  private writeSlice(
    t: NonNullable<ReturnType<typeof typeFromKey>>,
    svc: KubeObject,
    pods: KubeObject[],
    slices: KubeObject[]
  ): void {
    const { namespace: ns, name } = svc.metadata
    const publishNotReady = svc.spec?.publishNotReadyAddresses === true
    let ports: any[] | undefined
    const endpoints = pods.map(p => {
      ports ??= portsFor(svc, p, true)
      const terminating = !!p.metadata.deletionTimestamp
      const podReady = isPodReady(p)
      return {
        addresses: [p.status.podIP],
        conditions: { ready: (podReady && !terminating) || publishNotReady, serving: podReady, terminating },
        ...(p.spec?.nodeName ? { nodeName: p.spec.nodeName } : {}),
        targetRef: targetRef(p)
      }
    })
    const labels = { ...(svc.metadata.labels ?? {}), [SERVICE_NAME]: name, [MANAGED_BY]: SLICE_CONTROLLER }
    // An empty slice (no pods yet) carries null endpoints and ports, as the placeholder does.
    const body = { addressType: 'IPv4', endpoints: endpoints.length ? endpoints : null, ports: ports ?? null }
    const [keep, ...extra] = slices
    for (const s of extra) deleteIfPresent(this.ctx, t, ns, s.metadata.name)
    if (!keep) {
      createIfAbsent(this.ctx, t, {
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: {
          name: `${name}-${randomSuffix()}`,
          namespace: ns,
          labels,
          ownerReferences: [ownerRef(svc)]
        },
        ...body
      } as KubeObject)
      return
    }
    if (
      sameJson(keep.endpoints ?? null, body.endpoints) &&
      sameJson(keep.ports ?? null, body.ports) &&
      sameJson(keep.metadata.labels ?? {}, labels)
    )
      return
    this.ctx.store.mutate(t, ns, keep.metadata.name, o => {
      o.endpoints = endpoints
      o.ports = body.ports
      o.metadata.labels = labels
    })
  }
}
