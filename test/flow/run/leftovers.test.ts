// What runs leave behind: a local run keeps of its run folder only what it names (the summary, the
// report, the kubeconfig) and removes the rest, all of it after bad inputs; `sim up` writes only
// into a new or empty folder of the user's own, never through a link; `sim down` removes
// everything its world wrote (.env with the client secret, the admin kubeconfig, the CA, the helm
// stand-in) and nothing else, and stops only its own world (through the world's control socket,
// never by a process number read from a file); `simulate` leaves nothing in TMPDIR but the
// report it names.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { execFile, spawn } from 'node:child_process'
import * as fs from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { prepareLocalRunner, runLikeRunner, tidyRunFolder } from '../../../cli/local-runner.js'
import { prepareWorldDir, WorldDirError } from '../../../sim/world-dir.js'
import { runCli, simUp as simUpChild } from '../../support/cli-child.js'

const exec = promisify(execFile)
const work = fs.mkdtempSync(path.join(tmpdir(), 'leftovers-'))
const prebuilt = process.env.AKS_RDMA_TEST_DIST
const dist = prebuilt && fs.existsSync(path.join(prebuilt, 'cli.js')) ? prebuilt : path.join(work, 'dist')

/** Every file under `dir`, relative. */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return []
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter(e => e.isFile() || e.isSocket())
    .map(e => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort()
}

function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env))
    if (!/^(INPUT_|GITHUB_|RUNNER_|STATE_|ACTIONS_)/.test(k)) env[k] = v
  return { ...env, XDG_CACHE_HOME: path.join(work, 'cache'), ...extra }
}

beforeAll(async () => {
  if (dist !== prebuilt)
    await exec(process.execPath, ['script/build.mjs', '--outdir', dist], { timeout: 120_000 })
}, 180_000)

afterAll(() => fs.rmSync(work, { recursive: true, force: true }))

describe('a local run', () => {
  it('keeps the summary, the report and the kubeconfig of its run folder and says so; removes the rest', () => {
    const env: NodeJS.ProcessEnv = { XDG_CACHE_HOME: path.join(work, 'cache'), TMPDIR: work }
    const files = prepareLocalRunner(env)
    const report = path.join(files.runnerTemp, 'aks-rdma-action-report.json')
    const kubeconfig = path.join(files.runnerTemp, 'kubeconfig-aks-1234')
    fs.writeFileSync(files.summary, '# aks-rdma-action\n')
    fs.writeFileSync(report, '{}\n')
    fs.writeFileSync(kubeconfig, 'apiVersion: v1\n')
    fs.writeFileSync(files.state, 'kubeconfig=x\n')
    fs.writeFileSync(files.output, 'result=success\n')
    fs.mkdirSync(path.join(files.runnerTemp, 'values-x'))
    fs.writeFileSync(path.join(files.runnerTemp, 'values-x', 'values.json'), '{}')
    const said = tidyRunFolder(files, { 'report-path': report, 'kubeconfig-path': kubeconfig })
    expect(said).toBe(
      `kept ${files.runDir}: the job summary, the report, the kubeconfig (for kubectl and helm), to use after the run; delete the folder when done`
    )
    expect(filesUnder(files.runDir!)).toEqual([
      'runner-temp/aks-rdma-action-report.json',
      'runner-temp/kubeconfig-aks-1234',
      'summary.md'
    ])
  })

  it('a run folder with nothing worth keeping goes entirely; files the user named stay', () => {
    const env: NodeJS.ProcessEnv = { XDG_CACHE_HOME: path.join(work, 'cache') }
    const files = prepareLocalRunner(env)
    expect(tidyRunFolder(files, {})).toBeUndefined()
    expect(fs.existsSync(files.runDir!)).toBe(false)

    const own = path.join(work, 'own')
    const mine: NodeJS.ProcessEnv = {
      RUNNER_TEMP: path.join(own, 'temp'),
      RUNNER_TOOL_CACHE: path.join(own, 'tools'),
      GITHUB_OUTPUT: path.join(own, 'outputs'),
      GITHUB_STEP_SUMMARY: path.join(own, 'summary.md'),
      GITHUB_STATE: path.join(own, 'state')
    }
    const given = prepareLocalRunner(mine)
    expect(tidyRunFolder(given, {})).toBeUndefined()
    // Its state is the run's own (never the user's GITHUB_STATE, which two runs would share).
    expect(filesUnder(own)).toEqual(['outputs', 'summary.md'])
  })

  it('bad inputs: exit 2 and no run folder left behind', async () => {
    const tmp = fs.mkdtempSync(path.join(work, 'tmp-'))
    const saved = { ...process.env }
    try {
      for (const k of Object.keys(process.env))
        if (/^(INPUT_|GITHUB_|RUNNER_|STATE_)/.test(k)) delete process.env[k]
      process.env.TMPDIR = tmp
      process.env.XDG_CACHE_HOME = path.join(work, 'cache')
      process.env['INPUT_NODE-COUNT'] = 'many'
      process.env['INPUT_RESOURCE-GROUP'] = 'rg'
      process.env['INPUT_CLUSTER-NAME'] = 'aks'
      const printed: string[] = []
      expect(await runLikeRunner({ output: 'text', print: t => printed.push(t), env: process.env })).toBe(2)
    } finally {
      process.env = saved
      process.exitCode = undefined
    }
    expect(fs.readdirSync(tmp)).toEqual([])
  })
})

