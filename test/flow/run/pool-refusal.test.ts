// An existing node pool the run cannot use is refused before anything is written, in both
// rollouts: the whole action flow against a world whose pool has another VM size makes no
// mutating request at all, ARM or Kubernetes (no feature registration, no helm release, no Lease),
// and fails the node-pool step with the fields that differ.
import { afterAll, describe, expect, it, jest } from '@jest/globals'
import { runFlowWithReport } from '../../../src/run/flow.js'
import { restoreRunner, secretAuthSettings, runnerWorld } from '../../support/runner-env.js'

jest.setTimeout(300_000)

afterAll(() => {
  restoreRunner()
})

describe.each(['sequential', 'pipelined'])('%s rollout', rollout => {
  it('an existing pool of another VM size: refused with zero mutating requests', async () => {
    const world = await runnerWorld('refusal', {
      kube: { timeScale: 0.001 },
      azure: {
        // Not registered yet: a run that registered it first would write before refusing.
        feature: { state: 'NotRegistered' },
        existingPools: [
          { name: 'rdma', vmSize: 'Standard_NC24ads_A100_v4', count: 2, osSKU: 'Ubuntu', gpuDriver: 'None' }
        ]
      }
    })
    try {
      const settings = secretAuthSettings(world, {
        mode: 'apply',
        'node-pool': 'rdma',
        'node-count': '2',
        benchmark: 'false',
        rollout
      })
      world.recorder.reset()
      const flow = await runFlowWithReport({ ...settings, runId: `refusal-${rollout}` })

      expect(flow.exitCode).toBe(1)
      const pool = flow.report.steps.find(s => s.name === 'node-pool')
      expect(pool?.status).toBe('failure')
      expect(pool?.detail).toContain('node pool rdma: an existing pool differs in fields fixed at creation')
      expect(pool?.detail).toContain(
        'vmSize: wanted Standard_ND96isr_H100_v5, found Standard_NC24ads_A100_v4'
      )
      expect(flow.report.steps.map(s => s.name)).not.toContain('network-operator')
      const writes = world.recorder.records.filter(r => r.mutating)
      expect(writes.map(r => `${r.service} ${r.method} ${r.path}`)).toEqual([])
      expect(world.recorder.counts().mutating).toBe(0)
    } finally {
      await world.close()
    }
  })
})
