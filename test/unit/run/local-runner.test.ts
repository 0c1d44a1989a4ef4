// A local run's runner files: the user's are kept (created when missing, appended to), the others
// go to a new run folder; the CLI's exit code tells drift (3) from a failed run (1).
import { describe, expect, it } from '@jest/globals'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  statSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { cliExitCode, prepareLocalRunner, tidyRunFolder } from '../../../src/run/local-runner.js'
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

  it('tidies its run folder: keeps the summary, report and kubeconfig that hold something, and says so', () => {
    const home = mkdtempSync(path.join(tmpdir(), 'local-runner-'))
    const f = prepareLocalRunner({ XDG_CACHE_HOME: path.join(home, 'cache') })
    const dir = f.runDir!
    writeFileSync(f.summary, '## summary\n')
    mkdirSync(path.join(dir, 'runner-temp', 'deep'), { recursive: true })
    writeFileSync(path.join(dir, 'runner-temp', 'deep', 'values.yaml'), 'x: 1\n')
    const report = path.join(dir, 'runner-temp', 'report.json')
    writeFileSync(report, '{}\n')
    const kubeconfig = path.join(dir, 'runner-temp', 'kubeconfig')
    writeFileSync(kubeconfig, '')
    const outside = path.join(home, 'report-elsewhere.json')
    writeFileSync(outside, '{}')
    expect(tidyRunFolder(f, { 'report-path': report, 'kubeconfig-path': kubeconfig })).toBe(
      `kept ${dir}: the job summary, the report, to use after the run; delete the folder when done`
    )
    // The empty kubeconfig, the other files and the folders left empty are gone.
    expect(readdirSync(dir).sort()).toEqual(['runner-temp', path.basename(f.summary)].sort())
    expect(readdirSync(path.join(dir, 'runner-temp'))).toEqual(['report.json'])
    // A report outside the run folder is the user's: neither kept in the sentence nor touched.
    const g = prepareLocalRunner({ XDG_CACHE_HOME: path.join(home, 'cache') })
    expect(tidyRunFolder(g, { 'report-path': outside })).toBeUndefined()
    expect(existsSync(g.runDir!)).toBe(false)
    expect(readFileSync(outside, 'utf8')).toBe('{}')
  })

  it('leaves a folder it did not make alone', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'local-runner-'))
    const env: NodeJS.ProcessEnv = {
      RUNNER_TEMP: dir,
      RUNNER_TOOL_CACHE: dir,
      GITHUB_OUTPUT: path.join(dir, 'o'),
      GITHUB_STEP_SUMMARY: path.join(dir, 's'),
      GITHUB_STATE: path.join(dir, 'st'),
      GITHUB_ENV: path.join(dir, 'e')
    }
    const f = prepareLocalRunner(env)
    expect(tidyRunFolder(f, {})).toBeUndefined()
    expect(readdirSync(dir).sort()).toEqual(['e', 'o', 's', 'st'])
    expect(tidyRunFolder({ ...f, runDir: path.join(dir, 'gone') }, {})).toBeUndefined()
  })
})
