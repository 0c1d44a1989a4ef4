// What apply does beyond writing when a component changes on a running cluster, against a fake
// KubeClient over an in-memory cluster: which chart CRDs differ (absent ones included), applying
// them (forced) and waiting until each is Established, the OnDelete DaemonSet's stale pods found
// and deleted only while they are the pods read, version comparison and the installed version.
import { jest } from '@jest/globals'
import type { KubeClient } from '../../../src/kube/client.js'
import type { KubeObject, KubeRef } from '../../../src/kube/types.js'
import type { ComponentSpec } from '../../../src/components/index.js'
import type { StalePods } from '../../../src/components/types.js'
import type { Settings } from '../../../src/settings/settings.js'
import {
  applyCrds,
  crdsToApply,
  findStalePods,
  installedVersion,
  replaceStalePods,
  sameVersion
} from '../../../src/stack/upgrade.js'
import { CRD_SOURCE, newerCrdSource, stampCrd } from '../../../src/stack/downgrade.js'
import { captureLog } from '../../support/capture-log.js'
import { MemoryCluster } from '../../support/memory-cluster.js'
import { deleteByRef } from '../../support/memory-kube.js'

const CRD_API = 'apiextensions.k8s.io/v1'

const crd = (name: string, version = 'v1', extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: CRD_API,
  kind: 'CustomResourceDefinition',
  metadata: { name },
  spec: { group: 'nvidia.com', versions: [{ name: version }] },
  ...extra
})

const ESTABLISHED = { conditions: [{ type: 'Established', status: 'True' }] }

/**
 * A KubeClient over a MemoryCluster: needsApply (converged when the spec is the live one),
 * applyManifest (stores it; `establish` says whether a stored CRD is Established at once, else
 * `establishAfterMs` later), list, deleteObject (uid precondition → 409, absent → false) and
 * watchSource. Calls are recorded.
 */
function fakeClient(cluster: MemoryCluster, o: { establish?: boolean; establishAfterMs?: number } = {}) {
  const calls: string[] = []
  const timers: NodeJS.Timeout[] = []
  const client = {
    async needsApply(m: KubeObject, opts: { force?: boolean }) {
      calls.push(`needsApply ${m.apiVersion} ${m.metadata.name} force=${opts.force}`)
      const live = cluster.get(m.apiVersion, m.kind, m.metadata.name, m.metadata.namespace)
      if (!live) return { converged: false, reason: 'absent', live: undefined, confirmedByDryRun: false }
      if (JSON.stringify(live.spec) === JSON.stringify(m.spec))
        return { converged: true, live, confirmedByDryRun: false }
      return {
        converged: false,
        ...(o.establish === undefined ? {} : { reason: 'spec.versions differ' }),
        live,
        confirmedByDryRun: true
      }
    },
    async applyManifest(m: KubeObject, opts: { force?: boolean; live?: KubeObject | null }) {
      calls.push(`apply ${m.metadata.name} force=${opts.force} live=${opts.live ? 'given' : opts.live}`)
      const before = cluster.get(m.apiVersion, m.kind, m.metadata.name)
      const object = cluster.put({ ...m, ...(o.establish ? { status: ESTABLISHED } : {}) })
      if (!o.establish && o.establishAfterMs !== undefined)
        timers.push(setTimeout(() => cluster.put({ ...object, status: ESTABLISHED }), o.establishAfterMs))
      return { created: !before, changed: true, object }
    },
    async list(apiVersion: string, kind: string, f: { namespace?: string; labelSelector?: string }) {
      calls.push(`list ${kind} -n ${f.namespace} ${f.labelSelector}`)
      return { items: cluster.all(apiVersion, kind, f) }
    },
    async deleteObject(ref: KubeRef, uid?: string) {
      calls.push(`delete ${ref.kind}/${ref.name} uid=${uid}`)
      return deleteByRef(cluster, ref, uid)
    },
    watchSource(apiVersion: string, kind: string, f: { fieldSelector?: string; name?: string }) {
      calls.push(`watch ${kind} ${f.fieldSelector} as ${f.name}`)
      return cluster.source(apiVersion, kind, f)
    }
  }
  return { client: client as unknown as KubeClient, calls, clear: () => timers.forEach(clearTimeout) }
}

