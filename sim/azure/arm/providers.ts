// Resource providers (Microsoft.Resources, api 2025-04-01): `GET /subscriptions/{sub}/providers/{ns}`
// and `POST .../register`. Every namespace starts Registered (the subscription already runs
// AKS); a register (needed after a feature registration) makes it Registering until the
// `providerPollsUntilRegistered`-th GET after it.
import { json, type SimHttpResponse } from '../http.js'
import type { ArmContext } from './context.js'
import { CONTAINER_SERVICE } from './context.js'

interface ProviderRecord {
  namespace: string
  state: string
  pollsSinceRegister: number
}

export class Providers {
  private readonly providers = new Map<string, ProviderRecord>()

  constructor(private readonly ctx: ArmContext) {}

  get(subscriptionId: string, namespace: string): SimHttpResponse {
    const p = this.record(namespace)
    if (p.state === 'Registering') {
      p.pollsSinceRegister++
      if (p.pollsSinceRegister >= this.ctx.scenario.azure.providerPollsUntilRegistered) p.state = 'Registered'
    }
    // While registering, a poll hint (as for an operation in progress).
    return json(
      200,
      this.body(subscriptionId, p),
      p.state === 'Registering' ? { 'Retry-After': this.ctx.ops.retryAfterSeconds() } : {}
    )
  }

  register(subscriptionId: string, namespace: string): SimHttpResponse {
    const p = this.record(namespace)
    p.state = this.ctx.scenario.azure.providerPollsUntilRegistered <= 0 ? 'Registered' : 'Registering'
    p.pollsSinceRegister = 0
    return json(200, this.body(subscriptionId, p))
  }

  private record(namespace: string): ProviderRecord {
    const key = namespace.toLowerCase()
    let p = this.providers.get(key)
    if (!p) {
      p = {
        namespace: key === CONTAINER_SERVICE.toLowerCase() ? CONTAINER_SERVICE : namespace,
        state: 'Registered',
        pollsSinceRegister: 0
      }
      this.providers.set(key, p)
    }
    return p
  }

  private body(subscriptionId: string, p: ProviderRecord): Record<string, unknown> {
    const isAks = p.namespace === CONTAINER_SERVICE
    return {
      id: `/subscriptions/${subscriptionId}/providers/${p.namespace}`,
      namespace: p.namespace,
      registrationState: p.state,
      registrationPolicy: 'RegistrationRequired',
      resourceTypes: isAks
        ? [
            {
              resourceType: 'managedClusters',
              locations: [this.ctx.cluster.location],
              apiVersions: ['2026-06-01', '2025-10-01'],
              capabilities: 'SupportsTags, SupportsLocation'
            },
            {
              resourceType: 'managedClusters/agentPools',
              locations: [this.ctx.cluster.location],
              apiVersions: ['2026-06-01', '2025-10-01']
            },
            {
              resourceType: 'locations/operations',
              locations: [this.ctx.cluster.location],
              apiVersions: ['2026-06-01']
            }
          ]
        : []
    }
  }
}
