// The NCCL parsers against the fixtures of test/fixtures/nccl (SOURCES.md there): the
// all_reduce_perf results table and footer of real 2-node runs, and the NCCL_DEBUG=INFO lines that
// tell each path apart (IB with GPUDirect by peer memory or dma-buf, IB through host memory, the
// socket transport, no network), plus the IB plugin's network name.
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import {
  largestRow,
  ncclGdrPath,
  ncclMode,
  parseNcclNetwork,
  parseNcclTable,
  rowBusbw
} from '../../../src/parse/nccl.js'

const read = (name: string): string =>
  readFileSync(path.resolve(process.cwd(), 'test/fixtures/nccl', name), 'utf8')

describe('parseNcclTable', () => {
  it('reads every row of the 2-node ND A100 v4 table, its footer and the largest size', () => {
    const t = parseNcclTable(read('01-all_reduce_perf-2node-nda100v4-aks-rdma-infiniband.txt'))
    expect(t.rows).toHaveLength(16)
    expect(t.rows[0]).toEqual({
      bytes: 8,
      count: 2,
      type: 'float',
      redop: 'sum',
      outOfPlace: { timeUs: 99.09, algbwGBps: 0, busbwGBps: 0, wrong: null },
      inPlace: { timeUs: 36.48, algbwGBps: 0, busbwGBps: 0, wrong: null }
    })
    const last = largestRow(t)!
    expect(last.bytes).toBe(8589934592)
    expect(last.outOfPlace).toEqual({ timeUs: 86026, algbwGBps: 99.85, busbwGBps: 187.22, wrong: null })
    expect(rowBusbw(last)).toBe(187.22)
    expect(t.avgBusbwGBps).toBe(56.3994)
    expect(t.outOfBounds).toBe(0)
  })

  it('reads the IPoIB run at a few GB/s', () => {
    const t = parseNcclTable(read('02-all_reduce_perf-2node-ipoib-aks-rdma-infiniband.txt'))
    expect(t.rows).toHaveLength(16)
    expect(rowBusbw(largestRow(t)!)).toBe(3.15)
    expect(t.avgBusbwGBps).toBe(1.38997)
  })

  it('keeps rows between NCCL lines and reads the version banner; a table cut short has no footer', () => {
    const text = [
      '# nccl-tests version 2.17.6 nccl-headers=22707 nccl-library=22707',
      'h:1:2 [0] NCCL INFO Using network IB',
      '  1048576        262144     float     sum      -1    32.10   32.67   61.25      0    31.90   32.87   61.63      0',
      '[1,0]<stdout>:  2097152        524288     float     sum      -1    50.10   41.86   78.48      0    50.30   41.69   78.17      0'
    ].join('\n')
    const t = parseNcclTable(text)
    expect(t.testsVersion).toBe('2.17.6')
    expect(t.rows.map(r => [r.bytes, r.outOfPlace.wrong])).toEqual([
      [1048576, 0],
      [2097152, 0]
    ])
    expect(t.avgBusbwGBps).toBeNull()
    expect(parseNcclTable('').rows).toEqual([])
    expect(largestRow(parseNcclTable(''))).toBeNull()
  })
})

describe('parseNcclNetwork and ncclMode', () => {
  it('IB with GPUDirect through peer memory', () => {
    const n = parseNcclNetwork(read('03-nccl-info-ib-gdr-peermem.txt'))
    expect(n.network).toBe('IB')
    expect(n.version).toBe('2.27.7+cuda13.0')
    expect(n.ibDevices).toEqual([0, 1, 2, 3, 4, 5, 6, 7].map(i => `mlx5_ib${i}:1`))
    expect([n.netChannels, n.gdrChannels, n.gdrEnabledHcas]).toEqual([4, 4, 2])
    expect(ncclMode(n)).toBe('ib-gdr')
    expect(ncclGdrPath(n)).toBe('peermem')
  })

  it('IB with GPUDirect through dma-buf', () => {
    const n = parseNcclNetwork(read('04-nccl-info-ib-gdr-dmabuf.txt'))
    expect(n.dmabufAvailable).toBe(true)
    expect(ncclMode(n)).toBe('ib-gdr')
    expect(ncclGdrPath(n)).toBe('dmabuf')
  })

  it('IB through host memory', () => {
    const n = parseNcclNetwork(read('05-nccl-info-ib-host-staged.txt'))
    expect([n.netChannels, n.gdrChannels, n.gdrDisabledHcas]).toEqual([2, 0, 2])
    expect(ncclMode(n)).toBe('ib')
    expect(ncclGdrPath(n)).toBeNull()
  })

  it('the socket transport when the pod has no InfiniBand device', () => {
    const n = parseNcclNetwork(read('06-nccl-info-socket.txt'))
    expect(n.ibNoDevice).toBe(true)
    expect(n.socketInterfaces).toEqual(['eth0'])
    expect(n.network).toBe('Socket')
    expect(ncclMode(n)).toBe('socket')
  })

  it("the IB plugin's network name counts as IB", () => {
    const n = parseNcclNetwork(read('07-nccl-info-ibext-gdr.txt'))
    expect(n.network).toBe('IBext_v8')
    expect(ncclMode(n)).toBe('ib-gdr')
  })

  it('failed when NCCL found no network, with its warning', () => {
    const n = parseNcclNetwork(read('08-nccl-warn-no-net.txt'))
    expect(n.warnings).toEqual(['NET/Socket : no interface found'])
    expect(ncclMode(n)).toBe('failed')
    expect(ncclMode(parseNcclNetwork(''))).toBe('failed')
  })

  it('IB chosen but no channel connected is failed; mixed channels are not GPUDirect', () => {
    const base =
      'h:1:2 [0] NCCL INFO Using network IB\nh:1:2 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB eth0:1.2.3.4<0>'
    expect(ncclMode(parseNcclNetwork(base))).toBe('failed')
    const mixed = `${base}\nh:1:2 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA\nh:1:2 [0] NCCL INFO Channel 00/0 : 8[0] -> 0[0] [receive] via NET/IB/0`
    expect(ncclMode(parseNcclNetwork(mixed))).toBe('ib')
  })

  it('channel lines as NCCL before 2.9 printed them (no `/<n>` after the channel), and under mpirun’s rank prefix', () => {
    const old = [
      '[3] node-a:11:12 [0] NCCL INFO Using network IB',
      '[3] node-a:11:12 [0] NCCL INFO Channel 01 : 2[c7000] -> 0[87000] [receive] via NET/IB/5/GDRDMA',
      '[3] node-a:11:12 [0] NCCL INFO Channel 01 : 0[87000] -> 2[c7000] [send] via NET/IB/5/GDRDMA'
    ].join('\n')
    const n = parseNcclNetwork(old)
    expect([n.netChannels, n.gdrChannels]).toEqual([2, 2])
    expect(ncclMode(n)).toBe('ib-gdr')
  })
})
