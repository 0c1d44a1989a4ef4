// Day two against one simulated world (Azure + Kubernetes + the helm and az stand-ins), converged
// once by a real apply: verify and drift with only a kubeconfig (no Azure input at all) make not one
// request to ARM, Entra or GitHub's OIDC; the CLI's verify does the same from $KUBECONFIG alone; apply
// with a kubeconfig signs in for the pool, checks that the kubeconfig is the named cluster's, and
// never lists credentials; the job summary's Pod runs under the real `kubectl apply -f`; and the az
// commands the node pool's drift gives as fixes run as printed, in a shell, against the az stand-in
// (signed in as azure/login signs in), after which the pool has no drift.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals'
import { execFile } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { connectAzure } from '../../../src/azure/index.js'
import { nodePool } from '../../../src/components/node-pool.js'
import { silentLog } from '../../../src/log/index.js'
import type { FlowResult } from '../../../src/run/flow.js'
import { workloadYaml } from '../../../src/report/workload-summary.js'
import type { World } from '../../../sim/world.js'
import { bundlePath } from '../../support/dist.js'
import * as runner from '../../support/runner-env.js'

jest.setTimeout(600_000)

let world: World
const flowLog: string[] = []

/** Runs the action's flow in-process with exactly these inputs; its workflow commands collected. */
const flow = (inputs: Record<string, string>): Promise<FlowResult> =>
  runner.runWithInputs(world, inputs, 'kc', flowLog)

/** Requests that reached the world's Azure half (ARM, Entra, GitHub OIDC). */
const azureRequests = () => world.recorder.records.filter(r => r.service !== 'kube')

/** A shell command line as a user pastes it, with the world's PATH (az, helm stand-ins) and kubectl. */
function shell(command: string, env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string }> {
  const all = Object.fromEntries(
    Object.entries({ ...process.env, ...env }).filter((e): e is [string, string] => e[1] !== undefined)
  )
  return new Promise(resolve =>
    execFile('bash', ['-c', command], { env: all, timeout: 120_000 }, (e, stdout, stderr) =>
      resolve({ code: e ? Number((e as { code?: number }).code ?? 1) : 0, out: stdout + stderr })
    )
  )
}

