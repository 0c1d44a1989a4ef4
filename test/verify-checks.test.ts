// The verification checks' judgement, without a cluster: probe output parsing (real ibstat
// fixtures), per-node probe verdicts, and the read-only checks over hand-built cluster states
// (missing NFD label, NicClusterPolicy notReady, ib-setup still running, `1k` quantities,
// peermem sidecar missing, CPU-only sizes).
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { readSettings } from '../src/settings/input-helper.js'
import type { Settings } from '../src/settings/settings.js'
import type { KubeObject } from '../src/kube/types.js'
import type { ComponentName } from '../src/components/index.js'
import type { ClusterState } from '../src/verify/cluster-state.js'
import { parseProbeOutput } from '../src/verify/probe-output.js'
import { judgeFacts, nodeProbeCheck } from '../src/verify/probe-check.js'
import { probePod } from '../src/verify/probe.js'
import { readOnlyChecks } from '../src/verify/read-only-checks.js'
import { reader, VALID_APPLY } from './support/inputs.js'

const fixture = (name: string) => readFileSync(resolve(process.cwd(), 'test/fixtures/ibstat', name), 'utf8')

function settings(over: Record<string, string> = {}): Settings {
  const { 'vm-size': vmSize, ...rest } = over
  const s = readSettings(reader({ ...VALID_APPLY, mode: 'verify', ...rest })).settings
  // The input refuses sizes without NVIDIA GPUs; the checks' size rules are still exercised with them.
  if (vmSize) s.nodePool.vmSize = vmSize
  return s
}

const MODULES_WITH_PEERMEM =
  'nvidia_peermem 16384 0 - Live 0x0000000000000000 (POE)\nib_umad 40960 0 - Live 0x0000000000000000 (OE)\nmlx5_core 2121728 1 mlx5_ib, Live 0x0000000000000000 (OE)\n'
const MODULES_NO_PEERMEM =
  'ib_umad 40960 0 - Live 0x0000000000000000 (OE)\nmlx5_core 2121728 1 mlx5_ib, Live 0x0000000000000000 (OE)\n'

