// A local run's runner files: the user's are kept (created when missing, appended to), the others
// go to a new run folder; the CLI's exit code tells drift (3) from a failed run (1). runLikeRunner
// end to end without any network: bad inputs, plan mode, and an apply whose Azure sign-in fails at
// once (auth-type oidc without the runner's token variables), each with what it prints and keeps.
import * as core from '@actions/core'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { setLogBackend, type Log } from '../../../src/log/index.js'
import { parseFileCommands } from '../../../src/run/file-commands.js'
import { wrap } from '../../../src/report/text.js'
import { cliExitCode, prepareLocalRunner, runLikeRunner, tidyRunFolder } from '../../../cli/local-runner.js'
import { captureLog, type CapturedLog } from '../../support/capture-log.js'
import { simulateExitCode } from '../../../sim/commands.js'
import { AZURE_IDS } from '../../support/inputs.js'

/** The runner variables naming files and folders in `dir`: each variable with its path there. */
const filesIn = (dir: string, names: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(names).map(([variable, name]) => [variable, path.join(dir, name)]))

/** An apply signing in with OIDC, which fails at once without the runner's token variables. */
const OIDC_APPLY = {
  ...AZURE_IDS,
  mode: 'apply',
  'auth-type': 'oidc',
  'resource-group': 'rg',
  'cluster-name': 'aks1'
}

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

  it("keeps the user's folders and files, each run with its own state, outputs and RUNNER_TEMP folder in them", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'local-runner-'))
    writeFileSync(path.join(dir, 'outputs'), 'earlier=1\n')
    const user = filesIn(dir, {
      RUNNER_TEMP: 'not/yet',
      RUNNER_TOOL_CACHE: 'tools',
      GITHUB_OUTPUT: 'outputs',
      GITHUB_STEP_SUMMARY: 'sub/summary.md',
      GITHUB_STATE: 'state',
      GITHUB_ENV: 'env'
    })
    // Two runs at once from one env file: nothing of one run's is the other's.
    const [a, b] = ['aaaaaaaaaaaa', 'bbbbbbbbbbbb'].map(nonce => {
      const env: NodeJS.ProcessEnv = { ...user }
      const f = prepareLocalRunner(env, nonce)
      expect(env.RUNNER_TEMP).toBe(path.join(user.RUNNER_TEMP, `aks-rdma-action-${nonce}`))
      expect(statSync(env.RUNNER_TEMP!).mode & 0o777).toBe(0o700)
      expect([env.RUNNER_TOOL_CACHE, env.GITHUB_STEP_SUMMARY]).toEqual([
        user.RUNNER_TOOL_CACHE,
        user.GITHUB_STEP_SUMMARY
      ])
      expect(path.basename(f.runDir!)).toBe(`aks-rdma-action-${nonce}`)
      for (const file of [env.GITHUB_OUTPUT!, env.GITHUB_STATE!, env.GITHUB_ENV!])
        expect(path.dirname(file)).toBe(f.runDir)
      return f
    })
    expect(new Set([a.state, b.state, a.output, b.output, a.runnerTemp, b.runnerTemp]).size).toBe(6)
    expect(existsSync(path.join(dir, 'sub', 'summary.md'))).toBe(true)
    expect(readFileSync(path.join(dir, 'outputs'), 'utf8')).toBe('earlier=1\n')
    for (const f of [a, b]) tidyRunFolder(f, {})
    // The user's folders and files stay; the runs' own are gone, nothing being worth keeping.
    expect(readdirSync(dir).sort()).toEqual(['env', 'not', 'outputs', 'sub', 'tools'])
    expect(readdirSync(user.RUNNER_TEMP)).toEqual([])
    expect([a.runDir, b.runDir].filter(d => existsSync(d!))).toEqual([])
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
      ...filesIn(dir, { GITHUB_OUTPUT: 'o', GITHUB_STEP_SUMMARY: 's', GITHUB_STATE: 'st', GITHUB_ENV: 'e' })
    }
    const f = prepareLocalRunner(env)
    expect(tidyRunFolder(f, {})).toBeUndefined()
    expect(readdirSync(dir).sort()).toEqual(['e', 'o', 's'])
    expect(tidyRunFolder({ ...f, runDir: path.join(dir, 'gone') }, {})).toBeUndefined()
  })
})

