// The apply / verify / drift / uninstall flow: Azure (sign-in, feature, cluster, node pool,
// credentials), then the stack (or its removal), then verification and benchmarks; always ending
// with the report, the job summary and the outputs, whatever failed on the way. Only
// orchestrates: each part lives in its own module.
// Pipelined rollout runs the node pool's creation alongside the credentials and the stack. The
// kubeconfig is exported as KUBECONFIG for the job's later steps (export-kubeconfig), and a
// successful apply or verify report carries the pod snippet a workload on the pool uses. With a
// kubeconfig given (the kubeconfig input) the cluster is reached with it instead: verify, and drift
// without subscription-id, then never sign in to Azure at all; the other modes first check that it
// reaches the cluster resource-group/cluster-name name (azure/api-server.ts), before any write.
import * as core from '@actions/core'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import {
  checkKubeconfigCluster,
  checkOtherGpuPools,
  connectAzure,
  ensureCluster,
  ensureInfinibandFeature,
  ensureNodePool,
  precheckNodePool,
  writeClusterCredentials,
  type AzureConnection,
  type PoolPrecheck,
  type TokenRefresher
} from '../azure/index.js'
import { ClusterNotFoundError } from '../azure/cluster-missing.js'
import { detectDrift, DriftError } from '../stack/drift.js'
import { driftLines } from '../drift/render.js'
import { KubeClient } from '../kube/client.js'
import { messageOf } from '../kube/errors.js'
import type { KubeObject } from '../kube/types.js'
import { resolveKubeconfig, writeGivenKubeconfig, type ResolvedKubeconfig } from '../settings/kubeconfig.js'
import { log } from '../log/index.js'
import { workloadPod } from '../model/workload.js'
import {
  deriveResult,
  driftFound,
  emptyReport,
  finishedStep,
  writeReportFile,
  type Report,
  type ReportWorkload
} from '../report/report.js'
import { writeJobSummary } from '../report/job-summary.js'
import { usesAzure, type Settings } from '../settings/settings.js'
import { findRdmaVmSize } from '../settings/vm-sizes.js'
import { actionVersion } from '../util/version.js'
import { applyStack, type PoolInfo } from '../stack/index.js'
import { OwnershipRecord, poolRef } from '../stack/ownership.js'
import { runVerification } from '../verify/index.js'
import { runBenchmarkStep } from './benchmark-step.js'
import { runTransportStep } from './transport-step.js'
import { setOutput } from './outputs.js'
import {
  forgetCreateSubmitted,
  rememberCleanup,
  rememberCreateSubmitted,
  rememberLeaseReleased,
  rememberRun,
  rememberTempPath,
  STATE
} from './saved-state.js'
import { runStep, StepError, type StepOutcome } from './steps.js'
import { halfDoneLines, releaseIfHeld, removeTemporaryFiles } from './cancelled.js'
import { cancelledExitCode } from '../exit-codes.js'
import { cancelledBy, RunCancelledError } from '../util/cancel.js'
import { runUninstall } from './uninstall-step.js'

/** How a workload uses the pool: a Pod as the benchmark pods are built, for the whole node's GPUs. */
function workloadOf(s: Settings): ReportWorkload {
  const gpus = findRdmaVmSize(s.nodePool.vmSize)?.gpus ?? null
  return {
    pool: s.nodePool.name,
    rdmaResource: `rdma/${s.stack.rdmaResourceName}`,
    gpusPerNode: gpus,
    podSnippet: workloadPod(s, gpus ?? 1)
  }
}

export interface FlowResult {
  exitCode: number
  report: Report
}

function runnerTemp(): string {
  return process.env.RUNNER_TEMP ?? mkdtempSync(path.join(tmpdir(), 'aks-rdma-action-'))
}

/** The node pool step of a pipelined run, going on while credentials and the stack proceed. */
interface PoolInFlight {
  /** Where the step's result lands once it ends (moved into the report then). */
  steps: Report['steps']
  /** The step itself: rejects with its StepError. */
  done: Promise<StepOutcome>
  /** What the stack waits for: the pool's size once provisioned. */
  info: Promise<PoolInfo>
}

/**
 * Before any write, ARM or Kubernetes, in both rollouts: whether the node pool exists and can be
 * used (one GET). An incompatible or failed pool fails the node-pool step here, so a refusal
 * writes nothing at all; otherwise the finding is handed to ensureNodePool (no second read).
 */
