// The components' health rules as pure functions over observed objects (one evaluation for the
// apply wait and verification): per-node progress, done, and the fail-fast cases (no IB device
// after the grace period, CrashLoopBackOff, missing peermem).
import { COMPONENTS, type ComponentName, type KubeComponent } from '../../../src/components/index.js'
import { gpuUpgradePolicyText } from '../../../src/components/gpu-operator.js'
import { ibNodeConfigDaemonSet, runsCurrentSetup } from '../../../src/components/ib-node-config.js'
import { evaluateHealth } from '../../../src/health/evaluate.js'
import { daemonSetRolledOut } from '../../../src/health/rules.js'
import { failFast } from '../../../src/kube/pods.js'
import type { KubeObject } from '../../../src/kube/types.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'
import { availableOperatorDeployment, nicClusterPolicy } from '../../support/operator-objects.js'

const POOL = 'rdma'

/** A component's health over observed objects, for settings with node-pool POOL (and `inputs`). */
function evaluate(
  name: ComponentName,
  observed: Record<string, KubeObject[]>,
  o: { elapsedMs?: number; graceMs?: number; inputs?: Record<string, string> } = {}
) {
  const settings = readSettings(reader({ ...VALID_APPLY, 'node-pool': POOL, ...o.inputs }), {}).settings
  const health = (COMPONENTS[name] as KubeComponent).health(settings)
  return evaluateHealth(health, observed, {
    settings,
    elapsedMs: o.elapsedMs ?? 0,
    nfdGraceMs: o.graceMs ?? 60_000
  })
}
const evaluateNetworkOperator = (deployments: KubeObject[]) => evaluate('network-operator', { deployments })
const evaluateNodeFeatureRule = (
  nodes: KubeObject[],
  o: { pool: string; elapsedMs: number; graceMs: number }
) => evaluate('node-feature-rule', { nodes }, o)
const evaluateNicClusterPolicy = (observed: Record<string, KubeObject[]>, _o: { pool: string }) =>
  evaluate('nic-cluster-policy', observed)
const evaluateIbNodeConfig = (observed: Record<string, KubeObject[]>, _o: { pool: string }) =>
  evaluate('ib-node-config', observed)
const evaluateRdmaDevicePlugin = (
  observed: Record<string, KubeObject[]>,
  o: { pool: string; resourceName: string }
) => evaluate('rdma-device-plugin', observed, { inputs: { 'rdma-resource-name': o.resourceName } })
const evaluateGpuOperator = (observed: Record<string, KubeObject[]>, _o: { pool: string }) =>
  evaluate('gpu-operator', observed)

function node(
  name: string,
  labels: Record<string, string> = {},
  allocatable: Record<string, string> = {}
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.azure.com/agentpool': POOL, ...labels } },
    status: { allocatable: { cpu: '96', ...allocatable } }
  }
}

interface PodOpts {
  ready?: boolean
  labels?: Record<string, string>
  containers?: Array<{ name: string; ready?: boolean; waiting?: string; restarts?: number }>
  init?: Array<{ name: string; exitCode?: number; waiting?: string }>
  namespace?: string
}

function pod(name: string, nodeName: string, o: PodOpts = {}): KubeObject {
  const containers = o.containers ?? [{ name: 'main', ready: o.ready ?? true }]
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: o.namespace ?? 'ns', labels: o.labels ?? {} },
    spec: {
      nodeName,
      containers: containers.map(c => ({ name: c.name })),
      initContainers: (o.init ?? []).map(c => ({ name: c.name }))
    },
    status: {
      phase: o.ready === false ? 'Pending' : 'Running',
      conditions: [{ type: 'Ready', status: (o.ready ?? true) ? 'True' : 'False' }],
      initContainerStatuses: (o.init ?? []).map(c => ({
        name: c.name,
        ready: c.exitCode === 0,
        restartCount: 0,
        state: c.waiting
          ? { waiting: { reason: c.waiting } }
          : c.exitCode !== undefined
            ? { terminated: { exitCode: c.exitCode } }
            : { running: {} }
      })),
      containerStatuses: containers.map(c => ({
        name: c.name,
        ready: c.ready ?? o.ready ?? true,
        restartCount: c.restarts ?? 0,
        state: c.waiting
          ? { waiting: { reason: c.waiting, message: 'back-off 5m0s restarting failed container' } }
          : { running: {} }
      }))
    }
  }
}

function ds(name: string, st: Record<string, number>, strategy = 'RollingUpdate'): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace: 'kube-system', generation: 2 },
    spec: { updateStrategy: { type: strategy } },
    status: { observedGeneration: 2, ...st }
  }
}