describe('the simulator', () => {
  const cli = (args: string[], extra: Record<string, string> = {}) =>
    runCli(path.join(dist, 'cli.js'), args, cleanEnv(extra), 170_000)
  const simUp = (dir: string) => simUpChild(path.join(dist, 'cli.js'), dir, cleanEnv({}))

  it('sim down removes everything the world wrote, the .env with the client secret and the admin kubeconfig first of all', async () => {
    const dir = path.join(work, 'world')
    const { up } = await simUp(dir)
    expect(filesUnder(dir)).toEqual(
      expect.arrayContaining([
        '.aks-rdma-sim',
        '.env',
        'env.sh',
        'ca.pem',
        'kubeconfig',
        'bin/helm',
        'control.sock'
      ])
    )
    // Created by sim up itself, for its user only; the secrets' file too.
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700)
    expect(fs.statSync(path.join(dir, '.env')).mode & 0o777).toBe(0o600)
    const exited = new Promise(r => up.once('exit', r))
    const down = await cli(['sim', 'down', '--dir', dir])
    expect(down.code).toBe(0)
    await exited
    expect(fs.existsSync(dir)).toBe(false)
  }, 120_000)

  it('sim down after a world that could not clean up (killed): its files go, the user’s stay, nothing is signalled', async () => {
    const dir = path.join(work, 'dead-world')
    const { up } = await simUp(dir)
    const killed = new Promise(r => up.once('exit', r))
    up.kill('SIGKILL')
    await killed
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'the user’s own file')
    fs.writeFileSync(path.join(dir, 'bin', 'mytool'), '#!/bin/sh\n')
    // A process of the user's, and its number where an older sim down read the world's.
    const bystander = spawn('sleep', ['60'], { stdio: 'ignore' })
    fs.writeFileSync(path.join(dir, 'pid'), String(bystander.pid))
    try {
      const down = await cli(['sim', 'down', '--dir', dir])
      expect(down.code).toBe(0)
      expect(down.stderr).toContain('it holds files the world did not write')
      expect(filesUnder(dir)).toEqual(['bin/mytool', 'notes.txt', 'pid'])
      expect(bystander.exitCode).toBeNull()
      expect(bystander.signalCode).toBeNull()
    } finally {
      bystander.kill()
    }
  }, 120_000)

  it('sim down in a folder that never held a world touches nothing', async () => {
    const dir = fs.mkdtempSync(path.join(work, 'project-'))
    fs.mkdirSync(path.join(dir, 'bin'))
    fs.mkdirSync(path.join(dir, 'helm'))
    for (const f of ['.env', 'kubeconfig', 'bin/helm', 'helm/values.yaml'])
      fs.writeFileSync(path.join(dir, f), 'mine')
    const down = await cli(['sim', 'down', '--dir', dir])
    expect(down.code).toBe(1)
    expect(down.stderr).toContain('nothing was touched')
    expect(filesUnder(dir)).toEqual(['.env', 'bin/helm', 'helm/values.yaml', 'kubeconfig'])
  })

  it('sim up refuses a non-empty folder, a linked folder and a planted link: exit 2, nothing written', async () => {
    const full = fs.mkdtempSync(path.join(work, 'full-'))
    fs.writeFileSync(path.join(full, 'notes.txt'), 'mine')
    // A link planted where the admin kubeconfig would go.
    const planted = fs.mkdtempSync(path.join(work, 'planted-'))
    const target = path.join(work, 'where-the-kubeconfig-would-land')
    fs.symlinkSync(target, path.join(planted, 'kubeconfig'))
    const real = fs.mkdtempSync(path.join(work, 'real-'))
    const linked = path.join(work, 'linked')
    fs.symlinkSync(real, linked)
    for (const [dir, why] of [
      [full, 'is not empty (1 entry)'],
      [planted, 'is not empty (1 entry)'],
      [linked, 'is a symbolic link']
    ]) {
      const r = await cli(['sim', 'up', '--dir', dir])
      expect({ code: r.code, stderr: r.stderr }).toEqual({
        code: 2,
        stderr: expect.stringContaining(`sim up: --dir ${dir}: ${why}`)
      })
    }
    expect(filesUnder(full)).toEqual(['notes.txt'])
    expect(fs.readdirSync(planted)).toEqual(['kubeconfig'])
    expect(fs.existsSync(target)).toBe(false)
    expect(fs.readdirSync(real)).toEqual([])
  })

  it('sim up refuses a folder another user owns (it may hold planted files)', async () => {
    const foreign = fs.mkdtempSync(path.join(work, 'foreign-'))
    // As root the folder really changes hands; as anyone else, the check is shown against another uid.
    if (process.getuid?.() === 0) {
      fs.chownSync(foreign, 65534, 65534)
      const r = await cli(['sim', 'up', '--dir', foreign])
      expect(r.code).toBe(2)
      expect(r.stderr).toContain(`sim up: --dir ${foreign}: is owned by another user (uid 65534)`)
    } else {
      const me = process.getuid!()
      expect(() => prepareWorldDir(foreign, me + 1)).toThrow(WorldDirError)
      expect(() => prepareWorldDir(foreign, me + 1)).toThrow(`is owned by another user (uid ${me})`)
    }
    expect(fs.readdirSync(foreign)).toEqual([])
  })

  it('simulate leaves nothing in TMPDIR but the report it names, in a private folder', async () => {
    const tmp = fs.mkdtempSync(path.join(work, 'sim-tmp-'))
    // A link planted where the report once went, at a fixed name, pointing at a file of the user's.
    const victim = path.join(work, 'victim')
    fs.writeFileSync(victim, 'mine\n')
    fs.symlinkSync(victim, path.join(tmp, 'aks-rdma-simulate-report.json'))
    const r = await cli(['simulate', '--output', 'json'], { TMPDIR: tmp })
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout).result).toBe('success')
    expect(fs.readFileSync(victim, 'utf8')).toBe('mine\n')
    const folders = fs.readdirSync(tmp).filter(f => f !== 'aks-rdma-simulate-report.json')
    expect(folders).toEqual([expect.stringMatching(/^aks-rdma-simulate-\w{6}$/)])
    const folder = path.join(tmp, folders[0])
    expect(fs.readdirSync(folder)).toEqual(['report.json'])
    expect(r.stderr).toContain(`report written to ${path.join(folder, 'report.json')}`)
    expect(fs.lstatSync(folder).mode & 0o777).toBe(0o700)
    expect(fs.lstatSync(path.join(folder, 'report.json')).mode & 0o777).toBe(0o600)
    expect(JSON.parse(fs.readFileSync(path.join(folder, 'report.json'), 'utf8')).result).toBe('success')
  }, 180_000)
})