/** A write step's log and confirm, and the check of what it did: each line done logged, the confirmations asked. */
function reporting() {
  const log = captureLog()
  const confirmed: string[] = []
  return {
    log,
    confirm: async (w: string) => void confirmed.push(w),
    expectReported(done: string[], lines: string[], confirms: string[]) {
      expect(done).toEqual(lines)
      expect(log.lines).toEqual(lines.map(d => `info: ${d}`))
      expect(confirmed).toEqual(confirms)
    }
  }
}

describe('sameVersion', () => {
  it('ignores a leading v and surrounding spaces, nothing else', () => {
    expect(sameVersion('v26.4.1', '26.4.1')).toBe(true)
    expect(sameVersion(' 26.4.1 ', 'v26.4.1')).toBe(true)
    expect(sameVersion('v26.4.1', 'v26.4.2')).toBe(false)
    expect(sameVersion('v26.4.1', 'v26.4.10')).toBe(false)
    expect(sameVersion('vv1', 'v1')).toBe(false)
    expect(sameVersion('1v', '1')).toBe(false)
  })
})

describe('installedVersion', () => {
  const spec = (version?: ComponentSpec['version']) => ({ name: 'c', version }) as unknown as ComponentSpec
  const policy = (version: unknown): KubeObject => ({
    apiVersion: 'mellanox.com/v1alpha1',
    kind: 'NicClusterPolicy',
    metadata: { name: 'p' },
    spec: { ofedDriver: { version } }
  })
  const manifest = { kind: 'NicClusterPolicy' } as never
  const other = { kind: 'ConfigMap' } as never
  const field = { kind: 'NicClusterPolicy', path: ['spec', 'ofedDriver', 'version'] }

  it('none without a version; the chart version without a field', () => {
    expect(installedVersion(spec(), { chartVersion: 'v1', live: [] })).toBeUndefined()
    expect(installedVersion(spec({ value: 'v2' }), { chartVersion: 'v1', live: [] })).toBe('v1')
    expect(installedVersion(spec({ value: 'v2' }), { live: [] })).toBeUndefined()
  })

  it('the named field of the live manifest of that kind, as text', () => {
    const v = spec({ value: 'x', field })
    expect(
      installedVersion(v, {
        chartVersion: 'v9',
        live: [
          { manifest: other, live: policy('wrong') },
          { manifest, live: policy('doca-1') }
        ]
      })
    ).toBe('doca-1')
    expect(installedVersion(v, { live: [{ manifest, live: policy(42) }] })).toBe('42')
    expect(installedVersion(v, { live: [{ manifest, live: policy({ a: 1 }) }] })).toBeUndefined()
    expect(installedVersion(v, { live: [{ manifest, live: policy(undefined) }] })).toBeUndefined()
    expect(installedVersion(v, { live: [{ manifest }] })).toBeUndefined()
    expect(installedVersion(v, { live: [{ manifest: other, live: policy('x') }] })).toBeUndefined()
    const noSpec = { ...policy('x'), spec: null } as unknown as KubeObject
    expect(installedVersion(v, { live: [{ manifest, live: noSpec }] })).toBeUndefined()
    const stringSpec = { ...policy('x'), spec: 'text' } as unknown as KubeObject
    expect(installedVersion(v, { live: [{ manifest, live: stringSpec }] })).toBeUndefined()
  })
})

