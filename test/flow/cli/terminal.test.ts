// The CLI in a terminal, end to end on a build of the three bundles (cli.js runs index.js and
// post.js as the runner would): `simulate` prints no workflow command and no secret, logs on
// stderr and results on stdout, `--output json` is one JSON document; and the recipes of
// docs/running-locally.md: `sim up --dir DIR` (which prints no secret), then apply / verify / drift
// with `--inputs-file DIR/.env` and no other flag; and the local-action recipe as far as it can run here
// (local-action itself is not installed): a shell sources DIR/env.sh, the .env is loaded as dotenv
// loads it (a variable already set wins), and the action's main step runs as the runner would.
// In a pseudo-terminal (script(1), rendered through a VT100 screen), `simulate` and `apply` end
// with their plain-text result, `report:` and `export KUBECONFIG=` intact and no stale status line;
// without one, the result fits 80 columns and the log comes in order, the post step's last.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { parseEnv, promisify } from 'node:util'
import { KubeClient } from '../../../src/kube/client.js'

import { renderScreen } from '../../support/vt100.js'
import { runCli, type CliResult } from '../../support/cli-child.js'
import { readActionLease } from '../../support/action-lease-read.js'

const exec = promisify(execFile)
const work = mkdtempSync(path.join(tmpdir(), 'cli-terminal-'))
/** The shipped bundles: those the Jest globalSetup built when it provides them, else built here. */
const prebuilt = process.env.AKS_RDMA_TEST_DIST
const dist = prebuilt && existsSync(path.join(prebuilt, 'cli.js')) ? prebuilt : path.join(work, 'dist')
/** The simulated world's client secret (scenario default) and what every token looks like (a JWT). */
const WORLD_SECRET = 'a-secret-the-world-accepts'
const JWT = /eyJ[A-Za-z0-9_-]{10,}\./

/** The environment of a person's terminal: nothing of the runner's. */
function terminalEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env))
    if (!/^(INPUT_|GITHUB_|RUNNER_|STATE_|ACTIONS_)/.test(k)) env[k] = v
  return { ...env, XDG_CACHE_HOME: path.join(work, 'cache'), ...extra }
}

const cli = (args: string[], extra: Record<string, string> = {}): Promise<CliResult> =>
  runCli(path.join(dist, 'cli.js'), args, terminalEnv(extra), 120_000)

/** Every line in 80 columns, but a path or a command (`export …`) too long for one, kept whole. */
function expectFits(text: string): void {
  const over = text
    .split('\n')
    .filter(l => l.length > 80 && !l.startsWith('export ') && /\S\s+\S/.test(l.trim()))
  expect(over).toEqual([])
}

/** script(1) (util-linux) runs a command under a pseudo-terminal, as a person's shell would. */
const hasScript = (() => {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
})()
if (!hasScript) console.warn('SKIPPED: the pseudo-terminal tests of the CLI need script(1) (util-linux)')
const itInTerminal = hasScript ? it : it.skip

