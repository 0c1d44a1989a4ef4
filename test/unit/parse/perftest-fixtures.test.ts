// perftest parser: every real fixture against expected.json, then the failure shapes and layouts the
// fixtures do not cover (written as perftest prints them).

import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import {
  GBPS_PER_MIBPS,
  headlineRow,
  parsePerftestOutput,
  perftestParseCommand,
  type BwRow,
  type LatRow
} from '../../../src/parse/perftest.js'

const dir = path.resolve(process.cwd(), 'test/fixtures/perftest')
const expected = JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8')) as Record<string, any>
const fixtures = readdirSync(dir).filter(f => f.endsWith('.txt'))

const TOOL_BY_PREFIX: Record<string, string | null> = {
  '01': 'ib_write_bw',
  '02': 'ib_write_bw',
  '03': 'ib_write_bw',
  '04': 'ib_write_bw',
  '05': 'ib_write_bw',
  '06': 'ib_write_bw',
  '07': 'ib_write_bw',
  '08': 'ib_send_lat',
  '09': 'ib_send_lat',
  '10': 'ib_send_bw',
  // results-only copies carry no title line
  '11': null,
  '12': null,
  '13': null,
  '29': null,
  '30': null
}

/** perftest's output of these lines. */
const parseLines = (...lines: string[]) => parsePerftestOutput(lines.join('\n'))

function toGbps(printed: number, unit: string): number {
  return unit === 'Gb/sec' ? printed : printed * GBPS_PER_MIBPS
}

describe('perftest fixtures (expected.json)', () => {
  it('has an expectation for every fixture file', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(15)
    for (const f of fixtures) expect(expected[f]).toBeDefined()
  })

  it.each(fixtures)('%s', file => {
    const want = expected[file]
    const r = parsePerftestOutput(readFileSync(path.join(dir, file), 'utf8'))
    expect(r.error).toBeNull()
    expect(r.kind).toBe(want.kind)
    expect(r.tool).toBe(TOOL_BY_PREFIX[file.slice(0, 2)])
    if (want.kind === 'bw') expect(r.units).toBe(want.unit)
    else expect(r.units).toBeNull()

    if (Array.isArray(want.rows)) {
      expect(r.rows.length).toBeGreaterThanOrEqual(want.rows[0])
      expect(r.rows.length).toBeLessThanOrEqual(want.rows[1])
    } else {
      expect(r.rows).toHaveLength(want.rows)
    }

    const checkRow = (row: BwRow | LatRow, printed: number[], exp: Array<number | null>) => {
      if (want.kind === 'bw') {
        const bw = row as BwRow
        // numbers as printed, with a 0.00 peak reported as not measured
        expect([
          printed[0],
          printed[1],
          printed[2] === 0 ? null : printed[2],
          printed[3],
          printed[4]
        ]).toEqual(exp)
        expect(bw.bytes).toBe(exp[0])
        expect(bw.iterations).toBe(exp[1])
        if (exp[2] === null) expect(bw.bwPeakGbps).toBeNull()
        else expect(bw.bwPeakGbps).toBeCloseTo(toGbps(exp[2]!, want.unit), 5)
        expect(bw.bwAvgGbps).toBeCloseTo(toGbps(exp[3]!, want.unit), 5)
        expect(bw.msgRateMpps).toBe(exp[4])
      } else {
        const lat = row as LatRow
        expect([
          lat.bytes,
          lat.iterations,
          lat.tMinUs,
          lat.tMaxUs,
          lat.tTypicalUs,
          lat.tAvgUs,
          lat.tStdevUs,
          lat.p99Us,
          lat.p999Us
        ]).toEqual(exp)
      }
    }
    checkRow(r.rows[0], r.meta.printed[0], want.first)
    if (want.last) checkRow(r.rows[r.rows.length - 1], r.meta.printed[r.rows.length - 1], want.last)
    if (want.avgGbps !== undefined) {
      const last = r.rows[r.rows.length - 1] as BwRow
      expect(last.bwAvgGbps).toBeCloseTo(want.avgGbps, 2)
    }
  })

  it('reads the header facts and the markers around the table', () => {
    const read = (prefix: string) =>
      parsePerftestOutput(
        readFileSync(
          path.join(
            dir,
            fixtures.find(f => f.startsWith(prefix))!
          ),
          'utf8'
        )
      )
    const roce = read('03')
    expect(roce.meta).toMatchObject({
      device: 'mlx5_1',
      linkType: 'Ethernet',
      qps: 16,
      mtu: 1024,
      peakMeasured: false
    })
    const bidir = read('06')
    expect(bidir.meta.bidirectional).toBe(true)
    expect(bidir.meta.device).toBe('<RDMA-NIC-2>')
    expect(read('08').meta.truncated).toBe(true)
    expect(read('10').meta.peakMeasured).toBe(false)
    const interleaved = read('02')
    expect(interleaved.meta.mergedDuplicateRows).toBe(1)
    expect(interleaved.rows.map(row => row.bytes)).toEqual(Array.from({ length: 23 }, (_, i) => 2 ** (i + 1)))
    expect(read('13').meta.peakMeasured).toBe(true)
    expect(headlineRow(read('13').rows as BwRow[])!.bytes).toBe(8388608)
  })

  it('takes the tool from a hint when the copy has no title', () => {
    const text = readFileSync(
      path.join(
        dir,
        fixtures.find(f => f.startsWith('11'))!
      ),
      'utf8'
    )
    expect(parsePerftestOutput(text, { tool: 'ib_read_lat' }).tool).toBe('ib_read_lat')
  })

  it('CLI command prints the JSON result', () => {
    const out = perftestParseCommand(
      path.join(
        dir,
        fixtures.find(f => f.startsWith('29'))!
      )
    )
    const json = JSON.parse(out)
    expect(Object.keys(json).slice(0, 5)).toEqual(['tool', 'kind', 'units', 'rows', 'error'])
    expect(Object.keys(json.rows[0])).toEqual([
      'bytes',
      'iterations',
      'bwPeakGbps',
      'bwAvgGbps',
      'msgRateMpps'
    ])
    expect(json.rows[0].bwAvgGbps).toBe(394.4)
  })
})

