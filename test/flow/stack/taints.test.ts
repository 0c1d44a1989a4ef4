// A tainted RDMA pool (the common AKS GPU taint sku=gpu:NoSchedule) on the simulated cluster, whose
// scheduler, DaemonSet controller, NFD and Network Operator honour taints as a real cluster does:
// with node-taints the whole stack converges; with the toleration taken from one component (a
// values or policy file that replaces it, a DaemonSet edited behind the action's back) that
// component never lands on the pool, its step fails at once and the diagnostic names the taint and
// what does not tolerate it. A mofed.wait flip (the OFED driver restarting) recreates no
// ib-node-config pod and restarts no kubelet; a recreated ib-node-config pod restarts nothing.
import { jest } from '@jest/globals'
import { nicClusterPolicySpec } from '../../../src/components/nic-cluster-policy.js'
import { KubeClient } from '../../../src/kube/client.js'
import type { KubeObject } from '../../../src/kube/types.js'
import { GPU_TOLERATION } from '../../../src/model/tolerations.js'
import { applyStack } from '../../../src/stack/index.js'
import { readClusterState } from '../../../src/verify/cluster-state.js'
import { readOnlyChecks } from '../../../src/verify/read-only-checks.js'
import {
  applyOn,
  collectLog,
  POOL,
  poolNodes,
  poolNodeStates,
  storeList as list,
  useHelmStandin,
  withStackWorld,
  type StackWorld
} from '../../support/stack-world.js'

jest.setTimeout(300_000)

beforeAll(() => useHelmStandin())

const TAINT = 'sku=gpu:NoSchedule'
const NOT_TOLERATED = 'node taint sku=gpu:NoSchedule is not tolerated by'

const onPool = (w: StackWorld, pods: KubeObject[]) => {
  const names = new Set(poolNodes(w).map(n => n.metadata.name))
  return pods.filter(p => names.has(p.spec?.nodeName))
}

