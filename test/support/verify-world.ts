// Test helper for the verification and benchmark suites: a simulated Kubernetes half with a system
// pool and an RDMA pool, the cluster stack brought up the way apply does it — the two operator
// charts through the helm stand-in (in-process) and the model's manifests server-side applied —
// with parts left out on request (no NodeFeatureRule, no ib-node-config, no GPU Operator,
// use-host-mofed), then settled by the action's own health rules (the ones its apply wait and
// verification use): every installed component ready, given up (a crash loop), or no longer
// changing. A world that does not settle fails with what those rules say, component by component,
// never with a bare timeout, so an action bug shows in the action's words. Also what the suites do
// in such a world: verify it, read its checks and probe facts, hold its GPUs.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { stringify } from 'yaml'
import { KubeClient } from '../../src/kube/client.js'
import type { KubeObject } from '../../src/kube/types.js'
import {
  buildStack,
  COMPONENTS,
  kubeComponents,
  type ComponentName,
  type KubeComponent
} from '../../src/components/index.js'
import { evaluateHealth, healthSources } from '../../src/health/evaluate.js'
import type { HealthVerdict } from '../../src/health/types.js'
import { readSettings } from '../../src/settings/input-helper.js'
import type { Settings } from '../../src/settings/settings.js'
import {
  runChecks,
  runVerification,
  type Check,
  type Verification,
  type VerifyMode
} from '../../src/verify/index.js'
import { SimClock, SimRecorder } from '../../sim/contracts.js'
import { helmStandin, HELM_STANDIN_TIME_SCALE_ENV } from '../../sim/helm/index.js'
import { startKubeSim, type KubeSim } from '../../sim/kube/index.js'
import { loadScenario } from '../../sim/scenario.js'
import { createWorldTls, type WorldTls } from '../../sim/tls.js'
import { parseDuration } from '../../src/util/duration.js'
import { reader, VALID_APPLY } from './inputs.js'
import { SYSTEM_POOL, userPool } from './sim-pools.js'
import { barePod, gpuContainer } from './gpu-workloads.js'
import { expect } from '@jest/globals'
import { runBenchmark } from '../../src/benchmark/runner.js'
import type { NodeFacts } from '../../src/verify/probe-output.js'
import { withWorld, worldForTests } from './world-scope.js'

let tls: WorldTls | undefined

export interface StackParts {
  nodeFeatureRule?: boolean
  ibNodeConfig?: boolean
  gpuOperator?: boolean
}

export interface RdmaWorldOptions {
  nodes: number
  vmSize?: string
  /** Scenario overrides (nodes.degraded, nodes.noInfiniband, kube.timeScale, …). */
  scenario?: Record<string, unknown>
  /** Action inputs over the defaults (e.g. `use-host-mofed`, `benchmark-scope`). */
  inputs?: Record<string, string>
  /** Parts of the stack to install (all by default). */
  stack?: StackParts
  /** Nodes only: no operator, no manifest. */
  bare?: boolean
  /** Changes a manifest of the action's before it is applied (a guide-style variant of it). */
  alter?: (manifest: KubeObject) => void
}

export interface RdmaWorld {
  sim: KubeSim
  recorder: SimRecorder
  settings: Settings
  kube: KubeClient
  /** The admin kubeconfig's file. */
  kubeconfigPath: string
  /** RDMA node names, sorted. */
  rdmaNodes(): string[]
  close(): Promise<void>
}

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms))

async function until(what: string, ok: () => boolean, limitMs = 60_000): Promise<void> {
  const end = Date.now() + limitMs
  while (!ok()) {
    if (Date.now() > end) throw new Error(`test world: timed out waiting for ${what}`)
    await sleep(20)
  }
}

/** The cluster components a world applies, in stack order. */
const WORLD_COMPONENTS: ComponentName[] = kubeComponents().map(c => c.name)

/** One evaluation of a component's health rules over a fresh read of what they watch. */
async function healthNow(
  kube: KubeClient,
  c: KubeComponent,
  settings: Settings,
  elapsedMs: number
): Promise<HealthVerdict> {
  const h = c.health(settings)
  const snapshot: Record<string, KubeObject[]> = {}
  for (const [key, src] of Object.entries(healthSources(h, settings))) {
    try {
      snapshot[key] = (
        await kube.list(src.apiVersion, src.kind, {
          namespace: src.namespace,
          labelSelector: src.labelSelector
        })
      ).items
    } catch (e) {
      if (!src.custom) throw e
      snapshot[key] = [] // a custom resource whose CRD is not there yet
    }
  }
  return evaluateHealth(h, snapshot, { settings, elapsedMs, nfdGraceMs: 120_000 })
}