const HEADER = [
  '---------------------------------------------------------------------------------------',
  '                    RDMA_Write BW Test',
  ' Dual-port       : OFF\t\tDevice         : mlx5_ib0',
  ' Number of qps   : 1\t\tTransport type : IB',
  ' Connection type : RC\t\tUsing SRQ      : OFF',
  ' TX depth        : 128',
  ' Mtu             : 4096[B]',
  ' Link type       : IB',
  '---------------------------------------------------------------------------------------'
].join('\n')
const BW_TABLE = [
  ' local address: LID 0x43a QPN 0x012e PSN 0x53099c RKey 0x1fff00 VAddr 0x007f0f2a4d1000',
  ' remote address: LID 0x439 QPN 0x012f PSN 0xe6be9b RKey 0x1fff00 VAddr 0x007f3cbb1f1000',
  '---------------------------------------------------------------------------------------',
  ' #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]',
  ' 8388608    5000             196.56             196.55\t\t   0.002929',
  '---------------------------------------------------------------------------------------'
].join('\n')

describe('perftest failures', () => {
  it("reports Couldn't connect with perftest's own message, never zeros", () => {
    const r = parsePerftestOutput(
      `${HEADER}\nCouldn't connect to 10.244.1.7:18515\nUnable to open file descriptor for socket connection Unable to init the socket connection\n`
    )
    expect(r.error).toEqual({ message: "Couldn't connect to 10.244.1.7:18515", kind: 'connect' })
    expect(r.rows).toEqual([])
    expect(r.tool).toBe('ib_write_bw')
    expect(r.kind).toBe('bw')
  })

  it('treats connect failures before a finished table as retries', () => {
    const retries = "Couldn't connect to 10.244.1.7:18515\n Unable to init the socket connection\n".repeat(3)
    const r = parsePerftestOutput(`${retries}${HEADER}\n${BW_TABLE}\n`)
    expect(r.error).toBeNull()
    expect(r.rows).toHaveLength(1)
    expect(r.meta.warnings).toContain("Couldn't connect to 10.244.1.7:18515")
  })

  it.each([
    [
      " ethernet_read_keys: Couldn't read remote address\n Unable to read to socket/rdma_cm\nFailed to exchange data between server and clients\n",
      "ethernet_read_keys: Couldn't read remote address",
      'exchange'
    ],
    [' Unable to init the socket connection\n', 'Unable to init the socket connection', 'connect'],
    [
      " Failed to modify QP 4555 to RTR\n Unable to Connect the HCA's through the link\n",
      'Failed to modify QP 4555 to RTR',
      'qp'
    ],
    [
      ' Did not detect devices \n If device exists, check if driver is up\n',
      'Did not detect devices',
      'device'
    ],
    [
      ' IB device mlx5_9 not found\n Unable to find the Infiniband/RoCE device\n',
      'IB device mlx5_9 not found',
      'device'
    ]
  ])('classifies %j', (tail, message, kind) => {
    const r = parsePerftestOutput(`${HEADER}\n${tail}`)
    expect(r.error).toEqual({ message, kind })
    expect(r.rows).toEqual([])
  })

  it('keeps rows printed before a completion error and still fails', () => {
    const r = parseLines(
      HEADER,
      ' #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]',
      ' 2          5000           0.045656            0.045526            2.845402',
      ' 4          5000           0.091312            0.091284            2.852624',
      ' Completion with error at client',
      ' Failed status 12: wr_id 0 syndrom 0x81',
      'scnt=128, ccnt=0'
    )
    expect(r.error).toEqual({ message: 'Completion with error at client', kind: 'completion' })
    expect(r.rows).toHaveLength(2)
  })

  it('reports a bare usage dump as a usage error', () => {
    const r = parsePerftestOutput(
      ' Usage:\n  ib_write_bw            start a server and wait for connection\n'
    )
    expect(r.error?.kind).toBe('usage')
  })

  it('fails a header with no rows', () => {
    const r = parsePerftestOutput(
      `${HEADER}\n #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]\n---------------------------------------------------------------------------------------\n`
    )
    expect(r.error).toEqual({
      message: 'perftest printed a results header but no result rows',
      kind: 'no-results'
    })
    expect(r.units).toBe('Gb/sec')
  })

  it('fails empty or unrelated output', () => {
    expect(parsePerftestOutput('').error?.kind).toBe('no-output')
    expect(parsePerftestOutput('hello\nworld\n').error).toEqual({
      message: 'no perftest results table found',
      kind: 'no-output'
    })
  })
})

