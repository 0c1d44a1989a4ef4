// The simulator's UCX (workloads/ucx.ts) on its own: UCX_TLS aliases and exclusions, the
// unavailable-device warning in UCX's words, memlock × user × capabilities (IPC_LOCK only helps
// root), `ucx_info -d` read back by the action's parser (cuda among the mlx5 memory types with
// nvidia_peermem, dma-buf registration, no cuda_cpy without CUDA, no ib domain without verbs, an
// interface that cannot open), and ucx_perftest runs between two sides: zero-copy through
// nvidia_peermem or dma-buf, software emulation without either, tcp without InfiniBand, refusals
// with UCX's errors. Also the shell's parameter expansion the worker prelude uses, the kubelet's
// /dev/shm sizing, and the image model (Dynamo runtime: UID 1000).
import { describe, expect, it } from '@jest/globals'
import { parseProtoInfo, parseUcxInfoDevices, parseUcxPerftest, ucxLogLines } from '../../../src/parse/ucx.js'
import { DEFAULT_SCENARIO, type Scenario } from '../../../sim/scenario.js'
import { buildNodeHardware, type NodeHardware } from '../../../sim/kube/hardware.js'
import type { PodView } from '../../../sim/kube/workloads/host-tools.js'
import { containerUid, imageModel } from '../../../sim/kube/workloads/image-contents.js'
import { shmKiB } from '../../../sim/kube/workloads/index.js'
import { parameterExpansion, Shell } from '../../../sim/kube/workloads/shell.js'
import {
  effectiveMemlockKiB,
  enabledTransports,
  selectNetDevices,
  ucxCommands,
  ucxInfoDevices,
  UcxNetwork,
  type UcxSide
} from '../../../sim/kube/workloads/ucx.js'

const DYNAMO = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.8.1'

function node(name: string, ordinal: number, edit: (h: NodeHardware) => void = () => {}): NodeHardware {
  const hw = buildNodeHardware({
    scenario: structuredClone(DEFAULT_SCENARIO),
    nodeName: name,
    pool: 'rdmapool',
    vmSize: 'Standard_ND96asr_v4',
    osSku: 'Ubuntu',
    kubernetesVersion: '1.33',
    rdmaIndex: ordinal,
    ordinal
  })
  hw.ofedReady = true
  hw.gpuDriverReady = true
  hw.gpuKernelModules = 'open'
  hw.memlockUnlimited = true
  hw.nvidiaPeermemLoaded = true
  edit(hw)
  return hw
}

function side(
  hw: NodeHardware,
  o: {
    gpu?: number
    env?: Record<string, string>
    uid?: number
    ipcLock?: boolean
    cuda?: boolean
    verbs?: boolean
    ip?: string
  } = {}
): UcxSide {
  const view: PodView = {
    hw,
    podName: `pod-${hw.nodeName}`,
    verbsDevices: hw.nics.filter(n => n.linkLayer === 'InfiniBand'),
    gpus: true,
    gpuIndexes: [o.gpu ?? 0],
    uid: o.uid ?? 1000
  }
  return {
    view,
    build: { version: '1.19.0', cuda: o.cuda ?? true, verbs: o.verbs ?? true },
    uid: o.uid ?? 1000,
    ipcLock: o.ipcLock ?? false,
    privileged: false,
    env: o.env ?? {},
    podName: view.podName,
    podIP: () => o.ip ?? '10.244.0.10'
  }
}

describe('UCX_TLS and UCX_NET_DEVICES', () => {
  it('aliases as ucp_context.c lists them, all, and ^ to exclude', () => {
    expect([...enabledTransports('rc_x,rc,dc_x,dc,cuda_copy,cuda_ipc')].sort()).toEqual(
      ['cuda_copy', 'cuda_ipc', 'dc_mlx5', 'rc_mlx5', 'rc_verbs', 'ud_mlx5', 'ud_verbs'].sort()
    )
    expect(enabledTransports(undefined).has('tcp')).toBe(true)
    const noTcp = enabledTransports('^tcp,cuda_ipc')
    expect(noTcp.has('tcp')).toBe(false)
    expect(noTcp.has('rc_mlx5')).toBe(true)
    expect(noTcp.has('cuda_ipc')).toBe(false)
  })

  it('a device the pod does not have: the warning in ucp_context.c’s words, what it can use instead', () => {
    const s = side(node('n0', 0), { env: { UCX_NET_DEVICES: 'mlx5_ib9:1' } })
    s.view.verbsDevices = []
    const r = selectNetDevices(s)
    expect(r.devices).toEqual([])
    expect(r.warning).toBe(
      "network device 'mlx5_ib9:1' is not available, please use one or more of: 'eth0'(tcp), 'lo'(tcp)"
    )
    const ok = selectNetDevices(side(node('n0', 0), { env: { UCX_NET_DEVICES: 'mlx5_ib3:1' } }))
    expect(ok.devices.map(d => d.name)).toEqual(['mlx5_ib3:1'])
    expect(ok.warning).toBeUndefined()
  })
})