describe('network-operator', () => {
  it('waits for the operator Deployment to be available', () => {
    expect(evaluateNetworkOperator([]).done).toBe(false)
    const d: KubeObject = availableOperatorDeployment()
    expect(evaluateNetworkOperator([d]).done).toBe(true)
    d.status.conditions[0].status = 'False'
    expect(evaluateNetworkOperator([d]).done).toBe(false)
  })
})

describe('node-feature-rule', () => {
  const nodes = [node('n1'), node('n2'), node('other', { 'kubernetes.azure.com/agentpool': 'system' })]
  it('counts labelled pool nodes only', () => {
    const v = evaluateNodeFeatureRule(
      [nodes[0], node('n2', { 'feature.node.kubernetes.io/pci-15b3.present': 'true' }), nodes[2]],
      {
        pool: POOL,
        elapsedMs: 1000,
        graceMs: 60_000
      }
    )
    expect(v).toMatchObject({ done: false, readyNodes: 1, totalNodes: 2 })
    expect(v.message).toBe('labelled pci-15b3.present=true on 1/2 nodes')
  })
  it('asks to be re-checked at the end of the grace period, then fails with the clear message', () => {
    const early = evaluateNodeFeatureRule(nodes, { pool: POOL, elapsedMs: 10_000, graceMs: 60_000 })
    expect(early.fail).toBeUndefined()
    expect(early.recheckInMs).toBe(50_000)
    const late = evaluateNodeFeatureRule(nodes, { pool: POOL, elapsedMs: 60_000, graceMs: 60_000 })
    expect(late.fail).toContain("no Mellanox IB device found on the pool's nodes")
  })
  it('is done when every pool node is labelled', () => {
    const all = [node('n1', { 'feature.node.kubernetes.io/pci-15b3.present': 'true' })]
    expect(evaluateNodeFeatureRule(all, { pool: POOL, elapsedMs: 0, graceMs: 1 }).done).toBe(true)
  })
})

describe('nic-cluster-policy', () => {
  const ofed = { labels: { 'nvidia.com/ofed-driver': '' }, namespace: 'network-operator' }
  const policy = (state: string): KubeObject =>
    nicClusterPolicy({
      state,
      appliedStates: [{ name: 'state-OFED', state: state === 'ready' ? 'ready' : 'notReady' }]
    })
  const wait = (v: string): Record<string, string> => ({ 'network.nvidia.com/operator.mofed.wait': v })
  it('needs a Ready OFED pod, mofed.wait=false on every node and the policy ready', () => {
    const nodes = [node('n1', wait('false')), node('n2', wait('true')), node('n3', wait('false'))]
    const pods = [pod('mofed-a', 'n1', ofed), pod('mofed-b', 'n2', { ...ofed, ready: false })]
    const v = evaluateNicClusterPolicy({ nodes, pods, policies: [policy('notReady')] }, { pool: POOL })
    expect(v).toMatchObject({ done: false, readyNodes: 1, totalNodes: 3 })
    expect(v.message).toBe('OFED driver ready on 1/3 nodes, policy state notReady')
    expect(v.nodes.find(n => n.node === 'n3')?.detail).toMatch(
      /^no OFED driver pod \(-n network-operator -l nvidia.com\/ofed-driver\)/
    )
    const all = evaluateNicClusterPolicy(
      { nodes: [node('n1', wait('false'))], pods: [pod('mofed-a', 'n1', ofed)], policies: [policy('ready')] },
      { pool: POOL }
    )
    expect(all.done).toBe(true)
    const notYet = evaluateNicClusterPolicy(
      {
        nodes: [node('n1', wait('false'))],
        pods: [pod('mofed-a', 'n1', ofed)],
        policies: [policy('notReady')]
      },
      { pool: POOL }
    )
    expect(notYet.done).toBe(false)
  })
  it('fails fast on an image that cannot be pulled', () => {
    const pods = [
      pod('mofed-a', 'n1', {
        ...ofed,
        ready: false,
        containers: [{ name: 'mofed-container', waiting: 'ImagePullBackOff' }]
      })
    ]
    const v = evaluateNicClusterPolicy({ nodes: [node('n1')], pods, policies: [] }, { pool: POOL })
    expect(v.fail).toContain('mofed-container is in ImagePullBackOff')
  })
})

