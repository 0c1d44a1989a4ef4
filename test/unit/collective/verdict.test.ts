// The collective check's judgement over real NCCL output (test/fixtures/nccl): the path from the
// INFO lines decides first (socket with the stripped pods named, host-staged, no connection), then
// busbw at the largest size against the inter-node mark (slow NICs named), and every node's own
// run against the intra-node mark (a slow node named even when the pair failed too).
import { beforeAll, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { collectivePassMarks } from '../../../src/collective/pass-marks.js'
import {
  judgeCollective,
  type InterObservation,
  type NodeObservation
} from '../../../src/collective/verdict.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import type { Settings } from '../../../src/settings/settings.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'

const read = (name: string) => readFileSync(path.resolve(process.cwd(), 'test/fixtures/nccl', name), 'utf8')
const TABLE_HDR = read('01-all_reduce_perf-2node-nda100v4-aks-rdma-infiniband.txt')
const TABLE_IPOIB = read('02-all_reduce_perf-2node-ipoib-aks-rdma-infiniband.txt')

let s: Settings
beforeAll(() => {
  s = readSettings(
    reader({
      ...VALID_APPLY,
      mode: 'verify',
      'collective-check': 'nccl',
      'vm-size': 'Standard_ND96asr_v4',
      'collective-image': 'x/nccl:1'
    }),
    {}
  ).settings
})

const marks = () => collectivePassMarks('Standard_ND96asr_v4')

/** A node's own run: the fixture table with its last busbw replaced. */
function nodeRun(node: string, last: string): NodeObservation {
  return {
    node,
    pod: `nccl-${node}`,
    gpus: 8,
    intra: { text: TABLE_HDR.replace('187.22', last), exitCode: 0 }
  }
}

function inter(text: string, over: Partial<InterObservation> = {}): InterObservation {
  return {
    launcher: 'n0',
    worker: 'n1',
    inter: { text, exitCode: 0 },
    rdmaStripped: [],
    slowNics: [],
    ...over
  }
}

const judge = (
  i: InterObservation | null,
  nodes: NodeObservation[] = [nodeRun('n0', '240.00'), nodeRun('n1', '240.00')]
) => judgeCollective({ settings: s, marks: marks(), nodes, inter: i, ncclEnv: {} }).collective

describe('judgeCollective', () => {
  it('passes ib-gdr at 187.22 GB/s over 8 × HDR (mark 180), with every size and the peermem path', () => {
    const c = judge(inter(`${read('03-nccl-info-ib-gdr-peermem.txt')}\n${TABLE_HDR}`))
    expect(c).toMatchObject({
      mode: 'ib-gdr',
      verdict: 'pass',
      busbwGBps: 187.22,
      passMarkGBps: 180,
      gpudirect: 'peermem',
      network: 'IB'
    })
    expect(c.sizes).toHaveLength(16)
    expect(c.sizes[c.sizes.length - 1]).toEqual({ bytes: 8589934592, algbwGBps: 99.85, busbwGBps: 187.22 })
    expect(c.fix).toBeUndefined()
  })

  it('socket with the stripped pods named and the policy to fix', () => {
    const c = judge(
      inter(`${read('06-nccl-info-socket.txt')}\n${TABLE_IPOIB}`, {
        rdmaStripped: ['nccl-launcher-0', 'nccl-worker-1']
      })
    )
    expect(c.mode).toBe('socket')
    expect(c.verdict).toBe('fail')
    expect(c.reason).toContain(
      'nccl-launcher-0, nccl-worker-1 was admitted without rdma/hca_shared_devices_a'
    )
    expect(c.fix).toContain('admission policy')
    expect(c.busbwGBps).toBe(3.15)
  })

  it('socket without a stripped pod points at the device plugin', () => {
    const c = judge(inter(`${read('06-nccl-info-socket.txt')}\n${TABLE_IPOIB}`))
    expect(c.reason).toContain('NET/IB : No device found')
    expect(c.fix).toContain('device plugin')
  })

  it('ib through host memory fails even above the mark', () => {
    const c = judge(inter(`${read('05-nccl-info-ib-host-staged.txt')}\n${TABLE_HDR}`))
    expect(c.mode).toBe('ib')
    expect(c.verdict).toBe('fail')
    expect(c.reason).toContain('GPU Direct RDMA Disabled for 2 HCAs')
    expect(c.fix).toContain('nvidia_peermem')
  })

  it('ib-gdr below the mark names the slow NICs', () => {
    const low = judge(
      inter(`${read('03-nccl-info-ib-gdr-peermem.txt')}\n${TABLE_HDR.replace(/187\.(22|05)/g, '120.50')}`, {
        slowNics: ['n1/mlx5_ib3 (100 Gb/s)']
      })
    )
    expect(low).toMatchObject({ mode: 'ib-gdr', verdict: 'fail', busbwGBps: 120.5 })
    expect(low.reason).toContain('below 180 GB/s')
    expect(low.reason).toContain('n1/mlx5_ib3 (100 Gb/s)')
  })

  it('failed when NCCL found no network, quoting its warning; a node below its mark is named as well', () => {
    const c = judge(inter(read('08-nccl-warn-no-net.txt')), [
      nodeRun('n0', '240.00'),
      nodeRun('n1', '150.00')
    ])
    expect(c.mode).toBe('failed')
    expect(c.reason).toContain('NCCL WARN NET/Socket : no interface found')
    expect(c.reason).toContain('within a node: n1: intra-node busbw 187.05 GB/s')
    expect(c.nodes.map(n => n.verdict)).toEqual(['pass', 'fail'])
    expect(c.fix).toContain('drain n1')
  })

  it('no pair: failed with the reason', () => {
    const c = judgeCollective({
      settings: s,
      marks: marks(),
      nodes: [],
      inter: null,
      noPair: 'needs two RDMA nodes',
      ncclEnv: {}
    }).collective
    expect(c).toMatchObject({ mode: 'failed', verdict: 'fail', pair: null })
    expect(c.reason).toBe('the collective check needs two RDMA nodes')
  })
})
