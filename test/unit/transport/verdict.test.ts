// The transport check's judgement on its own (src/transport/verdict.ts), from what two pods could
// print: a pod that never ran (the image not pulled), a result without UCX_PROTO_INFO's table,
// zero-copy below the pass mark on a NIC that is not the GPU's, GPUDirect through dma-buf when
// nvidia_peermem is absent, and the preflight lines read back.
import { beforeAll, describe, expect, it } from '@jest/globals'
import type { UcxMemoryDomain, UcxPerftestOutput } from '../../../src/parse/ucx.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import type { Settings } from '../../../src/settings/settings.js'
import { parsePreflight, splitTransportLog, type Preflight } from '../../../src/transport/script.js'
import {
  describeSide,
  judgeTransport,
  type JudgeInput,
  type SideObservation
} from '../../../src/transport/verdict.js'
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
      /check that the nodes can pull nvcr\.io\/nvidia\/ai-dynamo\/vllm-runtime:1\.6\.2/
    )
  })
})

describe('judgeTransport: the cause of a transfer that did not run, first match wins', () => {
  const log = (message: string) => [{ level: 'ERROR' as const, source: 'ib_iface.c:1', message }]
  const noResult = (over: Partial<JudgeInput> = {}) =>
    judgeTransport(input({ bandwidth: { final: null, log: [], protocols: [] } as never, ...over })).transport

  it('a pod that did not run for another reason than its image: check the allocatable resources', () => {
    const t = noResult({ client: side('client', { problem: 'pod Pending: 0/2 nodes are available' }) })
    expect(t.reason).toBe('the client pod on n1 did not run: pod Pending: 0/2 nodes are available')
    expect(t.fix).toBe(
      `check the pool's allocatable rdma/${s.stack.rdmaResourceName} and nvidia.com/gpu (each worker pod asks for one of each)`
    )
  })

  it('UCX without CUDA: from ucx_info alone, or with the perftest error quoted', () => {
    const noCuda = domains({ peermem: true, dmabuf: true }).filter(d => d.component !== 'cuda_cpy')
    const t = noResult({ server: side('server', { ucxInfo: noCuda }) })
    expect(t.mode).toBe('failed')
    expect(t.reason).toMatch(/has no CUDA support: ucx_info -d lists no cuda_cpy memory domain\. NIXL/)
    const quoted = noResult({ client: side('client', { log: log('Unsupported memory type cuda') }) })
    expect(quoted.reason).toContain(
      'lists no cuda_cpy memory domain and ucx_perftest -m cuda failed (Unsupported memory type cuda). NIXL'
    )
    expect(quoted.fix).toMatch(/built --with-cuda/)
  })

  it('queues UCX could not create: the locked-memory limit for the worker’s user', () => {
    const t = noResult({
      server: side('server', {
        preflight: preflight({ memlockKiB: 8192, memlock: '8192', uid: 1001 }),
        log: log('ibv_create_cq(cqe=4096) failed: Cannot allocate memory')
      })
    })
    expect(t.reason).toBe(
      "UCX could not create its InfiniBand queues in the server pod on n0 (ibv_create_cq(cqe=4096) failed: Cannot allocate memory): the worker's locked-memory limit is 8192 KiB for UID 1001, and a non-root user cannot use IPC_LOCK to exceed it"
    )
    expect(t.fix).toMatch(/LimitMEMLOCK=infinity/)
    const unknown = noResult({
      client: side('client', {
        preflight: preflight({ memlockKiB: null, memlock: 'unlimited' }),
        log: log('max locked memory')
      })
    })
    expect(unknown.reason).toContain('limit is unlimited for UID 1000')
    const noPreflight = noResult({
      client: side('client', { preflight: null, log: log('Cannot allocate memory') })
    })
    expect(noPreflight.reason).toContain('limit is limited for UID ?')
  })

  it('no uverbs file: the pod did not get the RDMA resource', () => {
    const t = noResult({ client: side('client', { preflight: preflight({ infiniband: ['rdma_cm'] }) }) })
    expect(t.reason).toBe(
      `the client pod on n1 has no /dev/infiniband device (no uverbs file): it did not get rdma/${s.stack.rdmaResourceName}, so UCX has no InfiniBand device to use`
    )
    expect(t.fix).toMatch(/^request rdma\/\S+: 1 in every worker container/)
  })

  it('UCX without verbs although the pod has the device', () => {
    const noIb = domains({ peermem: true, dmabuf: true }).filter(d => d.component !== 'ib')
    const t = noResult({ server: side('server', { ucxInfo: noIb }) })
    expect(t.reason).toContain(
      'has no InfiniBand support: ucx_info -d in the server pod on n0 lists no ib memory domain although the pod has uverbs0, uverbs1'
    )
  })

  it("UCX on the node's Ethernet mlx5 device: no RDMA path between nodes", () => {
    const ports = [
      { device: 'mlx5_an0', state: 'ACTIVE', linkLayer: 'Ethernet', rateGbps: 100 },
      { device: 'mlx5_ib0', state: 'ACTIVE', linkLayer: 'InfiniBand', rateGbps: 400 }
    ]
    const t = noResult({
      client: side('client', {
        preflight: preflight({ ports, netDevices: 'all' }),
        log: log('mlx5_an0: ibv_create_ah failed: Invalid argument')
      })
    })
    expect(t.reason).toBe(
      "UCX used mlx5_an0, the node's Ethernet (accelerated-networking) mlx5 device, in the client pod on n1 (UCX_NET_DEVICES=all): mlx5_an0: ibv_create_ah failed: Invalid argument. It has no RDMA path between nodes"
    )
  })

  it('an InfiniBand port that is not ACTIVE', () => {
    const ports = [{ device: 'mlx5_ib0', state: 'DOWN', linkLayer: 'InfiniBand', rateGbps: 400 }]
    const t = noResult({ server: side('server', { preflight: preflight({ ports }) }) })
    expect(t.reason).toBe('mlx5_ib0 on n0 is DOWN: UCX cannot use it')
  })

  it("otherwise UCX's first error, or that no result was printed", () => {
    expect(noResult({ client: side('client', { log: log('endpoint timeout') }) }).reason).toBe(
      'ucx_perftest failed in the client pod on n1: endpoint timeout'
    )
    expect(noResult().reason).toBe('ucx_perftest printed no result (bandwidth run exit non-zero)')
    expect(judgeTransport(input({ bandwidth: null })).transport.reason).toBe(
      'ucx_perftest printed no result (bandwidth run exit unknown)'
    )
  })
})

