// Reading pods and nodes as kubectl does: Ready (never for a pod being deleted), terminal phases,
// containers by name (init apart), pods by node, the scheduler's refusal, one-line descriptions of
// a container and of why a pod is not Ready, and the fail-fast reason naming the first failing pod.
import {
  conditionOf,
  containerReady,
  containerStatuses,
  describeContainer,
  describePod,
  failFast,
  failingContainer,
  hasContainer,
  initCompleted,
  isNodeReady,
  isPodReady,
  isPodTerminal,
  podNode,
  podsByNode,
  unschedulableMessage
} from '../../../src/kube/pods.js'
import type { KubeObject } from '../../../src/kube/types.js'

const pod = (
  name: string,
  o: { node?: string; status?: object; spec?: object; deleting?: boolean } = {}
): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'ns', ...(o.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) },
  spec: { ...(o.node ? { nodeName: o.node } : {}), containers: [{ name: 'main' }], ...o.spec },
  ...(o.status ? { status: o.status } : {})
})
const ready = {
  conditions: [
    { type: 'PodScheduled', status: 'True' },
    { type: 'Ready', status: 'True' }
  ]
}

describe('conditions and Ready', () => {
  it('finds a condition by type; none without status', () => {
    expect(conditionOf(pod('p', { status: ready }), 'Ready')).toEqual({ type: 'Ready', status: 'True' })
    expect(conditionOf(pod('p', { status: ready }), 'Initialized')).toBeUndefined()
    expect(conditionOf(pod('p'), 'Ready')).toBeUndefined()
  })

  it('a node or pod is Ready only with Ready=True, and a pod being deleted never is', () => {
    const node = (status: string) => ({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n' },
      status: { conditions: [{ type: 'Ready', status }] }
    })
    expect(isNodeReady(node('True'))).toBe(true)
    expect(isNodeReady(node('Unknown'))).toBe(false)
    expect(isNodeReady({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n' } })).toBe(false)
    expect(isPodReady(pod('p', { status: ready }))).toBe(true)
    expect(isPodReady(pod('p', { status: ready, deleting: true }))).toBe(false)
    expect(isPodReady(pod('p', { status: { conditions: [{ type: 'Ready', status: 'False' }] } }))).toBe(false)
    expect(isPodReady(pod('p'))).toBe(false)
  })

  it('a pod is terminal once Succeeded or Failed', () => {
    expect(
      ['Succeeded', 'Failed', 'Running', 'Pending', undefined].map(phase =>
        isPodTerminal(pod('p', { status: { phase } }))
      )
    ).toEqual([true, true, false, false, false])
    expect(isPodTerminal(pod('p'))).toBe(false)
  })
})

describe('containers', () => {
  const p = pod('p', {
    spec: { initContainers: [{ name: 'setup' }] },
    status: {
      initContainerStatuses: [{ name: 'setup', state: { terminated: { exitCode: 0 } } }],
      containerStatuses: [{ name: 'main', ready: true, state: { running: {} } }]
    }
  })

  it('by name, init containers apart', () => {
    expect(hasContainer(p, 'main')).toBe(true)
    expect(hasContainer(p, 'setup')).toBe(false)
    expect(hasContainer(p, 'setup', true)).toBe(true)
    expect(hasContainer(p, 'main', true)).toBe(false)
    expect(hasContainer({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x' } }, 'main')).toBe(false)
    expect(containerStatuses(p).map(c => `${c.init ? 'init ' : ''}${c.name}`)).toEqual(['init setup', 'main'])
    expect(containerStatuses(pod('q'))).toEqual([])
    expect(containerReady(p, 'main')).toBe(true)
    expect(containerReady(p, 'setup')).toBe(false)
    expect(containerReady(pod('q'), 'main')).toBe(false)
  })

  it('an init container completed only when it exited 0', () => {
    expect(initCompleted(p, 'setup')).toBe(true)
    expect(initCompleted(p, 'main')).toBe(false)
    const failed = pod('f', {
      status: { initContainerStatuses: [{ name: 'setup', state: { terminated: { exitCode: 1 } } }] }
    })
    expect(initCompleted(failed, 'setup')).toBe(false)
    const running = pod('r', {
      status: { initContainerStatuses: [{ name: 'setup', state: { running: {} } }] }
    })
    expect(initCompleted(running, 'setup')).toBe(false)
    expect(initCompleted(pod('q'), 'setup')).toBe(false)
  })

  it('described in a few words, a message on one line', () => {
    expect(describeContainer(undefined)).toBe('no status yet')
    expect(describeContainer({ name: 'c' })).toBe('no status yet')
    expect(describeContainer({ name: 'c', state: {} })).toBe('no status yet')
    expect(describeContainer({ name: 'c', state: { terminated: { exitCode: 1, reason: 'Error' } } })).toBe(
      'terminated: exit 1 (Error)'
    )
    expect(describeContainer({ name: 'c', state: { terminated: {} } })).toBe('terminated: exit ?')
    expect(describeContainer({ name: 'c', state: { terminated: { exitCode: 0 } } })).toBe(
      'terminated: exit 0'
    )
    expect(
      describeContainer({ name: 'c', state: { waiting: { reason: 'ErrImagePull', message: 'a\nb' } } })
    ).toBe('waiting: ErrImagePull (a b)')
    expect(describeContainer({ name: 'c', state: { waiting: {} } })).toBe('waiting: unknown')
    expect(describeContainer({ name: 'c', ready: false, state: { running: {} } })).toBe('running, not Ready')
    expect(describeContainer({ name: 'c', state: { running: {} } })).toBe('running')
    expect(describeContainer({ name: 'c', ready: true, state: { running: {} } })).toBe('running')
  })
})

describe('pods by node', () => {
  it('groups scheduled pods by node, leaving out unscheduled and deleting ones', () => {
    const byNode = podsByNode([
      pod('a', { node: 'n1' }),
      pod('b', { node: 'n2' }),
      pod('c', { node: 'n1' }),
      pod('d'),
      pod('e', { node: 'n1', deleting: true })
    ])
    expect([...byNode].map(([n, ps]) => [n, ps.map(x => x.metadata.name)])).toEqual([
      ['n1', ['a', 'c']],
      ['n2', ['b']]
    ])
    expect(podNode(pod('a', { node: 'n1' }))).toBe('n1')
    expect(podNode(pod('d'))).toBeUndefined()
  })
})

describe('why a pod is not Ready', () => {
  const unsched = (message?: string) => ({
    conditions: [
      { type: 'PodScheduled', status: 'False', reason: 'Unschedulable', ...(message ? { message } : {}) }
    ]
  })

  it('the scheduler’s message when it cannot place the pod', () => {
    expect(
      unschedulableMessage(pod('p', { status: unsched('0/3 nodes are available:\n3 Insufficient rdma') }))
    ).toBe('0/3 nodes are available:\n3 Insufficient rdma')
    expect(unschedulableMessage(pod('p', { status: unsched() }))).toBe('Unschedulable')
    expect(
      unschedulableMessage(
        pod('p', {
          status: { conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulerError' }] }
        })
      )
    ).toBeUndefined()
    expect(
      unschedulableMessage(
        pod('p', {
          status: { conditions: [{ type: 'PodScheduled', status: 'True', reason: 'Unschedulable' }] }
        })
      )
    ).toBeUndefined()
    expect(describePod(pod('p', { status: unsched('0/3 nodes are available:\n3 Insufficient rdma') }))).toBe(
      'Unschedulable: 0/3 nodes are available: 3 Insufficient rdma'
    )
  })

  it('the first container waiting, failed or not Ready, with the phase', () => {
    const status = (containerStatuses: object[], phase?: string) => ({
      ...(phase ? { phase } : {}),
      containerStatuses
    })
    const ok = { name: 'ok', ready: true, state: { running: {} } }
    const done = { name: 'done', state: { terminated: { exitCode: 0 } } }
    expect(describePod(pod('p', { status: status([ok, done], 'Running') }))).toBe('Running')
    expect(
      describePod(
        pod('p', { status: status([ok, { name: 'w', state: { waiting: { reason: 'ContainerCreating' } } }]) })
      )
    ).toBe('Pending; container w waiting: ContainerCreating')
    expect(
      describePod(
        pod('p', { status: status([ok, { name: 'x', state: { terminated: { exitCode: 2 } } }], 'Failed') })
      )
    ).toBe('Failed; container x terminated: exit 2')
    expect(
      describePod(
        pod('p', { status: status([{ name: 'r', ready: false, state: { running: {} } }], 'Running') })
      )
    ).toBe('Running; container r running, not Ready')
    expect(describePod(pod('p'))).toBe('Pending')
  })
})

describe('failing fast', () => {
  const waiting = (name: string, reason: string, extra: object = {}) => ({
    name,
    state: { waiting: { reason, ...extra } }
  })

  it('only on waiting reasons that do not resolve by waiting', () => {
    for (const reason of [
      'CrashLoopBackOff',
      'ImagePullBackOff',
      'ErrImagePull',
      'ErrImageNeverPull',
      'InvalidImageName',
      'CreateContainerConfigError',
      'CreateContainerError'
    ])
      expect(
        failingContainer(pod('p', { status: { containerStatuses: [waiting('c', reason)] } }))?.name
      ).toBe('c')
    for (const reason of ['ContainerCreating', 'PodInitializing', ''])
      expect(
        failingContainer(pod('p', { status: { containerStatuses: [waiting('c', reason)] } }))
      ).toBeUndefined()
    expect(
      failingContainer(pod('p', { status: { containerStatuses: [{ name: 'c', state: { running: {} } }] } }))
    ).toBeUndefined()
    expect(
      failingContainer(pod('p', { status: { initContainerStatuses: [waiting('i', 'CrashLoopBackOff')] } }))
    ).toMatchObject({
      name: 'i',
      init: true
    })
  })

  it('names the first failing pod by name, its node, container, restarts and message', () => {
    const pods = [
      pod('z', { node: 'n9', status: { containerStatuses: [waiting('c', 'ErrImagePull')] } }),
      pod('b', { status: { containerStatuses: [{ name: 'c', state: { running: {} } }] } }),
      pod('m', {
        node: 'n1',
        status: {
          initContainerStatuses: [
            { ...waiting('setup', 'CrashLoopBackOff', { message: 'back-off 5m' }), restartCount: 7 }
          ]
        }
      })
    ]
    expect(failFast(pods)).toBe(
      'pod ns/m on node n1: init container setup is in CrashLoopBackOff, 7 restarts (back-off 5m)'
    )
    expect(pods.map(p => p.metadata.name)).toEqual(['z', 'b', 'm'])
    expect(
      failFast([
        pod('a', {
          status: { containerStatuses: [{ ...waiting('c', 'CrashLoopBackOff'), restartCount: 1 }] }
        })
      ])
    ).toBe('pod ns/a: container c is in CrashLoopBackOff, 1 restart')
    expect(failFast([pods[0]])).toBe('pod ns/z on node n9: container c is in ErrImagePull')
    expect(failFast([pods[1]])).toBeUndefined()
    expect(failFast([])).toBeUndefined()
  })
})
