// What a cancelled run says it left half-done (docs/lease.md "Cancellation"): the step it stopped in
// and what that step had written, the steps done and not run, the Lease and the files it removed.
import { rmSync } from 'node:fs'
import path from 'node:path'
import { messageOf } from '../kube/errors.js'
import { log } from '../log/index.js'
import type { Report } from '../report/report.js'
import { LEASE_NAME, LEASE_NAMESPACE, releaseLease } from '../stack/lease.js'

export interface CancelledRun {
  signal: NodeJS.Signals
  /** What became of the Lease: `released`, `not taken (nothing was written)`, ... */
  lease: string
  /** Temporary files the run removed (the kubeconfig). */
  removed: string[]
}

/**
 * Makes sure a cancelled run holds no Lease (whichever part of it took one): deletes it while this
 * run holds it. Returns what became of it, in words.
 */
export async function releaseIfHeld(kubeconfig: string | undefined, runId: string): Promise<string> {
  if (!kubeconfig) return 'not taken (the cluster was not reached)'
  try {
    return (await releaseLease(kubeconfig, runId, { retries: 1, log }))
      ? 'released'
      : 'not held by this run (not taken: nothing was written)'
  } catch (e) {
    return `not released (${messageOf(e)}): it expires by itself; on a runner the post step releases it`
  }
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