function describeVerdict(v: HealthVerdict): string {
  const nodes = v.nodes.filter(n => !n.ready).map(n => `${n.node}: ${n.detail}`)
  return [v.fail ?? v.message, ...(v.problems ?? []), ...nodes].join('; ')
}

/**
 * Waits until every installed component is ready or has given up by the action's health rules,
 * or until none of their verdicts changes across two jumps of `quietSimMs` of simulated time
 * (what this stack can give a node has arrived). The jumps run whatever the world had scheduled
 * in those spans at once (SimClock.advance), so a busy machine that runs the world's timers late
 * cannot pass for a quiet world. A world that keeps changing past `limitMs` throws with the verdicts.
 */
async function settleByHealth(o: {
  kube: KubeClient
  settings: Settings
  installed: KubeComponent[]
  clock: SimClock
  /** Runs the world's queued reconciles and status writes now. */
  flush: () => void
  quietSimMs: number
  limitMs: number
}): Promise<void> {
  const start = o.clock.now()
  const end = Date.now() + o.limitMs
  const gaveUp = new Set<string>()
  let last = ''
  let quietJumps = 0
  for (;;) {
    o.flush()
    const verdicts = new Map<string, HealthVerdict>()
    for (const c of o.installed)
      verdicts.set(c.name, await healthNow(o.kube, c, o.settings, o.clock.now() - start))
    for (const [name, v] of verdicts) if (v.fail) gaveUp.add(name)
    const open = [...verdicts].filter(([name, v]) => !v.done && !gaveUp.has(name))
    if (!open.length) return
    const signature = JSON.stringify(open.map(([name, v]) => [name, v.message, v.nodes, v.problems]))
    if (signature !== last) {
      last = signature
      quietJumps = 0
    } else if (quietJumps >= 2) return
    else {
      o.clock.advance(o.quietSimMs)
      quietJumps++
    }
    if (Date.now() > end)
      throw new Error(
        `test world: the stack did not settle within ${Math.round(o.limitMs / 1000)}s; the action's health rules say:\n` +
          [...verdicts].map(([name, v]) => `  ${name}: ${v.done ? 'ready' : describeVerdict(v)}`).join('\n')
      )
    await sleep(50)
  }
}

function nodeObjects(sim: KubeSim): KubeObject[] {
  return sim.store.list(sim.store.type('', 'nodes')!, {}).items as unknown as KubeObject[]
}