const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`

/**
 * Runs the CLI in a pseudo-terminal of 80 × 50 (stdout and stderr both the terminal, as in a
 * shell) and returns what a person sees at the end: the bytes it wrote, through a VT100 screen (a line
 * the screen wrapped joined back into one).
 */
function cliInTerminal(args: string[]): Promise<{ code: number | null; screen: string[]; bytes: string }> {
  const command = [
    'stty cols 80 rows 50;',
    'exec',
    ...[process.execPath, path.join(dist, 'cli.js'), ...args].map(shellQuote)
  ]
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-q', '-e', '-c', command.join(' '), '/dev/null'], {
      env: terminalEnv(),
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let bytes = ''
    child.stdout.on('data', (b: Buffer) => (bytes += b.toString()))
    child.stderr.on('data', (b: Buffer) => (bytes += b.toString()))
    child.on('error', reject)
    child.on('close', code =>
      resolve({ code, bytes, screen: renderScreen(bytes, { columns: 80, rows: 50, joinWrapped: true }) })
    )
  })
}

/** Live status lines (`  … what [12s]`) a person would still see. */
const staleStatus = (screen: string[]): string[] => screen.filter(l => /^ {2}… .*\[\d+[smh\d]*\]$/.test(l))

function expectTerminalClean(text: string): void {
  const commandLines = text.split('\n').filter(l => l.trimStart().startsWith('::'))
  expect(commandLines).toEqual([])
  expect(text).not.toContain(WORLD_SECRET)
  expect(text).not.toMatch(JWT)
  expect(text).not.toContain('PRIVATE KEY')
}

beforeAll(async () => {
  if (dist !== prebuilt)
    await exec(process.execPath, ['script/build.mjs', '--outdir', dist], { timeout: 120_000 })
}, 180_000)

afterAll(() => {
  rmSync(work, { recursive: true, force: true })
})

describe('cli in a terminal', () => {
  it('simulate shows the log on stderr without workflow commands or secrets, results on stdout', async () => {
    const r = await cli(['simulate', '--auth-type', 'secret', '--admin-credentials', 'true', '--verbose'])
    expect(r.code).toBe(0)
    expectTerminalClean(r.stdout + r.stderr)
    expect(r.stderr).toContain('==> azure-sign-in: authenticate to Azure')
    expect(r.stderr).toMatch(/^ {2}debug: /m) // --verbose
    // The result as plain text in 80 columns (a path longer than a line alone on its own).
    expect(r.stdout).toMatch(/^result: success — apply succeeded in \S+ \(main and post step\)$/m)
    expect(r.stdout).toMatch(/^ {2}Simulated world: its waits run 100× faster/m)
    expect(r.stdout).toMatch(/^ {2}result=success$/m)
    expectFits(r.stdout)
    // report-path names the report simulate kept, not the run's folder it removed.
    const reportPath = /^ {2}report-path=(.+)$/m.exec(r.stdout)?.[1]
    expect(reportPath && existsSync(reportPath)).toBe(true)
    expect(r.stdout).toContain(`\nreport: ${reportPath}\n`)
    expect(r.stdout).not.toContain('==> ')
  }, 180_000)

  itInTerminal(
    'simulate in a terminal ends with its result and report line, and no stale status line',
    async () => {
      const r = await cliInTerminal(['simulate', '--benchmark', 'false'])
      expect(r.code).toBe(0)
      const end = r.screen.slice(r.screen.findIndex(l => l.startsWith('result: ')))
      expect(end[0]).toMatch(/^result: success — apply succeeded in \S+ \(main and post step\)$/)
      expect(end).toContainEqual('  result=success')
      expect(end.at(-1)).toMatch(/^report: \/.+\/report\.json$/)
      expect(staleStatus(r.screen)).toEqual([])
      expect(r.screen.filter(l => l.trimStart().startsWith('::'))).toEqual([])
    },
    180_000
  )

  it('simulate --output json prints exactly one JSON document on stdout', async () => {
    const r = await cli(['simulate', '--output', 'json', '--report', path.join(work, 'report.json')])
    expect(r.code).toBe(0)
    const doc = JSON.parse(r.stdout)
    expect(doc).toMatchObject({ result: 'success', exitCode: 0 })
    expect(doc.sim.requests).toBeDefined()
    expect(JSON.parse(readFileSync(path.join(work, 'report.json'), 'utf8'))).toEqual(doc)
    expectTerminalClean(r.stdout + r.stderr)
  }, 180_000)
})

describe('the simulator one flag away', () => {
  const dir = path.join(work, 'world')
  const envFile = path.join(dir, '.env')
  /** A command run on the world through its .env, with these flags. */
  const withWorld = (command: string, ...flags: string[]): string[] => [
    command,
    '--inputs-file',
    envFile,
    ...flags
  ]
  let up: ChildProcess | undefined
  let printed = ''

  beforeAll(async () => {
    up = spawn(process.execPath, [path.join(dist, 'cli.js'), 'sim', 'up', '--dir', dir], {
      env: terminalEnv(),
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let out = ''
    await new Promise<void>((resolve, reject) => {
      up!.stdout!.on('data', (b: Buffer) => {
        out += b.toString()
        if (/^READY$/m.test(out)) resolve()
      })
      up!.on('exit', code => reject(new Error(`sim up exited ${code}: ${out}`)))
    })
    printed = out
  }, 120_000)

  afterAll(async () => {
    if (up && up.exitCode === null) {
      up.kill('SIGTERM')
      await new Promise(r => up!.once('exit', r))
    }
  })

  it('sim up refuses a folder that holds a running world', async () => {
    const r = await cli(['sim', 'up', '--dir', dir])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('holds a running world')
    expect(existsSync(envFile)).toBe(true)
  })

  it('sim up prints what a person needs as export lines, and no secret: those stay in the 0600 .env', () => {
    const env = parseEnv(readFileSync(envFile, 'utf8')) as Record<string, string>
    expect(statSync(envFile).mode & 0o777).toBe(0o600)
    expect(env['INPUT_CLIENT-SECRET']).toBe(WORLD_SECRET)
    const token = env.ACTIONS_ID_TOKEN_REQUEST_TOKEN
    expect(token).toBeTruthy()
    expect(printed).not.toContain(WORLD_SECRET)
    expect(printed).not.toContain(token)
    expect(readFileSync(path.join(dir, 'env.sh'), 'utf8')).not.toContain(token)
    // Every line but the comments and READY is an export a shell takes as it is.
    const exports = printed.split('\n').filter(l => l && !l.startsWith('#') && l !== 'READY')
    expect(exports.every(l => l.startsWith('export '))).toBe(true)
    const shell = execFileSync(
      'sh',
      ['-c', `${exports.join('\n')}\nprintf '%s|%s' "$KUBECONFIG" "$INPUTS_FILE"`],
      {
        env: terminalEnv()
      }
    ).toString()
    expect(shell).toBe(`${path.join(dir, 'kubeconfig')}|${envFile}`)
  })

  it('the local-action recipe: env.sh in a shell, the .env as dotenv loads it, the main step as on the runner', async () => {
    // What `( . DIR/env.sh && npx -y @github/local-action . src/main.ts DIR/.env )` does short of
    // local-action itself: the shell's environment after env.sh, then the .env's variables that
    // are not already set (dotenv's config() does not override), then the action's main step.
    const shellEnv = parseEnv(
      execFileSync('sh', ['-c', `. '${path.join(dir, 'env.sh')}' && env`], { env: terminalEnv() })
        .toString()
        .split('\n')
        .filter(l => /^[A-Za-z_][A-Za-z0-9_]*=/.test(l))
        .join('\n')
    ) as Record<string, string>
    const fromFile = parseEnv(readFileSync(envFile, 'utf8')) as Record<string, string>
    const env = { ...fromFile, ...shellEnv }
    // The runner's variables come from the .env: the job summary, outputs, RUNNER_TEMP in DIR/runner.
    for (const k of ['GITHUB_STEP_SUMMARY', 'GITHUB_OUTPUT', 'GITHUB_STATE', 'GITHUB_ENV', 'RUNNER_TEMP'])
      expect(env[k]?.startsWith(path.join(dir, 'runner'))).toBe(true)
    expect(env.PATH.split(':')[0]).toBe(path.join(dir, 'bin'))
    const r = await new Promise<{ code: number | null; log: string }>(resolve => {
      const child = spawn(process.execPath, [path.join(dist, 'index.js')], {
        env,
        stdio: ['ignore', 'pipe', 'pipe']
      })
      let log = ''
      child.stdout.on('data', (b: Buffer) => (log += b.toString()))
      child.stderr.on('data', (b: Buffer) => (log += b.toString()))
      child.on('close', code => resolve({ code, log }))
    })
    expect({ code: r.code, tail: r.code ? r.log.slice(-3000) : '' }).toEqual({ code: 0, tail: '' })
    expect(r.log).toContain(`Using helm v3.19.0 from PATH (${path.join(dir, 'bin', 'helm')}`)
    expect(readFileSync(env.GITHUB_STEP_SUMMARY, 'utf8')).toContain('aks-rdma-action')
    expect(readFileSync(env.GITHUB_OUTPUT, 'utf8')).toContain('result<<')
    expect(existsSync(path.join(env.RUNNER_TEMP, 'aks-rdma-action-report.json'))).toBe(true)
  }, 300_000)

  it('apply, verify and drift run against it with --inputs-file and no other flag', async () => {
    const apply = await cli(['apply', '--inputs-file', envFile])
    expect({ code: apply.code, stderr: apply.code ? apply.stderr.slice(-3000) : '' }).toEqual({
      code: 0,
      stderr: ''
    })
    expectTerminalClean(apply.stdout + apply.stderr)
    expect(apply.stdout).toMatch(/^result: success — apply succeeded in \S+ \(main and post step\)$/m)
    expect(apply.stdout).toMatch(/^ {2}Simulated world: its waits run 100× faster/m)
    expectFits(apply.stdout)
    // Without a terminal the log is in order: the steps' last lines (a background wait's final
    // state among them) before the post step's.
    const logLines = apply.stderr.split('\n')
    const postAt = logLines.findIndex(l => /^\s*(cleanup|post): /.test(l))
    const lastStepLine = logLines.findLastIndex(l =>
      /^\s*(network-operator|node-feature-rule|nic-cluster-policy|ib-node-config|rdma-device-plugin|gpu-operator|verify|benchmark|round \d)/.test(
        l
      )
    )
    expect(postAt).toBeGreaterThan(lastStepLine)
    const kubeconfig = /^export KUBECONFIG=(.+)$/m.exec(apply.stdout)?.[1]
    expect(kubeconfig).toBeDefined()
    expect(existsSync(kubeconfig!)).toBe(true) // a local run keeps it
    // report: names a file still there after the command (a path too long for a line on its own).
    const reportFile = /^report:(?:\n {2}| )(\S+)$/m.exec(apply.stdout)?.[1]
    expect(reportFile && JSON.parse(readFileSync(reportFile, 'utf8')).result).toBe('success')

    // The runner's files of the .env (DIR/runner) hold the outputs, the summary and the report.
    const verify = await cli(['verify', '--inputs-file', envFile, '--output', 'json'])
    expect(verify.code).toBe(0)
    const report = JSON.parse(verify.stdout)
    expect(report.result).toBe('success')
    expect(readFileSync(path.join(dir, 'runner', 'output'), 'utf8')).toContain('result')
    expect(readFileSync(path.join(dir, 'runner', 'summary.md'), 'utf8')).toContain('aks-rdma-action')
    // The report is in the run's own folder under the .env's RUNNER_TEMP.
    expect(report.outputs['report-path']).toMatch(
      new RegExp(
        `^${path.join(dir, 'runner', 'temp')}/aks-rdma-action-[0-9a-f]{12}/aks-rdma-action-report\\.json$`
      )
    )
    expect(existsSync(report.outputs['report-path'])).toBe(true)
    expectTerminalClean(verify.stdout + verify.stderr)

    const drift = await cli(['drift', '--inputs-file', envFile])
    expect(drift.code).toBe(0)
    expect(drift.stdout).toContain('drifted=false')
    // export-kubeconfig false: the kubeconfig is kept and named, but no `export KUBECONFIG` line.
    const noExport = await cli(['verify', '--inputs-file', envFile, '--export-kubeconfig', 'false'])
    expect(noExport.code).toBe(0)
    expect(noExport.stdout).toMatch(/^ {2}kubeconfig-path=/m)
    expect(noExport.stdout).not.toContain('export KUBECONFIG')

    // Drift found: exit 3 (not 1, a failed run); 0 with fail-on-drift false.
    const drifted = await cli(['drift', '--inputs-file', envFile, '--node-count', '3', '--output', 'json'])
    expect(drifted.code).toBe(3)
    expect(JSON.parse(drifted.stdout).result).toBe('drifted')
    // The terminal shows what drifted, desired against actual, not only the summary.
    // (Inside the step's heading, indented.)
    expect(drifted.stderr).toMatch(
      /^ +node-pool: count\n +desired: 3\n +actual: {2}2\n +fix: +apply never changes/m
    )
    expect(drifted.stderr).toMatch(/^ *warning: drift: 1 drifted field/m)
    expect(
      (await cli(['drift', '--inputs-file', envFile, '--node-count', '3', '--fail-on-drift', 'false'])).code
    ).toBe(0)
  }, 300_000)

  it('two applies at once with the one .env: each succeeds and cleans up only its own', async () => {
    const runs = await Promise.all(
      ['poola', 'poolb'].map(pool =>
        cli(withWorld('apply', '--node-pool', pool, '--cleanup', 'node-pool', '--benchmark', 'false'))
      )
    )
    const reports = runs.map(r => {
      expect({ code: r.code, stderr: r.code ? r.stderr.slice(-3000) : '' }).toEqual({ code: 0, stderr: '' })
      // `report:` and its path, on the next line when the two do not fit in 80 columns.
      return JSON.parse(readFileSync(/^report:(?:\n {2}| )(\S+)$/m.exec(r.stdout)![1], 'utf8'))
    })
    // Each run's own folders, named after its own identity; no Lease or kubeconfig of the other's.
    expect(new Set(reports.map(r => r.outputs['report-path'])).size).toBe(2)
    for (const [i, pool] of ['poola', 'poolb'].entries()) {
      const cleanup = reports[i].post.cleanup
      expect(cleanup).toContainEqual({
        resource: 'node-pool',
        name: pool,
        result: 'deleted',
        reason: 'was Succeeded'
      })
      expect(cleanup.find((e: { resource: string }) => e.resource === 'lease')).toMatchObject({
        result: 'skipped',
        reason: 'the main step took it and released it'
      })
      expect(cleanup.find((e: { resource: string }) => e.resource === 'kubeconfig')).toMatchObject({
        result: 'deleted'
      })
      expect(existsSync(reports[i].outputs['kubeconfig-path'])).toBe(false)
    }
  }, 600_000)

  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143]
  ] as const)
    it(`${signal} while apply holds the Lease: it stops, releases the Lease, removes its kubeconfig, says what is half-done, exits ${code}`, async () => {
      // Values of its own make the run write (a helm upgrade at least), so it takes the Lease.
      const values = path.join(work, `values-${signal}.yaml`)
      writeFileSync(values, `aksRdmaActionTest: ${signal}-${Date.now()}\n`)
      const child = spawn(
        process.execPath,
        [
          path.join(dist, 'cli.js'),
          ...withWorld('apply', '--network-operator-values', values, '--benchmark', 'false')
        ],
        { env: terminalEnv(), stdio: ['ignore', 'pipe', 'pipe'] }
      )
      let stdout = ''
      let stderr = ''
      child.stdout!.on('data', (b: Buffer) => (stdout += b.toString()))
      const exited = new Promise<number | null>(resolve => child.on('close', c => resolve(c)))
      // The signal comes once the Lease is taken: the run is writing the stack, or about to.
      await new Promise<void>(resolve =>
        child.stderr!.on('data', (b: Buffer) => {
          stderr += b.toString()
          if (/Lease kube-system\/aks-rdma-action taken by run/.test(stderr)) resolve()
        })
      )
      child.kill(signal)
      expect({ code: await exited, tail: stderr.slice(-2000) }).toMatchObject({ code })
      expect(stderr).toContain(`cancelled by ${signal}; stopped at a safe point`)
      expect(stderr).toMatch(/stopped in [a-z-]+: /)
      expect(stderr).toContain('Lease kube-system/aks-rdma-action: released')
      // The Lease is free for the next run: deleted, not left to expire.
      const admin = KubeClient.fromFile(path.join(dir, 'kubeconfig'), { retries: 1 })
      const lease = await readActionLease(admin)
      expect(lease?.spec?.holderIdentity ?? '').toBe('')
      // Its kubeconfig is gone, and no other is left in the runs' folders.
      const kubeconfig = /^ {2}kubeconfig-path=(.+)$/m.exec(stdout)?.[1]
      expect(kubeconfig).toBeDefined()
      expect(existsSync(kubeconfig!)).toBe(false)
      expect(stdout).not.toContain('export KUBECONFIG')
    }, 300_000)

  itInTerminal(
    'apply in a terminal ends with its result, report: and export KUBECONFIG=, and no stale status line',
    async () => {
      const r = await cliInTerminal(['apply', '--inputs-file', envFile])
      expect({ code: r.code, tail: r.code ? r.screen.slice(-30) : [] }).toEqual({ code: 0, tail: [] })
      const end = r.screen.slice(r.screen.findIndex(l => l.startsWith('result: ')))
      expect(end[0]).toMatch(/^result: success — apply succeeded in /)
      expect(end.join('\n')).toMatch(/^report:(\n {2}| )\S+\/aks-rdma-action-report\.json$/m)
      expect(end.at(-1)).toMatch(/^export KUBECONFIG=\S+$/)
      expect(existsSync(end.at(-1)!.slice('export KUBECONFIG='.length))).toBe(true)
      expect(staleStatus(r.screen)).toEqual([])
      // The live lines were drawn (this is a terminal) and erased by the tool itself.
      expect(r.bytes).toContain('\x1b[J')
    },
    300_000
  )

  it('sim down stops it and removes what it wrote, the runner folder the runs used included', async () => {
    const r = await cli(['sim', 'down', '--dir', dir])
    expect(r.code).toBe(0)
    await new Promise(resolve => (up!.exitCode === null ? up!.once('exit', resolve) : resolve(undefined)))
    expect(existsSync(envFile)).toBe(false)
    expect(existsSync(dir)).toBe(false)
  }, 60_000)
})
