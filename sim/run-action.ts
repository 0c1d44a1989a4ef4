// Runs the action's main step and then its post step as the runner would: inputs as INPUT_*,
// GITHUB_STEP_SUMMARY / GITHUB_OUTPUT / GITHUB_STATE / GITHUB_ENV files, RUNNER_TEMP, the post step
// seeing the main step's saved state as STATE_* variables and what it exported (GITHUB_ENV) as its
// environment (also after a cancelled main step: the runner sends SIGINT, then runs the post step).
// Returns what a workflow would see: both exit codes, the outputs and what later steps get.
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { parseFileCommands } from '../src/run/file-commands.js'

export interface ActionRun {
  exitCode: number
  postExitCode: number
  outputs: Record<string, string>
  summary: string
  log: string
  postLog: string
  state: Record<string, string>
  /** Variables exported for the job's later steps (GITHUB_ENV). */
  exported: Record<string, string>
  runnerTemp: string
}

export interface RunActionOptions {
  /** Folder holding index.js and post.js (dist/). */
  distDir: string
  inputs: Record<string, string>
  env: Record<string, string>
  /** Streams the action's log lines as they come (the CLI prints them). */
  onLog?: (text: string) => void
  runId?: string
  /** GITHUB_JOB (default `aks-rdma`): jobs of one workflow run share runId and differ by this, or not (matrix legs). */
  job?: string
  /** Awaited between the main and the post step (two jobs of one run: every main step first). */
  beforePost?: (main: { runnerTemp: string; exitCode: number }) => Promise<void>
  /** Variables the post step sees on top of the main step's (what a later step changed). */
  postEnv?: Record<string, string>
  /** Cancels the main step when aborted (SIGINT, as the runner does); the post step still runs. */
  cancelMain?: AbortSignal
  /** The signal cancelMain sends (default SIGINT, the runner's first). */
  cancelWith?: NodeJS.Signals
}

/** Exit code of a step the runner interrupted with SIGINT (128 + 2). */
export const CANCELLED_EXIT_CODE = 130

function runNode(
  script: string,
  env: NodeJS.ProcessEnv,
  onLog?: (t: string) => void,
  signal?: AbortSignal,
  killSignal: NodeJS.Signals = 'SIGINT'
): Promise<{ code: number; log: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      signal,
      killSignal
    })
    let log = ''
    const take = (b: Buffer) => {
      const t = b.toString()
      log += t
      onLog?.(t)
    }
    child.stdout.on('data', take)
    child.stderr.on('data', take)
    child.on('error', e => {
      if (e.name !== 'AbortError') reject(e)
    })
    child.on('close', (code, killedBy) =>
      resolve({ code: code ?? (killedBy === 'SIGINT' ? CANCELLED_EXIT_CODE : 1), log })
    )
  })
}

export async function runAction(o: RunActionOptions): Promise<ActionRun> {
  const root = mkdtempSync(path.join(tmpdir(), 'aks-rdma-run-'))
  const runnerTemp = path.join(root, 'runner-temp')
  mkdirSync(runnerTemp)
  const files = {
    summary: path.join(root, 'summary.md'),
    output: path.join(root, 'output'),
    state: path.join(root, 'state'),
    env: path.join(root, 'env')
  }
  for (const f of Object.values(files)) writeFileSync(f, '')
  const base: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env))
    if (!k.startsWith('INPUT_') && !k.startsWith('STATE_') && !k.startsWith('GITHUB_')) base[k] = v
  const inputEnv = Object.fromEntries(
    Object.entries(o.inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v])
  )
  const env: NodeJS.ProcessEnv = {
    ...base,
    ...o.env,
    ...inputEnv,
    GITHUB_ACTIONS: 'true',
    GITHUB_RUN_ID: o.runId ?? String(Date.now()),
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_JOB: o.job ?? 'aks-rdma',
    GITHUB_REPOSITORY: 'org/repo',
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_OUTPUT: files.output,
    GITHUB_STATE: files.state,
    GITHUB_ENV: files.env,
    RUNNER_TEMP: runnerTemp,
    RUNNER_TOOL_CACHE: path.join(root, 'tool-cache')
  }
  const main = await runNode(path.join(o.distDir, 'index.js'), env, o.onLog, o.cancelMain, o.cancelWith)
  await o.beforePost?.({ runnerTemp, exitCode: main.code })
  const state = parseFileCommands(readFileSync(files.state, 'utf8'))
  const exported = parseFileCommands(readFileSync(files.env, 'utf8'))
  const postEnv = {
    ...env,
    ...exported,
    ...o.postEnv,
    ...Object.fromEntries(Object.entries(state).map(([k, v]) => [`STATE_${k}`, v]))
  }
  const post = await runNode(path.join(o.distDir, 'post.js'), postEnv, o.onLog)
  return {
    exitCode: main.code,
    postExitCode: post.code,
    outputs: parseFileCommands(readFileSync(files.output, 'utf8')),
    summary: existsSync(files.summary) ? readFileSync(files.summary, 'utf8') : '',
    log: main.log,
    postLog: post.log,
    state,
    exported,
    runnerTemp
  }
}