describe('a pool tainted sku=gpu:NoSchedule', () => {
  it('with node-taints sku=gpu:NoSchedule the whole stack converges and every node agent runs on the pool', () =>
    withStackWorld({ nodes: 2, taints: [TAINT] }, async w => {
      const log = collectLog()
      const res = await applyOn(w, { inputs: { 'node-taints': TAINT, rollout: 'pipelined' }, log })
      if (!res.ok) console.log(res.diagnostics.map(d => d.text).join('\n'))
      expect(res.ok).toBe(true)
      expect(res.steps.map(s => s.status)).toEqual(Array(6).fill('success'))
      for (const n of poolNodes(w)) {
        expect(n.spec.taints).toEqual([{ key: 'sku', value: 'gpu', effect: 'NoSchedule' }])
        expect(n.metadata.labels?.['feature.node.kubernetes.io/pci-15b3.present']).toBe('true')
        expect(n.status.allocatable['rdma/hca_shared_devices_a']).toBe('1k')
        expect(n.status.allocatable['nvidia.com/gpu']).toBe('8')
      }
      const perNode = (pods: KubeObject[]) => onPool(w, pods).length
      expect(perNode(list(w, 'pods', 'network-operator', 'role=worker'))).toBe(2)
      expect(perNode(list(w, 'pods', 'network-operator', 'nvidia.com/ofed-driver'))).toBe(2)
      expect(perNode(list(w, 'pods', 'kube-system', 'app=ib-node-config'))).toBe(2)
      expect(perNode(list(w, 'pods', 'kube-system', 'name=rdma-shared-dp-ds'))).toBe(2)
      expect(perNode(list(w, 'pods', 'gpu-operator', 'app=nvidia-driver-daemonset'))).toBe(2)
      // The node agents run system-node-critical, resolved by the API server's Priority admission.
      for (const p of list(w, 'pods', 'kube-system', 'app=ib-node-config'))
        expect(p.spec).toMatchObject({ priorityClassName: 'system-node-critical', priority: 2000001000 })
      // The NFD worker runs on the RDMA pool only (the system node is not labelled by it).
      const workers = list(w, 'pods', 'network-operator', 'role=worker')
      expect(workers.map(p => p.spec.nodeName).every(n => n.startsWith(`aks-${POOL}-`))).toBe(true)
    }))

  const failing: Array<[string, string, (s: any) => void, RegExp]> = [
    [
      'the NFD worker (a network-operator values file replacing its tolerations)',
      'node-feature-rule',
      s =>
        (s.stack.networkOperatorValues = {
          'node-feature-discovery': { worker: { tolerations: [GPU_TOLERATION] } }
        }),
      /not tolerated by the NFD worker \(network-operator values node-feature-discovery\.worker\.tolerations\)/
    ],
    [
      'the NicClusterPolicy (a policy file without spec.tolerations)',
      'nic-cluster-policy',
      s => {
        const { tolerations: _dropped, ...spec } = nicClusterPolicySpec(s)
        s.stack.nicClusterPolicy = { spec }
      },
      /not tolerated by the NicClusterPolicy \(spec\.tolerations\)/
    ],
    [
      'the GPU Operator operands (a gpu-operator values file replacing daemonsets.tolerations)',
      'gpu-operator',
      s => (s.stack.gpuOperatorValues = { daemonsets: { tolerations: [GPU_TOLERATION] } }),
      /not tolerated by the GPU Operator operands \(gpu-operator values daemonsets\.tolerations\)/
    ]
  ]
  it.each(failing)(
    'without the toleration on %s its step fails at once and says why',
    (_what, step, drop, why) =>
      withStackWorld({ nodes: 2, taints: [TAINT] }, async w => {
        const settings = w.settings({ 'node-taints': TAINT })
        drop(settings)
        const log = collectLog()
        const res = await applyStack({ settings, kubeconfigPath: w.kubeconfigPath, log })
        expect(res.ok).toBe(false)
        const failed = res.steps.find(s => s.status === 'failure')!
        expect(failed.name).toBe(step)
        const diag = res.diagnostics.find(d => d.step === step)!
        expect(diag.title).toMatch(new RegExp(`^${step}: aks-${POOL}-\\d+-vmss00000\\d: `))
        expect(diag.text).toContain(NOT_TOLERATED)
        expect(diag.text).toMatch(why)
        expect(diag.text).toContain('add the taint to node-taints so the stack tolerates it')
        // Failed at once, not at step-timeout: the wait saw the reason that does not pass.
        expect(failed.detail ?? '').not.toMatch(/timed out/)
      })
  )

  it('ib-node-config and the device plugin edited to drop the toleration do not come back to the pool, and verification says why', () =>
    withStackWorld({ nodes: 2, taints: [TAINT] }, async w => {
      const settings = w.settings({ 'node-taints': TAINT })
      const res = await applyStack({ settings, kubeconfigPath: w.kubeconfigPath, log: collectLog() })
      expect(res.ok).toBe(true)
      const dsT = w.sim.store.type('apps', 'daemonsets')!
      for (const name of ['ib-node-config', 'rdma-shared-dp-ds'])
        w.sim.store.mutate(dsT, 'kube-system', name, o => {
          o.spec.template.spec.tolerations = [GPU_TOLERATION]
        })
      const kube = KubeClient.fromFile(w.kubeconfigPath, { retries: 2 })
      const agents = () =>
        onPool(w, [
          ...list(w, 'pods', 'kube-system', 'app=ib-node-config'),
          ...list(w, 'pods', 'kube-system', 'name=rdma-shared-dp-ds')
        ])
      // As on a real cluster, ib-node-config's pods (OnDelete) stay through a NoSchedule taint their
      // new template does not tolerate (only NoExecute evicts); once they go (a drain, a reboot, an
      // eviction) they are not recreated. (The device plugin's roll to the new template.)
      await new Promise(r => setTimeout(r, 200))
      expect(onPool(w, list(w, 'pods', 'kube-system', 'app=ib-node-config'))).toHaveLength(2)
      const podT = w.sim.store.type('', 'pods')!
      for (const p of agents()) w.sim.store.delete(podT, 'kube-system', p.metadata.name)
      await new Promise(r => setTimeout(r, 300))
      expect(agents()).toEqual([])
      const checks = readOnlyChecks(await readClusterState(kube, settings), settings)
      const byName = Object.fromEntries(checks.map(c => [c.name, c]))
      expect(byName['ib-node-config'].status).toBe('fail')
      expect(byName['ib-node-config'].detail).toContain(
        'daemonset/ib-node-config -n kube-system does not tolerate node taint sku=gpu:NoSchedule of 2 node(s)'
      )
      expect(byName['ib-node-config'].detail).toContain('ib-node-config is never scheduled there')
      expect(byName['rdma-device-plugin'].status).toBe('fail')
      expect(byName['rdma-device-plugin'].detail).toContain(
        'daemonset/rdma-shared-dp-ds -n kube-system does not tolerate node taint sku=gpu:NoSchedule of 2 node(s)'
      )
    }))
})