describe('judgeTransport: the transport UCX chose when it ran', () => {
  const withLanes = (protocol: string, lanes: string[]): UcxPerftestOutput => ({
    ...bandwidth(50, lanes[0]),
    protocols: [
      {
        endpoint: 'perftest inter-node cfg#1',
        operation: 'remote memory read by ucp_get* into cuda/GPU0 from cuda/dev[1]',
        rows: [{ from: 0, to: Infinity, protocol, config: lanes.join(','), lanes }]
      }
    ]
  })

  it('tcp: KV-cache at TCP speed, with why InfiniBand was not usable', () => {
    const t = judgeTransport(input({ bandwidth: withLanes('zero-copy', ['tcp/eth0']) })).transport
    expect(t.mode).toBe('tcp')
    expect(t.reason).toBe(
      'UCX chose tcp (tcp/eth0) between the pods: KV-cache transfers would run at TCP speed: no InfiniBand transport was usable (UCX_TLS=rc_x,rc,dc_x,dc,cuda_copy,cuda_ipc)'
    )
    expect(t.fix).toMatch(/^keep rc_x\/rc/)
    const noDevice = judgeTransport(
      input({
        bandwidth: withLanes('zero-copy', ['tcp/eth0']),
        server: side('server', { preflight: preflight({ infiniband: [] }) }),
        ucxEnv: {}
      })
    ).transport
    expect(noDevice.reason).toMatch(
      /^UCX chose tcp \(tcp\/eth0\) between the pods: .*: the server pod on n0 has no \/dev\/infiniband device/
    )
    expect(noDevice.fix).toMatch(/^request rdma\//)
  })

  it('host-staged: GPU memory through host memory, naming the nodes without nvidia_peermem', () => {
    const noGpuReg = {
      preflight: preflight({ peermem: null }),
      ucxInfo: domains({ peermem: false, dmabuf: false })
    }
    const t = judgeTransport(
      input({
        bandwidth: withLanes('(?) multi-frag copy-in', ['rc_mlx5/mlx5_ib0:1']),
        server: side('server', noGpuReg),
        client: side('client', noGpuReg)
      })
    ).transport
    expect(t.mode).toBe('host-staged')
    expect(t.protocol).toBe('multi-frag copy-in')
    expect(t.gpudirect).toBeNull()
    expect(t.reason).toBe(
      'UCX moved the GPU memory through host memory ("multi-frag copy-in" on rc_mlx5/mlx5_ib0:1): on n1, n0 the mlx5 memory domain cannot register GPU memory — nvidia_peermem is not loaded (no /sys/module/nvidia_peermem on n1, n0) and dma-buf registration is unavailable (ucx_info -d: no cuda memory type and no dmabuf on mlx5)'
    )
    const onlyServer = judgeTransport(
      input({ bandwidth: withLanes('copy-in', ['rc_mlx5/mlx5_ib0:1']), server: side('server', noGpuReg) })
    ).transport
    expect(onlyServer.reason).toContain('on n0 the mlx5 memory domain')
    expect(onlyServer.reason).toContain('(no /sys/module/nvidia_peermem on n0)')
  })

  it('zero-copy at the mark names the protocol, lanes and rate; a small /dev/shm still fails it', () => {
    const t = judgeTransport(input()).transport
    expect(t.reason).toBe(
      'UCX read GPU memory with zero-copy over rc_mlx5/mlx5_ib0:1 at 380 Gb/s (pass mark 320 Gb/s)'
    )
    const small = judgeTransport(
      input({ client: side('client', { preflight: preflight({ shmKiB: 64 * 1024 }) }) })
    )
    expect(small.transport.verdict).toBe('fail')
    expect(small.transport.mode).toBe('gpudirect-rdma')
    expect(small.transport.reason).toMatch(
      /^\/dev\/shm is 64 MiB in the client pod on n1, less than the \S+ the worker mounts/
    )
    expect(small.summary).toBe(`gpudirect-rdma: ${small.transport.reason}`)
    const tcpAndShm = judgeTransport(
      input({
        bandwidth: withLanes('zero-copy', ['tcp/eth0']),
        server: side('server', { preflight: preflight({ shmKiB: 1024 }) })
      })
    ).transport
    expect(tcpAndShm.reason).toMatch(/^UCX chose tcp .*; \/dev\/shm is 1 MiB in the server pod on n0/)
    expect(tcpAndShm.fix).toMatch(/^keep rc_x\/rc.*; give worker containers a memory limit above/)
  })

  it('below the mark on the GPU’s own NIC: compare with the benchmark', () => {
    const t = judgeTransport(input({ bandwidth: bandwidth(100, 'rc_mlx5/mlx5_ib0:1') })).transport
    expect(t.verdict).toBe('fail')
    expect(t.reason).toBe(
      'GPU-to-GPU bandwidth 100 Gb/s is below the pass mark 320 Gb/s (0.8 × the 400 Gb/s link)'
    )
    expect(t.fix).toMatch(/^compare with the benchmark/)
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

describe('a side as the report shows it', () => {
  it('every field from the preflight and ucx_info, ports those UCX_NET_DEVICES names', () => {
    const p = preflight({
      infiniband: ['rdma_cm', 'umad0', 'uverbs0', 'uverbs12', 'uverbsX', 'xuverbs1'],
      gpus: ['00000002:00:00.0', '00000003:00:00.0'],
      shmKiB: 16 * 2 ** 20 + 600,
      netDevices: 'mlx5_an0:1,mlx5_ib1:1',
      ports: [
        { device: 'mlx5_ib0', state: 'ACTIVE', linkLayer: 'InfiniBand', rateGbps: 400 },
        { device: 'mlx5_ib1', state: 'DOWN', linkLayer: 'InfiniBand', rateGbps: 400 },
        { device: 'mlx5_an0', state: 'ACTIVE', linkLayer: 'Ethernet', rateGbps: 100 }
      ]
    })
    expect(describeSide(side('client', { preflight: p, problem: 'late' }))).toEqual({
      role: 'client',
      node: 'n1',
      pod: 'ucx-client',
      problem: 'late',
      uid: 1000,
      memlock: 'unlimited',
      shmMiB: 16 * 1024 + 1,
      uverbs: ['uverbs0', 'uverbs12'],
      gpu: '00000002:00:00.0',
      netDevices: 'mlx5_an0:1,mlx5_ib1:1',
      ports: [
        { device: 'mlx5_ib1', state: 'DOWN', linkLayer: 'InfiniBand', rateGbps: 400 },
        { device: 'mlx5_an0', state: 'ACTIVE', linkLayer: 'Ethernet', rateGbps: 100 }
      ],
      peermem: true,
      ucxVersion: '1.19.0',
      ucx: { cuda: true, ib: true, cudaMemoryType: true, dmabuf: true }
    })
  })

  it('with every device allowed, the InfiniBand ports only; nothing known without a preflight', () => {
    const p = preflight({
      netDevices: 'all',
      ports: [
        { device: 'mlx5_an0', state: 'ACTIVE', linkLayer: 'Ethernet', rateGbps: 100 },
        { device: 'mlx5_ib0', state: 'ACTIVE', linkLayer: 'InfiniBand', rateGbps: 400 }
      ]
    })
    expect(describeSide(side('server', { preflight: p })).ports.map(x => x.device)).toEqual(['mlx5_ib0'])
    expect(describeSide(side('server', { preflight: null, ucxInfo: [] }))).toEqual({
      role: 'server',
      node: 'n0',
      pod: 'ucx-server',
      uid: null,
      memlock: null,
      shmMiB: null,
      uverbs: [],
      gpu: null,
      netDevices: 'all',
      ports: [],
      peermem: null,
      ucxVersion: null,
      ucx: null
    })
  })

  it('what UCX supports: dma-buf needs both the mlx5 registration and CUDA’s dmabuf memory type', () => {
    const ucx = (mds: UcxMemoryDomain[]) => describeSide(side('server', { ucxInfo: mds })).ucx
    const [cudaCpy, ib] = domains({ peermem: false, dmabuf: true })
    expect(ucx([cudaCpy, ib])).toEqual({ cuda: true, ib: true, cudaMemoryType: false, dmabuf: true })
    expect(ucx([cudaCpy, { ...ib, registerDmabuf: false }])!.dmabuf).toBe(false)
    expect(ucx(domains({ peermem: false, dmabuf: false }))!.dmabuf).toBe(false)
    expect(ucx([ib])).toEqual({ cuda: false, ib: true, cudaMemoryType: false, dmabuf: false })
    expect(ucx([cudaCpy])).toEqual({ cuda: true, ib: false, cudaMemoryType: false, dmabuf: false })
    // One ib domain with the cuda memory type among several is enough.
    const [, ibPeer] = domains({ peermem: true, dmabuf: false })
    expect(ucx([cudaCpy, ib, { ...ibPeer, name: 'mlx5_ib1' }])!.cudaMemoryType).toBe(true)
  })
})

describe('which GPUDirect path a passing transfer took', () => {
  const path = (server: Partial<SideObservation>, client: Partial<SideObservation>) =>
    judgeTransport(input({ server: side('server', server), client: side('client', client) })).transport
      .gpudirect
  const peer = { ucxInfo: domains({ peermem: true, dmabuf: false }) }
  const dmabuf = {
    preflight: preflight({ peermem: null }),
    ucxInfo: domains({ peermem: false, dmabuf: true })
  }

  it('nvidia_peermem when both sides load it and register GPU memory through it', () => {
    expect(path(peer, peer)).toBe('nvidia_peermem')
  })
  it('dma-buf when one side lacks nvidia_peermem and both can register by dma-buf', () => {
    expect(path(peer, { ...dmabuf, ucxInfo: domains({ peermem: false, dmabuf: true }) })).toBe('dma-buf')
    expect(path({ ...peer, ucxInfo: domains({ peermem: true, dmabuf: true }) }, dmabuf)).toBe('dma-buf')
  })
  it('otherwise by the module: nvidia_peermem when both load it, dma-buf when either lacks it', () => {
    const loadedNoCudaType = { ucxInfo: domains({ peermem: false, dmabuf: false }) }
    expect(path(loadedNoCudaType, peer)).toBe('nvidia_peermem')
    expect(
      path(
        { preflight: preflight({ peermem: null }), ucxInfo: domains({ peermem: true, dmabuf: false }) },
        peer
      )
    ).toBe('dma-buf')
  })
  it('none when the transfer was not GPUDirect', () => {
    expect(judgeTransport(input({ bandwidth: bandwidth(380, null) })).transport.gpudirect).toBeNull()
  })
})

describe('what the report carries of a judgement', () => {
  it('the pair’s figures, lanes, protocol, the UCX environment with the client’s devices, both sides', () => {
    const lat: UcxPerftestOutput = {
      ...bandwidth(1, null),
      final: { ...bandwidth(1, null).final!, latencyUs: { percentile: 1, average: 1, overall: 2.345 } }
    }
    const { transport } = judgeTransport(input({ latency: lat }))
    expect(transport).toMatchObject({
      check: 'ucx',
      image: s.transport.image,
      pairs: [{ server: 'n0', client: 'n1', bandwidthGbps: 380, latencyUs: 2.35 }],
      protocol: 'zero-copy',
      ucxEnv: { UCX_TLS: 'rc_x,rc,dc_x,dc,cuda_copy,cuda_ipc', UCX_NET_DEVICES: 'mlx5_ib0:1' },
      reason: 'UCX read GPU memory with zero-copy over rc_mlx5/mlx5_ib0:1 at 380 Gb/s (pass mark 320 Gb/s)'
    })
    expect(transport.sides.map(x => x.role)).toEqual(['server', 'client'])
    const unknownDevices = judgeTransport(input({ client: side('client', { preflight: null }) })).transport
    expect(unknownDevices.ucxEnv.UCX_NET_DEVICES).toBe('all')
  })

  it('passes at the pass mark exactly, fails just below it, and has no pass mark without a link rate', () => {
    expect(judgeTransport(input({ bandwidth: bandwidth(320, 'rc_mlx5/mlx5_ib0:1') })).transport.verdict).toBe(
      'pass'
    )
    expect(
      judgeTransport(input({ bandwidth: bandwidth(319.9, 'rc_mlx5/mlx5_ib0:1') })).transport.verdict
    ).toBe('fail')
    const noLink = judgeTransport(
      input({ bandwidth: bandwidth(10, 'rc_mlx5/mlx5_ib0:1'), linkGbps: () => null })
    )
    expect(noLink.transport).toMatchObject({ verdict: 'pass', passMarkGbps: null, linkGbps: null })
    expect(noLink.transport.reason).toContain('(pass mark ? Gb/s)')
  })

  it('the link rate of the fastest device among the lanes', () => {
    const b = bandwidth(380, 'rc_mlx5/mlx5_ib0:1')
    b.protocols[0].rows[0].lanes = ['rc_mlx5/mlx5_ib0:1', 'rc_mlx5/mlx5_ib1:1']
    const rates: Record<string, number> = { mlx5_ib0: 200, mlx5_ib1: 400 }
    const asked: string[] = []
    const t = judgeTransport(
      input({
        bandwidth: b,
        linkGbps: (node, d) => {
          asked.push(`${node} ${d}`)
          return rates[d] ?? null
        }
      })
    ).transport
    expect(t.linkGbps).toBe(400)
    expect(asked).toEqual(['n1 mlx5_ib0', 'n1 mlx5_ib1'])
  })

  it('a fix only on a failure', () => {
    const failed = judgeTransport(input({ bandwidth: bandwidth(380, null) })).transport
    expect(failed.fix).toBe('use an image with UCX ≥ 1.12 (protocols v2 print UCX_PROTO_INFO tables)')
    expect(judgeTransport(input()).transport).not.toHaveProperty('fix')
  })

  it('a small /dev/shm on a passing transfer fails it with the shm cause alone', () => {
    const small = side('server', { preflight: preflight({ shmKiB: 64 * 1024 }) })
    const { transport, summary } = judgeTransport(input({ server: small }))
    expect(transport.mode).toBe('gpudirect-rdma')
    expect(transport.verdict).toBe('fail')
    expect(transport.reason).toMatch(/^\/dev\/shm is 64 MiB in the server pod on n0, less than the /)
    expect(transport.fix).toMatch(/^give worker containers a memory limit above/)
    expect(summary).toBe(`gpudirect-rdma: ${transport.reason}`)
    // At the worker's size (within rounding) it is no problem.
    const atSize = side('server', { preflight: preflight({ shmKiB: 16 * 2 ** 20 * 0.995 }) })
    expect(judgeTransport(input({ server: atSize })).transport.verdict).toBe('pass')
  })
})
