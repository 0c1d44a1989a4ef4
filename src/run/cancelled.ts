// What a cancelled run says it left half-done (docs/lease.md "Cancellation"): the step it stopped in
// and what that step had written, the steps done and not run, the Lease and the files it removed.
import { rmSync } from 'node:fs'
import path from 'node:path'
import type { Report } from '../report/report.js'
import { LEASE_NAME, LEASE_NAMESPACE } from '../stack/lease.js'

export interface CancelledRun {
  signal: NodeJS.Signals
  /** What became of the Lease: `released`, `not taken (nothing was written)`, ... */
  lease: string
  /** Temporary files the run removed (the kubeconfig). */
  removed: string[]
}

/** Removes the run's temporary files (under RUNNER_TEMP, recorded as the run wrote them); returns their names. */
export function removeTemporaryFiles(paths: string[]): string[] {
  const removed: string[] = []
  for (const p of paths) {
    try {
      rmSync(p, { force: true, recursive: true })
      removed.push(path.basename(p))
    } catch {
      // Left to the post step (on a runner) or to the user (named in the result).
    }
  }
  return removed
}

/** The lines a cancelled run prints: what it was doing when it stopped, and in what state it left things. */
export function halfDoneLines(report: Report, c: CancelledRun): string[] {
  const named = (status: string): string[] => report.steps.filter(s => s.status === status).map(s => s.name)
  const stopped = report.steps.filter(s => s.status === 'failure')
  const lines = [
    `aks-rdma-action: cancelled by ${c.signal}; stopped at a safe point, no write cut off. Left half-done:`
  ]
  for (const s of stopped) lines.push(`  stopped in ${s.name}: ${s.detail ?? 'no detail'}`)
  if (!stopped.length) lines.push('  stopped between steps')
  const done = [...named('success'), ...named('warning')]
  lines.push(`  done: ${done.length ? done.join(', ') : 'nothing'}`)
  const notRun = named('skipped')
  if (notRun.length) lines.push(`  not run: ${notRun.join(', ')}`)
  lines.push(`  Lease ${LEASE_NAMESPACE}/${LEASE_NAME}: ${c.lease}`)
  if (c.removed.length) lines.push(`  removed: ${c.removed.join(', ')}`)
  lines.push('  A re-run converges from this state: it writes only what differs.')
  return lines
}
