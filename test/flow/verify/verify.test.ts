// Verification against the simulated cluster: a healthy stack passes every check and the probe
// (one DaemonSet, results in its pods' termination messages) reads each node's sysfs ports and
// PCI topology, ulimit -l and /proc/modules; broken worlds fail the right check on the right node
// (no NodeFeatureRule, a node without InfiniBand, no ib-node-config, no nvidia_peermem); the probe
// DaemonSet and its pods are always deleted; verify mode writes nothing but its namespace and the
// probe DaemonSet (one create, one delete, whatever the node count); drift mode writes nothing.
import { describe, expect, it, jest } from '@jest/globals'
import { runChecks } from '../../../src/verify/index.js'
import { probeDaemonSet, removeStaleProbes } from '../../../src/verify/probe.js'
import {
  byName,
  checksOn,
  expectPeermemCrashLoops,
  ibDevices,
  rdmaWorldForTests,
  requestStats,
  verifyOn,
  withRdmaWorld,
  workPodsGone
} from '../../support/verify-world.js'

jest.setTimeout(180_000)

describe('a healthy stack', () => {
  const w = rdmaWorldForTests({ nodes: 3 })

  it('passes every check, probes every node and leaves no pod behind', async () => {
    const v = await verifyOn(w)
    const checks = byName(v.checks)
    expect(Object.keys(checks)).toEqual([
      'nodes-ready',
      'ofed-driver',
      'ib-node-config',
      'rdma-device-plugin',
      'gpu-operator',
      'node-probe'
    ])
    for (const c of v.checks)
      expect({ name: c.name, status: c.status, detail: c.detail }).toMatchObject({ status: 'pass' })
    expect(checks['node-probe'].nodes).toHaveLength(3)
    expect(
      checks['node-probe'].nodes!.every(n =>
        /8 IB port\(s\) Active at 200 Gb\/s; memlock unlimited; nvidia_peermem loaded/.test(n.detail)
      )
    ).toBe(true)
    const f = v.facts!.get(w.rdmaNodes()[0])!
    expect(f.activeDevices).toEqual(ibDevices(8))
    // The GPU local to each NIC, from the node's PCI topology (ND A100 v4: 4 NUMA nodes of 2 pairs).
    expect(f.gpus.map(g => g.pciAddress)).toEqual([
      '0001:00:00.0',
      '0002:00:00.0',
      '0003:00:00.0',
      '0004:00:00.0',
      '0005:00:00.0',
      '0006:00:00.0',
      '0007:00:00.0',
      '0008:00:00.0'
    ])
    expect(f.nics.map(n => [n.device, n.localGpu, n.locality])).toEqual(
      f.activeDevices.map((d, i) => [d, i, 'numa'])
    )
    await workPodsGone(w)
    // verify mode: writes only its namespace (recorded in the ownership record, a ConfigMap in
    // kube-system) and the probe DaemonSet (created once, deleted once).
    const writes = w.recorder.records.filter(r => r.service === 'kube' && r.mutating)
    expect(new Set(writes.map(r => r.resource))).toEqual(new Set(['namespaces', 'configmaps', 'daemonsets']))
    expect(
      writes
        .filter(r => r.resource === 'configmaps')
        .every(r => r.path.startsWith('/api/v1/namespaces/kube-system/configmaps'))
    ).toBe(true)
    expect(writes.filter(r => r.resource === 'daemonsets').map(r => r.method)).toEqual(['POST', 'DELETE'])
    expect(
      writes
        .filter(r => r.resource === 'daemonsets')
        .every(r => r.path.startsWith('/apis/apps/v1/namespaces/aks-rdma-verify/'))
    ).toBe(true)
    // No pod log is read: the results come with the pods.
    expect(w.recorder.records.filter(r => r.path.endsWith('/log'))).toHaveLength(0)
  })

  it('deletes a probe DaemonSet a killed earlier run left, never a recent one of another run', async () => {
    const t = w.sim.store.type('apps', 'daemonsets')!
    // Another run's probe (no node matches it: it stands in for the object, not for a running probe).
    const ds = probeDaemonSet({ ...w.settings, runId: 'other-run' }, [w.rdmaNodes()[0]])
    ds.spec.template.spec.nodeSelector = { 'kubernetes.azure.com/agentpool': 'none' }
    const other = w.sim.store.create(t, ds as never)
    const names = () => w.sim.store.list(t, { namespace: 'aks-rdma-verify' }).items.map(d => d.metadata.name)
    // Just created: a concurrent run's, kept (only this run's own probe comes and goes).
    const v = await verifyOn(w)
    expect(v.checks.find(c => c.name === 'node-probe')!.status).toBe('pass')
    expect(names()).toEqual([other.metadata.name])
    // Older than any probe may last (2 × step-timeout, at least an hour): a killed run's, deleted.
    w.recorder.reset()
    // The simulator's clock runs ahead of the wall clock: age is counted from the object's own stamp.
    const created = Date.parse(other.metadata.creationTimestamp!)
    const later = created + Math.max(3_600_000, 2 * w.settings.wait.stepTimeoutMs) + 60_000
    expect(await removeStaleProbes(w.kube, w.settings, 'aks-rdma-verify', undefined, later)).toEqual([
      other.metadata.name
    ])
    expect(names()).toEqual([])
    expect(w.recorder.records.filter(r => r.mutating).map(r => r.method)).toEqual(['DELETE'])
  })

  it('drift mode runs only the read-only checks and writes nothing', async () => {
    w.recorder.reset()
    const checks = await runChecks({ settings: w.settings, kube: w.kube, mode: 'drift' })
    expect(byName(checks)['node-probe'].status).toBe('skipped')
    expect(checks.filter(c => c.name !== 'node-probe').every(c => c.status === 'pass')).toBe(true)
    expect(requestStats(w).mutating).toBe(0)
  })
})

