// An AAD cluster whose tokens last a fraction of the run (3000 simulated seconds at timeScale 0.01,
// against OFED and GPU driver builds of 3000 s and 2400 s): the whole flow (Azure, the stack with
// helm, verification and benchmarks) succeeds, the API server never answers Unauthorized, and the
// run needed many tokens for the AKS server application: the action's client, helm (the stand-in
// runs the kubeconfig's exec credential as client-go does, again once its credential expires) and
// everything else reading the kubeconfig were handed a fresh one each time the last ran short.
// Only the AKS tokens are short: the ARM SDK's token cycler (@azure/core-rest-pipeline) keeps using
// a token until 1 s before its expiry, so 12-second ARM tokens would make any ARM request that a
// busy machine delays by a second arrive expired — a race with the machine, not a test of the action.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { parse } from 'yaml'
import { AKS_SERVER_APP_ID } from '../../../src/azure/credentials.js'
import type { FlowResult } from '../../../src/run/flow.js'
import { startWorld, type World } from '../../../sim/world.js'
import { helmStandinBinDir } from '../../support/helm-standin-bin.js'
import { adoptWorld, runFlowQuietly, secretAuthSettings, leaveWorld } from '../../support/runner-env.js'

// The driver builds alone take 54 s of real time; a loaded machine stretches the rest of the run
// (helm processes, TLS) several times over.
jest.setTimeout(900_000)

let world: World
let flow: FlowResult
let runnerTemp: string
const flowLog: string[] = []

/** The audience of a JWT the world issued. */
function audienceOf(jwt: string): string | undefined {
  try {
    return JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString()).aud
  } catch {
    return undefined
  }
}

beforeAll(async () => {
  world = await startWorld({
    helmCommand: [path.join(await helmStandinBinDir(), 'helm')],
    scenarioOverrides: {
      azure: {
        feature: { state: 'Registered' },
        cluster: { aad: true, localAccounts: false },
        // AKS tokens: 30 real seconds. The action hands each out until half its lifetime is left,
        // so a request would have to stall 15 s between taking its token and reaching the API
        // server to arrive expired; the run (over a minute) still needs three or more of them.
        tokens: { accessTokenLifetime: '1000h', aksAccessTokenLifetime: '3000s' }
      },
      // The driver builds take two to three token lifetimes.
      kube: { timeScale: 0.01, delays: { mofed: '3000s', gpuDriver: '2400s', default: '5s' } }
    }
  })
  runnerTemp = adoptWorld(world, 'aad-runner')
  const settings = secretAuthSettings(world, { mode: 'apply', 'node-pool': 'rdma', 'step-timeout': '30m' })
  flow = await runFlowQuietly({ ...settings, runId: 'aad-short-tokens' }, flowLog)
})

afterAll(() => leaveWorld(world))

describe('an AAD cluster whose tokens expire many times during the run', () => {
  it('the run succeeds, helm steps included', () => {
    if (flow.exitCode !== 0) console.log(flowLog.join('').slice(-6000))
    expect(flow.report.steps.filter(s => s.status !== 'success').map(s => `${s.name}: ${s.detail}`)).toEqual(
      []
    )
    expect(flow.report.result).toBe('success')
    expect(flow.report.steps.map(s => s.name)).toEqual(
      expect.arrayContaining(['credentials', 'network-operator', 'gpu-operator', 'verify', 'benchmark'])
    )
  })

  it('the API server never answered Unauthorized', () => {
    const kube = world.recorder.records.filter(r => r.service === 'kube')
    expect(kube.length).toBeGreaterThan(100)
    expect(kube.filter(r => r.status === 401).map(r => `${r.method} ${r.path}`)).toEqual([])
  })

  it('more AKS tokens were handed out: each renewed before it ran short', () => {
    const aks = world.azure.issuedSecrets().filter(t => audienceOf(t) === AKS_SERVER_APP_ID)
    // (Long watches keep the token they started with, as the API server lets them: the renewals
    // come where new requests are made: helm, verification, benchmarks.)
    expect(aks.length).toBeGreaterThanOrEqual(2)
  })

  it('once the run is over the kubeconfig holds the last token itself and the token socket is gone', () => {
    const file = flow.report.outputs['kubeconfig-path']
    const doc = parse(readFileSync(file, 'utf8'))
    expect(doc.users.map((u: any) => Object.keys(u.user))).toEqual([['token']])
    expect(readdirSync(runnerTemp).filter(f => f.startsWith('aks-rdma-token-'))).toEqual([])
    expect(existsSync(file)).toBe(true)
  })
})
