// Test helper for the stack suites: a simulated cluster (startKubeSim) with a system pool and an
// RDMA pool (optionally tainted), its admin kubeconfig in a file, the helm stand-in first on PATH with isolated helm
// directories, settings for the executor, and a log that collects lines instead of printing; and
// what the suites do with it: apply the stack, list the store, read the pool's nodes.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { SimClock, SimRecorder, type SimPool } from '../../sim/contracts.js'
import { startKubeSim, type KubeSim } from '../../sim/kube/index.js'
import { CHARTS, compareVersions } from '../../sim/helm/charts.js'
import { loadScenario } from '../../sim/scenario.js'
import { createWorldTls, type WorldTls } from '../../sim/tls.js'
import { readSettings } from '../../src/settings/input-helper.js'
import type { Settings } from '../../src/settings/settings.js'
import type { Log } from '../../src/log/index.js'
import type { KubeObject } from '../../src/kube/types.js'
import { applyStack, type ApplyStackContext, type ApplyStackResult } from '../../src/stack/index.js'
import { helmStandinBinDir, helmStandinSha256 } from './helm-standin-bin.js'
import { reader, VALID_APPLY } from './inputs.js'
import { SYSTEM_POOL, userPool } from './sim-pools.js'
import { withWorld, worldForTests } from './world-scope.js'

let tls: WorldTls | undefined

export const POOL = 'rdmapool'

export interface StackWorld {
  sim: KubeSim
  recorder: SimRecorder
  kubeconfigPath: string
  settings(overrides?: Record<string, string>, runId?: string): Settings
  close(): Promise<void>
}

export interface CollectedLog extends Log {
  lines: string[]
  errors: string[]
  groups: string[]
}

export function collectLog(): CollectedLog {
  const lines: string[] = []
  const errors: string[] = []
  const groups: string[] = []
  return {
    lines,
    errors,
    groups,
    info: l => lines.push(l),
    debug: () => undefined,
    // The empty line that ends a key's live line is no line.
    progress: (_key, l) => void (l && lines.push(l)),
    secret: () => undefined,
    warning: l => lines.push(`warning: ${l}`),
    error: l => {
      errors.push(l)
      lines.push(`error: ${l}`)
    },
    startGroup: n => {
      groups.push(n)
      lines.push(`::group::${n}`)
    },
    endGroup: () => lines.push('::endgroup::')
  }
}

const TIME_SCALE = 0.001

/** Puts the helm stand-in first on PATH with helm dirs of its own (once per test file). */
export async function useHelmStandin(): Promise<void> {
  const bin = await helmStandinBinDir()
  if (!process.env.PATH?.startsWith(bin)) process.env.PATH = `${bin}${path.delimiter}${process.env.PATH}`
  const dir = mkdtempSync(path.join(tmpdir(), 'stack-helm-'))
  process.env.HELM_CONFIG_HOME = path.join(dir, 'config')
  process.env.HELM_CACHE_HOME = path.join(dir, 'cache')
  process.env.HELM_DATA_HOME = path.join(dir, 'data')
  process.env.HELM_STANDIN_TIME_SCALE = String(TIME_SCALE)
  process.env.RUNNER_TEMP = dir
}

export interface StackWorldOptions {
  /** RDMA nodes in the pool (default 2); 0: no RDMA pool yet (the test adds it with rdmaPool). */
  nodes?: number
  scenario?: Record<string, unknown>
  taints?: string[]
}

/** The RDMA pool of a stack world: `count` ND H100 v5 nodes. */
export function rdmaPool(count: number, taints?: string[]): SimPool {
  return userPool(POOL, 'Standard_ND96isr_H100_v5', count, taints)
}

