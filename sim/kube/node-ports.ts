// NodePorts of Services, as kube-apiserver's service REST allocates them (kubernetes/kubernetes
// @v1.33.2 pkg/registry/core/service/storage/alloc.go `allocNodePorts` / `updateNodePorts`,
// pkg/registry/core/service/portallocator/allocator.go, the default --service-node-port-range
// 30000-32767): every port of a NodePort Service, or of a LoadBalancer Service unless
// allocateLoadBalancerNodePorts is false, gets a free port of the range (the one it asks for when
// that is in the range and free: else 422 `provided port is not in the valid range` / `provided
// port is already allocated`); ports a Service keeps across an update keep their node port, and a
// Service that becomes ClusterIP gives them back.
import { type FieldError, goValue, invalidError } from './field-errors.js'
import type { KubeObject, ObjectStore, ResourceType } from './store.js'

const FIRST = 30000
const LAST = 32767

function wantsNodePorts(spec: Record<string, any>): boolean {
  if (spec.type === 'NodePort') return true
  return spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts !== false
}

/** Node ports held by other Services. */
function used(store: ObjectStore, t: ResourceType, self: KubeObject): Set<number> {
  const out = new Set<number>()
  for (const s of store.scan(t)) {
    if (s.metadata.namespace === self.metadata.namespace && s.metadata.name === self.metadata.name) continue
    for (const p of s.spec?.ports ?? []) if (p.nodePort) out.add(Number(p.nodePort))
  }
  return out
}

/** Gives `svc` its node ports (or clears them); `old` is the Service before an update. */
export function allocateNodePorts(
  store: ObjectStore,
  t: ResourceType,
  svc: KubeObject,
  old?: KubeObject
): void {
  const spec = (svc.spec ??= {})
  const ports: any[] = Array.isArray(spec.ports) ? spec.ports : []
  if (!wantsNodePorts(spec)) {
    if (spec.type === 'ClusterIP' || spec.type === 'ExternalName') for (const p of ports) delete p.nodePort
    return
  }
  const taken = used(store, t, svc)
  const errs: FieldError[] = []
  const oldPorts: any[] = old?.spec?.ports ?? []
  ports.forEach((p, i) => {
    if (!p || typeof p !== 'object') return
    if (!p.nodePort) {
      const same = oldPorts.find(
        o => o.nodePort && o.port === p.port && (o.protocol ?? 'TCP') === (p.protocol ?? 'TCP')
      )
      if (same && !taken.has(Number(same.nodePort))) p.nodePort = same.nodePort
    }
    if (p.nodePort) {
      const n = Number(p.nodePort)
      const field = `spec.ports[${i}].nodePort`
      if (n < FIRST || n > LAST)
        errs.push({
          type: 'Invalid',
          field,
          value: goValue(n),
          detail: `provided port is not in the valid range. The range of valid ports is ${FIRST}-${LAST}`
        })
      else if (taken.has(n))
        errs.push({ type: 'Invalid', field, value: goValue(n), detail: 'provided port is already allocated' })
      else taken.add(n)
      return
    }
    const size = LAST - FIRST + 1
    const start = Math.floor(Math.random() * size)
    for (let k = 0; k < size; k++) {
      const n = FIRST + ((start + k) % size)
      if (!taken.has(n)) {
        p.nodePort = n
        taken.add(n)
        return
      }
    }
    errs.push({ type: 'Invalid', field: `spec.ports[${i}].nodePort`, value: '0', detail: 'range is full' })
  })
  if (errs.length) throw invalidError(t, svc.metadata.name, errs)
}