describe('perftest layouts beyond the fixtures', () => {
  it('reads the -D latency layout (t_avg and tps average)', () => {
    const r = parseLines(
      '                    RDMA_Write Latency Test',
      ' #bytes        #iterations       t_avg[usec]    tps average',
      ' 2             4913561          1.22           819034.76'
    )
    expect(r.kind).toBe('lat')
    expect(r.rows).toEqual([
      {
        bytes: 2,
        iterations: 4913561,
        tMinUs: null,
        tMaxUs: null,
        tTypicalUs: null,
        tAvgUs: 1.22,
        tStdevUs: null,
        p99Us: null,
        p999Us: null
      }
    ])
    expect(r.meta.extra[0]).toEqual({ tps: 819034.76 })
  })

  it('reads the old 5-column latency layout with missing fields as null', () => {
    const r = parseLines(
      '                    RDMA_Read Latency Test',
      ' #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]',
      ' 2       1000          1.90           7.75         1.94'
    )
    expect(r.rows[0]).toMatchObject({
      tMinUs: 1.9,
      tMaxUs: 7.75,
      tTypicalUs: 1.94,
      tAvgUs: null,
      p999Us: null
    })
  })

  it('reads the CPU_Util column into extra and MB/sec into Gb/s', () => {
    const r = parseLines(
      '                    Send BW Test',
      ' #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]    CPU_Util[%]',
      ' 65536      1000             11758.95            11756.28\t\t   0.188100\t    11.83'
    )
    const row = r.rows[0] as BwRow
    expect(row.bwAvgGbps).toBeCloseTo(11756.28 * 0.008388608, 6)
    expect(r.meta.extra[0]).toEqual({ cpuUtil: 11.83 })
  })

  it('names every title variant', () => {
    const titles: Array<[string, string]> = [
      ['RDMA_Write BW Test', 'ib_write_bw'],
      ['RDMA_Read BW Test', 'ib_read_bw'],
      ['Send BW Test', 'ib_send_bw'],
      ['RDMA_Write Latency Test', 'ib_write_lat'],
      ['Send Latency Test', 'ib_send_lat'],
      ['RDMA_Read Latency Test', 'ib_read_lat'],
      ['Send Bidirectional BW Test', 'ib_send_bw']
    ]
    for (const [title, tool] of titles) expect(parsePerftestOutput(`          ${title}\n`).tool).toBe(tool)
  })
})
