// uninstallStack against an in-memory cluster (a fake KubeClient over MemoryCluster) and helm's
// release commands stubbed on the Helm class: the reverse walk of the stack, nothing taken (no
// Lease) when nothing is there, each delete watched until the object is gone, the release
// uninstalled and what its operator ran waited for, what is not the action's kept and said so (the
// ownership record decides, never a label; adopt-releases takes a same-chart release), a
// failed part stopping the rest, a deletion that never ends timing out, and a lost Lease failing.
import { jest } from '@jest/globals'
import { Helm, type HelmReleaseStatus } from '../../../src/helm/index.js'
import { KubeClient } from '../../../src/kube/client.js'
import type { KubeObject, KubeRef } from '../../../src/kube/types.js'
import type { Settings } from '../../../src/settings/settings.js'
import { uninstallStack } from '../../../src/stack/uninstall.js'
import { captureLog } from '../../support/capture-log.js'
import { pinnedHelmSettings } from '../../support/stack-unit-settings.js'
import { clusterStack } from '../../support/components.js'
import { useHelmStandinOnPath } from '../../support/helm-standin-bin.js'
import { deployedRelease, STUB_FIRST_DEPLOYED, stubHelm } from '../../support/helm-stub.js'
import { apiError, MemoryCluster } from '../../support/memory-cluster.js'
import { deleteByRef } from '../../support/memory-kube.js'
import { memoryLeaseApi } from '../../support/memory-lease.js'
import { memoryConfigMapApi, recordedEntries, seedRecord } from '../../support/memory-record.js'
import { uninstallPlan } from '../../../src/components/removal.js'
import { OWNERSHIP_RECORD } from '../../../src/stack/ownership.js'

const CREATED = { 'aks-rdma-action/created-by': 'run-1' }
/** uninstall's parts in order: the probe's leftovers, then the cluster stack in reverse. */
const steps = (): string[] => ['probe-leftovers', ...clusterStack().reverse()]
const GPU_NOTE =
  'the operands are owned by the ClusterPolicy the release removes; each driver pod tries to unload the GPU driver as it stops, and a module still in use ("driver is in use") stays loaded until the node reboots'

/**
 * A KubeClient over a MemoryCluster, as uninstall and the Lease use it: get (404 → undefined),
 * list, deleteObject (the store's DELETE: uid precondition → 409; an object with finalizers only
 * gets a deletionTimestamp until `finishAfter` removes it), watchSource, request, and the Lease's coordination
 * calls. Every write is recorded in `calls`.
 */
function fakeClient(cluster: MemoryCluster) {
  const calls: string[] = []
  const failGet = new Map<string, Error>()
  const failList = new Map<string, Error>()
  const reads: string[] = []
  /** An object with finalizers whose finalizers are done this many ms after its delete. */
  const finishAfter = new Map<string, number>()
  /** Called on each list (what a test uses to make things go once they are being counted). */
  let onList: (kind: string, labelSelector?: string) => void = () => undefined
  /** What a delete takes with it, a moment later (garbage collection of dependents). */
  const dependents = new Map<string, Array<[string, string, string, string?]>>()
  const client = {
    request: (_what: string, fn: () => Promise<unknown>) => fn(),
    async get(ref: KubeRef) {
      const err = failGet.get(ref.kind)
      // The ownership record's reads are not the plan's (recordedEntries shows the record).
      if (ref.name !== OWNERSHIP_RECORD.name) reads.push(`get ${ref.kind}/${ref.name}`)
      if (err) throw err
      return cluster.get(ref.apiVersion, ref.kind, ref.name, ref.namespace)
    },
    async list(apiVersion: string, kind: string, o: { namespace?: string; labelSelector?: string } = {}) {
      const err = failList.get(kind)
      onList(kind, o.labelSelector)
      if (err) throw err
      return { items: cluster.all(apiVersion, kind, o) }
    },
    async deleteObject(ref: KubeRef, uid?: string) {
      calls.push(`delete ${ref.kind}/${ref.name}${uid ? ` uid=${uid}` : ''}`)
      if (!(await deleteByRef(cluster, ref, uid))) return false
      // The store keeps an object with finalizers (deletionTimestamp set) until they are done.
      const ms = finishAfter.get(`${ref.kind}/${ref.name}`)
      if (ms !== undefined && cluster.get(ref.apiVersion, ref.kind, ref.name, ref.namespace))
        setTimeout(() => cluster.remove(ref.apiVersion, ref.kind, ref.name, ref.namespace), ms)
      for (const d of dependents.get(`${ref.kind}/${ref.name}`) ?? [])
        setImmediate(() => cluster.remove(...d))
      return true
    },
    watchSource: (apiVersion: string, kind: string, o: Record<string, string | undefined> = {}) =>
      cluster.source(apiVersion, kind, o),
    coordination: memoryLeaseApi(cluster, { onCall: op => void (op !== 'read' && calls.push(`${op} lease`)) })
      .coordination,
    core: memoryConfigMapApi(cluster)
  }
  return {
    client: client as unknown as KubeClient,
    calls,
    reads,
    failGet,
    failList,
    dependents,
    finishAfter,
    onList: (f: typeof onList) => (onList = f)
  }
}