describe('broken worlds', () => {
  it('without the NodeFeatureRule: no pci-15b3 label, no OFED, nothing to probe', () =>
    withRdmaWorld({ nodes: 2, stack: { nodeFeatureRule: false } }, async w => {
      const checks = await checksOn(w)
      expect(checks['nodes-ready'].status).toBe('fail')
      expect(checks['nodes-ready'].detail).toMatch(
        /pci-15b3.present=<absent> \(is the NodeFeatureRule applied\?\)/
      )
      expect(checks['ofed-driver'].status).toBe('fail')
      expect(checks['ofed-driver'].detail).toMatch(/NicClusterPolicy state notReady.*state-OFED/)
      expect(checks['rdma-device-plugin'].status).toBe('fail')
      expect(checks['node-probe'].status).toBe('fail')
      expect(
        checks['node-probe'].nodes!.every(n => /^not probed: no allocatable rdma\//.test(n.detail))
      ).toBe(true)
      await workPodsGone(w)
    }))

  it('a node without InfiniBand fails on that node only', () =>
    withRdmaWorld({ nodes: 3, scenario: { nodes: { noInfiniband: [1], degraded: [] } } }, async w => {
      const checks = await checksOn(w)
      const bad = w.rdmaNodes()[1]
      for (const c of Object.values(checks)) {
        expect({ check: c.name, status: c.status }).toEqual({ check: c.name, status: 'fail' })
        expect({
          check: c.name,
          failing: c.nodes!.filter(n => n.status !== 'pass').map(n => n.node)
        }).toEqual({ check: c.name, failing: [bad] })
      }
      // No InfiniBand VF, so no pci-15b3 label: the node never gets OFED or the RDMA resource.
      expect(checks['nodes-ready'].nodes!.find(n => n.node === bad)!.detail).toMatch(
        /pci-15b3.present=<absent>/
      )
      expect(checks['node-probe'].nodes!.find(n => n.node === bad)!.detail).toMatch(
        /^not probed: no allocatable rdma/
      )
      await workPodsGone(w)
    }))

  it('without ib-node-config: memlock stays at the image default (64 KiB on Ubuntu 22.04) in the probe', () =>
    withRdmaWorld({ nodes: 2, stack: { ibNodeConfig: false } }, async w => {
      const checks = await checksOn(w)
      expect(checks['ib-node-config'].status).toBe('fail')
      expect(checks['ib-node-config'].detail).toMatch(/no ib-node-config pod/)
      expect(checks['node-probe'].status).toBe('fail')
      expect(checks['node-probe'].nodes!.every(n => /ulimit -l = 64 /.test(n.detail))).toBe(true)
      expect(checks['ofed-driver'].status).toBe('pass')
    }))

  it('use-host-mofed true: nvidia-peermem-ctr crash-loops on every node, and the probe finds no nvidia_peermem', () =>
    withRdmaWorld({ nodes: 2, inputs: { 'use-host-mofed': 'true' } }, async w => {
      const checks = await checksOn(w)
      expectPeermemCrashLoops(checks)
      expect(checks['gpu-operator'].detail).toMatch(/use-host-mofed is true/)
      expect(checks['ib-node-config'].status).toBe('pass')
    }))

  it('without the GPU Operator: ClusterPolicy missing, no driver pods, no peermem', () =>
    withRdmaWorld({ nodes: 2, stack: { gpuOperator: false } }, async w => {
      const checks = await checksOn(w)
      expect(checks['gpu-operator'].status).toBe('fail')
      expect(checks['gpu-operator'].detail).toMatch(/ClusterPolicy cluster-policy not found/)
      expect(checks['node-probe'].nodes!.every(n => /nvidia_peermem not loaded/.test(n.detail))).toBe(true)
      expect(checks['rdma-device-plugin'].status).toBe('pass')
    }))
})

describe('large pools', () => {
  it('200 nodes are verified with a handful of requests: one probe DaemonSet, no request per node', () =>
    withRdmaWorld({ nodes: 200, vmSize: 'Standard_HB120rs_v3' }, async w => {
      const checks = await checksOn(w)
      for (const c of Object.values(checks))
        expect({ name: c.name, status: c.status }).toEqual({
          name: c.name,
          status: c.name === 'gpu-operator' ? 'skipped' : 'pass'
        })
      expect(checks['node-probe'].nodes).toHaveLength(200)
      const stats = requestStats(w)
      // Nothing here grows with the node count (a request per node would be 200 of them); the
      // bounds leave room for a watch re-established on a loaded machine.
      expect(stats.lists).toBeLessThan(20)
      expect(stats.total).toBeLessThan(40)
      expect(stats.byResource['POST pods']).toBeUndefined()
      expect(stats.byResource['POST daemonsets']).toBe(1)
      expect(stats.byResource['DELETE daemonsets']).toBe(1)
      expect(stats.byResource['GET pods']).toBeLessThan(10) // the probe pods' list and watch
      await workPodsGone(w)
    }))

  it('a bare 1000-node pool is read with paginated lists (limit 500 + continue), never a request per node', () =>
    withRdmaWorld({ nodes: 1000, vmSize: 'Standard_HB120rs_v3', bare: true }, async w => {
      const checks = await checksOn(w, 'drift')
      expect(checks['nodes-ready'].nodes).toHaveLength(1000)
      expect(checks['nodes-ready'].detail).toMatch(/1000 of 1000 node\(s\) failing/)
      const drift = requestStats(w)
      expect(drift.total).toBeLessThan(20)
      expect(drift.mutating).toBe(0)
      expect(w.recorder.records.filter(r => r.path === '/api/v1/nodes')).toHaveLength(2) // two pages of 500
      w.recorder.reset()
      // verify mode: no node can host a probe (no RDMA resource), so nothing is created per node either.
      const verify = await checksOn(w)
      expect(verify['node-probe'].nodes!.every(n => n.status === 'fail')).toBe(true)
      expect(requestStats(w).total).toBeLessThan(25)
      await workPodsGone(w)
    }))
})
