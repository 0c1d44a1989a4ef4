// The collective check's job summary section: the mode and verdict first with the cause and fix,
// busbw against its mark and the mark's source, the busbw curve as a Mermaid xychart over size
// labels with the mark as a flat line, each node's own run; node names as code, never Markdown.
import { describe, expect, it } from '@jest/globals'
import {
  busbwChart,
  collectiveReason,
  collectiveSection,
  sizeLabel
} from '../../../src/report/collective-summary.js'
import type { ReportCollective } from '../../../src/report/report.js'
import { textLines } from '../../support/text-lines.js'

function report(over: Partial<ReportCollective> = {}): ReportCollective {
  return {
    check: 'nccl',
    mode: 'ib-gdr',
    verdict: 'pass',
    reason: 'InfiniBand with GPUDirect RDMA',
    image: 'nccl:1',
    busbwGBps: 371.5,
    passMarkGBps: 360,
    passMarkSource: 'derived',
    intraPassMarkSource: 'conf/nd96isr_h100_v5.conf',
    sizes: [
      { bytes: 1048576, algbwGBps: 20, busbwGBps: 37.5 },
      { bytes: 17179869184, algbwGBps: 198.1, busbwGBps: 371.5 }
    ],
    pair: { launcher: 'n0', worker: 'n1' },
    nodes: [
      { node: 'n0', pod: 'p0', gpus: 8, verdict: 'pass', busbwGBps: 480.1, passMarkGBps: 460, sizes: [] },
      {
        node: 'n1*evil*',
        pod: 'p1',
        gpus: 8,
        verdict: 'fail',
        busbwGBps: 201,
        passMarkGBps: 460,
        reason: 'a GPU or its NVLink on n1 is degraded',
        sizes: []
      }
    ],
    gpudirect: 'dmabuf',
    network: 'IB',
    ibDevices: ['mlx5_ib0:1'],
    ncclVersion: '2.27.7+cuda13.0',
    ncclEnv: { NCCL_DEBUG: 'INFO' },
    ...over
  }
}

describe('the collective summary section', () => {
  it('labels sizes in binary units', () => {
    expect([sizeLabel(8), sizeLabel(1048576), sizeLabel(17179869184), sizeLabel(1536)]).toEqual([
      '8 B',
      '1 MiB',
      '16 GiB',
      '1536 B'
    ])
  })

  it('draws busbw per size and the mark as a flat line', () => {
    expect(busbwChart(report())).toBe(
      textLines(
        '```mermaid',
        'xychart-beta',
        '  title "all_reduce busbw across the pair, GB/s (flat line: pass mark)"',
        '  x-axis ["1 MiB", "16 GiB"]',
        '  y-axis "GB/s" 0 --> 400',
        '  line [37.5, 371.5]',
        '  line [360, 360]',
        '```'
      )
    )
    expect(busbwChart(report({ sizes: [] }))).toBeNull()
  })

  it('puts the mode, verdict, numbers and nodes in order; a failure gives its fix and the verdict line reason', () => {
    const md = collectiveSection(report(), { maxCellChars: 200 })
    expect(md.split('\n')[0]).toBe('### NCCL collectives (all_reduce_perf)')
    expect(md).toContain('🚀 `ib-gdr` — ✅ pass')
    expect(md).toContain('371.50 GB/s at 16 GiB; pass mark 360.00 GB/s (derived)')
    expect(md).toContain(
      '| `n1*evil*` | `p1` | 8 | 201.00 GB/s | 460.00 GB/s | ❌ a GPU or its NVLink on n1 is degraded |'
    )
    expect(collectiveReason(report())).toBeUndefined()
    const failed = report({ mode: 'socket', verdict: 'fail', reason: 'sockets', fix: 'exempt the pods' })
    expect(collectiveSection(failed, { maxCellChars: 200 })).toContain('**Fix:** exempt the pods')
    expect(collectiveReason(failed)).toBe('collective check failed (socket)')
  })
})
