// Component 1: the subscription feature Microsoft.ContainerService/AKSInfinibandSupport, which
// places a pool's machines on the same physical InfiniBand network, then the provider
// re-registration. Applied by azure/feature.ts; drift reads both states (GETs only).
import { describeArmError } from '../azure/arm-errors.js'
import { ensureInfinibandFeature } from '../azure/feature.js'
import { API_VERSIONS, FEATURE, featurePath, subscriptionPath } from '../model/azure-resources.js'
import type { DriftItem } from '../drift/item.js'
import type { ArmComponent } from './types.js'

const registered = (s: string | undefined): boolean => (s ?? '').toLowerCase() === 'registered'

export const infinibandFeature: ArmComponent = {
  name: 'infiniband-feature',
  kind: 'azure',
  skip: s => (s.registerFeature ? undefined : 'register-feature is false'),
  apply: async ({ clients, log, timeoutMs }) => {
    const r = await ensureInfinibandFeature(clients, { log, timeoutMs })
    return {
      changed: r.changed,
      action: r.changed ? 'updated' : 'unchanged',
      detail: `feature ${r.state}, provider ${r.providerState}`
    }
  },
  desired: s => {
    const providerPath = `${subscriptionPath(s)}/providers/${FEATURE.namespace}`
    return {
      title: `Feature ${FEATURE.namespace}/${FEATURE.name}`,
      azure: [
        { method: 'GET', path: featurePath(s), apiVersion: API_VERSIONS.features, when: 'always' },
        {
          method: 'POST',
          path: `${featurePath(s)}/register`,
          apiVersion: API_VERSIONS.features,
          when: 'state is not Registered'
        },
        {
          method: 'POST',
          path: `${providerPath}/register`,
          apiVersion: API_VERSIONS.resources,
          when: 'after the feature turned Registered'
        },
        {
          method: 'GET',
          path: providerPath,
          apiVersion: API_VERSIONS.resources,
          when: 'poll until registrationState is Registered'
        }
      ]
    }
  },
  readiness: () => ({
    summary: 'feature state Registered (case-insensitive), then the provider Registered',
    conditions: [
      `features/${FEATURE.name} properties.state == Registered`,
      `providers/${FEATURE.namespace} registrationState == Registered`
    ]
  }),
  // The feature and the provider, both Registered.
  drift: async ({ component, clients }) => {
    const out: DriftItem[] = []
    let state: string
    try {
      const f = await clients.features.features.get(FEATURE.namespace, FEATURE.name)
      state = f.properties?.state ?? 'NotSpecified'
    } catch (e) {
      throw new Error(`reading feature ${FEATURE.namespace}/${FEATURE.name} failed: ${describeArmError(e)}`)
    }
    if (!registered(state))
      out.push({
        component,
        field: 'feature.state',
        desired: 'Registered',
        actual: state,
        fixableByApply: true,
        hint:
          state.toLowerCase() === 'pending'
            ? 'registration awaits approval by Microsoft for this subscription; apply keeps waiting for it'
            : 'apply registers the feature, then re-registers the provider'
      })
    let providerState: string
    try {
      const p = await clients.resources.providers.get(FEATURE.namespace)
      providerState = p.registrationState ?? 'Unknown'
    } catch (e) {
      throw new Error(`reading provider ${FEATURE.namespace} failed: ${describeArmError(e)}`)
    }
    if (!registered(providerState))
      out.push({
        component,
        field: 'provider.registrationState',
        desired: 'Registered',
        actual: providerState,
        fixableByApply: true,
        hint: `apply registers the resource provider ${FEATURE.namespace}`
      })
    return out
  }
}
