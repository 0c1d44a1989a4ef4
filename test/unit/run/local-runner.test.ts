// A local run's runner files: the user's are kept (created when missing, appended to), the others
// go to a new run folder; the CLI's exit code tells drift (3) from a failed run (1).
import { describe, expect, it } from '@jest/globals'
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { cliExitCode, prepareLocalRunner } from '../../../src/run/local-runner.js'
import { simulateExitCode } from '../../../sim/commands.js'

describe('local runner', () => {
  it('creates what is missing in a new run folder, with the tool cache under XDG_CACHE_HOME', () => {
    const home = mkdtempSync(path.join(tmpdir(), 'local-runner-'))
    const env: NodeJS.ProcessEnv = { XDG_CACHE_HOME: path.join(home, 'cache') }
    const f = prepareLocalRunner(env)
    expect(f.runDir).toBeDefined()
    expect(env.RUNNER_TEMP).toBe(path.join(f.runDir!, 'runner-temp'))
    expect(statSync(env.RUNNER_TEMP!).isDirectory()).toBe(true)
    expect(env.RUNNER_TOOL_CACHE).toBe(path.join(home, 'cache', 'aks-rdma-action', 'tool-cache'))
    for (const file of [env.GITHUB_OUTPUT!, env.GITHUB_STEP_SUMMARY!, env.GITHUB_STATE!, env.GITHUB_ENV!]) {
      expect(path.dirname(file)).toBe(f.runDir)
      expect(readFileSync(file, 'utf8')).toBe('')
    }
  })

  it("keeps the user's variables, creating a missing folder or file and reading only what the run appends", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'local-runner-'))
    writeFileSync(path.join(dir, 'outputs'), 'earlier=1\n')
    const env: NodeJS.ProcessEnv = {
      RUNNER_TEMP: path.join(dir, 'not', 'yet'),
      RUNNER_TOOL_CACHE: path.join(dir, 'tools'),
      GITHUB_OUTPUT: path.join(dir, 'outputs'),
      GITHUB_STEP_SUMMARY: path.join(dir, 'sub', 'summary.md'),
      GITHUB_STATE: path.join(dir, 'state'),
      GITHUB_ENV: path.join(dir, 'env')
    }
    const before = { ...env }
    const f = prepareLocalRunner(env)
    expect(env).toEqual(before)
    expect(f.runDir).toBeUndefined()
    expect(existsSync(path.join(dir, 'not', 'yet'))).toBe(true)
    expect(existsSync(path.join(dir, 'sub', 'summary.md'))).toBe(true)
    expect(readFileSync(path.join(dir, 'outputs'), 'utf8')).toBe('earlier=1\n')
    expect(f.offsets).toEqual({ output: 10, summary: 0, state: 0, env: 0 })
  })

  it('exit codes: drift found is 3, a failure 1, success and drift without fail-on-drift 0', () => {
    expect(cliExitCode(1, 'drifted')).toBe(3)
    expect(cliExitCode(1, 'failure')).toBe(1)
    expect(cliExitCode(0, 'drifted')).toBe(0)
    expect(cliExitCode(0, 'success')).toBe(0)
    expect(simulateExitCode([{ exitCode: 1, outputs: { result: 'drifted' } }])).toBe(3)
    expect(
      simulateExitCode([
        { exitCode: 1, outputs: { result: 'drifted' } },
        { exitCode: 1, outputs: { result: 'failure' } }
      ])
    ).toBe(1)
    expect(simulateExitCode([{ exitCode: 0, outputs: { result: 'success' } }])).toBe(0)
    // A failed post step (a cluster it could not delete) is a failure, whatever the main step found.
    expect(simulateExitCode([{ exitCode: 1, postExitCode: 1, outputs: { result: 'drifted' } }])).toBe(1)
    expect(simulateExitCode([{ exitCode: 0, postExitCode: 1, outputs: { result: 'success' } }])).toBe(1)
  })
})
