// Built-in APIs beyond the core set, through the real kubectl against a whole simulated world:
// PodDisruptionBudgets (status from the disruption controller; eviction refused with 429 while
// the budget allows no disruption), `kubectl create token` and a TokenReview of its token,
// `kubectl debug` (the ephemeralcontainers subresource), the kinds served without a controller,
// and what kube-apiserver's admission and pod update validation refuse. Skipped, with a notice,
// when there is no kubectl.
import { describe, expect, it, jest } from '@jest/globals'
import type { World } from '../../../sim/world.js'
import { findKubectl, kubectlRunner } from '../../support/kubectl-runner.js'
import { scratchWorldForTests } from '../../support/scratch-world.js'

jest.setTimeout(180_000)

const KUBECTL = findKubectl()
if (!KUBECTL) console.warn('kubectl is not on PATH: the built-in APIs kubectl suite is skipped')
const suite = KUBECTL ? describe : describe.skip
const suiteName = KUBECTL
  ? `built-in APIs through kubectl (${KUBECTL})`
  : 'built-in APIs through kubectl: SKIPPED, kubectl is not on PATH (or set KUBECTL)'

let world: World
let dir: string

const { kubectl, kubectlAs, ok, file } = kubectlRunner(KUBECTL ?? 'kubectl', () => dir, 'admin')

async function until(cond: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const end = Date.now() + ms
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not met in time')
    await new Promise(r => setTimeout(r, 100))
  }
}

const json = async (...args: string[]) => JSON.parse(await ok(...args, '-o', 'json'))

