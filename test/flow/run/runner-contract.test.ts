// The runner contract on the shipped bundles: dist/index.js, then dist/post.js with the state the
// main step saved (sim/run-action.ts, as `simulate` and the runner do), against a simulated world.
// Both exit codes every time, and what is left in ARM afterwards: a fresh apply keeps its pool
// (cleanup none); an ephemeral cluster with cleanup cluster is gone; a pool whose provisioning
// fails, a cluster create that times out and a pool create cut short by a cancelled run are all
// deleted by the post step, which says so in the report and the job summary — also when a later
// step removed an input file, and failing loudly when it cannot. SIGINT or SIGTERM while the main
// step holds the Lease: it stops, releases the Lease, removes its kubeconfig and exits 130 / 143.
import { afterEach, describe, expect, it, jest } from '@jest/globals'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { TAG_CREATED_BY, tagValue } from '../../../src/azure/node-pool.js'
import { EXIT } from '../../../src/exit-codes.js'
import { KubeClient } from '../../../src/kube/client.js'
import {
  runAction,
  CANCELLED_EXIT_CODE,
  type ActionRun,
  type RunActionOptions
} from '../../../sim/run-action.js'
import { startWorld, type World } from '../../../sim/world.js'
import { shippedDist } from '../../support/dist.js'
import { helmStandinCommand } from '../../support/helm-standin-bin.js'
import { readActionLease } from '../../support/action-lease-read.js'

jest.setTimeout(240_000)

const POOL = 'rdmapool'
const CLUSTER = 'rg-rdma/aks-rdma'

let world: World | undefined
afterEach(async () => {
  await world?.close()
  world = undefined
})

interface Outcome {
  run: ActionRun
  /** The action's JSON report, with the post step's section. */
  report: any
}

async function start(scenario: Record<string, unknown>): Promise<World> {
  world = await startWorld({ helmCommand: helmStandinCommand(), scenarioOverrides: scenario })
  return world
}

/** index.js then post.js on the world, as the runner runs them. */
async function runOn(
  w: World,
  inputs: Record<string, string>,
  cancelMain?: AbortSignal,
  extra: Pick<RunActionOptions, 'beforePost' | 'cancelWith'> & {
    env?: Record<string, string>
    onLog?: (text: string) => void
  } = {}
): Promise<Outcome> {
  const env = w.env()
  // The action gets its kubeconfig from ARM, as in production.
  delete (env as Record<string, string>).KUBECONFIG
  const run = await runAction({
    distDir: shippedDist(),
    inputs: { ...w.inputs(), ...inputs },
    env,
    runId: `contract-${Math.random().toString(36).slice(2, 8)}`,
    cancelMain,
    beforePost: extra.beforePost,
    cancelWith: extra.cancelWith,
    postEnv: extra.env,
    onLog: t => {
      extra.onLog?.(t)
      process.stdout.write(t) // captured; shown only if the test fails
    }
  })
  const reportPath = run.outputs['report-path'] ?? `${run.runnerTemp}/aks-rdma-action-report.json`
  const report = existsSync(reportPath) ? JSON.parse(readFileSync(reportPath, 'utf8')) : undefined
  return { run, report }
}

const entry = (o: Outcome, resource: string) =>
  (o.report?.post?.cleanup ?? []).find((e: { resource: string }) => e.resource === resource)

/** A post step's cleanup entry for a resource it deleted, and why. */
const deletedEntry = (resource: string, name: string, reason: string) => ({
  resource,
  name,
  result: 'deleted',
  reason
})

/** Resolves once the world has recorded a request matching `test` (the main step's PUT). */
async function requestSeen(w: World, test: (method: string, path: string, status: number) => boolean) {
  while (!w.recorder.records.some(r => test(r.method, r.path, r.status)))
    await new Promise(r => setTimeout(r, 20))
}

