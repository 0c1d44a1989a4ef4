// The nodes that hold a step while it waits: the progress line's and the timeout's words for them,
// label selectors as a PodDisruptionBudget has them, and the pods on a held node that stand in the
// upgrade's way — no controller, emptyDir, a budget that allows no disruption — each with its fix,
// DaemonSet pods and pods that ended left out, the GPU pods first for the GPU driver.
import { describe, expect, it } from '@jest/globals'
import type { KubeObject } from '../../../src/kube/types.js'
import { nodeBlockers } from '../../../src/model/node-blockers.js'
import {
  HeldNodes,
  heldDetail,
  heldSuffix,
  podsHolding,
  selectorMatches
} from '../../../src/stack/held-nodes.js'
import { captureLog } from '../../support/capture-log.js'
import type { HealthVerdict } from '../../../src/health/types.js'
import { memoryKube } from '../../support/memory-kube.js'

const node = (name: string, labels: Record<string, string>, unschedulable = true) => ({
  metadata: { name, labels },
  spec: { unschedulable }
})
const pod = (
  name: string,
  o: {
    gpu?: boolean
    owner?: string
    emptyDir?: boolean
    labels?: Record<string, string>
    phase?: string
  } = {}
): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name,
    namespace: 'team',
    labels: o.labels ?? {},
    ...(o.owner
      ? {
          ownerReferences: [{ apiVersion: 'apps/v1', kind: o.owner, name: 'x', uid: 'u1', controller: true }]
        }
      : {})
  },
  spec: {
    nodeName: 'n1',
    containers: [{ name: 'c', ...(o.gpu ? { resources: { limits: { 'nvidia.com/gpu': '1' } } } : {}) }],
    ...(o.emptyDir ? { volumes: [{ name: 'scratch', emptyDir: {} }] } : {})
  },
  status: { phase: o.phase ?? 'Running' }
})

describe('held nodes in words', () => {
  it('names each held node with its state on the progress line, and with its fix on timeout', () => {
    const held = [
      ...nodeBlockers(node('n1', { 'nvidia.com/gpu-driver-upgrade-state': 'drain-required' })),
      ...nodeBlockers(node('n2', {}))
    ]
    const v = { held } as unknown as HealthVerdict
    expect(heldSuffix(v)).toBe(
      '; held: n1 (nvidia.com/gpu-driver-upgrade-state=drain-required), n2 (cordoned)'
    )
    expect(heldDetail(v)).toMatch(
      /^; held: n1: GPU driver upgrade in progress .*; n2: cordoned .*fix: kubectl uncordon n2$/
    )
    expect(heldSuffix({} as HealthVerdict)).toBe('')
    expect(heldDetail(undefined)).toBe('')
  })
})

describe('selectorMatches', () => {
  it('reads matchLabels and matchExpressions; no selector matches nothing', () => {
    const l = { app: 'a', tier: 'gpu' }
    expect(selectorMatches({ matchLabels: { app: 'a' } }, l)).toBe(true)
    expect(selectorMatches({ matchLabels: { app: 'b' } }, l)).toBe(false)
    expect(selectorMatches({}, l)).toBe(true)
    expect(selectorMatches(undefined, l)).toBe(false)
    expect(selectorMatches({ matchExpressions: [{ key: 'tier', operator: 'In', values: ['gpu'] }] }, l)).toBe(
      true
    )
    expect(
      selectorMatches({ matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['gpu'] }] }, l)
    ).toBe(false)
    expect(selectorMatches({ matchExpressions: [{ key: 'x', operator: 'Exists' }] }, l)).toBe(false)
    expect(selectorMatches({ matchExpressions: [{ key: 'x', operator: 'DoesNotExist' }] }, l)).toBe(true)
    expect(selectorMatches({ matchExpressions: [{ key: 'x', operator: 'Gt' }] }, l)).toBe(false)
  })
})

