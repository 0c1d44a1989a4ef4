// Drift of one manifest (manifestDrift), decision by decision, over an in-memory API that serves a
// live object and answers dry-run applies as the test says the server would: an absent object; one
// as applied (one GET, no dry run); a field changed behind the action's back (only the fields whose
// dry-run value differs from the live one); a difference the dry run irons out (none); a field apply
// would remove; a field another manager holds (force-conflicts). The client offers no real write:
// calling one throws. Against the simulated API server: test/flow/drift/read-only.test.ts.
import { describe, expect, it } from '@jest/globals'
import { rdmaDevicePluginManifests } from '../../../src/components/rdma-device-plugin.js'
import { nodeFeatureRule } from '../../../src/components/node-feature-rule.js'
import { dryRunPermission, manifestDrift } from '../../../src/drift/manifests.js'
import { shortValue } from '../../../src/drift/paths.js'
import type { KubeReader } from '../../../src/kube/client.js'
import { ApplyConflictError, KubeRequestError } from '../../../src/kube/errors.js'
import type { KubeObject } from '../../../src/kube/types.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'
import { driftItem } from '../../support/drift-items.js'

// Built inside each test (never while the file loads): the mutation run switches mutants on per test.
const settings = () => readSettings(reader({ ...VALID_APPLY })).settings
const configMap = () => rdmaDevicePluginManifests(settings())[0] as KubeObject
const daemonSet = () => rdmaDevicePluginManifests(settings())[1] as KubeObject
const rule = () => nodeFeatureRule() as KubeObject

/** What the action's own apply leaves: the manifest, server defaults, and its managedFields entry. */
function asApplied(m: KubeObject, fieldsV1: unknown = { 'f:metadata': {} }): KubeObject {
  const live = structuredClone(m)
  live.metadata = {
    ...live.metadata,
    uid: 'u-1',
    resourceVersion: '42',
    managedFields: [{ manager: 'aks-rdma-action', operation: 'Apply', fieldsV1 }]
  }
  return live
}

interface Api {
  kube: KubeReader
  calls: string[]
}

/** `live` as the GET answers; `dryRun(desired, live)` as the server's dry-run apply answers. */
function api(live: KubeObject | undefined, dryRun?: (m: KubeObject, live: KubeObject) => KubeObject): Api {
  const calls: string[] = []
  // A KubeReader: drift cannot write (no such method) and lists nothing for one manifest.
  const kube: KubeReader = {
    get: async ref => {
      calls.push(`GET ${ref.kind}/${ref.name}`)
      return live === undefined ? undefined : structuredClone(live)
    },
    list: async (_apiVersion, kind) => {
      throw new Error(`the drift of one manifest lists nothing (asked for ${kind})`)
    },
    dryRunApply: async (m, o = {}) => {
      calls.push(
        `DRY-RUN ${m.kind}/${m.metadata.name}${o.force ? ' force' : ''}${o.live ? ' (live given)' : ''}`
      )
      if (!dryRun) throw new Error('no dry run expected')
      const object = dryRun(structuredClone(m), structuredClone(o.live ?? live!))
      return { object, live: o.live ?? undefined, wouldChange: true }
    }
  }
  return { kube, calls }
}

const component = 'rdma-device-plugin'
const OLDER_PLUGIN = 'ghcr.io/mellanox/k8s-rdma-shared-dev-plugin:v1.5.2'
/** The device plugin's image found at OLDER_PLUGIN: drift that apply fixes, saying how (`hint`). */
function olderPluginImage(hint: string) {
  const c = daemonSet().spec.template.spec.containers[0]
  return driftItem(
    component,
    `daemonset/rdma-shared-dp-ds spec.template.spec.containers[${c.name}].image`,
    shortValue(c.image),
    OLDER_PLUGIN,
    true,
    hint
  )
}

