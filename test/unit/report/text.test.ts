// The report as terminal text: the job summary's facts (verdict, steps with durations, checks,
// benchmark numbers, transport, drift, cleanup, outputs, the total duration) in lines of at most
// 80 columns however long what the cluster says is, no Markdown, simulated times labelled, and
// no control character from the cluster reaching the terminal.
import { describe, expect, it } from '@jest/globals'
import { finishedStep, type Report } from '../../../src/report/report.js'
import { renderReportText, wrap, type TextReport } from '../../../src/report/text.js'
import { driftItem } from '../../support/drift-items.js'

const t0 = Date.parse('2025-06-01T10:00:00Z')
const LONG_NODE = 'aks-rdmapool-54215238-vmss000000'

function report(o: Partial<Report> = {}): TextReport {
  return {
    mode: 'apply',
    result: 'failure',
    outputs: {
      result: 'failure',
      'kubeconfig-path': '/tmp/aks-rdma-action-AbC123/runner-temp/kubeconfig-aks-rdma-0123456789abcdef',
      'rdma-nodes': '2'
    },
    steps: [
      finishedStep('azure-sign-in', 'success', t0, { detail: 'credential: oidc' }, t0 + 16),
      finishedStep('node-pool', 'success', t0, { action: 'created', detail: 'pool created' }, t0 + 200_000),
      finishedStep(
        'a-component-with-a-name-much-longer-than-the-column',
        'failure',
        t0 + 200_000,
        {
          detail:
            'not ready after 10m (step-timeout 10m): ' +
            'daemonset rdma-shared-dp-ds 1/2 ready; pod rdma-shared-dp-ds-x7k2p CrashLoopBackOff '.repeat(4) +
            '\u001b[2J\u001b]0;owned\u0007'
        },
        t0 + 812_000
      )
    ],
    checks: [
      {
        name: 'rdma-device-plugin',
        status: 'fail',
        detail: 'rdma/hca_shared_devices_a allocatable on 1/2 nodes',
        nodes: [
          { node: LONG_NODE, status: 'pass', detail: 'ok' },
          {
            node: 'aks-rdmapool-54215238-vmss000001',
            status: 'fail',
            detail: 'no allocatable rdma/hca_shared_devices_a: the device plugin pod is not running '.repeat(
              2
            )
          }
        ]
      }
    ],
    benchmark: {
      scope: 'pair',
      minBandwidthRatio: 0.9,
      outliers: [],
      medianGbps: { ib_write_bw: 390 },
      pairs: [
        {
          server: LONG_NODE,
          client: 'aks-rdmapool-54215238-vmss000001',
          test: 'ib_write_bw',
          device: 'mlx5_ib1',
          bwAvgGbps: 388.19,
          bwPeakGbps: 390,
          linkGbps: 400,
          ratio: 0.9705,
          verdict: 'pass'
        }
      ]
    },
    drift: [
      driftItem(
        'node-pool',
        'count',
        '3',
        '2',
        false,
        'apply never changes the size of an existing pool: `az aks nodepool scale --resource-group rg --cluster-name aks --name rdmapool --node-count 3`'
      )
    ],
    diagnostics: [{ step: 'rdma-device-plugin', title: 'CrashLoopBackOff', text: 'panic: boom' }],
    ...o
  }
}

/** A line over the width must be one word (a path, a command): nothing that could have been wrapped. */
function expectFits(text: string, width = 80): void {
  const over = text.split('\n').filter(l => l.length > width && /\S\s+\S/.test(l.trim()))
  expect(over).toEqual([])
}

describe('the report as terminal text', () => {
  it('states the verdict, the steps with their durations and the total, in 80 columns', () => {
    const text = renderReportText(report(), { totalMs: 845_000 })
    expectFits(text)
    const lines = text.split('\n')
    expect(lines[0]).toBe('result: failure — apply failed in 14m5s (main and post step)')
    expect(lines.find(l => l.includes('node-pool') && l.includes('created'))).toMatch(/ 3m20s {2}\+0s$/)
    // A name longer than its column is cut with an ellipsis; its failure's detail wrapped under it.
    expect(text).toMatch(/^ {2}a-component-with-a-name…\s+failure\s+unchanged\s+10m12s\s+\+3m20s$/m)
    expect(text).toMatch(/^ {4}not ready after 10m/m)
    // Failing nodes by name; the healthy one is only counted.
    expect(text).toContain('  rdma-device-plugin  fail     1 of 2 nodes failing')
    expect(text).toMatch(/^ {4}aks-rdmapool-54215238-vmss000001: no allocatable/m)
    expect(text).toContain('lowest bandwidth 388.19 Gb/s (mlx5_ib1, 97.1% of line rate)')
    expect(text).toContain('pass mark 360.0 Gb/s (90% of 400 Gb/s)')
    expect(text).toMatch(/^ {2}node-pool: count\n {4}desired: 3\n {4}actual: 2\n {4}fix: apply never/m)
    expect(text).toContain('Diagnostics (whole in the job summary and the report):')
    expect(text).toMatch(/^ {2}kubeconfig-path=\/tmp\/aks-rdma-action-AbC123\//m)
  })

  it('without the run’s wall time, gives the span of its steps', () => {
    expect(renderReportText(report()).split('\n')[0]).toBe('result: failure — apply failed in 13m32s')
  })

  it('is no Markdown: no table, fence, HTML or emoji', () => {
    const text = renderReportText(report())
    expect(text).not.toMatch(/\||```|<details>|<br>|###|✅|❌/)
  })

  it('never passes a control character from the cluster to the terminal', () => {
    const text = renderReportText(report())
    // eslint-disable-next-line no-control-regex
    expect(text.replace(/\n/g, '')).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/)
    expect(text).toContain('?[2J?]0;owned?')
  })

  it('labels the times of a simulated world as real times of a world that runs faster', () => {
    const text = renderReportText(report(), { simTimeScale: 0.01 })
    expectFits(text)
    expect(text).toMatch(/Simulated world: its waits run 100× faster/)
    expect(text).toContain('(time scale 0.01)')
    expect(renderReportText(report())).not.toContain('Simulated')
  })

  it('lists the post step’s cleanup, saying when it failed', () => {
    const text = renderReportText({
      ...report(),
      post: {
        exitCode: 1,
        cleanup: [{ resource: 'node-pool', name: 'rdmapool', result: 'failed', reason: 'HTTP 409' }]
      }
    })
    expect(text).toContain('Cleanup (post step): failed\n  node-pool rdmapool: failed (HTTP 409)')
  })

  it('says what a successful run verified', () => {
    const text = renderReportText(
      report({
        result: 'success',
        drift: [],
        diagnostics: [],
        checks: [],
        steps: [],
        outputs: { 'rdma-nodes': '2' }
      })
    )
    expect(text.split('\n').slice(0, 2)).toEqual([
      'result: success — apply succeeded',
      '  2 RDMA nodes verified'
    ])
  })
})

describe('wrap', () => {
  it('breaks between words and keeps a word longer than a line whole on its own', () => {
    const path = `/tmp/${'x'.repeat(90)}`
    expect(wrap(`report: ${path} kept`, 40, '', '  ')).toEqual(['report:', `  ${path}`, '  kept'])
    expect(wrap('a b c', 3)).toEqual(['a b', 'c'])
  })
})
