// The pipelined rollout at the stack level, on a simulated cluster whose RDMA pool is still being
// provisioned when applyStack starts (its nodes join over joinSpread later, and the node-pool
// promise resolves after that): the same end state as a sequential run of the same scenario (same
// objects, node labels, allocatable, one kubelet restart per node); on every node the guide's order
// (OFED → ib-node-config's init → device plugin; OFED → nvidia-peermem); a node that joins after
// the run goes through the same sequence with nothing global repeated; a node whose OFED build
// fails is named, blocks only itself, and the other nodes complete.
import { jest } from '@jest/globals'
import type { KubeObject } from '../../../src/kube/types.js'
import type { Settings } from '../../../src/settings/settings.js'
import { helmReleaseCounts } from '../../../sim/helm/index.js'
import type { NodeTimeline } from '../../../sim/kube/hardware.js'
import { applyStack, type ApplyStackResult, type PoolInfo } from '../../../src/stack/index.js'
import {
  collectLog,
  POOL,
  rdmaPool,
  startStackWorld,
  storeList,
  useHelmStandin,
  type CollectedLog,
  type StackWorld
} from '../../support/stack-world.js'
import { clusterStackAfter } from '../../support/components.js'

jest.setTimeout(300_000)

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms))

beforeAll(() => useHelmStandin())

/** A stack world whose RDMA pool is not there yet, with the settings of one rollout. */
type RolloutWorld = Omit<StackWorld, 'settings'> & { settings: Settings }

async function world(
  rollout: 'sequential' | 'pipelined',
  scenario: Record<string, unknown> = {}
): Promise<RolloutWorld> {
  const w = await startStackWorld({ nodes: 0, scenario: { nodes: { joinSpread: '120s' }, ...scenario } })
  return { ...w, settings: w.settings({ rollout }, `run-${rollout}`) }
}

/**
 * Stands for ARM: the pool's nodes start joining once `boot` holds (polled), the pool is done once
 * all have; `joining.at` is when the first one could.
 */
function provisionLater(
  w: RolloutWorld,
  count: number,
  boot: () => boolean,
  joining: { at?: number } = {}
): Promise<PoolInfo> {
  return (async () => {
    while (!boot()) await sleep(10)
    joining.at = Date.now()
    w.sim.addPool(rdmaPool(count))
    while (rdmaNodeNames(w).length < count) await sleep(10)
    await sleep(20)
    return { count }
  })()
}

function rdmaNodeNames(w: RolloutWorld): string[] {
  return Object.entries(w.sim.nodeStates())
    .filter(([, s]) => s.pool === POOL)
    .map(([n]) => n)
    .sort()
}

const list = (w: RolloutWorld, group: string, plural: string, ns?: string): KubeObject[] =>
  storeList(w, plural, ns, undefined, group)

/** The kinds (group, plural) of the cluster-wide objects a run leaves behind. */
const END_STATE_KINDS = [
  ['apps', 'daemonsets'],
  ['apps', 'deployments'],
  ['mellanox.com', 'nicclusterpolicies'],
  ['nfd.k8s-sigs.io', 'nodefeaturerules'],
  ['nvidia.com', 'clusterpolicies']
]

