// runPost in-process against a simulated world (ARM and Kubernetes), driven the way the runner
// drives it — INPUT_* and the STATE_* the main step saved — one decision at a time: it removes
// exactly the paths the run recorded under RUNNER_TEMP (nothing else there, nothing outside it),
// releases the Lease only while this run holds it, and deletes only the node pool the saved state
// says this run submitted, while its created-by tag still names the run (cleanup none, another
// run's tag or a corrupt state leave it standing, without an ARM DELETE). The saved state is
// trusted no further than it can be checked: a saved run id that is not this job's identity
// (recomputed from the runner's variables and the saved nonce) releases and deletes nothing, and
// neither a removal nor the report's update reaches outside RUNNER_TEMP through a link.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import * as fs from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import tls from 'node:tls'
import { KubeClient } from '../../../src/kube/client.js'
import { inputEnvName } from '../../../src/run/inputs.js'
import { runPost } from '../../../src/run/post.js'
import { STATE } from '../../../src/run/saved-state.js'
import { LEASE_NAME, LEASE_NAMESPACE } from '../../../src/stack/lease.js'
import { startWorld, type World } from '../../../sim/world.js'

const POOL = 'rdmapool'
/** The runner's variables of this job, and the identity its main step had (its nonce saved with it). */
const JOB = { GITHUB_RUN_ID: '111', GITHUB_RUN_ATTEMPT: '1', GITHUB_JOB: 'rdma' }
const RUN = '111-1/rdma/0123456789ab'
/** Another job of the same workflow run (a matrix leg): same run and job, its own nonce. */
const OTHER_JOB = '111-1/rdma/ba9876543210'

let world: World
const savedEnv = { ...process.env }
const originalCAs = [...tls.getCACertificates('bundled'), ...tls.getCACertificates('extra')]

beforeAll(async () => {
  world = await startWorld({
    helmCommand: ['false'],
    scenarioOverrides: { azure: { deletion: { polls: 1 } }, kube: { timeScale: 0.001 } }
  })
  tls.setDefaultCACertificates([...originalCAs, world.tls.caPem])
})

afterAll(async () => {
  tls.setDefaultCACertificates(originalCAs)
  await world?.close()
})

let temp: string
let outside: string
beforeEach(() => {
  temp = fs.mkdtempSync(path.join(tmpdir(), 'post-runner-temp-'))
  outside = fs.mkdtempSync(path.join(tmpdir(), 'post-outside-'))
})
afterEach(() => {
  process.env = { ...savedEnv }
  fs.rmSync(temp, { recursive: true, force: true })
  fs.rmSync(outside, { recursive: true, force: true })
})

/** The runner's environment for the post step: inputs, the saved state, RUNNER_TEMP. */
function runnerEnv(inputs: Record<string, string>, state: Record<string, string>): void {
  for (const k of Object.keys(process.env))
    if (/^(INPUT_|STATE_|GITHUB_STEP_SUMMARY)/.test(k)) delete process.env[k]
  const env = world.env()
  process.env.ACTIONS_ID_TOKEN_REQUEST_URL = env.ACTIONS_ID_TOKEN_REQUEST_URL
  process.env.ACTIONS_ID_TOKEN_REQUEST_TOKEN = env.ACTIONS_ID_TOKEN_REQUEST_TOKEN
  process.env.RUNNER_TEMP = temp
  Object.assign(process.env, JOB)
  for (const [name, value] of Object.entries({ ...world.inputs(), 'node-pool': POOL, ...inputs }))
    process.env[inputEnvName(name)] = value
  for (const [name, value] of Object.entries(state)) process.env[`STATE_${name}`] = value
}

/** The run's kubeconfig, as the main step writes it under RUNNER_TEMP. */
function runKubeconfig(): string {
  const p = path.join(temp, 'kubeconfig-abc123')
  fs.writeFileSync(p, world.kube.kubeconfig('admin'), { mode: 0o600 })
  return p
}

const admin = () => KubeClient.fromString(world.kube.kubeconfig('admin'), { retries: 1 })
const lease = () =>
  admin().get({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    namespace: LEASE_NAMESPACE,
    name: LEASE_NAME
  })

/** A Lease left held by `holder` (its run ended without releasing it). */
async function leaseHeldBy(holder: string): Promise<void> {
  await admin().applyManifest({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: LEASE_NAME, namespace: LEASE_NAMESPACE },
    spec: { holderIdentity: holder, leaseDurationSeconds: 300 }
  })
}

const armDeletes = () => world.recorder.records.filter(r => r.service === 'arm' && r.method === 'DELETE')

/** The post step after a verify run of RUN that recorded `kubeconfig` and `tempPaths`, with `state` besides. */
function postOfVerify(kubeconfig: string, state: Record<string, string> = {}, tempPaths = [kubeconfig]) {
  const recorded = {
    [STATE.kubeconfig]: kubeconfig,
    [STATE.runId]: RUN,
    [STATE.tempPaths]: JSON.stringify(tempPaths)
  }
  runnerEnv({ mode: 'verify' }, { ...recorded, ...state })
  return runPost()
}

