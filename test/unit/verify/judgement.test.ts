// Verification's judgement word for word: how per-node findings become a check (worst status,
// the failing nodes quoted, three at most), which nodes cannot be probed and why, what a probe's
// facts say on a healthy, a degraded and a broken node (the exact lines a user reads), how the
// probe's output is cut into its sections, the nodes-ready check and the list of checks the plan
// prints.
import { describe, expect, it } from '@jest/globals'
import type { KubeObject } from '../../../src/kube/types.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import type { Settings } from '../../../src/settings/settings.js'
import { nodeCheck, nodeResult, quoteNodes, worst } from '../../../src/verify/check-result.js'
import { judgeFacts, nodeProbeCheck, unprobeable, untoleratedTaint } from '../../../src/verify/probe-check.js'
import {
  emptyFacts,
  parseProbeOutput,
  PROBE_HEADER,
  type NodeFacts
} from '../../../src/verify/probe-output.js'
import { checkNodesReady, componentCheck, verificationChecks } from '../../../src/verify/read-only-checks.js'
import { COMPONENTS, type KubeComponent } from '../../../src/components/index.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'
import { rdmaNode } from '../../support/nodes.js'
import { probeMessage } from '../../support/probe-message.js'

const settings = (over: Record<string, string> = {}): Settings => {
  const { 'vm-size': size, ...rest } = over
  const s = readSettings(
    reader({ ...VALID_APPLY, mode: 'verify', 'node-pool': 'rdmapool', ...rest })
  ).settings
  // Sizes the inputs refuse (CPU-only HB, unlisted) still meet the judgement: set them afterwards.
  if (size) s.nodePool.vmSize = size
  return s
}

const node = rdmaNode

/** ibstat of `n` IB devices at `gbps` (a port per device) plus the Ethernet VF. */
function ibstat(
  devices: Array<{ ca: string; state?: string; phys?: string; gbps?: number; port?: number }>
): string {
  const eth =
    "CA 'mlx5_an0'\n\tPort 1:\n\t\tState: Active\n\t\tPhysical state: LinkUp\n\t\tRate: 40\n\t\tLink layer: Ethernet\n"
  return (
    eth +
    devices
      .map(
        d =>
          `CA '${d.ca}'\n\tPort ${d.port ?? 1}:\n\t\tState: ${d.state ?? 'Active'}\n\t\tPhysical state: ${d.phys ?? 'LinkUp'}\n\t\tRate: ${d.gbps ?? 200}\n\t\tLink layer: InfiniBand\n`
      )
      .join('')
  )
}
const MODULES = 'nvidia_peermem 16384 0 - Live 0x0 (POE)\nmlx5_core 2121728 1 mlx5_ib, Live 0x0 (OE)\n'
const NO_PEERMEM = 'mlx5_core 2121728 1 mlx5_ib, Live 0x0 (OE)\n'
const ib8 = Array.from({ length: 8 }, (_, i) => ({ ca: `mlx5_ib${i}` }))
/** The probe's message for these ibstat ports, memlock and /proc/modules ('' stands for unreadable: `peermem ?`). */
const probeOf = (ib: string, memlock: string, modules: string): string =>
  probeMessage(ib, {
    memlock,
    peermem: modules ? String(modules.split('\n').filter(l => l.startsWith('nvidia_peermem ')).length) : '?'
  })
const probe = (name: string, ib: string, memlock = 'unlimited', modules = MODULES) =>
  parseProbeOutput(name, probeOf(ib, memlock, modules))

