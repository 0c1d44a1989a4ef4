// The pools the action manages, for all-pools: the ownership record's pools.json (the entries
// pool-record.ts reads) with the run's node-pool first and each once; a pool being taken out
// (leaving) is not checked; entries not of the record's form are left out and counted; no record,
// or no key, is the run's pool.
import { describe, expect, it } from '@jest/globals'
import { managedPools } from '../../../src/stack/managed-pools.js'
import { memoryKube } from '../../support/memory-kube.js'

const record = (data: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'aks-rdma-action-owned', namespace: 'kube-system' },
  data
})
const entry = (name: unknown, state = 'managed') => ({
  name,
  state,
  taints: [],
  runId: 'r-1',
  at: '2026-12-07T00:00:00Z'
})
const pools = (...e: unknown[]) => ({ 'pools.json': JSON.stringify(e) })

describe('managedPools', () => {
  it('lists the run’s pool first, then the record’s, each once; a leaving pool is not one', async () => {
    const { kube } = memoryKube({
      objects: [
        record({
          ...pools(entry('gpub'), entry('rdmapool'), entry('gpuc', 'pending'), entry('gpud', 'leaving')),
          'owned.json': '[]'
        })
      ]
    })
    expect(await managedPools(kube, 'rdmapool')).toEqual({ pools: ['rdmapool', 'gpub', 'gpuc'] })
  })

  it('is the run’s pool alone without a record or its pools key', async () => {
    expect(await managedPools(memoryKube().kube, 'rdmapool')).toEqual({ pools: ['rdmapool'] })
    const { kube } = memoryKube({ objects: [record({ 'owned.json': '[]' })] })
    expect(await managedPools(kube, 'rdmapool')).toEqual({ pools: ['rdmapool'] })
  })

  it('says how many entries it ignored, never quoting them', async () => {
    const { kube } = memoryKube({
      objects: [record(pools(entry('gpub'), entry('$(reboot)'), entry('x', 'odd')))]
    })
    const r = await managedPools(kube, 'rdmapool')
    expect(r.pools).toEqual(['rdmapool', 'gpub'])
    expect(r.note).toContain('ignored 2 entries')
    expect(r.note).not.toContain('reboot')
  })
})
