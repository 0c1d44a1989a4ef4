// Building a check result from per-node findings: the check's status is the worst node status
// (fail > warn > pass), and its one-line detail counts the nodes and quotes the first failures.
import type { CheckStatus, NodeCheckResult, ReportCheck } from '../report/report.js'

export type Check = ReportCheck

const RANK: Record<CheckStatus, number> = { skipped: 0, pass: 1, warn: 2, fail: 3 }

export function worst(statuses: CheckStatus[]): CheckStatus {
  return statuses.reduce<CheckStatus>((w, s) => (RANK[s] > RANK[w] ? s : w), 'pass')
}

export function nodeResult(
  node: string,
  problems: string[],
  okDetail: string,
  warnings: string[] = []
): NodeCheckResult {
  if (problems.length) return { node, status: 'fail', detail: [...problems, ...warnings].join('; ') }
  if (warnings.length) return { node, status: 'warn', detail: `${warnings.join('; ')}; ${okDetail}` }
  return { node, status: 'pass', detail: okDetail }
}

/** Quotes up to three failing nodes: `node-1: no pod; node-2: NotReady (+3 more)`. */
export function quoteNodes(nodes: NodeCheckResult[], status: CheckStatus, max = 3): string {
  const hit = nodes.filter(n => n.status === status)
  const shown = hit.slice(0, max).map(n => `${n.node}: ${n.detail}`)
  return `${shown.join('; ')}${hit.length > max ? ` (+${hit.length - max} more)` : ''}`
}

/**
 * A check over every RDMA node. `clusterProblems` are findings that are not about one node (a
 * policy not ready); they fail the check whatever the nodes say.
 */
export function nodeCheck(
  name: string,
  nodes: NodeCheckResult[],
  okDetail: string,
  clusterProblems: string[] = [],
  clusterWarnings: string[] = []
): Check {
  const total = nodes.length
  const failing = nodes.filter(n => n.status === 'fail').length
  const warning = nodes.filter(n => n.status === 'warn').length
  const status = clusterProblems.length
    ? 'fail'
    : worst([...nodes.map(n => n.status), ...(clusterWarnings.length ? (['warn'] as const) : [])])
  const parts: string[] = [...clusterProblems]
  if (failing) parts.push(`${failing} of ${total} node(s) failing: ${quoteNodes(nodes, 'fail')}`)
  else if (warning) parts.push(`${warning} of ${total} node(s) with warnings: ${quoteNodes(nodes, 'warn')}`)
  parts.push(...clusterWarnings)
  const detail = status === 'pass' ? okDetail : parts.join('; ')
  return { name, status, detail, nodes }
}