describe('crdsToApply', () => {
  it('the absent and differing CRDs (with their reason and live object), forced; the same ones left out', async () => {
    const cluster = new MemoryCluster()
    const same = cluster.put(crd('same.nvidia.com'))
    const live = cluster.put(crd('old.nvidia.com', 'v1alpha1'))
    const { client, calls } = fakeClient(cluster, { establish: true })
    const noApiVersion = { kind: 'CustomResourceDefinition', metadata: { name: 'new.nvidia.com' }, spec: {} }
    const plans = await crdsToApply(client, [
      { ...crd('same.nvidia.com') },
      crd('old.nvidia.com', 'v1'),
      noApiVersion
    ])
    expect(plans).toEqual([
      { crd: crd('old.nvidia.com', 'v1'), reason: 'spec.versions differ', live },
      { crd: { ...noApiVersion, apiVersion: CRD_API }, reason: 'absent' }
    ])
    expect(calls).toEqual([
      `needsApply ${CRD_API} same.nvidia.com force=true`,
      `needsApply ${CRD_API} old.nvidia.com force=true`,
      `needsApply ${CRD_API} new.nvidia.com force=true`
    ])
    expect(same.metadata.name).toBe('same.nvidia.com')
  })

  it('"differs" when the check gives no reason; an apiVersion the chart sets is kept', async () => {
    const cluster = new MemoryCluster()
    cluster.put(crd('old.nvidia.com', 'v1alpha1'))
    const { client } = fakeClient(cluster)
    const plans = await crdsToApply(client, [crd('old.nvidia.com')])
    expect(plans.map(p => p.reason)).toEqual(['differs'])
    const beta = await crdsToApply(client, [
      { ...crd('b.nvidia.com'), apiVersion: 'apiextensions.k8s.io/v1beta1' }
    ])
    expect(beta[0].crd.apiVersion).toBe('apiextensions.k8s.io/v1beta1')
  })
})

describe('crdsToApply with the chart named', () => {
  const stamp = (version: string, chart = 'gpu-operator') => ({
    [CRD_SOURCE.chart]: chart,
    [CRD_SOURCE.chartVersion]: version
  })
  const stamped = (name: string, version: string, chart = 'gpu-operator'): KubeObject => {
    const c = crd(name, 'v1alpha1')
    return { ...c, metadata: { ...c.metadata, annotations: stamp(version, chart) } }
  }

  it('stamps each with the chart version; keeps one applied from a newer version of the same chart', async () => {
    const cluster = new MemoryCluster()
    const newer = cluster.put(stamped('newer.nvidia.com', 'v26.7.0'))
    const older = cluster.put(stamped('older.nvidia.com', 'v25.10.1'))
    const bare = cluster.put(crd('bare.nvidia.com', 'v1alpha1'))
    const other = cluster.put(stamped('other.nvidia.com', 'v99.0.0', 'network-operator'))
    const { client } = fakeClient(cluster)
    const chart = { name: 'gpu-operator', version: 'v26.3.3' }
    const plans = await crdsToApply(
      client,
      ['newer', 'older', 'bare', 'other', 'absent'].map(n => crd(`${n}.nvidia.com`)),
      chart
    )
    const want = (name: string) => ({
      ...crd(name),
      metadata: { name, annotations: stamp('v26.3.3') }
    })
    expect(plans).toEqual([
      { crd: want('newer.nvidia.com'), reason: 'differs', live: newer, keep: 'v26.7.0' },
      // Older, unstamped (helm's first install) and another chart's: no version to hold them back.
      { crd: want('older.nvidia.com'), reason: 'differs', live: older },
      { crd: want('bare.nvidia.com'), reason: 'differs', live: bare },
      { crd: want('other.nvidia.com'), reason: 'differs', live: other },
      { crd: want('absent.nvidia.com'), reason: 'absent' }
    ])
  })

  it('applyCrds names a kept CRD and writes nothing for it', async () => {
    const cluster = new MemoryCluster()
    const live = cluster.put(stamped('newer.nvidia.com', 'v26.7.0'))
    const { client, calls } = fakeClient(cluster, { establish: true })
    const { log, confirm, expectReported } = reporting()
    const c = stampCrd(crd('newer.nvidia.com'), { name: 'gpu-operator', version: 'v26.3.3' })
    const done = await applyCrds(client, [{ crd: c, reason: 'differs', live, keep: 'v26.7.0' }], {
      confirm,
      log,
      timeoutMs: 5000
    })
    expectReported(
      done,
      [
        'customresourcedefinition/newer.nvidia.com kept: applied from gpu-operator v26.7.0, newer than v26.3.3 (an older CRD could prune fields of its objects)'
      ],
      []
    )
    expect(calls).toEqual([])
    expect(cluster.get(CRD_API, 'CustomResourceDefinition', 'newer.nvidia.com')).toEqual(live)
  })
})