describe('manifestDrift', () => {
  it('an absent object is drift that apply fixes by creating it (namespaced, and cluster-scoped)', async () => {
    const a = api(undefined)
    expect(await manifestDrift(a.kube, configMap(), { component, force: false })).toEqual([
      driftItem(
        component,
        'configmap/rdma-devices',
        'present',
        'absent',
        true,
        'apply creates configmap/rdma-devices -n kube-system'
      )
    ])
    expect(a.calls).toEqual(['GET ConfigMap/rdma-devices'])
    const b = api(undefined)
    expect(
      (await manifestDrift(b.kube, rule(), { component: 'node-feature-rule', force: false }))[0].hint
    ).toBe('apply creates nodefeaturerule/nfd-network-rule')
  })

  it('an object as applied costs one GET and is no drift', async () => {
    const a = api(asApplied(daemonSet()))
    expect(await manifestDrift(a.kube, daemonSet(), { component, force: false })).toEqual([])
    expect(a.calls).toEqual(['GET DaemonSet/rdma-shared-dp-ds'])
  })

  it('a field changed behind the action’s back: that field only, as apply would set it', async () => {
    const live = asApplied(daemonSet())
    live.spec.template.spec.containers[0].image = OLDER_PLUGIN
    live.metadata.labels!.team = 'gpu' // not the action's: never reported
    const a = api(live, m => ({ ...live, spec: m.spec }))
    const items = await manifestDrift(a.kube, daemonSet(), { component, force: true })
    expect(items).toEqual([olderPluginImage('apply sets it on daemonset/rdma-shared-dp-ds -n kube-system')])
    expect(a.calls).toEqual([
      'GET DaemonSet/rdma-shared-dp-ds',
      'DRY-RUN DaemonSet/rdma-shared-dp-ds force (live given)'
    ])
  })

  it('a difference the server irons out (a defaulted value) is no drift', async () => {
    const live = asApplied(configMap())
    live.data['config.json'] = live.data['config.json'] + ' '
    const a = api(live, () => live)
    expect(await manifestDrift(a.kube, configMap(), { component, force: false })).toEqual([])
    expect(a.calls).toHaveLength(2)
  })

  it('a changed label the action sets is reported under metadata', async () => {
    const live = asApplied(daemonSet())
    live.metadata.labels!['aks-rdma-action/managed'] = 'false'
    const a = api(live, m => ({ ...live, metadata: { ...live.metadata, labels: m.metadata.labels } }))
    expect(await manifestDrift(a.kube, daemonSet(), { component, force: false })).toEqual([
      driftItem(
        component,
        'daemonset/rdma-shared-dp-ds metadata.labels[aks-rdma-action/managed]',
        'true',
        'false',
        true,
        'apply sets it on daemonset/rdma-shared-dp-ds -n kube-system'
      )
    ])
  })

  it.each([
    {
      title: 'a field the action applied before and no longer sets: apply removes it',
      managedFields: { 'f:data': { 'f:config.json': {}, 'f:old.json': {} } },
      change: (live: KubeObject): void => {
        live.data['old.json'] = '{}'
      },
      dryRun: (live: KubeObject) => {
        const out = structuredClone(live)
        delete out.data['old.json']
        return out
      },
      field: 'configmap/rdma-devices data.old.json',
      desired: '(absent)',
      actual: 'set, owned by aks-rdma-action',
      hint: 'apply removes it from configmap/rdma-devices -n kube-system'
    },
    {
      title: 'a difference only a dry run sees, with no field to name: the object as a whole',
      managedFields: undefined,
      // applied by someone else: not yet by the action
      change: (live: KubeObject): void => {
        live.metadata.managedFields = []
      },
      dryRun: (live: KubeObject) => ({ ...live, metadata: { ...live.metadata, generation: 2 } }),
      field: 'configmap/rdma-devices',
      desired: 'as applied',
      actual: 'differs (a dry-run apply would change it)',
      hint: 'apply re-applies configmap/rdma-devices -n kube-system'
    }
  ])('$title', async ({ managedFields, change, dryRun, field, desired, actual, hint }) => {
    const live = asApplied(configMap(), managedFields)
    change(live)
    const a = api(live, () => dryRun(live))
    expect(await manifestDrift(a.kube, configMap(), { component, force: false })).toEqual([
      driftItem(component, field, desired, actual, true, hint)
    ])
  })

  it('a field another manager holds: drift that apply fixes only with force-conflicts', async () => {
    const live = asApplied(configMap())
    live.data['config.json'] = '{"configList":[]}'
    const conflict = new ApplyConflictError(
      'configmap/rdma-devices',
      [{ manager: 'kubectl-edit', field: '.data.config.json' }] as never,
      'Apply failed with 1 conflict: conflict with "kubectl-edit": .data.config.json'
    )
    const a = api(live, () => {
      throw conflict
    })
    const [item, ...rest] = await manifestDrift(a.kube, configMap(), { component, force: false })
    expect(rest).toEqual([])
    expect(item).toMatchObject(
      driftItem(
        component,
        'configmap/rdma-devices data[config.json]',
        'configList=[{"resourceName":"hca_shared_devices_a"…; periodicUpdateInterval=300',
        'configList=[]; periodicUpdateInterval=(absent)',
        false
      )
    )
    expect(item.hint).toBe(
      `apply fails on a conflict (${conflict.message}); set \`force-conflicts: true\` to take the fields over`
    )
  })

  it('a conflict with nothing to name: the object as held by another manager', async () => {
    const live = asApplied(configMap())
    live.metadata.managedFields = []
    const a = api(live, () => {
      throw new ApplyConflictError('configmap/rdma-devices', [] as never, 'conflict')
    })
    expect(await manifestDrift(a.kube, configMap(), { component, force: false })).toEqual([
      {
        component,
        field: 'configmap/rdma-devices',
        desired: 'as applied',
        actual: 'held by another manager',
        fixableByApply: false,
        hint: expect.stringMatching(
          /^apply fails on a conflict \(configmap\/rdma-devices: server-side apply conflict: conflict\. .*\); set `force-conflicts: true` to take the fields over$/
        )
      }
    ])
  })

  it('any other failure of the dry run is not drift: it propagates', async () => {
    const live = asApplied(configMap())
    live.data['config.json'] = '{}'
    const a = api(live, () => {
      throw new Error('HTTP 500')
    })
    await expect(manifestDrift(a.kube, configMap(), { component, force: false })).rejects.toThrow('HTTP 500')
  })

  it('a dry run the identity may not make (403): the client-side differences, saying it was not confirmed', async () => {
    const live = asApplied(daemonSet())
    live.spec.template.spec.containers[0].image = OLDER_PLUGIN
    const a = api(live, () => {
      throw new KubeRequestError('dry-run apply', 403, 'daemonsets.apps "rdma-shared-dp-ds" is forbidden')
    })
    const items = await manifestDrift(a.kube, daemonSet(), { component, force: false })
    expect(items).toEqual([
      olderPluginImage(
        'apply sets it on daemonset/rdma-shared-dp-ds -n kube-system (compared without a dry-run apply, which needs patch on daemonsets.apps in namespace kube-system)'
      )
    ])
  })

  it('dryRunPermission names the resource, its group and namespace', () => {
    expect(dryRunPermission(configMap() as never)).toBe('patch on configmaps in namespace kube-system')
    expect(dryRunPermission(rule() as never)).toMatch(/^patch on nodefeaturerules\.nfd\.k8s-sigs\.io/)
    expect(
      dryRunPermission({
        apiVersion: 'mellanox.com/v1alpha1',
        kind: 'NicClusterPolicy',
        metadata: { name: 'x' }
      })
    ).toBe('patch on nicclusterpolicies.mellanox.com')
  })
})
