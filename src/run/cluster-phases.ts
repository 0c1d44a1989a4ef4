// The run's cluster phases: credentials (fetched, or the given kubeconfig), then drift, the stack
// or its removal, then verification with the benchmark and the transport check.
import * as core from '@actions/core'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { COMPONENTS } from '../components/index.js'
import { driftLines } from '../drift/render.js'
import { KubeClient } from '../kube/client.js'
import { messageOf } from '../kube/errors.js'
import type { KubeObject } from '../kube/types.js'
import { log } from '../log/index.js'
import { finishedStep, type Report } from '../report/report.js'
import { writeGivenKubeconfig, resolveKubeconfig } from '../settings/kubeconfig.js'
import type { Settings } from '../settings/settings.js'
import { detectDrift, DriftError } from '../stack/drift.js'
import { applyStack } from '../stack/index.js'
import { OwnershipRecord, poolRef } from '../stack/ownership.js'
import { runVerification } from '../verify/index.js'
import { armApplyContext, settlePool } from './azure-phases.js'
import { runBenchmarkStep } from './benchmark-step.js'
import { runCollectiveStep } from './collective-step.js'
import type { Phase, RunContext } from './phase.js'
import { rememberLeaseReleased, rememberTempPath, STATE } from './saved-state.js'
import { runStep, StepError } from './steps.js'
import { runTransportStep } from './transport-step.js'
import { runUninstall } from './uninstall-step.js'
import { verifyPools } from './pools.js'

/** RUNNER_TEMP, or a private folder of this run's own outside Actions. */
export function runnerTemp(): string {
  return process.env.RUNNER_TEMP ?? mkdtempSync(path.join(tmpdir(), 'aks-rdma-action-'))
}

/** The kubeconfig written: for this run's clients, helm and any child process, and the post step. */
function useKubeconfig(ctx: RunContext, file: string): void {
  rememberTempPath(file, ctx.temp)
  core.saveState(STATE.kubeconfig, file)
  process.env.KUBECONFIG = file // for helm and any other child process
  ctx.kubeconfigPath = file
}

/**
 * The credentials: fetched from Azure (written 0600 under RUNNER_TEMP; exported to the job's later
 * steps with export-kubeconfig, as azure/aks-set-context does), or, with a kubeconfig given, its
 * context narrowed to a one-context copy (0600) — nothing fetched, the job's KUBECONFIG left alone.
 */
export const credentials: Phase = {
  name: 'credentials',
  modes: ['apply', 'verify', 'drift', 'uninstall'],
  run: async (ctx, part) => {
    const s = ctx.s
    if (s.cluster.kubeconfig) {
      await runStep(part.steps, 'credentials', 'the given kubeconfig', async () => {
        const r = ctx.checked ?? resolveKubeconfig(s.cluster.kubeconfig!)
        for (const secret of r.secrets) log.secret(secret)
        part.cluster = { context: r.context }
        useKubeconfig(ctx, writeGivenKubeconfig(r, runnerTemp()))
        return {
          changed: false,
          detail: `context ${r.context} of the given kubeconfig (cluster ${r.cluster}, ${r.server}); nothing fetched from Azure`
        }
      })
      return
    }
    const who = s.cluster.adminCredentials ? 'admin' : 'user'
    await runStep(part.steps, 'credentials', `${who} credentials`, async () => {
      const r = await COMPONENTS.credentials.apply(armApplyContext(ctx, runnerTemp()))
      const written = r.kubeconfig!
      useKubeconfig(ctx, written.path)
      // For the later steps of the job too (GITHUB_ENV), as azure/aks-set-context does.
      if (s.cluster.exportKubeconfig) core.exportVariable('KUBECONFIG', written.path)
      part.outputs['kubeconfig-path'] = written.path
      written.refresher?.start()
      ctx.refresher = written.refresher
      return r
    })
  }
}

/** Drift mode: the desired state compared with the live one, read-only; a failure still lets verify run. */
export const drift: Phase = {
  name: 'drift',
  modes: ['drift'],
  run: async (ctx, part) => {
    await runStep(
      part.steps,
      'drift',
      'compare the desired state with the live one (read-only)',
      async () => {
        try {
          part.drift = await detectDrift({
            settings: ctx.s,
            azure: ctx.conn,
            kubeconfigPath: ctx.kubeconfigPath!,
            log
          })
        } catch (e) {
          if (e instanceof DriftError) {
            part.drift = e.items
            for (const line of driftLines(e.items)) log.info(line)
          }
          throw e
        }
        const n = part.drift.length
        // Desired and actual in the log too, not only in the job summary.
        for (const line of driftLines(part.drift)) log.info(line)
        const scope = ctx.conn
          ? ''
          : ' (in the cluster; the Azure resources not compared: no subscription-id)'
        return n
          ? { status: 'warning', changed: false, detail: `${n} drifted field${n > 1 ? 's' : ''}${scope}` }
          : { changed: false, detail: `no drift${scope}` }
      }
    ).catch(e => {
      // The step is recorded as failed; the read-only checks still run.
      if (!(e instanceof StepError)) throw e
    })
  }
}

/**
 * Writes the node pool this run created into the in-cluster ownership record, with the created-by
 * tag value it gave it (its run identity). A failure is a warning: uninstall's cleanup then falls
 * back to the tag's form alone (docs/security.md, "What the action owns").
 */
