// The diagnostics of a failed step built from observed objects (no cluster): what it waited for,
// what it last saw per node, the non-ready pods with their container states, and the matching
// troubleshooting lines (memlock → ib-node-config; no OFED pod → NodeFeatureRule missing).
import { buildStack } from '../../../src/components/index.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import { buildDiagnostic, troubleshooting, type PodReport } from '../../../src/stack/diagnostics.js'
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
