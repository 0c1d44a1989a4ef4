// Verification: the read-only checks, then (outside drift mode) the node probe. `verify` creates only
// its namespace and the probe DaemonSet; `drift` creates nothing. See docs/probe.md and docs/drift.md.
import type { KubeClient } from '../kube/client.js'
import type { KubeObject } from '../kube/types.js'
import type { Log } from '../log/index.js'
import type { Settings } from '../settings/settings.js'
import type { Check } from './check-result.js'
import { readClusterState, type ClusterState } from './cluster-state.js'
import { nodeProbeCheck, unprobeable } from './probe-check.js'
import type { NodeFacts } from './probe-output.js'
import { probeNodes } from './probe.js'
import { readOnlyChecks } from './read-only-checks.js'
import { httpStatusOf, messageOf } from '../kube/errors.js'
import { PROBE_PERMISSION } from '../model/permissions.js'
import type { ReportGpuDirect } from '../report/report.js'
import { gpuDirectReport } from './gpudirect.js'

/** The permission a 403 names (`patch namespaces in aks-rdma-verify`), or the server's message. */
function refusedPermission(e: unknown): string {
  const message = messageOf(e)
  const m =
    /cannot (\S+) resource "([^"]+)"(?: in API group "([^"]*)")?(?: in the namespace "([^"]+)")?/.exec(
      message
    )
  if (!m) return message
  const [, verb, resource, group, namespace] = m
  return `the identity may not ${verb} ${resource}${group ? `.${group}` : ''}${namespace ? ` in namespace ${namespace}` : ' at the cluster scope'}`
}

export type { Check } from './check-result.js'
export { PROBE_PERMISSION }
export type { NodeFacts } from './probe-output.js'
export type VerifyMode = 'apply' | 'verify' | 'drift'

export interface VerifyContext {
  settings: Settings
  kube: KubeClient
  mode: VerifyMode
  /** Where the probe's progress goes (default: nowhere). */
  log?: Log
  /** Probe wait limit (default settings.wait.stepTimeoutMs). */
  probeTimeoutMs?: number
}

export interface Verification {
  checks: Check[]
  state: ClusterState
  /** The pool's nodes (sorted by name). */
  nodes: KubeObject[]
  /** Per-node probe facts (absent in drift mode); the benchmark reuses them. */
  facts?: Map<string, NodeFacts>
  /** The path GPUDirect took on the probed GPU nodes (absent without probe facts of any). */
  gpudirect?: ReportGpuDirect
}

export async function runVerification(ctx: VerifyContext): Promise<Verification> {
  const s = ctx.settings
  const state = await readClusterState(ctx.kube, s)
  const checks = readOnlyChecks(state, s)
  if (ctx.mode === 'drift') {
    checks.push({
      name: 'node-probe',
      status: 'skipped',
      detail: 'drift mode only reads state (the probe creates pods)'
    })
    return { checks, state, nodes: state.nodes }
  }
  // A pool with no nodes: nothing to probe (nodes-ready says which pools there are).
  if (!state.nodes.length) {
    checks.push(nodeProbeCheck([], new Map(), new Map(), s))
    return { checks, state, nodes: [], facts: new Map() }
  }
  const skipped = new Map<string, string>()
  const probe: string[] = []
  for (const n of state.nodes) {
    const why = unprobeable(n, s)
    if (why) skipped.set(n.metadata.name, why)
    else probe.push(n.metadata.name)
  }
  let facts: Map<string, NodeFacts>
  try {
    facts = await probeNodes({
      kube: ctx.kube,
      settings: s,
      nodes: probe,
      timeoutMs: ctx.probeTimeoutMs,
      log: ctx.log
    })
  } catch (e) {
    // An identity that may only read: the read-only checks stand, the probe says what it needs.
    if (httpStatusOf(e) !== 403) throw e
    const detail = `not run: ${refusedPermission(e)}; ${PROBE_PERMISSION}`
    ctx.log?.warning(`node-probe: ${detail}`)
    checks.push({ name: 'node-probe', status: 'warn', detail })
    return { checks, state, nodes: state.nodes }
  }
  checks.push(nodeProbeCheck(state.nodes, facts, skipped, s))
  const gpudirect = gpuDirectReport(facts.values(), s)
  return { checks, state, nodes: state.nodes, facts, ...(gpudirect ? { gpudirect } : {}) }
}

/** The verification checks (verificationChecks in read-only-checks.ts lists them), in that order. */
export async function runChecks(ctx: VerifyContext): Promise<Check[]> {
  return (await runVerification(ctx)).checks
}
