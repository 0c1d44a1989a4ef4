// Runs a mode from a terminal the way the runner runs the action: the main step with
// GITHUB_OUTPUT / GITHUB_STATE / GITHUB_STEP_SUMMARY files and a RUNNER_TEMP of its own, then the
// post step (Lease release, cleanup, kubeconfig removal) with the saved state; then prints the
// outputs and where the summary and the report are.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { runMain, type MainOptions } from '../main.js'
import { parseFileCommands } from './file-commands.js'
import { runPost } from './post.js'

export async function runLikeRunner(opts: MainOptions, print: (s: string) => void): Promise<number> {
  const dir = mkdtempSync(path.join(tmpdir(), 'aks-rdma-action-'))
  const files = {
    output: path.join(dir, 'output'),
    state: path.join(dir, 'state'),
    summary: path.join(dir, 'summary.md')
  }
  for (const f of Object.values(files)) writeFileSync(f, '')
  process.env.GITHUB_OUTPUT = files.output
  process.env.GITHUB_STATE = files.state
  process.env.GITHUB_STEP_SUMMARY = files.summary
  process.env.RUNNER_TEMP ??= path.join(dir, 'runner-temp')
  const code = await runMain(opts)
  for (const [k, v] of Object.entries(parseFileCommands(readFileSync(files.state, 'utf8'))))
    process.env[`STATE_${k}`] = v
  await runPost()
  print('\noutputs:\n')
  for (const [k, v] of Object.entries(parseFileCommands(readFileSync(files.output, 'utf8'))))
    print(`  ${k}=${v}\n`)
  print(`job summary: ${files.summary}\n`)
  return code
}
