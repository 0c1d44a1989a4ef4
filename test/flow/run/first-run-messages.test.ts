// What a first run is told, through the whole flow against the simulator: a cluster that does not
// exist is said to be missing (the cluster step, nothing written); a reused pool larger than
// node-count is warned about once, with no scale-down; a pool name with no nodes is one failing check
// naming the pools there are; and the report names the cluster, the action's version and the start.
import { afterAll, afterEach, describe, expect, it, jest } from '@jest/globals'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { startWorld, type World } from '../../../sim/world.js'
import { helmStandinBinDir } from '../../support/helm-standin-bin.js'
import { adoptWorld, restoreRunner, runFlowQuietly, secretAuthSettings } from '../../support/runner-env.js'

jest.setTimeout(300_000)

let world: World | undefined
afterEach(async () => {
  await world?.close()
  world = undefined
})
afterAll(() => restoreRunner())

const version = JSON.parse(readFileSync('package.json', 'utf8')).version as string

async function start(azure: Record<string, unknown>): Promise<World> {
  const bin = await helmStandinBinDir()
  world = await startWorld({
    helmCommand: [path.join(bin, 'helm')],
    scenarioOverrides: {
      kube: { timeScale: 0.001 },
      azure: { feature: { state: 'Registered' }, tokens: { accessTokenLifetime: '1000h' }, ...azure }
    }
  })
  adoptWorld(world, 'first-run')
  return world
}

describe('a first run', () => {
  it('against a cluster that does not exist: the cluster step says so, and nothing is written', async () => {
    const w = await start({ cluster: { exists: false } })
    const settings = secretAuthSettings(w, { mode: 'apply', 'node-pool': 'rdma', benchmark: 'false' })
    w.recorder.reset()
    const log: string[] = []
    const flow = await runFlowQuietly({ ...settings, runId: 'no-cluster' }, log)
    expect(flow.exitCode).toBe(1)
    const cluster = flow.report.steps.find(s => s.name === 'cluster')
    expect(cluster?.status).toBe('failure')
    expect(cluster?.detail).toContain('cluster rg-rdma/aks-rdma does not exist')
    expect(cluster?.detail).toContain('create-cluster: true')
    expect(flow.report.steps.map(s => s.name)).not.toContain('node-pool')
    expect(log.join('')).not.toMatch(/absent; it will be created/)
    expect(w.recorder.counts().mutating).toBe(0)
    // The report says what the run was about, whatever failed.
    const file = JSON.parse(readFileSync(flow.report.outputs['report-path'], 'utf8'))
    expect(file.cluster).toEqual({ resourceGroup: 'rg-rdma', name: 'aks-rdma' })
    expect(file.version).toBe(version)
    expect(Number.isNaN(Date.parse(file.startedAt))).toBe(false)
  })

  it('a pool larger than node-count: one warning, no scale-down; then a wrong pool name: one failure', async () => {
    const w = await start({
      existingPools: [
        { name: 'rdma', vmSize: 'Standard_ND96isr_H100_v5', count: 3, osSKU: 'Ubuntu', gpuDriver: 'None' }
      ]
    })
    const apply = secretAuthSettings(w, {
      mode: 'apply',
      'node-pool': 'rdma',
      'node-count': '2',
      benchmark: 'false'
    })
    const log: string[] = []
    const applied = await runFlowQuietly({ ...apply, runId: 'larger-pool' }, log)
    expect(applied.report.outputs['node-pool-action']).toBe('reused')
    const countWarnings = log
      .join('')
      .split('\n')
      .filter(l => l.startsWith('::warning') && /existing pool has count 3/.test(l))
    expect(countWarnings).toHaveLength(1)
    expect(countWarnings[0]).not.toMatch(/nodepool scale/)
    expect(countWarnings[0]).toContain('node-count: 3')
    // The verification says how many nodes the pool really has.
    expect(log.join('')).toContain('node pool rdma: 3 nodes × Standard_ND96isr_H100_v5 in the cluster')

    const verify = secretAuthSettings(w, { mode: 'verify', 'node-pool': 'rdmx', benchmark: 'true' })
    const verified = await runFlowQuietly({ ...verify, runId: 'wrong-pool' }, [])
    expect(verified.exitCode).toBe(1)
    const failed = verified.report.checks.filter(c => c.status === 'fail')
    expect(failed.map(c => c.name)).toEqual(['nodes-ready'])
    expect(failed[0].detail).toContain('node pool rdmx')
    expect(failed[0].detail).toMatch(/node pools are [^;]*\brdma\b/)
    expect(failed[0].detail).toContain('node-pool: rdma')
    // Skipped checks are not counted as passing.
    expect(verified.report.steps.find(s => s.name === 'verify')?.detail).toMatch(
      /^0\/\d+ checks pass \(\d+ skipped\)/
    )
    // Neither the benchmark nor the probe repeats it.
    expect(verified.report.steps.map(s => s.name)).not.toContain('benchmark')
  })
})
