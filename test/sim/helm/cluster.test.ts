// The helm stand-in against the simulated API server: installs and upgrades of both charts, release
// Secrets as helm writes them, status / get values / list output, unchanged upgrades, --wait and
// --atomic, ownership conflicts, helm's errors, uninstall, and the bundled executable on PATH.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { execFile } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { HELM_STANDIN_VERSION, helmReleaseCounts } from '../../../sim/helm/index.js'
import { decodeRelease } from '../../../sim/helm/releases.js'
import type { KubeObject } from '../../../sim/kube/store.js'
import { helmStandinBinDir } from '../../support/helm-standin-bin.js'
import { operatorDeployment } from '../../support/controllers-world.js'
import {
  expectReleaseSecret,
  helmArgs,
  runHelm,
  startHelmWorld,
  type HelmWorld
} from '../../support/helm-world.js'

const REPO = 'https://helm.ngc.nvidia.com/nvidia'
let w: HelmWorld
let binDir: string

const helm = (...argv: string[]) => runHelm(w.env, argv)

const type = (group: string, plural: string) => w.store.type(group, plural)!
const get = (group: string, plural: string, ns: string | undefined, name: string): KubeObject | undefined =>
  w.store.type(group, plural) ? w.store.tryGet(type(group, plural), ns, name) : undefined
const secrets = (ns: string) =>
  w.store.list(type('', 'secrets'), { namespace: ns, labelSelector: 'owner=helm' }).items

function valuesFile(text: string): string {
  const f = path.join(mkdtempSync(path.join(tmpdir(), 'helm-vals-')), 'values.yaml')
  writeFileSync(f, text)
  return f
}

/** Waits (by polling the store) until helm has created an object, then marks it ready. */
async function readyWhenCreated(kind: 'Deployment' | 'DaemonSet', ns: string, name: string): Promise<void> {
  const plural = kind === 'Deployment' ? 'deployments' : 'daemonsets'
  while (!get('apps', plural, ns, name)) await new Promise(r => setTimeout(r, 5))
  w.markReady(kind, ns, name)
}

beforeAll(async () => {
  binDir = await helmStandinBinDir()
  w = await startHelmWorld(binDir)
  expect((await helm('repo', 'add', 'nvidia', REPO)).code).toBe(0)
})
afterAll(async () => {
  await w.close()
})