describe('local runner: what is kept', () => {
  it('names its run folder aks-rdma-action-*, keeps a kubeconfig that holds something, never a folder', () => {
    const home = mkdtempSync(path.join(tmpdir(), 'local-runner-'))
    const f = prepareLocalRunner({ XDG_CACHE_HOME: path.join(home, 'cache') })
    const dir = f.runDir!
    expect(path.basename(dir)).toMatch(/^aks-rdma-action-[0-9a-f]{12}$/)
    expect(path.dirname(dir)).toBe(path.resolve(tmpdir()))
    const kubeconfig = path.join(dir, 'runner-temp', 'kubeconfig')
    writeFileSync(kubeconfig, 'apiVersion: v1\n')
    const reportDir = path.join(dir, 'runner-temp', 'report.json')
    mkdirSync(reportDir)
    writeFileSync(path.join(dir, 'runner-temp', 'other'), 'x')
    expect(tidyRunFolder(f, { 'report-path': reportDir, 'kubeconfig-path': kubeconfig })).toBe(
      `kept ${dir}: the kubeconfig (for kubectl and helm), to use after the run; delete the folder when done`
    )
    expect(readdirSync(dir)).toEqual(['runner-temp'])
    expect(readdirSync(path.join(dir, 'runner-temp'))).toEqual(['kubeconfig'])
  })
})