async function recordCreatedPool(ctx: RunContext): Promise<void> {
  const s = ctx.s
  try {
    const kube = KubeClient.fromFile(ctx.kubeconfigPath!, { retries: s.wait.retries })
    await OwnershipRecord.of(kube, s.runId).created(
      poolRef(s.cluster.resourceGroup, s.cluster.name, s.nodePool.name),
      {
        uid: s.runId
      }
    )
  } catch (e) {
    log.warning(`recording node pool ${s.nodePool.name} in the ownership record failed: ${messageOf(e)}`)
  }
}

/**
 * Apply mode: the stack, written while a pipelined node pool may still be provisioning; the pool's
 * failure is the one to report, before the stack's.
 */
export const stack: Phase = {
  name: 'stack',
  modes: ['apply'],
  run: async (ctx, part) => {
    const result = await applyStack({
      settings: ctx.s,
      kubeconfigPath: ctx.kubeconfigPath!,
      // Pipelined: the stack is written while the pool may still be provisioning.
      nodePool: ctx.s.wait.rollout === 'pipelined' ? ctx.pool?.info : undefined
    })
    if (result.leaseReleased) {
      rememberLeaseReleased()
      ctx.leaseReleased = true
    }
    part.steps.push(...result.steps)
    if (result.diagnostics.length) part.diagnostics = result.diagnostics
    await settlePool(ctx)
    // The pool this run created, in the ownership record: uninstall's cleanup then wants that tag value.
    if (ctx.poolAction === 'created') await recordCreatedPool(ctx)
    if (!result.ok)
      throw new StepError(
        result.steps.find(x => x.status === 'failure')?.name ?? 'stack',
        'the stack did not converge'
      )
  }
}

export const uninstall: Phase = {
  name: 'uninstall',
  modes: ['uninstall'],
  run: (ctx, part) => runUninstall(ctx.s, ctx.conn, ctx.kubeconfigPath!, part)
}

/** The pool as the cluster has it: its live node count and the nodes' VM sizes (their instance-type label). */
function livePoolLine(pool: string, nodes: KubeObject[]): string {
  const sizes = [
    ...new Set(nodes.map(n => n.metadata.labels?.['node.kubernetes.io/instance-type']).filter(Boolean))
  ]
  return `node pool ${pool}: ${nodes.length} node${nodes.length === 1 ? '' : 's'}${sizes.length ? ` × ${sizes.join(', ')}` : ''} in the cluster`
}

/**
 * The verification checks; then (not in drift mode) the benchmark, the transport check and the
 * collective check, each run whatever the one before found (each names its own cause) — their
 * failures are reported all the same.
 */
export async function verifyAndBenchmark(s: Settings, kubeconfigPath: string, part: Report): Promise<void> {
  const kube = KubeClient.fromFile(kubeconfigPath, { retries: s.wait.retries })
  const mode = s.mode === 'drift' ? 'drift' : s.mode === 'apply' ? 'apply' : 'verify'
  let verification: Awaited<ReturnType<typeof runVerification>> | undefined
  await runStep(part.steps, 'verify', 'verification checks', async () => {
    verification = await runVerification({ settings: s, kube, mode, log })
    if (verification.nodes.length) log.info(livePoolLine(s.nodePool.name, verification.nodes))
    part.checks = verification.checks
    if (verification.gpudirect) part.gpudirect = verification.gpudirect
    const failed = verification.checks.filter(c => c.status === 'fail')
    const skipped = verification.checks.filter(c => c.status === 'skipped').length
    for (const c of failed)
      log.error(`${c.name}: ${c.detail}`, { title: `aks-rdma-action check failed: ${c.name}` })
    const failing = new Set(
      verification.checks.flatMap(c => (c.nodes ?? []).filter(n => n.status === 'fail').map(n => n.node))
    )
    part.outputs['rdma-nodes'] = String(verification.nodes.length - failing.size)
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
    if (s.benchmark.enabled) part.steps.push(finishedStep('benchmark', 'skipped', now, why, now))
    if (s.transport.check !== 'none') part.steps.push(finishedStep('transport', 'skipped', now, why, now))
    if (s.collective.check !== 'none') part.steps.push(finishedStep('collective', 'skipped', now, why, now))
    return
  }
  let benchmarkFailure: StepError | undefined
  if (s.benchmark.enabled)
    await runBenchmarkStep(s, kube, verification, part).catch(e => {
      if (!(e instanceof StepError)) throw e
      benchmarkFailure = e
    })
  // The collective check runs whatever the transport check found: each names its own cause.
  let transportFailure: StepError | undefined
  if (s.transport.check !== 'none')
    await runTransportStep(s, kube, verification, part).catch(e => {
      if (!(e instanceof StepError) || s.collective.check === 'none') throw e
      transportFailure = e
    })
  if (s.collective.check !== 'none') await runCollectiveStep(s, kube, verification, part)
  if (benchmarkFailure) throw benchmarkFailure
  if (transportFailure) throw transportFailure
}

/** Verification: the run's pool, or with all-pools every pool the action manages. */
export const verify: Phase = {
  name: 'verify',
  modes: ['apply', 'verify', 'drift'],
  // With all-pools, once per pool the action manages (src/run/pools.ts).
  run: (ctx, part) => verifyPools(ctx.s, ctx.kubeconfigPath!, part, verifyAndBenchmark)
}
