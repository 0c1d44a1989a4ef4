// Two jobs of one workflow run (two matrix legs: the same GITHUB_RUN_ID, GITHUB_RUN_ATTEMPT and
// GITHUB_JOB) apply the action to one cluster at once, with cleanup node-pool, as the runner runs
// them (the shipped bundles, main then post; both main steps end before either post step, as when
// the legs finish together). Each job has its own identity, so one waits for the other's Lease
// instead of both "taking" it; exactly one of them created the pool (the other found it, or lost
// the create race and withdrew its claim); and only that one's post step deletes it.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { runAction, type ActionRun } from '../../../sim/run-action.js'
import { startWorld, type World } from '../../../sim/world.js'
import { shippedDist } from '../../support/dist.js'
import { helmStandinCommand } from '../../support/helm-standin-bin.js'

const RUN_ID = '7700'
let world: World
let runs: ActionRun[]
let poolTagBeforePosts: string | undefined

beforeAll(async () => {
  world = await startWorld({
    helmCommand: helmStandinCommand(),
    // The OFED driver takes 15 s of real time: whichever job takes the Lease first holds it well
    // past the moment the other reaches its first write.
    scenarioOverrides: {
      azure: { feature: { state: 'Registered' } },
      kube: { timeScale: 0.01, delays: { mofed: '1500s', gpuDriver: '100s', default: '5s' } }
    }
  })
  const env = world.env()
  delete (env as Record<string, string>).KUBECONFIG
  const inputs = {
    ...world.inputs(),
    'auth-type': 'secret',
    'client-secret': world.scenario.azure.clientSecret,
    benchmark: 'false',
    cleanup: 'node-pool',
    'step-timeout': '10m'
  }
  let mainsDone = 0
  let allMainsDone!: () => void
  const bothMains = new Promise<void>(resolve => (allMainsDone = resolve))
  const beforePost = async (): Promise<void> => {
    if (++mainsDone === 2) {
      poolTagBeforePosts = world.azure.getPool('rdmapool')?.properties?.tags?.['aks-rdma-action-created-by']
      allMainsDone()
    }
    await bothMains
  }
  const job = () => runAction({ distDir: shippedDist(), inputs, env, runId: RUN_ID, job: 'rdma', beforePost })
  runs = await Promise.all([job(), job()])
}, 400_000)

afterAll(async () => {
  await world?.close()
})

const idOf = (r: ActionRun) => r.state['run-id']
const other = (r: ActionRun) => runs.find(x => x !== r)!
const postCleanup = (r: ActionRun) =>
  (JSON.parse(readFileSync(path.join(r.runnerTemp, 'aks-rdma-action-report.json'), 'utf8')).post?.cleanup ??
    []) as Array<{ resource: string; result: string; reason?: string }>

describe('two jobs of one workflow run against one cluster', () => {
  it('both succeed, each with an identity of its own', () => {
    for (const r of runs) {
      if (r.exitCode !== 0 || r.postExitCode !== 0) console.log(r.log.slice(-4000), r.postLog.slice(-2000))
      expect([r.exitCode, r.postExitCode]).toEqual([0, 0])
      expect(idOf(r)).toMatch(new RegExp(`^${RUN_ID}-1/rdma/[0-9a-f]{12}$`))
    }
    expect(idOf(runs[0])).not.toBe(idOf(runs[1]))
  })

  it('one waits for the Lease the other holds, then takes it', () => {
    const waited = runs.filter(r => r.log.includes(`is held by run ${idOf(other(r))}`))
    expect(waited).toHaveLength(1)
    expect(waited[0].log).toMatch(
      new RegExp(`Lease kube-system/aks-rdma-action taken by run ${idOf(waited[0])} after waiting`)
    )
  })

  it('exactly one created the pool, and only its post step deletes it', () => {
    const creators = runs.filter(r => r.state['node-pool-create-submitted'])
    expect(creators).toHaveLength(1)
    const [creator] = creators
    expect(poolTagBeforePosts).toBe(idOf(creator))
    expect(postCleanup(creator)).toContainEqual(
      expect.objectContaining({ resource: 'node-pool', result: 'deleted' })
    )
    expect(postCleanup(other(creator))).toContainEqual({
      resource: 'node-pool',
      name: 'rdmapool',
      result: 'skipped',
      reason: 'this run did not create it'
    })
    const deletes = world.recorder.records.filter(
      r => r.service === 'arm' && r.method === 'DELETE' && /\/agentPools\/rdmapool$/.test(r.path)
    )
    expect(deletes).toHaveLength(1)
    expect(world.azure.getPool('rdmapool')).toBeUndefined()
  })
})
