// The UCX output parsers against real outputs (test/fixtures/ucx, SOURCES.md there): the
// ucx_perftest `Final:` row and test box, UCX_PROTO_INFO tables in both of their forms (INFO log
// lines, compact lines) with memunit ranges and multi-path lanes, ucx_info -d memory domains (memory
// types, dma-buf registration, transports), and UCX's log lines, quoted or not; plus the pieces
// (ranges, memory units, lanes, the row for a message size) on their own.
import { describe, expect, it } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import {
  lanesOf,
  mbsToGbps,
  parseMemoryTypes,
  parseMemunits,
  parseProtoInfo,
  parseRange,
  parseUcxInfoDevices,
  parseUcxPerftest,
  registersDmabuf,
  rowFor,
  ucxLogLines
} from '../../../src/parse/ucx.js'

const dir = path.resolve(process.cwd(), 'test/fixtures/ucx')
const files = readdirSync(dir).filter(f => f.endsWith('.txt'))
const read = (prefix: string): string =>
  readFileSync(
    path.join(
      dir,
      files.find(f => f.startsWith(prefix))!
    ),
    'utf8'
  )

/** A UCX log line as ucxLogLines reads it. */
const logLine = (level: string, source: string, message: string) => ({ level, source, message })

describe('ucx_perftest', () => {
  it('01: the Final row of a tag_bw table (MB/s, 2^20 B/s)', () => {
    const out = parseUcxPerftest(read('01-'))
    expect(out.final).toEqual({
      iterations: 1000,
      latencyUs: { percentile: 0.24, average: 1675.942, overall: 1671.351 },
      bandwidthMBs: { average: 46615.58, overall: 46743.62 },
      messageRate: { average: 597, overall: 598 }
    })
    // 46743.62 MB/s × 2^20 × 8 / 10^9
    expect(mbsToGbps(out.final!.bandwidthMBs.overall)).toBeCloseTo(392.114, 3)
    expect(out.protocols).toEqual([])
  })

  it('02: an interleaved server box: the test and GPU memory, no result', () => {
    const out = parseUcxPerftest(read('02-'))
    expect(out.final).toBeNull()
    expect(out.test).toBe('tag match bandwidth')
    expect(out.sendMemory).toBe('cuda')
    expect(out.recvMemory).toBeUndefined()
  })

  it('05: a WARN log line and a protocol table header with no row yet', () => {
    const out = parseUcxPerftest(read('05-'))
    expect(out.final).toBeNull()
    expect(out.log).toEqual([
      logLine(
        'WARN',
        'perftest.c:809',
        'CPU affinity is not set (bound to 256 cpus). Performance may be impacted.'
      )
    ])
    expect(out.protocols).toEqual([
      {
        endpoint: 'perftest inter-node cfg#2',
        operation: 'tagged message by ucp_tag_send* from host memory',
        rows: []
      }
    ])
  })
})

describe('UCX_PROTO_INFO', () => {
  it('03: the table printed as INFO log lines, the estimated rendezvous row', () => {
    const [t] = parseProtoInfo(read('03-'))
    expect(t.endpoint).toBe('mpi ep_cfg[3]')
    expect(t.operation).toBe('tagged message by ucp_tag_send*() from host memory')
    expect(t.rows.map(r => [r.from, r.to, r.protocol])).toEqual([
      [0, 2007, 'eager short'],
      [2008, 8246, 'eager zero-copy copy-out'],
      [8247, 17297, 'eager zero-copy copy-out'],
      [17298, Infinity, '(?) rendezvous zero-copy read from remote']
    ])
    for (const r of t.rows) expect(r.lanes).toEqual(['rc_mlx5/mlx5_0:1'])
    expect(rowFor(t, 64 * 2 ** 20)!.protocol).toMatch(/zero-copy read from remote/)
    expect(rowFor(t, 2008)!.protocol).toBe('eager zero-copy copy-out')
  })

  it('04: a row before any header is skipped; memunit ranges; paths and shares leave one lane', () => {
    const tables = parseProtoInfo(read('04-'))
    expect(tables).toHaveLength(1)
    const [t] = tables
    expect(t.endpoint).toBe('ucp_context_0 intra-node cfg#1')
    expect(t.operation).toBe(
      'remote memory write by ucp_put*(fast-completion) from host memory to cuda/dev[0]'
    )
    expect(t.rows.map(r => [r.from, r.to, r.protocol, r.lanes])).toEqual([
      [0, 2048, 'short', ['rc_mlx5/mlx5_0:1']],
      [2049, 9383, 'copy-in', ['rc_mlx5/mlx5_0:1']],
      [9384, Infinity, 'zero-copy', ['rc_mlx5/mlx5_0:1']]
    ])
  })

  it('lanes of several devices and of tcp', () => {
    expect(lanesOf('50% on rc_mlx5/mlx5_ib0:1 and 50% on rc_mlx5/mlx5_ib1:1')).toEqual([
      'rc_mlx5/mlx5_ib0:1',
      'rc_mlx5/mlx5_ib1:1'
    ])
    expect(lanesOf('tcp/eth0')).toEqual(['tcp/eth0'])
    expect(lanesOf('rc_mlx5/mlx5_0:1/path0')).toEqual(['rc_mlx5/mlx5_0:1'])
  })

  it('memory units and ranges as ucs_memunits_to_str prints them', () => {
    expect(parseMemunits('2K')).toBe(2048)
    expect(parseMemunits('1.5M')).toBe(1.5 * 2 ** 20)
    expect(parseMemunits('inf')).toBe(Infinity)
    expect(parseMemunits('x')).toBeNaN()
    expect(parseRange('0')).toEqual([0, 0])
    expect(parseRange('8K..1G')).toEqual([8192, 2 ** 30])
    expect(parseRange('a..b')).toBeUndefined()
  })
})

