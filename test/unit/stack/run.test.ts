// One apply of a component as Run does it, against a fake KubeClient over an in-memory cluster and
// helm's commands stubbed on the Helm class: observe and diff reading only, the Lease taken on the
// first write only (and the component observed again once it is), server-side applies with the
// creation mark, stale pods replaced, chart CRDs before a chart upgrade, helm install/upgrade, the
// version change and the driver roll reported; a watch's end as the step's failure, the report's
// action, the watch sources and options, which limit a deadline is, and a failed step's diagnostic.
import { jest } from '@jest/globals'
import type { ComponentSpec, KubeComponent } from '../../../src/components/index.js'
import type { Health, HealthVerdict } from '../../../src/health/types.js'
import type { HelmReleaseStatus } from '../../../src/helm/index.js'
import { KubeClient } from '../../../src/kube/client.js'
import { ApplyConflictError, KindNotServedError, KubeRequestError } from '../../../src/kube/errors.js'
import type { KubeObject, KubeRef } from '../../../src/kube/types.js'
import type { HelmReleaseSpec } from '../../../src/model/types.js'
import type { Settings } from '../../../src/settings/settings.js'
import { ComponentStepFailure, CREATION_MANAGER, Run } from '../../../src/stack/run.js'
import { VersionReadError } from '../../../src/stack/downgrade.js'
import type { StackStep } from '../../../src/stack/types.js'
import { captureLog } from '../../support/capture-log.js'
import { pinnedHelmSettings } from '../../support/stack-unit-settings.js'
import { useHelmStandinOnPath } from '../../support/helm-standin-bin.js'
import { deployedRelease, nvidiaChart, STUB_FIRST_DEPLOYED, stubHelm } from '../../support/helm-stub.js'
import { apiError, MemoryCluster } from '../../support/memory-cluster.js'
import { deleteByRef } from '../../support/memory-kube.js'
import { memoryLeaseApi } from '../../support/memory-lease.js'
import { memoryConfigMapApi, recordedEntries, seedRecord } from '../../support/memory-record.js'

const NAME = 'rdma-device-plugin'
const LEASE = ['coordination.k8s.io/v1', 'Lease'] as const
const ESTABLISHED = { conditions: [{ type: 'Established', status: 'True' }] }

/**
 * A KubeClient over a MemoryCluster as Run and its Lease use it. needsApply: absent → not
 * converged ('absent'), live data/spec differing → not converged ('data differs'), else converged;
 * a name in `conflicts` gets a conflict. applyManifest stores it (a CRD Established at once),
 * `changed` when its content moved; the ownership record's ConfigMap. Writes and checks are
 * recorded in `calls`.
 */
function fakeClient(cluster: MemoryCluster) {
  const calls: string[] = []
  const conflicts = new Set<string>()
  const content = (o: KubeObject | undefined) => JSON.stringify([o?.data, o?.spec])
  const client = {
    request: (_what: string, fn: () => Promise<unknown>) => fn(),
    core: memoryConfigMapApi(cluster, op => calls.push(op)),
    async needsApply(m: KubeObject, o: { force?: boolean }) {
      calls.push(`needs ${m.kind}/${m.metadata.name} force=${o.force}`)
      const live = cluster.get(m.apiVersion, m.kind, m.metadata.name, m.metadata.namespace)
      if (conflicts.has(m.metadata.name))
        return {
          converged: false,
          live,
          confirmedByDryRun: true,
          conflict: new ApplyConflictError(`${m.kind}/${m.metadata.name}`, [], 'conflict with "kubectl"')
        }
      if (!live) return { converged: false, reason: 'absent', live, confirmedByDryRun: false }
      if (content(live) !== content(m))
        return { converged: false, reason: 'data differs', live, confirmedByDryRun: true }
      return { converged: true, live, confirmedByDryRun: false }
    },
    async applyManifest(m: KubeObject, o: { force?: boolean; live?: KubeObject | null }) {
      calls.push(`apply ${m.kind}/${m.metadata.name} force=${o.force} live=${o.live ? 'given' : o.live}`)
      const before = cluster.get(m.apiVersion, m.kind, m.metadata.name, m.metadata.namespace)
      const object =
        before && content(before) === content(m)
          ? before
          : cluster.put({
              ...m,
              metadata: { ...m.metadata, labels: { ...before?.metadata.labels, ...m.metadata.labels } },
              ...(m.kind === 'CustomResourceDefinition' ? { status: ESTABLISHED } : {})
            })
      return { created: !before, changed: object !== before, object }
    },
    async applyLabels(ref: KubeRef, labels: Record<string, string>, manager: string) {
      calls.push(`label ${ref.kind}/${ref.name} ${JSON.stringify(labels)} by ${manager}`)
      const live = cluster.get(ref.apiVersion, ref.kind, ref.name, ref.namespace)!
      cluster.put({ ...live, metadata: { ...live.metadata, labels: { ...live.metadata.labels, ...labels } } })
    },
    async get(ref: KubeRef) {
      if (ref.name === 'not-served') throw new KindNotServedError(ref.apiVersion, ref.kind)
      if (ref.name === 'unreachable') throw new Error('connect ECONNREFUSED')
      return cluster.get(ref.apiVersion, ref.kind, ref.name, ref.namespace)
    },
    async list(apiVersion: string, kind: string, f: { namespace?: string; labelSelector?: string }) {
      return { items: cluster.all(apiVersion, kind, f) }
    },
    async deleteObject(ref: KubeRef, uid?: string) {
      calls.push(`delete ${ref.kind}/${ref.name}`)
      return deleteByRef(cluster, ref, uid)
    },
    watchSource(apiVersion: string, kind: string, f: Record<string, string | undefined>) {
      calls.push(`watch ${apiVersion} ${kind} ${JSON.stringify(f)}`)
      return cluster.source(apiVersion, kind, f)
    },
    coordination: memoryLeaseApi(cluster, { onCall: op => void (op !== 'read' && calls.push(`${op} lease`)) })
      .coordination
  }
  return { client: client as unknown as KubeClient, calls, conflicts }
}