export async function startRdmaWorld(o: RdmaWorldOptions): Promise<RdmaWorld> {
  tls ??= createWorldTls()
  const parts: Required<StackParts> = {
    nodeFeatureRule: true,
    ibNodeConfig: true,
    gpuOperator: true,
    ...o.stack
  }
  const included = (name: ComponentName): boolean =>
    !(
      (name === 'node-feature-rule' && !parts.nodeFeatureRule) ||
      (name === 'ib-node-config' && !parts.ibNodeConfig) ||
      (name === 'gpu-operator' && !parts.gpuOperator)
    )
  const vmSize = o.vmSize ?? 'Standard_ND96asr_v4'
  const scenario = loadScenario(undefined, { kube: { timeScale: 0.002 }, ...o.scenario })
  // Settings first: bad inputs fail before any world starts (nothing left running).
  const settings = readSettings(
    reader({
      ...VALID_APPLY,
      mode: 'verify',
      'node-count': String(o.nodes),
      'step-timeout': '10m',
      ...o.inputs
    })
  ).settings
  // Set after reading: the input refuses sizes without NVIDIA GPUs (HB120rs_v3), still simulated here.
  settings.nodePool.vmSize = vmSize
  settings.runId = `test-${Math.random().toString(36).slice(2, 8)}`
  const recorder = new SimRecorder()
  const clock = new SimClock(scenario.kube.timeScale)
  const sim = await startKubeSim({ scenario, clock, recorder, tls })
  const dir = mkdtempSync(path.join(tmpdir(), 'verify-world-'))
  const kubeconfigPath = path.join(dir, 'kubeconfig')
  writeFileSync(kubeconfigPath, sim.kubeconfig('admin'), { mode: 0o600 })
  const kube = KubeClient.fromFile(kubeconfigPath, { retries: 2, backoffBaseMs: 20 })

  try {
    sim.addPool(SYSTEM_POOL)
    sim.addPool(userPool(settings.nodePool.name, vmSize, o.nodes))
    await until('nodes to join', () => nodeObjects(sim).length >= o.nodes + 1)

    const env: NodeJS.ProcessEnv = {
      KUBECONFIG: kubeconfigPath,
      HOME: path.join(dir, 'home'),
      HELM_CONFIG_HOME: path.join(dir, 'helm-config'),
      HELM_CACHE_HOME: path.join(dir, 'helm-cache'),
      HELM_DATA_HOME: path.join(dir, 'helm-data'),
      [HELM_STANDIN_TIME_SCALE_ENV]: String(scenario.kube.timeScale)
    }
    let helmOut = ''
    const helm = async (...argv: string[]) => {
      const code = await helmStandin(argv, env, { stdout: t => (helmOut += t), stderr: t => (helmOut += t) })
      if (code !== 0) throw new Error(`helm ${argv.join(' ')} failed:\n${helmOut}`)
    }
    await helm('repo', 'add', 'nvidia', 'https://helm.ngc.nvidia.com/nvidia')
    for (const c of o.bare ? [] : buildStack(settings)) {
      if (!WORLD_COMPONENTS.includes(c.name) || !included(c.name)) continue
      for (const m of c.manifests ?? []) {
        // Without ib-node-config the world is a guide-style cluster that skipped its step 3: the
        // device plugin as the guide deploys it, without the action's wait for ib-node-config.
        const manifest = structuredClone(m) as KubeObject
        if (!parts.ibNodeConfig && manifest.kind === 'DaemonSet' && c.name === 'rdma-device-plugin')
          delete manifest.spec.template.spec.initContainers
        o.alter?.(manifest)
        await kube.applyManifest(manifest)
      }
      if (c.helm) {
        const values = path.join(dir, `${c.helm.release}-values.yaml`)
        writeFileSync(values, stringify(c.helm.values))
        await helm(
          'upgrade',
          '--install',
          c.helm.release,
          c.helm.chart,
          '--version',
          c.helm.version,
          '-n',
          c.helm.namespace,
          '--create-namespace',
          '-f',
          values,
          '--wait',
          '--timeout',
          '10m'
        )
      }
    }
  } catch (e) {
    await sim.close()
    throw e
  }

  const rdmaNodes = () =>
    Object.entries(sim.nodeStates())
      .filter(([, st]) => st.pool === settings.nodePool.name)
      .map(([n]) => n)
      .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
  // Settle by the action's own health rules over the components this world installed.
  const installed = o.bare
    ? []
    : WORLD_COMPONENTS.filter(n => included(n)).map(n => COMPONENTS[n] as KubeComponent)
  const delays = Object.values(scenario.kube.delays).map(d => parseDuration(String(d)) ?? 0)
  try {
    await settleByHealth({
      kube,
      settings,
      installed,
      clock,
      // Longer than any one step can take on a node (the OFED build, a crash loop's back-off).
      flush: () => sim.controllers.flush(),
      quietSimMs: 2 * Math.max(300_000, ...delays),
      limitMs: 120_000
    })
    // A little more simulated time so late status writes (policy states, pod readiness) land.
    clock.advance(30_000)
    await sleep(50)
    sim.controllers.flush()
  } catch (e) {
    await sim.close()
    throw e
  }
  recorder.reset()
  return {
    sim,
    recorder,
    settings,
    kube,
    kubeconfigPath,
    rdmaNodes,
    close: async () => {
      await sim.close()
      rmSync(dir, { recursive: true, force: true })
    }
  }
}

/** Pods of the action's own namespace (probe and perftest pods), straight from the store. */
export function workPods(w: RdmaWorld, namespace = 'aks-rdma-verify'): KubeObject[] {
  const t = w.sim.store.type('', 'pods')!
  return w.sim.store.list(t, { namespace }).items as unknown as KubeObject[]
}

/**
 * Waits (real time, generous limit) until the work namespace has no pod left: the probe
 * DaemonSet's pods go after it, deleted by the garbage collector in the background and stopped
 * by their kubelets within their grace period, as on a real cluster.
 */
export async function workPodsGone(w: RdmaWorld, namespace = 'aks-rdma-verify'): Promise<void> {
  const until = Date.now() + 60_000
  while (workPods(w, namespace).length) {
    if (Date.now() > until)
      throw new Error(
        `pods left in ${namespace}: ${workPods(w, namespace)
          .map(p => p.metadata.name)
          .join(', ')}`
      )
    await new Promise(r => setTimeout(r, 10))
  }
}