describe('podsHolding', () => {
  const objects = (): KubeObject[] => [
    pod('bare', { gpu: true }),
    pod('scratch', { gpu: true, owner: 'ReplicaSet', emptyDir: true }),
    pod('guarded', { gpu: true, owner: 'ReplicaSet', labels: { app: 'trainer' } }),
    pod('fine', { gpu: true, owner: 'ReplicaSet' }),
    pod('agent', { gpu: true, owner: 'DaemonSet' }),
    pod('done', { gpu: true, phase: 'Succeeded' }),
    pod('cpu-only'),
    {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'trainer', namespace: 'team' },
      spec: { selector: { matchLabels: { app: 'trainer' } } },
      status: { disruptionsAllowed: 0 }
    }
  ]

  it('names the GPU pods in the way with why and the fix', async () => {
    const { kube } = memoryKube({ objects: objects() })
    const [b] = nodeBlockers(node('n1', { 'nvidia.com/gpu-driver-upgrade-state': 'upgrade-failed' }))
    const lines = await podsHolding(kube, b)
    // In the order the API server lists them (by name).
    expect(lines).toEqual([
      expect.stringMatching(/^pod team\/bare on n1: no controller .*fix: kubectl delete pod -n team bare/),
      expect.stringMatching(
        /^pod team\/guarded on n1: PodDisruptionBudget team\/trainer allows no disruption/
      ),
      expect.stringMatching(/^pod team\/scratch on n1: emptyDir volume/)
    ])
  })

  it('looks at every pod a drain removes, and lists them when none is refused', async () => {
    const { kube } = memoryKube({
      objects: [pod('fine', { owner: 'ReplicaSet' }), pod('agent', { owner: 'DaemonSet' })]
    })
    const [b] = nodeBlockers(node('n1', { 'nvidia.com/ofed-driver-upgrade-state': 'drain-required' }))
    expect(await podsHolding(kube, b)).toEqual(['1 pod(s) still on n1: team/fine'])
  })
})

describe('HeldNodes', () => {
  it('warns once per node and state that needs a person or has pods in the way, not for passing states', async () => {
    const { kube } = memoryKube({ objects: [pod('bare', { gpu: true })] })
    const log = captureLog()
    const held = new HeldNodes(kube, log, 'gpu-operator')
    const verdict = (labels: Record<string, string>, unschedulable = true) =>
      ({ held: nodeBlockers(node('n1', labels, unschedulable)) }) as unknown as HealthVerdict
    const gpu = 'nvidia.com/gpu-driver-upgrade-state'
    held.onVerdict(verdict({ [gpu]: 'cordon-required' }))
    held.onVerdict(verdict({ [gpu]: 'upgrade-failed' }))
    held.onVerdict(verdict({ [gpu]: 'upgrade-failed' }))
    const lines = await held.lines()
    expect(log.warnings).toEqual([
      expect.stringMatching(/^gpu-operator: n1: GPU driver upgrade failed .*fix: kubectl drain n1/),
      expect.stringMatching(/^gpu-operator: pod team\/bare on n1: no controller/)
    ])
    expect(lines).toEqual([
      expect.stringMatching(/^n1: GPU driver upgrade failed/),
      expect.stringMatching(/^ {2}pod team\/bare on n1/)
    ])
  })

  it('still names the node when its pods cannot be read', async () => {
    const m = memoryKube()
    m.failAlways.set('list', new Error('pods is forbidden'))
    const log = captureLog()
    const held = new HeldNodes(m.kube, log, 'nic-cluster-policy')
    held.onVerdict({
      held: nodeBlockers(node('n2', { 'nvidia.com/ofed-driver-upgrade-state': 'drain-required' }))
    } as unknown as HealthVerdict)
    await held.lines()
    expect(log.warnings).toEqual([
      expect.stringMatching(/^nic-cluster-policy: n2: OFED driver upgrade in progress .*drain-required/),
      expect.stringMatching(/^nic-cluster-policy: the pods on n2 could not be read: .*forbidden/)
    ])
  })
})
