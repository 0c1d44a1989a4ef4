// The Kubernetes half of a simulated world: an ObjectStore with the built-in types, the HTTPS API
// server in front of it, the simulated control plane and node agents behind it, and the
// ClusterBackend the Azure half drives (pools → nodes, kubeconfigs).
import { randomBytes } from 'node:crypto'
import type { ClusterBackend, SimClock, SimPool, SimRecorder } from '../contracts.js'
import type { Scenario } from '../scenario.js'
import type { WorldTls } from '../tls.js'
import { startApiServer } from './apiserver/index.js'
import { SimCluster } from './cluster.js'
import { startControllers, type Controllers } from './controllers/index.js'
import type { LogOptions } from './controllers/logs.js'
import { HardwareRegistry, type NodeHardware, type NodeTimeline } from './hardware.js'
import { registerBuiltins } from './resources.js'
import { installAdmission } from './admission.js'
import { ObjectStore } from './store.js'

export interface NodeState {
  pool: string
  vmSize: string
  rdmaIndex: number
  ofedReady: boolean
  memlockUnlimited: boolean
  ibModulesLoaded: boolean
  gpuDriverReady: boolean
  nvidiaPeermemLoaded: boolean
  kubeletRestarts: number
  containerdRestarts: number
  ibNodeConfigRuns: number
  /** Device-plugin resource → host devices its selectors matched. */
  rdmaMatchedDevices: Record<string, string[]>
  timeline: NodeTimeline
}

export interface KubeSim extends ClusterBackend {
  url: string
  store: ObjectStore
  /** A token the API server accepts with full rights (what the admin/user kubeconfigs carry). */
  adminToken: string
  /** Per node: when each setup step happened, in simulated ms since the world started. */
  nodeTimeline(): Record<string, NodeTimeline>
  kubeletRestarts(): Record<string, number>
  /** Per node: the simulated hardware state. */
  nodeStates(): Record<string, NodeState>
  hardware: HardwareRegistry
  logs(ns: string, pod: string, container?: string, opts?: LogOptions): string | undefined
  controllers: Controllers
  close(): Promise<void>
}

function stateOf(hw: NodeHardware): NodeState {
  return {
    pool: hw.pool,
    vmSize: hw.vmSize,
    rdmaIndex: hw.rdmaIndex,
    ofedReady: hw.ofedReady,
    memlockUnlimited: hw.memlockUnlimited,
    ibModulesLoaded: hw.ibModulesLoaded,
    gpuDriverReady: hw.gpuDriverReady,
    nvidiaPeermemLoaded: hw.nvidiaPeermemLoaded,
    kubeletRestarts: hw.kubeletRestarts,
    containerdRestarts: hw.containerdRestarts,
    ibNodeConfigRuns: hw.ibNodeConfigRuns,
    rdmaMatchedDevices: structuredClone(hw.rdmaMatchedDevices),
    timeline: { ...hw.timeline }
  }
}

export async function startKubeSim(o: {
  scenario: Scenario
  clock: SimClock
  recorder: SimRecorder
  tls: WorldTls
  verifyAadToken?: (t: string) => boolean
}): Promise<KubeSim> {
  const store = new ObjectStore({ now: () => o.clock.wallNow() })
  registerBuiltins(store)
  if (o.scenario.kube.mutatePods?.length) installAdmission(store, o.scenario.kube.mutatePods)
  const hardware = new HardwareRegistry()
  const controllers = startControllers({
    store,
    clock: o.clock,
    scenario: o.scenario,
    hardware,
    caPem: o.tls.caPem
  })
  const adminToken = randomBytes(32).toString('hex')
  const userToken = randomBytes(32).toString('hex')
  const server = await startApiServer({
    store,
    tls: o.tls,
    recorder: o.recorder,
    clock: o.clock,
    tokens: new Set([adminToken, userToken]),
    tokenUsers: {
      [adminToken]: { username: 'clusterAdmin', groups: ['system:masters'] },
      [userToken]: { username: 'clusterUser', groups: ['system:masters'] }
    },
    ...(o.scenario.kube.access ? { access: o.scenario.kube.access } : {}),
    ...(o.verifyAadToken ? { verifyAadToken: o.verifyAadToken } : {}),
    faults: (o.scenario.kube.faults ?? []).filter(f => f.api || f.watch),
    ...(o.scenario.kube.throttle ? { throttle: o.scenario.kube.throttle } : {}),
    logs: (ns, pod, container, opts) => controllers.logs(ns, pod, container, opts),
    streams: {
      exec: (ns, pod, container, req, io) => controllers.kubelet.exec(ns, pod, container, req, io),
      attach: (ns, pod, container, io) => controllers.kubelet.attach(ns, pod, container, io),
      followLog: (ns, pod, container, write, end) =>
        controllers.kubelet.followLog(ns, pod, container, write, end),
      connect: (ns, pod, port) => controllers.kubelet.connect(ns, pod, port)
    }
  })
  const cluster = new SimCluster({
    store,
    scenario: o.scenario,
    clock: o.clock,
    tls: o.tls,
    hardware,
    timers: controllers.ctx.timers,
    wallNow: controllers.ctx.wallNow
  })
  cluster.setServer(server.url, { user: userToken, admin: adminToken })
  return {
    url: server.url,
    store,
    adminToken,
    hardware,
    controllers,
    addPool: (p: SimPool) => cluster.addPool(p),
    removePool: (name: string) => cluster.removePool(name),
    setPoolCount: (name: string, count: number) => cluster.setPoolCount(name, count),
    kubeconfig: kind => cluster.kubeconfig(kind),
    apiServerUrl: () => cluster.apiServerUrl(),
    nodeTimeline: () => Object.fromEntries(hardware.all().map(h => [h.nodeName, { ...h.timeline }])),
    kubeletRestarts: () => Object.fromEntries(hardware.all().map(h => [h.nodeName, h.kubeletRestarts])),
    nodeStates: () => Object.fromEntries(hardware.all().map(h => [h.nodeName, stateOf(h)])),
    logs: (ns, pod, container, opts) => controllers.logs(ns, pod, container, opts),
    close: async () => {
      controllers.close()
      await server.close()
    }
  }
}