describe('runLikeRunner', () => {
  const savedEnv = { ...process.env }
  let log: CapturedLog
  let previousLog: Log
  let savedExitCode: typeof process.exitCode
  let home: string
  let printed: string[]

  beforeAll(async () => {
    // The flow and the post step load the Azure SDK on first use: once here, not inside a test.
    await import('../../../src/run/flow.js')
    await import('../../../src/azure/index.js')
  })
  beforeEach(() => {
    process.env = { ...savedEnv }
    for (const k of Object.keys(process.env))
      if (/^(GITHUB_|INPUT_|STATE_|RUNNER_|ACTIONS_)/.test(k) || k === 'KUBECONFIG') delete process.env[k]
    home = mkdtempSync(path.join(tmpdir(), 'local-run-'))
    process.env.XDG_CACHE_HOME = path.join(home, 'cache')
    // @actions/core remembers the first job summary file it wrote: each test has its own.
    ;(core.summary as unknown as { _filePath?: string })._filePath = undefined
    core.summary.emptyBuffer()
    log = captureLog()
    previousLog = setLogBackend(log)
    savedExitCode = process.exitCode
    printed = []
  })
  afterEach(() => {
    setLogBackend(previousLog)
    process.env = { ...savedEnv }
    process.exitCode = savedExitCode
  })
  const inputs = (values: Record<string, string>): void => {
    for (const [k, v] of Object.entries(values)) process.env[`INPUT_${k.toUpperCase()}`] = v
  }
  const runDirOf = (): string => path.dirname(process.env.RUNNER_TEMP!)

  it('with bad inputs says so, runs no post step and leaves no run folder', async () => {
    inputs({ mode: 'bogus' })
    const code = await runLikeRunner({ output: 'text', print: t => void printed.push(t) })
    expect(code).toBe(2)
    expect(printed).toEqual([])
    expect(log.lines.filter(l => l.startsWith('error: '))).toHaveLength(1)
    expect(existsSync(runDirOf())).toBe(false)
    expect(process.env[`STATE_temp-paths`]).toBeUndefined()
  })

  it('plan mode in text: the plan, then the result, outputs, job summary, what it kept and the exports', async () => {
    inputs({ mode: 'plan' })
    const kubeconfig = path.join(home, 'kubeconfig')
    writeFileSync(kubeconfig, 'apiVersion: v1\n')
    const code = await runLikeRunner({
      output: 'text',
      print: t => {
        // What the action exports for the job's later steps (core.exportVariable), during the main step.
        if (!printed.length) {
          core.exportVariable('PLAIN', 'user@host%+=:,./-x_9')
          core.exportVariable('QUOTED', "it's a b")
          core.exportVariable('LEAD', ' lead')
          core.exportVariable('TRAIL', 'trail ')
          core.exportVariable('AB', 'ab')
          core.exportVariable('KUBECONFIG', kubeconfig)
        }
        printed.push(t)
      }
    })
    expect(code).toBe(0)
    expect(printed).toHaveLength(2)
    const dir = runDirOf()
    const summaryFile = path.join(dir, 'summary.md')
    const [first, ...rest] = printed[1].split('\n')
    // The result as text, with how long it took (main and post step).
    expect(first).toMatch(/^result: success — plan succeeded in \d+(ms|s) \(main and post step\)$/)
    expect(rest.slice(rest.indexOf('outputs:')).join('\n')).toBe(
      [
        'outputs:',
        '  result=success',
        '',
        ...wrap(`job summary: ${summaryFile}`, 80, '', '  '),
        ...wrap(
          `kept ${dir}: the job summary, to use after the run; delete the folder when done`,
          80,
          '',
          '  '
        ),
        'export PLAIN=user@host%+=:,./-x_9',
        "export QUOTED='it'\\''s a b'",
        "export LEAD=' lead'",
        "export TRAIL='trail '",
        'export AB=ab',
        `export KUBECONFIG=${kubeconfig}`,
        ''
      ].join('\n')
    )
    // The post step saw what the main step saved and exported, with no temp paths to remove.
    expect(process.env['STATE_temp-paths']).toBe('[]')
    expect(process.env.QUOTED).toBe("it's a b")
    expect(readdirSync(dir)).toEqual(['summary.md'])
  })

  it('offers no export of a kubeconfig that is gone, and leaves the temp paths to a post step asked to clean up', async () => {
    inputs({ mode: 'plan', cleanup: 'node-pool' })
    const code = await runLikeRunner({
      output: 'text',
      print: t => {
        if (!printed.length) core.exportVariable('KUBECONFIG', path.join(home, 'gone'))
        printed.push(t)
      }
    })
    expect(code).toBe(0)
    expect(printed[1]).not.toContain('export ')
    expect(printed[1].split('\n')[0]).toMatch(/^result: success — plan succeeded in /)
    expect(process.env['STATE_temp-paths']).toBeUndefined()
  })

  it("hands its outputs and exports to the user's GITHUB_OUTPUT and GITHUB_ENV in one piece at its end", async () => {
    inputs({ mode: 'plan' })
    const own = path.join(home, 'own')
    mkdirSync(own)
    writeFileSync(path.join(own, 'outputs'), 'earlier=1\n')
    Object.assign(
      process.env,
      filesIn(own, {
        RUNNER_TEMP: 'temp',
        GITHUB_OUTPUT: 'outputs',
        GITHUB_ENV: 'env',
        GITHUB_STATE: 'state'
      })
    )
    let during: string | undefined
    const code = await runLikeRunner({
      output: 'text',
      print: t => {
        if (!printed.length) {
          core.exportVariable('AB', 'ab')
          // While the run goes on, the user's files hold nothing of it (another run may read them).
          during = readFileSync(path.join(own, 'outputs'), 'utf8')
        }
        printed.push(t)
      }
    })
    expect(code).toBe(0)
    expect(during).toBe('earlier=1\n')
    expect(parseFileCommands(readFileSync(path.join(own, 'outputs'), 'utf8'))).toEqual({
      earlier: '1',
      result: 'success'
    })
    expect(parseFileCommands(readFileSync(path.join(own, 'env'), 'utf8'))).toEqual({ AB: 'ab' })
    // The user's GITHUB_STATE is never the run's; its own folder under RUNNER_TEMP is gone, empty.
    expect(existsSync(path.join(own, 'state'))).toBe(false)
    expect(readdirSync(path.join(own, 'temp'))).toEqual([])
  })

  it('plan mode in JSON: only the plan is printed (no report), what it kept goes to the log', async () => {
    inputs({ mode: 'plan' })
    const code = await runLikeRunner({ output: 'json', print: t => void printed.push(t) })
    expect(code).toBe(0)
    expect(printed).toHaveLength(1)
    expect(JSON.parse(printed[0])).toBeDefined()
    expect(log.lines.at(-1)).toBe(
      `info: kept ${runDirOf()}: the job summary, to use after the run; delete the folder when done`
    )
  })

  it('a failed apply: exit 1, its outputs, report and summary; the post step adds its section to the report', async () => {
    inputs(OIDC_APPLY)
    const code = await runLikeRunner({ output: 'text', print: t => void printed.push(t) })
    expect(code).toBe(1)
    const dir = runDirOf()
    const reportPath = path.join(dir, 'runner-temp', 'aks-rdma-action-report.json')
    expect(printed).toHaveLength(1)
    const text = printed[0]
    expect(text.split('\n')[0]).toMatch(
      /^result: failure — apply failed in \d+(ms|s) \(main and post step\)$/
    )
    // Why, the step and its detail, and the post step's cleanup: the report's facts as text.
    expect(text).toMatch(/^ {2}failed step: azure-sign-in$/m)
    expect(text).toMatch(/^ {2}azure-sign-in +failure +unchanged /m)
    expect(text).toContain('Cleanup (post step)\n  node-pool rdmapool: skipped (this run did not create it)')
    expect(text.slice(text.indexOf('outputs:'))).toBe(
      [
        'outputs:',
        '  result=failure',
        '  drifted=false',
        ...wrap(`report-path=${reportPath}`, 80, '  ', '    '),
        '',
        ...wrap(`job summary: ${path.join(dir, 'summary.md')}`, 80, '', '  '),
        ...wrap(`report: ${reportPath}`, 80, '', '  '),
        ...wrap(
          `kept ${dir}: the job summary, the report, to use after the run; delete the folder when done`,
          80,
          '',
          '  '
        ),
        ''
      ].join('\n')
    )
    const report = JSON.parse(readFileSync(reportPath, 'utf8'))
    expect(report.result).toBe('failure')
    expect(report.post).toEqual({
      exitCode: 0,
      cleanup: [
        { resource: 'node-pool', name: 'rdmapool', result: 'skipped', reason: 'this run did not create it' }
      ]
    })
    expect(readFileSync(path.join(dir, 'summary.md'), 'utf8')).toContain('### Cleanup (post step)\n')
  })

  it('a failed apply in JSON: the report (with the post section) is what it prints', async () => {
    inputs(OIDC_APPLY)
    const code = await runLikeRunner({ output: 'json', print: t => void printed.push(t) })
    expect(code).toBe(1)
    expect(printed).toHaveLength(1)
    const reportPath = path.join(runDirOf(), 'runner-temp', 'aks-rdma-action-report.json')
    const text = readFileSync(reportPath, 'utf8')
    expect(printed[0]).toBe(text.trimEnd() + '\n')
    expect(text.endsWith('}\n')).toBe(true)
    expect(JSON.parse(printed[0]).post.exitCode).toBe(0)
    expect(log.lines.at(-1)).toBe(
      `info: kept ${runDirOf()}: the job summary, the report, to use after the run; delete the folder when done`
    )
  })

  it('tidies its run folder and rethrows when the main step throws', async () => {
    inputs({ mode: 'plan' })
    const boom = new Error('printing failed')
    await expect(
      runLikeRunner({
        output: 'text',
        print: () => {
          // The outputs file gone too: what the run wrote is read as nothing.
          rmSync(process.env.GITHUB_OUTPUT!)
          throw boom
        }
      })
    ).rejects.toBe(boom)
    expect(existsSync(runDirOf())).toBe(false)
  })
})