describe('memlock × user × capabilities', () => {
  const limited = node('n0', 0, h => {
    h.memlockUnlimited = false
  })
  it('a non-root user keeps the container’s limit, IPC_LOCK or not', () => {
    expect(effectiveMemlockKiB(side(limited, { uid: 1000 }))).toBe(64)
    expect(effectiveMemlockKiB(side(limited, { uid: 1000, ipcLock: true }))).toBe(64)
  })
  it('root with IPC_LOCK is not bound by it; root without is', () => {
    expect(effectiveMemlockKiB(side(limited, { uid: 0, ipcLock: true }))).toBeNull()
    expect(effectiveMemlockKiB(side(limited, { uid: 0 }))).toBe(64)
  })
  it('ib-node-config’s unlimited containerd, unless the CRI base spec sets a limit for containers', () => {
    expect(effectiveMemlockKiB(side(node('n0', 0)))).toBeNull()
    const based = node('n0', 0, h => {
      h.memlockOverrideKiB = 64
    })
    expect(effectiveMemlockKiB(side(based))).toBe(64)
  })
})

describe('ucx_info -d, read by the action’s parser', () => {
  const ib = (text: string) => parseUcxInfoDevices(text).filter(m => m.component === 'ib')

  it('with nvidia_peermem: cuda among every mlx5 domain’s memory types; rc/dc/ud on each device', () => {
    const r = ucxInfoDevices(side(node('n0', 0)))
    const mds = parseUcxInfoDevices(r.out)
    expect(ib(r.out).map(m => m.name)).toEqual([0, 1, 2, 3, 4, 5, 6, 7].map(i => `mlx5_ib${i}`))
    for (const m of ib(r.out)) {
      expect(m.memoryTypes).toEqual({ host: ['access', 'reg', 'cache'], cuda: ['reg', 'cache'] })
      expect(m.registerDmabuf).toBe(true)
      expect(m.transports.map(t => t.transport)).toEqual([
        'rc_verbs',
        'rc_mlx5',
        'dc_mlx5',
        'ud_verbs',
        'ud_mlx5'
      ])
      expect(m.transports.every(t => !t.failedToOpen && t.device === `${m.name}:1`)).toBe(true)
    }
    expect(mds.find(m => m.component === 'cuda_cpy')!.memoryTypes.cuda).toContain('dmabuf')
    expect(r.err).toBe('')
  })

  it('without nvidia_peermem no cuda memory type; without the open modules no dma-buf export', () => {
    const r = ucxInfoDevices(
      side(
        node('n0', 0, h => {
          h.nvidiaPeermemLoaded = false
          h.gpuDmabuf = false
        })
      )
    )
    expect(ib(r.out).every(m => !('cuda' in m.memoryTypes))).toBe(true)
    expect(parseUcxInfoDevices(r.out).find(m => m.component === 'cuda_cpy')!.memoryTypes.cuda).not.toContain(
      'dmabuf'
    )
  })

  it('a UCX without CUDA has no cuda_cpy domain; one without verbs no ib domain', () => {
    expect(
      parseUcxInfoDevices(ucxInfoDevices(side(node('n0', 0), { cuda: false })).out).some(
        m => m.component === 'cuda_cpy'
      )
    ).toBe(false)
    expect(ib(ucxInfoDevices(side(node('n0', 0), { verbs: false })).out)).toEqual([])
  })

  it('a 64 KiB limit: every InfiniBand interface fails to open, with UCX’s memlock hint on stderr', () => {
    const r = ucxInfoDevices(side(node('n0', 0, h => (h.memlockUnlimited = false))))
    for (const m of ib(r.out)) expect(m.transports.every(t => t.failedToOpen)).toBe(true)
    const errors = ucxLogLines(r.err)
    expect(errors).toHaveLength(8)
    expect(errors[0]).toEqual({
      level: 'ERROR',
      source: 'ib_iface.c:1317',
      message:
        "mlx5_ib0: ibv_create_cq(cqe=4096) failed: Cannot allocate memory : Please set max locked memory (ulimit -l) to 'unlimited' (current: 64 kbytes)"
    })
  })
})

