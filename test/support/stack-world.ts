// Test helper for the stack suites: a simulated cluster (startKubeSim) with a system pool and an
// RDMA pool (optionally tainted), its admin kubeconfig in a file, the helm stand-in first on PATH with isolated helm
// directories, settings for the executor, and a log that collects lines instead of printing.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { SimClock, SimRecorder } from '../../sim/contracts.js'
import { startKubeSim, type KubeSim } from '../../sim/kube/index.js'
import { loadScenario } from '../../sim/scenario.js'
import { createWorldTls, type WorldTls } from '../../sim/tls.js'
import { readSettings } from '../../src/settings/input-helper.js'
import type { Settings } from '../../src/settings/settings.js'
import type { Log } from '../../src/log/index.js'
import { helmStandinBinDir, helmStandinSha256 } from './helm-standin-bin.js'
import { reader, VALID_APPLY } from './inputs.js'

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

export async function startStackWorld(
  opts: { nodes?: number; scenario?: Record<string, unknown>; taints?: string[] } = {}
): Promise<StackWorld> {
  tls ??= createWorldTls()
  const scenario = loadScenario(undefined, { kube: { timeScale: TIME_SCALE }, ...(opts.scenario ?? {}) })
  const clock = new SimClock(scenario.kube.timeScale)
  const recorder = new SimRecorder()
  const sim = await startKubeSim({ scenario, clock, recorder, tls })
  sim.addPool({
    name: 'system',
    vmSize: 'Standard_D4s_v5',
    count: 1,
    osSku: 'Ubuntu',
    mode: 'System',
    kubernetesVersion: '1.33'
  })
  sim.addPool({
    name: POOL,
    vmSize: 'Standard_ND96isr_H100_v5',
    count: opts.nodes ?? 2,
    osSku: 'Ubuntu',
    mode: 'User',
    kubernetesVersion: '1.33',
    ...(opts.taints ? { taints: opts.taints } : {})
  })
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