describe('check results', () => {
  it('worst status: fail over warn over pass; skipped counts for nothing', () => {
    expect(worst([])).toBe('pass')
    expect(worst(['pass', 'skipped'])).toBe('pass')
    expect(worst(['skipped', 'warn', 'pass'])).toBe('warn')
    expect(worst(['warn', 'fail', 'pass'])).toBe('fail')
    expect(worst(['fail', 'warn'])).toBe('fail')
  })

  it('a node’s result: problems fail it (warnings follow them), warnings alone warn, else the ok line', () => {
    expect(nodeResult('n1', ['a', 'b'], 'ok', ['w'])).toEqual({
      node: 'n1',
      status: 'fail',
      detail: 'a; b; w'
    })
    expect(nodeResult('n1', [], 'ok', ['w1', 'w2'])).toEqual({
      node: 'n1',
      status: 'warn',
      detail: 'w1; w2; ok'
    })
    expect(nodeResult('n1', [], 'ok')).toEqual({ node: 'n1', status: 'pass', detail: 'ok' })
  })

  it('quotes three nodes at most, then how many more', () => {
    const nodes = ['n1', 'n2', 'n3', 'n4', 'n5'].map(n => ({
      node: n,
      status: 'fail' as const,
      detail: `bad ${n}`
    }))
    expect(quoteNodes(nodes, 'fail')).toBe('n1: bad n1; n2: bad n2; n3: bad n3 (+2 more)')
    expect(quoteNodes(nodes.slice(0, 3), 'fail')).toBe('n1: bad n1; n2: bad n2; n3: bad n3')
    expect(quoteNodes(nodes, 'fail', 1)).toBe('n1: bad n1 (+4 more)')
    expect(quoteNodes(nodes, 'warn')).toBe('')
  })

  it('a check: its status and one line from the nodes and the cluster', () => {
    const pass = { node: 'n1', status: 'pass' as const, detail: 'fine' }
    const warn = { node: 'n2', status: 'warn' as const, detail: 'slow' }
    const fail = { node: 'n3', status: 'fail' as const, detail: 'down' }
    expect(nodeCheck('c', [pass], 'all good')).toEqual({
      name: 'c',
      status: 'pass',
      detail: 'all good',
      nodes: [pass]
    })
    expect(nodeCheck('c', [pass, warn], 'all good')).toMatchObject({
      status: 'warn',
      detail: '1 of 2 node(s) with warnings: n2: slow'
    })
    expect(nodeCheck('c', [pass, warn, fail], 'all good')).toMatchObject({
      status: 'fail',
      detail: '1 of 3 node(s) failing: n3: down'
    })
    expect(nodeCheck('c', [pass], 'all good', ['policy notReady'])).toMatchObject({
      status: 'fail',
      detail: 'policy notReady'
    })
    expect(nodeCheck('c', [pass], 'all good', [], ['use-host-mofed is true'])).toMatchObject({
      status: 'warn',
      detail: 'use-host-mofed is true'
    })
    expect(nodeCheck('c', [warn, fail], 'ok', ['p'], ['w'])).toMatchObject({
      status: 'fail',
      detail: 'p; 1 of 2 node(s) failing: n3: down; w'
    })
  })
})