describe('network-operator', () => {
  const valuesPath = () => valuesFile('nfd:\n  deployNodeFeatureRules: false\n')

  it('installs with --create-namespace: CRDs, operator, NFD, release Secret', async () => {
    const r = await helm(
      ...helmArgs(
        `upgrade --install network-operator nvidia/network-operator --version v26.1.0 -n network-operator --create-namespace -f ${valuesPath()}`
      )
    )
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('Release "network-operator" does not exist. Installing it now.')
    expect(r.stdout).toContain('STATUS: deployed\nREVISION: 1\n')
    expect(get('', 'namespaces', undefined, 'network-operator')).toBeDefined()
    const crd = get(
      'apiextensions.k8s.io',
      'customresourcedefinitions',
      undefined,
      'nicclusterpolicies.mellanox.com'
    )!
    expect(crd.spec).toMatchObject({
      scope: 'Cluster',
      names: { kind: 'NicClusterPolicy', shortNames: ['ncp'] }
    })
    expect(
      get('apiextensions.k8s.io', 'customresourcedefinitions', undefined, 'nodefeaturerules.nfd.k8s-sigs.io')
    ).toBeDefined()
    const dep = get('apps', 'deployments', 'network-operator', 'network-operator')!
    expect(dep.spec.template.spec.containers[0].image).toBe(
      'nvcr.io/nvidia/cloud-native/network-operator:v26.1.0'
    )
    expect(dep.metadata.annotations).toMatchObject({
      'meta.helm.sh/release-name': 'network-operator',
      'meta.helm.sh/release-namespace': 'network-operator'
    })
    expect(
      get('apps', 'daemonsets', 'network-operator', 'network-operator-node-feature-discovery-worker')
    ).toBeDefined()
    expect(
      get('apps', 'deployments', 'network-operator', 'network-operator-node-feature-discovery-master')
    ).toBeDefined()
    expect(get('nfd.k8s-sigs.io', 'nodefeaturerules', undefined, 'nvidia-nics-rules')).toBeUndefined()
    const [s] = secrets('network-operator')
    expectReleaseSecret(s, 'network-operator', 1)
    const rel = decodeRelease(s.data.release)
    expect(rel.chart.metadata).toMatchObject({
      name: 'network-operator',
      version: 'v26.1.0',
      appVersion: 'v26.1.0'
    })
    expect(rel.config).toEqual({ nfd: { deployNodeFeatureRules: false } })
    expect(rel.info.description).toBe('Install complete')
  })

  it('reports status, user values and the release list as JSON', async () => {
    const st = await helm('status', 'network-operator', '-n', 'network-operator', '-o', 'json')
    const status = JSON.parse(st.stdout)
    expect(status).toMatchObject({
      name: 'network-operator',
      namespace: 'network-operator',
      version: 1,
      info: { status: 'deployed' }
    })
    expect(status.chart.metadata.version).toBe('v26.1.0')
    const vals = await helm('get', 'values', 'network-operator', '-n', 'network-operator', '-o', 'json')
    expect(JSON.parse(vals.stdout)).toEqual({ nfd: { deployNodeFeatureRules: false } })
    const list = JSON.parse((await helm('list', '-n', 'network-operator', '-o', 'json')).stdout)
    expect(list).toEqual([
      expect.objectContaining({
        name: 'network-operator',
        namespace: 'network-operator',
        revision: '1',
        status: 'deployed',
        chart: 'network-operator-v26.1.0',
        app_version: 'v26.1.0'
      })
    ])
    const missing = await helm('status', 'nope', '-n', 'network-operator')
    expect(missing).toMatchObject({ code: 1, stderr: 'Error: release: not found\n' })
    const missingValues = await helm('get', 'values', 'nope', '-n', 'network-operator', '-o', 'json')
    expect(missingValues).toMatchObject({ code: 1, stderr: 'Error: release: not found\n' })
  })

  it('an unchanged upgrade still writes a new revision and supersedes the old one, without touching workloads', async () => {
    w.recorder.reset()
    const r = await helm(
      ...helmArgs(
        `upgrade --install network-operator nvidia/network-operator --version v26.1.0 -n network-operator -f ${valuesPath()}`
      )
    )
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('Release "network-operator" has been upgraded. Happy Helming!')
    const byName = Object.fromEntries(
      secrets('network-operator').map(s => [s.metadata.name, s.metadata.labels!.status])
    )
    expect(byName).toEqual({
      'sh.helm.release.v1.network-operator.v1': 'superseded',
      'sh.helm.release.v1.network-operator.v2': 'deployed'
    })
    const writes = w.recorder.counts().kube.mutatingByResource
    expect(writes.deployments ?? 0).toBe(0)
    expect(writes.daemonsets ?? 0).toBe(0)
    expect(writes.secrets).toBeGreaterThanOrEqual(2)
    expect(helmReleaseCounts(w.store.list(type('', 'secrets')).items)).toMatchObject({
      installs: 1,
      upgrades: 1
    })
  })

  it('a values change re-renders: dropping the override brings back the default NodeFeatureRule', async () => {
    const r = await helm(
      ...helmArgs(
        'upgrade --install network-operator nvidia/network-operator --version v26.1.0 -n network-operator --reset-values'
      )
    )
    expect(r.code).toBe(0)
    expect(get('nfd.k8s-sigs.io', 'nodefeaturerules', undefined, 'nvidia-nics-rules')).toBeDefined()
    const vals = await helm('get', 'values', 'network-operator', '-n', 'network-operator', '-o', 'json')
    expect(vals.stdout).toBe('null\n')
  })
})