/** What a run leaves behind that both rollouts must agree on. */
function endState(w: RolloutWorld) {
  const names = new Set(rdmaNodeNames(w))
  const nodes = list(w, '', 'nodes').filter(n => names.has(n.metadata.name))
  const ref = (o: KubeObject) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`
  const owned = (p: KubeObject) =>
    `${p.metadata.namespace}/${p.metadata.ownerReferences?.[0]?.name ?? p.metadata.name}@${p.spec?.nodeName}`
  // Per-node pods: those of DaemonSets. (Deployments' pods land wherever there was room: with the
  // pool still provisioning, pipelined puts the operators on the system pool.)
  const perNode = (p: KubeObject) => p.metadata.ownerReferences?.[0]?.kind === 'DaemonSet'
  return {
    objects: [
      ...END_STATE_KINDS.flatMap(([group, plural]) => list(w, group, plural)),
      ...list(w, '', 'configmaps', 'kube-system').filter(c => c.metadata.name === 'rdma-devices')
    ]
      .map(ref)
      .sort(),
    pods: list(w, '', 'pods')
      .filter(p => names.has(p.spec?.nodeName) && perNode(p))
      .map(owned)
      .sort(),
    labels: Object.fromEntries(nodes.map(n => [n.metadata.name, n.metadata.labels])),
    allocatable: Object.fromEntries(nodes.map(n => [n.metadata.name, n.status.allocatable])),
    kubeletRestarts: Object.fromEntries([...names].map(n => [n, w.sim.kubeletRestarts()[n]])),
    ibNodeConfigRuns: [...names].map(n => w.sim.nodeStates()[n].ibNodeConfigRuns)
  }
}

/** The guide's order on one node, from the simulator's per-node timeline. */
function expectNodeOrder(node: string, t: NodeTimeline): void {
  const at = (k: keyof NodeTimeline) => {
    expect([node, k, t[k]]).toEqual([node, k, expect.any(Number)])
    return t[k]!
  }
  expect(at('ofedReadyAt')).toBeLessThanOrEqual(at('ibNodeConfigInitAt'))
  expect(at('ibNodeConfigInitAt')).toBeLessThanOrEqual(at('devicePluginStartedAt'))
  expect(at('devicePluginStartedAt')).toBeLessThanOrEqual(at('rdmaAdvertisedAt'))
  expect(at('ofedReadyAt')).toBeLessThanOrEqual(at('peermemReadyAt'))
  expect(at('joinedAt')).toBeLessThanOrEqual(at('ofedReadyAt'))
}

const msOf = (iso: string) => Date.parse(iso)
const step = (r: ApplyStackResult, name: string) => r.steps.find(s => s.name === name)!

function explain(r: ApplyStackResult, log: CollectedLog): void {
  if (!r.ok) console.log(r.diagnostics.map(d => d.text).join('\n'), log.lines.slice(-60).join('\n'))
}

describe('pipelined rollout (stack level)', () => {
  it('writes the stack while the pool provisions, keeps the per-node order, and ends as sequential does', async () => {
    const seq = await world('sequential')
    const pip = await world('pipelined')
    try {
      // Sequential: the pool is there (joined) before the stack starts, as the flow does it.
      seq.sim.addPool(rdmaPool(3))
      while (rdmaNodeNames(seq).length < 3) await sleep(10)
      const seqLog = collectLog()
      const a = await applyStack({ settings: seq.settings, kubeconfigPath: seq.kubeconfigPath, log: seqLog })
      explain(a, seqLog)
      expect(a.ok).toBe(true)

      // Pipelined: the pool's nodes join only after the stack has started.
      const log = collectLog()
      const joining: { at?: number } = {}
      const written = () => log.lines.some(l => l.startsWith('gpu-operator: written'))
      const nodePool = provisionLater(pip, 3, written, joining)
      const b = await applyStack({
        settings: pip.settings,
        kubeconfigPath: pip.kubeconfigPath,
        log,
        nodePool
      })
      explain(b, log)
      expect(b.ok).toBe(true)
      expect(b.steps.map(s => [s.name, s.status])).toEqual(a.steps.map(s => [s.name, 'success']))

      // Every step was written before any RDMA node existed; the waits overlap.
      for (const s of b.steps) expect(msOf(s.startedAt)).toBeLessThanOrEqual(joining.at!)
      expect(msOf(step(b, 'gpu-operator').startedAt)).toBeLessThan(
        msOf(step(b, 'nic-cluster-policy').finishedAt)
      )
      expect(msOf(step(b, 'ib-node-config').startedAt)).toBeLessThan(
        msOf(step(b, 'node-feature-rule').finishedAt)
      )
      // Per-node progress is reported per step.
      expect(log.lines).toContainEqual(
        expect.stringMatching(/^ib-node-config: ib-setup completed on [0-3]\/3 nodes/)
      )
      expect(log.lines).toContainEqual(expect.stringMatching(/node pool still provisioning/))

      // Same end state; the guide's order on every node of both.
      expect(endState(pip)).toEqual(endState(seq))
      const e = endState(pip)
      expect(Object.values(e.kubeletRestarts)).toEqual([1, 1, 1])
      expect(e.ibNodeConfigRuns).toEqual([1, 1, 1])
      for (const w of [seq, pip])
        for (const n of rdmaNodeNames(w)) expectNodeOrder(n, w.sim.nodeTimeline()[n])
      // Pipelined: the plugin's init container let it start on a node only once ib-node-config
      // had finished there (whether it had to wait for it depends on which came first: the OFED
      // driver's ready file, which ib-node-config waits for, or the mofed.wait label the plugin's
      // DaemonSet is scheduled on). The order itself is checked per node above.
      for (const p of list(pip, '', 'pods', 'kube-system').filter(
        x => x.metadata.labels?.name === 'rdma-shared-dp-ds'
      )) {
        const text = pip.sim.logs('kube-system', p.metadata.name, 'wait-for-ib-node-config') ?? ''
        expect(text).toContain('ib-node-config has completed on this node')
      }
    } finally {
      await seq.close()
      await pip.close()
    }
  })

  it('a node that joins later goes through the same sequence, with nothing global repeated', async () => {
    const w = await world('pipelined')
    try {
      const log = collectLog()
      const nodePool = provisionLater(w, 2, () => true)
      const r = await applyStack({ settings: w.settings, kubeconfigPath: w.kubeconfigPath, log, nodePool })
      explain(r, log)
      expect(r.ok).toBe(true)
      const secrets = () => list(w, '', 'secrets').filter(s => s.metadata.labels?.owner === 'helm')
      const helmBefore = helmReleaseCounts(secrets())
      const generations = () =>
        list(w, 'apps', 'daemonsets')
          .map(d => `${d.metadata.name}:${d.metadata.generation}`)
          .sort()
      const gensBefore = generations()
      const before = rdmaNodeNames(w)
      w.recorder.reset()

      // No action runs now: the pool grows by one (a replaced or added node).
      w.sim.setPoolCount(POOL, 3)
      // Waited for as events (the test's timeout bounds it), never against the clock.
      let late = ''
      for (;;) {
        late = rdmaNodeNames(w).find(n => !before.includes(n)) ?? ''
        const t = late ? w.sim.nodeTimeline()[late] : undefined
        if (t?.devicePluginStartedAt && t.peermemReadyAt && t.rdmaAdvertisedAt) break
        await sleep(20)
      }
      expect(late).not.toBe('')
      expectNodeOrder(late, w.sim.nodeTimeline()[late])
      const node = list(w, '', 'nodes').find(n => n.metadata.name === late)!
      expect(node.metadata.labels?.['network.nvidia.com/operator.mofed.wait']).toBe('false')
      expect(node.status.allocatable['rdma/hca_shared_devices_a']).toBe('1k')
      // Only the new node was set up: one kubelet restart there, none more elsewhere; no helm
      // upgrade, no DaemonSet changed, nothing written from outside the cluster.
      const restarts = w.sim.kubeletRestarts()
      expect(rdmaNodeNames(w).map(n => [n, restarts[n]])).toEqual([...before, late].map(n => [n, 1]))
      expect(helmReleaseCounts(secrets())).toEqual(helmBefore)
      expect(generations()).toEqual(gensBefore)
      expect(w.recorder.records.filter(x => x.mutating)).toEqual([])
    } finally {
      await w.close()
    }
  })

  it('a node whose OFED build fails is named and blocks only itself; the others complete', async () => {
    const w = await world('pipelined', { nodes: { joinSpread: '60s', ofedFails: [1] } })
    try {
      const log = collectLog()
      const nodePool = provisionLater(w, 3, () => true)
      const r = await applyStack({ settings: w.settings, kubeconfigPath: w.kubeconfigPath, log, nodePool })
      expect(r.ok).toBe(false)
      const states = w.sim.nodeStates()
      const bad = Object.keys(states).find(n => states[n].pool === POOL && states[n].rdmaIndex === 1)!
      const good = rdmaNodeNames(w).filter(n => n !== bad)
      expect(good).toHaveLength(2)

      const ncp = step(r, 'nic-cluster-policy')
      expect(ncp.status).toBe('failure')
      expect(ncp.detail).toContain(`node ${bad}:`)
      expect(ncp.detail).toMatch(/mofed-container is in CrashLoopBackOff/)
      expect(r.diagnostics.map(d => d.step)).toEqual(['nic-cluster-policy'])
      expect(r.diagnostics[0].title).toContain(bad)
      // The build log tail (the crash line itself may not be flushed yet when it is read).
      expect(r.diagnostics[0].text).toMatch(/Building driver packages|failed to build mlnx-ofed-kernel-dkms/)
      for (const name of clusterStackAfter('nic-cluster-policy')) {
        const s = step(r, name)
        expect([name, s.status]).toEqual([name, 'failure'])
        expect(s.detail).toContain(`node ${bad}: blocked (nic-cluster-policy failed there)`)
        expect(s.detail).toMatch(/on 2\/3 nodes/)
      }
      expect(step(r, 'network-operator').status).toBe('success')
      expect(step(r, 'node-feature-rule').status).toBe('success')

      // The other nodes went through their whole sequence; the failed one stopped before ib-node-config.
      for (const n of good) expectNodeOrder(n, w.sim.nodeTimeline()[n])
      const t = w.sim.nodeTimeline()[bad]
      expect(t.ofedReadyAt).toBeUndefined()
      expect(t.ibNodeConfigInitAt).toBeUndefined()
      expect(t.devicePluginStartedAt).toBeUndefined()
      expect(t.peermemReadyAt).toBeUndefined()
      expect(w.sim.kubeletRestarts()[bad]).toBe(0)
    } finally {
      await w.close()
    }
  })
})