describe('which nodes the probe can run on', () => {
  const s = settings()
  it('a Ready node advertising the resource (as a quantity) can be probed', () => {
    expect(unprobeable(node('n', { alloc: { 'rdma/hca_shared_devices_a': '1k' } }), s)).toBeUndefined()
    expect(unprobeable(node('n', { alloc: { 'rdma/hca_shared_devices_a': '1' } }), s)).toBeUndefined()
  })
  it('a NotReady node, or one with nothing to request, cannot', () => {
    expect(unprobeable(node('n', { ready: false, alloc: { 'rdma/hca_shared_devices_a': '1k' } }), s)).toBe(
      'node NotReady'
    )
    expect(unprobeable(node('n', { alloc: { 'rdma/hca_shared_devices_a': '0' } }), s)).toBe(
      'no allocatable rdma/hca_shared_devices_a for the probe pod to request'
    )
    expect(unprobeable(node('n'), settings({ 'rdma-resource-name': 'shared_ib' }))).toBe(
      'no allocatable rdma/shared_ib for the probe pod to request'
    )
  })
  it('a taint node-taints does not cover (NoSchedule or NoExecute) keeps the probe off; the rest do not', () => {
    const tainted = (...taints: Array<{ key: string; value?: string; effect: string }>) => ({
      ...node('n', { alloc: { 'rdma/hca_shared_devices_a': '1k' } }),
      spec: { taints }
    })
    const plain = settings()
    const sku = settings({ 'node-taints': 'sku=gpu:NoSchedule' })
    const skuAny = (n: KubeObject) => untoleratedTaint(n, sku)
    // Covered: the same key, value and effect; PreferNoSchedule; the taints DaemonSets tolerate.
    expect(skuAny(tainted({ key: 'sku', value: 'gpu', effect: 'NoSchedule' }))).toBeUndefined()
    expect(untoleratedTaint(tainted({ key: 'other', effect: 'PreferNoSchedule' }), plain)).toBeUndefined()
    expect(
      untoleratedTaint(tainted({ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }), plain)
    ).toBeUndefined()
    // Not covered: another value, another effect, another key; named key=value:effect (key:effect without a value).
    expect(skuAny(tainted({ key: 'sku', value: 'cpu', effect: 'NoSchedule' }))).toBe('sku=cpu:NoSchedule')
    expect(skuAny(tainted({ key: 'sku', value: 'gpu', effect: 'NoExecute' }))).toBe('sku=gpu:NoExecute')
    expect(skuAny(tainted({ key: 'dedicated', effect: 'NoExecute' }))).toBe('dedicated:NoExecute')
    expect(
      skuAny(
        tainted(
          { key: 'sku', value: 'gpu', effect: 'NoSchedule' },
          { key: 'team', value: 'a', effect: 'NoSchedule' }
        )
      )
    ).toBe('team=a:NoSchedule')
    expect(unprobeable(tainted({ key: 'team', value: 'a', effect: 'NoSchedule' }), plain)).toBe(
      "taint team=a:NoSchedule is not in node-taints, so workloads with the pool's tolerations (and the probe) cannot run there"
    )
    // A value-less taint against a toleration with a value: not covered; against Exists (key only): covered.
    expect(skuAny(tainted({ key: 'sku', effect: 'NoSchedule' }))).toBe('sku:NoSchedule')
    const exists = settings({ 'node-taints': 'sku:NoSchedule' })
    expect(untoleratedTaint(tainted({ key: 'sku', effect: 'NoSchedule' }), exists)).toBeUndefined()
  })
})

