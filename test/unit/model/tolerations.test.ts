// Which taints keep a pod off a node, as the scheduler and the DaemonSet controller decide it
// (kubernetes v1.33 staging/src/k8s.io/api/core/v1/toleration.go ToleratesTaint: an empty key with
// Exists matches every taint, Exists matches any value of its key, Equal needs the value, an empty
// effect matches every effect), the tolerations a DaemonSet's pods get by themselves, and which
// taints are the user's (final) rather than Kubernetes' own (they pass).
import { describe, expect, it } from '@jest/globals'
import {
  blockingTaints,
  describeTaint,
  GPU_TOLERATION,
  taintNote,
  toleratesTaint,
  untoleratedTaints
} from '../../../src/model/tolerations.js'

const taint = (key: string, value: string | undefined, effect: string) => ({ key, value, effect })
const node = (...taints: Array<ReturnType<typeof taint>>) => ({ metadata: { name: 'n1' }, spec: { taints } })

describe('toleratesTaint', () => {
  const sku = taint('sku', 'gpu', 'NoSchedule')
  it('matches key, operator, value and effect as Kubernetes does', () => {
    expect(toleratesTaint({ key: 'sku', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }, sku)).toBe(
      true
    )
    expect(toleratesTaint({ key: 'sku', value: 'gpu' }, sku)).toBe(true)
    expect(toleratesTaint({ key: 'sku', operator: 'Equal', value: 'cpu' }, sku)).toBe(false)
    expect(toleratesTaint({ key: 'sku', operator: 'Exists' }, sku)).toBe(true)
    expect(toleratesTaint({ key: 'other', operator: 'Exists' }, sku)).toBe(false)
    expect(toleratesTaint({ key: 'sku', operator: 'Exists', effect: 'NoExecute' }, sku)).toBe(false)
  })
  it('an empty key tolerates every taint only with Exists', () => {
    expect(toleratesTaint({ operator: 'Exists' }, sku)).toBe(true)
    expect(toleratesTaint({ operator: 'Exists', effect: 'NoSchedule' }, sku)).toBe(true)
    expect(toleratesTaint({ operator: 'Exists', effect: 'NoExecute' }, sku)).toBe(false)
    expect(toleratesTaint({ operator: 'Equal' }, sku)).toBe(false)
    expect(toleratesTaint({}, sku)).toBe(false)
  })
  it('an absent value equals an empty one', () => {
    expect(
      toleratesTaint({ key: 'dedicated', operator: 'Equal' }, taint('dedicated', undefined, 'NoSchedule'))
    ).toBe(true)
    expect(toleratesTaint({ key: 'dedicated', value: '' }, taint('dedicated', '', 'NoSchedule'))).toBe(true)
    expect(
      toleratesTaint({ key: 'dedicated', value: 'x' }, taint('dedicated', undefined, 'NoSchedule'))
    ).toBe(false)
  })
})

describe('untoleratedTaints', () => {
  it('counts only NoSchedule and NoExecute taints', () => {
    const n = node(
      taint('a', '1', 'PreferNoSchedule'),
      taint('b', '1', 'NoSchedule'),
      taint('c', '1', 'NoExecute')
    )
    expect(untoleratedTaints(n, [], { daemonSet: false }).map(t => t.key)).toEqual(['b', 'c'])
  })
  it("gives a DaemonSet's pods the node.kubernetes.io tolerations the controller adds", () => {
    const n = node(
      taint('node.kubernetes.io/not-ready', undefined, 'NoExecute'),
      taint('node.kubernetes.io/unschedulable', undefined, 'NoSchedule'),
      taint('node.kubernetes.io/network-unavailable', undefined, 'NoSchedule')
    )
    expect(untoleratedTaints(n, [], { daemonSet: true })).toEqual([])
    expect(untoleratedTaints(n, [], { daemonSet: false })).toHaveLength(3)
  })
  it('ignores tolerations that are not objects, and a node without taints', () => {
    const n = node(taint('nvidia.com/gpu', 'present', 'NoSchedule'))
    expect(untoleratedTaints(n, [null, 'x', ['y'], GPU_TOLERATION], { daemonSet: false })).toEqual([])
    expect(untoleratedTaints(n, undefined, { daemonSet: false })).toHaveLength(1)
    expect(untoleratedTaints({ metadata: {} }, [], { daemonSet: false })).toEqual([])
    expect(untoleratedTaints({ metadata: {}, spec: { taints: 'x' } }, [], { daemonSet: false })).toEqual([])
  })
})

describe('blockingTaints and taintNote', () => {
  it("keep the user's taints only: Kubernetes' and the autoscaler's own come and go", () => {
    const n = node(
      taint('node.cloudprovider.kubernetes.io/uninitialized', 'true', 'NoSchedule'),
      taint('ToBeDeletedByClusterAutoscaler', '1700000000', 'NoSchedule'),
      taint('DeletionCandidateOfClusterAutoscaler', '1700000000', 'NoSchedule'),
      taint('node.kubernetes.io/out-of-service', 'x', 'NoExecute'),
      taint('sku', 'gpu', 'NoSchedule')
    )
    expect(blockingTaints(n, []).map(describeTaint)).toEqual(['sku=gpu:NoSchedule'])
  })
  it('says which taints a workload does not tolerate, one or several, and where the fix goes', () => {
    expect(taintNote(node(taint('sku', 'gpu', 'NoSchedule')), [GPU_TOLERATION], 'the probe')).toBe(
      ' — node taint sku=gpu:NoSchedule is not tolerated by the probe, so it is never scheduled there (add the taint to node-taints so the stack tolerates it)'
    )
    expect(
      taintNote(
        node(taint('a', undefined, 'NoSchedule'), taint('b', 'x', 'NoExecute')),
        [],
        'the plugin',
        'tolerate it'
      )
    ).toBe(
      ' — node taints a:NoSchedule, b=x:NoExecute are not tolerated by the plugin, so it is never scheduled there (tolerate it)'
    )
    expect(taintNote(node(taint('nvidia.com/gpu', 'present', 'NoSchedule')), [GPU_TOLERATION], 'x')).toBe('')
  })
})
