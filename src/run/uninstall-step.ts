// Uninstall mode's steps after sign-in: the stack removed in reverse, then, when cleanup asks, the node
// pool or cluster the action created. Rules: docs/day-two.md#uninstalling.
import { removeCreatedByAction, type AzureConnection } from '../azure/index.js'
import { KubeClient } from '../kube/client.js'
import { messageOf } from '../kube/errors.js'
import { OwnershipRecord, poolRef } from '../stack/ownership.js'
import { log } from '../log/index.js'
import type { Report } from '../report/report.js'
import type { Settings } from '../settings/settings.js'
import { uninstallStack } from '../stack/uninstall.js'
import { rememberLeaseReleased } from './saved-state.js'
import { runStep, StepError } from './steps.js'

/**
 * A failed stack removal stops there: nothing is deleted in Azure while the cluster may still hold the
 * action's objects half removed. The pool's created-by tag is checked against the value the in-cluster
 * ownership record holds, when it holds one.
 */
export async function runUninstall(
  s: Settings,
  conn: AzureConnection | undefined,
  kubeconfigPath: string,
  report: Report
): Promise<void> {
  const stack = await uninstallStack({ settings: s, kubeconfigPath })
  // The post step then has no Lease of this run to release.
  if (stack.leaseReleased) rememberLeaseReleased()
  report.steps.push(...stack.steps)
  if (stack.diagnostics.length) report.diagnostics = [...(report.diagnostics ?? []), ...stack.diagnostics]
  if (!stack.ok)
    throw new StepError(
      stack.steps.find(x => x.status === 'failure')?.name ?? 'stack',
      'the stack was not removed'
    )
  if (s.cleanup === 'none') {
    log.info(`node pool ${s.nodePool.name} and cluster ${s.cluster.name} stay (cleanup is none)`)
    return
  }
  await runStep(report.steps, s.cleanup, `delete the ${s.cleanup} if the action created it`, async () => {
    // The pool's created-by value as the run that created it recorded it (absent: the tag's form decides).
    const record = OwnershipRecord.of(
      KubeClient.fromFile(kubeconfigPath, { retries: s.wait.retries }),
      s.runId
    )
    const pool = poolRef(s.cluster.resourceGroup, s.cluster.name, s.nodePool.name)
    const recorded =
      s.cleanup === 'node-pool'
        ? await record.find(pool).then(
            e => e?.uid,
            (err: unknown) => {
              log.warning(
                `reading the ownership record failed (${messageOf(err)}): the tag's form alone decides`
              )
              return undefined
            }
          )
        : undefined
    // usesAzure: a cleanup signs in, with or without a kubeconfig.
    const [e] = await removeCreatedByAction(
      conn!.clients,
      s,
      { log, timeoutMs: s.wait.stepTimeoutMs },
      recorded
    )
    if (e.result === 'deleted' && recorded) await record.forget(pool)
    if (e.result === 'failed') throw new Error(`${e.resource} ${e.name}: ${e.reason ?? 'deleting it failed'}`)
    return {
      changed: e.result === 'deleted',
      action: e.result === 'deleted' ? 'deleted' : 'unchanged',
      detail: `${e.resource} ${e.name} ${e.result}${e.reason ? ` (${e.reason})` : ''}`
    }
  })
}