describe('what the probe’s facts say', () => {
  const a100 = settings({ 'vm-size': 'Standard_ND96asr_v4' })

  it('a healthy A100 node: the exact line', () => {
    expect(judgeFacts(probe('n1', ibstat(ib8)), a100)).toEqual({
      node: 'n1',
      status: 'pass',
      detail: '8 IB port(s) Active at 200 Gb/s; memlock unlimited; nvidia_peermem loaded'
    })
  })

  it('mixed rates are listed; a rate ibstat did not print shows as ?', () => {
    const mixed = judgeFacts(probe('n1', ibstat([...ib8.slice(0, 7), { ca: 'mlx5_ib7', gbps: 100 }])), a100)
    expect(mixed).toEqual({
      node: 'n1',
      status: 'warn',
      detail:
        'mlx5_ib7 at 100 Gb/s (Standard_ND96asr_v4 links run at 200); 8 IB port(s) Active at 200/100 Gb/s; memlock unlimited; nvidia_peermem loaded'
    })
    const f = probe('n1', ibstat(ib8))
    f.rateGbps = Object.fromEntries(Object.keys(f.rateGbps).map(k => [k, null]))
    expect(judgeFacts(f, a100).detail).toBe(
      '8 IB port(s) Active at ? Gb/s; memlock unlimited; nvidia_peermem loaded'
    )
  })

  it('fewer IB devices than the size has: a warning, unless a port is Down (then that fails)', () => {
    expect(judgeFacts(probe('n1', ibstat(ib8.slice(0, 6))), a100)).toEqual({
      node: 'n1',
      status: 'warn',
      detail:
        '6 IB device(s), Standard_ND96asr_v4 has 8; 6 IB port(s) Active at 200 Gb/s; memlock unlimited; nvidia_peermem loaded'
    })
    expect(
      judgeFacts(probe('n1', ibstat([...ib8.slice(0, 7), { ca: 'mlx5_ib7', state: 'Init', phys: '' }])), a100)
    ).toEqual({
      node: 'n1',
      status: 'fail',
      detail: 'mlx5_ib7 port 1 Init/Unknown'
    })
    const polling = judgeFacts(
      probe('n1', ibstat([...ib8.slice(0, 7), { ca: 'mlx5_ib7', state: 'Down', phys: 'Polling', gbps: 10 }])),
      a100
    )
    expect(polling.detail).toBe('mlx5_ib7 port 1 Down/Polling')
  })

  it('no IB port at all, with or without a tool error to quote', () => {
    expect(judgeFacts(probe('n1', ''), a100)).toEqual({
      node: 'n1',
      status: 'fail',
      detail: 'no InfiniBand ports'
    })
    expect(judgeFacts({ ...probe('n1', ''), ibstatError: 'no devices' }, a100).detail).toBe(
      'no InfiniBand ports (ibstat: no devices)'
    )
    const ethOnly = probe('n1', "CA 'mlx5_an0'\n\tPort 1:\n\t\tState: Active\n\t\tLink layer: Ethernet\n")
    expect(judgeFacts(ethOnly, a100).detail).toBe('no InfiniBand ports')
  })

  it('memlock and peermem, each with its line; a CPU-only size is not asked for peermem', () => {
    expect(judgeFacts(probe('n1', ibstat(ib8), '64', NO_PEERMEM), a100)).toEqual({
      node: 'n1',
      status: 'fail',
      detail:
        'ulimit -l = 64 (expected unlimited: ib-node-config memlock not in effect); nvidia_peermem not loaded (GPUDirect RDMA unavailable)'
    })
    const noLimit = probe('n1', ibstat(ib8))
    noLimit.memlock = null
    noLimit.memlockUnlimited = false
    expect(judgeFacts(noLimit, a100).detail).toBe(
      'ulimit -l = <none> (expected unlimited: ib-node-config memlock not in effect)'
    )
    expect(judgeFacts(probe('n1', ibstat(ib8), 'unlimited', ''), a100)).toEqual({
      node: 'n1',
      status: 'warn',
      detail:
        '/proc/modules unreadable: nvidia_peermem unknown; 8 IB port(s) Active at 200 Gb/s; memlock unlimited; nvidia_peermem loaded'
    })
    const hb = settings({ 'vm-size': 'Standard_HB120rs_v3' })
    expect(judgeFacts(probe('n1', ibstat([{ ca: 'mlx5_ib0' }]), 'unlimited', ''), hb)).toEqual({
      node: 'n1',
      status: 'pass',
      detail: '1 IB port(s) Active at 200 Gb/s; memlock unlimited'
    })
    // A size the table does not know: peermem is asked for.
    const unknown = settings({ 'vm-size': 'Standard_ND96isr_H100_v5' })
    unknown.nodePool.vmSize = 'Standard_NDxx_unknown'
    expect(judgeFacts(probe('n1', ibstat(ib8), 'unlimited', NO_PEERMEM), unknown).detail).toBe(
      'nvidia_peermem not loaded (GPUDirect RDMA unavailable)'
    )
  })

  it('a probe that produced nothing: its error is the node’s result', () => {
    expect(judgeFacts(emptyFacts('n1', 'probe pod unschedulable: 0/3 nodes are available'), a100)).toEqual({
      node: 'n1',
      status: 'fail',
      detail: 'probe pod unschedulable: 0/3 nodes are available'
    })
  })

  it('node-probe over the pool: every node accounted for, the summary per size', () => {
    const f = new Map<string, NodeFacts>([['n1', probe('n1', ibstat(ib8))]])
    const c = nodeProbeCheck(
      [node('n1'), node('n2'), node('n3')],
      f,
      new Map([['n3', 'node NotReady']]),
      a100
    )
    expect(c).toEqual({
      name: 'node-probe',
      status: 'fail',
      detail: '2 of 3 node(s) failing: n2: no probe result; n3: not probed: node NotReady',
      nodes: [
        {
          node: 'n1',
          status: 'pass',
          detail: '8 IB port(s) Active at 200 Gb/s; memlock unlimited; nvidia_peermem loaded'
        },
        { node: 'n2', status: 'fail', detail: 'no probe result' },
        { node: 'n3', status: 'fail', detail: 'not probed: node NotReady' }
      ]
    })
    expect(nodeProbeCheck([node('n1')], f, new Map(), a100).detail).toBe(
      '1 node(s) probed: IB ports Active, memlock unlimited, nvidia_peermem loaded'
    )
    const hb = settings({ 'vm-size': 'Standard_HB120rs_v3' })
    const one = new Map([['n1', probe('n1', ibstat([{ ca: 'mlx5_ib0' }]))]])
    expect(nodeProbeCheck([node('n1')], one, new Map(), hb).detail).toBe(
      '1 node(s) probed: IB ports Active, memlock unlimited'
    )
    // No nodes: nodes-ready fails once with the reason; the probe has nothing to do.
    expect(nodeProbeCheck([], new Map(), new Map(), a100)).toMatchObject({
      name: 'node-probe',
      status: 'skipped',
      nodes: []
    })
  })
})