async function precheckPool(s: Settings, conn: AzureConnection, report: Report): Promise<PoolPrecheck> {
  try {
    return await precheckNodePool(conn.clients, s, { log })
  } catch (e) {
    // The refusal is the node-pool step's failure, reported as such (and nothing was written);
    // a cluster that does not exist is the cluster step's.
    if (e instanceof ClusterNotFoundError)
      await runStep(report.steps, 'cluster', `cluster ${s.cluster.resourceGroup}/${s.cluster.name}`, () =>
        Promise.reject(e)
      )
    else await runStep(report.steps, 'node-pool', `node pool ${s.nodePool.name}`, () => Promise.reject(e))
    throw e
  }
}

/**
 * Azure steps of apply mode: the pool's precheck, feature, cluster, node pool. Sequential rollout
 * waits for the pool here; pipelined rollout only starts it and returns it in flight (the cluster
 * and its system pool exist, so credentials and the system-level components need not wait for it).
 */
async function ensureAzure(
  s: Settings,
  conn: AzureConnection,
  report: Report
): Promise<PoolInFlight | undefined> {
  const timeoutMs = s.wait.stepTimeoutMs
  const precheck = await precheckPool(s, conn, report)
  if (s.registerFeature)
    await runStep(
      report.steps,
      'infiniband-feature',
      'register Microsoft.ContainerService/AKSInfinibandSupport',
      async () => {
        const r = await ensureInfinibandFeature(conn.clients, { log, timeoutMs })
        return {
          changed: r.changed,
          action: r.changed ? 'updated' : 'unchanged',
          detail: `feature ${r.state}, provider ${r.providerState}`
        }
      }
    )
  if (s.cluster.create)
    await runStep(
      report.steps,
      'cluster',
      `cluster ${s.cluster.resourceGroup}/${s.cluster.name}`,
      async () => {
        const r = await ensureCluster(conn.clients, s, {
          log,
          timeoutMs,
          onCreateSubmit: c => rememberCreateSubmitted('cluster', c),
          onCreateRefused: () => forgetCreateSubmitted('cluster')
        })
        return {
          changed: r.action === 'created',
          action: r.action === 'created' ? 'created' : 'unchanged',
          detail: `cluster ${r.action}`
        }
      }
    )
  const steps: Report['steps'] = []
  let info!: (p: PoolInfo) => void
  const provisioned = new Promise<PoolInfo>(resolve => (info = resolve))
  const done = runStep(steps, 'node-pool', `node pool ${s.nodePool.name}`, async () => {
    // Other GPU pools with the AKS-managed driver: the stack stays off them; say so.
    const others = await checkOtherGpuPools(conn.clients, s)
    if (others) log.warning(others)
    const r = await ensureNodePool(conn.clients, s, {
      log,
      timeoutMs,
      precheck,
      onCreateSubmit: p => rememberCreateSubmitted('node-pool', p),
      onCreateRefused: () => forgetCreateSubmitted('node-pool')
    })
    // ensureNodePool has logged its warnings (r.warnings) once already.
    report.outputs['node-pool-action'] = r.action
    info({ count: r.pool.count ?? s.nodePool.count })
    return {
      changed: r.action === 'created',
      action: r.action === 'created' ? 'created' : 'unchanged',
      detail: `pool ${r.action} (${r.pool.count} × ${r.pool.vmSize})`
    }
  })
  const pool: PoolInFlight = { steps, done, info: Promise.race([provisioned, done.then(() => provisioned)]) }
  pool.info.catch(() => undefined) // the failure is the node-pool step's, reported by settlePool
  if (s.wait.rollout === 'pipelined') return pool
  await settlePool(pool, report)
  return undefined
}

/** Waits for an in-flight node pool step and puts it in the report before `credentials`; rethrows its failure. */
async function settlePool(pool: PoolInFlight | undefined, report: Report): Promise<void> {
  if (!pool) return
  try {
    await pool.done
  } finally {
    const at = report.steps.findIndex(x => x.name === 'credentials')
    report.steps.splice(at < 0 ? report.steps.length : at, 0, ...pool.steps)
    pool.steps.length = 0
  }
}