/** Kube requests recorded since the last reset, by kind of request. */
export function requestStats(w: RdmaWorld): {
  total: number
  lists: number
  mutating: number
  byResource: Record<string, number>
} {
  const kube = w.recorder.records.filter(r => r.service === 'kube')
  const lists = kube.filter(
    r => r.method === 'GET' && !/[?&]watch=(true|1)/.test(r.path) && isCollection(r.path)
  )
  const byResource: Record<string, number> = {}
  for (const r of kube)
    byResource[`${r.method} ${r.resource ?? '-'}`] = (byResource[`${r.method} ${r.resource ?? '-'}`] ?? 0) + 1
  return {
    total: kube.length,
    lists: lists.length,
    mutating: kube.filter(r => r.mutating).length,
    byResource
  }
}

/** `/api/v1/namespaces/x/pods` and `/api/v1/nodes` are collections; `/api/v1/nodes/n` is not. */
function isCollection(p: string): boolean {
  const parts = p.split('?')[0].split('/').filter(Boolean)
  const start = parts[0] === 'api' ? 2 : 3
  const rest = parts.slice(start)
  if (rest[0] === 'namespaces' && rest.length >= 3) return rest.length === 3
  return rest.length === 1
}

/** Starts an RDMA world, runs `body` in it and closes it, whatever `body` does. */
export function withRdmaWorld(o: RdmaWorldOptions, body: (w: RdmaWorld) => Promise<void>): Promise<void> {
  return withWorld(startRdmaWorld(o), body)
}

/** One RDMA world for the tests of the enclosing describe (or file). */
export function rdmaWorldForTests(o: RdmaWorldOptions): RdmaWorld {
  return worldForTests(() => startRdmaWorld(o))
}

/** The action's verification on the world, in `mode` (default verify). */
export function verifyOn(w: RdmaWorld, mode: VerifyMode = 'verify'): Promise<Verification> {
  return runVerification({ settings: w.settings, kube: w.kube, mode })
}

/** The node probe's facts per node (what the benchmark and the checks after it reuse). */
export async function probeFacts(w: RdmaWorld): Promise<Map<string, NodeFacts>> {
  return (await verifyOn(w)).facts!
}

/** perftest between the same nodes passes (the fabric is fine), with `s` (default the world's settings). */
export async function expectPerftestPasses(
  w: RdmaWorld,
  f: Map<string, NodeFacts>,
  s = w.settings
): Promise<void> {
  const run = await runBenchmark({ settings: s, kube: w.kube, facts: f })
  expect(run.analysis?.measurements.every(m => m.verdict === 'pass')).toBe(true)
  expect(run.pairs.length).toBeGreaterThan(0)
}

/** Checks by name. */
export function byName(checks: Check[]): Record<string, Check> {
  return Object.fromEntries(checks.map(c => [c.name, c]))
}

/** The verification's checks on the world (runChecks), by name. */
export async function checksOn(w: RdmaWorld, mode: VerifyMode = 'verify'): Promise<Record<string, Check>> {
  return byName(await runChecks({ settings: w.settings, kube: w.kube, mode }))
}

/** use-host-mofed true: the peermem sidecar crash-loops on every node; the probe finds no nvidia_peermem. */
export function expectPeermemCrashLoops(checks: Record<string, Check>): void {
  expect(checks['gpu-operator'].status).toBe('fail')
  for (const n of checks['gpu-operator'].nodes!)
    expect(n).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(
        /^nvidia-peermem-ctr (waiting: CrashLoopBackOff|terminated: exit 1 \(Error\)|running, not Ready)/
      )
    })
  expect(checks['node-probe'].status).toBe('fail')
  expect(checks['node-probe'].nodes!.every(n => /nvidia_peermem not loaded/.test(n.detail))).toBe(true)
}

/** The InfiniBand devices of a node with `count` NICs: mlx5_ib0 … mlx5_ib<count-1>. */
export function ibDevices(count = 8): string[] {
  return Array.from({ length: count }, (_, i) => `mlx5_ib${i}`)
}

/** A workload pod (trainer-<i>) on each RDMA node holding all 8 of its GPUs; returns where each runs. */
export async function holdEveryGpu(w: RdmaWorld): Promise<Array<{ node: string; name: string }>> {
  const holders = w.rdmaNodes().map((node, i) => ({ node, name: `trainer-${i}` }))
  for (const h of holders)
    await w.kube.applyManifest(
      barePod(
        h.name,
        { nodeSelector: { 'kubernetes.io/hostname': h.node }, tolerations: [{ operator: 'Exists' }] },
        gpuContainer('train', 'busybox', { 'nvidia.com/gpu': '8' })
      )
    )
  return holders
}
