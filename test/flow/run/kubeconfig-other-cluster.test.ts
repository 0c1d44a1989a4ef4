// A kubeconfig given with resource-group and cluster-name must reach that cluster. Two simulated
// worlds, A and B: apply, uninstall (cleanup node-pool) and drift with world A's Azure inputs and
// world B's kubeconfig are refused after one ARM read, naming both servers, the inputs and the
// fixes, with not one mutating request to either world — neither the Kubernetes objects of B nor
// the Azure resources of A are touched; so is a kubeconfig of any other server. World A's own
// kubeconfig (its server as the managed cluster's fqdn gives it, written differently) passes and
// the run goes on.
import { afterAll, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { FlowResult } from '../../../src/run/flow.js'
import { startWorld, type World } from '../../../sim/world.js'
import { helmStandinBinDir } from '../../support/helm-standin-bin.js'
import { adoptWorld, restoreRunner, runFlowQuietly, secretAuthSettings } from '../../support/runner-env.js'

jest.setTimeout(600_000)

const POOL = 'rdma'
let a: World
let b: World
const flowLog: string[] = []

/** Runs the flow with world A's Azure inputs (cluster rg-a/aks-a) and the given kubeconfig. */
async function flow(
  mode: string,
  kubeconfig: string,
  extra: Record<string, string> = {}
): Promise<FlowResult> {
  const s = secretAuthSettings(a, {
    mode,
    'resource-group': 'rg-a',
    'cluster-name': 'aks-a',
    'node-pool': POOL,
    'node-count': '2',
    benchmark: 'false',
    timeout: '30m',
    'step-timeout': '10m',
    kubeconfig,
    ...extra
  })
  s.runId = `${mode}-${Math.random().toString(36).slice(2, 8)}`
  return runFlowQuietly(s, flowLog)
}

/** The world's API server as its kubeconfigs name it. */
const serverOf = (w: World): string => /server: (\S+)/.exec(readFileSync(w.adminKubeconfigPath, 'utf8'))![1]
/** What would change a cluster: ARM's and the API server's mutating requests (a token request changes none). */
const writes = (w: World) =>
  w.recorder.records.filter(r => r.mutating && (r.service === 'arm' || r.service === 'kube'))

function copyWithServer(w: World, server: string): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'kc-other-')), 'kubeconfig')
  writeFileSync(file, readFileSync(w.adminKubeconfigPath, 'utf8').replace(/server: \S+/, `server: ${server}`))
  return file
}

function expectRefused(r: FlowResult, kubeconfigServer: string): string {
  expect(r.exitCode).toBe(1)
  expect(r.report.result).toBe('failure')
  expect(r.report.steps.map(s => [s.name, s.status])).toEqual([
    ['azure-sign-in', 'success'],
    ['kubeconfig-cluster', 'failure']
  ])
  const detail = r.report.steps[1].detail!
  expect(detail).toContain(`reaches ${kubeconfigServer}, which is not the API server of cluster rg-a/aks-a`)
  expect(detail).toContain(`ARM gives ${serverOf(a)} (fqdn)`)
  for (const input of ['kubeconfig', 'resource-group', 'cluster-name']) expect(detail).toContain(input)
  expect(detail).toContain('az aks get-credentials')
  return detail
}

beforeAll(async () => {
  const bin = await helmStandinBinDir()
  const scenario = (rg: string, name: string) => ({
    kube: { timeScale: 0.002 },
    azure: {
      cluster: { resourceGroup: rg, name },
      feature: { state: 'Registered' },
      poolProvisioning: { polls: 1 },
      deletion: { polls: 1 },
      tokens: { accessTokenLifetime: '1000h' }
    }
  })
  a = await startWorld({
    helmCommand: [path.join(bin, 'helm')],
    scenarioOverrides: scenario('rg-a', 'aks-a')
  })
  b = await startWorld({
    helmCommand: [path.join(bin, 'helm')],
    scenarioOverrides: scenario('rg-b', 'aks-b')
  })
  adoptWorld(a, 'kc-other-runner')
  // Two API servers, on the same host, told apart by their ports.
  expect(serverOf(a)).not.toBe(serverOf(b))
})

afterAll(async () => {
  await a?.close()
  await b?.close()
  restoreRunner()
})

beforeEach(() => {
  a.recorder.reset()
  b.recorder.reset()
})

describe('a kubeconfig of another cluster than resource-group/cluster-name', () => {
  it('apply is refused before any write: not one mutating request to either world', async () => {
    const r = await flow('apply', b.adminKubeconfigPath)
    expectRefused(r, serverOf(b))
    expect(writes(a)).toEqual([])
    expect(writes(b)).toEqual([])
    expect(b.recorder.records).toEqual([]) // B's API server was never even read
    // One ARM read: the named cluster (its fqdn); no pool precheck, feature or pool request.
    expect(a.recorder.records.filter(x => x.service === 'arm').map(x => `${x.method} ${x.path}`)).toEqual([
      expect.stringMatching(
        /^GET \/subscriptions\/[^/]+\/resourceGroups\/rg-a\/providers\/Microsoft\.ContainerService\/managedClusters\/aks-a$/
      )
    ])
    expect(a.azure.getPool(POOL)).toBeUndefined()
  })

  it('uninstall with cleanup is refused too: nothing removed from B, nothing deleted in A', async () => {
    const r = await flow('uninstall', b.adminKubeconfigPath, { cleanup: 'node-pool' })
    expectRefused(r, serverOf(b))
    expect(writes(a)).toEqual([])
    expect(b.recorder.records).toEqual([])
  })

  it('drift with subscription-id too: A’s pool is never compared with B’s stack', async () => {
    const r = await flow('drift', b.adminKubeconfigPath)
    expectRefused(r, serverOf(b))
    expect(r.report.drift).toBeUndefined()
    expect(b.recorder.records).toEqual([])
  })

  it('any other server: refused the same way, never reached', async () => {
    const r = await flow('apply', copyWithServer(a, 'https://API.Example.COM.:443/'))
    expectRefused(r, 'https://api.example.com')
    expect(writes(a)).toEqual([])
  })
})

describe('the named cluster’s own kubeconfig', () => {
  it('passes, written as the server with a trailing slash; uninstall with cleanup goes on', async () => {
    const r = await flow('uninstall', copyWithServer(a, `${serverOf(a)}/`), { cleanup: 'node-pool' })
    expect(r.report.steps.filter(s => s.status === 'failure')).toEqual([])
    expect(r.exitCode).toBe(0)
    expect(r.report.steps.slice(0, 3).map(s => [s.name, s.status])).toEqual([
      ['azure-sign-in', 'success'],
      ['kubeconfig-cluster', 'success'],
      ['credentials', 'success']
    ])
    expect(r.report.steps[1].detail).toBe(`context aks-a-admin reaches ${serverOf(a)}, the cluster's fqdn`)
    // It reached A's API server (its Lease), never B's.
    expect(a.recorder.records.some(x => x.service === 'kube')).toBe(true)
    expect(b.recorder.records).toEqual([])
  })
})
