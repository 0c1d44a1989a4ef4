// A pod's QoS class as the pod strategy's PrepareForCreate sets it (kubernetes/kubernetes@v1.33.2
// pkg/apis/core/helper/qos/qos.go `GetPodQOS`, pod-level resources off): only cpu and memory count;
// no positive request or limit in any container → BestEffort; every container limiting both, with
// each summed request equal to its summed limit → Guaranteed; else Burstable.
import { parseQuantity } from './controllers/placement.js'
import type { KubeObject } from './store.js'

const QOS_RESOURCES = ['cpu', 'memory']

export function podQosClass(pod: KubeObject): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  const requests = new Map<string, number>()
  const limits = new Map<string, number>()
  let guaranteed = true
  const all: any[] = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])]
  for (const c of all) {
    for (const [name, q] of Object.entries(c?.resources?.requests ?? {})) {
      const v = parseQuantity(String(q))
      if (QOS_RESOURCES.includes(name) && v > 0) requests.set(name, (requests.get(name) ?? 0) + v)
    }
    const found = new Set<string>()
    for (const [name, q] of Object.entries(c?.resources?.limits ?? {})) {
      const v = parseQuantity(String(q))
      if (QOS_RESOURCES.includes(name) && v > 0) {
        limits.set(name, (limits.get(name) ?? 0) + v)
        found.add(name)
      }
    }
    if (!QOS_RESOURCES.every(r => found.has(r))) guaranteed = false
  }
  if (!requests.size && !limits.size) return 'BestEffort'
  if (guaranteed)
    for (const [name, req] of requests)
      if (limits.get(name) === undefined || limits.get(name) !== req) guaranteed = false
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable'
}
