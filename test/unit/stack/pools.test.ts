// The managed pools (src/stack/pool-record.ts, src/stack/pools.ts, src/model/stack-pools.ts): the
// record's pools key read as hostile text (absent ≠ empty), the reader other modes use, the
// cluster-wide objects rendered for the union (NicClusterPolicy affinity and tolerations, the
// DaemonSets' and the NFD worker's affinity), the pools written into the record beside the entries
// (and the record deleted only when both are empty), an earlier version's pool taken from the
// NicClusterPolicy the record proves, when apply must write its pool, and a driver pod of another
// CPU architecture (two pools' architectures on one OS and kernel) failing at once.
import { describe, expect, it } from '@jest/globals'
import { ibNodeConfigDaemonSet } from '../../../src/components/ib-node-config.js'
import { networkOperatorValues } from '../../../src/components/network-operator.js'
import { driverArchFinding, nicClusterPolicySpec } from '../../../src/components/nic-cluster-policy.js'
import { rdmaDevicePluginManifests } from '../../../src/components/rdma-device-plugin.js'
import type { KubeObject, KubeRef } from '../../../src/kube/types.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import type { Settings } from '../../../src/settings/settings.js'
import {
  kubeRecordStore,
  managedPools,
  OwnershipRecord,
  type OwnedEntry
} from '../../../src/stack/ownership.js'
import { parsePools, type PoolEntry } from '../../../src/stack/pool-record.js'
import { applyNeedsPoolWrite, legacyPools, settingsWithPools } from '../../../src/stack/pools.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'
import { MemoryCluster } from '../../support/memory-cluster.js'
import { memoryRecordClient } from '../../support/memory-record.js'

const settings = (over: Record<string, string> = {}): Settings =>
  readSettings(reader({ ...VALID_APPLY, ...over })).settings
const pool = (name: string, o: Partial<PoolEntry> = {}): PoolEntry => ({
  name,
  state: 'managed',
  taints: [],
  runId: 'run-0',
  at: '2026-12-07T05:00:00.000Z',
  ...o
})
const affinityValues = (affinity: any): string[] =>
  affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions.find(
    (e: { key: string }) => e.key === 'kubernetes.azure.com/agentpool'
  ).values

describe('the record’s pools key', () => {
  it('absent is undefined (an earlier version’s record), malformed entries are dropped', () => {
    expect(parsePools(undefined)).toBeUndefined()
    expect(parsePools('not json')).toEqual([])
    expect(parsePools('{"name":"a"}')).toEqual([])
    const text = JSON.stringify([
      pool('rdmapool', { taints: ['sku=gpu:NoSchedule'], vmSize: 'Standard_ND96isr_H100_v5' }),
      pool('Bad-Name'),
      pool('poolb', { state: 'gone' as never }),
      pool('poolc', { taints: ['sku=gpu;rm -rf:NoSchedule'] }),
      pool('rdmapool', { state: 'leaving' }),
      pool('poold', { state: 'leaving' })
    ])
    expect(parsePools(text)?.map(p => [p.name, p.state, p.taints])).toEqual([
      ['rdmapool', 'managed', ['sku=gpu:NoSchedule']],
      ['poold', 'leaving', []]
    ])
  })

  it('managedPools: every pool not leaving, sorted; none without a record', () => {
    expect(
      managedPools({
        pools: [pool('zeta'), pool('alpha', { state: 'pending' }), pool('mid', { state: 'leaving' })]
      })
    ).toEqual(['alpha', 'zeta'])
    expect(managedPools(undefined)).toEqual([])
    expect(managedPools({})).toEqual([])
  })
})

