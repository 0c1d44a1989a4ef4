// The verification checks' judgement, without a cluster: probe output parsing (the port data of
// real ibstat fixtures, Azure's ND H100 v5 PCI topology), the GPU local to each NIC, the probe
// DaemonSet, per-node probe verdicts, and the read-only checks over hand-built cluster states
// (missing NFD label, NicClusterPolicy notReady, ib-setup still running, `1k` quantities,
// peermem sidecar missing, CPU-only sizes).
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { readSettings } from '../../../src/settings/input-helper.js'
import type { Settings } from '../../../src/settings/settings.js'
import type { KubeObject } from '../../../src/kube/types.js'
import type { ComponentName } from '../../../src/components/index.js'
import type { ClusterState } from '../../../src/verify/cluster-state.js'
import { poolTolerations } from '../../../src/model/workload.js'
import { localGpuOf, parseProbeOutput, PROBE_SCRIPT } from '../../../src/verify/probe-output.js'
import { judgeFacts, nodeProbeCheck } from '../../../src/verify/probe-check.js'
import { probeDaemonSet } from '../../../src/verify/probe.js'
import { cudaOrder, pairNicsWithGpus } from '../../../src/verify/topology.js'
import { readOnlyChecks } from '../../../src/verify/read-only-checks.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'
import { rdmaNode } from '../../support/nodes.js'
import { probeMessage, type ProbeMessageOptions } from '../../support/probe-message.js'

const A07 = '07-ibstat-a100-8x-ib-hdr200-plus-1-eth-mt4126.txt'
const fixture = (name: string) => readFileSync(resolve(process.cwd(), 'test/fixtures/ibstat', name), 'utf8')

function settings(over: Record<string, string> = {}): Settings {
  const { 'vm-size': vmSize, ...rest } = over
  const s = readSettings(reader({ ...VALID_APPLY, mode: 'verify', ...rest })).settings
  // The input refuses sizes without NVIDIA GPUs; the checks' size rules are still exercised with them.
  if (vmSize) s.nodePool.vmSize = vmSize
  return s
}

/** A probe's termination message for an ibstat fixture's ports (or `o.ibstat`'s), see probeMessage. */
function probeText(ibstatFixture: string, o: ProbeMessageOptions & { ibstat?: string } = {}): string {
  return probeMessage(o.ibstat ?? fixture(ibstatFixture), o)
}

/** ND H100 v5 as Azure's VMs show it: each device on its own Hyper-V bus, NUMA 0 / 1 (ndv5 topology). */
const NDV5_GPUS = ['0001', '0002', '0003', '0008', '0009', '000a', '000b', '000c']
const hyperv = (domain: string) =>
  `pci${domain}:00 ${domain.padStart(8, '0')}-${domain}-0000-3130-444531454238`
const NDV5_TOPOLOGY = [
  ...NDV5_GPUS.map((d, i) => `gpu ${d}:00:00.0 0x030200 ${i < 4 ? 0 : 1} ${hyperv(d)}`),
  // An NVSwitch is an NVIDIA function too, but no GPU.
  'gpu 0010:00:00.0 0x068000 0 pci0010:00 00000010-0010-0000-3130-444531454238',
  ...Array.from(
    { length: 8 },
    (_, i) => `nic mlx5_${i} 010${i + 1}:00:00.0 ${i < 4 ? 0 : 1} ${hyperv(`010${i + 1}`)}`
  )
]

/** The NicClusterPolicy with `status`, as the operator reports it. */
const nicClusterPolicy = (status: object): KubeObject => ({
  apiVersion: 'mellanox.com/v1alpha1',
  kind: 'NicClusterPolicy',
  metadata: { name: 'nic-cluster-policy' },
  status
})

