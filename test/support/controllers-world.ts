// Test world for the simulated controllers: a store with the built-in types plus the three CRD
// types the stack needs, the controllers, a SimCluster, and small helpers (create by kind, wait
// for a condition in real time, apply the upstream manifests). Every world made here is closed
// after the test that made it.
import { readFileSync } from 'node:fs'
import { closeAfterTest } from './world-scope.js'
import path from 'node:path'
import { parseAllDocuments } from 'yaml'
import { SimClock } from '../../sim/contracts.js'
import { loadScenario, type Scenario } from '../../sim/scenario.js'
import { SimCluster } from '../../sim/kube/cluster.js'
import { startControllers, type Controllers } from '../../sim/kube/controllers/index.js'
import { HardwareRegistry } from '../../sim/kube/hardware.js'
import { registerBuiltins } from '../../sim/kube/resources.js'
import { ObjectStore, type KubeObject, type ResourceType } from '../../sim/kube/store.js'
import type { WorldTls } from '../../sim/tls.js'

export const CRD_TYPES: ResourceType[] = [
  {
    group: 'nfd.k8s-sigs.io',
    version: 'v1alpha1',
    plural: 'nodefeaturerules',
    singular: 'nodefeaturerule',
    kind: 'NodeFeatureRule',
    namespaced: false
  },
  {
    group: 'mellanox.com',
    version: 'v1alpha1',
    plural: 'nicclusterpolicies',
    singular: 'nicclusterpolicy',
    kind: 'NicClusterPolicy',
    namespaced: false,
    shortNames: ['ncp'],
    subresources: ['status']
  },
  {
    group: 'nvidia.com',
    version: 'v1',
    plural: 'clusterpolicies',
    singular: 'clusterpolicy',
    kind: 'ClusterPolicy',
    namespaced: false,
    subresources: ['status']
  }
]

export const UPSTREAM = path.resolve(process.cwd(), 'test/fixtures/upstream')
export const FIXTURES = path.resolve(process.cwd(), 'test/fixtures')

export interface World {
  scenario: Scenario
  clock: SimClock
  store: ObjectStore
  hardware: HardwareRegistry
  controllers: Controllers
  cluster: SimCluster
  errors: string[]
  t(plural: string, group?: string): ResourceType
  create(obj: KubeObject): KubeObject
  get(plural: string, ns: string | undefined, name: string, group?: string): KubeObject | undefined
  list(
    plural: string,
    opts?: { namespace?: string; labelSelector?: string; fieldSelector?: string },
    group?: string
  ): KubeObject[]
  waitFor<T>(what: string, fn: () => T | undefined | false, timeoutMs?: number): Promise<T>
  /**
   * Until `fn` holds, without a real-time deadline: runs the queued work, lets in-flight work run,
   * and when the store stands still jumps the simulated clock `stepMs` to the next timers. Fails
   * only when the store has not changed over `idleJumps` jumps (the world stalled), however slow
   * the machine.
   */
  settle<T>(
    what: string,
    fn: () => T | undefined | false,
    o?: { stepMs?: number; idleJumps?: number }
  ): Promise<T>
  close(): void
}

const GROUP_OF_KIND: Record<string, string> = {
  DaemonSet: 'apps',
  Deployment: 'apps',
  ReplicaSet: 'apps',
  Job: 'batch',
  NodeFeatureRule: 'nfd.k8s-sigs.io',
  NicClusterPolicy: 'mellanox.com',
  ClusterPolicy: 'nvidia.com'
}