describe('runPost', () => {
  it('removes exactly the paths the run recorded under RUNNER_TEMP, nothing else', async () => {
    const kubeconfig = runKubeconfig()
    const tokenDir = path.join(temp, 'aks-rdma-token-xyz')
    fs.mkdirSync(tokenDir)
    fs.writeFileSync(path.join(tokenDir, 'token.sock'), '')
    fs.writeFileSync(path.join(temp, 'another-step-output.txt'), 'kept')
    const notOurs = path.join(outside, 'kubeconfig-elsewhere')
    fs.writeFileSync(notOurs, 'kept')
    const gone = path.join(temp, 'already-removed')
    const post = await postOfVerify(kubeconfig, {}, [kubeconfig, tokenDir, notOurs, gone])
    expect(fs.readdirSync(temp)).toEqual(['another-step-output.txt'])
    expect(fs.existsSync(notOurs)).toBe(true)
    expect(post).toEqual({
      exitCode: 0,
      cleanup: [
        {
          resource: 'lease',
          name: `${LEASE_NAMESPACE}/${LEASE_NAME}`,
          result: 'skipped',
          reason: 'this run did not hold it'
        },
        { resource: 'kubeconfig', name: 'kubeconfig-abc123', result: 'deleted' }
      ]
    })
  })

  it('a kubeconfig recorded outside RUNNER_TEMP is kept, and said so', async () => {
    const kubeconfig = path.join(outside, 'kubeconfig-x')
    fs.writeFileSync(kubeconfig, world.kube.kubeconfig('admin'))
    const post = await postOfVerify(kubeconfig)
    expect(fs.existsSync(kubeconfig)).toBe(true)
    expect(post.cleanup.find(e => e.resource === 'kubeconfig')).toEqual({
      resource: 'kubeconfig',
      name: 'kubeconfig-x',
      result: 'kept',
      reason: 'outside RUNNER_TEMP'
    })
  })

  it('releases the Lease this run still holds, and leaves another run’s alone', async () => {
    await leaseHeldBy(RUN)
    const kubeconfig = runKubeconfig()
    const released = await postOfVerify(kubeconfig)
    expect(released.cleanup[0]).toEqual({
      resource: 'lease',
      name: `${LEASE_NAMESPACE}/${LEASE_NAME}`,
      result: 'deleted'
    })
    expect(await lease()).toBeUndefined()

    await leaseHeldBy(OTHER_JOB)
    const other = runKubeconfig()
    const kept = await postOfVerify(other)
    expect(kept.cleanup[0]).toMatchObject({ resource: 'lease', result: 'skipped' })
    expect((await lease())?.spec.holderIdentity).toBe(OTHER_JOB)

    // The main step took it and released it itself: the table says so, not "did not hold it".
    const mine = runKubeconfig()
    const after = await postOfVerify(mine, { [STATE.leaseReleased]: 'true' })
    expect(after.cleanup[0]).toEqual({
      resource: 'lease',
      name: `${LEASE_NAMESPACE}/${LEASE_NAME}`,
      result: 'skipped',
      reason: 'the main step took it and released it'
    })
  })
})

describe('runPost honours the saved cleanup state', () => {
  const submitted = (createdBy: string) =>
    JSON.stringify({
      resourceGroup: world.inputs()['resource-group'],
      cluster: world.inputs()['cluster-name'],
      pool: POOL,
      createdBy
    })

  /** The pool exists (created earlier, as this run's create would have left it), tagged by `createdBy`. */
  function poolTagged(createdBy: string): void {
    world.azure.setPool(POOL, {
      vmSize: 'Standard_ND96asr_v4',
      count: 1,
      tags: { 'aks-rdma-action-created-by': createdBy }
    })
  }

  it('deletes the pool this run submitted while its tag names the run; nothing else', async () => {
    poolTagged(RUN)
    world.recorder.reset()
    runnerEnv({ cleanup: 'node-pool' }, { [STATE.runId]: RUN, [STATE.nodePoolSubmitted]: submitted(RUN) })
    const post = await runPost()
    expect(post.cleanup).toEqual([
      { resource: 'node-pool', name: POOL, result: 'deleted', reason: 'was Succeeded' }
    ])
    expect(post.exitCode).toBe(0)
    expect(armDeletes().map(r => r.path)).toEqual([expect.stringMatching(new RegExp(`/agentPools/${POOL}$`))])
    expect(world.azure.getPool(POOL)).toBeUndefined()
  })

  it('keeps the pool with cleanup none, with another run’s tag, or when the saved state is unreadable', async () => {
    poolTagged(RUN)
    const cases: Array<[Record<string, string>, Record<string, string>, unknown]> = [
      [
        { cleanup: 'none' },
        { [STATE.nodePoolSubmitted]: submitted(RUN) },
        { resource: 'node-pool', name: POOL, result: 'kept', reason: 'cleanup is none' }
      ],
      [
        { cleanup: 'node-pool' },
        { [STATE.nodePoolSubmitted]: submitted(OTHER_JOB) },
        {
          resource: 'node-pool',
          name: POOL,
          result: 'kept',
          reason: `the saved state names created-by identity ${OTHER_JOB} (this job: ${RUN}); not trusted`
        }
      ],
      [
        // Withdrawn by the main step: its create was refused (HTTP 412) and it reused the pool.
        { cleanup: 'node-pool' },
        { [STATE.nodePoolSubmitted]: '' },
        { resource: 'node-pool', name: POOL, result: 'skipped', reason: 'this run did not create it' }
      ],
      [
        { cleanup: 'node-pool' },
        { [STATE.nodePoolSubmitted]: '{"resourceGroup":' },
        { resource: 'node-pool', name: POOL, result: 'skipped', reason: 'this run did not create it' }
      ],
      [
        { cleanup: 'node-pool' },
        {},
        { resource: 'node-pool', name: POOL, result: 'skipped', reason: 'this run did not create it' }
      ]
    ]
    for (const [inputs, state, entry] of cases) {
      world.recorder.reset()
      runnerEnv(inputs, { [STATE.runId]: RUN, ...state })
      const post = await runPost()
      expect({ inputs, state, cleanup: post.cleanup, exitCode: post.exitCode }).toEqual({
        inputs,
        state,
        cleanup: [entry],
        exitCode: 0
      })
      expect(armDeletes()).toEqual([])
      expect(world.azure.getPool(POOL)).toBeDefined()
    }
  })
})

