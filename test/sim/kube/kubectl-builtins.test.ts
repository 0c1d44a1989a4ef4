// Built-in APIs beyond the core set, through the real kubectl against a whole simulated world:
// PodDisruptionBudgets (status from the disruption controller; eviction refused with 429 while
// the budget allows no disruption), `kubectl create token` and a TokenReview of its token,
// `kubectl debug` (the ephemeralcontainers subresource), the kinds served without a controller,
// and what kube-apiserver's admission and pod update validation refuse. Skipped, with a notice,
// when there is no kubectl.
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
if (!KUBECTL) console.warn('kubectl is not on PATH: the built-in APIs kubectl suite is skipped')
const suite = KUBECTL ? describe : describe.skip
const suiteName = KUBECTL
  ? `built-in APIs through kubectl (${KUBECTL})`
  : 'built-in APIs through kubectl: SKIPPED, kubectl is not on PATH (or set KUBECTL)'

let world: World
let dir: string

interface Result {
  code: number
  stdout: string
  stderr: string
}

function kubectl(...args: string[]): Promise<Result> {
  return kubectlAs(path.join(dir, 'admin'), ...args)
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

async function ok(...args: string[]): Promise<string> {
  const r = await kubectl(...args)
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} failed (${r.code}): ${r.stderr}`)
  return r.stdout
}

async function until(cond: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const end = Date.now() + ms
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not met in time')
    await new Promise(r => setTimeout(r, 100))
  }
}

function file(name: string, text: string): string {
  const p = path.join(dir, name)
  writeFileSync(p, text)
  return p
}

const json = async (...args: string[]) => JSON.parse(await ok(...args, '-o', 'json'))

suite(suiteName, () => {
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'sim-kubectl-builtins-'))
    world = await startWorld({
      dir: path.join(dir, 'world'),
      helmCommand: [process.execPath, '-e', 'process.exit(1)']
    })
    writeFileSync(path.join(dir, 'admin'), world.kube.kubeconfig('admin'), { mode: 0o600 })
    await ok('create', 'namespace', 'apps')
  })
  afterAll(async () => {
    await world?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('computes a PodDisruptionBudget and refuses an eviction it does not allow (429)', async () => {
    await ok('create', 'deployment', 'web', '-n', 'apps', '--image=busybox:1.36', '--replicas=2')
    await ok('rollout', 'status', 'deployment/web', '-n', 'apps', '--timeout=60s')
    await ok('create', 'poddisruptionbudget', 'web', '-n', 'apps', '--selector=app=web', '--min-available=2')
    await until(async () => (await json('get', 'pdb', 'web', '-n', 'apps')).status?.observedGeneration === 1)
    const pdb = await json('get', 'pdb', 'web', '-n', 'apps')
    expect(pdb.status).toMatchObject({
      currentHealthy: 2,
      desiredHealthy: 2,
      expectedPods: 2,
      disruptionsAllowed: 0
    })
    expect(pdb.status.conditions[0]).toMatchObject({
      type: 'DisruptionAllowed',
      status: 'False',
      reason: 'InsufficientPods'
    })
    const pod = (
      await ok('get', 'pods', '-n', 'apps', '-l', 'app=web', '-o', 'jsonpath={.items[0].metadata.name}')
    ).trim()
    const eviction = file(
      'eviction.json',
      JSON.stringify({
        apiVersion: 'policy/v1',
        kind: 'Eviction',
        metadata: { name: pod, namespace: 'apps' }
      })
    )
    const refused = await kubectl(
      'create',
      '--raw',
      `/api/v1/namespaces/apps/pods/${pod}/eviction`,
      '-f',
      eviction
    )
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toContain('TooManyRequests')
    expect(refused.stderr).toContain("Cannot evict pod as it would violate the pod's disruption budget.")
    expect(await ok('get', 'pod', pod, '-n', 'apps', '-o', 'jsonpath={.metadata.deletionTimestamp}')).toBe('')
  })

  it('spends a budget on an eviction and refuses the next one', async () => {
    for (const name of ['solo-a', 'solo-b'])
      await ok('run', name, '-n', 'apps', '--image=busybox:1.36', '--labels=app=solo')
    await ok('wait', '--for=condition=Ready', 'pod', '-l', 'app=solo', '-n', 'apps', '--timeout=60s')
    await ok('create', 'pdb', 'solo', '-n', 'apps', '--selector=app=solo', '--min-available=1')
    await until(async () => (await json('get', 'pdb', 'solo', '-n', 'apps')).status?.disruptionsAllowed === 1)
    const evict = (pod: string) =>
      kubectl(
        'create',
        '--raw',
        `/api/v1/namespaces/apps/pods/${pod}/eviction`,
        '-f',
        file(
          `evict-${pod}.json`,
          JSON.stringify({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: pod } })
        )
      )
    expect((await evict('solo-a')).code).toBe(0)
    const pdb = await json('get', 'pdb', 'solo', '-n', 'apps')
    expect(pdb.status.disruptionsAllowed).toBe(0)
    const second = await evict('solo-b')
    expect(second.code).not.toBe(0)
    expect(second.stderr).toContain('TooManyRequests')
    expect(
      await ok('get', 'pod', 'solo-b', '-n', 'apps', '-o', 'jsonpath={.metadata.deletionTimestamp}')
    ).toBe('')
    const a = await kubectl(
      'get',
      'pod',
      'solo-a',
      '-n',
      'apps',
      '-o',
      'jsonpath={.metadata.deletionTimestamp}'
    )
    expect(a.code !== 0 || a.stdout !== '').toBe(true)
  })

  it('issues a service account token the server accepts, and reviews it', async () => {
    const token = (await ok('create', 'token', 'default', '-n', 'apps', '--duration=15m')).trim()
    expect(token.split('.')).toHaveLength(3)
    // A kubeconfig with the token alone (the admin one's client certificate would win).
    const asAccount = file(
      'sa-kubeconfig',
      [
        'apiVersion: v1',
        'kind: Config',
        `clusters: [{name: sim, cluster: {server: "${world.kube.url}", certificate-authority: "${world.caPath}"}}]`,
        `users: [{name: sa, user: {token: "${token}"}}]`,
        'contexts: [{name: sa, context: {cluster: sim, user: sa}}]',
        'current-context: sa'
      ].join('\n')
    )
    const whoami = await kubectlAs(asAccount, 'auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}')
    expect(whoami.stdout).toBe('system:serviceaccount:apps:default')
    const review = file(
      'review.json',
      JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } })
    )
    const reviewed = JSON.parse(await ok('create', '-f', review, '-o', 'json'))
    expect(reviewed.status.authenticated).toBe(true)
    expect(reviewed.status.user.username).toBe('system:serviceaccount:apps:default')
    expect(reviewed.status.user.groups).toContain('system:serviceaccounts:apps')
    // Without RBAC rights of its own, the account is forbidden to list pods.
    const denied = await kubectlAs(asAccount, 'get', 'pods', '-n', 'apps')
    expect(denied.stderr).toContain('Forbidden')
    const short = await kubectl('create', 'token', 'default', '-n', 'apps', '--duration=1m')
    expect(short.stderr).toContain('may not specify a duration less than 10 minutes')
  })

  it('adds an ephemeral container with kubectl debug, which the kubelet starts', async () => {
    const pod = (
      await ok('get', 'pods', '-n', 'apps', '-l', 'app=web', '-o', 'jsonpath={.items[0].metadata.name}')
    ).trim()
    await ok('debug', pod, '-n', 'apps', '--image=busybox:1.36', '--container=dbg', '--', 'true')
    const spec = await json('get', 'pod', pod, '-n', 'apps')
    expect(spec.spec.ephemeralContainers.map((c: any) => c.name)).toEqual(['dbg'])
    await until(async () =>
      ((await json('get', 'pod', pod, '-n', 'apps')).status.ephemeralContainerStatuses ?? []).some(
        (s: any) => s.name === 'dbg' && s.state.running
      )
    )
  })
})
