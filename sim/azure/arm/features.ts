// Microsoft.Features (api 2021-07-01): `GET .../providers/Microsoft.Features/providers/{ns}/features/{name}`
// and `POST .../register`. Microsoft.ContainerService/AKSInfinibandSupport follows
// `scenario.azure.feature`: NotRegistered → (register) Registering → Registered at the
// `pollsUntilRegistered`-th GET after the register; `Pending` (needs approval) never completes,
// unless `pendingPolls` is set: it answers Pending that many GETs, then Registered (approved);
// `Registered` from the start. Every other feature behaves like a fresh NotRegistered one with the
// same poll count. Bodies have the shape of getFeature.json / registerFeature.json (with the live
// service's PascalCase states).
import { json, type SimHttpResponse } from '../http.js'
import type { ArmContext } from './context.js'

interface FeatureRecord {
  namespace: string
  name: string
  state: string
  pollsSinceRegister: number
  /** GETs answered while Pending. */
  pendingPolls: number
}

export const INFINIBAND_FEATURE = { namespace: 'Microsoft.ContainerService', name: 'AKSInfinibandSupport' }

export class Features {
  private readonly features = new Map<string, FeatureRecord>()

  constructor(private readonly ctx: ArmContext) {}

  get(subscriptionId: string, namespace: string, name: string): SimHttpResponse {
    const f = this.record(namespace, name)
    const approveAt = this.ctx.scenario.azure.feature.pendingPolls
    if (f.state === 'Pending' && approveAt !== undefined && ++f.pendingPolls > approveAt)
      f.state = 'Registered'
    if (f.state === 'Registering') {
      f.pollsSinceRegister++
      if (f.pollsSinceRegister >= this.ctx.scenario.azure.feature.pollsUntilRegistered) f.state = 'Registered'
    }
    // While registering, a poll hint (as for an operation in progress).
    return json(
      200,
      this.body(subscriptionId, f),
      f.state === 'Registering' ? { 'Retry-After': this.ctx.ops.retryAfterSeconds() } : {}
    )
  }

  register(subscriptionId: string, namespace: string, name: string): SimHttpResponse {
    const f = this.record(namespace, name)
    if (f.state === 'NotRegistered' || f.state === 'Unregistered') {
      f.state = this.ctx.scenario.azure.feature.pollsUntilRegistered <= 0 ? 'Registered' : 'Registering'
      f.pollsSinceRegister = 0
    }
    return json(200, this.body(subscriptionId, f))
  }

  /** Current state without counting a poll (for inspection). */
  stateOf(namespace: string, name: string): string {
    return this.record(namespace, name).state
  }

  private record(namespace: string, name: string): FeatureRecord {
    const key = `${namespace}/${name}`.toLowerCase()
    let f = this.features.get(key)
    if (!f) {
      const isIb = key === `${INFINIBAND_FEATURE.namespace}/${INFINIBAND_FEATURE.name}`.toLowerCase()
      f = {
        namespace: isIb ? INFINIBAND_FEATURE.namespace : namespace,
        name: isIb ? INFINIBAND_FEATURE.name : name,
        state: isIb ? this.ctx.scenario.azure.feature.state : 'NotRegistered',
        pollsSinceRegister: 0,
        pendingPolls: 0
      }
      this.features.set(key, f)
    }
    return f
  }

  private body(subscriptionId: string, f: FeatureRecord): Record<string, unknown> {
    return {
      properties: { state: f.state },
      id: `/subscriptions/${subscriptionId}/providers/Microsoft.Features/providers/${f.namespace}/features/${f.name}`,
      type: 'Microsoft.Features/providers/features',
      name: `${f.namespace}/${f.name}`
    }
  }
}
