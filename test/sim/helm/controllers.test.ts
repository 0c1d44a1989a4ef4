// The helm stand-in with the simulated controllers running: `helm upgrade --install --wait` of both
// charts returns once the controllers have rolled out what the charts render (operator Deployments,
// the NFD worker DaemonSet), and the GPU Operator simulation picks up the ClusterPolicy helm created.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { SimClock, SimRecorder } from '../../../sim/contracts.js'
import { startApiServer, type ApiServer } from '../../../sim/kube/apiserver/index.js'
import { SimCluster } from '../../../sim/kube/cluster.js'
import { startControllers, type Controllers } from '../../../sim/kube/controllers/index.js'
import { registerBuiltins } from '../../../sim/kube/resources.js'
import { ObjectStore } from '../../../sim/kube/store.js'
import { DEFAULT_SCENARIO } from '../../../sim/scenario.js'
import { createWorldTls } from '../../../sim/tls.js'
import { helmArgs, runHelm } from '../../support/helm-world.js'

const TIME_SCALE = 0.005
let store: ObjectStore
let server: ApiServer
let controllers: Controllers
let env: NodeJS.ProcessEnv

const helm = (...argv: string[]) => runHelm(env, argv)

beforeAll(async () => {
  const scenario = structuredClone(DEFAULT_SCENARIO)
  scenario.kube.timeScale = TIME_SCALE
  const clock = new SimClock(TIME_SCALE)
  const tls = createWorldTls()
  store = new ObjectStore()
  registerBuiltins(store)
  controllers = startControllers({ store, clock, scenario })
  server = await startApiServer({
    store,
    tls,
    recorder: new SimRecorder(),
    clock,
    tokens: new Set(['t0ken']),
    logs: (ns, pod, c, o) => controllers.logs(ns, pod, c, o)
  })
  const cluster = new SimCluster({
    store,
    scenario,
    clock,
    tls,
    hardware: controllers.ctx.hardware,
    timers: controllers.ctx.timers,
    wallNow: controllers.ctx.wallNow
  })
  cluster.addPool({
    name: 'system',
    vmSize: 'Standard_D4s_v5',
    count: 1,
    osSku: 'Ubuntu',
    mode: 'System',
    kubernetesVersion: '1.33.2'
  })
  cluster.addPool({
    name: 'rdma',
    vmSize: 'Standard_ND96isr_H100_v5',
    count: 2,
    osSku: 'Ubuntu2204',
    mode: 'User',
    kubernetesVersion: '1.33.2'
  })
  const dir = mkdtempSync(path.join(tmpdir(), 'helm-ctl-'))
  const b64 = (s: string) => Buffer.from(s).toString('base64')
  const kubeconfig = path.join(dir, 'kubeconfig')
  writeFileSync(
    kubeconfig,
    `apiVersion: v1\nkind: Config\nclusters:\n- name: s\n  cluster:\n    server: ${server.url}\n    certificate-authority-data: ${b64(tls.caPem)}\nusers:\n- name: u\n  user:\n    token: t0ken\ncontexts:\n- name: s\n  context:\n    cluster: s\n    user: u\ncurrent-context: s\n`
  )
  env = { HOME: dir, KUBECONFIG: kubeconfig, HELM_STANDIN_TIME_SCALE: String(TIME_SCALE) }
  expect((await helm('repo', 'add', 'nvidia', 'https://helm.ngc.nvidia.com/nvidia')).code).toBe(0)
})
afterAll(async () => {
  controllers?.close()
  await server?.close()
})

describe('helm --wait with the simulated controllers', () => {
  it('installs the network operator and waits until its workloads are rolled out', async () => {
    const r = await helm(
      ...helmArgs(
        'upgrade --install network-operator nvidia/network-operator --version v26.1.0 -n network-operator --create-namespace --set nfd.deployNodeFeatureRules=false --wait --timeout 10m'
      )
    )
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const dep = store.get(store.type('apps', 'deployments')!, 'network-operator', 'network-operator')
    expect(dep.status?.availableReplicas).toBe(1)
    const ds = store.get(
      store.type('apps', 'daemonsets')!,
      'network-operator',
      'network-operator-node-feature-discovery-worker'
    )
    expect(ds.status?.numberReady).toBe(ds.status?.desiredNumberScheduled)
  })

  it('installs the GPU operator; the simulated operator reconciles the ClusterPolicy helm rendered', async () => {
    const r = await helm(
      ...helmArgs(
        'upgrade --install gpu-operator nvidia/gpu-operator --version v26.3.3 -n gpu-operator --create-namespace --set nfd.enabled=false --set driver.rdma.enabled=true --wait --timeout 10m'
      )
    )
    expect(r.stderr).toBe('')
    const cpType = store.type('nvidia.com', 'clusterpolicies')!
    while (!store.get(cpType, undefined, 'cluster-policy').status?.state)
      await new Promise(res => setTimeout(res, 10))
    expect(['ready', 'notReady']).toContain(store.get(cpType, undefined, 'cluster-policy').status?.state)
  })
})