const obj = (
  apiVersion: string,
  kind: string,
  name: string,
  namespace?: string,
  labels: Record<string, string> = CREATED,
  extra: Partial<KubeObject['metadata']> = {}
): KubeObject => ({
  apiVersion,
  kind,
  metadata: { name, ...(namespace ? { namespace } : {}), labels, ...extra }
})

const pod = (name: string, namespace: string, labels: Record<string, string>): KubeObject =>
  obj('v1', 'Pod', name, namespace, labels)

/** The verify probe's namespace, with both of the labels that make it the action's. */
const probeNamespace = (extra: Partial<KubeObject['metadata']> = {}): KubeObject =>
  obj(
    'v1',
    'Namespace',
    'aks-rdma-verify',
    undefined,
    { 'aks-rdma-action/managed': 'true', 'app.kubernetes.io/name': 'aks-rdma-action' },
    extra
  )

/** Everything a full install leaves, each object the action's. */
function installAll(c: MemoryCluster): void {
  c.put(probeNamespace())
  c.put(obj('v1', 'Namespace', 'gpu-operator'))
  c.put(pod('gpu-operator-abc', 'gpu-operator', { 'app.kubernetes.io/instance': 'gpu-operator' }))
  c.put(pod('nvidia-driver-x', 'gpu-operator', { app: 'nvidia-driver-daemonset' }))
  c.put(obj('apps/v1', 'DaemonSet', 'rdma-shared-dp-ds', 'kube-system'))
  c.put(obj('v1', 'ConfigMap', 'rdma-devices', 'kube-system'))
  c.put(pod('rdma-shared-dp-ds-1', 'kube-system', { name: 'rdma-shared-dp-ds' }))
  c.put(obj('apps/v1', 'DaemonSet', 'ib-node-config', 'kube-system'))
  c.put(obj('mellanox.com/v1alpha1', 'NicClusterPolicy', 'nic-cluster-policy'))
  c.put(obj('nfd.k8s-sigs.io/v1alpha1', 'NodeFeatureRule', 'nfd-network-rule'))
  c.put(obj('v1', 'Namespace', 'network-operator'))
}

const deployed = (chartName: string, chartVersion: string): HelmReleaseStatus =>
  deployedRelease(chartName, chartVersion, { revision: 2, firstDeployed: STUB_FIRST_DEPLOYED })

/**
 * What these tests say the action created, written into the ownership record before each run: the
 * plan's objects there carrying this file's created-by value (CREATED) or the work namespace's two
 * labels, and the releases of the expected chart with the stub's first deployment. An object with
 * another value, or none, is not recorded: the record decides, not the label.
 */
function recordOurs(
  cluster: MemoryCluster,
  settings: Settings,
  releases: Map<string, HelmReleaseStatus>
): void {
  const owned: Parameters<typeof seedRecord>[1] = []
  for (const p of uninstallPlan(settings)) {
    for (const t of [...p.objects, ...p.namespaces]) {
      const live = cluster.get(t.apiVersion, t.kind, t.name, t.namespace)
      const l = live?.metadata.labels ?? {}
      const work =
        l['aks-rdma-action/managed'] === 'true' && l['app.kubernetes.io/name'] === 'aks-rdma-action'
      if (live && (l['aks-rdma-action/created-by'] === CREATED['aks-rdma-action/created-by'] || work))
        owned.push(live)
    }
    const st = p.release && releases.get(p.release.release)
    if (p.release && st?.chartName === p.release.chart && st.firstDeployed === STUB_FIRST_DEPLOYED)
      owned.push({ ...p.release, firstDeployed: STUB_FIRST_DEPLOYED })
  }
  if (owned.length) seedRecord(cluster, owned)
}

