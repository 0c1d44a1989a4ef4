// The ownership record (src/stack/ownership.ts): what proves an object or a release the action's
// (the recorded uid, the recorded chart and first deployment; a pending entry only with the run's
// created-by label, or a release first deployed after it) and what never does (a label alone, a
// pre-made or re-created object); the record's text read as hostile; writes over the
// resourceVersion read, read again and redone when another writer moved it; an empty record deleted.
import { describe, expect, it } from '@jest/globals'
import type { KubeObject, KubeRef } from '../../../src/kube/types.js'
import {
  kubeRecordStore,
  OwnershipRecord,
  parseEntries,
  proofOfObject,
  proofOfRelease,
  releaseRef,
  type OwnedEntry
} from '../../../src/stack/ownership.js'
import { memoryRecordClient, recordedEntries } from '../../support/memory-record.js'

const entry = (o: Partial<OwnedEntry> = {}): OwnedEntry => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  name: 'gpu-operator',
  runId: '7-1/apply/0123456789ab',
  at: '2026-12-07T05:00:00.000Z',
  state: 'created',
  ...o
})
const ns = (uid: string, labels: Record<string, string> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name: 'gpu-operator', uid, labels }
})

describe('proofOfObject', () => {
  it('the recorded uid proves it; another uid (made again by someone else) does not', () => {
    expect(proofOfObject(entry({ uid: 'u-1' }), ns('u-1')).owned).toBe(true)
    const p = proofOfObject(entry({ uid: 'u-1' }), ns('u-2'))
    expect(p).toEqual({
      owned: false,
      why: 'its uid u-2 is not the recorded u-1: someone else made it again'
    })
  })

  it('no entry: never the action’s, whatever its labels say', () => {
    const forged = ns('u-1', {
      'aks-rdma-action/created-by': '7-1-apply-0123456789ab',
      'aks-rdma-action/managed': 'true'
    })
    expect(proofOfObject(undefined, forged)).toEqual({
      owned: false,
      why: "not in the action's ownership record kube-system/aks-rdma-action-owned"
    })
  })

  it('a pending entry proves it only with that run’s created-by label', () => {
    const pending = entry({ state: 'pending' })
    expect(
      proofOfObject(pending, ns('u-1', { 'aks-rdma-action/created-by': '7-1-apply-0123456789ab' })).owned
    ).toBe(true)
    expect(proofOfObject(pending, ns('u-1', { 'aks-rdma-action/created-by': 'someone-else' })).owned).toBe(
      false
    )
    expect(proofOfObject(pending, ns('u-1')).owned).toBe(false)
  })
})

describe('proofOfRelease', () => {
  const rel = (o: Partial<OwnedEntry> = {}) =>
    entry({ apiVersion: 'helm.sh/v3', kind: 'HelmRelease', chart: 'gpu-operator', ...o })

  it('the recorded chart and first deployment prove it; installed again by hand, or another chart, does not', () => {
    const e = rel({ firstDeployed: '2026-12-07T05:01:02.123456789Z' })
    expect(
      proofOfRelease(e, { chartName: 'gpu-operator', firstDeployed: '2026-12-07T05:01:02.123456789Z' }).owned
    ).toBe(true)
    expect(
      proofOfRelease(e, { chartName: 'gpu-operator', firstDeployed: '2026-12-07T06:00:00Z' })
    ).toMatchObject({
      owned: false,
      why: expect.stringContaining('installed again by someone else')
    })
    expect(
      proofOfRelease(e, { chartName: 'network-operator', firstDeployed: e.firstDeployed })
    ).toMatchObject({
      owned: false,
      why: 'it runs chart network-operator, the record chart gpu-operator'
    })
    expect(
      proofOfRelease(undefined, { chartName: 'gpu-operator', firstDeployed: e.firstDeployed }).owned
    ).toBe(false)
  })

  it('a pending entry proves a release first deployed at or after it, never one from before', () => {
    const e = rel({ state: 'pending', at: '2026-12-07T05:00:00.500Z' })
    expect(
      proofOfRelease(e, { chartName: 'gpu-operator', firstDeployed: '2026-12-07T05:00:00.500000001Z' }).owned
    ).toBe(true)
    expect(
      proofOfRelease(e, { chartName: 'gpu-operator', firstDeployed: '2026-12-07T05:00:00.499999Z' }).owned
    ).toBe(false)
    expect(proofOfRelease(e, { chartName: 'gpu-operator' }).owned).toBe(false)
  })
})

