// Runs apply / verify / drift from a terminal as the runner runs the action (main step, then post
// step) and prints the result; its run folders and what it keeps: docs/running-locally.md.
import * as core from '@actions/core'
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync
} from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import path from 'node:path'
import { log } from '../src/log/index.js'
import { cancelledExitCode } from '../src/exit-codes.js'
import { simTimeScaleOf } from '../src/report/sim-time-scale.js'
import { renderReportText, wrap, type TextReport } from '../src/report/text.js'
import { EXIT, runMain } from '../src/main.js'
import { cancelledBy } from '../src/util/cancel.js'
import { handleCancelSignals } from '../src/run/cancel-signals.js'
import { newRunNonce } from '../src/settings/run-identity.js'
import { parseFileCommands } from '../src/run/file-commands.js'
import { runPost } from '../src/run/post.js'
import { STATE } from '../src/run/saved-state.js'

export interface LocalRunOptions {
  output: 'text' | 'json'
  /** Results (stdout). */
  print: (text: string) => void
  env?: NodeJS.ProcessEnv
}

/** The runner's files of a local run, and how much of each was there before it started. */
export interface LocalRunnerFiles {
  /** The run's own folder, $TMPDIR/aks-rdma-action-<nonce>: its state, outputs and env files, and what the user did not set. */
  runDir?: string
  /** The run's RUNNER_TEMP: its own, under the user's RUNNER_TEMP when set. */
  runnerTemp: string
  /** A folder the run made under the user's RUNNER_TEMP (tidied like runDir). */
  ownTemp?: string
  toolCache: string
  /** The run's own outputs file (the user's GITHUB_OUTPUT gets its content at the end). */
  output: string
  summary: string
  /** The run's own state file: the main step's saved state for its post step, no other run's. */
  state: string
  /** Variables the action exports for the job's later steps (core.exportVariable): the run's own file. */
  env: string
  /** The user's GITHUB_OUTPUT and GITHUB_ENV, appended to at the end of the run. */
  userOutput?: string
  userEnv?: string
  /** Size of each file before the run: only what the run appends is read back. */
  offsets: Record<'output' | 'summary' | 'state' | 'env', number>
}

/** RUNNER_TOOL_CACHE (where a downloaded helm is kept): the user's, otherwise ~/.cache/aks-rdma-action/tool-cache. */
export function useLocalToolCache(env: NodeJS.ProcessEnv): string {
  const dir = (env.RUNNER_TOOL_CACHE ||= path.join(
    env.XDG_CACHE_HOME || path.join(homedir(), '.cache'),
    'aks-rdma-action',
    'tool-cache'
  ))
  mkdirSync(dir, { recursive: true })
  return dir
}

function ensureFile(file: string): number {
  mkdirSync(path.dirname(file), { recursive: true })
  if (!existsSync(file)) writeFileSync(file, '')
  return statSync(file).size
}

/**
 * Sets RUNNER_TEMP and friends for one run, creating what is missing and keeping what the user set.
 * Two runs sharing the user's folders (one --inputs-file) never share their state: each has its own
 * state, outputs and env files in its run folder, and its own folder under the user's RUNNER_TEMP,
 * both named after the run's nonce (the end of its identity, the Lease holder).
 */