const helmBin = useHelmStandinOnPath()
const NOT_RECORDED = "not in the action's ownership record kube-system/aks-rdma-action-owned"

afterEach(() => jest.restoreAllMocks())

function setup(
  o: {
    releases?: Record<string, HelmReleaseStatus>
    stepTimeoutMs?: number
    deadline?: number
    /** false: write no record before the run (nothing is the action's). */
    record?: boolean
    adopt?: boolean
  } = {}
) {
  const cluster = new MemoryCluster()
  const fake = fakeClient(cluster)
  jest.spyOn(KubeClient, 'fromFile').mockReturnValue(fake.client)
  const { calls: helmCalls, releases } = stubHelm({
    releases: o.releases ?? {},
    say: {
      uninstall: (release, namespace, timeoutMs) =>
        `uninstall ${release} -n ${namespace} timeout=${timeoutMs > 1000 ? '>1s' : timeoutMs}`
    },
    // What the release ran goes a moment later (its controllers delete it).
    afterUninstall: (_release, namespace) => {
      for (const p of cluster.all('v1', 'Pod', { namespace }))
        setImmediate(() => cluster.remove('v1', 'Pod', p.metadata.name, namespace))
    }
  })
  const settings = pinnedHelmSettings(helmBin, {
    stack: { adoptReleases: o.adopt ?? false },
    stepTimeoutMs: o.stepTimeoutMs
  })
  const log = captureLog()
  const run = () => {
    if (o.record !== false) recordOurs(cluster, settings, releases)
    return uninstallStack({
      settings,
      kubeconfigPath: '/nowhere/kubeconfig',
      log,
      ...(o.deadline ? { deadline: o.deadline } : {})
    })
  }
  return { cluster, ...fake, helmCalls, releases, log, run, settings }
}

const summary = (steps: Array<{ name: string; status: string; changed: boolean; action?: string }>) =>
  steps.map(s => `${s.name} ${s.status} changed=${s.changed} ${s.action ?? '-'}`)

