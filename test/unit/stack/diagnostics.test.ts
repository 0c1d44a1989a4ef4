// The diagnostics of a failed step built from observed objects (no cluster): what it waited for,
// what it last saw per node, the non-ready pods with their container states, and the matching
// troubleshooting lines (memlock → ib-node-config; no OFED pod → NodeFeatureRule missing).
import { buildStack } from '../../../src/components/index.js'
import { memlockHint } from '../../../src/components/ib-node-config.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import { buildDiagnostic, troubleshooting, type PodReport } from '../../../src/stack/diagnostics.js'
import type { KubeClient } from '../../../src/kube/client.js'
import type { KubeObject } from '../../../src/kube/types.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'

// Built inside each test (never while the file loads): the mutation run switches mutants on per test.
const settings = () => readSettings(reader({ ...VALID_APPLY }), {}).settings
const component = (name: string) => buildStack(settings()).find(c => c.name === name)!

const crashingPod: KubeObject = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'rdma-shared-dp-ds-abcde', namespace: 'kube-system' },
  spec: { nodeName: 'aks-rdmapool-1-vmss000000', containers: [{ name: 'k8s-rdma-shared-dp-ds' }] },
  status: {
    phase: 'Running',
    conditions: [{ type: 'Ready', status: 'False' }],
    containerStatuses: [
      {
        name: 'k8s-rdma-shared-dp-ds',
        ready: false,
        restartCount: 5,
        state: { waiting: { reason: 'CrashLoopBackOff' } }
      }
    ]
  }
}

describe('buildDiagnostic', () => {
  it('says what was waited for, what was last seen and which pods are not ready', async () => {
    const d = await buildDiagnostic(undefined, {
      component: component('rdma-device-plugin'),
      reason:
        'pod kube-system/rdma-shared-dp-ds-abcde on node aks-rdmapool-1-vmss000000: container k8s-rdma-shared-dp-ds is in CrashLoopBackOff',
      verdict: {
        done: false,
        message: 'rdma/hca_shared_devices_a allocatable on 1/2 nodes',
        readyNodes: 1,
        totalNodes: 2,
        nodes: [
          {
            node: 'aks-rdmapool-1-vmss000000',
            ready: false,
            detail: 'device plugin pod rdma-shared-dp-ds-abcde not Ready'
          },
          { node: 'aks-rdmapool-1-vmss000001', ready: true }
        ]
      },
      snapshot: { pods: [crashingPod] }
    })
    expect(d.step).toBe('rdma-device-plugin')
    expect(d.title).toContain('rdma-device-plugin: pod kube-system/rdma-shared-dp-ds-abcde')
    expect(d.text).toContain('Waited for: plugin Ready on every RDMA node')
    expect(d.text).toContain('aks-rdmapool-1-vmss000000: device plugin pod rdma-shared-dp-ds-abcde not Ready')
    expect(d.text).not.toContain('aks-rdmapool-1-vmss000001:')
    expect(d.text).toContain(
      'kube-system/rdma-shared-dp-ds-abcde on aks-rdmapool-1-vmss000000: phase Running'
    )
    expect(d.text).toContain('k8s-rdma-shared-dp-ds: waiting (CrashLoopBackOff), ready=false, restarts=5')
  })
})

describe('troubleshooting', () => {
  const report = (logs: string): PodReport => ({
    namespace: 'default',
    name: 'p',
    containers: [],
    events: [],
    logs: [{ container: 'c', previous: false, text: logs }]
  })
  it('points memlock errors at ib-node-config', () => {
    const hints = troubleshooting({ component: component('gpu-operator'), reason: 'x' }, [
      report('ibv_reg_mr failed: Cannot allocate memory')
    ])
    expect(hints.join('\n')).toContain('ib-node-config did not complete')
  })
  it('points state-OFED notReady with no OFED pod at the NodeFeatureRule', () => {
    const policy: KubeObject = {
      apiVersion: 'mellanox.com/v1alpha1',
      kind: 'NicClusterPolicy',
      metadata: { name: 'nic-cluster-policy' },
      status: { state: 'notReady', appliedStates: [{ name: 'state-OFED', state: 'notReady' }] }
    }
    const hints = troubleshooting(
      {
        component: component('nic-cluster-policy'),
        reason: 'timeout',
        snapshot: { pods: [], policies: [policy] }
      },
      []
    )
    expect(hints.join('\n')).toContain('NodeFeatureRule is missing or matched no node')
    expect(hints.join('\n')).toContain('state-OFED notReady')
  })
  it('names image pull problems', () => {
    const p: PodReport = {
      namespace: 'n',
      name: 'p',
      containers: ['mofed-container: waiting (ImagePullBackOff), ready=false, restarts=0'],
      events: [],
      logs: []
    }
    expect(
      troubleshooting(
        { component: component('nic-cluster-policy'), reason: 'x', snapshot: { pods: [crashingPod] } },
        [p]
      ).join('\n')
    ).toContain('image cannot be pulled')
  })
})