describe('gpu-operator', () => {
  it('fails without the namespace unless --create-namespace, and on an unknown chart version', async () => {
    const r = await helm(
      ...helmArgs('upgrade -i gpu-operator nvidia/gpu-operator --version v26.3.3 -n gpu-operator')
    )
    expect(r).toMatchObject({
      code: 1,
      stderr: 'Error: create: failed to create: namespaces "gpu-operator" not found\n'
    })
    const v = await helm(
      ...helmArgs('upgrade -i gpu-operator nvidia/gpu-operator --version v9.9.9 -n gpu-operator')
    )
    expect(v.stderr).toBe(
      `Error: chart "gpu-operator" matching v9.9.9 not found in nvidia index. (try 'helm repo update'): no chart version found for gpu-operator-v9.9.9\n`
    )
    const noInstall = await helm('upgrade', 'gpu-operator', 'nvidia/gpu-operator', '-n', 'gpu-operator')
    expect(noInstall.stderr).toBe('Error: UPGRADE FAILED: "gpu-operator" has no deployed releases\n')
  })

  it('installs the ClusterPolicy built from values and changes it when values change', async () => {
    const r = await helm(
      ...helmArgs(
        'upgrade --install gpu-operator nvidia/gpu-operator --version v26.3.3 -n gpu-operator --create-namespace --set nfd.enabled=false --set driver.rdma.enabled=true'
      )
    )
    expect(r.stderr).toBe('')
    const cp = get('nvidia.com', 'clusterpolicies', undefined, 'cluster-policy')!
    expect(cp.spec.driver).toMatchObject({
      enabled: true,
      version: '580.126.20',
      rdma: { enabled: true, useHostMofed: false }
    })
    expect(
      get('apps', 'deployments', 'gpu-operator', 'gpu-operator')!.spec.template.spec.containers[0].image
    ).toBe('nvcr.io/nvidia/gpu-operator:v26.3.3')
    expect(
      get('apps', 'daemonsets', 'gpu-operator', 'gpu-operator-node-feature-discovery-worker')
    ).toBeUndefined()
    const vals = JSON.parse(
      (await helm('get', 'values', 'gpu-operator', '-n', 'gpu-operator', '-o', 'json')).stdout
    )
    expect(vals).toEqual({ nfd: { enabled: false }, driver: { rdma: { enabled: true } } })

    const gen = cp.metadata.generation!
    const up = await helm(
      ...helmArgs(
        'upgrade --install gpu-operator nvidia/gpu-operator --version v26.7.0 -n gpu-operator --set nfd.enabled=false --set driver.rdma.enabled=true --set migManager.enabled=false'
      )
    )
    expect(up.code).toBe(0)
    const cp2 = get('nvidia.com', 'clusterpolicies', undefined, 'cluster-policy')!
    expect(cp2.spec.driver.version).toBe('595.91.07')
    expect(cp2.spec.migManager.enabled).toBe(false)
    expect(cp2.metadata.generation).toBeGreaterThan(gen)
    expect(
      get('apps', 'deployments', 'gpu-operator', 'gpu-operator')!.spec.template.spec.containers[0].image
    ).toBe('nvcr.io/nvidia/gpu-operator:v26.7.0')
    const st = JSON.parse((await helm('status', 'gpu-operator', '-n', 'gpu-operator', '-o', 'json')).stdout)
    expect(st).toMatchObject({
      version: 2,
      chart: { metadata: { version: 'v26.7.0' } },
      info: { status: 'deployed', description: 'Upgrade complete' }
    })
  })

  it('--wait fails at the timeout with the revision marked failed, then succeeds once workloads are ready', async () => {
    const fail = await helm(
      ...helmArgs(
        'upgrade --install gpu-operator nvidia/gpu-operator --version v26.7.0 -n gpu-operator --set nfd.enabled=false --wait --timeout 1s'
      )
    )
    expect(fail).toMatchObject({ code: 1, stderr: 'Error: UPGRADE FAILED: context deadline exceeded\n' })
    let st = JSON.parse((await helm('status', 'gpu-operator', '-n', 'gpu-operator', '-o', 'json')).stdout)
    expect(st).toMatchObject({
      version: 3,
      info: { status: 'failed', description: 'Upgrade "gpu-operator" failed: context deadline exceeded' }
    })

    const pending = helm(
      ...helmArgs(
        'upgrade --install gpu-operator nvidia/gpu-operator --version v26.7.0 -n gpu-operator --set nfd.enabled=false --wait --timeout 10m'
      )
    )
    // helm records revision 4 before it waits: the workloads become ready while it waits
    while (!secrets('gpu-operator').some(x => x.metadata.labels?.version === '4'))
      await new Promise(r => setTimeout(r, 5))
    w.markReady('Deployment', 'gpu-operator', 'gpu-operator')
    expect((await pending).code).toBe(0)
    st = JSON.parse((await helm('status', 'gpu-operator', '-n', 'gpu-operator', '-o', 'json')).stdout)
    expect(st).toMatchObject({ version: 4, info: { status: 'deployed' } })
    const statuses = secrets('gpu-operator')
      .map(s => `${s.metadata.labels!.version}:${s.metadata.labels!.status}`)
      .sort()
    expect(statuses).toEqual(['1:superseded', '2:superseded', '3:failed', '4:deployed'])
  })

  it('--atomic rolls a failed upgrade (an image that never starts) back to the deployed revision', async () => {
    // A stand-in controller: Deployments become available unless their image is the broken one.
    const deployments = type('apps', 'deployments')
    const controller = setInterval(() => {
      for (const d of w.store.list(deployments, { namespace: 'gpu-operator' }).items) {
        const image: string = d.spec.template.spec.containers[0].image
        if (!image.endsWith(':v0-broken') && d.status?.observedGeneration !== d.metadata.generation) {
          w.markReady('Deployment', 'gpu-operator', d.metadata.name)
        }
      }
    }, 5)
    try {
      const r = await helm(
        ...helmArgs(
          'upgrade -i gpu-operator nvidia/gpu-operator --version v26.7.0 -n gpu-operator --set nfd.enabled=false --set operator.version=v0-broken --atomic --timeout 5s'
        )
      )
      expect(r.code).toBe(1)
      expect(r.stderr).toBe(
        'Error: UPGRADE FAILED: release gpu-operator failed, and has been rolled back due to atomic being set: context deadline exceeded\n'
      )
    } finally {
      clearInterval(controller)
    }
    const st = JSON.parse((await helm('status', 'gpu-operator', '-n', 'gpu-operator', '-o', 'json')).stdout)
    expect(st).toMatchObject({
      version: 6,
      info: { status: 'deployed', description: 'Rollback to 4' },
      chart: { metadata: { version: 'v26.7.0' } }
    })
    expect(
      get('apps', 'deployments', 'gpu-operator', 'gpu-operator')!.spec.template.spec.containers[0].image
    ).toBe('nvcr.io/nvidia/gpu-operator:v26.7.0')
    const statuses = secrets('gpu-operator')
      .map(s => `${s.metadata.labels!.version}:${s.metadata.labels!.status}`)
      .sort()
    expect(statuses).toEqual([
      '1:superseded',
      '2:superseded',
      '3:failed',
      '4:superseded',
      '5:failed',
      '6:deployed'
    ])
  })

  it('uninstall deletes the objects and the release Secrets but keeps CRDs', async () => {
    const r = await helm('uninstall', 'gpu-operator', '-n', 'gpu-operator')
    expect(r).toMatchObject({ code: 0, stdout: 'release "gpu-operator" uninstalled\n' })
    expect(get('nvidia.com', 'clusterpolicies', undefined, 'cluster-policy')).toBeUndefined()
    expect(get('apps', 'deployments', 'gpu-operator', 'gpu-operator')).toBeUndefined()
    expect(secrets('gpu-operator')).toHaveLength(0)
    expect(
      get('apiextensions.k8s.io', 'customresourcedefinitions', undefined, 'clusterpolicies.nvidia.com')
    ).toBeDefined()
    const again = await helm('uninstall', 'gpu-operator', '-n', 'gpu-operator')
    expect(again).toMatchObject({
      code: 1,
      stderr: 'Error: uninstall: Release not loaded: gpu-operator: release: not found\n'
    })
  })

  it('--atomic on a failed install uninstalls it', async () => {
    const r = await helm(
      ...helmArgs(
        'upgrade -i gpu-operator nvidia/gpu-operator -n gpu-operator --set nfd.enabled=false --atomic --timeout 1s'
      )
    )
    expect(r.stderr).toBe(
      'Error: release gpu-operator failed, and has been uninstalled due to atomic being set: context deadline exceeded\n'
    )
    expect(secrets('gpu-operator')).toHaveLength(0)
    expect(get('apps', 'deployments', 'gpu-operator', 'gpu-operator')).toBeUndefined()
  })

  it('refuses to adopt an object it does not own', async () => {
    w.store.create(type('apps', 'deployments'), operatorDeployment('gpu-operator', { a: 'b' }, 'x'))
    const r = await helm('upgrade', '-i', 'gpu-operator', 'nvidia/gpu-operator', '-n', 'gpu-operator')
    expect(r.code).toBe(1)
    expect(r.stderr).toContain(
      'Error: rendered manifests contain a resource that already exists. Unable to continue with install: Deployment "gpu-operator" in namespace "gpu-operator" exists and cannot be imported into the current release: invalid ownership metadata; label validation error: missing key "app.kubernetes.io/managed-by": must be set to "Helm"'
    )
    w.store.delete(type('apps', 'deployments'), 'gpu-operator', 'gpu-operator')
  })

  it('installs with the default chart version and waits for the operator when asked', async () => {
    const pending = helm(
      ...helmArgs(
        'upgrade --install gpu-operator nvidia/gpu-operator -n gpu-operator --wait --set nfd.enabled=true'
      )
    )
    await readyWhenCreated('Deployment', 'gpu-operator', 'gpu-operator')
    await readyWhenCreated('Deployment', 'gpu-operator', 'gpu-operator-node-feature-discovery-master')
    await readyWhenCreated('Deployment', 'gpu-operator', 'gpu-operator-node-feature-discovery-gc')
    await readyWhenCreated('DaemonSet', 'gpu-operator', 'gpu-operator-node-feature-discovery-worker')
    const r = await pending
    expect(r.stderr).toBe('')
    expect(r.stdout).toContain('REVISION: 1')
    const st = JSON.parse((await helm('status', 'gpu-operator', '-n', 'gpu-operator', '-o', 'json')).stdout)
    expect(st.chart.metadata.version).toBe('v26.7.0')
  })
})

describe('the helm executable on PATH', () => {
  const exec = promisify(execFile)
  it('runs the bundled stand-in as a child process against the API server', async () => {
    const v = await exec('helm', ['version', '--template', '{{.Version}}'], { env: w.env })
    expect(v.stdout).toBe(HELM_STANDIN_VERSION)
    const list = await exec('helm', ['list', '-A', '-o', 'json'], { env: w.env })
    const names = JSON.parse(list.stdout)
      .map((r: { name: string }) => r.name)
      .sort()
    expect(names).toEqual(['gpu-operator', 'network-operator'])
    await expect(exec('helm', ['status', 'absent', '-n', 'default'], { env: w.env })).rejects.toMatchObject({
      code: 1,
      stderr: 'Error: release: not found\n'
    })
  })

  it('needs the repo to be added first', async () => {
    const env = { ...w.env, HELM_CONFIG_HOME: mkdtempSync(path.join(tmpdir(), 'helm-norepo-')) }
    await expect(
      exec('helm', ['upgrade', '-i', 'x', 'nvidia/gpu-operator', '-n', 'default'], { env })
    ).rejects.toMatchObject({
      code: 1,
      stderr: 'Error: repo nvidia not found\n'
    })
  })
})