describe('runPost trusts its saved state no further than it can check it', () => {
  it('a saved run id that is not this job’s releases no Lease and deletes nothing', async () => {
    world.azure.setPool(POOL, {
      vmSize: 'Standard_ND96asr_v4',
      count: 1,
      tags: { 'aks-rdma-action-created-by': OTHER_JOB }
    })
    await leaseHeldBy(OTHER_JOB)
    world.recorder.reset()
    const kubeconfig = runKubeconfig()
    const saved = JSON.stringify({
      resourceGroup: world.inputs()['resource-group'],
      cluster: world.inputs()['cluster-name'],
      pool: POOL,
      createdBy: OTHER_JOB
    })
    // The state of another job of the run (its id, its pool), read by this job's post step.
    runnerEnv(
      { cleanup: 'node-pool' },
      {
        [STATE.runId]: OTHER_JOB.replace('/rdma/', '/other/'),
        [STATE.kubeconfig]: kubeconfig,
        [STATE.tempPaths]: JSON.stringify([kubeconfig]),
        [STATE.nodePoolSubmitted]: saved
      }
    )
    const post = await runPost()
    expect(post.cleanup.filter(e => e.resource !== 'kubeconfig')).toEqual([
      {
        resource: 'node-pool',
        name: POOL,
        result: 'kept',
        reason: "the saved run id is not this job's identity; nothing is deleted on its word"
      }
    ])
    expect(armDeletes()).toEqual([])
    expect(world.azure.getPool(POOL)).toBeDefined()
    expect((await lease())?.spec.holderIdentity).toBe(OTHER_JOB)
  })

  it('no removal and no report update reaches outside RUNNER_TEMP through a link', async () => {
    const secret = path.join(outside, 'keep-me')
    fs.writeFileSync(secret, 'outside')
    const report = path.join(outside, 'report.json')
    fs.writeFileSync(report, '{"result":"success"}\n')
    // A folder link inside RUNNER_TEMP that leads outside, and a report path through it.
    fs.symlinkSync(outside, path.join(temp, 'link'))
    runnerEnv(
      { mode: 'verify' },
      {
        [STATE.runId]: RUN,
        [STATE.tempPaths]: JSON.stringify([path.join(temp, 'link', 'keep-me')]),
        [STATE.reportPath]: path.join(temp, 'link', 'report.json')
      }
    )
    await runPost()
    expect(fs.readFileSync(secret, 'utf8')).toBe('outside')
    expect(fs.readFileSync(report, 'utf8')).toBe('{"result":"success"}\n')
    // A report outside RUNNER_TEMP named directly is not written either.
    runnerEnv({ mode: 'verify' }, { [STATE.runId]: RUN, [STATE.reportPath]: report })
    await runPost()
    expect(fs.readFileSync(report, 'utf8')).toBe('{"result":"success"}\n')
    // Inside RUNNER_TEMP, the post step's section is added.
    const own = path.join(temp, 'aks-rdma-action-report.json')
    fs.writeFileSync(own, '{"result":"success"}\n')
    runnerEnv({ mode: 'verify' }, { [STATE.runId]: RUN, [STATE.reportPath]: own })
    await runPost()
    expect(JSON.parse(fs.readFileSync(own, 'utf8'))).toMatchObject({
      result: 'success',
      post: { exitCode: 0 }
    })
  })
})