export function prepareLocalRunner(
  env: NodeJS.ProcessEnv = process.env,
  nonce = newRunNonce()
): LocalRunnerFiles {
  const runDir = path.join(tmpdir(), `aks-rdma-action-${nonce}`)
  mkdirSync(runDir, { mode: 0o700 })
  const inRunDir = (name: string): string => path.join(runDir, name)
  let ownTemp: string | undefined
  if (env.RUNNER_TEMP) {
    mkdirSync(env.RUNNER_TEMP, { recursive: true })
    ownTemp = path.join(env.RUNNER_TEMP, `aks-rdma-action-${nonce}`)
    mkdirSync(ownTemp, { mode: 0o700 })
  }
  const runnerTemp = ownTemp ?? inRunDir('runner-temp')
  mkdirSync(runnerTemp, { recursive: true })
  env.RUNNER_TEMP = runnerTemp
  const toolCache = useLocalToolCache(env)
  const userOutput = env.GITHUB_OUTPUT || undefined
  const userEnv = env.GITHUB_ENV || undefined
  env.GITHUB_OUTPUT = inRunDir('outputs')
  env.GITHUB_STEP_SUMMARY ||= inRunDir('summary.md')
  env.GITHUB_STATE = inRunDir('state')
  env.GITHUB_ENV = inRunDir('env')
  if (userOutput) ensureFile(userOutput)
  if (userEnv) ensureFile(userEnv)
  return {
    runDir,
    runnerTemp,
    ...(ownTemp ? { ownTemp } : {}),
    toolCache,
    output: env.GITHUB_OUTPUT,
    summary: env.GITHUB_STEP_SUMMARY,
    state: env.GITHUB_STATE,
    env: env.GITHUB_ENV,
    ...(userOutput ? { userOutput } : {}),
    ...(userEnv ? { userEnv } : {}),
    offsets: {
      output: ensureFile(env.GITHUB_OUTPUT),
      summary: ensureFile(env.GITHUB_STEP_SUMMARY),
      state: ensureFile(env.GITHUB_STATE),
      env: ensureFile(env.GITHUB_ENV)
    }
  }
}

/** Hands the run's outputs and exports to the user's GITHUB_OUTPUT and GITHUB_ENV (one append each). */
function handOver(files: LocalRunnerFiles): void {
  for (const [own, user] of [
    [files.output, files.userOutput],
    [files.env, files.userEnv]
  ] as const) {
    const text = user ? readFrom(own, 0) : ''
    if (user && text) appendFileSync(user, text)
  }
}

function readFrom(file: string, offset: number): string {
  try {
    return readFileSync(file).subarray(offset).toString('utf8')
  } catch {
    return ''
  }
}