describe('newerCrdSource', () => {
  const live = (a: Record<string, string> | undefined): KubeObject => ({
    ...crd('x.nvidia.com'),
    metadata: { name: 'x.nvidia.com', ...(a ? { annotations: a } : {}) }
  })
  const chart = { name: 'gpu-operator', version: 'v26.3.3' }
  it('is the live stamp only when it names the same chart at a newer version', () => {
    expect(newerCrdSource(live(stampOf('gpu-operator', 'v26.7.0')), chart)).toBe('v26.7.0')
    expect(newerCrdSource(live(stampOf('gpu-operator', '26.3.4')), chart)).toBe('26.3.4')
    expect(newerCrdSource(live(stampOf('gpu-operator', 'v26.3.3')), chart)).toBeUndefined()
    expect(newerCrdSource(live(stampOf('gpu-operator', 'v26.3.3-rc.1')), chart)).toBeUndefined()
    expect(newerCrdSource(live(stampOf('network-operator', 'v27.0.0')), chart)).toBeUndefined()
    expect(newerCrdSource(live(stampOf('gpu-operator', 'latest')), chart)).toBeUndefined()
    expect(newerCrdSource(live(undefined), chart)).toBeUndefined()
    expect(newerCrdSource(undefined, chart)).toBeUndefined()
  })
})

const stampOf = (chart: string, version: string): Record<string, string> => ({
  [CRD_SOURCE.chart]: chart,
  [CRD_SOURCE.chartVersion]: version
})

describe('applyCrds', () => {
  it('applies each (forced, with the live one read), confirming first; says created or updated and why', async () => {
    const cluster = new MemoryCluster()
    const live = cluster.put(crd('old.nvidia.com', 'v1alpha1'))
    const { client, calls } = fakeClient(cluster, { establish: true })
    const { log, confirm, expectReported } = reporting()
    const done = await applyCrds(
      client,
      [
        { crd: crd('old.nvidia.com'), reason: 'spec.versions differ', live },
        { crd: crd('new.nvidia.com'), reason: 'absent' }
      ],
      { confirm, log, timeoutMs: 5000 }
    )
    expectReported(
      done,
      [
        'customresourcedefinition/old.nvidia.com updated (spec.versions differ)',
        'customresourcedefinition/new.nvidia.com created (new in this chart version)'
      ],
      ['applying customresourcedefinition/old.nvidia.com', 'applying customresourcedefinition/new.nvidia.com']
    )
    // Established at once: no watch.
    expect(calls).toEqual([
      'apply old.nvidia.com force=true live=given',
      'apply new.nvidia.com force=true live=null'
    ])
  })

  it('waits for a CRD to be Established before going on', async () => {
    const cluster = new MemoryCluster()
    cluster.put({
      ...crd('other.nvidia.com'),
      status: { conditions: [{ type: 'Established', status: 'False' }] }
    })
    const { client, calls, clear } = fakeClient(cluster, { establishAfterMs: 5 })
    try {
      // Names accepted, not yet Established: waited for.
      const pending = crd('new.nvidia.com', 'v1', {
        status: {
          conditions: [
            { type: 'NamesAccepted', status: 'True' },
            { type: 'Established', status: 'False' }
          ]
        }
      })
      const done = await applyCrds(client, [{ crd: pending, reason: 'absent' }], {
        confirm: async () => undefined,
        log: captureLog(),
        timeoutMs: 0
      })
      expect(done).toEqual(['customresourcedefinition/new.nvidia.com created (new in this chart version)'])
      expect(calls).toEqual([
        'apply new.nvidia.com force=true live=null',
        'watch CustomResourceDefinition metadata.name=new.nvidia.com as new.nvidia.com'
      ])
      expect(cluster.get(CRD_API, 'CustomResourceDefinition', 'new.nvidia.com')?.status).toEqual(ESTABLISHED)
    } finally {
      clear()
    }
  })

  it('a CRD never Established times out after the time given, at least a second', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] })
    try {
      const cluster = new MemoryCluster()
      const { client } = fakeClient(cluster, {})
      let settled: unknown
      const p = applyCrds(client, [{ crd: crd('new.nvidia.com'), reason: 'absent' }], {
        confirm: async () => undefined,
        log: captureLog(),
        timeoutMs: -5
      }).catch(e => (settled = e))
      await jest.advanceTimersByTimeAsync(990)
      expect(settled).toBeUndefined()
      await jest.advanceTimersByTimeAsync(20)
      await p
      expect((settled as Error).message).toBe(
        'timed out after 1s; last state: waiting for customresourcedefinition/new.nvidia.com to be Established'
      )
    } finally {
      jest.useRealTimers()
    }
  })

  it('a refused confirm stops before the write', async () => {
    const cluster = new MemoryCluster()
    const { client, calls } = fakeClient(cluster, { establish: true })
    await expect(
      applyCrds(client, [{ crd: crd('new.nvidia.com'), reason: 'absent' }], {
        confirm: async w => {
          throw new Error(`lost before ${w}`)
        },
        log: captureLog(),
        timeoutMs: 1000
      })
    ).rejects.toThrow('lost before applying customresourcedefinition/new.nvidia.com')
    expect(calls).toEqual([])
  })
})

