// The shipped bundles load and behave at their edges, run exactly as the runner and a user run
// them (node <bundle>, built by script/build.mjs; check-dist proves dist/ is that build), on
// Node 24, with any network access refused: the post step with no saved state does nothing and
// exits 0, the main step with no inputs exits 1 with the input error, the CLI prints its usage.
import { describe, expect, it } from '@jest/globals'
import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { bundlePath, type BundleName } from '../../support/dist.js'
import { VALID_APPLY } from '../../support/inputs.js'
import { commandLikeLines, runnerCommands } from '../../support/runner-commands.js'

const run = promisify(execFile)
const NO_NETWORK = path.resolve('test/support/no-network.mjs')

interface Ran {
  code: number
  stdout: string
  stderr: string
}

/** Runs a bundle as `node <bundle> args` with only `env` beyond PATH/HOME (no INPUT_*, STATE_*, GITHUB_*). */
async function node(bundle: BundleName, args: string[], env: Record<string, string> = {}): Promise<Ran> {
  const base = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir() }
  try {
    const r = await run(process.execPath, ['--import', NO_NETWORK, bundlePath(bundle), ...args], {
      env: { ...base, ...env },
      timeout: 60_000
    })
    return { code: 0, stdout: r.stdout, stderr: r.stderr }
  } catch (e: any) {
    if (typeof e.code !== 'number') throw e
    return { code: e.code, stdout: e.stdout, stderr: e.stderr }
  }
}

/** A values file a pull request could write: workflow commands in a string, a key and a list. */
const HOSTILE_VALUES = [
  'driver:',
  '  note: |',
  '    ::set-output name=pwned::yes',
  '    ::add-mask::aks1',
  '  args:',
  "    - '::error file=src/main.ts,line=1::INJECTED'",
  "  '::warning::key': x",
  "legacy: 'done ##[error]LEGACY'",
  ''
].join('\n')

const inputEnv = (inputs: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v]))

/** A load failure (SyntaxError, missing module, a throw at top level) prints a stack trace. */
const noCrash = (r: Ran): void => {
  expect(r.stderr).not.toMatch(/SyntaxError|ReferenceError|TypeError|ERR_MODULE_NOT_FOUND|\n\s+at /)
  expect(r.stderr).not.toContain('NETWORK-ATTEMPT')
}

describe('the shipped bundles on Node 24', () => {
  it('runs on Node 24, the runtime action.yml names', () => {
    expect(Number(process.versions.node.split('.')[0])).toBe(24)
  })

  it('post.js with no saved state and no inputs exits 0 and does nothing', async () => {
    const runnerTemp = mkdtempSync(path.join(tmpdir(), 'post-empty-'))
    writeFileSync(path.join(runnerTemp, 'kubeconfig-someone-else'), 'x')
    const r = await node('post', [], { RUNNER_TEMP: runnerTemp })
    noCrash(r)
    expect(r.code).toBe(0)
    expect(r.stdout).not.toMatch(/::error|::warning|deleted|removed/)
    expect(readdirSync(runnerTemp)).toEqual(['kubeconfig-someone-else'])
  })

  it('post.js with valid inputs but no saved state exits 0, signs in nowhere and deletes nothing', async () => {
    const r = await node('post', [], {
      ...inputEnv({ ...VALID_APPLY, cleanup: 'node-pool' }),
      RUNNER_TEMP: mkdtempSync(path.join(tmpdir(), 'post-nostate-'))
    })
    noCrash(r)
    expect(r.code).toBe(0)
    expect(r.stdout).not.toMatch(/::error|deleting/)
    expect(r.stdout).toContain('node-pool rdmapool: skipped (this run did not create it)')
  })

  it('index.js with no inputs exits 1 with every input problem, before any network access', async () => {
    const r = await node('index', [])
    noCrash(r)
    expect(r.code).toBe(1)
    expect(r.stdout).toContain('::error::3 input problems:')
    expect(r.stdout).toContain('resource-group: required')
    expect(r.stdout).toContain('cluster-name: required')
  })

  it('index.js in plan mode prints the plan and exits 0', async () => {
    const r = await node(
      'index',
      [],
      inputEnv({ mode: 'plan', 'resource-group': 'rg', 'cluster-name': 'aks1' })
    )
    noCrash(r)
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('10. gpu-operator')
  })

  it('index.js in plan mode under Actions: workflow commands in values files stay text', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'plan-values-'))
    const values = path.join(dir, 'values.yaml')
    writeFileSync(values, HOSTILE_VALUES)
    writeFileSync(path.join(dir, 'outputs'), '')
    const r = await node('index', [], {
      GITHUB_ACTIONS: 'true',
      GITHUB_OUTPUT: path.join(dir, 'outputs'),
      ...inputEnv({
        mode: 'plan',
        'resource-group': 'rg',
        'cluster-name': 'aks1',
        'gpu-operator-values': values,
        'network-operator-values': values,
        'nic-cluster-policy': values
      })
    })
    noCrash(r)
    expect(r.code).toBe(0)
    // The hostile lines are printed, for a person to read, and none is a live command.
    expect(r.stdout).toContain('::set-output name=pwned::yes')
    expect(r.stdout).toContain('::error file=src/main.ts,line=1::INJECTED')
    expect(commandLikeLines(r.stdout)).toEqual([])
    expect(runnerCommands(r.stdout)).toEqual([])
  })

  it('cli.js --help prints the usage and exits 0', async () => {
    const r = await node('cli', ['--help'])
    noCrash(r)
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('Usage: node dist/cli.js <command>')
    expect(r.stdout).toContain('simulate')
  })

  it('cli.js __helm (the helm stand-in the simulator puts on PATH) answers helm version', async () => {
    const r = await node('cli', ['__helm', 'version', '--short'])
    noCrash(r)
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^v3\.\d+\.\d+/)
  })
})