/** A path as one shell word. */
function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`
}

/** The CLI's exit code: the action's, with drift found (and fail-on-drift) told apart as 3. */
export function cliExitCode(actionCode: number, result: string | undefined): number {
  if (actionCode !== EXIT.success && result === 'drifted') return EXIT.drift
  return actionCode
}

function inside(dir: string, p: string): boolean {
  return path.resolve(p).startsWith(path.resolve(dir) + path.sep)
}

function nonEmptyFile(p: string | undefined): p is string {
  try {
    return !!p && statSync(p).isFile() && statSync(p).size > 0
  } catch {
    return false
  }
}

/** Removes every file under `dir` not in `keep`, then the folders left empty (`dir` too). */
function removeAllBut(dir: string, keep: Set<string>): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name)
    if (entry.isDirectory()) removeAllBut(p, keep)
    else if (!keep.has(path.resolve(p))) rmSync(p, { force: true })
  }
  if (readdirSync(dir).length === 0) rmSync(dir, { recursive: true, force: true })
}

/**
 * Tidies the folders a local run created (its run folder, and its own folder under the user's
 * RUNNER_TEMP): keeps the job summary, the report and the kubeconfig when they hold something,
 * removes the rest (a folder itself when nothing is kept in it). Returns the sentence saying what
 * was kept and why.
 */
export function tidyRunFolder(files: LocalRunnerFiles, outputs: Record<string, string>): string | undefined {
  const said: string[] = []
  for (const dir of [files.runDir, files.ownTemp]) {
    if (!dir || !existsSync(dir)) continue
    const kept: Array<[string, string]> = []
    const keep = (p: string | undefined, what: string): void => {
      if (nonEmptyFile(p) && inside(dir, p)) kept.push([path.resolve(p), what])
    }
    keep(files.summary, 'the job summary')
    keep(outputs['report-path'], 'the report')
    keep(outputs['kubeconfig-path'], 'the kubeconfig (for kubectl and helm)')
    removeAllBut(dir, new Set(kept.map(([p]) => p)))
    if (kept.length)
      said.push(
        `kept ${dir}: ${kept.map(([, what]) => what).join(', ')}, to use after the run; delete the folder when done`
      )
  }
  return said.length ? said.join('\n') : undefined
}

/** The run's report to show: the one it wrote (with the post step's part), else its outputs alone. */
function textReport(json: string | undefined, outputs: Record<string, string>): TextReport {
  try {
    if (json) return { ...(JSON.parse(json) as TextReport), outputs }
  } catch {
    // A report that is not JSON: its outputs still say how it went.
  }
  const result = outputs.result === 'success' || outputs.result === 'drifted' ? outputs.result : 'failure'
  return { mode: core.getInput('mode') || 'run', result, outputs, steps: [], checks: [] }
}

export async function runLikeRunner(opts: LocalRunOptions): Promise<number> {
  // Ctrl-C (SIGINT) or SIGTERM stops the main step at its next safe point; the post step still runs.
  const stopHandling = handleCancelSignals()
  try {
    const code = await runSteps(opts)
    const signal = cancelledBy()
    return signal ? cancelledExitCode(signal) : code
  } finally {
    stopHandling()
  }
}

async function runSteps(opts: LocalRunOptions): Promise<number> {
  const env = opts.env ?? process.env
  const started = Date.now()
  // The run's nonce, drawn here: its identity (the Lease holder) and its folders are named after it.
  const nonce = newRunNonce()
  const files = prepareLocalRunner(env, nonce)
  let code: number
  try {
    code = await runMain({ output: opts.output, cli: true, print: opts.print, nonce })
  } catch (e) {
    handOver(files)
    tidyRunFolder(files, parseFileCommands(readFrom(files.output, files.offsets.output)))
    throw e
  }
  // Bad inputs: nothing was done, so there is nothing for a post step to undo, nor to keep.
  if (code === EXIT.usage) {
    tidyRunFolder(files, {})
    return code
  }

  const state = parseFileCommands(readFrom(files.state, files.offsets.state))
  for (const [k, v] of Object.entries(state)) env[`STATE_${k}`] = v
  // What the main step exported reaches the post step, as on the runner.
  const exported = parseFileCommands(readFrom(files.env, files.offsets.env))
  for (const [k, v] of Object.entries(exported)) env[k] = v
  const cleanup = core.getInput('cleanup') || 'none'
  // The run's files stay unless the run was asked to clean up: the post step then finds none to remove.
  if (cleanup === 'none') env[`STATE_${STATE.tempPaths}`] = '[]'
  // A post step that reports an exit code (a cluster it could not delete) fails the run, as on GitHub.
  const post = (await runPost()) as unknown as { exitCode?: number } | undefined
  const postCode = post?.exitCode ?? 0

  const outputs = parseFileCommands(readFrom(files.output, files.offsets.output))
  handOver(files)
  const exit = postCode ? Math.max(code, postCode, EXIT.failure) : cliExitCode(code, outputs.result)
  const reportPath = outputs['report-path']
  const report = reportPath && existsSync(reportPath) ? readFileSync(reportPath, 'utf8') : undefined
  const kept = tidyRunFolder(files, outputs)
  if (opts.output === 'json') {
    if (report) opts.print(report.trimEnd() + '\n')
    if (kept) log.info(kept)
    return exit
  }
  // The report as plain text in 80 columns (the Markdown is the job summary's), then where things are.
  const lines = [
    renderReportText(textReport(report, outputs), {
      totalMs: Date.now() - started,
      simTimeScale: simTimeScaleOf(env)
    }).trimEnd(),
    ''
  ]
  if (existsSync(files.summary)) lines.push(...wrap(`job summary: ${files.summary}`, 80, '', '  '))
  if (reportPath && existsSync(reportPath)) lines.push(...wrap(`report: ${reportPath}`, 80, '', '  '))
  if (kept) lines.push(...wrap(kept, 80, '', '  '))
  // What the runner would hand to the job's later steps, for this shell (a removed file is not
  // offered); a command, so one line however long.
  for (const [k, v] of Object.entries(exported))
    if (k !== 'KUBECONFIG' || existsSync(v)) lines.push(`export ${k}=${shellWord(v)}`)
  opts.print(lines.join('\n') + '\n')
  return exit
}