describe('probe output', () => {
  it('reads 8 active HDR IB devices, skipping the Ethernet VF, plus memlock and peermem', () => {
    const f = parseProbeOutput('n1', probeText('07-ibstat-a100-8x-ib-hdr200-plus-1-eth-mt4126.txt'))
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
    const f = parseProbeOutput('n1', probeText('05-ibstat-h100-ndr400-ib-plus-eth-some-down.txt'))
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
    const f = parseProbeOutput('roce', probeText('06-ibstat-h100-roce400-ethernet-all-active.txt'))
    expect(f.ibPorts).toHaveLength(0)
    const r = judgeFacts(f, s)
    expect(r.status).toBe('fail')
    expect(r.detail).toMatch(/no InfiniBand ports/)
  })

  it("a message cut short (over 4096 bytes) or not the probe's is an error, never a healthy node", () => {
    const cut = parseProbeOutput(
      'n1',
      probeText('01-ibstat-azure-hb120v3-hdr200-mlx5_ib0.txt', { end: false })
    )
    expect(cut.error).toMatch(/incomplete/)
    expect(judgeFacts(cut, settings()).status).toBe('fail')
    expect(parseProbeOutput('n1', '').error).toMatch(/unreadable \(empty\)/)
    expect(parseProbeOutput('n1', 'sh: 1: ls: not found\n').error).toMatch(/unreadable: sh: 1: ls: not found/)
  })

  it('fails memlock 8192 and a missing nvidia_peermem, naming both', () => {
    const f = parseProbeOutput(
      'n1',
      probeText('07-ibstat-a100-8x-ib-hdr200-plus-1-eth-mt4126.txt', { memlock: '8192', peermem: '0' })
    )
    const r = judgeFacts(f, settings({ 'vm-size': 'Standard_ND96asr_v4' }))
    expect(r.status).toBe('fail')
    expect(r.detail).toMatch(/ulimit -l = 8192/)
    expect(r.detail).toMatch(/nvidia_peermem not loaded/)
    expect(
      parseProbeOutput('n1', probeText('07-ibstat-a100-8x-ib-hdr200-plus-1-eth-mt4126.txt', { peermem: '?' }))
        .peermemLoaded
    ).toBeNull()
  })

  it('a Down InfiniBand port fails the node, naming the node and the NIC (an Ethernet port Down does not)', () => {
    const s = settings({ 'vm-size': 'Standard_ND96asr_v4' })
    const ib = fixture(A07)
    // mlx5_4's IB port loses its link, as a cable or switch port fault shows it.
    const blocks = ib.split(/(?=^CA ')/m)
    const i = blocks.findIndex(b => b.startsWith("CA 'mlx5_4'"))
    blocks[i] = blocks[i]
      .replace('State: Active', 'State: Down')
      .replace('Physical state: LinkUp', 'Physical state: Polling')
    const down = parseProbeOutput('aks-rdmapool-0', probeText(A07, { ibstat: blocks.join('') }))
    expect(down.ibPorts.find(p => p.ca === 'mlx5_4')).toMatchObject({
      state: 'Down',
      physicalState: 'Polling'
    })
    const r = judgeFacts(down, s)
    expect(r).toEqual({ node: 'aks-rdmapool-0', status: 'fail', detail: 'mlx5_4 port 1 Down/Polling' })
    const healthy = parseProbeOutput('aks-rdmapool-1', probeText(A07))
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
    const ethDown = parseProbeOutput('n', probeText('05-ibstat-h100-ndr400-ib-plus-eth-some-down.txt'))
    expect(judgeFacts(ethDown, settings({ 'vm-size': 'Standard_ND96isr_H100_v5' })).status).toBe('pass')
  })

  it('judges what rdma/<resource> gave the probe pod: an Ethernet device or a missing IB device fails', () => {
    const s = settings({ 'vm-size': 'Standard_ND96asr_v4' })
    const ib = Array.from({ length: 8 }, (_, i) => `mlx5_${i + 1}`)
    const probe = (verbs: string[]) => parseProbeOutput('n1', probeText(A07, { verbs }))

    const good = probe(ib)
    expect(good.podDevices).toHaveLength(8)
    expect(judgeFacts(good, s).status).toBe('pass')

    // The guide's selectors (vendors + drivers, no linkTypes) also hand out the Ethernet VF mlx5_0.
    const withEth = judgeFacts(probe(['mlx5_0', ...ib]), s)
    expect(withEth.status).toBe('fail')
    expect(withEth.detail).toBe(
      "rdma/hca_shared_devices_a gives pods the Ethernet device mlx5_0: the device plugin's selectors also match the accelerated-networking VF (select linkTypes: [infiniband])"
    )

    // Selectors that miss devices (e.g. a deviceIDs list without this VF): the pod cannot open them.
    const missing = judgeFacts(probe(ib.slice(0, 6)), s)
    expect(missing.status).toBe('fail')
    expect(missing.detail).toBe(
      "mlx5_7, mlx5_8 not in what rdma/hca_shared_devices_a gives pods (the probe pod's /dev/infiniband has no uverbs file for them): the device plugin's selectors do not match them"
    )
    const none = judgeFacts(probe([]), s)
    expect(none.status).toBe('fail')
    expect(none.detail).toMatch(
      /^mlx5_1, mlx5_2, .*, mlx5_8 not in what rdma\/hca_shared_devices_a gives pods/
    )

    // A message without the verbs line says nothing about the allocation.
    expect(parseProbeOutput('n1', probeText(A07)).podDevices).toBeUndefined()
  })

  it('does not ask a CPU-only size for nvidia_peermem, and warns on a port below the size link rate', () => {
    const text = probeText('01-ibstat-azure-hb120v3-hdr200-mlx5_ib0.txt', { peermem: '0' })
    expect(
      judgeFacts(parseProbeOutput('hb', text), settings({ 'vm-size': 'Standard_HB120rs_v3' })).status
    ).toBe('pass')
    const slow = judgeFacts(parseProbeOutput('hb', text), settings({ 'vm-size': 'Standard_HB176rs_v4' }))
    expect(slow.status).toBe('warn')
    expect(slow.detail).toMatch(/mlx5_ib0 at 200 Gb\/s/)
  })

  it("finds the GPU local to each NIC: Azure ND H100 v5 by NUMA rank, exactly the pairs of Azure's topology file", () => {
    const f = parseProbeOutput(
      'n1',
      probeText('08-ibstatus-azure-a100-8x-hdr200-all-active.txt', { topology: NDV5_TOPOLOGY })
    )
    expect(f.gpus.map(g => [g.cudaIndex, g.pciAddress])).toEqual(NDV5_GPUS.map((d, i) => [i, `${d}:00:00.0`]))
    // mlx5_0..7 at 0101..0108: 0101–0104 with 0001/0002/0003/0008, 0105–0108 with 0009/000a/000b/000c.
    expect(
      f.nics.filter(n => /^mlx5_[0-7]$/.test(n.device)).map(n => [n.device, n.localGpu, n.locality])
    ).toEqual(Array.from({ length: 8 }, (_, i) => [`mlx5_${i}`, i, 'numa']))
    expect(localGpuOf(f, 'mlx5_5')).toBe(5)
  })

  it('prefers a PCIe switch both sit below, where the host shows one; falls back to overall order', () => {
    const gpus = [
      {
        pciAddress: '0000:1b:00.0',
        numaNode: 0,
        upstream: ['0000:1a:00.0', '0000:19:00.0'] as [string, string]
      },
      {
        pciAddress: '0000:3b:00.0',
        numaNode: 0,
        upstream: ['0000:3a:00.0', '0000:39:00.0'] as [string, string]
      }
    ]
    const nics = [
      // Behind the second GPU's switch, though lower in PCI order.
      {
        device: 'mlx5_0',
        pciAddress: '0000:0c:00.0',
        numaNode: 0,
        upstream: ['0000:3a:02.0', '0000:39:00.0'] as [string, string]
      },
      {
        device: 'mlx5_1',
        pciAddress: '0000:0d:00.0',
        numaNode: 0,
        upstream: ['0000:1a:02.0', '0000:19:00.0'] as [string, string]
      }
    ]
    const paired = pairNicsWithGpus(nics, cudaOrder(gpus))
    expect(paired.map(n => [n.device, n.localGpu, n.locality])).toEqual([
      ['mlx5_0', 1, 'pcie-switch'],
      ['mlx5_1', 0, 'pcie-switch']
    ])
    // No NUMA information and no shared bridge: k-th NIC with k-th GPU, and none left for a third NIC.
    const flat = pairNicsWithGpus(
      [...nics, { device: 'mlx5_2', pciAddress: '0000:0e:00.0', numaNode: -1, upstream: ['a', 'b'] }].map(
        n => ({
          ...n,
          numaNode: -1,
          upstream: ['x', 'y'] as [string, string]
        })
      ),
      cudaOrder(gpus)
    )
    expect(flat.map(n => [n.device, n.localGpu, n.locality])).toEqual([
      ['mlx5_0', 0, 'order'],
      ['mlx5_1', 1, 'order'],
      ['mlx5_2', null, null]
    ])
  })

  it('drops device names that could not go into a script unquoted', () => {
    const text = probeText('01-ibstat-azure-hb120v3-hdr200-mlx5_ib0.txt').replace(
      'memlock',
      "port mlx5'$(reboot) 1 InfiniBand|4: ACTIVE|5: LinkUp|200 Gb/sec\nmemlock"
    )
    expect(parseProbeOutput('n1', text).activeDevices).toEqual(['mlx5_ib0'])
  })

  it("the probe is one DaemonSet over the nodes, with the pool's tolerations, the RDMA resource, and its result in a termination message", () => {
    const s = settings({ 'node-taints': 'sku=gpu:NoSchedule' })
    const ds = probeDaemonSet(s, ['aks-rdmapool-1234-vmss000003', 'aks-rdmapool-1234-vmss000004'])
    expect(ds.kind).toBe('DaemonSet')
    const spec = ds.spec.template.spec
    expect(spec.nodeSelector).toEqual({ 'kubernetes.azure.com/agentpool': 'rdmapool' })
    expect(
      spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]
        .matchFields[0]
    ).toEqual({
      key: 'metadata.name',
      operator: 'In',
      values: ['aks-rdmapool-1234-vmss000003', 'aks-rdmapool-1234-vmss000004']
    })
    expect(spec.tolerations).toEqual(poolTolerations(s))
    expect(spec.tolerations).toEqual([{ key: 'sku', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }])
    const probe = spec.initContainers[0]
    expect(probe.resources.limits).toEqual({ 'rdma/hca_shared_devices_a': '1' })
    expect(probe.securityContext?.privileged).toBeUndefined()
    expect(probe.terminationMessagePath).toBe('/dev/termination-log')
    expect(probe.command).toEqual(['sh', '-c', PROBE_SCRIPT])
    expect(spec.containers[0].command).toEqual(['sh', '-c', 'sleep infinity'])
  })
})

// ---- read-only checks over hand-built states ----

function node(
  name: string,
  labels: Record<string, string> = {},
  allocatable: Record<string, string> = {},
  ready = true
): KubeObject {
  const alloc = { 'rdma/hca_shared_devices_a': '1k', 'nvidia.com/gpu': '8', ...allocatable }
  return rdmaNode(name, { labels, alloc, ready: ready || { reason: 'KubeletNotReady' } })
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
        policies: [nicClusterPolicy({ state: 'ready' })]
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
      nicClusterPolicy({
        state: 'notReady',
        appliedStates: [
          { name: 'state-OFED', state: 'notReady' },
          { name: 'state-RDMA-device-plugin', state: 'ready' }
        ]
      })
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

  it('gpu-operator is skipped on a CPU-only size; an empty pool fails once, in nodes-ready', () => {
    const checks = byName(
      readOnlyChecks(healthyState([node('n1')]), settings({ 'vm-size': 'Standard_HB120rs_v3' }))
    )
    expect(checks['gpu-operator'].status).toBe('skipped')
    const empty = readOnlyChecks({ ...healthyState([]), otherPools: ['rdmapool2', 'system'] }, settings())
    expect(empty.filter(c => c.status === 'fail').map(c => c.name)).toEqual(['nodes-ready'])
    expect(empty.filter(c => c.name !== 'nodes-ready').every(c => c.status === 'skipped')).toBe(true)
    // One error naming the pool, the pools there are and the likely one.
    const detail = empty[0].detail
    expect(detail).toContain('node pool rdmapool')
    expect(detail).toContain('rdmapool2, system')
    expect(detail).toContain('node-pool: rdmapool2')
  })

  it('node-probe names nodes that could not be probed', () => {
    const s = settings({ 'vm-size': 'Standard_ND96asr_v4' })
    const f = parseProbeOutput('n1', probeText('07-ibstat-a100-8x-ib-hdr200-plus-1-eth-mt4126.txt'))
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