const helmBin = useHelmStandinOnPath()

afterEach(() => jest.restoreAllMocks())

const configMap = (
  name: string,
  data: Record<string, string>,
  labels?: Record<string, string>
): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'kube-system', ...(labels ? { labels } : {}) },
  data
})

const chart = (over: Partial<HelmReleaseSpec> = {}): HelmReleaseSpec =>
  nvidiaChart('network-operator', 'v26.4.1', { nfd: { enabled: true } }, over)

function setup(
  o: { stepTimeoutMs?: number; deadline?: number; nfdGraceMs?: number; force?: boolean; adopt?: boolean } = {}
) {
  const cluster = new MemoryCluster()
  const fake = fakeClient(cluster)
  const fromFile = jest.spyOn(KubeClient, 'fromFile').mockReturnValue(fake.client)
  const settings = pinnedHelmSettings(helmBin, {
    stack: { forceConflicts: o.force ?? false, adoptReleases: o.adopt ?? false },
    stepTimeoutMs: o.stepTimeoutMs
  })
  const log = captureLog()
  const run = new Run(
    {
      settings,
      kubeconfigPath: '/nowhere/kubeconfig',
      log,
      retryBaseDelayMs: 7,
      // No renewals during a test (the Lease stays held while it runs).
      leaseClock: { now: () => Date.now(), every: () => () => undefined },
      ...(o.deadline !== undefined ? { deadline: o.deadline } : {}),
      ...(o.nfdGraceMs !== undefined ? { nfdGraceMs: o.nfdGraceMs } : {})
    },
    settings,
    log
  )
  return { cluster, ...fake, fromFile, settings, log, run }
}

const FIRST_DEPLOYED = STUB_FIRST_DEPLOYED
/** The release network-operator as the record has it when the action installed it. */
const OURS = {
  release: 'network-operator',
  namespace: 'network-operator',
  chart: 'network-operator',
  firstDeployed: FIRST_DEPLOYED
}

/** helm's commands as Run has them run, on an in-memory release network-operator. */
const stubRunHelm = (release?: HelmReleaseStatus, values: Record<string, unknown> = {}) =>
  stubHelm({
    releases: { 'network-operator': release },
    values,
    say: {
      chartCrds: o => `template crds ${o.chart} ${o.version} -n ${o.namespace} ${JSON.stringify(o.values)}`,
      upgradeInstall: o => {
        const { values: v, timeoutMs, ...rest } = o
        return `upgrade --install ${JSON.stringify(rest)} values=${JSON.stringify(v)} timeout=${timeoutMs}`
      }
    }
  })

/** network-operator at `chartVersion` (revision 3), installed by the action as the record says. */
function installedByUs(chartVersion: string) {
  const t = setup()
  const h = stubRunHelm(
    deployedRelease('network-operator', chartVersion, { revision: 3, firstDeployed: FIRST_DEPLOYED }),
    { nfd: { enabled: true } }
  )
  seedRecord(t.cluster, [OURS])
  return { t, h }
}

function step(spec: Partial<ComponentSpec> = {}, component: Partial<KubeComponent> = {}): StackStep {
  return {
    component: { name: NAME, ...component } as KubeComponent,
    spec: { name: NAME, manifests: [], ...spec } as ComponentSpec
  }
}

