// Who may do what on the simulated cluster: the scenario key kube.access (validated before the
// world starts), SelfSubjectAccessReview / SelfSubjectRulesReview / SelfSubjectReview answered
// for the caller's identity (client certificate, the user and admin tokens), impersonation,
// real Forbidden messages, and the action run with a user credential that may only read: its
// failing step names the permission it lacks.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals'
import {
  AppsV1Api,
  AuthenticationV1Api,
  AuthorizationV1Api,
  CoreV1Api,
  KubeConfig
} from '@kubernetes/client-node'
import { writeFileSync } from 'node:fs'
import { loadScenario, ScenarioError } from '../../../sim/scenario.js'
import { applyStack } from '../../../src/stack/index.js'
import { collectLog, startStackWorld, useHelmStandin, type StackWorld } from '../../support/stack-world.js'

jest.setTimeout(120_000)

const READ_ONLY = [
  {
    user: 'clusterUser',
    rules: [
      { apiGroups: ['*'], resources: ['*'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['*'], namespace: 'kube-system' }
    ]
  }
]

function kubeConfig(yaml: string): KubeConfig {
  const kc = new KubeConfig()
  kc.loadFromString(yaml)
  return kc
}

async function status(p: Promise<unknown>): Promise<{ code: number; body: any }> {
  try {
    await p
  } catch (err) {
    const e = err as { code?: number; body?: string }
    return { code: e.code ?? 0, body: JSON.parse(e.body ?? '{}') }
  }
  throw new Error('the request succeeded')
}

describe('scenario key kube.access', () => {
  it('is checked before a world starts, naming each problem', () => {
    let err: unknown
    try {
      loadScenario(undefined, {
        kube: {
          access: [
            { user: '', rules: [{ verbs: ['fly'], resources: ['pods'] }] },
            {
              user: 'x',
              rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'], namespace: 'a' }],
              extra: 1
            }
          ]
        }
      })
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(ScenarioError)
    expect((err as ScenarioError).problems).toEqual([
      'kube.access[0].user: a user name',
      'kube.access[0].rules[0].verbs: "fly" is not a verb ' +
        '(*, get, list, watch, create, update, patch, delete, deletecollection, impersonate, bind, escalate, use, approve, sign, proxy)',
      'kube.access[0].rules[0].apiGroups: a list of strings',
      'kube.access[1].extra: unknown key (user, rules)',
      'kube.access[1].rules[0].namespace: not with nonResourceURLs'
    ])
    expect(loadScenario(undefined, { kube: { access: READ_ONLY } }).kube.access).toEqual(READ_ONLY)
  })
})

describe('a user credential that may only read', () => {
  let w: StackWorld
  let user: KubeConfig
  let admin: KubeConfig

  beforeAll(async () => {
    await useHelmStandin()
    w = await startStackWorld({ nodes: 1, scenario: { kube: { access: READ_ONLY } } })
    user = kubeConfig(w.sim.kubeconfig('user'))
    admin = kubeConfig(w.sim.kubeconfig('admin'))
  })
  afterAll(async () => {
    await w.close()
  })

  it('knows who it is: the user token is clusterUser without system:masters, the admin certificate is', async () => {
    const me = await user.makeApiClient(AuthenticationV1Api).createSelfSubjectReview({ body: {} })
    expect(me.status?.userInfo).toEqual({ username: 'clusterUser', groups: ['system:authenticated'] })
    const root = await admin.makeApiClient(AuthenticationV1Api).createSelfSubjectReview({ body: {} })
    expect(root.status?.userInfo).toEqual({
      username: 'masterclient',
      groups: ['system:masters', 'system:authenticated']
    })
  })

  it('answers SelfSubjectAccessReviews for the caller', async () => {
    const can = (kc: KubeConfig, verb: string, resource: string, group = '', namespace = '') =>
      kc
        .makeApiClient(AuthorizationV1Api)
        .createSelfSubjectAccessReview({
          body: { spec: { resourceAttributes: { verb, resource, group, namespace } } }
        })
        .then(r => r.status)
    expect(await can(user, 'list', 'daemonsets', 'apps')).toEqual({
      allowed: true,
      reason:
        'RBAC: allowed by ClusterRoleBinding "aks-rdma-sim:clusterUser" of ClusterRole "aks-rdma-sim:clusterUser" to User "clusterUser"'
    })
    expect(await can(user, 'create', 'daemonsets', 'apps', 'kube-system')).toEqual({ allowed: false })
    expect(await can(user, 'update', 'leases', 'coordination.k8s.io', 'kube-system')).toMatchObject({
      allowed: true
    })
    expect(await can(user, 'update', 'leases', 'coordination.k8s.io', 'default')).toEqual({ allowed: false })
    expect(await can(admin, 'create', 'daemonsets', 'apps')).toEqual({ allowed: true })
  })

  it('lists the caller’s rules in a namespace (SelfSubjectRulesReview)', async () => {
    const rules = await user
      .makeApiClient(AuthorizationV1Api)
      .createSelfSubjectRulesReview({ body: { spec: { namespace: 'kube-system' } } })
    expect(rules.status?.incomplete).toBe(false)
    expect(rules.status?.resourceRules).toEqual(
      expect.arrayContaining([
        { verbs: ['get', 'list', 'watch'], apiGroups: ['*'], resources: ['*'] },
        { verbs: ['*'], apiGroups: ['coordination.k8s.io'], resources: ['leases'] },
        {
          verbs: ['create'],
          apiGroups: ['authorization.k8s.io'],
          resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']
        }
      ])
    )
    expect(rules.status?.nonResourceRules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          verbs: ['get'],
          nonResourceURLs: expect.arrayContaining(['/api', '/apis/*'])
        })
      ])
    )
    const elsewhere = await user
      .makeApiClient(AuthorizationV1Api)
      .createSelfSubjectRulesReview({ body: { spec: { namespace: 'default' } } })
    expect(elsewhere.status?.resourceRules).not.toContainEqual(
      expect.objectContaining({ resources: ['leases'] })
    )
  })

  it('answers requests outside the rules with the Forbidden Status a real API server sends', async () => {
    const ns = await status(
      user.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: 'nope' } } })
    )
    expect(ns).toMatchObject({
      code: 403,
      body: {
        kind: 'Status',
        reason: 'Forbidden',
        message:
          'namespaces is forbidden: User "clusterUser" cannot create resource "namespaces" in API group "" at the cluster scope',
        details: { group: '', kind: 'namespaces' }
      }
    })
    const ds = await status(
      user.makeApiClient(AppsV1Api).deleteNamespacedDaemonSet({ name: 'x', namespace: 'kube-system' })
    )
    expect(ds.body.message).toBe(
      'daemonsets.apps "x" is forbidden: User "clusterUser" cannot delete resource "daemonsets" in API group "apps" in the namespace "kube-system"'
    )
    expect(ds.body.details).toEqual({ name: 'x', group: 'apps', kind: 'daemonsets' })
    // Reads work.
    expect((await user.makeApiClient(CoreV1Api).listNode()).items.length).toBeGreaterThan(0)
  })

  it('lets the admin impersonate the user, and refuses the user impersonating anyone', async () => {
    const { Agent, fetch } = await import('undici')
    const adminCfg = admin.getCurrentUser()!
    const res = await fetch(`${w.sim.url}/apis/authorization.k8s.io/v1/selfsubjectaccessreviews`, {
      method: 'POST',
      body: JSON.stringify({ spec: { resourceAttributes: { verb: 'list', resource: 'pods' } } }),
      headers: { 'content-type': 'application/json', 'impersonate-user': 'clusterUser' },
      dispatcher: new Agent({
        connect: {
          ca: Buffer.from(admin.getCurrentCluster()!.caData!, 'base64'),
          cert: Buffer.from(adminCfg.certData!, 'base64'),
          key: Buffer.from(adminCfg.keyData!, 'base64')
        }
      })
    })
    // The impersonated user carries only system:authenticated: the scenario's rule allows listing.
    expect(((await res.json()) as any).status).toMatchObject({ allowed: true })
    const refused = await fetch(`${w.sim.url}/api/v1/nodes`, {
      headers: {
        authorization: `Bearer ${user.getCurrentUser()!.token}`,
        'impersonate-user': 'masterclient'
      },
      dispatcher: new Agent({ connect: { ca: Buffer.from(user.getCurrentCluster()!.caData!, 'base64') } })
    })
    expect(refused.status).toBe(403)
    expect(((await refused.json()) as any).message).toBe(
      'users "masterclient" is forbidden: User "clusterUser" cannot impersonate resource "users" in API group "" at the cluster scope'
    )
  })

  it('makes the action fail at its first write, the step naming the missing permission', async () => {
    const kubeconfigPath = `${w.kubeconfigPath}-user`
    writeFileSync(kubeconfigPath, w.sim.kubeconfig('user'), { mode: 0o600 })
    const log = collectLog()
    const res = await applyStack({ settings: w.settings(), kubeconfigPath, log })
    expect(res.ok).toBe(false)
    const failed = res.steps.find(s => s.status === 'failure')
    // The first write records the run's pool in the ownership record, under the Lease it takes first.
    expect(failed?.name).toBe('pools')
    expect(failed?.detail).toMatch(
      /HTTP 403: [a-z.]+ is forbidden: User "clusterUser" cannot create resource "(leases|configmaps)" in API group "[a-z.]*" in the namespace "kube-system"/
    )
    expect(failed?.detail).toMatch(
      /missing Kubernetes permission: clusterUser may not create (leases|configmaps)/
    )
    expect(failed?.detail).not.toMatch(/Headers|Body:/)
    expect(log.errors.join('\n')).toMatch(/User "clusterUser" cannot create resource "(leases|configmaps)"/)
    // Nothing else was written: every component is left not run.
    expect(res.steps.filter(s => s.status === 'skipped').length).toBe(6)
  })
})