describe('the cluster-wide objects for several pools', () => {
  const two = (): Settings =>
    settingsWithPools(settings({ 'node-pool': 'poolb', 'node-taints': 'team=b:NoSchedule' }), [
      pool('rdmapool', { taints: ['sku=gpu:NoSchedule'] })
    ])

  it('one pool: the run’s own, as before (by affinity)', () => {
    const s = settings()
    expect(affinityValues({ nodeAffinity: nicClusterPolicySpec(s).nodeAffinity })).toEqual(['rdmapool'])
  })

  it('the NicClusterPolicy selects the union and tolerates every pool’s taints; its IB label stays', () => {
    const spec = nicClusterPolicySpec(two()) as any
    const exprs =
      spec.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions
    expect(exprs).toEqual([
      { key: 'feature.node.kubernetes.io/pci-15b3.present', operator: 'In', values: ['true'] },
      { key: 'kubernetes.azure.com/agentpool', operator: 'In', values: ['poolb', 'rdmapool'] }
    ])
    expect(spec.tolerations).toEqual([
      { key: 'team', operator: 'Equal', value: 'b', effect: 'NoSchedule' },
      { key: 'sku', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }
    ])
  })

  it('ib-node-config, the device plugin and the NFD worker select the union, and tolerate every taint', () => {
    const s = two()
    const ib = (ibNodeConfigDaemonSet(s).spec as any).template.spec
    const dp = (rdmaDevicePluginManifests(s)[1].spec as any).template.spec
    const nfd = (networkOperatorValues(s)['node-feature-discovery'] as any).worker
    for (const spec of [ib, dp, nfd]) {
      expect(affinityValues(spec.affinity)).toEqual(['poolb', 'rdmapool'])
      expect(spec.tolerations.map((t: { key: string }) => t.key)).toEqual(['nvidia.com/gpu', 'team', 'sku'])
    }
    expect(ib.nodeSelector).toBeUndefined()
    // Pipelined rollout: the plugin also waits for the node's driver (a selector on the mofed label only).
    expect(dp.nodeSelector).toEqual({ 'network.nvidia.com/operator.mofed.wait': 'false' })
  })

  it('a pool being taken out is not selected; the run’s own pool always is', () => {
    const s = settingsWithPools(settings(), [
      pool('poolb', { state: 'leaving' }),
      pool('poolc', { state: 'pending' })
    ])
    expect(s.stackPools?.map(p => p.name)).toEqual(['poolc', 'rdmapool'])
  })
})

describe('the pools in the ownership record', () => {
  function setup() {
    const { cluster, calls, client } = memoryRecordClient()
    const store = kubeRecordStore(client)
    return { cluster, calls, store, client, record: new OwnershipRecord(store, 'run-1') }
  }
  const cm = (cluster: MemoryCluster) =>
    cluster.get('v1', 'ConfigMap', 'aks-rdma-action-owned', 'kube-system')
  const nsRef: KubeRef = { apiVersion: 'v1', kind: 'Namespace', name: 'gpu-operator' }

  it('are written beside the entries; entry changes keep them; the record goes only when both are empty', async () => {
    const { cluster, calls, record, store } = setup()
    await record.created(nsRef, { uid: 'u-1' })
    expect(cm(cluster)?.data?.['pools.json']).toBeUndefined()
    await record.changePools(current => [...(current ?? []), pool('rdmapool', { state: 'pending' })])
    await record.forget(nsRef)
    // The entries are gone, the pool is not: the record stays.
    expect(JSON.parse(cm(cluster)?.data?.['pools.json'] ?? '[]').map((p: PoolEntry) => p.name)).toEqual([
      'rdmapool'
    ])
    expect(managedPools(await store.read())).toEqual(['rdmapool'])
    await record.changePools(() => [])
    expect(cm(cluster)).toBeUndefined()
    expect(calls).toEqual(['create record', 'update record', 'update record', 'delete record'])
  })

  it('another writer’s pool is kept: the change is made again over theirs', async () => {
    const a = setup()
    await a.record.changePools(() => [pool('rdmapool')])
    const other = new OwnershipRecord(a.store, 'run-2')
    await other.changePools(current => [...(current ?? []), pool('poolb', { state: 'pending' })])
    // a's view is stale; its write is refused (409), read again and redone.
    await a.record.changePools(current => [...(current ?? []), pool('poolc', { state: 'pending' })])
    expect(managedPools(await a.store.read())).toEqual(['poolb', 'poolc', 'rdmapool'])
  })

  it('an earlier version’s record: the pool its NicClusterPolicy selects, once the recorded uid proves it', async () => {
    const policy: KubeObject = {
      apiVersion: 'mellanox.com/v1alpha1',
      kind: 'NicClusterPolicy',
      metadata: { name: 'nic-cluster-policy', uid: 'ncp-1' },
      spec: { ...nicClusterPolicySpec(settings({ 'node-taints': 'sku=gpu:NoSchedule' })) }
    }
    const kube = { get: async (ref: KubeRef) => (ref.kind === 'NicClusterPolicy' ? policy : undefined) }
    const entry: OwnedEntry = {
      apiVersion: 'mellanox.com/v1alpha1',
      kind: 'NicClusterPolicy',
      name: 'nic-cluster-policy',
      uid: 'ncp-1',
      runId: 'run-0',
      at: '2026-01-01T00:00:00.000Z',
      state: 'created'
    }
    const found = await legacyPools(kube, [entry], { runId: 'run-1', at: 'now' })
    expect(found.pools.map(p => [p.name, p.state, p.taints])).toEqual([
      ['rdmapool', 'managed', ['sku=gpu:NoSchedule']]
    ])
    expect(found.how).toContain('recorded uid ncp-1')
    // Re-created by someone else (another uid): nothing is taken from it.
    const other = await legacyPools(kube, [{ ...entry, uid: 'ncp-0' }], { runId: 'run-1', at: 'now' })
    expect(other.pools).toEqual([])
    expect(other.how).toContain("is not the action's")
    // Not in the record at all: nothing either.
    expect((await legacyPools(kube, [], { runId: 'run-1', at: 'now' })).pools).toEqual([])
  })
})

