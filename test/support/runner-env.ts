// Makes this test process the runner of an in-process action flow against a simulated world: the
// world's CA trusted, its environment (ARM and Entra endpoints, the OIDC request variables) set
// and no KUBECONFIG (neither the world's nor the developer's), a fresh RUNNER_TEMP, and none of the
// test runner's own GITHUB_* and INPUT_* variables. restoreRunner() puts the environment and the trusted CAs back.
// runnerWorld starts such a world (the helm stand-in as its helm) and adopts it.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import tls from 'node:tls'
import { runFlowWithReport, type FlowResult } from '../../src/run/flow.js'
import { readSettings } from '../../src/settings/input-helper.js'
import type { Settings } from '../../src/settings/settings.js'
import { mergeDeep } from '../../sim/scenario.js'
import { startWorld, type World, type WorldOptions } from '../../sim/world.js'
import { helmStandinBinDir } from './helm-standin-bin.js'
import { reader } from './inputs.js'

const savedEnv = { ...process.env }
const originalCAs = [...tls.getCACertificates('bundled'), ...tls.getCACertificates('extra')]

/** Sets the process up as the world's runner; returns its RUNNER_TEMP. */
export function adoptWorld(world: World, prefix: string): string {
  tls.setDefaultCACertificates([...originalCAs, world.tls.caPem])
  const runnerTemp = mkdtempSync(path.join(tmpdir(), `${prefix}-`))
  process.env = { ...savedEnv, ...world.env(), RUNNER_TEMP: runnerTemp }
  for (const k of Object.keys(process.env))
    if (k.startsWith('GITHUB_') || k.startsWith('INPUT_') || k === 'KUBECONFIG') delete process.env[k]
  return runnerTemp
}

/** Undoes adoptWorld (for afterAll). */
export function restoreRunner(): void {
  process.env = { ...savedEnv }
  tls.setDefaultCACertificates(originalCAs)
}

/**
 * Runs the action's flow in-process with its workflow-command output collected into `log` rather
 * than printed; when a step failed, the last 200 chunks are printed for the test's output.
 */
export async function runFlowQuietly(settings: Settings, log: string[]): Promise<FlowResult> {
  const write = process.stdout.write.bind(process.stdout)
  process.stdout.write = ((chunk: string | Uint8Array) => {
    log.push(String(chunk))
    return true
  }) as typeof process.stdout.write
  try {
    const r = await runFlowWithReport(settings)
    if (r.report.steps.some(x => x.status === 'failure')) write(log.slice(-200).join(''))
    return r
  } finally {
    process.stdout.write = write
  }
}

/** The inputs that point the action at the world's Azure and sign in with its client secret. */
export function secretAuthInputs(world: World): Record<string, string> {
  return { ...world.inputs(), 'client-secret': world.scenario.azure.clientSecret, 'auth-type': 'secret' }
}

/** The node pool most flow tests run on. */
export const RUN_POOL = 'rdma'

/** The inputs of a run in `mode` on two nodes of RUN_POOL without the benchmark, within 30 minutes. */
export function twoNodeRun(mode: string, extra: Record<string, string> = {}): Record<string, string> {
  return { mode, 'node-pool': RUN_POOL, 'node-count': '2', benchmark: 'false', timeout: '30m', ...extra }
}

/** runFlowQuietly under a fresh run id `<prefix>-<6 random characters>`. */
export function runFlowAs(settings: Settings, prefix: string, log: string[]): Promise<FlowResult> {
  return runFlowQuietly({ ...settings, runId: `${prefix}-${Math.random().toString(36).slice(2, 8)}` }, log)
}

/** runFlowAs of twoNodeRun with these inputs over it, helm pinned to the world's stand-in (no download). */
export function runWithInputs(
  world: World,
  inputs: Record<string, string>,
  prefix: string,
  log: string[]
): Promise<FlowResult> {
  const settings = readSettings(
    reader({ ...twoNodeRun(inputs.mode), 'helm-sha256': world.inputs()['helm-sha256'], ...inputs })
  ).settings
  return runFlowAs(settings, prefix, log)
}

/** Settings for a run against the world, signed in with its client secret, from these inputs. */
export function secretAuthSettings(world: World, inputs: Record<string, string>): Settings {
  return readSettings(reader({ ...secretAuthInputs(world), ...inputs })).settings
}

/**
 * The scenario most flow tests run: the feature registered, a pool made in one poll, ARM tokens
 * that outlive the test, a fast clock. A test's own overrides merge over it.
 */
const RUNNER_SCENARIO = {
  kube: { timeScale: 0.002 },
  azure: {
    feature: { state: 'Registered' },
    poolProvisioning: { polls: 1 },
    tokens: { accessTokenLifetime: '1000h' }
  }
}

/** A world of RUNNER_SCENARIO with `overrides` over it, the helm stand-in as its helm; not adopted. */
export async function startFlowWorld(
  overrides: Record<string, unknown> = {},
  options: Omit<WorldOptions, 'helmCommand' | 'scenarioOverrides'> = {}
): Promise<World> {
  const bin = await helmStandinBinDir()
  return startWorld({
    helmCommand: [path.join(bin, 'helm')],
    ...options,
    scenarioOverrides: mergeDeep(RUNNER_SCENARIO, overrides)
  })
}

/** startFlowWorld, adopted as this process's runner (RUNNER_TEMP named after `prefix`). */
export async function runnerWorld(
  prefix: string,
  overrides: Record<string, unknown> = {},
  options: Omit<WorldOptions, 'helmCommand' | 'scenarioOverrides'> = {}
): Promise<World> {
  const world = await startFlowWorld(overrides, options)
  adoptWorld(world, prefix)
  return world
}

/** The afterAll of a test that started a runner world: closes it and undoes adoptWorld. */
export async function leaveWorld(world: World | undefined): Promise<void> {
  try {
    await world?.close()
  } finally {
    restoreRunner()
  }
}
