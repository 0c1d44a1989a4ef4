// The pools the action manages, for all-pools: the ownership record's `pools` key (a JSON array of
// AKS pool names) with the run's node-pool first and each once; names that are not AKS pool names
// and values that are not arrays are left out and said; no record, or no key, is the run's pool.
import { describe, expect, it } from '@jest/globals'
import { managedPools, parsePools } from '../../../src/stack/managed-pools.js'
import { memoryKube } from '../../support/memory-kube.js'

const record = (data: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'aks-rdma-action-owned', namespace: 'kube-system' },
  data
})

describe('parsePools', () => {
  it('keeps AKS pool names and names the rest', () => {
    expect(parsePools('["gpua","gpub"]')).toEqual({ pools: ['gpua', 'gpub'], bad: [] })
    expect(parsePools('["gpua","Bad Name","thisnameistoolong",3]')).toEqual({
      pools: ['gpua'],
      bad: ['"Bad Name"', '"thisnameistoolong"', '3']
    })
    expect(parsePools('{"a":1}').bad).toEqual(['not a JSON array'])
    expect(parsePools('not json').bad).toEqual(['not a JSON array'])
    expect(parsePools(undefined)).toEqual({ pools: [], bad: [] })
    expect(parsePools('  ')).toEqual({ pools: [], bad: [] })
  })
})

describe('managedPools', () => {
  it('lists the run’s pool first, then the record’s, each once', async () => {
    const { kube } = memoryKube({
      objects: [record({ pools: '["gpub","rdmapool","gpuc"]', 'owned.json': '{}' })]
    })
    expect(await managedPools(kube, 'rdmapool')).toEqual({ pools: ['rdmapool', 'gpub', 'gpuc'] })
  })

  it('is the run’s pool alone without a record or its pools key', async () => {
    expect(await managedPools(memoryKube().kube, 'rdmapool')).toEqual({ pools: ['rdmapool'] })
    const { kube } = memoryKube({ objects: [record({ 'owned.json': '{}' })] })
    expect(await managedPools(kube, 'rdmapool')).toEqual({ pools: ['rdmapool'] })
  })

  it('says what it ignored', async () => {
    const { kube } = memoryKube({ objects: [record({ pools: '["gpub","$(reboot)"]' })] })
    const r = await managedPools(kube, 'rdmapool')
    expect(r.pools).toEqual(['rdmapool', 'gpub'])
    expect(r.note).toContain('kube-system/aks-rdma-action-owned pools: ignored "$(reboot)"')
  })
})
