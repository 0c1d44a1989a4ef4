// Makes this test process the runner of an in-process action flow against a simulated world: the
// world's CA trusted, its environment (ARM and Entra endpoints, the OIDC request variables) set
// and no KUBECONFIG (neither the world's nor the developer's), a fresh RUNNER_TEMP, and none of the
// test runner's own GITHUB_* and INPUT_* variables. restoreRunner() puts the environment and the trusted CAs back.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import tls from 'node:tls'
import { runFlowWithReport, type FlowResult } from '../../src/run/flow.js'
import { readSettings } from '../../src/settings/input-helper.js'
import type { Settings } from '../../src/settings/settings.js'
import type { World } from '../../sim/world.js'
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

/** Settings for a run against the world, signed in with its client secret, from these inputs. */
export function secretAuthSettings(world: World, inputs: Record<string, string>): Settings {
  return readSettings(
    reader({
      ...world.inputs(),
      'client-secret': world.scenario.azure.clientSecret,
      'auth-type': 'secret',
      ...inputs
    })
  ).settings
}
