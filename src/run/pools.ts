// Verification, benchmark and transport check over every pool the action manages (all-pools), each
// pool with its own settings. Docs: docs/day-two.md#several-pools.
import { KubeClient } from '../kube/client.js'
import { log } from '../log/index.js'
import { LABELS } from '../model/types.js'
import { deriveResult, emptyReport, type Report, type ReportPool } from '../report/report.js'
import type { Settings } from '../settings/settings.js'
import { managedPools } from '../stack/managed-pools.js'

/** The label AKS puts the node's VM size in. */
export const INSTANCE_TYPE = 'node.kubernetes.io/instance-type'

/** The VM size a pool's nodes run (their instance-type label), or undefined when it has none. */
export async function poolVmSize(kube: KubeClient, pool: string): Promise<string | undefined> {
  const { items } = await kube.list('v1', 'Node', {
    labelSelector: `${LABELS.agentPool}=${pool}`,
    limit: 500
  })
  return items.map(n => n.metadata.labels?.[INSTANCE_TYPE]).find((v): v is string => !!v)
}

/** The run's settings for another pool: its name and VM size (the rest is the run's). */
export function poolSettings(s: Settings, pool: string, vmSize: string | undefined): Settings {
  return { ...s, nodePool: { ...s.nodePool, name: pool, vmSize: vmSize ?? s.nodePool.vmSize } }
}

type VerifyOne = (s: Settings, kubeconfigPath: string, report: Report) => Promise<void>

/**
 * Runs `verifyOne` (verify, benchmark, transport) for the run's pool, or with all-pools for each
 * managed pool; the first failure is rethrown once every pool has been checked.
 */
export async function verifyPools(
  s: Settings,
  kubeconfigPath: string,
  report: Report,
  verifyOne: VerifyOne
): Promise<void> {
  if (!s.allPools) return verifyOne(s, kubeconfigPath, report)
  const kube = KubeClient.fromFile(kubeconfigPath, { retries: s.wait.retries })
  const { pools, note } = await managedPools(kube, s.nodePool.name)
  if (note) log.warning(`all-pools: ${note}`)
  log.info(`all-pools: ${pools.length} pool${pools.length === 1 ? '' : 's'} managed: ${pools.join(', ')}`)
  const entries: ReportPool[] = []
  let failure: unknown
  for (const pool of pools) {
    const vmSize = await poolVmSize(kube, pool)
    const ps = poolSettings(s, pool, vmSize)
    const own = pool === s.nodePool.name
    // The run's pool writes the top level as a single-pool run does; another pool a report of its own.
    const into = own ? report : emptyReport(report.mode)
    const firstStep = into.steps.length
    log.info(
      `all-pools: pool ${pool} (${ps.nodePool.vmSize}${vmSize ? '' : ', the vm-size input: no node says its size'})`
    )
    try {
      await verifyOne(ps, kubeconfigPath, into)
    } catch (e) {
      failure ??= e
    }
    const steps = into.steps.slice(firstStep)
    const view: Report = { ...emptyReport(report.mode), steps, checks: into.checks }
    if (into.benchmark) view.benchmark = into.benchmark
    if (into.transport) view.transport = into.transport
    entries.push({
      pool,
      vmSize: vmSize ?? null,
      result: deriveResult(view),
      steps,
      checks: into.checks,
      ...(into.benchmark ? { benchmark: into.benchmark } : {}),
      ...(into.transport ? { transport: into.transport } : {})
    })
    if (!own) {
      // Its steps in the run's list too, named after the pool (`verify:gpu2`).
      report.steps.push(...steps.map(x => ({ ...x, name: `${x.name}:${pool}` })))
      if (into.diagnostics?.length)
        report.diagnostics = [
          ...(report.diagnostics ?? []),
          ...into.diagnostics.map(d => ({ ...d, step: `${d.step}:${pool}` }))
        ]
    }
  }
  if (entries.length > 1) report.pools = entries
  if (failure) throw failure
}
