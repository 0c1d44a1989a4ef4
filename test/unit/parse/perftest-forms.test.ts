// The perftest parser on the forms its output takes beyond the captured fixtures
// (test/unit/parse/perftest-fixtures.test.ts): every verb's title, bidirectional runs, the three BW units and
// the optional columns, latency percentiles, the header block's facts, rows that only look like
// rows, a second table of another kind, failures before and after the results, usage dumps, empty
// and foreign text, interleaved server/client logs, and what the CLI makes of each.
import { describe, expect, it } from '@jest/globals'
import {
  headlineRow,
  parsePerftestOutput,
  perftestCliResult,
  type BwRow,
  type LatRow
} from '../../../src/parse/perftest.js'

const BW_HEAD = ' #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]'
const LAT_HEAD =
  ' #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] '
const bar = '---------------------------------------------------------------------------------------'

function bw(title: string, rows: string[], head = BW_HEAD, before: string[] = []): string {
  return [bar, `                    ${title}`, ...before, bar, head, ...rows, bar].join('\n')
}

describe('titles, tools and kinds', () => {
  it.each([
    ['RDMA_Write BW Test', 'ib_write_bw', 'bw'],
    ['RDMA_Read BW Test', 'ib_read_bw', 'bw'],
    ['Send BW Test', 'ib_send_bw', 'bw'],
    ['Atomic FETCH_AND_ADD BW Test', 'ib_atomic_bw', 'bw'],
    ['Write_imm BW Test', 'ib_write_bw', 'bw'],
    ['RDMA_Write_imm BW Test', 'ib_write_bw', 'bw'],
    ['RDMA_Write Latency Test', 'ib_write_lat', 'lat'],
    ['Send Latency Test', 'ib_send_lat', 'lat'],
    ['Raw_Ethernet BW Test', null, 'bw']
  ])('%s → %s (%s)', (title, tool, kind) => {
    const r = parsePerftestOutput(`${bar}\n   ${title}\n${bar}\n`)
    expect([r.tool, r.kind, r.meta.title]).toEqual([tool, kind, title])
  })

  it('a bidirectional run is said so; a line with a colon is never a title; the first title wins', () => {
    const r = parsePerftestOutput(
      `   Note: RDMA_Write BW Test\n   RDMA_Read Bidirectional BW Test\n   Send Latency Test\n${BW_HEAD}\n 65536 1000 90.10 90.00 0.17\n`
    )
    expect(r.meta).toMatchObject({ title: 'RDMA_Read Bidirectional BW Test', bidirectional: true })
    expect([r.tool, r.kind]).toEqual(['ib_read_bw', 'bw'])
    expect(parsePerftestOutput('   RDMA_Write BW Test\n').meta.bidirectional).toBe(false)
  })

  it('without a title the hint names the tool, and its suffix the kind', () => {
    const rows = `${BW_HEAD}\n 65536 1000 90.10 90.00 0.17\n`
    expect(parsePerftestOutput(rows, { tool: 'ib_write_bw' })).toMatchObject({
      tool: 'ib_write_bw',
      kind: 'bw'
    })
    expect(parsePerftestOutput('', { tool: 'ib_read_lat' })).toMatchObject({
      tool: 'ib_read_lat',
      kind: 'lat'
    })
    expect(parsePerftestOutput('', { tool: 'ib_something' })).toMatchObject({
      tool: 'ib_something',
      kind: null
    })
    expect(parsePerftestOutput('')).toMatchObject({ tool: null, kind: null })
  })
})