describe('uninstallStack', () => {
  it('finds nothing: every part says so, no Lease is taken and nothing is written', async () => {
    const t = setup()
    const r = await t.run()
    expect(r.ok).toBe(true)
    expect(r).not.toHaveProperty('leaseReleased')
    expect(r.diagnostics).toEqual([])
    expect(summary(r.steps)).toEqual(steps().map(n => `${n} success changed=false unchanged`))
    expect(r.steps.map(s => s.detail)).toEqual(steps().map(() => 'nothing to remove'))
    expect(t.calls).toEqual([])
    expect(KubeClient.fromFile).toHaveBeenCalledWith('/nowhere/kubeconfig', {
      retries: 3,
      backoffBaseMs: undefined,
      log: t.log
    })
    expect(t.helmCalls).toEqual([
      'status gpu-operator -n gpu-operator',
      'status network-operator -n network-operator'
    ])
    expect(t.log.lines).toContain('group: gpu-operator: remove NVIDIA GPU Operator v26.7.0')
    expect(t.log.lines).toContain('info: gpu-operator: nothing to remove')
    expect(t.log.lines).toContain('info: node-feature-rule: nothing to remove')
  })

  it('removes everything the action created, in reverse order, each watched until gone', async () => {
    const t = setup({
      releases: {
        'gpu-operator': deployed('gpu-operator', 'v26.7.0'),
        'network-operator': deployed('network-operator', 'v26.4.1')
      }
    })
    installAll(t.cluster)
    // The device plugin's pods go with their DaemonSet (garbage collection, a moment later).
    t.dependents.set('DaemonSet/rdma-shared-dp-ds', [['v1', 'Pod', 'rdma-shared-dp-ds-1', 'kube-system']])
    const r = await t.run()
    expect(r.ok).toBe(true)
    expect(r.leaseReleased).toBe(true)
    expect(summary(r.steps)).toEqual(steps().map(n => `${n} success changed=true deleted`))
    expect(Object.fromEntries(r.steps.map(s => [s.name, s.detail]))).toEqual({
      'probe-leftovers': 'namespace/aks-rdma-verify deleted',
      'gpu-operator': [
        'helm release gpu-operator (gpu-operator v26.7.0) uninstalled',
        `1 gpu-operator-pods, 1 driver-pods gone (${GPU_NOTE})`,
        'namespace/gpu-operator deleted'
      ].join('; '),
      'rdma-device-plugin': [
        'daemonset/rdma-shared-dp-ds -n kube-system deleted',
        'configmap/rdma-devices -n kube-system deleted',
        '1 rdma-shared-dp-ds-pods gone'
      ].join('; '),
      'ib-node-config': 'daemonset/ib-node-config -n kube-system deleted',
      'nic-cluster-policy': 'nicclusterpolicy/nic-cluster-policy deleted',
      'node-feature-rule': 'nodefeaturerule/nfd-network-rule deleted',
      'network-operator': [
        'helm release network-operator (network-operator v26.4.1) uninstalled',
        'namespace/network-operator deleted'
      ].join('; ')
    })
    // The Lease once, on the first delete; each delete only of the object read (its uid).
    expect(t.calls.map(c => c.replace(/ uid=.*/, ''))).toEqual([
      'create lease',
      'delete Namespace/aks-rdma-verify',
      'delete Namespace/gpu-operator',
      'delete DaemonSet/rdma-shared-dp-ds',
      'delete ConfigMap/rdma-devices',
      'delete DaemonSet/ib-node-config',
      'delete NicClusterPolicy/nic-cluster-policy',
      'delete NodeFeatureRule/nfd-network-rule',
      'delete Namespace/network-operator',
      'delete lease'
    ])
    expect(t.calls[1]).toMatch(/^delete Namespace\/aks-rdma-verify uid=[0-9a-f-]{36}$/)
    // The Lease was taken in the first part (which observed again after it): the others observe once.
    expect(t.helmCalls).toEqual([
      'status gpu-operator -n gpu-operator',
      'uninstall gpu-operator -n gpu-operator timeout=>1s',
      'status network-operator -n network-operator',
      'uninstall network-operator -n network-operator timeout=>1s'
    ])
    expect(t.cluster.all('v1', 'Namespace')).toEqual([])
    expect(t.cluster.all('v1', 'Pod')).toEqual([])
    expect(t.cluster.openWatches).toBe(0)
    expect(t.log.lines).toContain('info: helm uninstall gpu-operator -n gpu-operator --wait')
    expect(t.log.lines).toContain('info: daemonset/rdma-shared-dp-ds -n kube-system deleted')
    expect(t.log.lines).toContain('info: Lease kube-system/aks-rdma-action taken by run run-1')
    expect(t.log.lines).toContain('info: Lease kube-system/aks-rdma-action released by run run-1')
  })

  it('keeps what the action did not create, says why, and does not wait for what runs beside it', async () => {
    const t = setup({
      releases: { 'gpu-operator': deployed('gpu-operator-custom', 'v1.0.0') },
      stepTimeoutMs: 50
    })
    t.cluster.put(pod('rdma-shared-dp-ds-1', 'kube-system', { name: 'rdma-shared-dp-ds' }))
    t.cluster.put(obj('v1', 'Namespace', 'gpu-operator', undefined, { team: 'ml' }))
    t.cluster.put(pod('gpu-operator-abc', 'gpu-operator', { 'app.kubernetes.io/instance': 'gpu-operator' }))
    t.cluster.put(obj('apps/v1', 'DaemonSet', 'rdma-shared-dp-ds', 'kube-system', { app: 'theirs' }))
    t.cluster.put(obj('v1', 'ConfigMap', 'rdma-devices', 'kube-system'))
    const r = await t.run()
    expect(r.ok).toBe(true)
    const byName = Object.fromEntries(r.steps.map(s => [s.name, s]))
    expect(byName['gpu-operator']).toMatchObject({
      status: 'success',
      changed: false,
      action: 'unchanged',
      detail: [
        'nothing to remove',
        'helm release gpu-operator -n gpu-operator kept: it runs chart gpu-operator-custom, not gpu-operator',
        `namespace/gpu-operator kept: not created by the action (${NOT_RECORDED})`
      ].join('; ')
    })
    // Its own ConfigMap goes; the DaemonSet found there stays, and its pods are not waited for.
    expect(byName['rdma-device-plugin']).toMatchObject({
      status: 'success',
      changed: true,
      action: 'deleted',
      detail: `configmap/rdma-devices -n kube-system deleted; daemonset/rdma-shared-dp-ds -n kube-system kept: not created by the action (${NOT_RECORDED})`
    })
    expect(t.log.lines).toContain(
      `info: rdma-device-plugin: daemonset/rdma-shared-dp-ds -n kube-system kept: not created by the action (${NOT_RECORDED})`
    )
    // The deleted ConfigMap's entry went with it; nothing else was recorded.
    expect(recordedEntries(t.cluster)).toBeUndefined()
    expect(t.cluster.get('v1', 'Namespace', 'gpu-operator')).toBeDefined()
    expect(t.cluster.get('apps/v1', 'DaemonSet', 'rdma-shared-dp-ds', 'kube-system')).toBeDefined()
    expect(t.cluster.get('v1', 'Pod', 'gpu-operator-abc', 'gpu-operator')).toBeDefined()
    expect(t.cluster.lists.get('v1/Pod')).toBeUndefined()
    expect(t.helmCalls.filter(c => c.startsWith('uninstall'))).toEqual([])
  })

  it('labels prove nothing: a foreign created-by value, the work namespace’s labels, a re-created object are kept', async () => {
    const t = setup({ record: false })
    // The work namespace's own labels and a created-by label, with a Secret of the user's inside.
    const work = t.cluster.put(
      obj('v1', 'Namespace', 'aks-rdma-verify', undefined, {
        ...probeNamespace().metadata.labels,
        ...CREATED
      })
    )
    t.cluster.put(obj('v1', 'Secret', 'team-token', 'aks-rdma-verify', {}))
    t.cluster.put(
      obj('v1', 'ConfigMap', 'rdma-devices', 'kube-system', { 'aks-rdma-action/created-by': 'someone-else' })
    )
    // Recorded once, then deleted and made again by someone else under the same name: another uid.
    const first = t.cluster.put(obj('apps/v1', 'DaemonSet', 'ib-node-config', 'kube-system'))
    seedRecord(t.cluster, [first])
    t.cluster.remove('apps/v1', 'DaemonSet', 'ib-node-config', 'kube-system')
    t.cluster.put(obj('apps/v1', 'DaemonSet', 'ib-node-config', 'kube-system'))
    const r = await t.run()
    expect(r.ok).toBe(true)
    expect(summary(r.steps)).toEqual(steps().map(n => `${n} success changed=false unchanged`))
    expect(r.steps[0].detail).toBe(
      `nothing to remove; namespace/aks-rdma-verify kept: not created by the action (${NOT_RECORDED}); its label aks-rdma-action/created-by=run-1 proves nothing; if it is yours to remove: kubectl delete namespace aks-rdma-verify`
    )
    expect(r.steps[2].detail).toContain(
      'configmap/rdma-devices -n kube-system kept: not created by the action'
    )
    expect(r.steps[2].detail).toContain('kubectl delete configmap rdma-devices -n kube-system')
    expect(r.steps[3].detail).toMatch(
      /daemonset\/ib-node-config -n kube-system kept: not created by the action \(its uid [0-9a-f-]{36} is not the recorded [0-9a-f-]{36}: someone else made it again\)/
    )
    expect(t.calls).toEqual([])
    expect(t.cluster.get('v1', 'Namespace', work.metadata.name)).toBeDefined()
    expect(t.cluster.get('v1', 'Secret', 'team-token', 'aks-rdma-verify')).toBeDefined()
  })

  it('a hand-installed release of the expected chart: kept and said so; removed with adopt-releases', async () => {
    const hand = { ...deployed('network-operator', 'v26.4.1'), firstDeployed: '2026-11-30T08:00:00Z' }
    const t = setup({ releases: { 'network-operator': hand } })
    const r = await t.run()
    expect(r.steps[6].detail).toBe(
      `nothing to remove; helm release network-operator -n network-operator kept: not installed by the action (${NOT_RECORDED}); remove it with helm uninstall network-operator -n network-operator, or let uninstall do it with adopt-releases: true`
    )
    expect(t.helmCalls.filter(c => c.startsWith('uninstall'))).toEqual([])
    jest.restoreAllMocks()

    const a = setup({ releases: { 'network-operator': hand }, adopt: true })
    const adopted = await a.run()
    expect(adopted.steps[6]).toMatchObject({
      action: 'deleted',
      detail:
        'helm release network-operator (network-operator v26.4.1) adopted (installed by hand; adopt-releases) and uninstalled'
    })
  })

  it('waits for an object whose deletion takes a while (finalizers) and for leftovers with no object left', async () => {
    const t = setup()
    t.cluster.put(probeNamespace({ finalizers: ['kubernetes'] }))
    // Only pods of the OFED driver left (no policy): waited for until they go.
    t.cluster.put(pod('mofed-1', 'network-operator', { 'nvidia.com/ofed-driver': '' }))
    t.cluster.put(pod('mofed-2', 'network-operator', { 'nvidia.com/ofed-driver': '' }))
    t.finishAfter.set('Namespace/aks-rdma-verify', 5)
    let gone: NodeJS.Timeout | undefined
    let counted = 0
    t.onList((kind, selector) => {
      if (kind !== 'Pod' || selector !== 'nvidia.com/ofed-driver' || counted++) return
      gone = setTimeout(() => {
        t.cluster.remove('v1', 'Pod', 'mofed-1', 'network-operator')
        t.cluster.remove('v1', 'Pod', 'mofed-2', 'network-operator')
      }, 5)
    })
    try {
      const r = await t.run()
      expect(r.ok).toBe(true)
      // Observed again once the Lease was taken (another run may have changed it meanwhile).
      expect(t.reads.slice(0, 2)).toEqual(['get Namespace/aks-rdma-verify', 'get Namespace/aks-rdma-verify'])
      expect(r.steps[0].detail).toBe('namespace/aks-rdma-verify deleted')
      expect(r.steps[4]).toMatchObject({
        name: 'nic-cluster-policy',
        changed: true,
        action: 'deleted',
        detail: `2 ofed-pods gone (${'the OFED driver DaemonSets are owned by the policy and go with it; each driver pod removes its ready file and mount as it stops and leaves the DOCA driver loaded until the node reboots (RESTORE_DRIVER_ON_POD_TERMINATION is false by default)'})`
      })
      expect(t.log.lines).toContain('info: waiting for namespace aks-rdma-verify to be gone (1 left)')
      expect(t.log.lines).toContain(
        'info: waiting for pods nvidia.com/ofed-driver -n network-operator to be gone (2 left)'
      )
    } finally {
      clearTimeout(gone)
    }
  })

  it('a deletion that does not end within the step timeout fails the part; the rest are not run', async () => {
    const t = setup({ stepTimeoutMs: 20 })
    t.cluster.put(
      obj('nfd.k8s-sigs.io/v1alpha1', 'NodeFeatureRule', 'nfd-network-rule', undefined, CREATED, {
        finalizers: ['x']
      })
    )
    const r = await t.run()
    expect(r.ok).toBe(false)
    expect(r.leaseReleased).toBe(true)
    expect(summary(r.steps)).toEqual([
      'probe-leftovers success changed=false unchanged',
      'gpu-operator success changed=false unchanged',
      'rdma-device-plugin success changed=false unchanged',
      'ib-node-config success changed=false unchanged',
      'nic-cluster-policy success changed=false unchanged',
      'node-feature-rule failure changed=false -',
      'network-operator skipped changed=false -'
    ])
    const reason =
      'nodefeaturerule nfd-network-rule still there after 20ms: timed out after 0s; last state: waiting for nodefeaturerule nfd-network-rule to be gone (1 left)'
    expect(r.steps[5].detail).toBe(reason)
    expect(r.steps[6].detail).toBe('not run: node-feature-rule failed')
    expect(r.diagnostics).toEqual([
      { step: 'node-feature-rule', title: `node-feature-rule: ${reason}`, text: reason }
    ])
    expect(t.log.lines).toContain(`error: node-feature-rule: ${reason}`)
    // Never re-created, never asked about again.
    expect(t.helmCalls).toEqual(['status gpu-operator -n gpu-operator'])
  })

  it('a failed helm uninstall fails the part, its namespace stays', async () => {
    const t = setup({ releases: { 'network-operator': deployed('network-operator', 'v26.4.1') } })
    t.cluster.put(obj('v1', 'Namespace', 'network-operator'))
    jest
      .spyOn(Helm.prototype, 'uninstall')
      .mockRejectedValue(new Error('helm uninstall failed (exit 1): boom'))
    const r = await t.run()
    expect(r.ok).toBe(false)
    expect(r.steps[6]).toMatchObject({
      name: 'network-operator',
      status: 'failure',
      changed: false,
      detail: 'helm uninstall failed (exit 1): boom'
    })
    expect(r.diagnostics).toEqual([
      {
        step: 'network-operator',
        title: 'network-operator: helm uninstall failed (exit 1): boom',
        text: 'helm uninstall failed (exit 1): boom'
      }
    ])
    expect(t.cluster.get('v1', 'Namespace', 'network-operator')).toBeDefined()
  })

  it('a helm uninstall waiting for a hook whose image cannot be pulled: the pod named, and how to finish', async () => {
    const t = setup({ releases: { 'gpu-operator': deployed('gpu-operator', 'v26.7.0') } })
    t.cluster.put(obj('v1', 'Namespace', 'gpu-operator'))
    t.cluster.put({
      ...obj('v1', 'Pod', 'gpu-operator-cleanup-crd-x7k2p', 'gpu-operator'),
      status: {
        containerStatuses: [
          {
            name: 'cleanup-crd',
            image: 'nvcr.io/nvidia/gpu-operator:v26.7.0',
            state: { waiting: { reason: 'ImagePullBackOff' } }
          }
        ]
      }
    })
    jest
      .spyOn(Helm.prototype, 'uninstall')
      .mockRejectedValue(new Error('helm uninstall failed (exit 1): timed out waiting for the condition'))
    const r = await t.run()
    expect(r.ok).toBe(false)
    const step = r.steps.find(s => s.name === 'gpu-operator')!
    expect(step.status).toBe('failure')
    expect(step.detail).toContain(
      'pod gpu-operator-cleanup-crd-x7k2p (nvcr.io/nvidia/gpu-operator:v26.7.0, ImagePullBackOff) cannot pull its image'
    )
    expect(step.detail).toContain('`helm uninstall gpu-operator -n gpu-operator --no-hooks`')
  })

  it('a failure after deletes reports what was deleted before it', async () => {
    const t = setup()
    t.cluster.put(obj('apps/v1', 'DaemonSet', 'rdma-shared-dp-ds', 'kube-system'))
    t.cluster.put(obj('v1', 'ConfigMap', 'rdma-devices', 'kube-system'))
    const del = t.client.deleteObject.bind(t.client)
    jest.spyOn(t.client, 'deleteObject').mockImplementation(async (ref, uid) => {
      if (ref.kind === 'ConfigMap') throw apiError(500, 'InternalError', 'etcd timeout')
      return del(ref, uid)
    })
    const r = await t.run()
    expect(r.steps[2]).toMatchObject({
      name: 'rdma-device-plugin',
      status: 'failure',
      changed: true,
      detail: 'daemonset/rdma-shared-dp-ds -n kube-system deleted; etcd timeout'
    })
  })

  it('a kind that is not served has no objects; another read error fails the part', async () => {
    const t = setup()
    t.failGet.set(
      'NicClusterPolicy',
      apiError(404, 'NotFound', 'the server could not find the requested resource')
    )
    t.failList.set('DaemonSet', apiError(404, 'NotFound', 'the server could not find the requested resource'))
    t.failGet.set('NodeFeatureRule', apiError(403, 'Forbidden', 'nodefeaturerules is forbidden'))
    t.failList.set('Pod', apiError(500, 'InternalError', 'etcd timeout'))
    const r = await t.run()
    // ib-node-config's pods are listed (leftovers): the 500 fails the first part that counts pods.
    expect(summary(r.steps)).toEqual([
      'probe-leftovers success changed=false unchanged',
      'gpu-operator failure changed=false -',
      'rdma-device-plugin skipped changed=false -',
      'ib-node-config skipped changed=false -',
      'nic-cluster-policy skipped changed=false -',
      'node-feature-rule skipped changed=false -',
      'network-operator skipped changed=false -'
    ])
    expect(r.steps[1].detail).toBe('etcd timeout')
    t.failList.delete('Pod')
    const again = await t.run()
    expect(summary(again.steps).slice(3, 6)).toEqual([
      'ib-node-config success changed=false unchanged',
      'nic-cluster-policy success changed=false unchanged',
      'node-feature-rule failure changed=false -'
    ])
    expect(again.steps[5].detail).toBe('nodefeaturerules is forbidden')
  })

  it('a run whose Lease was taken over fails, and reports the lost Lease', async () => {
    const t = setup()
    t.cluster.put(obj('apps/v1', 'DaemonSet', 'ib-node-config', 'kube-system'))
    t.cluster.put(obj('nfd.k8s-sigs.io/v1alpha1', 'NodeFeatureRule', 'nfd-network-rule'))
    // Another run takes the Lease over as soon as this one has deleted its first object.
    const del = t.client.deleteObject.bind(t.client)
    jest.spyOn(t.client, 'deleteObject').mockImplementation(async (ref, uid) => {
      const out = await del(ref, uid)
      const l = t.cluster.get('coordination.k8s.io/v1', 'Lease', 'aks-rdma-action', 'kube-system')!
      t.cluster.put({ ...l, spec: { ...l.spec, holderIdentity: 'run-2' } })
      return out
    })
    const r = await t.run()
    expect(r.ok).toBe(false)
    expect(r).not.toHaveProperty('leaseReleased')
    // Stopped before its next write: the record's entry for what it had just deleted.
    const lost =
      'the Lease kube-system/aks-rdma-action is no longer held by this run (run-1): it is now held by run-2. Stopped before updating the ownership record for daemonset/ib-node-config -n kube-system, so as not to write over the run that holds it now; re-run once it has finished.'
    expect(r.steps.find(s => s.name === 'ib-node-config')).toMatchObject({
      status: 'failure',
      detail: lost
    })
    const leaseStep = r.steps[r.steps.length - 1]
    expect(leaseStep).toMatchObject({ name: 'lease', status: 'failure' })
    expect(leaseStep.detail).toContain('is no longer held by this run (run-1): it is now held by run-2')
    expect(r.diagnostics[r.diagnostics.length - 1]).toEqual({
      step: 'lease',
      title: 'The run lost its Lease',
      text: leaseStep.detail
    })
    // The other run's Lease is left alone.
    expect(t.calls).not.toContain('delete lease')
  })

  it('what went meanwhile is said to be already gone; found gone once the Lease is taken, nothing is done', async () => {
    const t = setup({
      releases: { 'gpu-operator': deployed('gpu-operator', 'v26.7.0') },
      stepTimeoutMs: 50
    })
    t.cluster.put(probeNamespace())
    t.cluster.put(obj('v1', 'Namespace', 'gpu-operator'))
    // Another actor removes the probe namespace while this run takes the Lease...
    const create = t.client.coordination.createNamespacedLease.bind(t.client.coordination)
    jest.spyOn(t.client.coordination, 'createNamespacedLease').mockImplementation(async a => {
      t.cluster.remove('v1', 'Namespace', 'aks-rdma-verify')
      return create(a)
    })
    // ...and the gpu-operator namespace and release between this run's reads and its writes.
    const del = t.client.deleteObject.bind(t.client)
    jest.spyOn(t.client, 'deleteObject').mockImplementation(async (ref, uid) => {
      t.cluster.remove(ref.apiVersion, ref.kind, ref.name, ref.namespace)
      return del(ref, uid)
    })
    jest.spyOn(Helm.prototype, 'uninstall').mockImplementation(async (release, namespace, timeoutMs) => {
      t.helmCalls.push(`uninstall ${release} -n ${namespace} timeout=${timeoutMs}`)
      return false
    })
    const r = await t.run()
    expect(r.ok).toBe(true)
    expect(r.steps[0]).toMatchObject({
      name: 'probe-leftovers',
      status: 'success',
      changed: false,
      action: 'unchanged',
      detail: 'nothing to remove'
    })
    expect(r.steps[1]).toMatchObject({
      name: 'gpu-operator',
      status: 'success',
      changed: true,
      action: 'deleted',
      detail:
        'helm release gpu-operator (gpu-operator v26.7.0) already gone; namespace/gpu-operator already gone'
    })
    // At least a second for helm, however little of the step is left.
    expect(t.helmCalls).toContain('uninstall gpu-operator -n gpu-operator timeout=1000')
    expect(t.log.lines).toContain('info: namespace/gpu-operator already gone')
  })

  it('the run’s deadline bounds a wait when it comes before the step timeout', async () => {
    const t = setup({ deadline: Date.now() + 15 })
    t.cluster.put(probeNamespace({ finalizers: ['kubernetes'] }))
    const r = await t.run()
    expect(r.ok).toBe(false)
    expect(r.steps[0].status).toBe('failure')
    expect(r.steps[0].detail).toMatch(
      /^namespace aks-rdma-verify still there after \d+ms: timed out after 0s; last state: waiting for namespace aks-rdma-verify to be gone \(1 left\)$/
    )
    expect(r.steps.slice(1).map(s => s.status)).toEqual(
      steps()
        .slice(1)
        .map(() => 'skipped')
    )
  })
})
