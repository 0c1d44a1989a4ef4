// Test helper for the helm suites: the API server suites' world (apiserver-world.ts), a kubeconfig
// file for it, isolated helm config/cache/home directories, the environment a `helm` child process
// needs (stand-in first on PATH, KUBECONFIG, HELM_* paths), and the stand-in run in-process.
import { expect } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { SimRecorder } from '../../sim/contracts.js'
import type { ApiServer } from '../../sim/kube/apiserver/index.js'
import type { ObjectStore, KubeObject } from '../../sim/kube/store.js'
import { helmStandin } from '../../sim/helm/index.js'
import { TOKEN, kubeConfigYaml, startWorld } from './apiserver-world.js'

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
  const { store, server, recorder, tls, close } = await startWorld()
  const dir = mkdtempSync(path.join(tmpdir(), 'helm-world-'))
  const kubeconfigPath = path.join(dir, 'kubeconfig')
  writeFileSync(kubeconfigPath, kubeConfigYaml(server.url, tls, { token: TOKEN }), { mode: 0o600 })
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
  return { store, server, recorder, kubeconfigPath, env, markReady, close }
}

export interface HelmRun {
  code: number
  stdout: string
  stderr: string
}

/** Runs the helm stand-in in this process with `env`, collecting what it writes. */
export async function runHelm(env: NodeJS.ProcessEnv, argv: string[]): Promise<HelmRun> {
  let stdout = ''
  let stderr = ''
  const code = await helmStandin(argv, env, { stdout: s => (stdout += s), stderr: s => (stderr += s) })
  return { code, stdout, stderr }
}

/** The words of a helm command line, split at white space (no quoting: no word holds a space). */
export const helmArgs = (line: string): string[] => line.trim().split(/\s+/)

/** The facts helm's storage driver writes on a release Secret: its name, type and labels. */
export function expectReleaseSecret(
  s: KubeObject,
  release: string,
  revision: number,
  status = 'deployed'
): void {
  expect(s.metadata.name).toBe(`sh.helm.release.v1.${release}.v${revision}`)
  expect(s.type).toBe('helm.sh/release.v1')
  expect(s.metadata.labels).toMatchObject({ owner: 'helm', name: release, status, version: String(revision) })
}