/** What the diagnostics read from the cluster: events and log tails, recorded per call. */
function readerOf(o: {
  events?: Record<string, Array<Record<string, unknown>> | Error>
  logs?: Record<string, string | Error>
}) {
  const calls: string[] = []
  const client = {
    async eventsFor(ns: string, name: string, kind?: string) {
      calls.push(`events ${ns}/${name} ${kind}`)
      const e = o.events?.[name] ?? []
      if (e instanceof Error) throw e
      return e as unknown as KubeObject[]
    },
    async podLog(
      ns: string,
      name: string,
      opts: { container?: string; tailLines?: number; previous?: boolean }
    ) {
      const key = `${name}/${opts.container}${opts.previous ? ' previous' : ''}`
      calls.push(`log ${ns}/${key} tail ${opts.tailLines}`)
      const l = o.logs?.[key] ?? ''
      if (l instanceof Error) throw l
      return l
    }
  }
  return { client: client as unknown as KubeClient, calls }
}

const pod = (name: string, status: Record<string, unknown>, node?: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'ns' },
  spec: { ...(node ? { nodeName: node } : {}), containers: [{ name: 'c' }] },
  status
})

describe('buildDiagnostic, whole', () => {
  const crashing = pod(
    'crashing',
    {
      phase: 'Running',
      initContainerStatuses: [
        {
          name: 'setup',
          ready: false,
          restartCount: 2,
          state: { terminated: { exitCode: 1, reason: 'Error' } }
        }
      ],
      containerStatuses: [
        {
          name: 'main',
          ready: false,
          restartCount: 3,
          state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 40s' } }
        }
      ]
    },
    'node-a'
  )
  const starting = pod('starting', {
    containerStatuses: [{ name: 'main', ready: false, state: { running: {} } }]
  })
  const ready = pod(
    'ready',
    {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'True' }],
      containerStatuses: [{ name: 'main', ready: true, state: { running: {} } }]
    },
    'node-b'
  )

  it('lists the step, the wait, the nodes last seen, each pod with its events and logs, then the hints', async () => {
    const { client, calls } = readerOf({
      events: {
        crashing: [
          { type: 'Normal', reason: 'Pulled', message: 'image pulled', count: 1 },
          { reason: 'BackOff', message: 'Back-off restarting', count: 3 },
          {}
        ]
      },
      logs: {
        'crashing/setup': 'line 1\nmodprobe: ENOMEM\n\n',
        'crashing/main previous': '',
        'crashing/main': 'now',
        'starting/main': 'waiting for the driver'
      }
    })
    const c = component('rdma-device-plugin')
    const d = await buildDiagnostic(client, {
      component: c,
      reason: 'timed out',
      verdict: {
        done: false,
        message: '0/2 ready',
        readyNodes: 0,
        totalNodes: 2,
        nodes: [
          { node: 'node-a', ready: false, detail: 'plugin crashing' },
          { node: 'node-b', ready: false }
        ]
      },
      snapshot: { pods: [ready, starting, crashing] }
    })
    expect(d).toEqual({
      step: 'rdma-device-plugin',
      title: 'rdma-device-plugin: timed out',
      text: [
        `Step: rdma-device-plugin (${c.title})`,
        'Failed: timed out',
        `Waited for: ${c.readiness.summary}`,
        ...c.readiness.conditions.map(x => `  - ${x}`),
        'Last seen:',
        '  0/2 ready',
        '    node-a: plugin crashing',
        '    node-b: not ready',
        'Pods not ready:',
        '  ns/crashing on node-a: phase Running',
        '    init setup: terminated (exit 1, Error), ready=false, restarts=2',
        '    main: waiting (CrashLoopBackOff: back-off 40s), ready=false, restarts=3',
        '    events:',
        '      Normal Pulled: image pulled',
        '      Normal BackOff: Back-off restarting (x3)',
        '      Normal : ',
        '    log setup, last lines:',
        '      line 1',
        '      modprobe: ENOMEM',
        '    log main (previous run), last lines:',
        '      now',
        '  ns/starting on (unscheduled): phase unknown',
        '    main: running, ready=false, restarts=0',
        '    log main, last lines:',
        '      waiting for the driver',
        'Troubleshooting:',
        // The memlock hint alone: ENOMEM in a log; no crash line once a precise hint matched.
        `  - ${memlockHint()}`
      ].join('\n')
    })
    // The failing pod first; the ready one neither reported nor read; 40 log lines a container.
    expect(calls).toEqual([
      'events ns/crashing Pod',
      'log ns/crashing/setup tail 40',
      'log ns/crashing/main previous tail 40',
      'log ns/crashing/main tail 40',
      'events ns/starting Pod',
      'log ns/starting/main tail 40'
    ])
  })

  it('keeps the last five events, and goes on when events or logs cannot be read', async () => {
    const many = Array.from({ length: 7 }, (_, i) => ({
      type: 'Warning',
      reason: `R${i}`,
      message: 'm',
      count: 1
    }))
    const { client } = readerOf({
      events: { crashing: many, starting: new Error('events forbidden') },
      logs: { 'crashing/setup': new Error('logs forbidden'), 'starting/main': 'still here' }
    })
    const d = await buildDiagnostic(client, {
      component: component('rdma-device-plugin'),
      reason: 'x',
      snapshot: { pods: [crashing, starting] }
    })
    expect(d.text).toContain('Last seen:\n  (the wait had not started)')
    expect(d.text.match(/^ {6}Warning R\d: m$/gm)).toEqual([2, 3, 4, 5, 6].map(i => `      Warning R${i}: m`))
    expect(d.text).not.toContain('log setup')
    expect(d.text).toContain('    log main, last lines:\n      still here')
  })

  it('reports at most five pods, the failing ones first, and at most twenty nodes', async () => {
    const pods = [
      ...Array.from({ length: 4 }, (_, i) => pod(`slow-${i}`, { containerStatuses: [] })),
      ...Array.from({ length: 3 }, (_, i) => pod(`bad-${i}`, crashing.status))
    ]
    const nodes = Array.from({ length: 23 }, (_, i) => ({ node: `n${i}`, ready: false }))
    const d = await buildDiagnostic(undefined, {
      component: component('rdma-device-plugin'),
      reason: 'x',
      verdict: { done: false, message: 'm', readyNodes: 0, totalNodes: 23, nodes },
      snapshot: { pods }
    })
    expect(d.text.match(/^ {2}ns\/\S+/gm)).toEqual([
      '  ns/bad-0',
      '  ns/bad-1',
      '  ns/bad-2',
      '  ns/slow-0',
      '  ns/slow-1'
    ])
    expect(d.text).toContain('    n19: not ready\n    ... and 3 more nodes')
    expect(d.text).not.toContain('n20:')
  })
})

