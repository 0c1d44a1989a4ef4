// The report's own rules: a step's record from its start and end, the result each kind of failure
// calls for (and drift only when nothing failed), whether drift was found whatever else failed, what
// fixes a drifted field in words, and the JSON file as written.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { driftFix } from '../../../src/drift/item.js'
import {
  deriveResult,
  driftFound,
  emptyReport,
  finishedStep,
  writeReportFile,
  type Report
} from '../../../src/report/report.js'
import { driftItem } from '../../support/drift-items.js'

describe('a finished step', () => {
  it('records its name, status, times and duration, unchanged and without detail by default', () => {
    expect(finishedStep('feature', 'success', 1_000, {}, 4_500)).toEqual({
      name: 'feature',
      status: 'success',
      changed: false,
      durationMs: 3_500,
      startedAt: '1970-01-01T00:00:01.000Z',
      finishedAt: '1970-01-01T00:00:04.500Z',
      detail: ''
    })
  })

  it('carries what it did, its detail and the version it left when given', () => {
    expect(
      finishedStep(
        'gpu-operator',
        'success',
        0,
        { changed: true, action: 'updated', detail: 'chart v25', version: { from: 'v24', to: 'v25' } },
        10
      )
    ).toMatchObject({
      changed: true,
      action: 'updated',
      detail: 'chart v25',
      version: { from: 'v24', to: 'v25' }
    })
  })
})

describe('the result a report calls for', () => {
  const base = (): Report => emptyReport('apply')
  const step = (status: 'success' | 'failure' | 'warning') => finishedStep('s', status, 0, {}, 1)

  it('is success when nothing failed and nothing drifted', () => {
    expect(deriveResult({ ...base(), steps: [step('success'), step('warning')], drift: [] })).toBe('success')
  })

  it('is failure for a failed step, a failed check, a failed benchmark pair or a failed transport check', () => {
    expect(deriveResult({ ...base(), steps: [step('success'), step('failure')] })).toBe('failure')
    expect(
      deriveResult({
        ...base(),
        checks: [
          { name: 'a', status: 'pass', detail: '', nodes: [] },
          { name: 'b', status: 'fail', detail: '', nodes: [] }
        ]
      } as Report)
    ).toBe('failure')
    expect(
      deriveResult({
        ...base(),
        benchmark: { pairs: [{ verdict: 'pass' }, { verdict: 'fail' }] }
      } as unknown as Report)
    ).toBe('failure')
    expect(deriveResult({ ...base(), transport: { verdict: 'fail' } } as unknown as Report)).toBe('failure')
  })

  it('is not failure for passing pairs, a passing transport check or warned checks', () => {
    expect(
      deriveResult({
        ...base(),
        checks: [{ name: 'a', status: 'warn', detail: '', nodes: [] }],
        benchmark: { pairs: [{ verdict: 'pass' }] },
        transport: { verdict: 'pass' }
      } as unknown as Report)
    ).toBe('success')
  })

  it('is drifted for drift entries only when nothing failed', () => {
    const drift = [{ component: 'c', field: 'f', desired: '1', actual: '2', fixableByApply: true }]
    expect(deriveResult({ ...base(), drift })).toBe('drifted')
    expect(deriveResult({ ...base(), drift, steps: [step('failure')] })).toBe('failure')
  })

  it('finds drift whenever there are drift entries, whatever else failed', () => {
    const drift = [{ component: 'c', field: 'f', desired: '1', actual: '2', fixableByApply: true }]
    expect(driftFound({ ...base(), drift, steps: [step('failure')] })).toBe(true)
    expect(driftFound({ ...base(), drift })).toBe(true)
    expect(driftFound({ ...base(), drift: [], steps: [step('failure')] })).toBe(false)
    expect(driftFound(base())).toBe(false)
  })
})

describe('what fixes a drifted field', () => {
  const item = { component: 'c', field: 'f', desired: '1', actual: '2' }
  it('apply, with the hint when there is one; else the hint or a manual fix', () => {
    expect(driftFix({ ...item, fixableByApply: true })).toBe('mode: apply fixes this')
    expect(driftFix({ ...item, fixableByApply: true, hint: 'rolls the driver' })).toBe(
      'mode: apply fixes this (rolls the driver)'
    )
    expect(driftFix({ ...item, fixableByApply: false, hint: 'recreate the pool' })).toBe('recreate the pool')
    expect(driftFix({ ...item, fixableByApply: false })).toBe('manual fix needed')
  })
})

describe('the report file', () => {
  it('is the report as two-space JSON with a final newline, its folder made when absent', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'report-file-'))
    try {
      const file = path.join(dir, 'a', 'b', 'report.json')
      const report = emptyReport('verify')
      await writeReportFile(file, report)
      expect(readFileSync(file, 'utf8')).toBe(JSON.stringify(report, null, 2) + '\n')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('the report as JSON', () => {
  it('says which cluster, which version and when, and holds numbers as numbers', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'report-file-'))
    try {
      const file = path.join(dir, 'report.json')
      const report = emptyReport('drift', {
        version: '1.2.3',
        startedAt: '2026-01-02T03:04:05.000Z',
        cluster: { resourceGroup: 'rg', name: 'aks1' }
      })
      report.outputs = { 'rdma-nodes': '2', 'bandwidth-gbps': '388.19', result: 'drifted', drifted: 'true' }
      report.drift = [
        { component: 'node-pool', field: 'count', desired: '3', actual: '2', fixableByApply: false },
        driftItem('node-pool', 'nodeLabels', 'a=1', '(none)', false)
      ]
      await writeReportFile(file, report)
      const doc = JSON.parse(readFileSync(file, 'utf8'))
      expect(doc.cluster).toEqual({ resourceGroup: 'rg', name: 'aks1' })
      expect(doc.version).toBe('1.2.3')
      expect(doc.startedAt).toBe('2026-01-02T03:04:05.000Z')
      expect(doc.outputs['rdma-nodes']).toBe(2)
      expect(doc.outputs['bandwidth-gbps']).toBe(388.19)
      expect(doc.outputs.result).toBe('drifted')
      expect(doc.drift[0]).toMatchObject({ desired: 3, actual: 2 })
      expect(doc.drift[1]).toMatchObject({ desired: 'a=1', actual: '(none)' })
      // The report in memory keeps the step outputs' strings.
      expect(report.outputs['rdma-nodes']).toBe('2')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
