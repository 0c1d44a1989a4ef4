// The node probe against a fake client over an in-memory cluster: the one DaemonSet it writes (its
// exact manifest), a leftover of this run replaced (409), probe DaemonSets earlier runs left removed
// by age, the wait on the DaemonSet's own pods (owner uid, target node) until each node's probe
// settled (finished, stuck or unschedulable) with its progress lines, the facts read from the real
// probe output of an ibstat fixture, the deadline's snapshot, and the delete of the DaemonSet
// whatever happened (a failed delete only warned about).
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { afterEach, describe, expect, it, jest } from '@jest/globals'
import type { KubeObject } from '../../../src/kube/types.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import type { Settings } from '../../../src/settings/settings.js'
import { poolTolerations } from '../../../src/model/workload.js'
import { BUSYBOX_IMAGE } from '../../../src/settings/images.js'
import { parseProbeOutput, PROBE_SCRIPT } from '../../../src/verify/probe-output.js'
import {
  deleteDaemonSet,
  pinToNodes,
  probeDaemonSet,
  probeLabels,
  probeName,
  probeNodes,
  removeStaleProbes
} from '../../../src/verify/probe.js'
import { runLabel } from '../../../src/verify/workspace.js'
import { captureLog } from '../../support/capture-log.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'
import { apiError } from '../../support/memory-cluster.js'
import { memoryKube, unschedulableStatus, watching } from '../../support/memory-kube.js'
import { probeMessage } from '../../support/probe-message.js'
import { dsPod, terminated } from '../../support/probe-pods.js'

const NS = 'aks-rdma-verify'
const ibstat = (name: string) => readFileSync(resolve(process.cwd(), 'test/fixtures/ibstat', name), 'utf8')
const A07 = '07-ibstat-a100-8x-ib-hdr200-plus-1-eth-mt4126.txt'
const HB = '01-ibstat-azure-hb120v3-hdr200-mlx5_ib0.txt'

const settings = (runId = '9'): Settings =>
  readSettings(reader({ ...VALID_APPLY }), { GITHUB_RUN_ID: runId }, { nonce: 'n0' }).settings

/** memory-kube, each request recorded in `calls` too (`request <what>`). */
const fakeKube = () => memoryKube({ say: { request: what => `request ${what}` } })

const running = { phase: 'Running', initContainerStatuses: [{ name: 'probe', state: { running: {} } }] }
const pending = { phase: 'Pending' }
const unschedulable = unschedulableStatus('0/3 nodes are available:\n Insufficient rdma')
const stuck = {
  phase: 'Pending',
  initContainerStatuses: [
    { name: 'probe', state: { waiting: { reason: 'ImagePullBackOff', message: 'pull denied' } } }
  ]
}

const progress = (log: ReturnType<typeof captureLog>) => log.lines.filter(l => / nodes probed$/.test(l))

afterEach(() => {
  jest.useRealTimers()
})

/** probeNodes on n1 alone, once it watches: the fake, the run and the probe's DaemonSet. */
async function probingN1() {
  const f = fakeKube()
  const s = settings()
  const run = probeNodes({ kube: f.kube, settings: s, nodes: ['n1'], timeoutMs: 60_000 })
  await watching(f.cluster)
  const ds = f.cluster.get('apps/v1', 'DaemonSet', probeName(s), NS)!
  return { f, run, ds }
}

describe('probeDaemonSet', () => {
  it('is one DaemonSet over the nodes: busybox probe init container, hold container, rdma/<name>: 1', () => {
    const s = settings()
    const ds = probeDaemonSet(s, ['n1', 'n2'], 'ns1')
    const labels = probeLabels(s)
    const resources = {
      requests: { 'rdma/hca_shared_devices_a': '1' },
      limits: { 'rdma/hca_shared_devices_a': '1' }
    }
    expect(ds).toEqual({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: probeName(s), namespace: 'ns1', labels },
      spec: {
        selector: { matchLabels: labels },
        updateStrategy: { type: 'OnDelete' },
        template: {
          metadata: { labels },
          spec: {
            nodeSelector: { 'kubernetes.azure.com/agentpool': s.nodePool.name },
            affinity: pinToNodes(['n1', 'n2']),
            tolerations: poolTolerations(s),
            automountServiceAccountToken: false,
            enableServiceLinks: false,
            terminationGracePeriodSeconds: 1,
            initContainers: [
              {
                name: 'probe',
                image: BUSYBOX_IMAGE,
                command: ['sh', '-c', PROBE_SCRIPT],
                terminationMessagePath: '/dev/termination-log',
                terminationMessagePolicy: 'File',
                resources
              }
            ],
            containers: [
              { name: 'hold', image: BUSYBOX_IMAGE, command: ['sh', '-c', 'sleep infinity'], resources }
            ]
          }
        }
      }
    })
    expect(probeDaemonSet(s, ['n1']).metadata.namespace).toBe(NS)
  })
})

