// Everyday kubectl against a whole simulated world (what `sim up` starts): the real kubectl on
// PATH (or $KUBECTL) creates a namespace, a ConfigMap and a Deployment (sent as protobuf), applies
// server-side, labels, scales, waits for the rollout, reads logs, describes, lists API resources,
// explains fields, asks `auth can-i` for the admin and for a user credential with fewer rights,
// and deletes the namespace with its contents. Skipped, with a notice, when there is no kubectl.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals'
import { execFile, execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { startWorld, type World } from '../../../sim/world.js'

jest.setTimeout(180_000)

function findKubectl(): string | undefined {
  if (process.env.KUBECTL) return process.env.KUBECTL
  try {
    return execFileSync('sh', ['-c', 'command -v kubectl'], { encoding: 'utf8' }).trim() || undefined
  } catch {
    return undefined
  }
}

const KUBECTL = findKubectl()
if (!KUBECTL) console.warn('kubectl is not on PATH: the everyday kubectl suite is skipped')
const suite = KUBECTL ? describe : describe.skip

let world: World
let dir: string

interface Result {
  code: number
  stdout: string
  stderr: string
}

function kubectlAs(kubeconfig: string, ...args: string[]): Promise<Result> {
  return new Promise(resolve => {
    execFile(
      KUBECTL!,
      ['--kubeconfig', kubeconfig, '--cache-dir', path.join(dir, 'cache'), ...args],
      { timeout: 90_000, env: { ...process.env, HOME: dir, KUBECONFIG: kubeconfig } },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr })
    )
  })
}

const kubectl = (...args: string[]) => kubectlAs(path.join(dir, 'admin'), ...args)