describe('Run', () => {
  it('is built from the kubeconfig with the retry settings; deadlines and the NFD grace default from the settings', () => {
    const before = Date.now()
    const t = setup()
    expect(t.fromFile).toHaveBeenCalledWith('/nowhere/kubeconfig', {
      retries: 3,
      backoffBaseMs: 7,
      log: t.log
    })
    expect(t.run.deadline).toBeGreaterThanOrEqual(before + 3_600_000)
    expect(t.run.deadline).toBeLessThanOrEqual(Date.now() + 3_600_000)
    expect(t.run.nfdGraceMs).toBe(120_000)
    expect(setup({ stepTimeoutMs: 100_000 }).run.nfdGraceMs).toBe(50_000)
    expect(setup({ stepTimeoutMs: 240_000 }).run.nfdGraceMs).toBe(120_000)
    expect(setup({ stepTimeoutMs: 238_000 }).run.nfdGraceMs).toBe(119_000)
    const given = setup({ deadline: 12345, nfdGraceMs: 7 })
    expect(given.run.deadline).toBe(12345)
    expect(given.run.nfdGraceMs).toBe(7)
    expect(given.run.client).toBe(given.client)
  })

  it('up to date: reads only, takes no Lease, says so', async () => {
    const t = setup({ stepTimeoutMs: 60_000 })
    t.cluster.put(configMap('a', { x: '1' }))
    const started = Date.now() - 10
    const r = await t.run.converge(step({ manifests: [configMap('a', { x: '1' })] }), started)
    expect(r).toEqual({ changed: false, created: false, details: [], stepDeadline: started + 60_000 })
    expect(t.calls).toEqual(['needs ConfigMap/a force=false'])
    expect(t.log.lines).toEqual([`info: ${NAME}: up to date, nothing to change`])
    expect(t.run.leaseReleased).toBe(false)
    expect(t.run.lostLease).toBeUndefined()
  })

  it('the run’s deadline bounds the step when it comes first', async () => {
    const deadline = Date.now() + 1000
    const t = setup({ deadline })
    const r = await t.run.converge(step(), Date.now())
    expect(r.stepDeadline).toBe(deadline)
  })

  it('writes what differs after taking the Lease, marks what it creates, and says what it did', async () => {
    const deadline = Date.now() + 60_000
    const t = setup({ deadline, force: true })
    t.cluster.put(configMap('b', { x: 'old' }))
    t.cluster.put(configMap('c', { x: '1' }))
    const manifests = [configMap('a', { x: '1' }), configMap('b', { x: 'new' }), configMap('c', { x: '1' })]
    const r = await t.run.converge(step({ manifests }), Date.now() - 5)
    expect(r).toEqual({
      changed: true,
      created: true,
      details: ['configmap/a -n kube-system created', 'configmap/b -n kube-system updated (data differs)'],
      // Taken the Lease: the step's time counts from then (here the run's deadline is sooner).
      stepDeadline: deadline
    })
    expect(t.calls).toEqual([
      'needs ConfigMap/a force=true',
      'needs ConfigMap/b force=true',
      'needs ConfigMap/c force=true',
      'create lease',
      'needs ConfigMap/a force=true',
      'needs ConfigMap/b force=true',
      'needs ConfigMap/c force=true',
      // Recorded as pending before the create, completed with its uid after the creation mark.
      'create record',
      'apply ConfigMap/a force=true live=null',
      `label ConfigMap/a {"aks-rdma-action/created-by":"run-1"} by ${CREATION_MANAGER}`,
      'update record',
      'apply ConfigMap/b force=true live=given'
    ])
    const a = t.cluster.get('v1', 'ConfigMap', 'a', 'kube-system')!
    expect(recordedEntries(t.cluster)).toEqual([
      expect.objectContaining({
        kind: 'ConfigMap',
        namespace: 'kube-system',
        name: 'a',
        uid: a.metadata.uid,
        state: 'created',
        runId: 'run-1'
      })
    ])
    expect(CREATION_MANAGER).toBe('aks-rdma-action-created-by')
    expect(t.cluster.get('v1', 'ConfigMap', 'a', 'kube-system')?.metadata.labels).toEqual({
      'aks-rdma-action/created-by': 'run-1'
    })
    // Found there, not created: never marked (uninstall keeps it).
    expect(t.cluster.get('v1', 'ConfigMap', 'b', 'kube-system')?.metadata.labels).toEqual({})
    expect(t.log.lines).toEqual([
      'info: Lease kube-system/aks-rdma-action taken by run run-1',
      `info: ${NAME}: configmap/a -n kube-system created`,
      `info: ${NAME}: configmap/b -n kube-system updated (data differs)`
    ])
    // The Lease is taken once per run.
    t.cluster.put(configMap('c', { x: '2' }))
    const again = await t.run.converge(step({ manifests }), Date.now())
    expect(again.details).toEqual(['configmap/c -n kube-system updated (data differs)'])
    expect(t.calls.filter(c => c === 'create lease')).toHaveLength(1)
    expect(t.calls.filter(c => c.startsWith('needs'))).toHaveLength(9)
    await t.run.releaseLease()
    expect(t.run.leaseReleased).toBe(true)
    expect(t.calls[t.calls.length - 1]).toBe('delete lease')
  })

  it('once it waited for the Lease, the step’s time counts from then', async () => {
    const t = setup({ stepTimeoutMs: 60_000 })
    const started = Date.now() - 100_000
    const before = Date.now()
    const r = await t.run.converge(step({ manifests: [configMap('a', { x: '1' })] }), started)
    expect(r.stepDeadline).toBeGreaterThanOrEqual(before + 60_000)
    expect(r.stepDeadline).toBeLessThanOrEqual(Date.now() + 60_000)
  })

  it('a Lease taken over by another run stops the next write and is remembered as lost', async () => {
    const t = setup()
    await t.run.converge(step({ manifests: [configMap('a', { x: '1' })] }), Date.now())
    const l = t.cluster.get(...LEASE, 'aks-rdma-action', 'kube-system')!
    t.cluster.put({ ...l, spec: { ...l.spec, holderIdentity: 'run-2' } })
    await expect(
      t.run.converge(step({ manifests: [configMap('b', { x: '1' })] }), Date.now())
    ).rejects.toThrow(
      'the Lease kube-system/aks-rdma-action is no longer held by this run (run-1): it is now held by run-2. Stopped before writing configmap/b -n kube-system,'
    )
    await new Promise(r => setImmediate(r))
    expect(t.run.lostLease?.message).toContain('it is now held by run-2. Stopped, so as not to write')
    expect(t.calls.filter(c => c.startsWith('apply'))).toEqual(['apply ConfigMap/a force=false live=null'])
    await t.run.releaseLease()
    expect(t.run.leaseReleased).toBe(false)
    expect(t.calls).not.toContain('delete lease')
  })

  it('an apply that writes nothing says unchanged, with the reason it was checked for', async () => {
    const t = setup()
    t.cluster.put(configMap('a', { x: '1' }))
    // The check says it differs; the apply finds nothing to write (resourceVersion unchanged).
    jest.spyOn(t.client, 'needsApply').mockResolvedValue({
      converged: false,
      reason: 'labels differ',
      live: t.cluster.get('v1', 'ConfigMap', 'a', 'kube-system'),
      confirmedByDryRun: true
    })
    const r = await t.run.converge(step({ manifests: [configMap('a', { x: '1' })] }), Date.now())
    expect(r).toMatchObject({
      changed: true,
      created: false,
      details: ['configmap/a -n kube-system unchanged (labels differ)']
    })
    // Without a reason: the verb alone.
    jest.spyOn(t.client, 'needsApply').mockResolvedValue({
      converged: false,
      live: t.cluster.get('v1', 'ConfigMap', 'a', 'kube-system'),
      confirmedByDryRun: true
    })
    const bare = await t.run.converge(step({ manifests: [configMap('a', { x: '1' })] }), Date.now())
    expect(bare.details).toEqual(['configmap/a -n kube-system unchanged'])
  })

  it('a field conflict fails before any write or Lease', async () => {
    const t = setup()
    t.cluster.put(configMap('a', { x: 'theirs' }))
    t.conflicts.add('a')
    await expect(
      t.run.converge(
        step({ manifests: [configMap('b', { x: '1' }), configMap('a', { x: '1' })] }),
        Date.now()
      )
    ).rejects.toThrow('ConfigMap/a: server-side apply conflict: conflict with "kubectl"')
    expect(t.calls).toEqual(['needs ConfigMap/b force=false', 'needs ConfigMap/a force=false'])
  })

  it('converged by another run while this one took the Lease: nothing written', async () => {
    const t = setup()
    const create = t.client.coordination.createNamespacedLease.bind(t.client.coordination)
    jest.spyOn(t.client.coordination, 'createNamespacedLease').mockImplementation(async a => {
      t.cluster.put(configMap('a', { x: '1' }))
      return create(a)
    })
    const r = await t.run.converge(step({ manifests: [configMap('a', { x: '1' })] }), Date.now())
    expect(r.changed).toBe(false)
    expect(t.calls.filter(c => c.startsWith('apply'))).toEqual([])
    expect(t.log.lines[t.log.lines.length - 1]).toBe(`info: ${NAME}: up to date, nothing to change`)
  })

  it('a version change read from the live manifest, and its operator’s roll when it was installed before', async () => {
    const t = setup()
    t.cluster.put(configMap('a', { version: '1.0' }))
    const rollsDriver = (s: Settings) => `driver pods of ${s.runId}, node by node`
    const version = { value: 'v2.0', field: { kind: 'ConfigMap', path: ['data', 'version'] } }
    const r = await t.run.converge(
      step({ manifests: [configMap('a', { version: 'v2.0' })], version }, { rollsDriver }),
      Date.now()
    )
    expect(r).toMatchObject({
      changed: true,
      created: false,
      version: { from: '1.0', to: 'v2.0' },
      rolling: 'driver pods of run-1, node by node'
    })
    // The same version (a leading v aside): no version change, still a roll of what changed.
    t.cluster.put(configMap('a', { version: '2.0', other: 'x' }))
    const same = await t.run.converge(
      step({ manifests: [configMap('a', { version: 'v2.0' })], version }, { rollsDriver }),
      Date.now()
    )
    expect(same).not.toHaveProperty('version')
    expect(same.rolling).toBe('driver pods of run-1, node by node')
    // Not installed before: created, no from, no roll.
    const fresh = await t.run.converge(
      step({ manifests: [configMap('z', { version: 'v2.0' })], version: { ...version } }, { rollsDriver }),
      Date.now()
    )
    expect(fresh).toEqual({
      changed: true,
      created: true,
      details: ['configmap/z -n kube-system created'],
      stepDeadline: fresh.stepDeadline
    })
    // No rollsDriver: no roll.
    t.cluster.put(configMap('a', { version: '1.0' }))
    const quiet = await t.run.converge(
      step({ manifests: [configMap('a', { version: 'v2.0' })], version }),
      Date.now()
    )
    expect(quiet).not.toHaveProperty('rolling')
    expect(quiet.version).toEqual({ from: '1.0', to: 'v2.0' })
  })

  it('replaces the stale pods of its OnDelete DaemonSet (nothing else to write)', async () => {
    const t = setup()
    const pod = (name: string, image: string): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'kube-system', labels: { app: 'ib' } },
      spec: { nodeName: `node-${name}`, containers: [{ image }] }
    })
    t.cluster.put(pod('p1', 'old'))
    t.cluster.put(pod('p2', 'new'))
    const stalePods = {
      pods: () => ({
        name: 'pods',
        apiVersion: 'v1',
        kind: 'Pod',
        namespace: 'kube-system',
        labelSelector: 'app=ib'
      }),
      current: (p: KubeObject) => p.spec?.containers[0].image === 'new',
      onChange: 'replaced'
    }
    const r = await t.run.converge(step({}, { stalePods }), Date.now())
    expect(r).toMatchObject({
      changed: true,
      created: false,
      details: [
        'pod/p1 -n kube-system on node-p1 deleted (it ran an earlier version; its replacement runs the current one)'
      ]
    })
    expect(t.calls).toEqual(['create lease', 'delete Pod/p1'])
    // None stale: up to date.
    const none = await t.run.converge(step({}, { stalePods }), Date.now())
    expect(none.changed).toBe(false)
  })

  it('installs a chart that is not there: repo added, upgrade --install with the step’s time left', async () => {
    // Less than a second left before the run's deadline: helm still gets one.
    const t = setup({ deadline: Date.now() + 300 })
    const h = stubRunHelm(undefined)
    const r = await t.run.converge(step({ helm: chart() }), Date.now())
    expect(r).toMatchObject({
      changed: true,
      created: true,
      details: ['helm install network-operator v26.4.1 (not installed)']
    })
    expect(h.calls).toEqual([
      'status network-operator -n network-operator',
      'status network-operator -n network-operator',
      'repo add nvidia https://helm.ngc.nvidia.com/nvidia',
      'status network-operator -n network-operator',
      'upgrade --install {"release":"network-operator","chart":"nvidia/network-operator","version":"v26.4.1","namespace":"network-operator","createNamespace":true,"wait":true} values={"nfd":{"enabled":true}} timeout=1000'
    ])
    expect(t.log.lines).toContain(
      'info: helm upgrade --install network-operator nvidia/network-operator --version v26.4.1 -n network-operator --wait'
    )
    expect(t.log.lines).toContain(
      'info: helm: network-operator revision 1 deployed (chart network-operator v26.4.1)'
    )
    // Recorded as pending before the install, then with its first deployment.
    expect(t.calls).toEqual(['create lease', 'create record', 'update record'])
    expect(recordedEntries(t.cluster)).toEqual([
      expect.objectContaining({
        kind: 'HelmRelease',
        namespace: 'network-operator',
        name: 'network-operator',
        chart: 'network-operator',
        firstDeployed: FIRST_DEPLOYED,
        state: 'created'
      })
    ])
    // One helm for the run: the binary on PATH (its pinned hash checked), on the run's kubeconfig.
    expect(new Set(h.opts).size).toBe(1)
    expect(h.opts[0]).toEqual({ helmPath: helmBin.helmPath, kubeconfig: '/nowhere/kubeconfig' })
    expect(t.log.lines[0]).toMatch(/^info: Using helm v3\.19\.0 from PATH \(/)
  })

  it('a release as desired is up to date; values read only when it is there', async () => {
    const { t, h } = installedByUs('26.4.1')
    const r = await t.run.converge(step({ helm: chart(), version: { value: 'v26.4.1' } }), Date.now())
    expect(r.changed).toBe(false)
    expect(h.calls).toEqual([
      'status network-operator -n network-operator',
      'get values network-operator -n network-operator'
    ])
  })

  it('a chart upgrade applies the new version’s differing CRDs first, then upgrades; the version moves', async () => {
    const { t, h } = installedByUs('v26.1.0')
    const crd = (name: string, v: string) => ({
      kind: 'CustomResourceDefinition',
      metadata: { name },
      spec: { versions: [{ name: v }] }
    })
    t.cluster.put({ apiVersion: 'apiextensions.k8s.io/v1', ...crd('same.mellanox.com', 'v1') })
    h.crds.push(crd('same.mellanox.com', 'v1'), crd('new.mellanox.com', 'v1'))
    const r = await t.run.converge(
      step({ helm: chart(), version: { value: 'v26.4.1' } }, { rollsDriver: () => 'the OFED driver' }),
      Date.now()
    )
    expect(r).toMatchObject({
      changed: true,
      created: false,
      details: [
        'customresourcedefinition/new.mellanox.com created (new in this chart version)',
        'helm upgrade network-operator v26.4.1 (chart v26.1.0 → v26.4.1)'
      ],
      version: { from: 'v26.1.0', to: 'v26.4.1' },
      rolling: 'the OFED driver'
    })
    // The repository is added once for both.
    expect(h.calls.filter(c => c.startsWith('repo add'))).toHaveLength(1)
    expect(h.calls.filter(c => c.startsWith('template crds'))).toEqual([
      'template crds nvidia/network-operator v26.4.1 -n network-operator {"nfd":{"enabled":true}}',
      'template crds nvidia/network-operator v26.4.1 -n network-operator {"nfd":{"enabled":true}}'
    ])
    expect(t.calls).toEqual([
      'needs CustomResourceDefinition/same.mellanox.com force=true',
      'needs CustomResourceDefinition/new.mellanox.com force=true',
      'create lease',
      'needs CustomResourceDefinition/same.mellanox.com force=true',
      'needs CustomResourceDefinition/new.mellanox.com force=true',
      'apply CustomResourceDefinition/new.mellanox.com force=true live=null'
    ])
  })

  it('an object another writer made between the read and the create is not the action’s: no mark, no entry', async () => {
    const t = setup()
    jest.spyOn(t.client, 'applyManifest').mockImplementation(async m => ({
      created: true,
      changed: true,
      object: {
        ...m,
        metadata: {
          ...m.metadata,
          uid: 'u-theirs',
          managedFields: [{ manager: 'kubectl-client-side-apply' }, { manager: 'aks-rdma-action' }]
        }
      }
    }))
    const r = await t.run.converge(step({ manifests: [configMap('a', { x: '1' })] }), Date.now())
    expect(r.details).toEqual(['configmap/a -n kube-system updated'])
    expect(r.created).toBe(false)
    // The pending entry written before the create is dropped (the emptied record with it); nothing labelled.
    expect(t.calls.filter(c => c.startsWith('label') || c.endsWith('record'))).toEqual([
      'create record',
      'delete record'
    ])
    expect(recordedEntries(t.cluster)).toBeUndefined()
  })

  it('completes the pending entries a stopped run left, when the live object or release proves them', async () => {
    const t = setup()
    stubRunHelm(deployedRelease('network-operator', 'v26.4.1', { firstDeployed: '2026-12-07T05:00:01.5Z' }), {
      nfd: { enabled: true }
    })
    const a = t.cluster.put(configMap('a', { x: '1' }, { 'aks-rdma-action/created-by': 'run-0' }))
    const pending = (o: Record<string, string>) => ({
      runId: 'run-0',
      at: '2026-12-07T05:00:00.000Z',
      state: 'pending',
      ...o
    })
    t.cluster.put({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'aks-rdma-action-owned', namespace: 'kube-system' },
      data: {
        'owned.json': JSON.stringify([
          pending({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'kube-system', name: 'a' }),
          pending({
            apiVersion: 'helm.sh/v3',
            kind: 'HelmRelease',
            namespace: 'network-operator',
            name: 'network-operator',
            chart: 'network-operator'
          })
        ])
      }
    })
    const r = await t.run.converge(
      step({ manifests: [configMap('a', { x: '1' })], helm: chart(), version: { value: 'v26.4.1' } }),
      Date.now()
    )
    expect(r.details).toEqual([
      'configmap/a -n kube-system: pending ownership entry completed',
      'helmrelease/network-operator -n network-operator: pending ownership entry completed'
    ])
    expect(
      recordedEntries(t.cluster)?.map(e => [e.name, e.state, e.runId, e.uid ?? e.firstDeployed])
    ).toEqual([
      ['a', 'created', 'run-0', a.metadata.uid],
      ['network-operator', 'created', 'run-0', '2026-12-07T05:00:01.5Z']
    ])
  })

  it('a same-named release of another chart: refused before any write, naming it', async () => {
    const t = setup()
    const h = stubRunHelm(deployedRelease('gpu-operator', 'v26.7.0', { revision: 4 }))
    await expect(t.run.converge(step({ helm: chart() }), Date.now())).rejects.toThrow(
      'helm release network-operator -n network-operator runs chart gpu-operator v26.7.0, not network-operator'
    )
    expect(h.calls.filter(c => !c.startsWith('status') && !c.startsWith('get values'))).toEqual([])
    expect(t.calls).toEqual([])
  })

  it('a same-chart release the action did not install: refused naming adopt-releases, or adopted with it', async () => {
    const hand = deployedRelease('network-operator', 'v26.4.1', { firstDeployed: '2026-11-30T08:00:00Z' })
    const refused = setup()
    stubRunHelm(hand, { nfd: { enabled: true } })
    // Recorded for another first deployment: installed again by hand since.
    seedRecord(refused.cluster, [OURS])
    await expect(refused.run.converge(step({ helm: chart() }), Date.now())).rejects.toThrow(
      /helm release network-operator -n network-operator \(chart network-operator v26\.4\.1\) was not installed by the action \(first deployed 2026-11-30T08:00:00Z, not at the recorded .*\); it is left untouched: set adopt-releases: true/
    )
    expect(refused.calls).toEqual([])
    jest.restoreAllMocks()

    const t = setup({ adopt: true })
    const h = stubRunHelm(hand, { nfd: { enabled: true } })
    const r = await t.run.converge(step({ helm: chart(), version: { value: 'v26.4.1' } }), Date.now())
    expect(r).toMatchObject({
      changed: true,
      created: false,
      details: [
        'helm release network-operator -n network-operator (chart network-operator v26.4.1, first deployed 2026-11-30T08:00:00Z) adopted: installed by hand, taken over as adopt-releases asks'
      ]
    })
    // Converged otherwise: recorded, not upgraded.
    expect(h.calls.some(c => c.startsWith('upgrade'))).toBe(false)
    expect(t.calls).toEqual(['create lease', 'create record'])
    expect(recordedEntries(t.cluster)).toEqual([
      expect.objectContaining({
        name: 'network-operator',
        state: 'adopted',
        firstDeployed: '2026-11-30T08:00:00Z'
      })
    ])
    expect(t.log.lines).toContain(
      `warning: ${NAME}: helm release network-operator -n network-operator (chart network-operator v26.4.1, first deployed 2026-11-30T08:00:00Z) adopted: installed by hand, taken over as adopt-releases asks`
    )
  })

  it('a namespace it did not create keeps its labels: not applied, the missing label named with its command', async () => {
    const t = setup()
    const ns = (labels: Record<string, string>): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'gpu-operator', labels }
    })
    t.cluster.put(ns({ team: 'ml', 'aks-rdma-action/created-by': 'run-0' }))
    const want = ns({ 'pod-security.kubernetes.io/enforce': 'privileged' })
    const r = await t.run.converge(step({ manifests: [want] }), Date.now())
    expect(r).toMatchObject({
      changed: false,
      details: [
        'unchanged',
        'namespace gpu-operator was not created by the action: its labels are left alone; the operators need pod-security.kubernetes.io/enforce=privileged (kubectl label namespace gpu-operator pod-security.kubernetes.io/enforce=privileged)'
      ]
    })
    expect(t.calls).toEqual([])
    expect(t.cluster.get('v1', 'Namespace', 'gpu-operator')?.metadata.labels).toEqual({
      team: 'ml',
      'aks-rdma-action/created-by': 'run-0'
    })
    // One the action created (recorded with its uid) is applied as any object.
    const u = setup()
    seedRecord(u.cluster, [u.cluster.put(ns({}))])
    const ours = await u.run.converge(step({ manifests: [want] }), Date.now())
    expect(ours.details).toEqual([])
    expect(u.calls).toEqual(['needs Namespace/gpu-operator force=false'])
  })

  it('watches its health sources (and the pool’s nodes for a per-node one)', () => {
    const t = setup()
    const health = {
      summary: 's',
      sources: {
        pods: {
          name: 'pods',
          apiVersion: 'v1',
          kind: 'Pod',
          namespace: 'kube-system',
          labelSelector: 'app=x'
        },
        policy: { name: 'policy', apiVersion: 'mellanox.com/v1alpha1', kind: 'NicClusterPolicy' }
      },
      cluster: [],
      warnings: []
    } as unknown as Health
    const sources = t.run.watchSources(health)
    expect(Object.keys(sources)).toEqual(['pods', 'policy'])
    expect(t.calls).toEqual([
      'watch v1 Pod {"namespace":"kube-system","labelSelector":"app=x","name":"pods"}',
      'watch mellanox.com/v1alpha1 NicClusterPolicy {"name":"policy"}'
    ])
    const perNode = t.run.watchSources({ ...health, perNode: { progress: 'p', rules: [] } } as Health)
    expect(Object.keys(perNode)).toEqual(['nodes', 'pods', 'policy'])
    expect(t.calls[2]).toMatch(/^watch v1 Node \{"labelSelector":".+","name":"nodes"\}$/)
  })

  it('the wait’s options: its time, progress keyed by the step with the time taken, notices', () => {
    const t = setup()
    const progress: string[] = []
    t.log.progress = (key, m) => progress.push(`${key}|${m}`)
    const o = t.run.waitOptions(step(), Date.now() - 3000, 42)
    expect(o.timeoutMs).toBe(42)
    o.onChange({ done: false, message: '1/2 ready' } as HealthVerdict)
    o.onNotice('watch restarted')
    expect(progress).toEqual([`${NAME}|${NAME}: 1/2 ready (3s)`])
    expect(t.log.lines).toEqual([`info: ${NAME}: watch restarted`])
  })

  it('names the limit a deadline is: the run’s timeout at or after the run’s deadline, else the step’s', () => {
    const t = setup({ deadline: 10_000, stepTimeoutMs: 90_000 })
    expect(t.run.limitOf(10_000)).toBe('the run timeout')
    expect(t.run.limitOf(10_001)).toBe('the run timeout')
    expect(t.run.limitOf(9_999)).toBe('step-timeout 1m30s')
  })

  describe('diagnose', () => {
    const spec = () =>
      ({
        name: NAME,
        title: 'RDMA shared device plugin',
        readiness: { summary: 'plugin Ready on every RDMA node', conditions: ['allocatable'] }
      }) as unknown as ComponentSpec

    it('a step failure: its message as the reason, its verdict and pods in the diagnostic, logged', async () => {
      const t = setup()
      const f = new ComponentStepFailure(
        'not ready after 5s (the run timeout): 1/2',
        {
          done: false,
          message: '1/2',
          nodes: [{ node: 'n1', ready: false, detail: 'no plugin pod' }]
        } as HealthVerdict,
        {
          pods: [
            {
              apiVersion: 'v1',
              kind: 'Pod',
              metadata: { name: 'dp-1', namespace: 'kube-system' },
              spec: { nodeName: 'n1', containers: [] },
              status: { phase: 'Pending' }
            }
          ]
        }
      )
      const d = await t.run.diagnose({ component: {} as KubeComponent, spec: spec() }, f)
      expect(d.reason).toBe('not ready after 5s (the run timeout): 1/2')
      expect(d.diagnostic.title).toBe(`${NAME}: not ready after 5s (the run timeout): 1/2`)
      expect(d.diagnostic.text).toContain('Step: rdma-device-plugin (RDMA shared device plugin)')
      expect(d.diagnostic.text).toContain('n1: no plugin pod')
      expect(d.diagnostic.text).toContain('kube-system/dp-1 on n1: phase Pending')
      expect(t.log.lines[0]).toBe(`error: ${d.diagnostic.title}`)
      expect(t.log.lines[1]).toBe(`info: ${d.diagnostic.text}`)
    })

    it('the action’s own errors keep their message; another error its server message', async () => {
      const t = setup()
      const req = new KubeRequestError('get x', 500, 'etcd down')
      expect((await t.run.diagnose({ component: {} as KubeComponent, spec: spec() }, req)).reason).toBe(
        'get x: HTTP 500: etcd down'
      )
      const conflict = new ApplyConflictError('configmap/a', [], 'owned by kubectl')
      expect((await t.run.diagnose({ component: {} as KubeComponent, spec: spec() }, conflict)).reason).toBe(
        conflict.message
      )
      const api = apiError(403, 'Forbidden', 'configmaps is forbidden')
      expect((await t.run.diagnose({ component: {} as KubeComponent, spec: spec() }, api)).reason).toBe(
        'configmaps is forbidden'
      )
    })

    it('diagnostics that cannot be built: the reason with why they are incomplete', async () => {
      const t = setup()
      const d = await t.run.diagnose(
        { component: {} as KubeComponent, spec: { name: NAME } as ComponentSpec },
        new Error('boom')
      )
      expect(d.reason).toBe('boom')
      expect(d.diagnostic).toEqual({
        step: NAME,
        title: `${NAME}: boom`,
        text: expect.stringMatching(/^boom\n\(diagnostics incomplete: .+\)$/)
      })
      expect(t.log.lines).toEqual([`error: ${NAME}: boom`, `info: ${d.diagnostic.text}`])
    })
  })
})