async function fetchCredentials(
  s: Settings,
  conn: AzureConnection,
  report: Report,
  temp: string[]
): Promise<{ path: string; refresher?: TokenRefresher }> {
  let result: { path: string; refresher?: TokenRefresher } | undefined
  await runStep(
    report.steps,
    'credentials',
    `${s.cluster.adminCredentials ? 'admin' : 'user'} credentials`,
    async () => {
      const r = await writeClusterCredentials(conn.clients, s, conn.auth.credential, {
        log,
        dir: runnerTemp()
      })
      rememberTempPath(r.path, temp)
      core.saveState(STATE.kubeconfig, r.path)
      process.env.KUBECONFIG = r.path // for helm and any other child process
      // For the later steps of the job too (GITHUB_ENV), as azure/aks-set-context does.
      if (s.cluster.exportKubeconfig) core.exportVariable('KUBECONFIG', r.path)
      report.outputs['kubeconfig-path'] = r.path
      r.refresher?.start()
      result = { path: r.path, refresher: r.refresher }
      return {
        changed: false,
        detail: `${r.kind} kubeconfig written (mode 0600)${r.aad ? ', AAD token for the AKS server app' : ''}`
      }
    }
  )
  return result!
}

/**
 * With a kubeconfig given and an Azure cluster named (apply; uninstall with cleanup; drift with
 * subscription-id), before any write: the kubeconfig's server must be one the named cluster answers
 * on, or the run would change one cluster's objects and another's Azure resources. Returns the
 * kubeconfig as read and checked, which the credentials step writes as it is (never read again).
 */
async function checkGivenCluster(
  s: Settings,
  conn: AzureConnection,
  report: Report
): Promise<ResolvedKubeconfig> {
  let checked!: ResolvedKubeconfig
  const { resourceGroup, name } = s.cluster
  await runStep(
    report.steps,
    'kubeconfig-cluster',
    `the given kubeconfig reaches cluster ${resourceGroup}/${name}`,
    async () => {
      const r = resolveKubeconfig(s.cluster.kubeconfig!)
      for (const secret of r.secrets) log.secret(secret)
      const match = await checkKubeconfigCluster(conn.clients, s, { context: r.context, server: r.server })
      checked = r
      return {
        changed: false,
        detail: `context ${r.context} reaches https://${match.address}, the cluster's ${match.property}`
      }
    }
  )
  return checked
}

/**
 * The credentials step with a kubeconfig given: its context, narrowed to a one-context copy (0600)
 * under RUNNER_TEMP that the run, helm and the post step use. Nothing is fetched from Azure; the
 * job's own KUBECONFIG is left as it is (export-kubeconfig does not apply). `checked`: the
 * kubeconfig checkGivenCluster read and found to be the named cluster's, written as it is.
 */
async function givenCredentials(
  s: Settings,
  report: Report,
  temp: string[],
  checked: ResolvedKubeconfig | undefined
): Promise<{ path: string; refresher?: TokenRefresher }> {
  let file!: string
  await runStep(report.steps, 'credentials', 'the given kubeconfig', async () => {
    const r = checked ?? resolveKubeconfig(s.cluster.kubeconfig!)
    for (const secret of r.secrets) log.secret(secret)
    report.cluster = { ...report.cluster, context: r.context }
    file = writeGivenKubeconfig(r, runnerTemp())
    rememberTempPath(file, temp)
    core.saveState(STATE.kubeconfig, file)
    process.env.KUBECONFIG = file // for helm and any other child process
    return {
      changed: false,
      detail: `context ${r.context} of the given kubeconfig (cluster ${r.cluster}, ${r.server}); nothing fetched from Azure`
    }
  })
  return { path: file }
}

/**
 * Writes the node pool this run created into the in-cluster ownership record, with the created-by
 * tag value it gave it (its run identity). A failure is a warning: uninstall's cleanup then falls
 * back to the tag's form alone (docs/security.md, "What the action owns").
 */
async function recordCreatedPool(s: Settings, kubeconfigPath: string): Promise<void> {
  try {
    const kube = KubeClient.fromFile(kubeconfigPath, { retries: s.wait.retries })
    await OwnershipRecord.of(kube, s.runId).created(
      poolRef(s.cluster.resourceGroup, s.cluster.name, s.nodePool.name),
      { uid: s.runId }
    )
  } catch (e) {
    log.warning(`recording node pool ${s.nodePool.name} in the ownership record failed: ${messageOf(e)}`)
  }
}

/** The pool as the cluster has it: its live node count and the nodes' VM sizes (their instance-type label). */
function livePoolLine(pool: string, nodes: KubeObject[]): string {
  const sizes = [
    ...new Set(nodes.map(n => n.metadata.labels?.['node.kubernetes.io/instance-type']).filter(Boolean))
  ]
  return `node pool ${pool}: ${nodes.length} node${nodes.length === 1 ? '' : 's'}${sizes.length ? ` × ${sizes.join(', ')}` : ''} in the cluster`
}