describe('bandwidth tables', () => {
  it('Gb/sec rows as printed; a peak printed as 0.00 means not measured', () => {
    const r = parsePerftestOutput(
      bw('RDMA_Write BW Test', [
        ' 65536      5000             196.56             196.55\t\t   0.374893',
        ' 131072     5000             0.00             196.60\t\t   0.187500'
      ])
    )
    expect(r.units).toBe('Gb/sec')
    expect(r.rows).toEqual([
      { bytes: 65536, iterations: 5000, bwPeakGbps: 196.56, bwAvgGbps: 196.55, msgRateMpps: 0.374893 },
      { bytes: 131072, iterations: 5000, bwPeakGbps: null, bwAvgGbps: 196.6, msgRateMpps: 0.1875 }
    ])
    expect(r.meta.peakMeasured).toBe(true)
    expect(r.meta.printed).toEqual([
      [65536, 5000, 196.56, 196.55, 0.374893],
      [131072, 5000, 0, 196.6, 0.1875]
    ])
    expect(r.error).toBeNull()
  })

  it('MB/sec and MiB/sec convert to Gb/s; an unknown unit is taken as Gb/s', () => {
    const head = (u: string) => ` #bytes     #iterations    BW peak[${u}]    BW average[${u}]   MsgRate[Mpps]`
    for (const u of ['MB/sec', 'MiB/sec']) {
      const r = parsePerftestOutput(
        bw('RDMA_Write BW Test', [' 65536 1000 11758.95 11756.28 0.188100'], head(u))
      )
      expect(r.units).toBe(u)
      expect((r.rows[0] as BwRow).bwAvgGbps).toBe(Math.round(11756.28 * 0.008388608 * 1e6) / 1e6)
      expect((r.rows[0] as BwRow).bwPeakGbps).toBe(Math.round(11758.95 * 0.008388608 * 1e6) / 1e6)
    }
    const odd = parsePerftestOutput(bw('RDMA_Write BW Test', [' 65536 1000 10 9 0.1'], head('Kb/sec')))
    expect(odd.units).toBeNull()
    expect((odd.rows[0] as BwRow).bwAvgGbps).toBe(9)
  })

  it('the optional and extra columns: #sl, per-port BW and message rate, CPU_Util, tps average', () => {
    const head =
      ' #bytes     #sl    #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]   BW Port1[Gb/sec]   MsgRate Port1[Mpps]   BW Port2[Gb/sec]   MsgRate Port2[Mpps]   CPU_Util[%]'
    const r = parsePerftestOutput(
      bw(
        'Send BW Test',
        [
          ' 4096 0 1000 96.0 95.0 2.9 47.5 1.45 47.5 1.45 12.5',
          ' 8192 0 1000 97.0 96.0 1.4 48.0 0.7 48.0 0.7'
        ],
        head
      )
    )
    expect(r.rows).toEqual([
      { bytes: 4096, iterations: 1000, bwPeakGbps: 96, bwAvgGbps: 95, msgRateMpps: 2.9 },
      { bytes: 8192, iterations: 1000, bwPeakGbps: 97, bwAvgGbps: 96, msgRateMpps: 1.4 }
    ])
    expect(r.meta.extra).toEqual([
      { sl: 0, port1Bw: 47.5, port1MsgRate: 1.45, port2Bw: 47.5, port2MsgRate: 1.45, cpuUtil: 12.5 },
      { sl: 0, port1Bw: 48, port1MsgRate: 0.7, port2Bw: 48, port2MsgRate: 0.7 }
    ])
    const tps = parsePerftestOutput(
      bw(
        'Send BW Test',
        [' 4096 1000 96.0 95.0 2.9 1234.5'],
        ' #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]   tps average'
      )
    )
    expect(tps.meta.extra).toEqual([{ tps: 1234.5 }])
  })

  it('a warned-off peak is not measured; rows that are not rows are skipped', () => {
    const r = parsePerftestOutput(
      bw(
        'RDMA_Write BW Test',
        [
          ' 65536 1000 196.56 196.55 0.37',
          ' 65536x 1000 1 1 1',
          ' -1 1000 1 1 1',
          ' 1.5 1000 1 1 1',
          ' 65536 1000 196.56',
          ' 65536 1000 196.56 196.55 0.37 1 2',
          ' 65536 1000 196.56 abc 0.37'
        ],
        BW_HEAD,
        [" WARNING: BW peak won't be measured in this run."]
      )
    )
    expect(r.rows).toHaveLength(1)
    expect(r.meta.peakMeasured).toBe(false)
    expect(
      parsePerftestOutput(bw('RDMA_Write BW Test', [' 65536 1000 0.00 196.55 0.37'])).meta.peakMeasured
    ).toBe(false)
    expect(parsePerftestOutput(bw('RDMA_Write BW Test', [])).meta.peakMeasured).toBe(true)
  })
})