async function ok(...args: string[]): Promise<string> {
  const r = await kubectl(...args)
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} failed (${r.code}): ${r.stderr}`)
  return r.stdout
}

suite(`everyday kubectl (${KUBECTL}) against a simulated world`, () => {
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'sim-kubectl-everyday-'))
    world = await startWorld({
      dir: path.join(dir, 'world'),
      helmCommand: [process.execPath, '-e', 'process.exit(1)'],
      scenarioOverrides: {
        kube: {
          access: [
            {
              user: 'clusterUser',
              rules: [{ apiGroups: ['', 'apps'], resources: ['*'], verbs: ['get', 'list', 'watch'] }]
            }
          ]
        }
      }
    })
    writeFileSync(path.join(dir, 'admin'), world.kube.kubeconfig('admin'), { mode: 0o600 })
    writeFileSync(path.join(dir, 'user'), world.kube.kubeconfig('user'), { mode: 0o600 })
  })
  afterAll(async () => {
    await world?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('gets and describes the nodes', async () => {
    const nodes = await ok('get', 'nodes')
    expect(nodes).toMatch(/NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION/)
    expect(nodes).toMatch(/aks-system-\S+\s+Ready\s+agent\s+\S+\s+v1\.33\.2/)
    const name = (await ok('get', 'nodes', '-o', 'jsonpath={.items[0].metadata.name}')).trim()
    expect(await ok('describe', 'node', name)).toMatch(new RegExp(`Name:\\s+${name}`))
  })

  it('creates a namespace, a ConfigMap and a Deployment, and applies server-side', async () => {
    expect(await ok('create', 'namespace', 'smoke')).toBe('namespace/smoke created\n')
    expect(await ok('get', 'namespace', 'smoke', '-o', 'jsonpath={.status.phase}')).toBe('Active')
    expect(await ok('create', 'configmap', 'settings', '-n', 'smoke', '--from-literal=mode=rdma')).toBe(
      'configmap/settings created\n'
    )
    expect(await ok('get', 'configmap', 'settings', '-n', 'smoke', '-o', 'jsonpath={.data.mode}')).toBe(
      'rdma'
    )
    expect(
      await ok(
        'create',
        'deployment',
        'web',
        '-n',
        'smoke',
        '--image=busybox:1.36',
        '--',
        'sh',
        '-c',
        'echo hello from web; sleep infinity'
      )
    ).toBe('deployment.apps/web created\n')
    const applied = path.join(dir, 'applied.yaml')
    writeFileSync(
      applied,
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: applied, namespace: smoke}\ndata: {a: "1"}\n'
    )
    expect(await ok('apply', '--server-side', '-f', applied)).toBe('configmap/applied serverside-applied\n')
    expect(await ok('get', 'configmaps', '-n', 'smoke')).toMatch(/applied\s+1\s+\S+\n(.*\n)*settings\s+1\s/)
  })

  it('waits for the rollout, scales, labels and waits for a condition', async () => {
    expect(await ok('rollout', 'status', 'deployment/web', '-n', 'smoke', '--timeout=60s')).toContain(
      'deployment "web" successfully rolled out'
    )
    expect(await ok('scale', 'deployment', 'web', '-n', 'smoke', '--replicas=3')).toBe(
      'deployment.apps/web scaled\n'
    )
    await ok('rollout', 'status', 'deployment/web', '-n', 'smoke', '--timeout=60s')
    expect(
      await ok('get', 'deployment', 'web', '-n', 'smoke', '-o', 'jsonpath={.status.readyReplicas}')
    ).toBe('3')
    expect(await ok('label', 'deployment', 'web', '-n', 'smoke', 'tier=frontend')).toBe(
      'deployment.apps/web labeled\n'
    )
    expect(await ok('get', 'deployments', '-n', 'smoke', '-l', 'tier=frontend', '-o', 'name')).toBe(
      'deployment.apps/web\n'
    )
    expect(
      await ok('wait', '--for=condition=Available', 'deployment/web', '-n', 'smoke', '--timeout=30s')
    ).toBe('deployment.apps/web condition met\n')
    const pods = await ok('get', 'pods', '-n', 'smoke', '-l', 'app=web')
    expect(pods.trim().split('\n').slice(1)).toEqual(
      Array(3).fill(expect.stringMatching(/^web-\S+\s+1\/1\s+Running\s+0\s/))
    )
  })

  it('reads logs and describes the Deployment', async () => {
    expect(await ok('logs', '-n', 'smoke', 'deployment/web')).toBe('hello from web\n')
    const described = await ok('describe', 'deployment', 'web', '-n', 'smoke')
    expect(described).toMatch(/Replicas:\s+3 desired \| 3 updated \| 3 total \| 3 available \| 0 unavailable/)
    expect(described).toMatch(/Labels:\s+app=web\n\s+tier=frontend/)
  })

  it('lists API resources and explains fields', async () => {
    const resources = await ok('api-resources')
    expect(resources).toMatch(/deployments\s+deploy\s+apps\/v1\s+true\s+Deployment/)
    expect(resources).toMatch(
      /selfsubjectaccessreviews\s+authorization\.k8s\.io\/v1\s+false\s+SelfSubjectAccessReview/
    )
    const explained = await ok('explain', 'deployment.spec.replicas')
    expect(explained).toMatch(/FIELD:\s+replicas <integer>/)
    expect(explained).toContain('Number of desired pods.')
  })

  it('answers auth can-i for the admin and for a user credential that may only read', async () => {
    expect(await ok('auth', 'can-i', 'create', 'daemonsets', '-A')).toBe('yes\n')
    const user = path.join(dir, 'user')
    expect(await kubectlAs(user, 'auth', 'can-i', 'list', 'pods', '-n', 'smoke')).toMatchObject({
      code: 0,
      stdout: 'yes\n'
    })
    expect(await kubectlAs(user, 'auth', 'can-i', 'create', 'daemonsets', '-A')).toMatchObject({
      code: 1,
      stdout: 'no\n'
    })
    const denied = await kubectlAs(user, 'delete', 'configmap', 'settings', '-n', 'smoke')
    expect(denied.code).toBe(1)
    expect(denied.stderr).toBe(
      'Error from server (Forbidden): configmaps "settings" is forbidden: User "clusterUser" cannot delete resource "configmaps" in API group "" in the namespace "smoke"\n'
    )
  })

  it('deletes the namespace with everything in it', async () => {
    expect(await ok('delete', 'namespace', 'smoke')).toBe('namespace "smoke" deleted\n')
    const left = await kubectl('get', 'deployments,configmaps,pods', '-n', 'smoke', '-o', 'name')
    expect(left).toMatchObject({ code: 0, stdout: '' })
    expect((await kubectl('get', 'namespace', 'smoke')).stderr).toContain('namespaces "smoke" not found')
  })
})