describe('ucx_info -d', () => {
  it('06: a shared-memory domain: its memory types and transport', () => {
    const [md] = parseUcxInfoDevices(read('06-'))
    expect(md).toEqual({
      name: 'sysv',
      component: 'sysv',
      registerDmabuf: false,
      memoryTypes: { host: ['access', 'alloc', 'cache'] },
      transports: [{ transport: 'sysv', device: 'memory', failedToOpen: false }],
      failedToOpen: false
    })
  })

  it('07: an InfiniBand domain without a memory types line (older release)', () => {
    const [md] = parseUcxInfoDevices(read('07-'))
    expect(md).toMatchObject({ name: 'mlx5_0', component: 'ib', registerDmabuf: false, memoryTypes: {} })
    expect(md.transports).toEqual([{ transport: 'rc_verbs', device: 'mlx5_0:1', failedToOpen: false }])
  })

  it('08: dma-buf registration on the register line', () => {
    expect(registersDmabuf(read('08-'))).toBe(true)
    expect(registersDmabuf('#             register: unlimited, cost: 180 nsec')).toBe(false)
  })

  it('memory types with cuda among the mlx5 domain’s, and failed interfaces', () => {
    expect(parseMemoryTypes('host (access,reg,cache), cuda (reg,cache)')).toEqual({
      host: ['access', 'reg', 'cache'],
      cuda: ['reg', 'cache']
    })
    const text = [
      '# Memory domain: mlx5_ib0',
      '#     Component: ib',
      '#         memory types: host (access,reg,cache), cuda (reg,cache)',
      '#      Transport: rc_mlx5',
      '#         Device: mlx5_ib0:1',
      '#   < failed to open interface >',
      '# < failed to open memory domain mlx5_an0 for component ib >'
    ].join('\n')
    const [ib, failed] = parseUcxInfoDevices(text)
    expect(ib.transports).toEqual([{ transport: 'rc_mlx5', device: 'mlx5_ib0:1', failedToOpen: true }])
    expect(failed).toMatchObject({ name: 'mlx5_an0', failedToOpen: true })
  })
})

describe('UCX log lines', () => {
  it('09: the memlock hint after ibv_create_cq fails', () => {
    const lines = ucxLogLines(read('09-'))
    expect(lines).toHaveLength(2)
    expect(lines[0]).toEqual(
      logLine(
        'ERROR',
        'ib_log.c:246',
        "mlx5_0: ibv_create_cq() failed: Cannot allocate memory. Please set max locked memory (ulimit -l) to 'unlimited' (current: 64 kbytes)"
      )
    )
  })

  it('10: a quoted warning without timestamp and host', () => {
    expect(ucxLogLines(read('10-'))).toEqual([
      logLine(
        'WARN',
        'ucp_context.c:1321',
        "network device 'mlx5_bond_0:1' is not available, please use one or more of: 'bond0'(tcp), 'bond1'(tcp), 'bond2'(tcp), 'bond3'(tcp), 'eth0'(tcp), 'lo'(tcp)"
      )
    ])
  })
})

it('every fixture is used', () => {
  expect(files.map(f => f.slice(0, 2)).sort()).toEqual([
    '01',
    '02',
    '03',
    '04',
    '05',
    '06',
    '07',
    '08',
    '09',
    '10'
  ])
})
