// Uninstall's view of the stack (src/components/removal.ts): the cluster components in reverse
// after the probe leftovers, each removing the objects it applies (namespaces after its release),
// its release by name and chart, and waiting for what its operator ran; no label makes anything the
// action's (the ownership record does: test/unit/stack/ownership.test.ts).
import { COMPONENT_ORDER, kubeComponents } from '../../../src/components/index.js'
import { removalOf, uninstallPlan } from '../../../src/components/removal.js'
import { LABELS } from '../../../src/model/types.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'

const settings = () => readSettings(reader({ ...VALID_APPLY }), {}).settings

describe('removal', () => {
  it('walks the cluster components in reverse, after the probe leftovers', () => {
    const kube = COMPONENT_ORDER.filter(n => kubeComponents().some(c => c.name === n))
    expect(uninstallPlan(settings()).map(p => p.name)).toEqual(['probe-leftovers', ...[...kube].reverse()])
  })

  it('removes each component’s objects in reverse, its release by name and chart, its namespace last', () => {
    const s = settings()
    const byName = Object.fromEntries(kubeComponents().map(c => [c.name, removalOf(c, s)]))
    expect(byName['rdma-device-plugin'].objects.map(o => `${o.kind}/${o.namespace}/${o.name}`)).toEqual([
      'DaemonSet/kube-system/rdma-shared-dp-ds',
      'ConfigMap/kube-system/rdma-devices'
    ])
    expect(byName['gpu-operator']).toMatchObject({
      objects: [],
      release: { release: 'gpu-operator', namespace: 'gpu-operator', chart: 'gpu-operator' },
      namespaces: [{ kind: 'Namespace', name: 'gpu-operator' }]
    })
    expect(byName['nic-cluster-policy'].leftovers.map(l => [l.kind, l.namespace, l.labelSelector])).toEqual([
      ['DaemonSet', 'network-operator', LABELS.ofedDriverPod],
      ['Pod', 'network-operator', LABELS.ofedDriverPod]
    ])
    // A reference only: what proves it the action's is the record, never a label on it.
    for (const p of Object.values(byName))
      for (const o of [...p.objects, ...p.namespaces])
        expect(Object.keys(o).sort()).toEqual(
          o.namespace ? ['apiVersion', 'kind', 'name', 'namespace'] : ['apiVersion', 'kind', 'name']
        )
  })
})