describe('ib-node-config restarts kubelet and containerd once per node', () => {
  it('a mofed.wait flip (the OFED driver restarting) recreates no ib-node-config pod and restarts nothing; a recreated pod restarts nothing either', () =>
    withStackWorld({ nodes: 2 }, async w => {
      const res = await applyOn(w, { inputs: { rollout: 'pipelined' } })
      expect(res.ok).toBe(true)
      const restarts = () => poolNodeStates(w).map(s => [s.kubeletRestarts, s.containerdRestarts])
      expect(restarts()).toEqual([
        [1, 1],
        [1, 1]
      ])
      const ibPods = () =>
        onPool(w, list(w, 'pods', 'kube-system', 'app=ib-node-config'))
          .map(p => p.metadata.uid)
          .sort()
      const before = ibPods()
      expect(before).toHaveLength(2)

      // The OFED driver restarts on every node (a driver upgrade, a crash): the operator flips
      // mofed.wait to true until the new driver pod is Ready, then back to false.
      const podT = w.sim.store.type('', 'pods')!
      const flipped = new Set<string>()
      let watching = true
      w.sim.controllers.ctx.cache.onEvent(e => {
        if (
          watching &&
          e.object.kind === 'Node' &&
          e.object.metadata.labels?.['network.nvidia.com/operator.mofed.wait'] === 'true'
        )
          flipped.add(e.object.metadata.name)
      })
      for (const p of list(w, 'pods', 'network-operator', 'nvidia.com/ofed-driver'))
        w.sim.store.delete(podT, 'network-operator', p.metadata.name)
      const deadline = Date.now() + 60_000
      const settled = () =>
        poolNodes(w).every(n => n.metadata.labels?.['network.nvidia.com/operator.mofed.wait'] === 'false') &&
        poolNodeStates(w).every(s => s.ofedReady)
      while (flipped.size < 2 || !settled()) {
        if (Date.now() > deadline)
          throw new Error(`mofed.wait did not flip and settle (flipped: ${[...flipped]})`)
        await new Promise(r => setTimeout(r, 50))
      }
      watching = false
      expect(flipped.size).toBe(2)
      expect(ibPods()).toEqual(before)
      expect(restarts()).toEqual([
        [1, 1],
        [1, 1]
      ])

      // A recreated ib-node-config pod (evicted, node rebooted) runs its setup again: nothing to restart.
      const [one] = onPool(w, list(w, 'pods', 'kube-system', 'app=ib-node-config'))
      w.sim.store.delete(podT, 'kube-system', one.metadata.name)
      const runs = () => w.sim.nodeStates()[one.spec.nodeName].ibNodeConfigRuns
      while (runs() < 2) {
        if (Date.now() > deadline) throw new Error('the recreated ib-node-config pod did not run its setup')
        await new Promise(r => setTimeout(r, 50))
      }
      expect(restarts()).toEqual([
        [1, 1],
        [1, 1]
      ])
    }))
})
