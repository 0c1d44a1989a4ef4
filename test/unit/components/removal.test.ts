// Uninstall's view of the stack (src/components/removal.ts): the cluster components in reverse
// after the probe leftovers, each removing the objects it applies (namespaces after its release),
// its release by name and chart, and waiting for what its operator ran; an object is the action's
// only with the created-by label (the work namespace with its own labels).
import { COMPONENT_ORDER, kubeComponents } from '../../../src/components/index.js'
import { isMarked, removalOf, uninstallPlan } from '../../../src/components/removal.js'
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
    for (const p of Object.values(byName))
      for (const o of [...p.objects, ...p.namespaces]) expect(o.marks).toEqual({ [LABELS.createdBy]: true })
  })

  it('an object is the action’s only with its marks', () => {
    const [leftovers] = uninstallPlan(settings())
    const marks = leftovers.namespaces[0].marks
    expect(
      isMarked({ 'aks-rdma-action/managed': 'true', 'app.kubernetes.io/name': 'aks-rdma-action' }, marks)
    ).toBe(true)
    expect(isMarked({ 'aks-rdma-action/managed': 'true' }, marks)).toBe(false)
    expect(isMarked({ [LABELS.createdBy]: 'run-1' }, { [LABELS.createdBy]: true })).toBe(true)
    expect(isMarked(undefined, { [LABELS.createdBy]: true })).toBe(false)
  })
})