suite(suiteName, () => {
  scratchWorldForTests('sim-kubectl-builtins-', async (started, scratch) => {
    world = started
    dir = scratch
    await ok('create', 'namespace', 'apps')
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
    expect(reviewed.status.audiences).toEqual(['https://kubernetes.default.svc.cluster.local'])
    // A token for another audience is no token for the API server, but reviews as one for its own.
    const vault = (await ok('create', 'token', 'default', '-n', 'apps', '--audience=vault')).trim()
    const forVault = (audiences?: string[]) =>
      file(
        'review-vault.json',
        JSON.stringify({
          apiVersion: 'authentication.k8s.io/v1',
          kind: 'TokenReview',
          spec: { token: vault, ...(audiences ? { audiences } : {}) }
        })
      )
    expect(
      JSON.parse(await ok('create', '-f', forVault(), '-o', 'json')).status.authenticated
    ).toBeUndefined()
    const asVault = JSON.parse(await ok('create', '-f', forVault(['vault']), '-o', 'json')).status
    expect(asVault).toMatchObject({ authenticated: true, audiences: ['vault'] })
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

  it('gives a new namespace its default ServiceAccount and kube-root-ca.crt', async () => {
    await ok('create', 'namespace', 'fresh')
    await until(async () => (await kubectl('get', 'serviceaccount', 'default', '-n', 'fresh')).code === 0)
    await until(async () => (await kubectl('get', 'configmap', 'kube-root-ca.crt', '-n', 'fresh')).code === 0)
    const ca = await ok(
      'get',
      'configmap',
      'kube-root-ca.crt',
      '-n',
      'fresh',
      '-o',
      'jsonpath={.data.ca\\.crt}'
    )
    expect(ca).toContain('-----BEGIN CERTIFICATE-----')
    // Deleted, it comes back.
    await ok('delete', 'serviceaccount', 'default', '-n', 'fresh')
    await until(async () => (await kubectl('get', 'serviceaccount', 'default', '-n', 'fresh')).code === 0)
  })

  it('runs a StatefulSet as ordered pods with their names, index and hostname', async () => {
    const sts = file(
      'sts.yaml',
      [
        'apiVersion: apps/v1',
        'kind: StatefulSet',
        'metadata: {name: db, namespace: apps}',
        'spec:',
        '  serviceName: db',
        '  replicas: 3',
        '  selector: {matchLabels: {app: db}}',
        '  template:',
        '    metadata: {labels: {app: db}}',
        '    spec: {containers: [{name: db, image: "busybox:1.36"}]}'
      ].join('\n')
    )
    await ok('apply', '-f', sts)
    await ok('rollout', 'status', 'statefulset/db', '-n', 'apps', '--timeout=60s')
    const pods = await json('get', 'pods', '-n', 'apps', '-l', 'app=db')
    const byName = Object.fromEntries(pods.items.map((p: any) => [p.metadata.name, p]))
    expect(Object.keys(byName).sort()).toEqual(['db-0', 'db-1', 'db-2'])
    expect(byName['db-1'].metadata.labels['apps.kubernetes.io/pod-index']).toBe('1')
    expect(byName['db-1'].spec).toMatchObject({ hostname: 'db-1', subdomain: 'db' })
    // OrderedReady: each pod started after the one before it was Ready.
    const readyAt = (p: any) => p.status.conditions.find((c: any) => c.type === 'Ready').lastTransitionTime
    expect(Date.parse(byName['db-1'].metadata.creationTimestamp)).toBeGreaterThanOrEqual(
      Date.parse(readyAt(byName['db-0']))
    )
    await ok('scale', 'statefulset', 'db', '-n', 'apps', '--replicas=1')
    await until(async () => (await json('get', 'pods', '-n', 'apps', '-l', 'app=db')).items.length === 1)
    expect(await ok('get', 'pods', '-n', 'apps', '-l', 'app=db', '-o', 'name')).toBe('pod/db-0\n')
  })

  it('gives a Service with a selector its Endpoints and EndpointSlice, and a NodePort its port', async () => {
    await ok(
      'create',
      'deployment',
      'api',
      '-n',
      'apps',
      '--image=busybox:1.36',
      '--replicas=2',
      '--port=8080'
    )
    await ok('rollout', 'status', 'deployment/api', '-n', 'apps', '--timeout=60s')
    await ok(
      'expose',
      'deployment',
      'api',
      '-n',
      'apps',
      '--port=80',
      '--target-port=8080',
      '--type=NodePort'
    )
    const ips = (await json('get', 'pods', '-n', 'apps', '-l', 'app=api')).items
      .map((p: any) => p.status.podIP)
      .sort()
    await until(async () => {
      const ep = await json('get', 'endpoints', 'api', '-n', 'apps')
      return (ep.subsets?.[0]?.addresses ?? []).length === 2
    })
    const ep = await json('get', 'endpoints', 'api', '-n', 'apps')
    expect(ep.subsets[0].addresses.map((a: any) => a.ip).sort()).toEqual(ips)
    expect(ep.subsets[0].ports).toEqual([{ port: 8080, protocol: 'TCP' }])
    const slices = await json('get', 'endpointslices', '-n', 'apps', '-l', 'kubernetes.io/service-name=api')
    expect(slices.items).toHaveLength(1)
    expect(slices.items[0].endpoints.map((e: any) => e.addresses[0]).sort()).toEqual(ips)
    expect(slices.items[0].endpoints.every((e: any) => e.conditions.ready)).toBe(true)
    const svc = await json('get', 'service', 'api', '-n', 'apps')
    expect(svc.spec.ports[0].nodePort).toBeGreaterThanOrEqual(30000)
    expect(svc.spec.ports[0].nodePort).toBeLessThanOrEqual(32767)
    const clash = await kubectl(
      'create',
      'service',
      'nodeport',
      'clash',
      '-n',
      'apps',
      '--tcp=81',
      `--node-port=${svc.spec.ports[0].nodePort}`
    )
    expect(clash.stderr).toContain('provided port is already allocated')
    const badName = await kubectl('create', 'service', 'clusterip', '1api', '-n', 'apps', '--tcp=80')
    expect(badName.stderr).toContain('a DNS-1035 label must consist of lower case alphanumeric characters')
  })

  it('leaves a paused Deployment on its ReplicaSet until it is resumed', async () => {
    await ok('rollout', 'pause', 'deployment/api', '-n', 'apps')
    await ok('set', 'image', 'deployment/api', '-n', 'apps', 'busybox=busybox:1.37')
    await until(async () => {
      const d = await json('get', 'deployment', 'api', '-n', 'apps')
      return d.status.observedGeneration === d.metadata.generation
    })
    const d = await json('get', 'deployment', 'api', '-n', 'apps')
    expect(d.status.conditions.find((c: any) => c.type === 'Progressing')).toMatchObject({
      reason: 'DeploymentPaused'
    })
    expect((await json('get', 'replicasets', '-n', 'apps', '-l', 'app=api')).items).toHaveLength(1)
    await ok('rollout', 'resume', 'deployment/api', '-n', 'apps')
    await ok('rollout', 'status', 'deployment/api', '-n', 'apps', '--timeout=60s')
    expect((await json('get', 'replicasets', '-n', 'apps', '-l', 'app=api')).items).toHaveLength(2)
  })

  it('keeps the QoS class set at admission, and taints a cordoned node', async () => {
    const pod = file(
      'guaranteed.yaml',
      [
        'apiVersion: v1',
        'kind: Pod',
        'metadata: {name: steady, namespace: apps}',
        'spec:',
        '  containers:',
        '  - name: c',
        '    image: busybox:1.36',
        '    resources: {limits: {cpu: 100m, memory: 64Mi}}'
      ].join('\n')
    )
    await ok('apply', '-f', pod)
    await ok('wait', '--for=condition=Ready', 'pod/steady', '-n', 'apps', '--timeout=60s')
    expect(await ok('get', 'pod', 'steady', '-n', 'apps', '-o', 'jsonpath={.status.qosClass}')).toBe(
      'Guaranteed'
    )
    const node = (await ok('get', 'nodes', '-o', 'jsonpath={.items[0].metadata.name}')).trim()
    await ok('cordon', node)
    const taintKeys = async () =>
      (await json('get', 'node', node)).spec.taints?.map((t: any) => `${t.key}:${t.effect}`) ?? []
    await until(async () => (await taintKeys()).includes('node.kubernetes.io/unschedulable:NoSchedule'))
    await ok('uncordon', node)
    await until(async () => !(await taintKeys()).includes('node.kubernetes.io/unschedulable:NoSchedule'))
  })

  it('refuses what admission and pod update validation refuse', async () => {
    // Only the mutable fields of a pod change: an image may, the restart policy may not.
    await ok('set', 'image', 'pod/steady', '-n', 'apps', 'c=busybox:1.37')
    const immutable = await kubectl(
      'patch',
      'pod',
      'steady',
      '-n',
      'apps',
      '-p',
      '{"spec":{"restartPolicy":"Never"}}'
    )
    expect(immutable.code).not.toBe(0)
    expect(immutable.stderr).toContain('spec: Forbidden: pod updates may not change fields other than')
    // A service account the namespace does not have.
    const noAccount = await kubectl(
      'run',
      'orphan',
      '-n',
      'apps',
      '--image=busybox:1.36',
      '--overrides={"spec":{"serviceAccountName":"nope"}}'
    )
    expect(noAccount.stderr).toContain(
      'error looking up service account apps/nope: serviceaccount "nope" not found'
    )
    expect((await kubectl('get', 'pod', 'orphan', '-n', 'apps')).code).not.toBe(0)
    // The namespaces NamespaceLifecycle keeps, even in a dry run.
    for (const ns of ['default', 'kube-system', 'kube-public']) {
      const r = await kubectl('delete', 'namespace', ns, '--dry-run=server')
      expect(r.stderr).toContain(`namespaces "${ns}" is forbidden: this namespace may not be deleted`)
    }
    expect(await ok('get', 'namespace', 'default', '-o', 'jsonpath={.status.phase}')).toBe('Active')
  })

  it('serves the kinds without a controller, with the official schemas', async () => {
    const resources = await ok('api-resources', '-o', 'name')
    for (const r of [
      'poddisruptionbudgets.policy',
      'horizontalpodautoscalers.autoscaling',
      'networkpolicies.networking.k8s.io',
      'ingresses.networking.k8s.io',
      'ingressclasses.networking.k8s.io',
      'storageclasses.storage.k8s.io',
      'csidrivers.storage.k8s.io',
      'endpointslices.discovery.k8s.io',
      'events.events.k8s.io',
      'validatingwebhookconfigurations.admissionregistration.k8s.io',
      'certificatesigningrequests.certificates.k8s.io',
      'flowschemas.flowcontrol.apiserver.k8s.io',
      'cronjobs.batch',
      'resourcequotas',
      'limitranges',
      'persistentvolumes',
      'replicationcontrollers'
    ])
      expect(resources.split('\n')).toContain(r)
    await ok('autoscale', 'deployment', 'api', '-n', 'apps', '--min=1', '--max=3', '--cpu-percent=80')
    expect(await ok('get', 'hpa', 'api', '-n', 'apps', '-o', 'jsonpath={.spec.maxReplicas}')).toBe('3')
    const netpol = file(
      'netpol.yaml',
      'apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: deny, namespace: apps}\nspec: {podSelector: {}, bogus: 1}\n'
    )
    const strict = await kubectl('apply', '-f', netpol, '--validate=strict')
    expect(strict.stderr).toContain('unknown field "spec.bogus"')
    expect(await ok('explain', 'networkpolicy.spec.podSelector')).toContain('matchLabels')
  })

  it('starts the Jobs of a CronJob on its schedule and keeps their history', async () => {
    await ok(
      'create',
      'cronjob',
      'tick',
      '-n',
      'apps',
      '--image=busybox:1.36',
      '--schedule=* * * * *',
      '--',
      'true'
    )
    const badSchedule = file(
      'bad-cron.yaml',
      'apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: bad, namespace: apps}\nspec:\n  schedule: "every minute"\n  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}}}}\n'
    )
    expect((await kubectl('apply', '-f', badSchedule)).stderr).toContain(
      'spec.schedule: Invalid value: "every minute": expected exactly 5 fields, found 2: [every minute]'
    )
    const cj = await json('get', 'cronjob', 'tick', '-n', 'apps')
    expect(cj.spec).toMatchObject({
      concurrencyPolicy: 'Allow',
      successfulJobsHistoryLimit: 3,
      suspend: false
    })
    expect(await ok('get', 'cronjob', 'tick', '-n', 'apps')).toMatch(
      /NAME\s+SCHEDULE\s+TIMEZONE\s+SUSPEND\s+ACTIVE\s+LAST SCHEDULE\s+AGE\ntick\s+\* \* \* \* \*\s+<none>\s+False\s+0\s+<none>\s/
    )
    const ticks = async () =>
      (await json('get', 'jobs', '-n', 'apps')).items.filter((j: any) =>
        (j.metadata.ownerReferences ?? []).some((r: any) => r.kind === 'CronJob' && r.name === 'tick')
      )
    // Schedules are wall-clock minutes: jump the world's clock past each one.
    const seen = new Set<string>()
    for (let round = 1; round <= 5; round++) {
      world.clock.advance(61_000)
      await until(async () => {
        const jobs = await ticks()
        const fresh = jobs.filter((j: any) => !seen.has(j.metadata.name))
        const done = fresh.some((j: any) =>
          (j.status?.conditions ?? []).some((c: any) => c.type === 'Complete')
        )
        if (done) for (const j of fresh) seen.add(j.metadata.name)
        return done
      })
    }
    const job = (await ticks())[0]
    const minutes = Number(job.metadata.name.replace(/^tick-/, ''))
    expect(job.metadata.annotations['batch.kubernetes.io/cronjob-scheduled-timestamp']).toBe(
      new Date(minutes * 60_000).toISOString().replace(/\.\d+Z$/, 'Z')
    )
    // Five Jobs ran; at most three successful ones are kept.
    expect(seen.size).toBeGreaterThanOrEqual(5)
    await until(async () => (await ticks()).length <= 3)
    expect((await json('get', 'cronjob', 'tick', '-n', 'apps')).status.lastSuccessfulTime).toBeDefined()
    // Suspended, it starts no more.
    await ok('patch', 'cronjob', 'tick', '-n', 'apps', '-p', '{"spec":{"suspend":true}}')
    const before = (await ticks()).map((j: any) => j.metadata.name)
    world.clock.advance(61_000)
    await new Promise(r => setTimeout(r, 500))
    expect((await ticks()).map((j: any) => j.metadata.name)).toEqual(before)
  })

  it('defaults and bounds containers by LimitRange and counts pods against a ResourceQuota', async () => {
    await ok('create', 'namespace', 'limited')
    const limits = file(
      'limits.yaml',
      [
        'apiVersion: v1',
        'kind: LimitRange',
        'metadata: {name: box, namespace: limited}',
        'spec:',
        '  limits:',
        '  - type: Container',
        '    default: {cpu: 200m, memory: 128Mi}',
        '    max: {cpu: "1"}'
      ].join('\n')
    )
    await ok('apply', '-f', limits)
    const lr = await json('get', 'limitrange', 'box', '-n', 'limited')
    expect(lr.spec.limits[0].defaultRequest).toEqual({ cpu: '200m', memory: '128Mi' })
    await until(async () => (await kubectl('get', 'serviceaccount', 'default', '-n', 'limited')).code === 0)
    await ok('run', 'small', '-n', 'limited', '--image=busybox:1.36')
    const small = await json('get', 'pod', 'small', '-n', 'limited')
    expect(small.spec.containers[0].resources).toEqual({
      limits: { cpu: '200m', memory: '128Mi' },
      requests: { cpu: '200m', memory: '128Mi' }
    })
    expect(small.metadata.annotations['kubernetes.io/limit-ranger']).toBe(
      'LimitRanger plugin set: cpu, memory request for container small; cpu, memory limit for container small'
    )
    expect(small.status.qosClass).toBe('Guaranteed')
    const big = await kubectl(
      'run',
      'big',
      '-n',
      'limited',
      '--image=busybox:1.36',
      '--overrides={"spec":{"containers":[{"name":"big","image":"busybox:1.36","resources":{"limits":{"cpu":"2"}}}]}}'
    )
    expect(big.stderr).toContain('maximum cpu usage per Container is 1, but limit is 2')

    await ok('create', 'quota', 'two', '-n', 'limited', '--hard=pods=2,requests.cpu=1')
    await until(async () => (await json('get', 'quota', 'two', '-n', 'limited')).status?.used?.pods === '1')
    expect((await json('get', 'quota', 'two', '-n', 'limited')).status.used['requests.cpu']).toBe('200m')
    await ok('run', 'second', '-n', 'limited', '--image=busybox:1.36')
    await until(async () => (await json('get', 'quota', 'two', '-n', 'limited')).status?.used?.pods === '2')
    const third = await kubectl('run', 'third', '-n', 'limited', '--image=busybox:1.36')
    expect(third.stderr).toContain('exceeded quota: two, requested: pods=1, used: pods=2, limited: pods=2')
  })
})