describe('when apply writes its pool', () => {
  const s = () => settings({ 'node-taints': 'sku=gpu:NoSchedule' })
  const mine = (o: Partial<PoolEntry> = {}) =>
    pool('rdmapool', { taints: ['sku=gpu:NoSchedule'], vmSize: 'Standard_ND96isr_H100_v5', ...o })

  it('not for a managed pool as given; for a missing, pending or leaving one, changed taints or size, or a record without pools', () => {
    expect(applyNeedsPoolWrite(s(), { pools: [mine()], legacy: false })).toBe(false)
    expect(applyNeedsPoolWrite(s(), { pools: [], legacy: false })).toBe(true)
    expect(applyNeedsPoolWrite(s(), { pools: [mine({ state: 'pending' })], legacy: false })).toBe(true)
    expect(applyNeedsPoolWrite(s(), { pools: [mine({ state: 'leaving' })], legacy: false })).toBe(true)
    expect(applyNeedsPoolWrite(s(), { pools: [mine({ taints: [] })], legacy: false })).toBe(true)
    expect(
      applyNeedsPoolWrite(s(), { pools: [mine({ vmSize: 'Standard_ND96asr_v4' })], legacy: false })
    ).toBe(true)
    expect(applyNeedsPoolWrite(s(), { pools: [mine()], legacy: true })).toBe(true)
  })
})

describe('a driver of another CPU architecture', () => {
  const node = (arch: string): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'n1', labels: { 'kubernetes.io/arch': arch } }
  })
  const pod = (tag: string): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'mofed-1' },
    spec: { containers: [{ name: 'mofed-container', image: `nvcr.io/nvidia/mellanox/doca-driver:${tag}` }] }
  })

  it('fails at once on the node, naming the image, both architectures and the fix; the same architecture passes', () => {
    const bad = driverArchFinding(node('arm64'), [pod('doca3.4.1-ubuntu24.04-amd64')])
    expect(bad).toMatchObject({ ok: false, blocked: true })
    expect(!bad.ok && bad.detail).toMatch(
      /doca3\.4\.1-ubuntu24\.04-amd64, built for amd64, on this arm64 node.*os-sku Ubuntu2204/
    )
    expect(driverArchFinding(node('arm64'), [pod('doca3.4.1-ubuntu24.04-arm64')]).ok).toBe(true)
    expect(driverArchFinding(node('amd64'), [pod('doca3.4.1-ubuntu22.04-amd64')]).ok).toBe(true)
    // A tag without an architecture (a custom image) says nothing.
    expect(driverArchFinding(node('arm64'), [pod('custom')]).ok).toBe(true)
  })
})
