// The transport check's part of the job summary, from the report's data only; no I/O.
// See docs/job-summary.md and docs/transport-check.md.
import { code, escapeCell, escapeInline, fence, table } from './markdown.js'
import type { ReportTransport, TransportSide } from './report.js'
import { workloadYaml } from './workload-summary.js'

const MODE_ICON: Record<ReportTransport['mode'], string> = {
  'gpudirect-rdma': '🚀',
  'host-staged': '🐢',
  tcp: '🐌',
  failed: '❌'
}

function gbps(n: number | null): string {
  return n === null ? '—' : `${n.toFixed(2)} Gb/s (${(n / 8).toFixed(2)} GB/s)`
}

function yesNo(v: boolean | null | undefined): string {
  return v === null || v === undefined ? '—' : v ? 'yes' : 'no'
}

function sideRow(x: TransportSide, maxCellChars: number): string[] {
  const port = x.ports.map(p => `${p.device} ${p.state}${p.rateGbps ? ` ${p.rateGbps}G` : ''}`).join(', ')
  const ucx = x.ucx
    ? `${x.ucxVersion ? `UCX ${x.ucxVersion}: ` : ''}cuda ${yesNo(x.ucx.cuda)}, ib ${yesNo(x.ucx.ib)}, mlx5 cuda memory ${yesNo(x.ucx.cudaMemoryType)}, dma-buf ${yesNo(x.ucx.dmabuf)}`
    : '—'
  return [
    `${x.role} ${code(x.node)}`,
    x.problem ? `❌ ${escapeCell(x.problem, maxCellChars)}` : 'ran',
    x.uid === null ? '—' : String(x.uid),
    escapeCell(x.memlock ?? '—'),
    x.shmMiB === null ? '—' : `${x.shmMiB} MiB`,
    escapeCell(x.uverbs.join(' ') || 'none'),
    escapeCell(x.gpu ?? '—'),
    code(x.netDevices),
    escapeCell(port || '—', maxCellChars),
    yesNo(x.peermem),
    escapeCell(ucx, maxCellChars)
  ]
}

export function transportSection(t: ReportTransport, o: { maxCellChars: number }): string {
  const verdict = t.verdict === 'pass' ? '✅ pass' : '❌ fail'
  const pair = t.pairs[0]
  const head = [
    `### Dynamo transport (UCX)`,
    `${MODE_ICON[t.mode]} ${code(t.mode)} — ${verdict}: ${escapeInline(t.reason)}` +
      (t.fix ? `\n\n**Fix:** ${escapeInline(t.fix)}` : '')
  ]
  const rows: string[][] = [
    ['Image', code(t.image)],
    ['Pods', pair ? `server ${code(pair.server)}, client ${code(pair.client)}` : '—'],
    [
      'Bandwidth (GPU → GPU, UCX GET)',
      `${gbps(pair?.bandwidthGbps ?? null)}; pass mark ${gbps(t.passMarkGbps)} (0.8 × the ${t.linkGbps ?? '?'} Gb/s link)`
    ],
    [
      'Latency (8 B tag ping-pong)',
      pair?.latencyUs === null || !pair ? '—' : `${pair.latencyUs.toFixed(2)} µs`
    ],
    [
      'UCX protocol and lanes',
      t.protocol ? `${escapeCell(t.protocol)} on ${t.lanes.map(code).join(', ')}` : '—'
    ],
    ['GPUDirect through', t.gpudirect ? code(t.gpudirect) : '—'],
    [
      'UCX environment',
      Object.entries(t.ucxEnv)
        .map(([k, v]) => code(`${k}=${v}`))
        .join(' ')
    ]
  ]
  const sides = table(
    [
      'Pod',
      'Ran',
      'UID',
      'memlock',
      '/dev/shm',
      '/dev/infiniband',
      'GPU',
      'UCX_NET_DEVICES',
      'IB port',
      'peermem',
      'ucx_info -d'
    ],
    t.sides.map(x => sideRow(x, o.maxCellChars))
  )
  const parts = [...head, table(['', ''], rows), sides]
  if (t.verdict === 'pass' && t.workerSnippet) {
    const yaml = workloadYaml(t.workerSnippet)
    const f = fence(yaml)
    parts.push(
      `<details><summary>The Dynamo worker snippet this check proved</summary>\n\n${f}yaml\n${yaml}\n${f}\n\n</details>`
    )
  }
  return parts.join('\n\n')
}

/** The verdict line's words for a failed transport check. */
export function transportReason(t: ReportTransport | undefined): string | undefined {
  if (t?.busy) return 'transport check not run: the pool is busy'
  return t && t.verdict === 'fail' ? `transport check failed (${t.mode})` : undefined
}