describe('deleteDaemonSet', () => {
  it('deletes with grace 0 and background propagation; an absent one is no error, anything else is', async () => {
    const f = fakeKube()
    f.cluster.put({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'd1', namespace: 'ns1' } })
    await deleteDaemonSet(f.kube, 'd1', 'ns1')
    expect(f.cluster.get('apps/v1', 'DaemonSet', 'd1', 'ns1')).toBeUndefined()
    await deleteDaemonSet(f.kube, 'd1', 'ns1')
    expect(f.calls).toEqual([
      'request delete daemonset/d1 -n ns1',
      'delete DaemonSet ns1/d1 grace=0 Background',
      'request delete daemonset/d1 -n ns1',
      'delete DaemonSet ns1/d1 grace=0 Background'
    ])
    f.failNext.set('deleteNamespacedDaemonSet', apiError(403, 'Forbidden', 'cannot delete daemonsets'))
    await expect(deleteDaemonSet(f.kube, 'd1', 'ns1')).rejects.toThrow(
      'delete daemonset/d1 -n ns1: HTTP 403: cannot delete daemonsets'
    )
  })
})

describe('removeStaleProbes', () => {
  const NOW = Date.parse('2026-12-02T12:00:00Z')
  const ds = (name: string, runId: string, ageMs: number | undefined): KubeObject => ({
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: {
      name,
      namespace: NS,
      labels: probeLabels(settings(runId)),
      ...(ageMs === undefined ? {} : { creationTimestamp: new Date(NOW - ageMs).toISOString() })
    }
  })

  it('deletes other runs’ probes older than an hour (one list), keeps this run’s, younger ones and other components', async () => {
    const f = fakeKube()
    const s = settings('9')
    f.cluster.put(ds('old', '1', 3_600_001))
    f.cluster.put(ds('edge', '2', 3_600_000))
    f.cluster.put(ds('mine', '9', 99_000_000))
    f.cluster.put(ds('no-time', '3', undefined))
    f.cluster.put({
      ...ds('other-component', '4', 99_000_000),
      metadata: {
        ...ds('other-component', '4', 99_000_000).metadata,
        labels: { 'app.kubernetes.io/name': 'x' }
      }
    })
    f.cluster.put({
      ...ds('elsewhere', '5', 99_000_000),
      metadata: { ...ds('elsewhere', '5', 99_000_000).metadata, namespace: 'other' }
    })
    const log = captureLog()
    expect(await removeStaleProbes(f.kube, s, NS, log, NOW)).toEqual(['old'])
    expect(f.calls).toEqual([
      'list DaemonSet -n aks-rdma-verify -l app.kubernetes.io/name=aks-rdma-action,app.kubernetes.io/component=rdma-probe',
      'request delete daemonset/old -n aks-rdma-verify',
      'delete DaemonSet aks-rdma-verify/old grace=0 Background'
    ])
    expect(log.lines).toEqual(['info: node-probe: deleting daemonset/old left by an earlier run'])
    expect(f.cluster.all('apps/v1', 'DaemonSet').map(d => d.metadata.name)).toEqual([
      'edge',
      'mine',
      'no-time',
      'other-component',
      'elsewhere'
    ])
  })

  it('waits twice the step limit when that is longer than an hour; no delete without a leftover', async () => {
    const f = fakeKube()
    const base = settings('9')
    const s = { ...base, wait: { ...base.wait, stepTimeoutMs: 2_000_000 } }
    f.cluster.put(ds('young', '1', 3_999_999))
    f.cluster.put(ds('old', '2', 4_000_001))
    expect(await removeStaleProbes(f.kube, s, NS, undefined, NOW)).toEqual(['old'])
    const g = fakeKube()
    g.cluster.put(ds('young', '1', 10))
    expect(await removeStaleProbes(g.kube, s, NS, undefined, NOW)).toEqual([])
    expect(g.calls).toHaveLength(1)
  })

  it('counts age from now by default', async () => {
    const f = fakeKube()
    f.cluster.put({
      ...ds('ancient', '1', undefined),
      metadata: { ...ds('ancient', '1', undefined).metadata, creationTimestamp: '2000-01-01T00:00:00Z' }
    })
    f.cluster.put({
      ...ds('fresh', '2', undefined),
      metadata: { ...ds('fresh', '2', undefined).metadata, creationTimestamp: new Date().toISOString() }
    })
    expect(await removeStaleProbes(f.kube, settings('9'), NS)).toEqual(['ancient'])
  })
})