describe('latency tables', () => {
  it('every column of a row, in µs; peak is never measured for latency', () => {
    const r = parsePerftestOutput(
      [
        bar,
        '                    RDMA_Write Latency Test',
        bar,
        LAT_HEAD,
        ' 2       1000          1.63           4.89         1.67                1.68             0.04            1.85                    4.89   ',
        bar
      ].join('\n')
    )
    expect(r.kind).toBe('lat')
    expect(r.units).toBeNull()
    expect(r.rows).toEqual([
      {
        bytes: 2,
        iterations: 1000,
        tMinUs: 1.63,
        tMaxUs: 4.89,
        tTypicalUs: 1.67,
        tAvgUs: 1.68,
        tStdevUs: 0.04,
        p99Us: 1.85,
        p999Us: 4.89
      }
    ])
    expect(r.meta.peakMeasured).toBe(false)
  })

  it('a short latency header (send_lat without percentiles) reads what it has', () => {
    const r = parsePerftestOutput(
      ` #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]\n 2 1000 1.5 3.0 1.6\n`,
      { tool: 'ib_send_lat' }
    )
    expect(r.rows).toEqual([
      {
        bytes: 2,
        iterations: 1000,
        tMinUs: 1.5,
        tMaxUs: 3,
        tTypicalUs: 1.6,
        tAvgUs: null,
        tStdevUs: null,
        p99Us: null,
        p999Us: null
      }
    ])
  })

  it('a header missing #iterations, or with no BW or latency column, is no header', () => {
    expect(parsePerftestOutput(' #bytes    BW average[Gb/sec]\n 65536 196\n').error?.kind).toBe('no-output')
    expect(parsePerftestOutput(' #bytes #iterations   something[x]\n 65536 1000 3\n').error?.kind).toBe(
      'no-output'
    )
    expect(parsePerftestOutput(' bytes iterations t_min[usec]\n 2 1000 1\n').error?.kind).toBe('no-output')
  })
})

describe('around the tables', () => {
  it('the header block’s facts, read only above the results', () => {
    const r = parsePerftestOutput(
      [
        bar,
        '                    RDMA_Write BW Test',
        ' Dual-port       : OFF\t\tDevice         : mlx5_ib0',
        ' Number of qps   : 4\t\tTransport type : IB',
        ' Connection type : RC\t\tUsing SRQ      : OFF',
        ' Mtu             : 4096[B]',
        ' Link type       : IB',
        bar,
        BW_HEAD,
        ' 65536 1000 196.56 196.55 0.37',
        ' Device : mlx5_other',
        bar
      ].join('\r\n')
    )
    expect(r.meta).toMatchObject({
      device: 'mlx5_ib0',
      linkType: 'IB',
      connectionType: 'RC',
      qps: 4,
      mtu: 4096
    })
    expect(parsePerftestOutput(' Some Mtu : 1024\n').meta.mtu).toBeNull()
    expect(parsePerftestOutput('').meta).toMatchObject({
      device: null,
      linkType: null,
      connectionType: null,
      qps: null,
      mtu: null
    })
  })

  it('a cut copy is noted; a second table of another kind is ignored with a warning', () => {
    const r = parsePerftestOutput(
      [BW_HEAD, ' 65536 1000 196.56 196.55 0.37', '...', LAT_HEAD, ' 2 1000 1 2 1 1 0 1 2', '…'].join('\n')
    )
    expect(r.meta.truncated).toBe(true)
    expect(r.rows).toHaveLength(1)
    expect(r.meta.warnings).toEqual(['ignored a second results table of another kind at line 4'])
    expect(parsePerftestOutput(BW_HEAD).meta.truncated).toBe(false)
  })

  it('an interleaved server+client log: the same row once; the client’s measured peak replaces the server’s', () => {
    const r = parsePerftestOutput(
      [
        BW_HEAD,
        ' 65536 1000 0.00 196.55 0.37',
        ' 65536 1000 196.56 196.55 0.37',
        ' 65536 1000 196.56 196.55 0.37',
        ' 131072 1000 190.00 190.00 0.18',
        ' 131072 1000 0.00 189.00 0.18'
      ].join('\n')
    )
    expect(r.rows.map(x => [x.bytes, (x as BwRow).bwPeakGbps, (x as BwRow).bwAvgGbps])).toEqual([
      [65536, 196.56, 196.55],
      [131072, 190, 190]
    ])
    expect(r.meta.mergedDuplicateRows).toBe(3)
    const lat = parsePerftestOutput([LAT_HEAD, ' 2 1000 1 2 1 1 0 1 2', ' 2 1000 9 9 9 9 0 9 9'].join('\n'))
    expect((lat.rows[0] as LatRow).tMinUs).toBe(1)
  })
})