describe('troubleshooting, general lines', () => {
  const states = (...s: string[]): PodReport[] => [
    { namespace: 'n', name: 'p', containers: s, events: [], logs: [] }
  ]
  const forbidden =
    'list pods: pods is forbidden: User "system:serviceaccount:x:y" cannot list resource "pods" in API group "" at the cluster scope'

  it('names the Kubernetes permission a refused request lacked, once', () => {
    const hints = troubleshooting({ component: component('infiniband-feature'), reason: forbidden }, [])
    expect(hints).toHaveLength(1)
    expect(hints[0]).toMatch(/permission|RBAC|role/i)
    expect(
      troubleshooting(
        { component: component('infiniband-feature'), reason: `${forbidden}; missing Kubernetes permission` },
        []
      )
    ).toEqual([])
  })

  it('says a container keeps crashing only when nothing more precise matched', () => {
    const crash = 'main: waiting (CrashLoopBackOff), ready=false, restarts=4'
    expect(
      troubleshooting({ component: component('infiniband-feature'), reason: 'x' }, states(crash))
    ).toEqual(['A container keeps crashing: its log tail above shows why.'])
    const pull = 'main: waiting (ErrImagePull), ready=false, restarts=0'
    const both = troubleshooting(
      { component: component('infiniband-feature'), reason: 'x' },
      states(crash, pull)
    )
    expect(both).toHaveLength(1)
    expect(both[0]).toMatch(/^An image cannot be pulled/)
    expect(
      troubleshooting({ component: component('infiniband-feature'), reason: 'x' }, states('main: running'))
    ).toEqual([])
  })

  it('reads memlock trouble from any of its spellings in the logs', () => {
    for (const text of ['RLIMIT_MEMLOCK too low', 'ibv_reg_mr failed', 'MEMLOCK', 'errno ENOMEM'])
      expect(
        troubleshooting({ component: component('infiniband-feature'), reason: 'x' }, [
          {
            namespace: 'n',
            name: 'p',
            containers: [],
            events: [],
            logs: [{ container: 'c', previous: false, text }]
          }
        ]).join('\n')
      ).toContain('ib-node-config did not complete')
  })
})