describe('probeNodes', () => {
  it('nothing to probe: no request at all', async () => {
    const f = fakeKube()
    expect(await probeNodes({ kube: f.kube, settings: settings(), nodes: [] })).toEqual(new Map())
    expect(f.calls).toEqual([])
  })

  it('one DaemonSet, waits until every node’s probe settled, reads each node’s facts, deletes the DaemonSet', async () => {
    const f = fakeKube()
    const s = settings()
    const log = captureLog()
    const msgA = probeMessage(ibstat(A07))
    const msgB = probeMessage(ibstat(HB), { memlock: '8192', peermem: '0' })
    const run = probeNodes({
      kube: f.kube,
      settings: s,
      nodes: ['n-a', 'n-b', 'n-c'],
      log,
      timeoutMs: 60_000
    })
    await watching(f.cluster)
    const ds = f.cluster.get('apps/v1', 'DaemonSet', probeName(s), NS)!
    // A pod on a node not asked for.
    f.cluster.put(dsPod(ds, 'n-x', terminated(0, msgA)))
    // A pod with the probe's labels that no DaemonSet owns (made by hand).
    f.cluster.put({
      ...dsPod(ds, 'n-b', terminated(0, msgA)),
      metadata: { name: 'by-hand', namespace: NS, labels: ds.spec.template.metadata.labels }
    })
    f.cluster.put(dsPod(ds, 'n-a', pending, { bound: false }))
    f.cluster.put(dsPod(ds, 'n-b', running))
    f.cluster.put(dsPod(ds, 'n-c', pending, { bound: false }))
    // A pod of an earlier DaemonSet of the same name (another uid), finished, listed after this probe's own: not this probe's.
    f.cluster.put({
      ...dsPod(ds, 'n-a', terminated(1, 'stale'), { uid: 'uid-old' }),
      metadata: {
        ...dsPod(ds, 'n-a', {}).metadata,
        name: 'old-n-a',
        ownerReferences: [{ uid: 'uid-old' } as never]
      }
    })
    await new Promise(r => setImmediate(r))
    f.cluster.put(dsPod(ds, 'n-a', terminated(0, msgA)))
    await new Promise(r => setImmediate(r))
    f.cluster.put(dsPod(ds, 'n-c', stuck, { bound: false }))
    await new Promise(r => setImmediate(r))
    f.cluster.put(dsPod(ds, 'n-b', terminated(0, msgB)))
    const facts = await run
    expect([...facts.keys()]).toEqual(['n-a', 'n-b', 'n-c'])
    expect(facts.get('n-a')).toEqual(parseProbeOutput('n-a', msgA))
    expect(facts.get('n-a')!.error).toBeNull()
    expect(facts.get('n-a')!.activeDevices).toHaveLength(8)
    expect(facts.get('n-b')).toEqual(parseProbeOutput('n-b', msgB))
    expect(facts.get('n-b')!.memlock).toBe('8192')
    expect(facts.get('n-c')!.error).toBe('probe container not started: ImagePullBackOff (pull denied)')
    expect(progress(log)).toEqual([
      'info: 0/3 nodes probed',
      'info: 1/3 nodes probed',
      'info: 2/3 nodes probed',
      'info: 3/3 nodes probed'
    ])
    const name = probeName(s)
    expect(f.calls).toEqual([
      `get Namespace/${NS}`,
      // The namespace it creates is recorded as the action's: pending before, its uid after.
      'get ConfigMap/aks-rdma-action-owned',
      'request create configmap kube-system/aks-rdma-action-owned',
      `apply Namespace/${NS}`,
      'request update configmap kube-system/aks-rdma-action-owned',
      'list DaemonSet -n aks-rdma-verify -l app.kubernetes.io/name=aks-rdma-action,app.kubernetes.io/component=rdma-probe',
      `request create daemonset/${name} -n ${NS}`,
      `create DaemonSet ${NS}/${name}`,
      `watch Pod -n ${NS} -l app.kubernetes.io/name=aks-rdma-action,app.kubernetes.io/component=rdma-probe,aks-rdma-action/run=${runLabel(s.runId)}`,
      `request delete daemonset/${name} -n ${NS}`,
      `delete DaemonSet ${NS}/${name} grace=0 Background`
    ])
    expect(f.cluster.get('apps/v1', 'DaemonSet', name, NS)).toBeUndefined()
    expect(f.cluster.all('v1', 'Pod').map(p => p.metadata.name)).toEqual(['by-hand', 'old-n-a'])
    expect(f.cluster.openWatches).toBe(0)
    expect(log.warnings).toEqual([])
  })

  it('an unschedulable probe pod is settled too; a probe that exited non-zero gives its code and reason', async () => {
    const f = fakeKube()
    const s = settings()
    const log = captureLog()
    const run = probeNodes({
      kube: f.kube,
      settings: s,
      nodes: ['n1', 'n2'],
      namespace: 'ns1',
      log,
      timeoutMs: 60_000
    })
    await watching(f.cluster)
    const ds = f.cluster.get('apps/v1', 'DaemonSet', probeName(s), 'ns1')!
    expect(ds.metadata.namespace).toBe('ns1')
    f.cluster.put(dsPod(ds, 'n1', unschedulable, { bound: false }))
    await new Promise(r => setImmediate(r))
    f.cluster.put(dsPod(ds, 'n2', terminated(3, '', 'Error')))
    const facts = await run
    expect(facts.get('n1')!.error).toBe('probe pod unschedulable: 0/3 nodes are available: Insufficient rdma')
    expect(facts.get('n2')!.error).toBe('probe exited 3 (Error); probe output unreadable (empty)')
    expect(progress(log)).toEqual([
      'info: 0/2 nodes probed',
      'info: 1/2 nodes probed',
      'info: 2/2 nodes probed'
    ])
    expect(f.calls).toContain(`get Namespace/ns1`)
    expect(f.calls.at(-1)).toBe(`delete DaemonSet ns1/${probeName(s)} grace=0 Background`)
  })

  it('a probe that exited non-zero without a reason, over output that reads fine', async () => {
    const { f, run, ds } = await probingN1()
    f.cluster.put(dsPod(ds, 'n1', terminated(2, probeMessage(ibstat(HB)))))
    expect((await run).get('n1')!.error).toBe('probe exited 2')
  })

  it('replaces a DaemonSet of its own name an interrupted attempt of this run left (409): delete, then create', async () => {
    const f = fakeKube()
    const s = settings()
    const name = probeName(s)
    f.cluster.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } })
    f.cluster.put({
      ...probeDaemonSet(s, ['n1'], NS),
      metadata: { ...probeDaemonSet(s, ['n1'], NS).metadata, uid: 'uid-left' }
    })
    const run = probeNodes({ kube: f.kube, settings: s, nodes: ['n1'], timeoutMs: 60_000 })
    await watching(f.cluster)
    const ds = f.cluster.get('apps/v1', 'DaemonSet', name, NS)!
    expect(ds.metadata.uid).not.toBe('uid-left')
    // The leftover's pod is not this DaemonSet's.
    f.cluster.put({
      ...dsPod(ds, 'n1', terminated(9, 'x'), { uid: 'uid-left' }),
      metadata: { ...dsPod(ds, 'n1', {}, { uid: 'uid-left' }).metadata, name: 'left-n1' }
    })
    await new Promise(r => setImmediate(r))
    f.cluster.put(dsPod(ds, 'n1', terminated(0, probeMessage(ibstat(HB)))))
    expect((await run).get('n1')!.error).toBeNull()
    expect(f.calls.slice(1, 8)).toEqual([
      'list DaemonSet -n aks-rdma-verify -l app.kubernetes.io/name=aks-rdma-action,app.kubernetes.io/component=rdma-probe',
      `request create daemonset/${name} -n ${NS}`,
      `create DaemonSet ${NS}/${name}`,
      `request delete daemonset/${name} -n ${NS}`,
      `delete DaemonSet ${NS}/${name} grace=0 Background`,
      `request create daemonset/${name} -n ${NS}`,
      `create DaemonSet ${NS}/${name}`
    ])
  })

  it('a create that fails otherwise fails the probe, with nothing to delete', async () => {
    const f = fakeKube()
    const s = settings()
    const kube = f.kube as unknown as { apps: { createNamespacedDaemonSet: () => Promise<never> } }
    kube.apps.createNamespacedDaemonSet = async () => {
      throw apiError(403, 'Forbidden', 'cannot create daemonsets')
    }
    await expect(probeNodes({ kube: f.kube, settings: s, nodes: ['n1'] })).rejects.toThrow(
      `create daemonset/${probeName(s)} -n ${NS}: HTTP 403: cannot create daemonsets`
    )
    expect(f.calls.filter(c => c.startsWith('request delete'))).toEqual([])
  })

  it('at the deadline: the facts of the pods as last seen, in the limit’s seconds (the step limit by default)', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] })
    const f = fakeKube()
    const base = settings()
    const s = { ...base, wait: { ...base.wait, stepTimeoutMs: 7_000 } }
    const log = captureLog()
    const run = probeNodes({ kube: f.kube, settings: s, nodes: ['n1', 'n2', 'n3'], log })
    await watching(f.cluster)
    const ds = f.cluster.get('apps/v1', 'DaemonSet', probeName(s), NS)!
    f.cluster.put(dsPod(ds, 'n1', running))
    f.cluster.put(dsPod(ds, 'n2', terminated(0, probeMessage(ibstat(HB)))))
    await new Promise(r => setImmediate(r))
    await jest.advanceTimersByTimeAsync(6_999)
    let done = false
    void run.then(() => (done = true))
    await new Promise(r => setImmediate(r))
    expect(done).toBe(false)
    await jest.advanceTimersByTimeAsync(1)
    const facts = await run
    expect(facts.get('n1')!.error).toBe('probe did not finish within 7s (pod Running)')
    expect(facts.get('n2')!.error).toBeNull()
    expect(facts.get('n3')!.error).toBe('no probe pod on the node within 7s')
    expect(progress(log)).toEqual(['info: 0/3 nodes probed', 'info: 1/3 nodes probed'])
    expect(f.cluster.get('apps/v1', 'DaemonSet', probeName(s), NS)).toBeUndefined()
  })

  it('an explicit limit wins over the step limit', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] })
    const f = fakeKube()
    const run = probeNodes({ kube: f.kube, settings: settings(), nodes: ['n1'], timeoutMs: 3_000 })
    await watching(f.cluster)
    await jest.advanceTimersByTimeAsync(3_000)
    expect((await run).get('n1')!.error).toBe('no probe pod on the node within 3s')
  })

  it('a watch that fails (not a timeout) fails the probe, and the DaemonSet is still deleted', async () => {
    const f = fakeKube()
    const s = settings()
    f.failNext.set('watchList', apiError(403, 'Forbidden', 'cannot list pods'))
    await expect(probeNodes({ kube: f.kube, settings: s, nodes: ['n1'] })).rejects.toThrow('cannot list pods')
    expect(f.calls.at(-1)).toBe(`delete DaemonSet ${NS}/${probeName(s)} grace=0 Background`)
    expect(f.cluster.get('apps/v1', 'DaemonSet', probeName(s), NS)).toBeUndefined()
  })

  it('a delete that fails is only a warning naming the kubectl command; the facts stand', async () => {
    const f = fakeKube()
    const s = settings()
    const log = captureLog()
    const run = probeNodes({ kube: f.kube, settings: s, nodes: ['n1'], timeoutMs: 60_000, log })
    await watching(f.cluster)
    const ds = f.cluster.get('apps/v1', 'DaemonSet', probeName(s), NS)!
    f.failNext.set('deleteNamespacedDaemonSet', apiError(500, 'InternalError', 'etcd timeout'))
    f.cluster.put(dsPod(ds, 'n1', terminated(0, probeMessage(ibstat(HB)))))
    expect((await run).get('n1')!.error).toBeNull()
    expect(log.warnings).toEqual([
      `could not delete the probe DaemonSet (kubectl delete daemonset ${probeName(s)} -n ${NS}): delete daemonset/${probeName(s)} -n ${NS}: HTTP 500: etcd timeout`
    ])
  })

  it('without a log, a failed delete is said nowhere and the facts still come back', async () => {
    const { f, run, ds } = await probingN1()
    f.failNext.set('deleteNamespacedDaemonSet', apiError(500, 'InternalError', 'etcd timeout'))
    f.cluster.put(dsPod(ds, 'n1', stuck))
    expect((await run).get('n1')!.error).toBe('probe container not started: ImagePullBackOff (pull denied)')
  })
})