describe('stale pods', () => {
  const settings = { runId: 'r' } as unknown as Settings
  const pod = (
    name: string,
    image: string,
    extra: Partial<KubeObject['metadata']> = {},
    nodeName?: string
  ): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'kube-system', labels: { app: 'ib-node-config' }, ...extra },
    spec: { ...(nodeName ? { nodeName } : {}), containers: [{ image }] }
  })
  const stale: StalePods = {
    pods: s => ({
      name: `pods of ${s.runId}`,
      apiVersion: 'v1',
      kind: 'Pod',
      namespace: 'kube-system',
      labelSelector: 'app=ib-node-config'
    }),
    current: (p, s) => p.spec?.containers[0].image === `img:${s.runId}`,
    onChange: 'replaced'
  }

  it('finds the pods of the selector that run something else and are not already going', async () => {
    const cluster = new MemoryCluster()
    cluster.put(pod('a', 'img:old', {}, 'node-1'))
    cluster.put(pod('b', 'img:r', {}, 'node-2'))
    cluster.put(pod('c', 'img:old', { deletionTimestamp: '2026-01-01T00:00:00Z' }))
    cluster.put(pod('d', 'img:old', { labels: { app: 'other' } }))
    cluster.put({
      ...pod('e', 'img:old'),
      metadata: { name: 'e', namespace: 'default', labels: { app: 'ib-node-config' } }
    })
    const { client, calls } = fakeClient(cluster)
    const found = await findStalePods(client, stale, settings)
    expect(found.map(p => p.metadata.name)).toEqual(['a'])
    expect(calls).toEqual(['list Pod -n kube-system app=ib-node-config'])
  })

  it('deletes each while it is the pod read, saying where it ran; one gone or replaced meanwhile is skipped', async () => {
    const cluster = new MemoryCluster()
    const a = cluster.put(pod('a', 'img:old', {}, 'node-1'))
    const b = cluster.put(pod('b', 'img:old'))
    const gone = cluster.put(pod('gone', 'img:old', {}, 'node-3'))
    cluster.remove('v1', 'Pod', 'gone', 'kube-system')
    const { client, calls } = fakeClient(cluster)
    const { log, confirm, expectReported } = reporting()
    const done = await replaceStalePods(client, [a, gone, b], {
      confirm,
      log
    })
    expectReported(
      done,
      [
        'pod/a -n kube-system on node-1 deleted (it ran an earlier version; its replacement runs the current one)',
        'pod/b -n kube-system on ? deleted (it ran an earlier version; its replacement runs the current one)'
      ],
      [
        'deleting pod/a -n kube-system on node-1',
        'deleting pod/gone -n kube-system on node-3',
        'deleting pod/b -n kube-system on ?'
      ]
    )
    expect(calls).toEqual([
      `delete Pod/a uid=${a.metadata.uid}`,
      `delete Pod/gone uid=${gone.metadata.uid}`,
      `delete Pod/b uid=${b.metadata.uid}`
    ])
    // A pod of the same name that is another one (recreated) is not deleted.
    const again = cluster.put(pod('a', 'img:r', {}, 'node-1'))
    await expect(
      replaceStalePods(client, [{ ...again, metadata: { ...again.metadata, uid: 'old-uid' } }], {
        confirm: async () => undefined,
        log
      })
    ).rejects.toThrow('Precondition failed')
    expect(cluster.get('v1', 'Pod', 'a', 'kube-system')).toBeDefined()
  })
})