describe('probe output', () => {
  it('reads 8 active HDR IB devices, skipping the Ethernet VF, plus memlock and peermem', () => {
    const text = `${fixture('07-ibstat-a100-8x-ib-hdr200-plus-1-eth-mt4126.txt')}\n---\nunlimited\n---\n${MODULES_WITH_PEERMEM}`
    const f = parseProbeOutput('n1', text)
    expect(f.error).toBeNull()
    expect(f.activeDevices).toEqual([
      'mlx5_1',
      'mlx5_2',
      'mlx5_3',
      'mlx5_4',
      'mlx5_5',
      'mlx5_6',
      'mlx5_7',
      'mlx5_8'
    ])
    expect(new Set(Object.values(f.rateGbps))).toEqual(new Set([200]))
    expect(f.memlockUnlimited).toBe(true)
    expect(f.peermemLoaded).toBe(true)
  })

  it('sorts devices naturally (mlx5_9 before mlx5_10) and keeps the Down Ethernet ports out', () => {
    const f = parseProbeOutput(
      'n1',
      `${fixture('05-ibstat-h100-ndr400-ib-plus-eth-some-down.txt')}\n---\nunlimited\n---\n${MODULES_WITH_PEERMEM}`
    )
    expect(f.activeDevices).toEqual([
      'mlx5_0',
      'mlx5_3',
      'mlx5_4',
      'mlx5_5',
      'mlx5_6',
      'mlx5_9',
      'mlx5_10',
      'mlx5_11'
    ])
    expect(f.ibPorts.every(p => p.linkLayer === 'InfiniBand')).toBe(true)
  })

  it('a RoCE host has no InfiniBand ports and fails the probe', () => {
    const s = settings()
    const f = parseProbeOutput(
      'roce',
      `${fixture('06-ibstat-h100-roce400-ethernet-all-active.txt')}\n---\nunlimited\n---\n${MODULES_WITH_PEERMEM}`
    )
    expect(f.ibPorts).toHaveLength(0)
    const r = judgeFacts(f, s)
    expect(r.status).toBe('fail')
    expect(r.detail).toMatch(/no InfiniBand ports/)
  })

  it('output cut short is an error, never a healthy node', () => {
    const f = parseProbeOutput('n1', fixture('01-ibstat-azure-hb120v3-hdr200-mlx5_ib0.txt'))
    expect(f.error).toMatch(/incomplete/)
    expect(judgeFacts(f, settings()).status).toBe('fail')
  })

  it('fails memlock 8192 and a missing nvidia_peermem, naming both', () => {
    const f = parseProbeOutput(
      'n1',
      `${fixture('07-ibstat-a100-8x-ib-hdr200-plus-1-eth-mt4126.txt')}\n---\n8192\n---\n${MODULES_NO_PEERMEM}`
    )
    const r = judgeFacts(f, settings({ 'vm-size': 'Standard_ND96asr_v4' }))
    expect(r.status).toBe('fail')
    expect(r.detail).toMatch(/ulimit -l = 8192/)
    expect(r.detail).toMatch(/nvidia_peermem not loaded/)
  })

  it('a Down InfiniBand port fails the node, naming the node and the NIC (an Ethernet port Down does not)', () => {
    const s = settings({ 'vm-size': 'Standard_ND96asr_v4' })
    const ib = fixture('07-ibstat-a100-8x-ib-hdr200-plus-1-eth-mt4126.txt')
    // mlx5_4's IB port loses its link, as a cable or switch port fault shows it.
    const blocks = ib.split(/(?=^CA ')/m)
    const i = blocks.findIndex(b => b.startsWith("CA 'mlx5_4'"))
    blocks[i] = blocks[i]
      .replace('State: Active', 'State: Down')
      .replace('Physical state: LinkUp', 'Physical state: Polling')
    const down = parseProbeOutput(
      'aks-rdmapool-0',
      `${blocks.join('')}\n---\nunlimited\n---\n${MODULES_WITH_PEERMEM}`
    )
    expect(down.ibPorts.find(p => p.ca === 'mlx5_4')).toMatchObject({
      state: 'Down',
      physicalState: 'Polling'
    })
    const r = judgeFacts(down, s)
    expect(r).toEqual({ node: 'aks-rdmapool-0', status: 'fail', detail: 'mlx5_4 port 1 Down/Polling' })
    const healthy = parseProbeOutput('aks-rdmapool-1', `${ib}\n---\nunlimited\n---\n${MODULES_WITH_PEERMEM}`)
    const c = nodeProbeCheck(
      [node('aks-rdmapool-0'), node('aks-rdmapool-1')],
      new Map([
        ['aks-rdmapool-0', down],
        ['aks-rdmapool-1', healthy]
      ]),
      new Map(),
      s
    )
    expect(c.status).toBe('fail')
    expect(c.detail).toBe('1 of 2 node(s) failing: aks-rdmapool-0: mlx5_4 port 1 Down/Polling')
    expect(c.nodes!.map(n => [n.node, n.status])).toEqual([
      ['aks-rdmapool-0', 'fail'],
      ['aks-rdmapool-1', 'pass']
    ])
    // The only fixture with Down ports has them on Ethernet: not an InfiniBand failure.
    const ethDown = parseProbeOutput(
      'n',
      `${fixture('05-ibstat-h100-ndr400-ib-plus-eth-some-down.txt')}\n---\nunlimited\n---\n${MODULES_WITH_PEERMEM}`
    )
    expect(judgeFacts(ethDown, settings({ 'vm-size': 'Standard_ND96isr_H100_v5' })).status).toBe('pass')
  })

  it('judges what rdma/<resource> gave the probe pod: an Ethernet device or a missing IB device fails', () => {
    const s = settings({ 'vm-size': 'Standard_ND96asr_v4' })
    const ibstat = fixture('07-ibstat-a100-8x-ib-hdr200-plus-1-eth-mt4126.txt')
    const devinfo = (names: Array<[string, string]>) =>
      names
        .map(([ca, layer]) =>
          [
            `hca_id:\t${ca}`,
            '\ttransport:\t\t\tInfiniBand (0)',
            '\tvendor_id:\t\t\t0x02c9',
            '\tphys_port_cnt:\t\t\t1',
            '\t\tport:\t1',
            '\t\t\tstate:\t\t\tPORT_ACTIVE (4)',
            `\t\t\tlink_layer:\t\t${layer}`,
            ''
          ].join('\n')
        )
        .join('\n')
    const ib = Array.from({ length: 8 }, (_, i) => [`mlx5_${i + 1}`, 'InfiniBand'] as [string, string])
    const probe = (verbs: string) =>
      parseProbeOutput('n1', `${ibstat}\n---\nunlimited\n---\n${MODULES_WITH_PEERMEM}\n---\n${verbs}`)

    const good = probe(devinfo(ib))
    expect(good.podDevices).toHaveLength(8)
    expect(judgeFacts(good, s).status).toBe('pass')

    // The guide's selectors (vendors + drivers, no linkTypes) also hand out the Ethernet VF mlx5_0.
    const withEth = judgeFacts(probe(devinfo([['mlx5_0', 'Ethernet'], ...ib])), s)
    expect(withEth.status).toBe('fail')
    expect(withEth.detail).toBe(
      "rdma/hca_shared_devices_a gives pods the Ethernet device mlx5_0: the device plugin's selectors also match the accelerated-networking VF (select linkTypes: [infiniband])"
    )

    // Selectors that miss devices (e.g. a deviceIDs list without this VF): the pod cannot open them.
    const missing = judgeFacts(probe(devinfo(ib.slice(0, 6))), s)
    expect(missing.status).toBe('fail')
    expect(missing.detail).toBe(
      "mlx5_7, mlx5_8 not in what rdma/hca_shared_devices_a gives pods (ibv_devinfo in the probe pod does not list them): the device plugin's selectors do not match them"
    )
    const none = judgeFacts(probe('No IB devices found'), s)
    expect(none.status).toBe('fail')
    expect(none.detail).toMatch(
      /^mlx5_1, mlx5_2, .*, mlx5_8 not in what rdma\/hca_shared_devices_a gives pods/
    )

    // An older probe's output (three sections) says nothing about the allocation.
    expect(
      parseProbeOutput('n1', `${ibstat}\n---\nunlimited\n---\n${MODULES_WITH_PEERMEM}`).podDevices
    ).toBeUndefined()
  })

  it('does not ask a CPU-only size for nvidia_peermem, and warns on a port below the size link rate', () => {
    const text = `${fixture('01-ibstat-azure-hb120v3-hdr200-mlx5_ib0.txt')}\n---\nunlimited\n---\n${MODULES_NO_PEERMEM}`
    expect(
      judgeFacts(parseProbeOutput('hb', text), settings({ 'vm-size': 'Standard_HB120rs_v3' })).status
    ).toBe('pass')
    const slow = judgeFacts(parseProbeOutput('hb', text), settings({ 'vm-size': 'Standard_HB176rs_v4' }))
    expect(slow.status).toBe('warn')
    expect(slow.detail).toMatch(/mlx5_ib0 at 200 Gb\/s/)
  })

  it('the probe pod is pinned, tolerant, requests the RDMA resource and never restarts', () => {
    const s = settings()
    const pod = probePod(s, 'aks-rdmapool-1234-vmss000003')
    expect(pod.spec.restartPolicy).toBe('Never')
    expect(
      pod.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]
        .matchFields[0]
    ).toEqual({
      key: 'metadata.name',
      operator: 'In',
      values: ['aks-rdmapool-1234-vmss000003']
    })
    expect(pod.spec.tolerations).toEqual([{ operator: 'Exists' }])
    const c = pod.spec.containers[0]
    expect(c.resources.limits).toEqual({ 'rdma/hca_shared_devices_a': '1' })
    expect(c.securityContext?.privileged).toBeUndefined()
    expect(c.command.join(' ')).toMatch(
      /ibstat; echo ---; ulimit -l; echo ---; cat \/proc\/modules; echo ---; ibv_devinfo$/
    )
  })
})

// ---- read-only checks over hand-built states ----

function node(
  name: string,
  labels: Record<string, string> = {},
  allocatable: Record<string, string> = {},
  ready = true
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        'kubernetes.azure.com/agentpool': 'rdmapool',
        'feature.node.kubernetes.io/pci-15b3.present': 'true',
        'network.nvidia.com/operator.mofed.wait': 'false',
        ...labels
      }
    },
    status: {
      conditions: [
        {
          type: 'Ready',
          status: ready ? 'True' : 'False',
          reason: ready ? 'KubeletReady' : 'KubeletNotReady'
        }
      ],
      allocatable: { 'rdma/hca_shared_devices_a': '1k', 'nvidia.com/gpu': '8', ...allocatable }
    }
  }
}

