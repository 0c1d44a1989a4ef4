// The last run's record (src/stack/last-run.ts): parsed as untrusted text, written into an existing
// ownership record over the resourceVersion read (read again when another writer moved it), never
// creating the record, and kept by the record's own writes of its entries.
import { describe, expect, it } from '@jest/globals'
import type { KubeRef } from '../../../src/kube/types.js'
import { LAST_RUN_KEY, parseLastRun, readLastRun, recordLastRun } from '../../../src/stack/last-run.js'
import { OWNERSHIP_RECORD, OwnershipRecord, kubeRecordStore } from '../../../src/stack/ownership.js'
import { memoryRecordClient } from '../../support/memory-record.js'

const RUN = {
  at: '2026-12-07T05:00:00.000Z',
  mode: 'apply',
  result: 'success',
  version: '1.2.3',
  runId: 'r/1'
}

const setup = memoryRecordClient

const nsRef: KubeRef = { apiVersion: 'v1', kind: 'Namespace', name: 'gpu-operator' }

describe('parseLastRun', () => {
  it('takes only its shape: other text, other types, a time that is not one give nothing', () => {
    expect(parseLastRun(JSON.stringify(RUN))).toEqual(RUN)
    expect(parseLastRun(JSON.stringify({ ...RUN, extra: '<script>' }))).toEqual(RUN)
    expect(parseLastRun('not json')).toBeUndefined()
    expect(parseLastRun('null')).toBeUndefined()
    expect(parseLastRun(JSON.stringify({ ...RUN, result: 3 }))).toBeUndefined()
    expect(parseLastRun(JSON.stringify({ ...RUN, at: 'yesterday' }))).toBeUndefined()
    expect(parseLastRun(JSON.stringify({ ...RUN, runId: 'x'.repeat(201) }))).toBeUndefined()
    expect(parseLastRun(undefined)).toBeUndefined()
  })
})

describe('recordLastRun', () => {
  it('no record: nothing written, absent', async () => {
    const { client, calls } = setup()
    expect(await recordLastRun(client, RUN)).toBe('absent')
    expect(calls).toEqual([])
  })

  it('into the record beside its entries, which the record’s own writes keep', async () => {
    const { client, cluster, sent } = setup()
    const record = new OwnershipRecord(kubeRecordStore(client), 'run-1')
    await record.created(nsRef, { uid: 'u-1' })
    expect(await recordLastRun(client, RUN)).toBe('recorded')
    // The last run goes in as the v1 ConfigMap the record is.
    expect(sent.at(-1)).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap' })
    expect(await readLastRun(client)).toEqual(RUN)
    // A later run writes its entries over the version it read: the last run stays.
    const later = new OwnershipRecord(kubeRecordStore(client), 'run-2')
    await later.created({ ...nsRef, name: 'network-operator' }, { uid: 'u-2' })
    const live = cluster.get('v1', 'ConfigMap', OWNERSHIP_RECORD.name, OWNERSHIP_RECORD.namespace)!
    expect(Object.keys(live.data as object).sort()).toEqual([LAST_RUN_KEY, 'owned.json'])
    expect(await readLastRun(client)).toEqual(RUN)
  })

  it('another writer moved the record between the read and the write: read again, written over theirs', async () => {
    let moved = false
    const s = setup(() => {
      if (moved) return
      moved = true
      // Another run's entry lands first.
      const live = s.cluster.get('v1', 'ConfigMap', OWNERSHIP_RECORD.name, OWNERSHIP_RECORD.namespace)!
      s.cluster.put({ ...live, data: { ...(live.data as object), 'owned.json': '[]' } })
    })
    const record = new OwnershipRecord(kubeRecordStore(s.client), 'run-1')
    moved = true
    await record.created(nsRef, { uid: 'u-1' })
    moved = false
    s.calls.length = 0
    expect(await recordLastRun(s.client, RUN)).toBe('recorded')
    expect(s.calls).toEqual(['update record', 'update record'])
    const live = s.cluster.get('v1', 'ConfigMap', OWNERSHIP_RECORD.name, OWNERSHIP_RECORD.namespace)!
    expect((live.data as Record<string, string>)['owned.json']).toBe('[]')
    expect(await readLastRun(s.client)).toEqual(RUN)
  })
})
