// Test helper for the helm suites: a simulated API server over a fresh ObjectStore (built-in types,
// CRD controller), a kubeconfig file for it, isolated helm config/cache/home directories, and the
// environment a `helm` child process needs (stand-in first on PATH, KUBECONFIG, HELM_* paths).
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { SimClock, SimRecorder } from '../../sim/contracts.js'
import { createWorldTls, type WorldTls } from '../../sim/tls.js'
import { startApiServer, type ApiServer } from '../../sim/kube/apiserver/index.js'
import { registerBuiltins } from '../../sim/kube/resources.js'
import { ObjectStore, type KubeObject } from '../../sim/kube/store.js'

const TOKEN = 'helm-test-token'
let tls: WorldTls | undefined

export interface HelmWorld {
  store: ObjectStore
  server: ApiServer
  recorder: SimRecorder
  kubeconfigPath: string
  /** Environment for running helm: isolated HOME and helm dirs, KUBECONFIG, PATH with `binDir` first. */
  env: NodeJS.ProcessEnv
  /** Marks a Deployment or DaemonSet ready the way the controllers would (status subresource). */
  markReady(kind: 'Deployment' | 'DaemonSet', namespace: string, name: string): void
  close(): Promise<void>
}

export async function startHelmWorld(binDir?: string): Promise<HelmWorld> {
  tls ??= createWorldTls()
  const store = new ObjectStore()
  registerBuiltins(store)
  const recorder = new SimRecorder()
  const server = await startApiServer({
    store,
    tls,
    recorder,
    clock: new SimClock(0.01),
    tokens: new Set([TOKEN])
  })
  const dir = mkdtempSync(path.join(tmpdir(), 'helm-world-'))
  const b64 = (s: string): string => Buffer.from(s).toString('base64')
  const kubeconfigPath = path.join(dir, 'kubeconfig')
  writeFileSync(
    kubeconfigPath,
    `apiVersion: v1
kind: Config
clusters:
- name: sim
  cluster:
    server: ${server.url}
    certificate-authority-data: ${b64(tls.caPem)}
users:
- name: sim-user
  user:
    token: ${TOKEN}
contexts:
- name: sim
  context:
    cluster: sim
    user: sim-user
current-context: sim
`,
    { mode: 0o600 }
  )
  const env: NodeJS.ProcessEnv = {
    PATH: binDir ? `${binDir}${path.delimiter}${process.env.PATH}` : process.env.PATH,
    HOME: path.join(dir, 'home'),
    KUBECONFIG: kubeconfigPath,
    HELM_CONFIG_HOME: path.join(dir, 'helm-config'),
    HELM_CACHE_HOME: path.join(dir, 'helm-cache'),
    HELM_DATA_HOME: path.join(dir, 'helm-data'),
    HELM_STANDIN_TIME_SCALE: '0.01'
  }
  const markReady = (kind: 'Deployment' | 'DaemonSet', namespace: string, name: string): void => {
    const t = store.type('apps', kind === 'Deployment' ? 'deployments' : 'daemonsets')!
    const obj = store.get(t, namespace, name) as KubeObject
    obj.status =
      kind === 'Deployment'
        ? {
            observedGeneration: obj.metadata.generation,
            replicas: obj.spec.replicas ?? 1,
            updatedReplicas: obj.spec.replicas ?? 1,
            readyReplicas: obj.spec.replicas ?? 1,
            availableReplicas: obj.spec.replicas ?? 1
          }
        : {
            desiredNumberScheduled: 2,
            currentNumberScheduled: 2,
            updatedNumberScheduled: 2,
            numberReady: 2,
            numberAvailable: 2
          }
    store.update(t, obj, { subresource: 'status' })
  }
  return { store, server, recorder, kubeconfigPath, env, markReady, close: () => server.close() }
}