async function verifyAndBenchmark(s: Settings, kubeconfigPath: string, report: Report): Promise<void> {
  const kube = KubeClient.fromFile(kubeconfigPath, { retries: s.wait.retries })
  const mode = s.mode === 'plan' || s.mode === 'uninstall' ? 'verify' : s.mode
  let verification: Awaited<ReturnType<typeof runVerification>> | undefined
  await runStep(report.steps, 'verify', 'verification checks', async () => {
    verification = await runVerification({ settings: s, kube, mode, log })
    if (verification.nodes.length) log.info(livePoolLine(s.nodePool.name, verification.nodes))
    report.checks = verification.checks
    const failed = verification.checks.filter(c => c.status === 'fail')
    const skipped = verification.checks.filter(c => c.status === 'skipped').length
    for (const c of failed)
      log.error(`${c.name}: ${c.detail}`, { title: `aks-rdma-action check failed: ${c.name}` })
    const passingNodes =
      verification.nodes.length -
      new Set(
        verification.checks.flatMap(c => (c.nodes ?? []).filter(n => n.status === 'fail').map(n => n.node))
      ).size
    report.outputs['rdma-nodes'] = String(passingNodes)
    return {
      changed: false,
      detail: `${verification.checks.length - failed.length - skipped}/${verification.checks.length} checks pass${skipped ? ` (${skipped} skipped)` : ''} on ${verification.nodes.length} RDMA nodes`
    }
  })
  if (s.mode === 'drift' || !verification) return
  // A pool with no nodes has failed verify with the reason; a benchmark would only repeat it.
  if (!verification.nodes.length) {
    log.info(`benchmark and transport check: not run (pool ${s.nodePool.name} has no nodes; see verify)`)
    return
  }
  if (!verification.facts) {
    // The probe was refused (an identity that may only read): what builds on it does not start.
    const now = Date.now()
    const why = { detail: 'not run: the node probe could not run (see the node-probe check)' }
    if (s.benchmark.enabled) report.steps.push(finishedStep('benchmark', 'skipped', now, why, now))
    if (s.transport.check !== 'none') report.steps.push(finishedStep('transport', 'skipped', now, why, now))
    return
  }
  // The transport check runs after the benchmark even when the benchmark failed (it says why
  // Dynamo's own path fails); the benchmark's failure is reported all the same.
  let benchmarkFailure: StepError | undefined
  if (s.benchmark.enabled)
    await runBenchmarkStep(s, kube, verification, report).catch(e => {
      if (!(e instanceof StepError)) throw e
      benchmarkFailure = e
    })
  if (s.transport.check !== 'none') await runTransportStep(s, kube, verification, report)
  if (benchmarkFailure) throw benchmarkFailure
}

export async function runFlow(s: Settings): Promise<number> {
  return (await runFlowWithReport(s)).exitCode
}

