// The transport check's section of the job summary, from the report's data alone: the mode and
// verdict first (the cause and the fix on a failure), the bandwidth against its pass mark, latency,
// protocol and lanes, each pod's preflight in a table, and the proved worker snippet after a pass.
// Text from the pods stays text (escaped, one cell per value).
import { describe, expect, it } from '@jest/globals'
import type { ReportTransport, TransportSide } from '../../../src/report/report.js'
import { transportReason, transportSection } from '../../../src/report/transport-summary.js'

function side(role: 'server' | 'client', over: Partial<TransportSide> = {}): TransportSide {
  return {
    role,
    node: role === 'server' ? 'aks-rdma-0' : 'aks-rdma-1',
    pod: `ucx-${role}`,
    uid: 1000,
    memlock: 'unlimited',
    shmMiB: 16384,
    uverbs: ['uverbs0', 'uverbs1'],
    gpu: '00000001:00:00.0',
    netDevices: 'mlx5_ib0:1',
    ports: [{ device: 'mlx5_ib0', state: 'ACTIVE', linkLayer: 'InfiniBand', rateGbps: 400 }],
    peermem: true,
    ucxVersion: '1.19.0',
    ucx: { cuda: true, ib: true, cudaMemoryType: true, dmabuf: false },
    ...over
  }
}

function transport(over: Partial<ReportTransport> = {}): ReportTransport {
  return {
    check: 'ucx',
    mode: 'gpudirect-rdma',
    verdict: 'pass',
    reason: 'UCX read GPU memory with zero-copy over rc_mlx5/mlx5_ib0:1 at 380 Gb/s (pass mark 320 Gb/s)',
    image: 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.6.2',
    pairs: [{ server: 'aks-rdma-0', client: 'aks-rdma-1', bandwidthGbps: 380, latencyUs: 2.345 }],
    passMarkGbps: 320,
    linkGbps: 400,
    lanes: ['rc_mlx5/mlx5_ib0:1'],
    protocol: 'zero-copy',
    gpudirect: 'nvidia_peermem',
    ucxEnv: { UCX_TLS: 'rc_x,cuda_copy', UCX_NET_DEVICES: 'mlx5_ib0:1' },
    sides: [side('server'), side('client')],
    ...over
  }
}

const render = (t: ReportTransport) => transportSection(t, { maxCellChars: 200 })

describe('transportSection', () => {
  it('a pass: the mode and verdict, the figures, the pods, and the snippet it proved', () => {
    const md = render(
      transport({ workerSnippet: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'dynamo-worker' } } })
    )
    const lines = md.split('\n')
    expect(lines[0]).toBe('### Dynamo transport (UCX)')
    expect(lines[2]).toBe(
      '🚀 `gpudirect-rdma` — ✅ pass: UCX read GPU memory with zero-copy over rc\\_mlx5/mlx5\\_ib0:1 at 380 Gb/s (pass mark 320 Gb/s)'
    )
    expect(md).not.toContain('**Fix:**')
    for (const row of [
      '| Image | `nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.6.2` |',
      '| Pods | server `aks-rdma-0`, client `aks-rdma-1` |',
      '| Bandwidth (GPU → GPU, UCX GET) | 380.00 Gb/s (47.50 GB/s); pass mark 320.00 Gb/s (40.00 GB/s) (0.8 × the 400 Gb/s link) |',
      '| Latency (8 B tag ping-pong) | 2.35 µs |',
      '| UCX protocol and lanes | zero-copy on `rc_mlx5/mlx5_ib0:1` |',
      '| GPUDirect through | `nvidia_peermem` |',
      '| UCX environment | `UCX_TLS=rc_x,cuda_copy` `UCX_NET_DEVICES=mlx5_ib0:1` |',
      '| server `aks-rdma-0` | ran | 1000 | unlimited | 16384 MiB | uverbs0 uverbs1 | 00000001:00:00.0 | `mlx5_ib0:1` | mlx5\\_ib0 ACTIVE 400G | yes | UCX 1.19.0: cuda yes, ib yes, mlx5 cuda memory yes, dma-buf no |',
      '<details><summary>The Dynamo worker snippet this check proved</summary>'
    ])
      expect(md).toContain(row)
    expect(md).toMatch(/```yaml\napiVersion: v1\nkind: Pod\nmetadata:\n {2}name: dynamo-worker\n```/)
  })

  it('a failure: the cause and the fix, dashes for what was not measured, no snippet', () => {
    const md = render(
      transport({
        mode: 'failed',
        verdict: 'fail',
        reason: 'the server pod on aks-rdma-0 did not run: container worker is in ImagePullBackOff',
        fix: 'check that the nodes can pull the image',
        pairs: [{ server: 'aks-rdma-0', client: 'aks-rdma-1', bandwidthGbps: null, latencyUs: null }],
        passMarkGbps: null,
        linkGbps: null,
        lanes: [],
        protocol: null,
        gpudirect: null,
        sides: [
          side('server', {
            problem: 'container worker is in ImagePullBackOff',
            uid: null,
            memlock: null,
            shmMiB: null,
            uverbs: [],
            gpu: null,
            ports: [],
            peermem: null,
            ucxVersion: null,
            ucx: null
          }),
          side('client', {
            ucxVersion: null,
            ports: [{ device: 'mlx5_ib0', state: 'DOWN', linkLayer: 'InfiniBand', rateGbps: null }]
          })
        ],
        workerSnippet: { kind: 'Pod' }
      })
    )
    for (const row of [
      '❌ `failed` — ❌ fail: the server pod on aks-rdma-0 did not run: container worker is in ImagePullBackOff',
      '\n\n**Fix:** check that the nodes can pull the image',
      '| Bandwidth (GPU → GPU, UCX GET) | —; pass mark — (0.8 × the ? Gb/s link) |',
      '| Latency (8 B tag ping-pong) | — |',
      '| UCX protocol and lanes | — |',
      '| GPUDirect through | — |',
      '| server `aks-rdma-0` | ❌ container worker is in ImagePullBackOff | — | — | — | none | — | `mlx5_ib0:1` | — | — | — |',
      '| mlx5\\_ib0 DOWN | yes | cuda yes, ib yes, mlx5 cuda memory yes, dma-buf no |'
    ])
      expect(md).toContain(row)
    expect(md).not.toContain('<details>')
  })

  it('shows each mode with its own mark', () => {
    const icon = (mode: ReportTransport['mode']) =>
      render(transport({ mode, verdict: 'fail' }))
        .split('\n')[2]
        .slice(0, 2)
    expect([icon('host-staged'), icon('tcp')]).toEqual(['🐢', '🐌'])
  })

  it('keeps text from the pods as text: pipes, newlines and markup escaped in their cells', () => {
    const md = render(
      transport({
        verdict: 'fail',
        reason: 'x',
        sides: [side('server', { problem: 'a | b\n::error::c <b>' }), side('client')]
      })
    )
    const row = md.split('\n').find(l => l.startsWith('| server'))!
    expect(row).toContain('❌ a \\| b<br>')
    expect(row).not.toContain('<b>')
    expect(md.split('\n').some(l => l.startsWith('::'))).toBe(false)
  })
})

describe('transportReason', () => {
  it('words a failed check for the verdict line, nothing for a pass or no check', () => {
    expect(transportReason(transport({ verdict: 'fail', mode: 'tcp' }))).toBe('transport check failed (tcp)')
    expect(transportReason(transport())).toBeUndefined()
    expect(transportReason(undefined)).toBeUndefined()
  })
})
