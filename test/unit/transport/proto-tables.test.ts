// Several UCX_PROTO_INFO tables in one output, as UCX prints one per endpoint configuration and
// operation: the transport check judges the GET of the inter-node endpoint, whichever tables come
// before it. Endpoint names: openucx/ucx v1.19.1 src/ucp/core/ucp_ep.c ucp_ep_config_name
// (`<context> self|intra-node|inter-node cfg#N`; UCX before 1.15 printed `<context> ep_cfg[N]`);
// table layout: src/ucp/proto/proto_debug.c.
import { beforeAll, describe, expect, it } from '@jest/globals'
import { parseUcxPerftest, type UcxMemoryDomain } from '../../../src/parse/ucx.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import type { Settings } from '../../../src/settings/settings.js'
import { judgeTransport, type JudgeInput, type SideObservation } from '../../../src/transport/verdict.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'

let s: Settings
beforeAll(() => {
  s = readSettings(reader({ ...VALID_APPLY, mode: 'verify', 'transport-check': 'ucx' })).settings
})

const GET = 'remote memory read by ucp_get* into cuda/GPU0 from cuda/dev[1]'
const PUT = 'remote memory write by ucp_put*(fast-completion) from host memory to cuda/dev[0]'

/** One table as proto_debug.c draws it: header, separator, `| range | protocol | config |` rows. */
function table(endpoint: string, operation: string, rows: Array<[string, string, string]>): string {
  const w = [Math.max(endpoint.length, ...rows.map(r => r[0].length)), 40, 32]
  const sep = `+${w.map(n => '-'.repeat(n + 2)).join('+')}+`
  const head = `| ${endpoint.padStart(w[0])} | ${operation.padEnd(w[1] + w[2] + 3)} |`
  const row = (r: [string, string, string]) =>
    `| ${r[0].padStart(w[0])} | ${r[1].padEnd(w[1])} | ${r[2].padEnd(w[2])} |`
  return [`+${'-'.repeat(w[0] + 2)}+${'-'.repeat(w[1] + w[2] + 5)}+`, head, sep, ...rows.map(row), sep].join(
    '\n'
  )
}

const FINAL = 'Final:  200  0.000  26.011  26.011  45776.58  45776.58  38446  38446'

function output(...tables: string[]): string {
  const prefix = '[1767930429.284829] [worker-1:41:0]   '
  return [
    ...tables
      .join('\n')
      .split('\n')
      .map(l => prefix + l),
    FINAL,
    ''
  ].join('\n')
}

function domains(): UcxMemoryDomain[] {
  return [
    {
      name: 'cuda_cpy',
      component: 'cuda_cpy',
      registerDmabuf: false,
      memoryTypes: { cuda: ['access', 'alloc', 'reg', 'detect', 'dmabuf'] },
      transports: [],
      failedToOpen: false
    },
    {
      name: 'mlx5_ib0',
      component: 'ib',
      registerDmabuf: true,
      memoryTypes: { host: ['access', 'reg', 'cache'], cuda: ['reg', 'cache'] },
      transports: [{ transport: 'rc_mlx5', device: 'mlx5_ib0:1', failedToOpen: false }],
      failedToOpen: false
    }
  ]
}

function side(role: 'server' | 'client'): SideObservation {
  return {
    role,
    node: role === 'server' ? 'n0' : 'n1',
    pod: `ucx-${role}`,
    preflight: {
      uid: 1000,
      memlockKiB: null,
      memlock: 'unlimited',
      shmKiB: 16 * 2 ** 20,
      infiniband: ['rdma_cm', 'uverbs0'],
      gpus: ['00000001:00:00.0'],
      netDevices: 'mlx5_ib0:1',
      ports: [{ device: 'mlx5_ib0', state: 'ACTIVE', linkLayer: 'InfiniBand', rateGbps: 400 }],
      peermem: '580.126.20',
      ucxVersion: '1.19.0'
    },
    ucxInfo: domains(),
    log: []
  }
}