describe('ucx_perftest between two pods', () => {
  /** Runs a server on `a` and a client on `b`; the client's and the server's output. */
  async function run(a: UcxSide, b: UcxSide, args: string[]) {
    const net = new UcxNetwork()
    const ips: Record<string, string> = { [a.podName]: '10.244.0.10', [b.podName]: '10.244.1.10' }
    const env = (s: UcxSide) => ({
      side: () => s,
      resolve: (h: string) => ips[h],
      net,
      sleep: async () => {}
    })
    const server = ucxCommands(env({ ...a, podIP: () => ips[a.podName] }))
    const client = ucxCommands(env({ ...b, podIP: () => ips[b.podName] }))
    let serverOut = ''
    const io = { out: (t: string) => (serverOut += t), err: (t: string) => (serverOut += t) }
    const s = server.ucx_perftest(['ucx_perftest', '-p', '13337'], '', io, a.env)
    await new Promise(r => setImmediate(r))
    const c = await client.ucx_perftest(
      ['ucx_perftest', '10.244.0.10', '-p', '13337', ...args],
      '',
      { out: () => {}, err: () => {} },
      { ...b.env, UCX_PROTO_INFO: 'y' }
    )
    await Promise.race([s, new Promise(r => setImmediate(r))])
    return { client: `${c.out ?? ''}${c.err ?? ''}`, code: c.code, server: serverOut }
  }
  const GET = ['-t', 'ucp_get', '-m', 'cuda,cuda', '-s', '67108864', '-n', '200', '-w', '20']
  const ucx = { UCX_TLS: 'rc_x,rc,dc_x,dc,cuda_copy,cuda_ipc' }

  it('GPU-local NICs with nvidia_peermem: zero-copy on the named device near the 200 Gb/s link', async () => {
    const r = await run(
      side(node('a', 0), { gpu: 0, env: { ...ucx, UCX_NET_DEVICES: 'mlx5_ib0:1' } }),
      side(node('b', 1), { gpu: 3, env: { ...ucx, UCX_NET_DEVICES: 'mlx5_ib3:1' } }),
      GET
    )
    expect(r.code).toBe(0)
    const out = parseUcxPerftest(r.client)
    const [t] = out.protocols
    expect(t.operation).toBe('remote memory read by ucp_get* into cuda/GPU0 from cuda/dev[1]')
    expect(t.rows).toEqual([
      {
        from: 0,
        to: Infinity,
        protocol: 'zero-copy',
        config: 'rc_mlx5/mlx5_ib3:1',
        lanes: ['rc_mlx5/mlx5_ib3:1']
      }
    ])
    const gbps = (out.final!.bandwidthMBs.overall * 2 ** 20 * 8) / 1e9
    expect(gbps).toBeGreaterThan(190)
    expect(gbps).toBeLessThan(200)
    // The server printed the test box with the GPU memory types.
    expect(parseUcxPerftest(r.server)).toMatchObject({
      sendMemory: 'cuda',
      recvMemory: 'cuda',
      test: 'get latency / bandwidth / message rate'
    })
  })

  it('no nvidia_peermem but dma-buf: still zero-copy (UCX registers GPU memory through dma-buf)', async () => {
    const noPeermem = (h: NodeHardware) => (h.nvidiaPeermemLoaded = false)
    const r = await run(
      side(node('a', 0, noPeermem), { env: ucx }),
      side(node('b', 1, noPeermem), { env: ucx }),
      GET
    )
    expect(parseProtoInfo(r.client)[0].rows[0].protocol).toBe('zero-copy')
  })

  it('neither: software emulation, staged through host memory at a few GB/s', async () => {
    const none = (h: NodeHardware) => {
      h.nvidiaPeermemLoaded = false
      h.gpuDmabuf = false
    }
    const r = await run(side(node('a', 0, none), { env: ucx }), side(node('b', 1, none), { env: ucx }), GET)
    const out = parseUcxPerftest(r.client)
    expect(out.protocols[0].rows[0].protocol).toBe('software emulation')
    expect((out.final!.bandwidthMBs.overall * 2 ** 20 * 8) / 1e9).toBeLessThan(33)
  })

  it('no InfiniBand device and tcp allowed: tcp/eth0; tcp not allowed: no transport, UCX’s error', async () => {
    const bare = (s: UcxSide) => ({ ...s, view: { ...s.view, verbsDevices: [] } })
    const tcp = await run(bare(side(node('a', 0))), bare(side(node('b', 1))), GET)
    expect(parseProtoInfo(tcp.client)[0].rows[0].lanes).toEqual(['tcp/eth0'])
    const none = await run(
      bare(side(node('a', 0), { env: ucx })),
      bare(side(node('b', 1), { env: ucx })),
      GET
    )
    expect(none.code).toBe(1)
    const errors = ucxLogLines(none.client).map(l => l.message)
    expect(errors).toContain('Failed to run test: Destination is unreachable')
    expect(
      errors.some(m =>
        /^no active messages transport to pod-a: self\/memory - Destination is unreachable$/.test(m)
      )
    ).toBe(true)
  })

  it('a UCX without CUDA refuses GPU memory on both sides', async () => {
    const r = await run(side(node('a', 0), { cuda: false }), side(node('b', 1), { cuda: false }), GET)
    expect(r.code).toBe(1)
    expect(ucxLogLines(r.client).map(l => l.message)).toEqual([
      'Unsupported memory types cuda<->cuda',
      'Failed to run test: Unsupported operation'
    ])
  })

  it('a client with no server yet: connect() refused, as perftest.c says it', async () => {
    const net = new UcxNetwork()
    const b = side(node('b', 1))
    const c = await ucxCommands({
      side: () => b,
      resolve: () => undefined,
      net,
      sleep: async () => {}
    }).ucx_perftest(['ucx_perftest', '10.244.0.10', ...GET], '', { out: () => {}, err: () => {} }, {})
    expect(c.code).toBe(1)
    expect(ucxLogLines(c.err ?? '')[0].message).toBe('client failed. connect() failed: Connection refused')
  })
})

