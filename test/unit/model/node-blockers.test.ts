// What holds a node out of service: every driver upgrade state NVIDIA's upgrade controller defines
// (k8s-operator-libs pkg/upgrade/consts.go), for both drivers, maps to the node, its state, what it
// means and the command that resolves it; a cordon with no upgrade going on says
// `kubectl uncordon <node>`; settled nodes are not named.
import { describe, expect, it } from '@jest/globals'
import {
  describeBlocker,
  nodeBlockers,
  UPGRADE_DRIVERS,
  UPGRADE_STATES,
  upgradeStateBlocking,
  type NodeLike
} from '../../../src/model/node-blockers.js'

const node = (name: string, labels: Record<string, string> = {}, unschedulable?: boolean): NodeLike => ({
  metadata: { name, labels },
  ...(unschedulable === undefined ? {} : { spec: { unschedulable } })
})

describe('driver upgrade states', () => {
  it('takes the labels NVIDIA’s controller sets: nvidia.com/<driver>-driver-upgrade-state', () => {
    expect(UPGRADE_DRIVERS.ofed.label).toBe('nvidia.com/ofed-driver-upgrade-state')
    expect(UPGRADE_DRIVERS.gpu.label).toBe('nvidia.com/gpu-driver-upgrade-state')
  })

  it('knows every state upstream defines', () => {
    expect([...UPGRADE_STATES].sort()).toEqual(
      [
        'upgrade-required',
        'cordon-required',
        'wait-for-jobs-required',
        'pod-deletion-required',
        'drain-required',
        'node-maintenance-required',
        'post-maintenance-required',
        'pod-restart-required',
        'validation-required',
        'uncordon-required',
        'upgrade-done',
        'upgrade-failed'
      ].sort()
    )
  })

  // [state, what the message says, what the fix says, stuck]
  const cases: Array<[string, RegExp, RegExp, boolean]> = [
    [
      'upgrade-required',
      /out of date; waiting for an upgrade slot/,
      /moves it on once another node's upgrade ends/,
      false
    ],
    ['cordon-required', /about to be cordoned/, /moves it on/, false],
    [
      'wait-for-jobs-required',
      /waitForCompletion/,
      /kubectl get pods -A --field-selector spec\.nodeName=n1/,
      false
    ],
    [
      'pod-deletion-required',
      /deleting the pods that use its GPUs/,
      /gpuPodDeletion\.force.*spec\.nodeName=n1/,
      false
    ],
    ['drain-required', /being drained/, /PodDisruptionBudget.*upgrade-failed.*kubectl get pdb -A/, false],
    [
      'node-maintenance-required',
      /maintenance operator/,
      /kubectl get nodemaintenances -A --field-selector spec\.nodeName=n1/,
      false
    ],
    ['post-maintenance-required', /maintenance operator/, /nodemaintenances/, false],
    ['pod-restart-required', /driver pod is being replaced/, /new driver pod is Ready/, false],
    [
      'validation-required',
      /being validated/,
      /app=nvidia-operator-validator --field-selector spec\.nodeName=n1/,
      false
    ],
    ['uncordon-required', /about to be uncordoned/, /kubectl uncordon n1/, false],
    ['upgrade-failed', /failed and the node stays cordoned/, /^kubectl drain n1 --ignore-daemonsets/, true]
  ]

  it.each(cases)('%s: says what holds the node and what resolves it', (state, message, fix, stuck) => {
    for (const driver of ['ofed', 'gpu'] as const) {
      const b = upgradeStateBlocking(driver, state, 'n1')!
      expect(b.message).toContain(`(${UPGRADE_DRIVERS[driver].label}=${state})`)
      expect(b.message).toMatch(message)
      expect(b.fix).toMatch(fix)
      expect(b.stuck).toBe(stuck)
    }
  })

  it('names each driver’s own pods and operator in the fix', () => {
    expect(upgradeStateBlocking('ofed', 'upgrade-failed', 'n1')!.fix).toContain(
      'kubectl delete pod -n network-operator -l nvidia.com/ofed-driver --field-selector spec.nodeName=n1'
    )
    expect(upgradeStateBlocking('gpu', 'upgrade-failed', 'n1')!.fix).toContain(
      'kubectl delete pod -n gpu-operator -l app=nvidia-driver-daemonset --field-selector spec.nodeName=n1'
    )
    expect(upgradeStateBlocking('ofed', 'pod-restart-required', 'n1')!.fix).toContain(
      '-n network-operator -l nvidia.com/ofed-driver'
    )
    expect(upgradeStateBlocking('gpu', 'upgrade-failed', 'n1')!.message).toMatch(/^GPU driver upgrade failed/)
    expect(upgradeStateBlocking('ofed', 'drain-required', 'n1')!.message).toMatch(
      /^OFED driver upgrade in progress/
    )
  })

  it('holds nothing when settled (absent or upgrade-done), and names a state it does not know', () => {
    expect(upgradeStateBlocking('gpu', '', 'n1')).toBeUndefined()
    expect(upgradeStateBlocking('gpu', 'upgrade-done', 'n1')).toBeUndefined()
    const odd = upgradeStateBlocking('gpu', 'rebooting', 'n1')!
    expect(odd.message).toContain('=rebooting')
    expect(odd.fix).toContain('GPU Operator')
  })
})

describe('nodeBlockers', () => {
  it('names a node left cordoned with no upgrade going on: kubectl uncordon', () => {
    const [b, ...rest] = nodeBlockers(
      node('aks-rdmapool-1', { 'nvidia.com/ofed-driver-upgrade-state': 'upgrade-done' }, true)
    )
    expect(rest).toEqual([])
    expect(b).toMatchObject({
      node: 'aks-rdmapool-1',
      cause: 'cordoned',
      fix: 'kubectl uncordon aks-rdmapool-1',
      stuck: true
    })
    expect(describeBlocker(b)).toMatch(/^aks-rdmapool-1: cordoned .*; fix: kubectl uncordon aks-rdmapool-1$/)
  })

  it('names the upgrade holding a cordoned node instead of the cordon, one per driver', () => {
    const bs = nodeBlockers(
      node(
        'n2',
        {
          'nvidia.com/ofed-driver-upgrade-state': 'drain-required',
          'nvidia.com/gpu-driver-upgrade-state': 'upgrade-required'
        },
        true
      )
    )
    expect(bs.map(b => [b.cause, b.state])).toEqual([
      ['ofed', 'drain-required'],
      ['gpu', 'upgrade-required']
    ])
  })

  it('reads the annotation older Network Operators kept the OFED state in when there is no label', () => {
    const old: NodeLike = {
      metadata: { name: 'n5', labels: {}, annotations: { 'nvidia.com/ofed-upgrade-state': 'drain-required' } }
    }
    const [b] = nodeBlockers(old)
    expect(b).toMatchObject({ cause: 'ofed', state: 'drain-required' })
    expect(b.message).toContain('(nvidia.com/ofed-upgrade-state=drain-required)')
    // The label, when there, is what the controller keeps now.
    old.metadata.labels = { 'nvidia.com/ofed-driver-upgrade-state': 'upgrade-done' }
    expect(nodeBlockers(old)).toEqual([])
  })

  it('names nothing on a schedulable node with settled upgrades', () => {
    expect(
      nodeBlockers(node('n3', { 'nvidia.com/gpu-driver-upgrade-state': 'upgrade-done' }, false))
    ).toEqual([])
    expect(nodeBlockers(node('n4'))).toEqual([])
  })
})