describe('the probe’s termination message', () => {
  it('no header or no end line: an error quoting the first line printed, never a healthy node', () => {
    expect(parseProbeOutput('n1', '\n  sh: readlink: not found  \nmore').error).toBe(
      'probe output unreadable: sh: readlink: not found'
    )
    expect(parseProbeOutput('n1', `${PROBE_HEADER}\nmemlock unlimited\n`).error).toBe(
      'probe output incomplete (no end line: cut short or over 4096 bytes)'
    )
    expect(parseProbeOutput('n1', '').error).toBe('probe output unreadable (empty)')
    expect(emptyFacts('n1', 'e')).toEqual({
      node: 'n1',
      ibPorts: [],
      activeDevices: [],
      rateGbps: {},
      memlock: null,
      memlockUnlimited: false,
      peermemLoaded: null,
      openKernelModules: null,
      gpus: [],
      nics: [],
      error: 'e',
      ibstatError: null
    })
  })

  it('each line read on its own, from CRLF output too; a port 2 does not override port 1’s rate', () => {
    const text = [
      'sh: some noise before the header',
      PROBE_HEADER,
      'port mlx5_ib10 1 InfiniBand|4: ACTIVE|5: LinkUp|200 Gb/sec (4X HDR)',
      'port mlx5_ib10 2 InfiniBand|1: DOWN|2: Polling|100 Gb/sec (4X EDR)',
      'port mlx5_ib9 2 InfiniBand|4: ACTIVE|5: LinkUp|400 Gb/sec (4X NDR)',
      'port mlx5_an0 1 Ethernet|4: ACTIVE|5: LinkUp|40 Gb/sec (4X QDR)',
      'verbs mlx5_ib10 mlx5_an0 mlx5_ib9',
      'memlock   8192  ',
      'peermem 1',
      'gpudriver 1',
      'end'
    ].join('\r\n')
    const f = parseProbeOutput('n1', text)
    expect(f).toEqual({
      node: 'n1',
      ibPorts: [
        {
          ca: 'mlx5_ib10',
          port: 1,
          state: 'Active',
          physicalState: 'LinkUp',
          rateGbps: 200,
          linkLayer: 'InfiniBand'
        },
        {
          ca: 'mlx5_ib10',
          port: 2,
          state: 'Down',
          physicalState: 'Polling',
          rateGbps: 100,
          linkLayer: 'InfiniBand'
        },
        {
          ca: 'mlx5_ib9',
          port: 2,
          state: 'Active',
          physicalState: 'LinkUp',
          rateGbps: 400,
          linkLayer: 'InfiniBand'
        }
      ],
      activeDevices: ['mlx5_ib9', 'mlx5_ib10'],
      rateGbps: { mlx5_ib10: 200, mlx5_ib9: 400 },
      memlock: '8192',
      memlockUnlimited: false,
      peermemLoaded: true,
      openKernelModules: true,
      gpus: [],
      nics: [
        {
          device: 'mlx5_ib10',
          pciAddress: '',
          numaNode: -1,
          upstream: ['', ''],
          localGpu: null,
          locality: null
        },
        {
          device: 'mlx5_ib9',
          pciAddress: '',
          numaNode: -1,
          upstream: ['', ''],
          localGpu: null,
          locality: null
        }
      ],
      podDevices: [
        { ca: 'mlx5_an0', linkLayer: 'Ethernet' },
        { ca: 'mlx5_ib9', linkLayer: 'InfiniBand' },
        { ca: 'mlx5_ib10', linkLayer: 'InfiniBand' }
      ],
      error: null,
      ibstatError: null
    })
    expect(parseProbeOutput('n1', `${PROBE_HEADER}\npeermem ?\nend`).peermemLoaded).toBeNull()
    expect(parseProbeOutput('n1', `${PROBE_HEADER}\npeermem 0\nend`).peermemLoaded).toBe(false)
  })
})