export async function startStackWorld(opts: StackWorldOptions = {}): Promise<StackWorld> {
  tls ??= createWorldTls()
  const scenario = loadScenario(undefined, { kube: { timeScale: TIME_SCALE }, ...(opts.scenario ?? {}) })
  const clock = new SimClock(scenario.kube.timeScale)
  const recorder = new SimRecorder()
  const sim = await startKubeSim({ scenario, clock, recorder, tls })
  sim.addPool(SYSTEM_POOL)
  if (opts.nodes !== 0) sim.addPool(rdmaPool(opts.nodes ?? 2, opts.taints))
  const dir = mkdtempSync(path.join(tmpdir(), 'stack-world-'))
  // The helm stand-in first on PATH is the helm the action runs (useHelmStandin).
  const helmSha256 = await helmStandinSha256()
  const kubeconfigPath = path.join(dir, 'kubeconfig')
  writeFileSync(kubeconfigPath, sim.kubeconfig('admin'), { mode: 0o600 })
  return {
    sim,
    recorder,
    kubeconfigPath,
    settings: (overrides = {}, runId = 'run-1') => {
      const s = readSettings(
        reader({
          ...VALID_APPLY,
          'helm-sha256': helmSha256,
          'node-pool': POOL,
          'step-timeout': '60s',
          timeout: '5m',
          retries: '3',
          rollout: 'sequential',
          ...overrides
        }),
        {}
      ).settings
      return { ...s, runId }
    },
    close: () => sim.close()
  }
}

/** Starts a stack world, runs `body` in it and closes it, whatever `body` does. */
export function withStackWorld(
  opts: StackWorldOptions,
  body: (w: StackWorld) => Promise<void>
): Promise<void> {
  return withWorld(startStackWorld(opts), body)
}

/** One stack world for the tests of the enclosing describe (or file), the helm stand-in on PATH. */
export function stackWorldForTests(opts: StackWorldOptions = {}): StackWorld {
  return worldForTests(() => startStackWorld(opts), useHelmStandin)
}

/** What applyOn runs with besides the world: the inputs that differ, the run id, the log, context. */
export type ApplyOnOptions = { inputs?: Record<string, string>; runId?: string; log?: Log } & Omit<
  Partial<ApplyStackContext>,
  'settings' | 'kubeconfigPath' | 'log'
>

/** applyStack on the world with its settings (given `inputs`, as run `runId`, default run-1). */
export function applyOn(w: StackWorld, o: ApplyOnOptions = {}): Promise<ApplyStackResult> {
  const { inputs, runId, log = collectLog(), ...ctx } = o
  return applyStack({ ...ctx, settings: w.settings(inputs, runId), kubeconfigPath: w.kubeconfigPath, log })
}

/** The store's objects of `plural` (in `group`), in `namespace` when given, matching `labelSelector`. */
export function storeList(
  w: Pick<StackWorld, 'sim'>,
  plural: string,
  namespace?: string,
  labelSelector?: string,
  group = ''
): KubeObject[] {
  return w.sim.store.list(w.sim.store.type(group, plural)!, { namespace, labelSelector })
    .items as KubeObject[]
}

/** The RDMA pool's Node objects. */
export function poolNodes(w: Pick<StackWorld, 'sim'>): KubeObject[] {
  return storeList(w, 'nodes', undefined, `kubernetes.azure.com/agentpool=${POOL}`)
}

/** The simulator's state of each RDMA node, in node order. */
export function poolNodeStates(w: Pick<StackWorld, 'sim'>): Array<ReturnType<KubeSim['nodeStates']>[string]> {
  return Object.values(w.sim.nodeStates()).filter(s => s.pool === POOL)
}

/** How often ib-node-config ran on each RDMA node, in node order. */
export function ibNodeConfigRuns(w: Pick<StackWorld, 'sim'>): number[] {
  return poolNodeStates(w).map(s => s.ibNodeConfigRuns)
}

/** The newest version of `chart` the simulator serves before `pin` (what an upgrade starts from). */
export function chartVersionBefore(chart: string, pin: string): string {
  const older = CHARTS[chart].versions.map(v => v.version).filter(v => compareVersions(v, pin) < 0)
  older.sort((a, b) => compareVersions(b, a))
  if (!older.length) throw new Error(`the simulator serves no ${chart} version before ${pin}`)
  return older[0]
}