describe('failures', () => {
  it.each([
    [" Couldn't connect to 10.0.0.5:18515", 'connect'],
    [' Unable to open file descriptor for socket connection Unable to read to socket/rdma_cm', 'connect'],
    [' Failed to exchange data between server and clients', 'exchange'],
    [' Failed to exchange dat between server and client', 'exchange'],
    [' Completion with error at client', 'completion'],
    [' got completion with error', 'completion'],
    [' syndrom 0x81', 'completion'],
    [" Couldn't create QP", 'qp'],
    [' Unable to create QP.', 'qp'],
    [' Failed to create QP', 'qp'],
    [' CUDA DMA-BUF cannot be used on this device', 'cuda'],
    [' cuInit(0) returned 100', 'cuda'],
    [' CUDA allocation failed', 'cuda'],
    [' Test exited with Error', 'completion'],
    [' Error in run iter', 'completion'],
    [' Failed to complete run_iter', 'completion']
  ])('%s → %s', (line, kind) => {
    expect(parsePerftestOutput(`${line}\n`).error).toEqual({ message: line.trim(), kind })
  })

  it('a failure before the final table did not end the run (a warning); after the last row it did', () => {
    const before = parsePerftestOutput(
      [" Couldn't connect to 10.0.0.5:18515", BW_HEAD, ' 65536 1000 196.56 196.55 0.37'].join('\n')
    )
    expect(before.error).toBeNull()
    expect(before.meta.warnings).toEqual(["Couldn't connect to 10.0.0.5:18515"])
    const after = parsePerftestOutput(
      [BW_HEAD, ' 65536 1000 196.56 196.55 0.37', ' Completion with error at client'].join('\n')
    )
    expect(after.error).toEqual({ message: 'Completion with error at client', kind: 'completion' })
    expect(after.rows).toHaveLength(1)
  })

  it('an option the tool did not accept is a usage error', () => {
    expect(
      parsePerftestOutput('ib_write_bw: unrecognized option\n   start a server and wait for connection\n')
        .error?.kind
    ).toBe('usage')
  })

  it.each([
    [
      ' Usage:\n  ib_write_bw            start a server and wait for connection\n',
      'perftest printed its usage text: an option was not accepted',
      'usage'
    ],
    [`${BW_HEAD}\n`, 'perftest printed a results header but no result rows', 'no-results'],
    ['  \n', 'perftest printed nothing', 'no-output'],
    ['hello\n', 'no perftest results table found', 'no-output']
  ])(
    'usage, a header without rows, nothing at all, and text that is not perftest: %j',
    (text, message, kind) => {
      expect(parsePerftestOutput(text).error).toEqual({ message, kind })
    }
  )
})

describe('headlineRow and the CLI result', () => {
  it('the largest message size (the last of equals), or none', () => {
    const rows = [
      { bytes: 2, iterations: 1 },
      { bytes: 8, iterations: 2 },
      { bytes: 8, iterations: 3 },
      { bytes: 4, iterations: 4 }
    ] as BwRow[]
    expect(headlineRow(rows)).toEqual({ bytes: 8, iterations: 3 })
    expect(headlineRow([])).toBeNull()
  })

  it('exit 0 with results, 1 on a reported failure, 2 when the text is not perftest output', () => {
    const ok = perftestCliResult(`${BW_HEAD}\n 65536 1000 196.56 196.55 0.37\n`)
    expect(ok.exitCode).toBe(0)
    expect(JSON.parse(ok.json!).rows).toHaveLength(1)
    const failed = perftestCliResult(`   RDMA_Write BW Test\n Couldn't connect to h:1\n`)
    expect(failed).toMatchObject({
      exitCode: 1,
      message: "perftest reported a failure: connect: Couldn't connect to h:1"
    })
    expect(perftestCliResult('')).toEqual({
      exitCode: 2,
      message: 'not perftest output (the input is empty)'
    })
    expect(perftestCliResult('hello')).toEqual({
      exitCode: 2,
      message: 'not perftest output (no perftest header or results table)'
    })
    expect(perftestCliResult(' Device : mlx5_ib0\n').exitCode).toBe(1)
  })
})
