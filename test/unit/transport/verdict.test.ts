// The transport check's judgement on its own (src/transport/verdict.ts), from what two pods could
// print: a pod that never ran (the image not pulled), a result without UCX_PROTO_INFO's table,
// zero-copy below the pass mark on a NIC that is not the GPU's, GPUDirect through dma-buf when
// nvidia_peermem is absent, and the preflight lines read back.
import { beforeAll, describe, expect, it } from '@jest/globals'
import type { UcxMemoryDomain, UcxPerftestOutput } from '../../../src/parse/ucx.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import type { Settings } from '../../../src/settings/settings.js'
import { parsePreflight, splitTransportLog, type Preflight } from '../../../src/transport/script.js'
import { judgeTransport, type JudgeInput, type SideObservation } from '../../../src/transport/verdict.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'

// Built before the tests, not while the file loads (a settings bug fails tests, not the file).
let s: Settings
beforeAll(() => {
  s = readSettings(reader({ ...VALID_APPLY, mode: 'verify', 'transport-check': 'ucx' })).settings
})

function preflight(over: Partial<Preflight> = {}): Preflight {
  return {
    uid: 1000,
    memlockKiB: null,
    memlock: 'unlimited',
    shmKiB: 16 * 2 ** 20,
    infiniband: ['rdma_cm', 'uverbs0', 'uverbs1'],
    gpus: ['00000001:00:00.0'],
    netDevices: 'mlx5_ib0:1',
    ports: [{ device: 'mlx5_ib0', state: 'ACTIVE', linkLayer: 'InfiniBand', rateGbps: 400 }],
    peermem: '580.126.20',
    ucxVersion: '1.19.0',
    ...over
  }
}

function domains(o: { peermem: boolean; dmabuf: boolean }): UcxMemoryDomain[] {
  return [
    {
      name: 'cuda_cpy',
      component: 'cuda_cpy',
      registerDmabuf: false,
      memoryTypes: { cuda: ['access', 'alloc', 'reg', 'detect', ...(o.dmabuf ? ['dmabuf'] : [])] },
      transports: [],
      failedToOpen: false
    },
    {
      name: 'mlx5_ib0',
      component: 'ib',
      registerDmabuf: true,
      memoryTypes: { host: ['access', 'reg', 'cache'], ...(o.peermem ? { cuda: ['reg', 'cache'] } : {}) },
      transports: [{ transport: 'rc_mlx5', device: 'mlx5_ib0:1', failedToOpen: false }],
      failedToOpen: false
    }
  ]
}

function side(role: 'server' | 'client', over: Partial<SideObservation> = {}): SideObservation {
  return {
    role,
    node: role === 'server' ? 'n0' : 'n1',
    pod: `ucx-${role}`,
    preflight: preflight(),
    ucxInfo: domains({ peermem: true, dmabuf: true }),
    log: [],
    ...over
  }
}

function bandwidth(gbps: number, lane: string | null): UcxPerftestOutput {
  const mbs = (gbps * 1e9) / 8 / 2 ** 20
  return {
    final: {
      iterations: 200,
      latencyUs: { percentile: 1, average: 1, overall: 1 },
      bandwidthMBs: { average: mbs, overall: mbs },
      messageRate: { average: 1, overall: 1 }
    },
    log: [],
    protocols: lane
      ? [
          {
            endpoint: 'perftest inter-node cfg#1',
            operation: 'remote memory read by ucp_get* into cuda/GPU0 from cuda/dev[1]',
            rows: [{ from: 0, to: Infinity, protocol: 'zero-copy', config: lane, lanes: [lane] }]
          }
        ]
      : []
  }
}

function input(over: Partial<JudgeInput> = {}): JudgeInput {
  return {
    settings: s,
    server: side('server'),
    client: side('client'),
    bandwidth: bandwidth(380, 'rc_mlx5/mlx5_ib0:1'),
    latency: null,
    linkGbps: () => 400,
    localNic: () => 'mlx5_ib0',
    ucxEnv: { UCX_TLS: 'rc_x,rc,dc_x,dc,cuda_copy,cuda_ipc' },
    ...over
  }
}