function judge(text: string) {
  const input: JudgeInput = {
    settings: s,
    server: side('server'),
    client: side('client'),
    bandwidth: parseUcxPerftest(text),
    latency: null,
    linkGbps: () => 400,
    localNic: () => 'mlx5_ib0',
    ucxEnv: { UCX_TLS: 'rc_x,rc,dc_x,dc,cuda_copy,cuda_ipc' }
  }
  return judgeTransport(input).transport
}

const INTRA_IPC = table('perftest intra-node cfg#0', GET, [['0..inf', 'zero-copy', 'cuda_ipc/cuda']])
const SELF = table('perftest self cfg#2', GET, [['0..inf', 'zero-copy', 'cuda_ipc/cuda']])
const INTER_RC = table('perftest inter-node cfg#1', GET, [
  ['0..8K', 'short', 'rc_mlx5/mlx5_ib0:1'],
  ['8193..inf', 'zero-copy', 'rc_mlx5/mlx5_ib0:1']
])
const INTER_TCP = table('perftest inter-node cfg#1', GET, [
  ['0..inf', '(?) rendezvous pipeline cuda_copy', 'tcp/eth0']
])
const INTER_STAGED = table('perftest inter-node cfg#1', GET, [
  ['0..inf', 'rendezvous pipeline cuda_copy, fenced write to remote, cuda_copy', 'rc_mlx5/mlx5_ib0:1']
])
const INTER_PUT_TCP = table('perftest inter-node cfg#1', PUT, [['0..inf', 'zero-copy', 'tcp/eth0']])

describe('UCX_PROTO_INFO with several tables', () => {
  it('every table is read, in order, with its endpoint and operation', () => {
    const tables = parseUcxPerftest(output(INTRA_IPC, INTER_PUT_TCP, INTER_RC)).protocols
    expect(tables.map(t => [t.endpoint, t.operation])).toEqual([
      ['perftest intra-node cfg#0', GET],
      ['perftest inter-node cfg#1', PUT],
      ['perftest inter-node cfg#1', GET]
    ])
    expect(tables[2].rows.map(r => [r.from, r.to])).toEqual([
      [0, 8192],
      [8193, Infinity]
    ])
  })

  it.each([
    ['intra-node before inter-node', [INTRA_IPC, INTER_RC]],
    ['self and intra-node before inter-node', [SELF, INTRA_IPC, INTER_RC]],
    ['inter-node first', [INTER_RC, INTRA_IPC]],
    ['a PUT over tcp beside the GET', [INTER_PUT_TCP, INTER_RC]]
  ])('%s: the inter-node GET decides (rc_mlx5 zero-copy)', (_, tables) => {
    expect(judge(output(...tables))).toMatchObject({
      mode: 'gpudirect-rdma',
      lanes: ['rc_mlx5/mlx5_ib0:1']
    })
  })

  it('an intra-node GET on cuda_ipc does not hide an inter-node GET over tcp', () => {
    expect(judge(output(INTRA_IPC, INTER_TCP))).toMatchObject({
      mode: 'tcp',
      verdict: 'fail',
      lanes: ['tcp/eth0']
    })
  })

  it('an intra-node GET does not hide an inter-node GET staged through host memory', () => {
    expect(judge(output(INTRA_IPC, INTER_STAGED))).toMatchObject({ mode: 'host-staged', verdict: 'fail' })
  })

  it('only intra-node and self tables: the transport between the nodes is not known', () => {
    const t = judge(output(SELF, INTRA_IPC))
    expect(t).toMatchObject({ mode: 'failed', verdict: 'fail', lanes: [] })
    expect(t.reason).toContain('perftest intra-node cfg#0')
    expect(t.fix).toBeDefined()
  })

  it('UCX before 1.15 names no locality (`ep_cfg[N]`): its GET table is the one', () => {
    const old = table('perftest ep_cfg[1]', GET, [['0..inf', 'zero-copy', 'rc_mlx5/mlx5_ib0:1']])
    expect(judge(output(old))).toMatchObject({ mode: 'gpudirect-rdma', lanes: ['rc_mlx5/mlx5_ib0:1'] })
  })
})