export async function runFlowWithReport(s: Settings): Promise<FlowResult> {
  const named = !s.cluster.kubeconfig || usesAzure(s)
  const report = emptyReport(s.mode, {
    version: actionVersion(),
    startedAt: new Date().toISOString(),
    cluster: named ? { resourceGroup: s.cluster.resourceGroup, name: s.cluster.name } : {}
  })
  const temp: string[] = []
  const reportPath = path.join(runnerTemp(), 'aks-rdma-action-report.json')
  rememberRun(s.runId, reportPath)
  rememberCleanup(s)
  let refresher: TokenRefresher | undefined
  /** Set once the stack released the Lease it took; the kubeconfig once written (a cancelled run's account). */
  let leaseReleased = false
  let kubeconfigPath: string | undefined
  try {
    // Without Azure (a kubeconfig given to verify, or to drift without subscription-id) no sign-in.
    let conn: AzureConnection | undefined
    if (usesAzure(s))
      await runStep(report.steps, 'azure-sign-in', 'authenticate to Azure', async () => {
        const c = connectAzure(s, log)
        conn = c
        return { changed: false, detail: `credential: ${c.auth.method}` }
      })
    // A kubeconfig given with an Azure cluster named: the same cluster, checked before any write.
    const checked = conn && s.cluster.kubeconfig ? await checkGivenCluster(s, conn, report) : undefined
    const pool = s.mode === 'apply' ? await ensureAzure(s, conn!, report) : undefined
    const creds = await (
      s.cluster.kubeconfig
        ? givenCredentials(s, report, temp, checked)
        : fetchCredentials(s, conn!, report, temp)
    ).catch(async e => {
      await settlePool(pool, report).catch(() => undefined)
      throw e
    })
    refresher = creds.refresher
    kubeconfigPath = creds.path
    if (s.mode === 'drift')
      await runStep(
        report.steps,
        'drift',
        'compare the desired state with the live one (read-only)',
        async () => {
          try {
            report.drift = await detectDrift({
              settings: s,
              azure: conn,
              kubeconfigPath: creds.path,
              log
            })
          } catch (e) {
            if (e instanceof DriftError) {
              report.drift = e.items
              for (const line of driftLines(e.items)) log.info(line)
            }
            throw e
          }
          const n = report.drift.length
          // Desired and actual in the log too, not only in the job summary.
          for (const line of driftLines(report.drift)) log.info(line)
          const scope = conn ? '' : ' (in the cluster; the Azure resources not compared: no subscription-id)'
          return n
            ? { status: 'warning', changed: false, detail: `${n} drifted field${n > 1 ? 's' : ''}${scope}` }
            : { changed: false, detail: `no drift${scope}` }
        }
      ).catch(e => {
        // The step is recorded as failed; the read-only checks still run.
        if (!(e instanceof StepError)) throw e
      })
    if (s.mode === 'apply') {
      // Pipelined: the stack is written while the pool may still be provisioning (pool.info).
      const stack = await applyStack({ settings: s, kubeconfigPath: creds.path, nodePool: pool?.info }).catch(
        async e => {
          await settlePool(pool, report).catch(() => undefined)
          throw e
        }
      )
      if (stack.leaseReleased) {
        rememberLeaseReleased()
        leaseReleased = true
      }
      report.steps.push(...stack.steps)
      if (stack.diagnostics.length) report.diagnostics = [...(report.diagnostics ?? []), ...stack.diagnostics]
      await settlePool(pool, report) // a failed pool is the failure to report, before the stack's
      // The pool this run created, in the ownership record: uninstall's cleanup then wants that tag value.
      if (report.outputs['node-pool-action'] === 'created') await recordCreatedPool(s, creds.path)
      if (!stack.ok)
        throw new StepError(
          stack.steps.find(x => x.status === 'failure')?.name ?? 'stack',
          'the stack did not converge'
        )
    }
    if (s.mode === 'uninstall') await runUninstall(s, conn, creds.path, report)
    else await verifyAndBenchmark(s, creds.path, report)
  } catch (e) {
    // A cancelled run stopped at a safe point: said below, with what it left half-done.
    if (!(e instanceof StepError) && !(e instanceof RunCancelledError)) {
      const message = e instanceof Error ? e.message : String(e)
      log.error(message, { title: 'aks-rdma-action failed' })
      report.diagnostics = [
        ...(report.diagnostics ?? []),
        { step: 'run', title: 'Unexpected error', text: message }
      ]
    }
  } finally {
    refresher?.stop()
  }
  const cancelled = cancelledBy()
  if (cancelled) {
    const lease = leaseReleased ? 'released' : await releaseIfHeld(kubeconfigPath, s.runId)
    if (lease === 'released') rememberLeaseReleased()
    const lines = halfDoneLines(report, { signal: cancelled, lease, removed: removeTemporaryFiles(temp) })
    log.error(lines.join('\n'), { title: `aks-rdma-action cancelled by ${cancelled}` })
    report.diagnostics = [
      ...(report.diagnostics ?? []),
      { step: 'run', title: `Cancelled by ${cancelled}`, text: lines.slice(1).join('\n') }
    ]
  }
  report.result = deriveResult(report)
  if (report.result === 'success' && (s.mode === 'apply' || s.mode === 'verify'))
    report.workload = workloadOf(s)
  report.outputs.result = report.result
  // Drift found is `drifted: true` even when something else failed too (the result is then failure).
  report.outputs.drifted = String(driftFound(report))
  report.outputs['report-path'] = reportPath
  await writeReportFile(reportPath, report)
  for (const [k, v] of Object.entries(report.outputs)) setOutput(k, v)
  await writeJobSummary(report)
  const failed = report.result === 'failure' || (report.result === 'drifted' && s.failOnDrift)
  if (cancelled) {
    core.setFailed(`aks-rdma-action: cancelled by ${cancelled}`)
    return { exitCode: cancelledExitCode(cancelled), report }
  }
  if (failed) core.setFailed(`aks-rdma-action: ${report.result}`)
  return { exitCode: failed ? 1 : 0, report }
}