function pod(
  name: string,
  nodeName: string,
  opts: { ready?: boolean; init?: any[]; containers?: any[]; specContainers?: string[] } = {}
): KubeObject {
  const ready = opts.ready ?? true
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'x' },
    spec: {
      nodeName,
      containers: (opts.specContainers ?? ['main']).map(n => ({ name: n })),
      initContainers: (opts.init ?? []).map(i => ({ name: i.name }))
    },
    status: {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }],
      initContainerStatuses: opts.init ?? [],
      containerStatuses:
        opts.containers ??
        (opts.specContainers ?? ['main']).map(n => ({ name: n, ready, state: { running: {} } }))
    }
  }
}

const ibSetupDone = [{ name: 'ib-setup', state: { terminated: { exitCode: 0, reason: 'Completed' } } }]

/** A DaemonSet whose controller has scheduled and readied a pod on each of `n` nodes. */
function rolledOutDaemonSet(name: string, n: number, strategy = 'RollingUpdate'): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace: 'kube-system', generation: 1 },
    spec: { updateStrategy: { type: strategy } },
    status: { observedGeneration: 1, desiredNumberScheduled: n, numberReady: n, updatedNumberScheduled: n }
  }
}

function healthyState(nodes: KubeObject[]): ClusterState {
  const names = nodes.map(n => n.metadata.name)
  return {
    pool: 'rdmapool',
    nodes,
    observed: {
      'nic-cluster-policy': {
        pods: names.map(n => pod(`mofed-${n}`, n)),
        policies: [
          {
            apiVersion: 'mellanox.com/v1alpha1',
            kind: 'NicClusterPolicy',
            metadata: { name: 'nic-cluster-policy' },
            status: { state: 'ready' }
          }
        ]
      },
      'ib-node-config': {
        pods: names.map(n => pod(`ibnc-${n}`, n, { init: ibSetupDone })),
        daemonsets: [rolledOutDaemonSet('ib-node-config', names.length, 'OnDelete')]
      },
      'rdma-device-plugin': {
        pods: names.map(n => pod(`dp-${n}`, n)),
        daemonsets: [rolledOutDaemonSet('rdma-shared-dp-ds', names.length)]
      },
      'gpu-operator': {
        pods: names.map(n =>
          pod(`drv-${n}`, n, { specContainers: ['nvidia-driver-ctr', 'nvidia-peermem-ctr'] })
        ),
        policies: [
          {
            apiVersion: 'nvidia.com/v1',
            kind: 'ClusterPolicy',
            metadata: { name: 'cluster-policy' },
            status: { state: 'ready' }
          }
        ]
      }
    },
    unreadable: {}
  }
}