describe('Run.downgrades', () => {
  const released = (chartVersion: string): HelmReleaseStatus =>
    deployedRelease('network-operator', chartVersion, { revision: 2 })
  const helmStep = (version = 'v26.4.1', enabled = true) =>
    step({ enabled, helm: chart({ version }), version: { value: version } })
  const policy = (name: string, driver?: string): KubeObject => ({
    apiVersion: 'mellanox.com/v1alpha1',
    kind: 'NicClusterPolicy',
    metadata: { name },
    spec: driver ? { ofedDriver: { version: driver } } : {}
  })
  const fieldStep = (name: string, value: string) =>
    step({
      name: 'nic-cluster-policy',
      enabled: true,
      manifests: [policy(name, value)],
      version: { value, field: { kind: 'NicClusterPolicy', path: ['spec', 'ofedDriver', 'version'] } }
    })

  it('a release installed at a newer chart version, named with both versions; none otherwise', async () => {
    const t = setup()
    stubRunHelm(released('v26.7.0'))
    expect(await t.run.downgrades([helmStep()])).toEqual([
      { component: NAME, what: 'chart nvidia/network-operator', live: 'v26.7.0', desired: 'v26.4.1' }
    ])
    expect(
      await t.run.downgrades([helmStep('v26.7.0'), helmStep('v27.0.0'), helmStep('v26.4.1', false)])
    ).toEqual([])
    jest.restoreAllMocks()
    const u = setup()
    stubRunHelm(undefined)
    expect(await u.run.downgrades([helmStep()])).toEqual([])
    // Reading only.
    expect(u.calls.filter(c => !c.startsWith('get '))).toEqual([])
  })

  it('a manifest field (the DOCA driver): newer live is a downgrade; absent, not served or older is not', async () => {
    const t = setup()
    stubRunHelm(undefined)
    t.cluster.put(policy('live', 'doca3.4.1-26.04-1.1.0.0-1'))
    expect(await t.run.downgrades([fieldStep('live', 'doca3.3.0-26.01-1.0.0.0-0')])).toEqual([
      {
        component: 'nic-cluster-policy',
        what: 'NicClusterPolicy spec.ofedDriver.version',
        live: 'doca3.4.1-26.04-1.1.0.0-1',
        desired: 'doca3.3.0-26.01-1.0.0.0-0'
      }
    ])
    expect(await t.run.downgrades([fieldStep('live', 'doca3.5.0-26.07-1.0.0.0-0')])).toEqual([])
    expect(await t.run.downgrades([fieldStep('absent', 'doca3.3.0-26.01-1.0.0.0-0')])).toEqual([])
    expect(await t.run.downgrades([fieldStep('not-served', 'doca3.3.0-26.01-1.0.0.0-0')])).toEqual([])
    t.cluster.put(policy('other-form', '25.10-1.2.8.0-2'))
    expect(await t.run.downgrades([fieldStep('other-form', 'doca3.3.0-26.01-1.0.0.0-0')])).toEqual([])
  })

  it('a version it cannot read is the component’s VersionReadError', async () => {
    const t = setup()
    stubRunHelm(undefined)
    const e = await t.run.downgrades([fieldStep('unreachable', 'doca3.3.0-26.01-1.0.0.0-0')]).catch(x => x)
    expect(e).toBeInstanceOf(VersionReadError)
    expect(e.component).toBe('nic-cluster-policy')
    expect(e.message).toBe(
      'could not read the installed version (read before any write, to refuse a downgrade): connect ECONNREFUSED'
    )
  })
})