describe('the runner contract on the shipped bundles', () => {
  it('a fresh apply: main 0, post 0; the pool it created stays (cleanup none), the kubeconfig goes', async () => {
    const w = await start({})
    const o = await runOn(w, {})
    expect([o.run.exitCode, o.run.postExitCode]).toEqual([0, 0])
    expect(o.run.outputs['node-pool-action']).toBe('created')
    expect(o.report.post).toEqual({
      exitCode: 0,
      cleanup: [
        {
          resource: 'lease',
          name: 'kube-system/aks-rdma-action',
          result: 'skipped',
          // The log said it took the Lease and released it: the table says the same.
          reason: 'the main step took it and released it'
        },
        { resource: 'node-pool', name: POOL, result: 'kept', reason: 'cleanup is none' },
        { resource: 'kubeconfig', name: expect.stringMatching(/^kubeconfig-/), result: 'deleted' }
      ]
    })
    expect(existsSync(o.run.outputs['kubeconfig-path'])).toBe(false)
    const pool = w.azure.getPool(POOL)
    expect(pool.properties.provisioningState).toBe('Succeeded')
    expect(tagValue(pool.properties.tags, TAG_CREATED_BY)).toBe(o.run.state['run-id'])
    expect(o.run.summary).toContain('### Cleanup (post step)')
    expect(o.run.postLog).not.toContain('::error')
  })

  it('an ephemeral cluster with cleanup cluster: main 0, post 0, the cluster is gone from ARM', async () => {
    const w = await start({ azure: { cluster: { exists: false } } })
    const o = await runOn(w, { 'create-cluster': 'true', location: 'eastus', cleanup: 'cluster' })
    expect([o.run.exitCode, o.run.postExitCode]).toEqual([0, 0])
    expect(o.report.steps.find((s: { name: string }) => s.name === 'cluster')).toMatchObject({
      status: 'success',
      action: 'created'
    })
    expect(entry(o, 'cluster')).toEqual(deletedEntry('cluster', CLUSTER, 'was Succeeded'))
    expect(entry(o, 'node-pool')).toEqual(deletedEntry('node-pool', POOL, 'with its cluster'))
    expect(w.azure.clusterExists()).toBe(false)
    const deletes = w.recorder.records.filter(r => r.service === 'arm' && r.method === 'DELETE')
    expect(deletes.map(r => r.path)).toEqual([expect.stringMatching(/\/managedClusters\/aks-rdma$/)])
  })

  it('a pool whose provisioning fails, with cleanup node-pool: main 1, post 0, the pool is gone', async () => {
    const w = await start({
      azure: { poolProvisioning: { polls: 1, result: 'Failed', errorCode: 'AllocationFailed' } }
    })
    const o = await runOn(w, { cleanup: 'node-pool' })
    expect([o.run.exitCode, o.run.postExitCode]).toEqual([1, 0])
    expect(o.report.steps.find((s: { name: string }) => s.name === 'node-pool')).toMatchObject({
      status: 'failure',
      detail: expect.stringContaining('provisioning Failed: AllocationFailed')
    })
    expect(entry(o, 'node-pool')).toEqual(deletedEntry('node-pool', POOL, 'was Failed'))
    expect(w.azure.getPool(POOL)).toBeUndefined()
    // So a re-run starts afresh instead of failing on the Failed pool.
    expect(o.run.summary).toContain('### Cleanup (post step)')
  })

  it('a cluster create that times out, with cleanup cluster: main 1, post 0, the cluster is gone', async () => {
    const w = await start({
      // The create never finishes (a poll-counted operation of 100000 polls); deleting takes one.
      azure: { cluster: { exists: false }, poolProvisioning: { polls: 100_000 }, deletion: { polls: 1 } }
    })
    const o = await runOn(w, {
      'create-cluster': 'true',
      location: 'eastus',
      cleanup: 'cluster',
      'step-timeout': '10s'
    })
    expect([o.run.exitCode, o.run.postExitCode]).toEqual([1, 0])
    expect(o.report.steps.find((s: { name: string }) => s.name === 'cluster')).toMatchObject({
      status: 'failure',
      detail: expect.stringMatching(/timed out after/)
    })
    expect(JSON.parse(o.run.state['cluster-create-submitted'])).toEqual({
      resourceGroup: 'rg-rdma',
      cluster: 'aks-rdma',
      createdBy: o.run.state['run-id']
    })
    expect(entry(o, 'cluster')).toEqual(deletedEntry('cluster', CLUSTER, 'was Creating'))
    expect(w.azure.clusterExists()).toBe(false)
  })

  it('a cancelled run: the pool create it submitted is deleted by the post step', async () => {
    const w = await start({
      azure: { poolProvisioning: { polls: 0, duration: '100000s' }, deletion: { polls: 1 } }
    })
    const cancel = new AbortController()
    const created = requestSeen(
      w,
      (m, p, status) => m === 'PUT' && p.includes(`/agentPools/${POOL}`) && status === 201
    )
    const running = runOn(w, { cleanup: 'node-pool' }, cancel.signal)
    await created
    cancel.abort()
    const o = await running
    expect([o.run.exitCode, o.run.postExitCode]).toEqual([CANCELLED_EXIT_CODE, 0])
    // The main step stopped waiting for the pool at once; the post step's decisions are in its log.
    expect(o.run.postLog).toContain(`cleanup: node-pool ${POOL}: deleted (was Creating)`)
    expect(w.azure.getPool(POOL)).toBeUndefined()
  })

  it('a values file a later step removed: the post step still deletes the pool the run created', async () => {
    const w = await start({ azure: { deletion: { polls: 1 } } })
    const values = path.join(mkdtempSync(path.join(tmpdir(), 'contract-values-')), 'gpu-values.yaml')
    writeFileSync(values, 'driver:\n  enabled: true\n')
    const o = await runOn(w, { cleanup: 'node-pool', 'gpu-operator-values': values }, undefined, {
      // A later step of the job removes the file; the post step's inputs no longer read.
      beforePost: async () => rmSync(values)
    })
    expect([o.run.exitCode, o.run.postExitCode]).toEqual([0, 0])
    expect(o.run.postLog).toContain(`cleanup: node-pool ${POOL}: deleted`)
    expect(entry(o, 'node-pool')).toMatchObject({ result: 'deleted' })
    const deletes = w.recorder.records.filter(r => r.service === 'arm' && r.method === 'DELETE')
    expect(deletes.map(r => r.path)).toEqual([expect.stringMatching(new RegExp(`/agentPools/${POOL}$`))])
    expect(w.azure.getPool(POOL)).toBeUndefined()
    expect(existsSync(o.run.outputs['kubeconfig-path'])).toBe(false)
  })

  it('a saved create the post step cannot act on (no sign-in) fails it, naming the pool and the fix', async () => {
    const w = await start({})
    const o = await runOn(w, { cleanup: 'node-pool' }, undefined, {
      // The sign-in the main step used no longer works by the post step (its OIDC token refused).
      env: { ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'a-token-the-world-refuses' }
    })
    expect([o.run.exitCode, o.run.postExitCode]).toEqual([0, 1])
    expect(entry(o, 'node-pool')).toMatchObject({ resource: 'node-pool', name: POOL, result: 'failed' })
    expect(o.run.postLog).toMatch(
      new RegExp(
        `::error .*node-pool ${POOL} was created by this run but is still there.*az aks nodepool delete .*--name ${POOL}`
      )
    )
    expect(w.azure.getPool(POOL)?.properties.provisioningState).toBe('Succeeded')
  })

  /** The Lease as the world's admin reads it (undefined: deleted). */
  async function leaseOf(w: World) {
    return readActionLease(KubeClient.fromString(w.kube.kubeconfig('admin'), { retries: 1 }))
  }

  for (const [signal, code] of [
    ['SIGINT', EXIT.interrupted],
    ['SIGTERM', EXIT.terminated]
  ] as const)
    it(`${signal} while the main step holds the Lease: it stops, releases it, removes its kubeconfig, says what is half-done, exits ${code}`, async () => {
      const w = await start({})
      const cancel = new AbortController()
      let log = ''
      let afterMain: { lease: unknown; kubeconfigs: string[] } | undefined
      const o = await runOn(w, {}, cancel.signal, {
        cancelWith: signal,
        // The signal comes once the Lease is taken: the run is writing the stack, or about to.
        onLog: t => {
          log += t
          if (/Lease kube-system\/aks-rdma-action taken by run/.test(log)) cancel.abort()
        },
        // What the main step left, before the post step tidies anything.
        beforePost: async ({ runnerTemp }) => {
          afterMain = {
            lease: (await leaseOf(w))?.spec?.holderIdentity || undefined,
            kubeconfigs: readdirSync(runnerTemp).filter(f => f.startsWith('kubeconfig-'))
          }
        }
      })
      expect(o.run.exitCode).toBe(code)
      expect(afterMain).toEqual({ lease: undefined, kubeconfigs: [] })
      expect(o.run.log).toContain(`cancelled by ${signal}; stopped at a safe point`)
      expect(o.run.log).toMatch(/stopped in (network-operator|gpu-operator|node-pool|lease)[^:]*: /)
      expect(o.run.log).toContain('Lease kube-system/aks-rdma-action: released')
      expect(o.report.diagnostics).toContainEqual(
        expect.objectContaining({ title: `Cancelled by ${signal}` })
      )
      expect(o.run.postExitCode).toBe(0)
      expect(entry(o, 'lease')).toMatchObject({
        result: 'skipped',
        reason: 'the main step took it and released it'
      })
    })
})