/** What the checks read for one component. */
const seen = (state: ClusterState, component: ComponentName) => state.observed[component]!

const byName = (checks: ReturnType<typeof readOnlyChecks>) => Object.fromEntries(checks.map(c => [c.name, c]))

describe('read-only checks', () => {
  it('pass on a healthy state, reading `1k` as a quantity', () => {
    const checks = byName(readOnlyChecks(healthyState([node('n1'), node('n2')]), settings()))
    for (const name of ['nodes-ready', 'ofed-driver', 'ib-node-config', 'rdma-device-plugin', 'gpu-operator'])
      expect(checks[name].status).toBe('pass')
    expect(checks['rdma-device-plugin'].detail).toMatch(/1k/)
    expect(checks['nodes-ready'].nodes).toHaveLength(2)
  })

  it('a node without the NFD label fails nodes-ready with the hint, and ofed-driver names it', () => {
    const bare = node('n2', {
      'feature.node.kubernetes.io/pci-15b3.present': undefined as unknown as string,
      'network.nvidia.com/operator.mofed.wait': undefined as unknown as string
    })
    delete bare.metadata.labels!['feature.node.kubernetes.io/pci-15b3.present']
    delete bare.metadata.labels!['network.nvidia.com/operator.mofed.wait']
    const state = healthyState([node('n1'), bare])
    seen(state, 'nic-cluster-policy').pods = seen(state, 'nic-cluster-policy').pods.filter(
      p => p.spec.nodeName !== 'n2'
    )
    const checks = byName(readOnlyChecks(state, settings()))
    expect(checks['nodes-ready'].status).toBe('fail')
    expect(checks['nodes-ready'].nodes!.find(n => n.node === 'n2')!.detail).toMatch(
      /pci-15b3.present=<absent> \(is the NodeFeatureRule applied\?\)/
    )
    expect(checks['nodes-ready'].nodes!.find(n => n.node === 'n1')!.status).toBe('pass')
    expect(checks['ofed-driver'].detail).toMatch(/1 of 2 node\(s\) failing: n2: no OFED driver pod/)
  })

  it('lists the non-ready appliedStates of the NicClusterPolicy', () => {
    const state = healthyState([node('n1')])
    seen(state, 'nic-cluster-policy').pods = []
    seen(state, 'nic-cluster-policy').policies = [
      {
        apiVersion: 'mellanox.com/v1alpha1',
        kind: 'NicClusterPolicy',
        metadata: { name: 'nic-cluster-policy' },
        status: {
          state: 'notReady',
          appliedStates: [
            { name: 'state-OFED', state: 'notReady' },
            { name: 'state-RDMA-device-plugin', state: 'ready' }
          ]
        }
      }
    ]
    const c = byName(readOnlyChecks(state, settings()))['ofed-driver']
    expect(c.status).toBe('fail')
    expect(c.detail).toMatch(
      /NicClusterPolicy state notReady: state-OFED notReady — no OFED driver pods at all: is the NodeFeatureRule/
    )
    expect(c.detail).not.toMatch(/state-RDMA-device-plugin/)
  })

  it('ib-node-config: a running ib-setup and a missing pod both fail, per node', () => {
    const state = healthyState([node('n1'), node('n2'), node('n3')])
    seen(state, 'ib-node-config').pods = [
      pod('ibnc-n1', 'n1', { init: ibSetupDone }),
      pod('ibnc-n2', 'n2', { ready: false, init: [{ name: 'ib-setup', state: { running: {} } }] })
    ]
    const c = byName(readOnlyChecks(state, settings()))['ib-node-config']
    expect(c.status).toBe('fail')
    const per = Object.fromEntries(c.nodes!.map(n => [n.node, n]))
    expect(per.n1.status).toBe('pass')
    expect(per.n2.detail).toMatch(/init container ib-setup running/)
    expect(per.n3.detail).toMatch(/no ib-node-config pod .*memlock/)
  })

  it('rdma-device-plugin fails a node with allocatable 0 or absent', () => {
    const state = healthyState([node('n1'), node('n2', {}, { 'rdma/hca_shared_devices_a': '0' })])
    const c = byName(readOnlyChecks(state, settings()))['rdma-device-plugin']
    expect(c.status).toBe('fail')
    expect(c.nodes!.find(n => n.node === 'n2')!.detail).toMatch(/allocatable rdma\/hca_shared_devices_a = 0/)
  })

  it('gpu-operator: no peermem sidecar, a not-Ready one with use-host-mofed, ClusterPolicy notReady', () => {
    const state = healthyState([node('n1'), node('n2')])
    seen(state, 'gpu-operator').pods = [
      pod('drv-n1', 'n1', { specContainers: ['nvidia-driver-ctr'] }),
      pod('drv-n2', 'n2', {
        ready: false,
        specContainers: ['nvidia-driver-ctr', 'nvidia-peermem-ctr'],
        containers: [
          { name: 'nvidia-driver-ctr', ready: true, state: { running: {} } },
          { name: 'nvidia-peermem-ctr', ready: false, state: { running: {} } }
        ]
      })
    ]
    seen(state, 'gpu-operator').policies = [
      {
        apiVersion: 'nvidia.com/v1',
        kind: 'ClusterPolicy',
        metadata: { name: 'cluster-policy' },
        status: { state: 'notReady' }
      }
    ]
    const c = byName(readOnlyChecks(state, settings({ 'use-host-mofed': 'true' })))['gpu-operator']
    expect(c.status).toBe('fail')
    expect(c.detail).toMatch(/ClusterPolicy state notReady/)
    const per = Object.fromEntries(c.nodes!.map(n => [n.node, n]))
    expect(per.n1.detail).toMatch(/no nvidia-peermem-ctr container/)
    expect(per.n2.detail).toMatch(/nvidia-peermem-ctr running, not Ready.*use-host-mofed is true/)
  })

  it('gpu-operator is skipped on a CPU-only size; an empty pool fails every check', () => {
    const checks = byName(
      readOnlyChecks(healthyState([node('n1')]), settings({ 'vm-size': 'Standard_HB120rs_v3' }))
    )
    expect(checks['gpu-operator'].status).toBe('skipped')
    const empty = readOnlyChecks(healthyState([]), settings())
    expect(
      empty
        .filter(c => c.name !== 'gpu-operator')
        .every(c => c.status === 'fail' && /no nodes labelled/.test(c.detail))
    ).toBe(true)
  })

  it('node-probe names nodes that could not be probed', () => {
    const s = settings({ 'vm-size': 'Standard_ND96asr_v4' })
    const f = parseProbeOutput(
      'n1',
      `${fixture('07-ibstat-a100-8x-ib-hdr200-plus-1-eth-mt4126.txt')}\n---\nunlimited\n---\n${MODULES_WITH_PEERMEM}`
    )
    const c = nodeProbeCheck(
      [node('n1'), node('n2')],
      new Map([['n1', f]]),
      new Map([['n2', 'node NotReady']]),
      s
    )
    expect(c.status).toBe('fail')
    expect(c.nodes!.find(n => n.node === 'n2')!.detail).toBe('not probed: node NotReady')
    expect(c.nodes!.find(n => n.node === 'n1')!.status).toBe('pass')
  })
})