describe('parseEntries', () => {
  it('keeps entries of the right shape and drops the rest (the text is the cluster’s)', () => {
    const good = entry({ uid: 'u-1' })
    const text = JSON.stringify([
      good,
      { ...good, state: 'owned' },
      { name: 'x' },
      null,
      'a',
      { ...good, name: 5 }
    ])
    expect(parseEntries(text)).toEqual([good])
    expect(parseEntries('{not json')).toEqual([])
    expect(parseEntries('{"a":1}')).toEqual([])
    expect(parseEntries(undefined)).toEqual([])
  })
})

describe('OwnershipRecord', () => {
  function setup() {
    const { cluster, calls, sent, client } = memoryRecordClient()
    let t = 0
    const now = () => new Date(Date.UTC(2026, 11, 7, 5, 0, t++))
    const store = kubeRecordStore(client)
    return { cluster, calls, sent, store, record: new OwnershipRecord(store, 'run-1', now) }
  }
  const nsRef: KubeRef = { apiVersion: 'v1', kind: 'Namespace', name: 'gpu-operator' }

  it('pending, then created with the uid; forget drops it and an empty record is deleted', async () => {
    const { cluster, calls, sent, record } = setup()
    await record.pending(nsRef)
    expect(recordedEntries(cluster)).toEqual([
      { ...nsRef, runId: 'run-1', at: '2026-12-07T05:00:00.000Z', state: 'pending' }
    ])
    await record.created(nsRef, { uid: 'u-1' })
    await record.created(releaseRef('gpu-operator', 'gpu-operator'), {
      chart: 'gpu-operator',
      firstDeployed: 'x'
    })
    expect(recordedEntries(cluster)?.map(e => [e.kind, e.name, e.state, e.uid ?? e.firstDeployed])).toEqual([
      ['Namespace', 'gpu-operator', 'created', 'u-1'],
      ['HelmRelease', 'gpu-operator', 'created', 'x']
    ])
    expect((await record.find({ ...nsRef, namespace: undefined }))?.uid).toBe('u-1')
    await record.forget(nsRef)
    await record.forget(nsRef)
    await record.forget(releaseRef('gpu-operator', 'gpu-operator'))
    expect(recordedEntries(cluster)).toBeUndefined()
    expect(calls).toEqual([
      'create record',
      'update record',
      'update record',
      'update record',
      'delete record'
    ])
    // Every write sends the record as the v1 ConfigMap it is.
    expect(sent.map(b => [b.apiVersion, b.kind])).toEqual(calls.slice(0, -1).map(() => ['v1', 'ConfigMap']))
  })

  it('another writer moved the record: read again, the change made again over theirs', async () => {
    const a = setup()
    await a.record.created(nsRef, { uid: 'u-1' })
    // Another run writes an entry of its own meanwhile.
    const other = new OwnershipRecord(a.store, 'run-2')
    await other.created(
      { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'kube-system', name: 'rdma-devices' },
      { uid: 'u-2' }
    )
    await a.record.forget(nsRef)
    expect(recordedEntries(a.cluster)?.map(e => [e.name, e.runId])).toEqual([['rdma-devices', 'run-2']])
    // Its stale view was empty after the change: the delete's precondition refused it, the update after did not.
    expect(a.calls).toEqual(['create record', 'update record', 'delete record', 'update record'])
  })
})
