// `status` and `uninstall --dry-run` as text for a terminal: every line at most 80 columns (a word
// wider than that, a long run id say, is cut), cluster strings as plain text (docs/day-two.md).
import { wrap } from '../report/text.js'
import type { StatusDocument } from './status.js'
import type { UninstallPreview } from './uninstall-preview.js'

export const TEXT_WIDTH = 80

/** `text` wrapped to the width, lines after the first indented by `rest`; a longer word cut. */
export function fit(text: string, first = '', rest = first): string[] {
  return wrap(text, TEXT_WIDTH, first, rest).flatMap(line => {
    const out: string[] = []
    let l = line
    while (l.length > TEXT_WIDTH) {
      out.push(l.slice(0, TEXT_WIDTH))
      l = rest + l.slice(TEXT_WIDTH)
    }
    return [...out, l]
  })
}

function clusterLine(c: StatusDocument['cluster']): string {
  const parts: string[] = []
  if (c.resourceGroup && c.name) parts.push(`${c.resourceGroup}/${c.name}`)
  if (c.context) parts.push(`context ${c.context}`)
  if (c.cluster) parts.push(`cluster ${c.cluster}`)
  if (c.server) parts.push(c.server)
  return parts.join(', ') || '(the kubeconfig’s current context)'
}

function ago(seconds: number | null): string {
  if (seconds === null) return 'never renewed'
  if (seconds < 120) return `${seconds} s ago`
  if (seconds < 7200) return `${Math.round(seconds / 60)} min ago`
  return `${Math.round(seconds / 3600)} h ago`
}

export function renderStatusText(d: StatusDocument): string {
  const out: string[] = [...fit(`Cluster: ${clusterLine(d.cluster)}`, '', '  ')]
  out.push(
    ...fit(
      d.record
        ? `Ownership record ${d.record.namespace}/${d.record.name}: ${d.record.entries} entr${d.record.entries === 1 ? 'y' : 'ies'}`
        : 'Ownership record: none (the action has installed nothing here, or uninstall removed it)',
      '',
      '  '
    ),
    '',
    'Releases:'
  )
  for (const r of d.releases) {
    const what = r.installed
      ? `${r.chart} ${r.version} ${r.status}${r.revision ? ` (revision ${r.revision})` : ''}`
      : 'not installed'
    out.push(...fit(`${r.release} -n ${r.namespace}: ${what}`, '  ', '      '))
    if (r.installed || r.why !== 'not installed')
      out.push(...fit(`${r.owned ? 'the action’s' : 'not the action’s'}: ${r.why}`, '      ', '      '))
  }
  out.push('', 'Node pools:')
  for (const p of d.pools) {
    const tags = [p.selected ? 'selected' : '', p.recorded ? 'created by the action' : '']
      .filter(Boolean)
      .join(', ')
    out.push(
      ...fit(
        `${p.name}: ${p.nodes} node${p.nodes === 1 ? '' : 's'}, ${p.ready} ready (${tags})`,
        '  ',
        '    '
      )
    )
  }
  out.push('')
  const l = d.lease
  if (!l || !l.holder)
    out.push(...fit(`Lease ${l ? `${l.namespace}/${l.name}` : 'kube-system/aks-rdma-action'}: not held`))
  else {
    out.push(...fit(`Lease ${l.namespace}/${l.name}: held by ${l.holder}`, '', '  '))
    out.push(
      ...fit(
        `acquired ${l.acquireTime ?? '(unknown)'}, renewed ${l.renewTime ?? '(never)'} (${ago(l.secondsSinceRenewal)}); ${l.expired ? `expired (not renewed within ${l.durationSeconds} s)` : `live (duration ${l.durationSeconds} s)`}`,
        '  ',
        '  '
      )
    )
  }
  const r = d.lastRun
  out.push(
    ...fit(
      r
        ? `Last run that changed the cluster: ${r.mode} ${r.result}, finished ${r.at}, action ${r.version}, run ${r.runId}`
        : 'Last run: no run recorded',
      '',
      '  '
    )
  )
  if (d.notes.length) {
    out.push('', 'Not read:')
    for (const n of d.notes) out.push(...fit(n, '  - ', '    '))
  }
  return out.join('\n') + '\n'
}

export function renderPreviewText(p: UninstallPreview): string {
  const out: string[] = [
    ...fit(
      `Uninstall preview (nothing removed): ${clusterLine(p.cluster)}. Removes only what the ownership record ${p.record} proves the action's.`,
      '',
      '  '
    )
  ]
  for (const [i, part] of p.parts.entries()) {
    out.push('', ...fit(`${i + 1}. ${part.name}: ${part.title}`, '', '   '))
    if (!part.remove.length && !part.keep.length && !part.waits.length) out.push('   nothing there')
    for (const r of part.remove) out.push(...fit(`remove ${r.what}: ${r.why}`, '   - ', '     '))
    if (part.waits.length)
      out.push(
        ...fit(
          `wait for ${part.waits.join(', ')} to be gone${part.note ? ` (${part.note})` : ''}`,
          '   - ',
          '     '
        )
      )
    for (const k of part.keep) out.push(...fit(`keep ${k.what}: ${k.why}`, '   - ', '     '))
  }
  out.push('', ...fit(`Azure: ${p.azure}`, '', '  '), '', 'Stays in any case:')
  for (const x of p.stays) out.push(...fit(x, '  - ', '    '))
  out.push('')
  out.push(
    ...fit(
      `Would remove ${p.removeCount} and keep ${p.keepCount}; run uninstall without --dry-run to remove.`,
      '',
      '  '
    )
  )
  return out.join('\n') + '\n'
}
