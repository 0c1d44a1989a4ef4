// Runs apply / verify / drift from a terminal the way the runner runs the action: the main step
// with the runner's files and folders, then the post step with the state the main step saved; then
// prints the result. What it writes, keeps and removes (the README's "Running it locally"):
// - RUNNER_TEMP, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_STATE: the user's when set (a folder
//   or file that is missing is created; files are appended to, as the runner's are), otherwise in
//   a new run folder $TMPDIR/aks-rdma-action-XXXXXX; RUNNER_TOOL_CACHE (helm when it is
//   downloaded): the user's, otherwise ~/.cache/aks-rdma-action/tool-cache.
// - Everything is kept (the report, the summary, the kubeconfig, printed as `export KUBECONFIG=…`)
//   unless the cleanup input asks the post step to delete what the run created: then, as on the
//   runner, the post step also removes the run's files under RUNNER_TEMP (the kubeconfig).
import * as core from '@actions/core'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import path from 'node:path'
import { EXIT, runMain } from '../main.js'
import { parseFileCommands } from './file-commands.js'
import { runPost, STATE } from './post.js'

export interface LocalRunOptions {
  output: 'text' | 'json'
  /** Results (stdout). */
  print: (text: string) => void
  env?: NodeJS.ProcessEnv
}

/** The runner's files of a local run, and how much of each was there before it started. */
export interface LocalRunnerFiles {
  runDir?: string
  runnerTemp: string
  toolCache: string
  output: string
  summary: string
  state: string
  /** Size of each file before the run: only what the run appends is read back. */
  offsets: Record<'output' | 'summary' | 'state', number>
}

function ensureFile(file: string): number {
  mkdirSync(path.dirname(file), { recursive: true })
  if (!existsSync(file)) writeFileSync(file, '')
  return statSync(file).size
}

/** Sets RUNNER_TEMP and friends, creating what is missing and keeping what the user set. */
export function prepareLocalRunner(env: NodeJS.ProcessEnv = process.env): LocalRunnerFiles {
  let runDir: string | undefined
  const inRunDir = (name: string): string => {
    runDir ??= mkdtempSync(path.join(tmpdir(), 'aks-rdma-action-'))
    return path.join(runDir, name)
  }
  env.RUNNER_TEMP ||= inRunDir('runner-temp')
  mkdirSync(env.RUNNER_TEMP, { recursive: true })
  env.RUNNER_TOOL_CACHE ||= path.join(
    env.XDG_CACHE_HOME || path.join(homedir(), '.cache'),
    'aks-rdma-action',
    'tool-cache'
  )
  mkdirSync(env.RUNNER_TOOL_CACHE, { recursive: true })
  env.GITHUB_OUTPUT ||= inRunDir('outputs')
  env.GITHUB_STEP_SUMMARY ||= inRunDir('summary.md')
  env.GITHUB_STATE ||= inRunDir('state')
  return {
    runDir,
    runnerTemp: env.RUNNER_TEMP,
    toolCache: env.RUNNER_TOOL_CACHE,
    output: env.GITHUB_OUTPUT,
    summary: env.GITHUB_STEP_SUMMARY,
    state: env.GITHUB_STATE,
    offsets: {
      output: ensureFile(env.GITHUB_OUTPUT),
      summary: ensureFile(env.GITHUB_STEP_SUMMARY),
      state: ensureFile(env.GITHUB_STATE)
    }
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

export async function runLikeRunner(opts: LocalRunOptions): Promise<number> {
  const env = opts.env ?? process.env
  const files = prepareLocalRunner(env)
  const code = await runMain({ output: opts.output, cli: true, print: opts.print })
  // Bad inputs: nothing was done, so there is nothing for a post step to undo.
  if (code === EXIT.usage) return code

  const state = parseFileCommands(readFrom(files.state, files.offsets.state))
  for (const [k, v] of Object.entries(state)) env[`STATE_${k}`] = v
  const cleanup = core.getInput('cleanup') || 'none'
  // The run's files stay unless the run was asked to clean up: the post step then finds none to remove.
  if (cleanup === 'none') env[`STATE_${STATE.tempPaths}`] = '[]'
  // A post step that reports an exit code (a cluster it could not delete) fails the run, as on GitHub.
  const post = (await runPost()) as unknown as { exitCode?: number } | undefined
  const postCode = post?.exitCode ?? 0

  const outputs = parseFileCommands(readFrom(files.output, files.offsets.output))
  const exit = postCode ? Math.max(code, postCode, EXIT.failure) : cliExitCode(code, outputs.result)
  const reportPath = outputs['report-path']
  if (opts.output === 'json') {
    if (reportPath && existsSync(reportPath)) opts.print(readFileSync(reportPath, 'utf8').trimEnd() + '\n')
    return exit
  }
  const lines = [`result: ${outputs.result ?? 'failure'}`, 'outputs:']
  for (const [k, v] of Object.entries(outputs)) lines.push(`  ${k}=${v}`)
  lines.push(`job summary: ${files.summary}`)
  if (reportPath) lines.push(`report: ${reportPath}`)
  const kubeconfig = outputs['kubeconfig-path']
  if (kubeconfig && existsSync(kubeconfig)) lines.push(`export KUBECONFIG=${shellWord(kubeconfig)}`)
  opts.print(lines.join('\n') + '\n')
  return exit
}