describe('the pieces around UCX', () => {
  it('the shell’s parameter expansion, as the worker prelude uses it', async () => {
    const env = { m: '00000001:00:00.0=mlx5_ib0', d: '', e: 'x' }
    expect(parameterExpansion('m%%=*', env)).toBe('00000001:00:00.0')
    expect(parameterExpansion('m#*=', env)).toBe('mlx5_ib0')
    expect(parameterExpansion('m##*:', env)).toBe('00.0=mlx5_ib0')
    expect(parameterExpansion('m%:*', env)).toBe('00000001:00')
    expect(parameterExpansion('d:+,', env)).toBe('')
    expect(parameterExpansion('e:+,', env)).toBe(',')
    expect(parameterExpansion('d:-all', env)).toBe('all')
    expect(parameterExpansion('d-all', env)).toBe('')
    expect(parameterExpansion('nope-all', env)).toBe('all')
    let out = ''
    const shell = new Shell({
      commands: { 'nvidia-smi': () => ({ out: '00000002:00:00.0\n', code: 0 }) },
      env: { MAP: '00000001:00:00.0=mlx5_ib0 00000002:00:00.0=mlx5_ib1' },
      sleep: async () => {},
      io: { out: t => (out += t), err: t => (out += t) }
    })
    await shell.run(
      'd=\nfor g in $(nvidia-smi); do\n  for m in $MAP; do\n    if [ "${m%%=*}" = "$g" ]; then d="$d${d:+,}${m#*=}:1"; fi\n  done\ndone\necho "${d:-all}"'
    )
    expect(out).toBe('mlx5_ib1:1\n')
  })

  it('/dev/shm: the sizeLimit, the pod’s memory limit when lower, containerd’s 64 MiB without a memory volume', () => {
    const c = (limits?: Record<string, string>) => ({
      name: 'worker',
      init: false,
      spec: {
        name: 'worker',
        volumeMounts: [{ name: 'dshm', mountPath: '/dev/shm' }],
        resources: limits ? { limits } : {}
      }
    })
    const pod = (limits?: Record<string, string>) => ({
      volumes: [{ name: 'dshm', emptyDir: { medium: 'Memory', sizeLimit: '16Gi' } }],
      containers: [c(limits).spec]
    })
    expect(shmKiB(pod(), c() as never, 900 * 2 ** 30)).toBe(16 * 2 ** 20)
    expect(shmKiB(pod({ memory: '64Mi' }), c({ memory: '64Mi' }) as never, 900 * 2 ** 30)).toBe(64 * 1024)
    expect(shmKiB({ containers: [] }, { name: 'x', init: false, spec: { name: 'x' } } as never, 1e12)).toBe(
      65536
    )
  })

  it('Dynamo’s runtime images run as dynamo (UID 1000) unless runAsUser says otherwise; others as root', () => {
    const scenario: Scenario = structuredClone(DEFAULT_SCENARIO)
    const d = imageModel(DYNAMO, scenario)
    // 0.8.1 ships UCX v1.20.0 (dynamo PR #5007, container/build.sh); the 1.4 line on, UCX 1.21.
    expect(d).toEqual({ uid: 1000, user: 'dynamo', ucx: { version: '1.20.0', cuda: true, verbs: true } })
    expect(imageModel('nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.6.2', scenario).ucx?.version).toBe('1.21.0')
    expect(imageModel('nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.3.0', scenario).ucx?.version).toBe('1.20.0')
    expect(containerUid({}, {}, d)).toBe(1000)
    expect(containerUid({ securityContext: { runAsUser: 0 } }, {}, d)).toBe(0)
    expect(containerUid({}, { securityContext: { runAsUser: 2000 } }, d)).toBe(2000)
    expect(imageModel('docker.io/mellanox/cuda-perftest:latest', scenario)).toEqual({ uid: 0, user: 'root' })
    scenario.dynamo = { ucx: { cuda: false } }
    expect(imageModel(`${DYNAMO}-x`, scenario).ucx).toEqual({ version: '1.20.0', cuda: false, verbs: true })
  })
})
