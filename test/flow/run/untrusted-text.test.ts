// Text from the cluster and from ARM cannot become a workflow command: the built action runs as
// the runner runs it against a world whose device plugin crash-loops printing workflow commands
// (its log tail) and whose Events carry them (a message with a newline), and against one whose
// node pool fails with such an ARM error message. The action's output, read as the runner reads
// it, carries out no injected command, and the hostile text is still there for a person to read.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { runAction, type ActionRun } from '../../../sim/run-action.js'
import { startWorld } from '../../../sim/world.js'
import { runnerCommands } from '../../support/runner-commands.js'

const exec = promisify(execFile)
const work = mkdtempSync(path.join(tmpdir(), 'untrusted-'))
const prebuilt = process.env.AKS_RDMA_TEST_DIST
const dist = prebuilt && existsSync(path.join(prebuilt, 'cli.js')) ? prebuilt : path.join(work, 'dist')

const LOG = [
  'starting the device plugin',
  '::warning title=INJECTED-FROM-LOG::owned by a container',
  '   ::add-mask::aks-rdmapool',
  'done ##[error]LEGACY-INJECTED',
  'panic: boom'
].join('\n')
const EVENT = 'bad things\n::warning title=INJECTED-FROM-CLUSTER::owned by an Event\n::add-mask::aks-rdmapool'
const ARM_MESSAGE =
  'quota exceeded\n::warning title=INJECTED-FROM-ARM::owned by ARM\n::add-mask::aks-rdmapool'

beforeAll(async () => {
  if (dist !== prebuilt)
    await exec(process.execPath, ['script/build.mjs', '--outdir', dist], { timeout: 120_000 })
}, 180_000)

afterAll(() => rmSync(work, { recursive: true, force: true }))

async function runAgainst(overrides: Record<string, unknown>): Promise<ActionRun> {
  const world = await startWorld({
    scenarioOverrides: overrides,
    helmCommand: [process.execPath, path.join(dist, 'cli.js'), '__helm']
  })
  try {
    const env = world.env()
    delete (env as Record<string, string>).KUBECONFIG
    return await runAction({
      distDir: dist,
      inputs: {
        ...world.inputs(),
        'auth-type': 'secret',
        'client-secret': world.scenario.azure.clientSecret,
        'node-pool': 'aksrdma',
        benchmark: 'false',
        'step-timeout': '10m'
      },
      env
    })
  } finally {
    await world.close()
  }
}

/**
 * Commands the runner would carry out that the hostile text made: its warnings (by their title),
 * its mask, its legacy error. (The action's own error annotation may quote the text as its data.)
 */
function injected(run: ActionRun): string[] {
  return runnerCommands(run.log)
    .filter(
      c =>
        /INJECTED/.test(c.properties.title ?? '') ||
        (c.command === 'add-mask' && c.data === 'aks-rdmapool') ||
        /^LEGACY-INJECTED/.test(c.data)
    )
    .map(c => c.line)
}

describe('untrusted text in the action log', () => {
  it('a crash-looping pod printing workflow commands, and an Event carrying them', async () => {
    const run = await runAgainst({
      azure: { feature: { state: 'Registered' } },
      kube: { faults: [{ pod: 'rdma-shared-dp-ds', kind: 'CrashLoopBackOff', log: LOG, event: EVENT }] }
    })
    expect(run.exitCode).toBe(1)
    // The diagnostics printed both, line for line ...
    expect(run.log).toContain('::warning title=INJECTED-FROM-LOG::owned by a container')
    expect(run.log).toContain('::warning title=INJECTED-FROM-CLUSTER::owned by an Event')
    // ... and the runner carries out none of it.
    expect(injected(run)).toEqual([])
    // The step's own failure is still an annotation.
    expect(
      runnerCommands(run.log).some(c => c.command === 'error' && /rdma-device-plugin/.test(c.data))
    ).toBe(true)
    expect(run.postExitCode).toBe(0)
  }, 240_000)

  it('an ARM error message carrying workflow commands', async () => {
    const run = await runAgainst({
      azure: {
        feature: { state: 'Registered' },
        poolProvisioning: {
          polls: 1,
          result: 'Failed',
          errorCode: 'QuotaExceeded',
          errorMessage: ARM_MESSAGE
        }
      }
    })
    expect(run.exitCode).toBe(1)
    expect(run.log).toContain('INJECTED-FROM-ARM')
    expect(injected(run)).toEqual([])
  }, 240_000)
})
