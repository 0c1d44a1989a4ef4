// The node probe's pods read without a cluster: the node a DaemonSet pod is for (bound, or named by
// its affinity), and the facts a pod gives for its node at each stage — none at all, unschedulable,
// its probe container stuck (a fail-fast reason), not finished by the deadline, exited non-zero
// (the code, the reason and the output's own problem), or finished with its output read.
import {
  factsFromPod,
  pinToNode,
  pinToNodes,
  podTargetNode,
  probeLabels,
  probeName
} from '../../../src/verify/probe.js'
import type { KubeObject } from '../../../src/kube/types.js'
import { emptyFacts } from '../../../src/verify/probe-output.js'
import { runLabel } from '../../../src/verify/workspace.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'

const PROBE = 'probe'

const pod = (o: { node?: string; affinity?: object; status?: object } = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'rdma-probe-x', namespace: 'aks-rdma-verify' },
  spec: {
    ...(o.node ? { nodeName: o.node } : {}),
    ...(o.affinity ? { affinity: o.affinity } : {}),
    containers: []
  },
  ...(o.status ? { status: o.status } : {})
})
const probeState = (state: object, lastState?: object) => ({
  phase: 'Pending',
  initContainerStatuses: [{ name: PROBE, state, ...(lastState ? { lastState } : {}) }]
})

describe('the node a probe pod is for', () => {
  it('where it is bound, else the one node its affinity names', () => {
    expect(podTargetNode(pod({ node: 'n1', affinity: pinToNode('n2') }))).toBe('n1')
    expect(podTargetNode(pod({ affinity: pinToNode('n2') }))).toBe('n2')
    expect(podTargetNode(pod({ affinity: pinToNodes(['n1', 'n2']) }))).toBeUndefined()
    expect(podTargetNode(pod())).toBeUndefined()
    const otherField = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [
            { matchFields: [{ key: 'metadata.namespace', operator: 'In', values: ['n3'] }] }
          ]
        }
      }
    }
    expect(podTargetNode(pod({ affinity: otherField }))).toBeUndefined()
  })

  it('nothing when the pod or its affinity lacks a part (no spec, no terms, no matchFields, no values)', () => {
    const affinity = (terms: unknown[]) => ({
      nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } }
    })
    expect(podTargetNode({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } })).toBeUndefined()
    expect(podTargetNode(pod({ affinity: affinity([]) }))).toBeUndefined()
    expect(podTargetNode(pod({ affinity: affinity([{ matchExpressions: [] }]) }))).toBeUndefined()
    expect(
      podTargetNode(
        pod({ affinity: affinity([{ matchFields: [{ key: 'metadata.name', operator: 'Exists' }] }]) })
      )
    ).toBeUndefined()
  })

  it('pins by the node’s name, as a required affinity', () => {
    expect(pinToNodes(['a', 'b'])).toEqual({
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['a', 'b'] }] }]
        }
      }
    })
  })

  it('one probe per run, labelled with it', () => {
    const s = readSettings(reader({ ...VALID_APPLY }), { GITHUB_RUN_ID: '9' }).settings
    expect(probeName(s)).toMatch(/^rdma-probe-[0-9a-f]{6}$/)
    expect(probeLabels(s)).toEqual({
      'app.kubernetes.io/name': 'aks-rdma-action',
      'app.kubernetes.io/component': 'rdma-probe',
      'aks-rdma-action/run': runLabel(s.runId)
    })
  })
})

describe('the facts a probe pod gives', () => {
  it('none without a pod, or while it cannot be scheduled, in the deadline’s seconds', () => {
    expect(factsFromPod('n1', undefined, 90_400)).toEqual(
      emptyFacts('n1', 'no probe pod on the node within 90s')
    )
    const unsched = {
      conditions: [
        { type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: '0/2 nodes:\n no rdma' }
      ]
    }
    expect(factsFromPod('n1', pod({ status: unsched }), 1000)).toEqual(
      emptyFacts('n1', 'probe pod unschedulable: 0/2 nodes: no rdma')
    )
  })

  it('none while its probe container cannot start, with the reason and message', () => {
    const stuck = probeState({ waiting: { reason: 'ImagePullBackOff', message: 'pull access denied' } })
    expect(factsFromPod('n1', pod({ status: stuck }), 1000).error).toBe(
      'probe container not started: ImagePullBackOff (pull access denied)'
    )
    const noMessage = probeState({ waiting: { reason: 'ErrImagePull' } })
    expect(factsFromPod('n1', pod({ status: noMessage }), 1000).error).toBe(
      'probe container not started: ErrImagePull'
    )
    // Creating is not stuck: it has not finished yet.
    const creating = probeState({ waiting: { reason: 'ContainerCreating' } })
    expect(factsFromPod('n1', pod({ status: creating }), 120_000).error).toBe(
      'probe did not finish within 120s (pod Pending)'
    )
    expect(factsFromPod('n1', pod({ status: { phase: 'Running' } }), 1000).error).toBe(
      'probe did not finish within 1s (pod Running)'
    )
    expect(factsFromPod('n1', pod(), 1000).error).toBe('probe did not finish within 1s (pod Pending)')
  })

  it('its exit code and reason when it failed, before what its output lacked', () => {
    const failed = probeState({ terminated: { exitCode: 2, reason: 'Error', message: 'boom' } })
    expect(factsFromPod('n1', pod({ status: failed }), 1000).error).toBe(
      'probe exited 2 (Error); probe output unreadable: boom'
    )
    // Being restarted: the last termination tells.
    const restarting = probeState(
      { waiting: { reason: 'PodInitializing' } },
      { terminated: { exitCode: 137 } }
    )
    expect(factsFromPod('n1', pod({ status: restarting }), 1000).error).toBe(
      'probe exited 137; probe output unreadable (empty)'
    )
  })

  it('a probe status without a state: its last termination, else not finished', () => {
    const noState = {
      phase: 'Pending',
      initContainerStatuses: [{ name: PROBE, lastState: { terminated: { exitCode: 1 } } }]
    }
    expect(factsFromPod('n1', pod({ status: noState }), 1000).error).toBe(
      'probe exited 1; probe output unreadable (empty)'
    )
    const bare = { phase: 'Pending', initContainerStatuses: [{ name: PROBE }] }
    expect(factsFromPod('n1', pod({ status: bare }), 1000).error).toBe(
      'probe did not finish within 1s (pod Pending)'
    )
    const noCode = probeState({ terminated: { reason: 'OOMKilled' } })
    expect(factsFromPod('n1', pod({ status: noCode }), 1000).error).toBe(
      'probe exited ? (OOMKilled); probe output unreadable (empty)'
    )
  })

  it('what its output says when it exited 0', () => {
    const done = probeState({ terminated: { exitCode: 0, message: 'not the probe’s output' } })
    expect(factsFromPod('n1', pod({ status: done }), 1000)).toEqual(
      emptyFacts('n1', 'probe output unreadable: not the probe’s output')
    )
  })
})