describe('judgeTransport', () => {
  it('passes zero-copy at the link rate through nvidia_peermem', () => {
    const { transport, summary } = judgeTransport(input())
    expect(transport).toMatchObject({
      mode: 'gpudirect-rdma',
      verdict: 'pass',
      passMarkGbps: 320,
      linkGbps: 400,
      gpudirect: 'nvidia_peermem',
      lanes: ['rc_mlx5/mlx5_ib0:1']
    })
    expect(transport.fix).toBeUndefined()
    expect(summary).toBe('gpudirect-rdma at 380 Gb/s (≥ 320 Gb/s) between n0 and n1')
  })

  it('says GPUDirect went through dma-buf when nvidia_peermem is absent', () => {
    const dmabufOnly = {
      preflight: preflight({ peermem: null }),
      ucxInfo: domains({ peermem: false, dmabuf: true })
    }
    const { transport } = judgeTransport(
      input({ server: side('server', dmabufOnly), client: side('client', dmabufOnly) })
    )
    expect(transport.gpudirect).toBe('dma-buf')
    expect(transport.sides.map(x => x.peermem)).toEqual([false, false])
  })

  it('below the pass mark on a NIC that is not the GPU’s: fail, naming both, fix UCX_NET_DEVICES', () => {
    const { transport } = judgeTransport(
      input({ bandwidth: bandwidth(150, 'rc_mlx5/mlx5_ib4:1'), localNic: () => 'mlx5_ib0' })
    )
    expect(transport.mode).toBe('gpudirect-rdma')
    expect(transport.verdict).toBe('fail')
    expect(transport.reason).toBe(
      "GPU-to-GPU bandwidth 150 Gb/s is below the pass mark 320 Gb/s (0.8 × the 400 Gb/s link): UCX used mlx5_ib4, not mlx5_ib0, the NIC local to the client's GPU (UCX_NET_DEVICES=mlx5_ib0:1)"
    )
    expect(transport.fix).toMatch(/^set UCX_NET_DEVICES to the InfiniBand device local to the worker’s GPU/)
  })

  it('a result without the protocol table: the transport is unknown, so it fails', () => {
    const { transport } = judgeTransport(input({ bandwidth: bandwidth(380, null) }))
    expect(transport).toMatchObject({ mode: 'failed', verdict: 'fail', lanes: [], protocol: null })
    expect(transport.reason).toMatch(/printed no protocol table/)
  })

  it('a pod that never ran: failed, why, and how to get the image', () => {
    const { transport } = judgeTransport(
      input({
        server: side('server', {
          preflight: null,
          ucxInfo: [],
          problem: 'container worker is in ImagePullBackOff'
        }),
        client: side('client', { preflight: null, ucxInfo: [] }),
        bandwidth: null
      })
    )
    expect(transport.mode).toBe('failed')
    expect(transport.reason).toBe('the server pod on n0 did not run: container worker is in ImagePullBackOff')
    expect(transport.fix).toMatch(
      /check that the nodes can pull nvcr\.io\/nvidia\/ai-dynamo\/vllm-runtime:0\.8\.1/
    )
  })
})

describe('the preflight read back', () => {
  it('every line, as the script prints it', () => {
    const log = [
      '@@@ aks-rdma-action transport preflight',
      'uid 1000',
      'memlock 64',
      'shm tmpfs 65536 0 65536 0% /dev/shm',
      'infiniband rdma_cm umad0 uverbs0',
      'gpus 00000003:00:00.0',
      'net-devices mlx5_ib2:1',
      'port mlx5_an0 1: DOWN|Ethernet|10 Gb/sec (4X SDR)',
      'port mlx5_ib2 4: ACTIVE|InfiniBand|200 Gb/sec (4X HDR)',
      'peermem none',
      'ucx # Library version: 1.19.0',
      '@@@ aks-rdma-action transport ucx_info',
      '# Memory domain: self',
      '@@@ aks-rdma-action transport bandwidth',
      'Final: …',
      'exit=1'
    ].join('\n')
    const sections = splitTransportLog(log)
    expect([...sections.keys()]).toEqual(['preflight', 'ucx_info', 'bandwidth'])
    expect(sections.get('bandwidth')).toEqual({ text: 'Final: …', exitCode: 1 })
    expect(sections.get('preflight')!.exitCode).toBeNull()
    expect(parsePreflight(sections.get('preflight')!.text)).toEqual({
      uid: 1000,
      memlockKiB: 64,
      memlock: '64',
      shmKiB: 65536,
      infiniband: ['rdma_cm', 'umad0', 'uverbs0'],
      gpus: ['00000003:00:00.0'],
      netDevices: 'mlx5_ib2:1',
      ports: [
        { device: 'mlx5_an0', state: 'DOWN', linkLayer: 'Ethernet', rateGbps: 10 },
        { device: 'mlx5_ib2', state: 'ACTIVE', linkLayer: 'InfiniBand', rateGbps: 200 }
      ],
      peermem: null,
      ucxVersion: '1.19.0'
    })
  })
})