describe('the read-only checks', () => {
  it('nodes-ready names what each node lacks: Ready (with the reason), the NFD label, mofed.wait', () => {
    const state = {
      pool: 'rdmapool',
      nodes: [
        node('n1'),
        node('n2', { ready: { reason: 'KubeletNotReady', message: 'container runtime\nnetwork not ready' } }),
        node('n3', { ready: false, labels: { 'network.nvidia.com/operator.mofed.wait': 'true' } }),
        node('n4', { labels: { 'feature.node.kubernetes.io/pci-15b3.present': 'false' } })
      ],
      observed: {},
      unreadable: {}
    }
    const c = checkNodesReady(state)
    expect(c.nodes).toEqual([
      { node: 'n1', status: 'pass', detail: 'Ready and labelled' },
      {
        node: 'n2',
        status: 'fail',
        detail: 'NotReady (KubeletNotReady: container runtime network not ready)'
      },
      { node: 'n3', status: 'fail', detail: 'NotReady; network.nvidia.com/operator.mofed.wait=true' },
      {
        node: 'n4',
        status: 'fail',
        detail: 'feature.node.kubernetes.io/pci-15b3.present=false (is the NodeFeatureRule applied?)'
      }
    ])
    const bare = node('n5')
    delete bare.metadata.labels!['network.nvidia.com/operator.mofed.wait']
    delete bare.metadata.labels!['feature.node.kubernetes.io/pci-15b3.present']
    expect(checkNodesReady({ ...state, nodes: [bare] }).nodes![0].detail).toBe(
      'feature.node.kubernetes.io/pci-15b3.present=<absent> (is the NodeFeatureRule applied?); network.nvidia.com/operator.mofed.wait=<absent>'
    )
    expect(checkNodesReady({ ...state, nodes: [node('n1'), node('n2', { ready: false })] }).detail).toBe(
      '1 of 2 node(s) failing: n2: NotReady'
    )
    expect(checkNodesReady({ ...state, nodes: [node('n1')] }).detail).toBe(
      '1 node(s) Ready, labelled feature.node.kubernetes.io/pci-15b3.present=true and network.nvidia.com/operator.mofed.wait=false'
    )
    const missing = checkNodesReady({ ...state, nodes: [], otherPools: ['nodepool1', 'rdmapol'] })
    expect(missing).toMatchObject({ name: 'nodes-ready', status: 'fail', nodes: [] })
    // The pools that exist, the closest one, and the input that fixes it.
    expect(missing.detail).toContain('nodepool1, rdmapol')
    expect(missing.detail).toContain('node-pool: rdmapol')
  })

  it('a component check: notes of ready nodes, what a node lacks, what could not be read', () => {
    const s = settings()
    const c = COMPONENTS['rdma-device-plugin'] as KubeComponent
    const n1 = node('n1', { alloc: { 'rdma/hca_shared_devices_a': '1k' } })
    const n2 = node('n2')
    const podOn = (n: string): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `dp-${n}`, namespace: 'kube-system', labels: { name: 'rdma-shared-dp-ds' } },
      spec: { nodeName: n, containers: [{ name: 'k8s-rdma-shared-dp-ds' }] },
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] }
    })
    const check = componentCheck(
      c,
      {
        pool: 'rdmapool',
        nodes: [n1, n2],
        observed: { 'rdma-device-plugin': { pods: [podOn('n1'), podOn('n2')], daemonsets: [] } },
        unreadable: {}
      },
      s
    )
    expect(check.nodes).toEqual([
      {
        node: 'n1',
        status: 'pass',
        detail: 'plugin pod dp-n1 Ready; allocatable rdma/hca_shared_devices_a = 1k'
      },
      { node: 'n2', status: 'fail', detail: 'allocatable rdma/hca_shared_devices_a = <absent>' }
    ])
    expect(check.detail).toBe(
      'daemonset/rdma-shared-dp-ds -n kube-system: DaemonSet not found; 1 of 2 node(s) failing: n2: allocatable rdma/hca_shared_devices_a = <absent>'
    )
    const gpu = COMPONENTS['gpu-operator'] as KubeComponent
    const unreadable = componentCheck(
      gpu,
      {
        pool: 'rdmapool',
        nodes: [n1],
        observed: { 'gpu-operator': { pods: [], policies: [] } },
        unreadable: { 'gpu-operator': { policies: 'HTTP 403 forbidden' } }
      },
      s
    )
    expect(unreadable.detail).toMatch(/^ClusterPolicy cluster-policy could not be read: HTTP 403 forbidden; /)
    expect(
      componentCheck(gpu, { pool: 'rdmapool', nodes: [], observed: {}, unreadable: {} }, s)
    ).toMatchObject({
      name: 'gpu-operator',
      status: 'skipped',
      nodes: []
    })
    expect(
      componentCheck(
        gpu,
        { pool: 'rdmapool', nodes: [n1], observed: {}, unreadable: {} },
        settings({ 'vm-size': 'Standard_HB120rs_v3' })
      )
    ).toEqual({
      name: 'gpu-operator',
      status: 'skipped',
      detail: 'Standard_HB120rs_v3 has no GPUs'
    })
  })

  it('the checks the plan lists, read-only but for the probe', () => {
    const list = verificationChecks(settings({ 'rdma-resource-name': 'shared_ib' }))
    expect(list.map(c => [c.name, c.readOnly])).toEqual([
      ['nodes-ready', true],
      ['ofed-driver', true],
      ['ib-node-config', true],
      ['rdma-device-plugin', true],
      ['gpu-operator', true],
      ['node-probe', false]
    ])
    expect(list[0].description).toBe(
      'every RDMA node Ready, labelled feature.node.kubernetes.io/pci-15b3.present=true and network.nvidia.com/operator.mofed.wait=false'
    )
    expect(list[3].description).toBe(
      'the rdma-device-plugin health rules: plugin Ready on every RDMA node and allocatable rdma/shared_ib > 0 on each'
    )
    expect(list[5].description).toBe(
      "one short-lived DaemonSet with a pod per RDMA node (the pool's tolerations, requests rdma/shared_ib: 1; results in each pod's termination message): IB ports Active with their rate (sysfs), ulimit -l unlimited, nvidia_peermem loaded, rdma/shared_ib gives pods every IB device and no Ethernet one (/dev/infiniband), the GPU local to each NIC (PCI topology, NUMA)"
    )
    expect(verificationChecks(settings({ 'vm-size': 'Standard_HB120rs_v3' }))[4].description).toMatch(
      /^the gpu-operator health rules: .* \(skipped: Standard_HB120rs_v3 has no GPUs\)$/
    )
  })
})
