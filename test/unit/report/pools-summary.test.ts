// The job summary's Pools section: a row per pool checked (all-pools) with its VM size, result, the
// checks failing and the benchmark's and transport check's verdicts; none for a single pool.
import { describe, expect, it } from '@jest/globals'
import { emptyReport, type Report, type ReportPool } from '../../../src/report/report.js'
import { renderSummary } from '../../../src/report/summary.js'

const pool = (name: string, o: Partial<ReportPool> = {}): ReportPool => ({
  pool: name,
  vmSize: 'Standard_ND96isr_H100_v5',
  result: 'success',
  steps: [],
  checks: [{ name: 'nodes-ready', status: 'pass', detail: 'ok' }],
  ...o
})

describe('the Pools section', () => {
  it('has a row per pool with what failed in it', () => {
    const report: Report = {
      ...emptyReport('verify'),
      result: 'failure',
      pools: [
        pool('rdmapool'),
        pool('gpub', {
          vmSize: null,
          result: 'failure',
          checks: [
            { name: 'nodes-ready', status: 'fail', detail: 'x' },
            { name: 'ib-node-config', status: 'fail', detail: 'y' }
          ]
        })
      ]
    }
    const md = renderSummary(report)
    expect(md).toContain('### Pools')
    expect(md).toMatch(/\| `rdmapool` \| `Standard_ND96isr_H100_v5` \| ✅ success \| — \| — \| — \|/)
    expect(md).toMatch(/\| `gpub` \| unknown \| ❌ failure \| nodes-ready, ib-node-config \| — \| — \|/)
  })

  it('is not there for one pool', () => {
    expect(renderSummary({ ...emptyReport('verify'), pools: [pool('rdmapool')] })).not.toContain('### Pools')
    expect(renderSummary(emptyReport('verify'))).not.toContain('### Pools')
  })
})