export function makeWorld(overrides: unknown = {}, o: { tls?: WorldTls; crds?: boolean } = {}): World {
  const scenario = loadScenario(undefined, { kube: { timeScale: 0.001 }, ...(overrides as object) })
  const clock = new SimClock(scenario.kube.timeScale)
  const store = new ObjectStore()
  registerBuiltins(store)
  if (o.crds !== false) for (const t of CRD_TYPES) store.registerType(t)
  const hardware = new HardwareRegistry()
  const errors: string[] = []
  const controllers = startControllers({
    store,
    clock,
    scenario,
    hardware,
    onError: (c, k, e) => errors.push(`${c} ${k}: ${(e as Error).stack}`)
  })
  const cluster = new SimCluster({
    store,
    scenario,
    clock,
    tls: o.tls ?? ({ caPem: 'CA', caKeyPem: '', certPem: '', keyPem: '' } as WorldTls),
    hardware,
    timers: controllers.ctx.timers,
    wallNow: controllers.ctx.wallNow
  })
  const t = (plural: string, group = '') => {
    const ty = store.type(group, plural)
    if (!ty) throw new Error(`type ${plural}.${group} not registered`)
    return ty
  }
  const world: World = {
    scenario,
    clock,
    store,
    hardware,
    controllers,
    cluster,
    errors,
    t,
    create(obj) {
      const group = GROUP_OF_KIND[obj.kind] ?? ''
      const ty = store.types().find(x => x.kind === obj.kind && x.group === group)
      if (!ty) throw new Error(`no type for ${obj.kind}`)
      return store.create(ty, obj)
    },
    get: (plural, ns, name, group = '') => store.tryGet(t(plural, group), ns, name),
    list: (plural, opts = {}, group = '') => store.list(t(plural, group), opts).items,
    async waitFor(what, fn, timeoutMs = 60_000) {
      const start = Date.now()
      for (;;) {
        const v = fn()
        if (v) return v as never
        if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for: ${what}`)
        await new Promise(r => setTimeout(r, 5))
      }
    },
    async settle(what, fn, { stepMs = 10_000, idleJumps = 360 } = {}) {
      let seen = store.currentResourceVersion
      let idle = 0
      for (;;) {
        controllers.flush()
        const v = fn()
        if (v) return v as never
        await new Promise(r => setImmediate(r))
        if (store.currentResourceVersion !== seen) {
          seen = store.currentResourceVersion
          idle = 0
          continue
        }
        if (++idle > idleJumps)
          throw new Error(
            `the world stalled waiting for ${what}: nothing changed over ${(idleJumps * stepMs) / 1000} simulated seconds`
          )
        clock.advance(stepMs)
      }
    },
    close() {
      controllers.close()
    }
  }
  closeAfterTest(world)
  return world
}

/** A world whose cluster is `count` system nodes, with the `scenario` overrides. */
export function systemNodesWorld(count: number, scenario: unknown = {}): World {
  const w = makeWorld(scenario)
  w.cluster.addPool(systemPool(count))
  return w
}

/**
 * A world with `system` system nodes, a GPU pool `gpu` of `gpus` nodes, the Network Operator
 * installed and, unless turned off, the guide's NodeFeatureRule and NicClusterPolicy applied.
 */
export function networkOperatorWorld(o: {
  gpus: number
  system?: number
  scenario?: unknown
  pool?: Parameters<typeof gpuPool>[2]
  nfdRule?: boolean
  nicClusterPolicy?: boolean
}): World {
  const w = makeWorld(o.scenario)
  if (o.system) w.cluster.addPool(systemPool(o.system))
  w.cluster.addPool(gpuPool('gpu', o.gpus, o.pool))
  installNetworkOperator(w)
  if (o.nfdRule !== false) applyNfdRule(w)
  if (o.nicClusterPolicy !== false) applyNicClusterPolicy(w)
  return w
}

export function gpuPool(
  name = 'gpu',
  count = 2,
  extra: Partial<{
    vmSize: string
    osSku: string
    kubernetesVersion: string
    taints: string[]
    labels: Record<string, string>
  }> = {}
) {
  return {
    name,
    vmSize: 'Standard_ND96isr_H100_v5',
    count,
    osSku: 'Ubuntu',
    mode: 'User' as const,
    kubernetesVersion: '1.33',
    ...extra
  }
}

export function systemPool(count = 1) {
  return {
    name: 'system',
    vmSize: 'Standard_D4s_v5',
    count,
    osSku: 'Ubuntu',
    mode: 'System' as const,
    kubernetesVersion: '1.33'
  }
}

/** Parses an upstream manifest file (multi-document), substituting the guide's pool placeholder. */
export function upstream(file: string, pool = 'gpu'): KubeObject[] {
  const text = readFileSync(path.join(UPSTREAM, file), 'utf8').replaceAll('<GPU_NODE_POOL_NAME>', pool)
  return parseAllDocuments(text)
    .map(d => d.toJS())
    .filter(Boolean) as KubeObject[]
}

export function namespace(w: World, name: string): void {
  if (!w.get('namespaces', undefined, name))
    w.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } })
}

/** An operator's one-replica Deployment, named as its namespace, as its chart installs it. */
export function operatorDeployment(name: string, labels: Record<string, string>, image: string): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: name },
    spec: {
      replicas: 1,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name, image }] } }
    }
  }
}

/** What `helm install network-operator` leaves behind that the simulation keys on: the operator and NFD's worker. */
export function installNetworkOperator(
  w: World,
  o: { version?: string; workerTolerations?: unknown[]; workerNodeSelector?: Record<string, string> } = {}
): void {
  namespace(w, 'network-operator')
  w.create(
    operatorDeployment(
      'network-operator',
      { 'app.kubernetes.io/name': 'network-operator' },
      `nvcr.io/nvidia/cloud-native/network-operator:${o.version ?? 'v26.4.1'}`
    )
  )
  // The chart's NFD worker: its config whitelists display classes only, labelling by vendor.
  w.create({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'network-operator-node-feature-discovery-worker-conf', namespace: 'network-operator' },
    data: {
      'nfd-worker.conf':
        'sources:\n  pci:\n    deviceClassWhitelist: ["0300", "0302"]\n    deviceLabelFields: [vendor]\n'
    }
  })
  const sel = { 'app.kubernetes.io/name': 'node-feature-discovery', role: 'worker' }
  w.create({
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'network-operator-node-feature-discovery-worker', namespace: 'network-operator' },
    spec: {
      selector: { matchLabels: sel },
      template: {
        metadata: { labels: sel },
        spec: {
          tolerations: o.workerTolerations ?? [
            { key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' },
            { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }
          ],
          ...(o.workerNodeSelector ? { nodeSelector: o.workerNodeSelector } : {}),
          containers: [
            {
              name: 'worker',
              image: 'nvcr.io/nvidia/mellanox/node-feature-discovery:network-operator-v26.4.1'
            }
          ],
          volumes: [
            {
              name: 'nfd-worker-conf',
              configMap: { name: 'network-operator-node-feature-discovery-worker-conf' }
            }
          ]
        }
      }
    }
  })
}

export function installGpuOperator(
  w: World,
  spec: Record<string, unknown> = { driver: { rdma: { enabled: true } } }
): void {
  namespace(w, 'gpu-operator')
  w.create(operatorDeployment('gpu-operator', { app: 'gpu-operator' }, 'nvcr.io/nvidia/gpu-operator:v26.7.0'))
  w.create({ apiVersion: 'nvidia.com/v1', kind: 'ClusterPolicy', metadata: { name: 'cluster-policy' }, spec })
}

export function applyNfdRule(w: World): void {
  for (const o of upstream('azure-aks-rdma-infiniband__tests_setup-infra_network-operator-nfd.yaml'))
    w.create(o)
}

export function applyNicClusterPolicy(w: World): void {
  for (const o of upstream('azure-aks-rdma-infiniband__configs_nicclusterpolicy_base_nic.yaml')) w.create(o)
}

export function applyIbNodeConfig(w: World, pool = 'gpu'): void {
  for (const o of upstream('dynamo-guide-infiniband-on-azure__ib-node-config.yaml', pool)) w.create(o)
}

export function applyGuideDevicePlugin(w: World, pool = 'gpu'): void {
  for (const o of upstream('dynamo-guide-infiniband-on-azure__rdma-shared-device-plugin.yaml', pool))
    w.create(o)
}

/** A Pod in `default`, bound to `node` when one is given. */
export function pod(name: string, spec: Record<string, unknown>, node?: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: { ...(node ? { nodeName: node } : {}), ...spec }
  }
}

export const isReady = (p: KubeObject) =>
  (p.status?.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True')