describe('nic-cluster-policy: what each node lacks, in words', () => {
  const ofed = { labels: { 'nvidia.com/ofed-driver': '' }, namespace: 'network-operator' }
  const ready = (name: string, pci = 'true'): KubeObject =>
    node(name, {
      'network.nvidia.com/operator.mofed.wait': 'false',
      'feature.node.kubernetes.io/pci-15b3.present': pci
    })
  /** The image the policy of the default settings has the operator run: `<repo>/<image>:<version>-<os>-<arch>`. */
  function policyImage(): string {
    const settings = readSettings(reader({ ...VALID_APPLY, 'node-pool': POOL }), {}).settings
    const manifests = (COMPONENTS['nic-cluster-policy'] as KubeComponent).desired(settings).manifests ?? []
    const spec = manifests.find(m => m.kind === 'NicClusterPolicy')!.spec as {
      ofedDriver: Record<string, string>
    }
    const o = spec.ofedDriver
    return `${o.repository}/${o.image}:${o.version}-ubuntu24.04-amd64`
  }
  const withImage = (
    name: string,
    nodeName: string,
    image: string,
    container = 'mofed-container'
  ): KubeObject => {
    const p = pod(name, nodeName, { ...ofed, containers: [{ name: container }] })
    p.spec.containers = [
      { name: 'sidecar', image: 'busybox' },
      { name: container, image }
    ]
    return p
  }
  const detailOf = (observed: Record<string, KubeObject[]>, n = 'n1') =>
    evaluateNicClusterPolicy(observed, { pool: POOL }).nodes.find(x => x.node === n)

  it('a node without the Mellanox PCI label is not selected by the driver DaemonSet, and says so', () => {
    const d = detailOf({ nodes: [ready('n1', 'false')], pods: [], policies: [] })
    expect(d?.ready).toBe(false)
    expect(d?.detail).toContain(
      'no OFED driver pod (-n network-operator -l nvidia.com/ofed-driver) — node lacks feature.node.kubernetes.io/pci-15b3.present=true, so the driver DaemonSet does not select it'
    )
    const labelled = detailOf({ nodes: [ready('n1')], pods: [], policies: [] })
    expect(labelled?.detail).toMatch(/^no OFED driver pod \(-n network-operator -l nvidia.com\/ofed-driver\)/)
    expect(labelled?.detail).not.toContain('lacks')
    expect(labelled?.blocked).toBeFalsy()
  })

  it('a node whose taint the policy does not tolerate is blocked: its driver pod never comes', () => {
    const tainted = ready('n1')
    tainted.spec = { taints: [{ key: 'sku', value: 'gpu-x', effect: 'NoSchedule' }] }
    const d = detailOf({ nodes: [tainted], pods: [], policies: [] })
    expect(d?.blocked).toBe(true)
    expect(d?.detail).toContain(
      'node taint sku=gpu-x:NoSchedule is not tolerated by the NicClusterPolicy (spec.tolerations)'
    )
    // nvidia.com/gpu is one the operator always adds for its driver pods.
    tainted.spec = { taints: [{ key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' }] }
    expect(detailOf({ nodes: [tainted], pods: [], policies: [] })?.blocked).toBeFalsy()
  })

  it('names the driver pod that is not Ready, and the Ready one it found', () => {
    const notReady = detailOf({
      nodes: [ready('n1')],
      pods: [pod('mofed-b', 'n1', { ...ofed, ready: false })],
      policies: []
    })
    expect(notReady?.detail).toMatch(/^OFED driver pod mofed-b not Ready \(/)
    const image = policyImage()
    const ok = evaluateNicClusterPolicy(
      { nodes: [ready('n1')], pods: [withImage('mofed-a', 'n1', image)], policies: [] },
      { pool: POOL }
    ).nodes[0]
    expect(ok.ready).toBe(true)
    expect(ok.notes).toContain('OFED driver pod mofed-a Ready')
  })

  it('says the mofed.wait label as it is, or that it is absent', () => {
    const absent = node('n1', { 'feature.node.kubernetes.io/pci-15b3.present': 'true' })
    const image = policyImage()
    expect(
      detailOf({ nodes: [absent], pods: [withImage('m', 'n1', image)], policies: [] })?.detail
    ).toContain('network.nvidia.com/operator.mofed.wait=<absent>')
    const waiting = node('n1', { 'network.nvidia.com/operator.mofed.wait': 'true' })
    expect(
      detailOf({ nodes: [waiting], pods: [withImage('m', 'n1', image)], policies: [] })?.detail
    ).toContain('network.nvidia.com/operator.mofed.wait=true')
  })

  it("waits while a driver pod still runs another driver than the policy's (read from the driver container)", () => {
    const image = policyImage()
    const old = image.replace(/:([^-]+)-/, ':doca3.1.0-25.07-0.9.7.0-0-')
    const d = detailOf({ nodes: [ready('n1')], pods: [withImage('mofed-old', 'n1', old)], policies: [] })
    expect(d?.ready).toBe(false)
    expect(d?.detail).toMatch(
      /^OFED driver pod mofed-old runs .*doca3\.1\.0-25\.07.*, not the policy's \S+ yet$/
    )
    // Another container's image does not count, nor a pod whose containers name no image.
    expect(detailOf({ nodes: [ready('n1')], pods: [withImage('m', 'n1', image)], policies: [] })?.ready).toBe(
      true
    )
    const firstOnly = withImage('m', 'n1', old, 'driver')
    firstOnly.spec.containers = [{ name: 'driver', image: old }]
    expect(detailOf({ nodes: [ready('n1')], pods: [firstOnly], policies: [] })?.detail).toContain(
      'OFED driver pod m runs'
    )
    const noImage = pod('m', 'n1', ofed)
    expect(detailOf({ nodes: [ready('n1')], pods: [noImage], policies: [] })?.ready).toBe(true)
  })

  it('says an upgrade in progress or failed from the operator’s label', () => {
    const image = policyImage()
    const upgrading = ready('n1')
    upgrading.metadata.labels!['nvidia.com/ofed-driver-upgrade-state'] = 'wait-for-jobs-required'
    expect(
      detailOf({ nodes: [upgrading], pods: [withImage('m', 'n1', image)], policies: [] })?.detail
    ).toContain(
      'OFED driver upgrade in progress (nvidia.com/ofed-driver-upgrade-state=wait-for-jobs-required)'
    )
    upgrading.metadata.labels!['nvidia.com/ofed-driver-upgrade-state'] = 'upgrade-done'
    expect(detailOf({ nodes: [upgrading], pods: [withImage('m', 'n1', image)], policies: [] })?.ready).toBe(
      true
    )
  })

  it("says the policy's states not ready, and asks about the NodeFeatureRule when there are no driver pods at all", () => {
    const policy: KubeObject = nicClusterPolicy({
      state: 'notReady',
      reason: 'driver\nnot yet',
      appliedStates: [
        { name: 'state-OFED', state: 'notReady', message: 'waiting for pods' },
        { name: 'state-RDMA-device-plugin', state: 'ready' },
        { name: 'state-ipoib', state: 'ignore' },
        { name: 'state-nv-peer' }
      ]
    })
    const v = evaluateNicClusterPolicy({ nodes: [ready('n1')], pods: [], policies: [policy] }, { pool: POOL })
    expect(v.problems).toEqual([
      'NicClusterPolicy state notReady (driver not yet): state-OFED notReady (waiting for pods), state-nv-peer unknown — no OFED driver pods at all: is the NodeFeatureRule (pci-15b3.present) missing?'
    ])
    const withPods = evaluateNicClusterPolicy(
      { nodes: [ready('n1')], pods: [pod('m', 'n1', ofed)], policies: [policy] },
      { pool: POOL }
    )
    expect(withPods.problems?.[0]).not.toContain('NodeFeatureRule')
    const ofedReady = {
      ...policy,
      status: { state: 'notReady', appliedStates: [{ name: 'state-OFED', state: 'ready' }] }
    }
    const noHint = evaluateNicClusterPolicy(
      { nodes: [ready('n1')], pods: [], policies: [ofedReady] },
      { pool: POOL }
    )
    expect(noHint.problems).toEqual(['NicClusterPolicy state notReady'])
  })
})

describe('ib-node-config', () => {
  it('requires ib-setup completed and the DaemonSet rolled out (OnDelete: no update count)', () => {
    const nodes = [node('n1'), node('n2')]
    const pods = [
      pod('ib-1', 'n1', { init: [{ name: 'ib-setup', exitCode: 0 }] }),
      pod('ib-2', 'n2', { ready: false, init: [{ name: 'ib-setup' }] })
    ]
    const v = evaluateIbNodeConfig(
      {
        nodes,
        pods,
        daemonsets: [ds('ib-node-config', { desiredNumberScheduled: 2, numberReady: 1 }, 'OnDelete')]
      },
      { pool: POOL }
    )
    expect(v).toMatchObject({ done: false, readyNodes: 1, totalNodes: 2 })
    expect(v.nodes[1].detail).toBe('pod ib-2: init container ib-setup running, not Ready')
    pods[1] = pod('ib-2', 'n2', { init: [{ name: 'ib-setup', exitCode: 0 }] })
    const done = evaluateIbNodeConfig(
      {
        nodes,
        pods,
        daemonsets: [ds('ib-node-config', { desiredNumberScheduled: 2, numberReady: 2 }, 'OnDelete')]
      },
      { pool: POOL }
    )
    expect(done.done).toBe(true)
  })
  it('fails fast when ib-setup crash-loops', () => {
    const pods = [
      pod('ib-1', 'n1', { ready: false, init: [{ name: 'ib-setup', waiting: 'CrashLoopBackOff' }] })
    ]
    const v = evaluateIbNodeConfig({ nodes: [node('n1')], pods, daemonsets: [] }, { pool: POOL })
    expect(v.fail).toContain('init container ib-setup is in CrashLoopBackOff')
  })
})

describe('ib-node-config: which setup a pod ran, and what it waits for', () => {
  const settings = () => readSettings(reader({ ...VALID_APPLY, 'node-pool': POOL }), {}).settings
  /** The command of ib-setup in the DaemonSet these settings want (its last word is the script). */
  const currentCommand = (): string[] => {
    const spec = (
      ibNodeConfigDaemonSet(settings()).spec as {
        template: { spec: { initContainers: Array<{ name: string; command: string[] }> } }
      }
    ).template.spec
    return spec.initContainers.find(c => c.name === 'ib-setup')!.command
  }
  /** A pod whose init containers ran `script` (undefined: no command shown) with the given states. */
  const setupPod = (
    name: string,
    script: string | undefined,
    init: Array<{ name: string; exitCode?: number; waiting?: string }>,
    ready = false
  ): KubeObject => {
    const p = pod(name, 'n1', { ready, init })
    const command = currentCommand()
    p.spec.initContainers = init.map(c =>
      c.name === 'ib-setup' && script !== undefined
        ? { name: c.name, command: [...command.slice(0, -1), script] }
        : { name: c.name }
    )
    return p
  }
  const detail = (pods: KubeObject[]) =>
    evaluateIbNodeConfig({ nodes: [node('n1')], pods, daemonsets: [] }, { pool: POOL }).nodes[0]

  it('knows the current script from the DaemonSet, and takes a pod whose script is not shown as current', () => {
    const script = currentCommand().at(-1)!
    expect(runsCurrentSetup(setupPod('a', script, [{ name: 'ib-setup', exitCode: 0 }]), settings())).toBe(
      true
    )
    expect(
      runsCurrentSetup(setupPod('b', 'echo older', [{ name: 'ib-setup', exitCode: 0 }]), settings())
    ).toBe(false)
    expect(runsCurrentSetup(setupPod('c', undefined, [{ name: 'ib-setup', exitCode: 0 }]), settings())).toBe(
      true
    )
    const other = setupPod('d', undefined, [{ name: 'other-init', exitCode: 0 }])
    other.spec.initContainers = [{ name: 'other-init', command: ['sh', '-c', 'echo not ib-setup'] }]
    expect(runsCurrentSetup(other, settings())).toBe(true)
  })

  it('a pod that completed an earlier script is not done: its replacement re-runs the setup', () => {
    const d = detail([setupPod('ib-old', 'echo older', [{ name: 'ib-setup', exitCode: 0 }], true)])
    expect(d.ready).toBe(false)
    expect(d.detail).toBe('pod ib-old ran an earlier setup script: its replacement re-runs it')
    const current = detail([
      setupPod('ib-new', currentCommand().at(-1), [{ name: 'ib-setup', exitCode: 0 }], true)
    ])
    expect(current.ready).toBe(true)
    expect(current.notes).toContain('ib-setup completed (pod ib-new)')
  })

  it('says it waits for the OFED driver while that init container has not succeeded', () => {
    const waiting = detail([
      setupPod('ib-1', undefined, [
        { name: 'wait-for-ofed-driver' },
        { name: 'ib-setup', waiting: 'PodInitializing' }
      ])
    ])
    expect(waiting.detail).toMatch(
      /^pod ib-1: waiting for the OFED driver on the node \(init container wait-for-ofed-driver /
    )
    const past = detail([
      setupPod('ib-1', undefined, [{ name: 'wait-for-ofed-driver', exitCode: 0 }, { name: 'ib-setup' }])
    ])
    expect(past.detail).toBe('pod ib-1: init container ib-setup running, not Ready')
  })

  it('says how a pod of an earlier script fails, and that apply replaces it', () => {
    const d = detail([setupPod('ib-old', 'echo older', [{ name: 'ib-setup', exitCode: 1 }])])
    expect(d.detail).toMatch(
      /^pod ib-old: init container ib-setup .*\(it runs an earlier setup script: apply replaces the pod\)$/
    )
  })

  it('names a pod without the ib-setup init container', () => {
    const d = detail([setupPod('ib-x', undefined, [{ name: 'something-else', exitCode: 0 }])])
    expect(d.detail).toBe('pod ib-x: pod has no ib-setup init container')
  })

  it('needs the pod that completed the setup Ready', () => {
    const d = detail([setupPod('ib-1', undefined, [{ name: 'ib-setup', exitCode: 0 }], false)])
    expect(d.ready).toBe(false)
    expect(d.detail).toMatch(/^pod ib-1 not Ready \(/)
  })
})

describe('rdma-device-plugin', () => {
  it('reads allocatable as a quantity (1k = 1000) and needs the rollout', () => {
    const nodes = [node('n1', {}, { 'rdma/shared_ib': '1k' }), node('n2', {}, { 'rdma/shared_ib': '0' })]
    const pods = [pod('dp-1', 'n1'), pod('dp-2', 'n2')]
    const rolled = ds('rdma-shared-dp-ds', {
      desiredNumberScheduled: 2,
      numberReady: 2,
      updatedNumberScheduled: 2
    })
    const evaluate = (daemonset: KubeObject) =>
      evaluateRdmaDevicePlugin(
        { nodes, pods, daemonsets: [daemonset] },
        { pool: POOL, resourceName: 'shared_ib' }
      )
    const v = evaluate(rolled)
    expect(v).toMatchObject({ done: false, readyNodes: 1 })
    expect(v.nodes[1].detail).toBe('allocatable rdma/shared_ib = 0')
    nodes[1] = node('n2', {}, { 'rdma/shared_ib': '63' })
    expect(evaluate(rolled).done).toBe(true)
    const stale = ds('rdma-shared-dp-ds', {
      desiredNumberScheduled: 2,
      numberReady: 2,
      updatedNumberScheduled: 1
    })
    expect(evaluate(stale).done).toBe(false)
  })
  it('fails fast on CrashLoopBackOff naming the pod and node', () => {
    const pods = [
      pod('rdma-shared-dp-ds-x', 'n1', {
        ready: false,
        namespace: 'kube-system',
        containers: [{ name: 'k8s-rdma-shared-dp-ds', waiting: 'CrashLoopBackOff', restarts: 4 }]
      })
    ]
    expect(failFast(pods)).toBe(
      'pod kube-system/rdma-shared-dp-ds-x on node n1: container k8s-rdma-shared-dp-ds is in CrashLoopBackOff, 4 restarts (back-off 5m0s restarting failed container)'
    )
  })
})

describe('gpu-operator', () => {
  const policy = (state: string): KubeObject => ({
    apiVersion: 'nvidia.com/v1',
    kind: 'ClusterPolicy',
    metadata: { name: 'cluster-policy' },
    status: { state }
  })
  const driver = (n: string, peermemReady = true): KubeObject =>
    pod(`nvidia-driver-daemonset-${n}`, n, {
      ready: peermemReady,
      containers: [
        { name: 'nvidia-driver-ctr', ready: true },
        { name: 'nvidia-peermem-ctr', ready: peermemReady }
      ]
    })
  it('needs the driver pod with peermem Ready, GPUs allocatable and the policy ready', () => {
    const nodes = [node('n1', {}, { 'nvidia.com/gpu': '8' }), node('n2', {}, {})]
    const v = evaluateGpuOperator(
      { nodes, pods: [driver('n1'), driver('n2', false)], policies: [policy('notReady')] },
      { pool: POOL }
    )
    expect(v).toMatchObject({ done: false, readyNodes: 1, totalNodes: 2 })
    expect(v.nodes[1].detail).toBe('nvidia-peermem-ctr running, not Ready')
    const ok = evaluateGpuOperator(
      { nodes: [nodes[0]], pods: [driver('n1')], policies: [policy('ready')] },
      { pool: POOL }
    )
    expect(ok.done).toBe(true)
  })
  it('gpudirect dmabuf: the driver pod Ready is enough, no peermem container asked for', () => {
    const dmabuf = { inputs: { gpudirect: 'dmabuf' } }
    const bare = (n: string, ready: boolean) =>
      pod(`nvidia-driver-daemonset-${n}`, n, { ready, containers: [{ name: 'nvidia-driver-ctr', ready }] })
    const gpus = { 'nvidia.com/gpu': '8' }
    const v = evaluate(
      'gpu-operator',
      {
        nodes: [node('n1', {}, gpus), node('n2', {}, gpus)],
        pods: [bare('n1', true), bare('n2', false)],
        policies: [policy('ready')]
      },
      dmabuf
    )
    expect(v.fail).toBeUndefined()
    expect(v).toMatchObject({ done: false, readyNodes: 1, totalNodes: 2 })
    expect(v.nodes[1].detail).toMatch(/^driver pod nvidia-driver-daemonset-n2 not Ready/)
    const ok = evaluate(
      'gpu-operator',
      { nodes: [node('n1', {}, gpus)], pods: [bare('n1', true)], policies: [policy('ready')] },
      dmabuf
    )
    expect(ok.done).toBe(true)
    // The same pod under peermem fails fast: it lacks the sidecar.
    expect(
      evaluate('gpu-operator', {
        nodes: [node('n1', {}, gpus)],
        pods: [bare('n1', true)],
        policies: [policy('ready')]
      }).fail
    ).toContain('no nvidia-peermem-ctr container')
  })
  it('fails when the driver pod has no peermem container (RDMA off)', () => {
    const p = pod('nvidia-driver-daemonset-n1', 'n1', { containers: [{ name: 'nvidia-driver-ctr' }] })
    const v = evaluateGpuOperator(
      { nodes: [node('n1', {}, { 'nvidia.com/gpu': '8' })], pods: [p], policies: [policy('ready')] },
      { pool: POOL }
    )
    expect(v.fail).toContain('no nvidia-peermem-ctr container')
  })
  it('waits for a driver pod without peermem while the policy asks for RDMA (the operator replaces it)', () => {
    // A release installed without RDMA and then adopted: the policy now has it, the old pod not yet.
    const p = pod('nvidia-driver-daemonset-n1', 'n1', { containers: [{ name: 'nvidia-driver-ctr' }] })
    const rdmaOn = { ...policy('notReady'), spec: { driver: { rdma: { enabled: true } } } }
    const v = evaluateGpuOperator(
      { nodes: [node('n1', {}, { 'nvidia.com/gpu': '8' })], pods: [p], policies: [rdmaOn] },
      { pool: POOL }
    )
    expect(v.fail).toBeUndefined()
    expect(v).toMatchObject({ done: false, readyNodes: 0, totalNodes: 1 })
    expect(v.nodes[0].detail).toContain('no nvidia-peermem-ctr container')
  })
})

describe('gpu-operator: the driver version, peermem and the upgrade policy in words', () => {
  const nodes = [node('n1', {}, { 'nvidia.com/gpu': '8' }), node('n2', {}, { 'nvidia.com/gpu': '8' })]
  const policy = (version?: string): KubeObject => ({
    apiVersion: 'nvidia.com/v1',
    kind: 'ClusterPolicy',
    metadata: { name: 'cluster-policy' },
    spec: { driver: version === undefined ? {} : { version } },
    status: { state: 'ready' }
  })
  const driver = (
    n: string,
    image: string,
    o: { peermemReady?: boolean; podReady?: boolean } = {}
  ): KubeObject => {
    const p = pod(`nvidia-driver-daemonset-${n}`, n, {
      ready: o.podReady ?? true,
      containers: [
        { name: 'nvidia-driver-ctr', ready: true },
        { name: 'nvidia-peermem-ctr', ready: o.peermemReady ?? true }
      ]
    })
    p.spec.containers = [
      { name: 'nvidia-peermem-ctr', image: 'nvcr.io/nvidia/driver:peermem' },
      { name: 'nvidia-driver-ctr', image }
    ]
    return p
  }

  it('holds the run while driver pods on the pool run another driver than the ClusterPolicy sets', () => {
    const pods = [
      driver('n1', 'nvcr.io/nvidia/driver:580.95.05-ubuntu24.04'),
      driver('n2', 'nvcr.io/nvidia/driver:570.172.08-ubuntu24.04'),
      driver('elsewhere', 'nvcr.io/nvidia/driver:570.172.08-ubuntu24.04')
    ]
    const v = evaluateGpuOperator({ nodes, pods, policies: [policy('580.95.05')] }, { pool: POOL })
    expect(v.done).toBe(false)
    expect(v.problems).toEqual([
      '1 driver pod(s) still run another driver than 580.95.05 (nvidia-driver-daemonset-n2 on n2): the GPU Operator replaces them node by node (driver.upgradePolicy)'
    ])
    expect(v.message).toContain('driver 580.95.05 on 1/2 pods')
    const current = [
      driver('n1', 'nvcr.io/nvidia/driver:580.95.05-ubuntu24.04'),
      driver('n2', 'x/driver:580.95.05')
    ]
    expect(
      evaluateGpuOperator({ nodes, pods: current, policies: [policy('580.95.05')] }, { pool: POOL }).done
    ).toBe(true)
    // No version in the policy (the chart's default is not known here): nothing to compare.
    const older = [driver('n1', 'a:1'), driver('n2', 'a:2')]
    expect(evaluateGpuOperator({ nodes, pods: older, policies: [policy()] }, { pool: POOL }).done).toBe(true)
    expect(evaluateGpuOperator({ nodes, pods: older, policies: [policy('')] }, { pool: POOL }).done).toBe(
      true
    )
  })

  it('names a driver pod without an image as running another driver', () => {
    const bare = driver('n1', '')
    bare.spec.containers = [{ name: 'nvidia-peermem-ctr' }, { name: 'nvidia-driver-ctr' }]
    const v = evaluateGpuOperator(
      { nodes: [nodes[0]], pods: [bare], policies: [policy('580.95.05')] },
      { pool: POOL }
    )
    expect(v.problems?.[0]).toMatch(
      /^1 driver pod\(s\) still run another driver than 580\.95\.05 \(nvidia-driver-daemonset-n1 on n1\)/
    )
  })

  it('says why peermem is not Ready, with the host-MOFED hint when use-host-mofed is on', () => {
    const pods = [driver('n1', 'd:1', { peermemReady: false, podReady: false })]
    const plain = evaluateGpuOperator({ nodes: [nodes[0]], pods, policies: [policy()] }, { pool: POOL })
    expect(plain.nodes[0].detail).toBe('nvidia-peermem-ctr running, not Ready')
    const settings = readSettings(
      reader({ ...VALID_APPLY, 'node-pool': POOL, 'use-host-mofed': 'true' }),
      {}
    ).settings
    const v = evaluateHealth(
      (COMPONENTS['gpu-operator'] as KubeComponent).health(settings),
      {
        nodes: [nodes[0]],
        pods,
        policies: [policy()]
      },
      { settings, elapsedMs: 0, nfdGraceMs: 60_000 }
    )
    expect(v.nodes[0].detail).toBe(
      'nvidia-peermem-ctr running, not Ready (use-host-mofed is true: peermem looks for a host MOFED instead of the Network Operator driver)'
    )
  })

  it('waits for the driver pod itself once peermem is Ready', () => {
    const pods = [driver('n1', 'd:1', { peermemReady: true, podReady: false })]
    const v = evaluateGpuOperator({ nodes: [nodes[0]], pods, policies: [policy()] }, { pool: POOL })
    expect(v.nodes[0].detail).toMatch(/^driver pod nvidia-driver-daemonset-n1 not Ready \(/)
    const ok = evaluateGpuOperator(
      { nodes: [nodes[0]], pods: [driver('n1', 'd:1')], policies: [policy()] },
      { pool: POOL }
    )
    expect(ok.nodes[0].notes).toContain('nvidia-peermem-ctr Ready')
  })

  it("says the driver upgrade policy as the operator applies it: the values over the chart's defaults", () => {
    const chartDefault =
      'the GPU Operator replaces the GPU driver node by node when the chart version or driver values change ' +
      '(driver.upgradePolicy: at most 1 node at once and 25% of the nodes unavailable, each cordoned, its GPU pods deleted first, uncordoned once its new driver is validated)'
    expect(gpuUpgradePolicyText({})).toBe(chartDefault)
    expect(gpuUpgradePolicyText({ driver: 'x' })).toBe(chartDefault)
    const text = (upgradePolicy: Record<string, unknown>) =>
      gpuUpgradePolicyText({ driver: { upgradePolicy } })
    expect(text({})).toBe(chartDefault)
    expect(text({ autoUpgrade: false })).toBe(
      'driver.upgradePolicy.autoUpgrade is not true: the GPU Operator does not replace running driver pods (drain the node and delete its driver pod)'
    )
    expect(text({ autoUpgrade: 'true' })).toMatch(/^driver.upgradePolicy.autoUpgrade is not true/)
    expect(text({ maxParallelUpgrades: 0, maxUnavailable: 1 })).toContain(
      'at most every node at once and 1 of'
    )
    expect(text({ maxParallelUpgrades: 3, drain: { enable: true } })).toContain(
      'at most 3 nodes at once and 25% of the nodes unavailable, each cordoned, its GPU pods deleted and drained first'
    )
    expect(text({ maxParallelUpgrades: '2' })).toContain('at most 1 node at once')
    expect(text({ drain: { enable: 'true' } })).not.toContain('drained')
  })
})

describe('daemonSetRolledOut', () => {
  it('waits for the controller to observe the latest generation', () => {
    const d = ds('x', { desiredNumberScheduled: 1, numberReady: 1, updatedNumberScheduled: 1 })
    d.status.observedGeneration = 1
    expect(daemonSetRolledOut(d, 1).done).toBe(false)
    d.status.observedGeneration = 2
    expect(daemonSetRolledOut(d, 1).done).toBe(true)
    expect(daemonSetRolledOut(d, 2).done).toBe(false)
  })
})
