// applyStack under the scenarios that matter: an 8-node pool; watch disconnects and API 500s;
// a crash-looping device plugin (fails fast, its log in the diagnostics); a pool without
// Infiniband (the clear NFD message); two concurrent runs serialised by the Lease.
import { jest } from '@jest/globals'
import { helmReleaseCounts } from '../../../sim/helm/index.js'
import {
  applyOn,
  collectLog,
  ibNodeConfigRuns,
  poolNodes,
  storeList,
  useHelmStandin,
  withStackWorld
} from '../../support/stack-world.js'
import { clusterStackAfter, clusterStatuses } from '../../support/components.js'

jest.setTimeout(240_000)

beforeAll(() => useHelmStandin())

describe('an 8-node pool', () => {
  it('converges every node, reporting per-node progress', () =>
    withStackWorld({ nodes: 8 }, async w => {
      const log = collectLog()
      const res = await applyOn(w, { log })
      if (!res.ok) console.log(res.diagnostics.map(d => d.text).join('\n'))
      expect(res.ok).toBe(true)
      expect(res.steps.every(s => s.status === 'success' && s.changed)).toBe(true)
      expect(log.lines).toContainEqual(
        expect.stringMatching(/^nic-cluster-policy: OFED driver ready on 8\/8 nodes, policy state ready/)
      )
      expect(log.lines).toContainEqual(
        expect.stringMatching(/^ib-node-config: ib-setup completed on 8\/8 nodes/)
      )
      const nodes = poolNodes(w)
      expect(nodes).toHaveLength(8)
      for (const n of nodes) {
        expect(n.metadata.labels?.['network.nvidia.com/operator.mofed.wait']).toBe('false')
        expect(n.status.allocatable['rdma/hca_shared_devices_a']).toBe('1k')
      }
      // ib-node-config ran exactly once per node
      expect(ibNodeConfigRuns(w)).toEqual(Array(8).fill(1))
    }))
})

describe('an unreliable API server', () => {
  it('survives watch disconnects every 20s and two 500s on PATCH', () =>
    withStackWorld(
      {
        nodes: 2,
        scenario: {
          kube: {
            timeScale: 0.001,
            faults: [
              { watch: 'disconnect', every: '20s' },
              { api: 'PATCH *', status: 500, times: 2 }
            ]
          }
        }
      },
      async w => {
        const log = collectLog()
        const res = await applyOn(w, { log, retryBaseDelayMs: 10 })
        if (!res.ok) console.log(res.diagnostics.map(d => d.text).join('\n'))
        expect(res.ok).toBe(true)
        const patches = w.recorder.records.filter(r => r.method === 'PATCH')
        expect(patches.filter(p => p.status === 500)).toHaveLength(2)
        expect(log.lines.filter(l => /retry \d\/3/.test(l))).toHaveLength(2)
        // How many watches the cuts hit depends on how fast this machine is; that a cut watch
        // resumes is test/unit/kube/watch.test.ts's. Here: every wait still converged (res.ok above).
      }
    ))
})

describe('a crash-looping RDMA device plugin', () => {
  it('fails the step at once with the pod, its state and its log in the diagnostics', () =>
    withStackWorld(
      {
        nodes: 2,
        scenario: {
          kube: { timeScale: 0.001, faults: [{ pod: 'rdma-shared-dp-ds', kind: 'CrashLoopBackOff' }] }
        }
      },
      async w => {
        const log = collectLog()
        const res = await applyOn(w, { inputs: { 'step-timeout': '10m' }, log })
        expect(res.ok).toBe(false)
        expect(res.steps.map(s => [s.name, s.status])).toEqual(
          clusterStatuses('success', { 'rdma-device-plugin': 'failure', 'gpu-operator': 'skipped' })
        )
        const step = res.steps[4]
        expect(step.detail).toMatch(
          /pod kube-system\/rdma-shared-dp-ds-\S+ on node \S+: container k8s-rdma-shared-dp-ds is in CrashLoopBackOff/
        )
        expect(step.detail).not.toContain('not ready after')
        expect(res.steps[5].detail).toBe('not run: rdma-device-plugin failed')
        expect(res.diagnostics).toHaveLength(1)
        const d = res.diagnostics[0]
        expect(d.step).toBe('rdma-device-plugin')
        expect(d.title).toContain('CrashLoopBackOff')
        expect(d.text).toContain('Waited for: plugin Ready on every RDMA node')
        expect(d.text).toMatch(/k8s-rdma-shared-dp-ds: waiting \(CrashLoopBackOff/)
        expect(d.text).toContain('restarts=')
        expect(d.text).toContain('simulated failure')
        expect(log.errors).toEqual([d.title])
      }
    ))
})

describe('a pool without InfiniBand', () => {
  it('fails the NodeFeatureRule step with the clear message after the grace period', () =>
    withStackWorld({ nodes: 2, scenario: { nodes: { noInfiniband: [0, 1] } } }, async w => {
      const res = await applyOn(w, { nfdGraceMs: 1500 })
      expect(res.ok).toBe(false)
      const step = res.steps.find(s => s.name === 'node-feature-rule')!
      expect(step.status).toBe('failure')
      expect(step.detail).toContain("no Mellanox IB device found on the pool's nodes")
      expect(res.steps.filter(s => s.status === 'skipped').map(s => s.name)).toEqual(
        clusterStackAfter('node-feature-rule')
      )
      expect(res.diagnostics[0].text).toContain('Troubleshooting:')
    }))
})

describe('two concurrent runs', () => {
  it('are serialised by the Lease: one converges, the other waits and then finds nothing to do', () =>
    withStackWorld({ nodes: 2 }, async w => {
      const logA = collectLog()
      const logB = collectLog()
      const [a, b] = await Promise.all([
        applyOn(w, { runId: 'run-a', log: logA }),
        applyOn(w, { runId: 'run-b', log: logB })
      ])
      expect(a.ok && b.ok).toBe(true)
      const changedA = a.steps.filter(s => s.changed).length
      const changedB = b.steps.filter(s => s.changed).length
      const [winner, loser, loserLog] = changedA > 0 ? [a, b, logB] : [b, a, logA]
      expect(winner.steps.every(s => s.changed)).toBe(true)
      expect(loser.steps.every(s => !s.changed && s.status === 'success')).toBe(true)
      expect(changedA === 0 || changedB === 0).toBe(true)
      const waitLine = loserLog.lines.find(l => l.includes('is held by run'))
      expect(waitLine).toMatch(/held by run run-[ab] \(for \S+/)
      expect(helmReleaseCounts(storeList(w, 'secrets'))).toEqual({ installs: 2, upgrades: 0 })
      expect(ibNodeConfigRuns(w)).toEqual([1, 1])
    }))
})