/** The commands in a fix's code spans. */
const commandsOf = (hint: string | undefined): string[] =>
  [...(hint ?? '').matchAll(/`([^`]+)`/g)].map(m => m[1])

beforeAll(async () => {
  world = await runner.runnerWorld(
    'kc-runner',
    { kube: { timeScale: 0.001 }, azure: { tokens: { oidcLifetime: '1000h' } } },
    { azCommand: [process.execPath, bundlePath('cli'), '__az'] }
  )
  const r = await flow({ ...runner.secretAuthInputs(world), mode: 'apply' })
  expect(r.report.steps.filter(x => x.status === 'failure').map(x => `${x.name}: ${x.detail}`)).toEqual([])
})

afterAll(() => runner.leaveWorld(world))

describe('with only a kubeconfig', () => {
  let verified: FlowResult

  it('verify signs in nowhere: not one request to ARM, Entra or OIDC, and succeeds', async () => {
    world.recorder.reset()
    verified = await flow({ mode: 'verify', kubeconfig: world.adminKubeconfigPath })
    expect(verified.exitCode).toBe(0)
    expect(azureRequests()).toEqual([])
    expect(verified.report.steps.map(s => s.name)).toEqual(['credentials', 'verify'])
    expect(verified.report.steps[0].detail).toMatch(/of the given kubeconfig .*; nothing fetched from Azure$/)
    expect(world.recorder.records.some(r => r.service === 'kube')).toBe(true)
  })

  it('drift too: the cluster compared, the Azure resources said not to be, no Azure request', async () => {
    world.recorder.reset()
    const r = await flow({ mode: 'drift', kubeconfig: world.adminKubeconfigPath })
    expect(r.exitCode).toBe(0)
    expect(r.report.drift).toEqual([])
    expect(r.report.steps.find(s => s.name === 'drift')?.detail).toBe(
      'no drift (in the cluster; the Azure resources not compared: no subscription-id)'
    )
    expect(azureRequests()).toEqual([])
    expect(world.recorder.records.filter(x => x.mutating)).toEqual([])
    expect(flowLog.join('')).toContain(
      'node-pool: not compared (no Azure sign-in: give subscription-id to compare it)'
    )
  })

  it('the CLI’s verify from $KUBECONFIG alone (a kubectl-only user), and --context picks the context', async () => {
    world.recorder.reset()
    const env = {
      KUBECONFIG: world.adminKubeconfigPath,
      RUNNER_TEMP: undefined, // a run folder of its own, as on a laptop
      HOME: mkdtempSync(path.join(tmpdir(), 'kc-home-'))
    }
    const cli = `'${process.execPath}' '${bundlePath('cli')}' verify --node-pool ${runner.RUN_POOL} --benchmark false`
    const r = await shell(cli, env)
    expect({ code: r.code, out: r.code ? r.out : '' }).toEqual({ code: 0, out: '' })
    expect(r.out).toContain('no Azure sign-in')
    expect(r.out).not.toContain('azure-sign-in')
    expect(azureRequests()).toEqual([])
    const wrong = await shell(`${cli} --context staging`, env)
    expect(wrong.code).toBe(2)
    expect(wrong.out).toContain('kube-context "staging": no such context in kubeconfig')
  })

  it('the summary’s Pod runs under the real `kubectl apply -f`', async () => {
    const pod = verified.report.workload!.podSnippet
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'kc-pod-')), 'rdma-workload.yaml')
    writeFileSync(file, workloadYaml(pod) + '\n')
    const env = { KUBECONFIG: world.adminKubeconfigPath }
    const applied = await shell(`kubectl apply -f ${file}`, env)
    expect(applied).toEqual({ code: 0, out: 'pod/rdma-workload created\n' })
    // Scheduled on the pool with its RDMA device and all of a node's GPUs, and running.
    const pods = world.kube.store.type('', 'pods')!
    let live: any
    for (let i = 0; i < 3000 && live?.status?.phase !== 'Running'; i++) {
      live = world.kube.store.get(pods, 'default', 'rdma-workload')
      await new Promise(r => setTimeout(r, 20))
    }
    expect(live.status.phase).toBe('Running')
    expect(live.spec.nodeName).toMatch(/rdma/)
    expect(live.spec.containers[0].resources.limits).toEqual({
      'rdma/hca_shared_devices_a': '1',
      'nvidia.com/gpu': '8'
    })
    expect((await shell('kubectl delete pod rdma-workload --wait=false', env)).code).toBe(0)
  })
})

describe('apply with a kubeconfig', () => {
  it('signs in for the feature and the pool, never lists credentials, and stays converged', async () => {
    world.recorder.reset()
    const r = await flow({
      ...runner.secretAuthInputs(world),
      mode: 'apply',
      kubeconfig: world.adminKubeconfigPath
    })
    expect(r.exitCode).toBe(0)
    expect(r.report.steps.map(s => s.name).slice(0, 5)).toEqual([
      'azure-sign-in',
      'kubeconfig-cluster',
      'infiniband-feature',
      'node-pool',
      'credentials'
    ])
    // The kubeconfig's server checked against the cluster's fqdn (the world's API server) first.
    expect(r.report.steps[1].detail).toMatch(
      /^context \S+ reaches https:\/\/127\.0\.0\.1:\d+, the cluster's fqdn$/
    )
    const arm = world.recorder.records.filter(x => x.service === 'arm')
    expect(arm.length).toBeGreaterThan(0)
    expect(arm.filter(x => /list\w*Credential/.test(x.path))).toEqual([])
    // Converged: nothing written but verification's own probe.
    const writes = world.recorder.records.filter(
      x => x.mutating && !x.path.includes('/namespaces/aks-rdma-verify/')
    )
    expect(writes).toEqual([])
  })
})

describe('the az commands drift prints run as printed', () => {
  it('the pool’s size and labels: each fix pasted into a shell, then drift is clean', async () => {
    // The node pool's drift as drift mode reads it (its fixes are what the log and summary print).
    const s = runner.secretAuthSettings(world, runner.twoNodeRun('drift'))
    const clients = connectAzure(s, silentLog).clients
    const drift = () => nodePool.drift({ component: 'node-pool', settings: s, clients })
    // A pool smaller than node-count: scaling it up is the printed fix (never down: a live pool keeps its nodes).
    world.azure.setPool(runner.RUN_POOL, { count: 1, nodeLabels: { team: 'x' } })
    const fixes = await drift()
    expect(fixes.map(d => d.field)).toEqual(['count', 'nodeLabels'])
    const commands = fixes.flatMap(d => commandsOf(d.hint))
    const { subscriptionId } = world.scenario.azure
    const where = `--subscription ${subscriptionId} --resource-group ${s.cluster.resourceGroup} --cluster-name ${s.cluster.name} --name ${runner.RUN_POOL}`
    expect(commands).toEqual([
      `az aks nodepool scale ${where} --node-count 2`,
      `az aks nodepool update ${where} --labels ''`
    ])
    // Signed in as azure/login signs in; then each command exactly as printed.
    const a = world.scenario.azure
    const login = await shell(
      `az login --service-principal -u ${a.clientId} -p '${a.clientSecret}' --tenant ${a.tenantId} --output none`
    )
    expect(login).toEqual({ code: 0, out: '' })
    for (const command of commands) {
      const r = await shell(command)
      expect({ command, code: r.code, out: r.code ? r.out : '' }).toEqual({ command, code: 0, out: '' })
    }
    expect(world.azure.getPool(runner.RUN_POOL).properties).toMatchObject({ count: 2, nodeLabels: {} })
    expect(await drift()).toEqual([])
  })
})
