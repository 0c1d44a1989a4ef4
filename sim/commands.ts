// The simulator's commands (flags parsed by the CLI): `sim up` (start a world in a new or empty
// folder of the user's own — world-dir.ts — write DIR/.env for `--inputs-file` and local-action, with
// the inputs, the world's environment and the runner's variables; DIR/env.sh for a shell, both adding
// the world's CA to the NODE_EXTRA_CA_CERTS bundle already set (ca-bundle.ts); print
// what a person needs as `export` lines, no secret among them, then READY; run until `sim down` or
// a signal), `sim down` (stop the world through its control socket — never a signal to a process
// number read from a file — and remove what it wrote, nothing else), and `simulate`.
import { lstatSync, mkdirSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { PROGRESS_TAG_ENV } from '../src/log/terminal-commands.js'
import type { TerminalSession } from '../src/log/terminal-session.js'
import { INPUTS } from '../src/settings/input-definitions.js'
import { isRdmaSize, vmSizeSpec } from './kube/hardware.js'
import { loadScenario, ScenarioError, type Scenario } from './scenario.js'
import { indexProblems } from './scenario-schema.js'
import { simulate } from './simulate.js'
import { CA_BUNDLE_FILE, writeWorldCaBundle } from './ca-bundle.js'
import { startWorld, type World } from './world.js'
import {
  askToStop,
  defaultWorldDir,
  isWorldDir,
  listenForStop,
  MARKER,
  prepareWorldDir,
  removeWorldFiles,
  WorldDirError,
  worldRunning,
  writeNewFile
} from './world-dir.js'

/** Most runs `simulate` starts: one after another (--runs) or at once (--concurrent). */
export const SIMULATE_LIMITS = { runs: 100, concurrent: 16 } as const

/**
 * The running bundle (dist/cli.js) and the helm and az stand-in command lines that re-enter it.
 * This module runs from one of the bundle's chunks (dist/chunks/), next to which the entries are.
 */
function selfPaths(): { distDir: string; helmCommand: string[]; azCommand: string[] } {
  const here = path.dirname(fileURLToPath(import.meta.url))
  const distDir = path.basename(here) === 'chunks' ? path.dirname(here) : here
  const self = path.join(distDir, 'cli.js')
  return {
    distDir,
    helmCommand: [process.execPath, self, '__helm'],
    azCommand: [process.execPath, self, '__az']
  }
}

/** A dotenv value: as it is when plain, single-quoted otherwise (read literally by node and dotenv). */
function envValue(v: string): string {
  return /^[^\s#'"\\`$]*$/.test(v) ? v : `'${v}'`
}

/** A value as one POSIX shell word. */
function shellWord(v: string): string {
  return /^[\w@%+=:,./-]+$/.test(v) ? v : `'${v.replace(/'/g, `'\\''`)}'`
}

/** An input's value as the action will see it: given, else its default. */
function inputOrDefault(inputs: Record<string, string>, name: string): string {
  return inputs[name] ?? INPUTS.find(i => i.name === name)?.default ?? ''
}

/**
 * The scenario's problems before any world starts: the file's (parse, schema) and, for simulate,
 * node and NIC indexes outside the RDMA nodes the run will have (its pool plus the scenario's
 * existing RDMA pools). Empty when it is usable.
 */
export function scenarioFileProblems(file: string | undefined, inputs?: Record<string, string>): string[] {
  let scenario: Scenario
  try {
    scenario = loadScenario(file)
  } catch (e) {
    if (e instanceof ScenarioError) return e.message.split('\n')
    throw e
  }
  if (!inputs || !file) return []
  const poolName = inputOrDefault(inputs, 'node-pool')
  const vmSize = inputOrDefault(inputs, 'vm-size')
  const existing = scenario.azure.existingPools.filter(p => isRdmaSize(p.vmSize))
  const rdmaNodes =
    existing.reduce((n, p) => n + p.count, 0) +
    (scenario.azure.existingPools.some(p => p.name === poolName) || !isRdmaSize(vmSize)
      ? 0
      : Number(inputOrDefault(inputs, 'node-count')) || 0)
  const ibNicsPerNode = Math.min(...[vmSize, ...existing.map(p => p.vmSize)].map(v => vmSizeSpec(v).ibNics))
  return indexProblems(scenario.nodes as unknown as Record<string, unknown>, {
    rdmaNodes,
    ibNicsPerNode
  }).map(p => `scenario ${file}: ${p}`)
}

export interface SimUpOptions {
  dir?: string
  scenario?: string
}

/** The simulated runner's folder and files in DIR/runner (what the runner sets for a step). */
function runnerFiles(dir: string): Record<string, string> {
  const runner = path.join(dir, 'runner')
  for (const d of ['temp', 'tool-cache']) mkdirSync(path.join(runner, d), { recursive: true, mode: 0o700 })
  const files = {
    GITHUB_STEP_SUMMARY: path.join(runner, 'summary.md'),
    GITHUB_OUTPUT: path.join(runner, 'output'),
    GITHUB_STATE: path.join(runner, 'state'),
    GITHUB_ENV: path.join(runner, 'env')
  }
  for (const f of Object.values(files)) writeNewFile(f, '')
  return {
    RUNNER_TEMP: path.join(runner, 'temp'),
    RUNNER_TOOL_CACHE: path.join(runner, 'tool-cache'),
    ...files
  }
}

/** Names whose values are secrets: in the 0600 .env only, never printed or in env.sh. */
const SECRET_ENV = new Set(['ACTIONS_ID_TOKEN_REQUEST_TOKEN'])

/**
 * Writes DIR/.env (inputs, the world's environment, the runner's variables; mode 0600: it holds the
 * client secret and the OIDC request token) and DIR/env.sh (the environment without secrets, as
 * `export` lines a shell sources before starting another program, e.g. local-action). `machine` is
 * the environment `sim up` started in: its NODE_EXTRA_CA_CERTS bundle is kept, the world's CA added.
 */
export function writeEnvFiles(dir: string, world: World, machine: NodeJS.ProcessEnv = process.env): string {
  // NODE_EXTRA_CA_CERTS adds to the machine's bundle (a proxy's CA, say) instead of replacing it.
  const ca = writeWorldCaBundle({
    existing: machine.NODE_EXTRA_CA_CERTS,
    worldCaFile: world.caPath,
    bundleFile: path.join(dir, CA_BUNDLE_FILE)
  })
  if (ca.problem) process.stderr.write(`sim up: ${ca.problem}; env.sh and .env trust the world's CA only\n`)
  const env = { ...world.env(), NODE_EXTRA_CA_CERTS: ca.file }
  const inputs: Record<string, string> = {
    ...world.inputs(),
    'auth-type': 'secret',
    'client-secret': world.scenario.azure.clientSecret
  }
  const runner = runnerFiles(dir)
  const envFile = path.join(dir, '.env')
  writeNewFile(
    envFile,
    [
      '# Written by `node dist/cli.js sim up` (removed by sim down): this world, for --inputs-file and',
      "# local-action. It holds the world's client secret and OIDC request token: keep it mode 0600.",
      ...Object.entries(inputs).map(([k, v]) => `INPUT_${k.toUpperCase()}=${envValue(v)}`),
      ...Object.entries(env).map(([k, v]) => `${k}=${envValue(v)}`),
      "# What the runner sets for a step: the runner's files and folders, here in DIR/runner.",
      ...Object.entries(runner).map(([k, v]) => `${k}=${envValue(v)}`)
    ].join('\n') + '\n'
  )
  const exports = Object.entries(env)
    .filter(([k]) => !SECRET_ENV.has(k))
    .map(([k, v]) =>
      k === 'PATH' ? `export PATH=${shellWord(world.helmBinDir)}:"$PATH"` : `export ${k}=${shellWord(v)}`
    )
  writeNewFile(
    path.join(dir, 'env.sh'),
    [
      "# Written by `node dist/cli.js sim up`: this world's environment for a shell (`. DIR/env.sh`),",
      '# without its secrets (those are in DIR/.env only).',
      ...exports
    ].join('\n') + '\n'
  )
  return envFile
}

/** What `sim up` prints: what a person needs, as `export` lines a shell takes; no secret. */
function upLines(dir: string, world: World, envFile: string): string {
  const inputs = world.inputs()
  const lines: Record<string, string> = {
    ARM_ENDPOINT: world.azure.armEndpoint,
    AUTHORITY_HOST: world.azure.authorityHost,
    AZURE_SUBSCRIPTION_ID: inputs['subscription-id'],
    AZURE_TENANT_ID: inputs['tenant-id'],
    AZURE_CLIENT_ID: inputs['client-id'],
    RESOURCE_GROUP: inputs['resource-group'],
    CLUSTER_NAME: inputs['cluster-name'],
    KUBE_API_SERVER: world.kube.url,
    KUBECONFIG: world.adminKubeconfigPath,
    INPUTS_FILE: envFile
  }
  return (
    [
      `# A simulated Azure + AKS world in ${dir}, until \`node dist/cli.js sim down --dir ${shellWord(dir)}\`.`,
      `# Its secrets (the client secret, the OIDC request token) are in ${envFile} only (mode 0600).`,
      `# Its environment for other programs (CA, helm and az stand-ins first on PATH): . ${shellWord(path.join(dir, 'env.sh'))}`,
      ...Object.entries(lines).map(([k, v]) => `export ${k}=${shellWord(v)}`)
    ].join('\n') + '\nREADY\n'
  )
}

export async function simUp(o: SimUpOptions, session: TerminalSession): Promise<number> {
  const dir = path.resolve(o.dir ?? defaultWorldDir())
  if (await worldRunning(dir)) {
    process.stderr.write(
      `sim up: ${dir} holds a running world; stop it with \`node dist/cli.js sim down --dir ${dir}\` or pick another --dir\n`
    )
    return 1
  }
  const bad = scenarioFileProblems(o.scenario)
  if (bad.length) {
    process.stderr.write(bad.map(p => `sim up: ${p}\n`).join(''))
    return 2
  }
  try {
    prepareWorldDir(dir)
  } catch (e) {
    if (!(e instanceof WorldDirError)) throw e
    process.stderr.write(`sim up: ${e.message}\n`)
    return 2
  }
  const { helmCommand, azCommand } = selfPaths()
  const world = await startWorld({ scenarioFile: o.scenario, dir, helmCommand, azCommand })
  let done!: () => void
  const stopped = new Promise<void>(resolve => (done = resolve))
  let stopping: Promise<void> | undefined
  // The admin kubeconfig and the client secret (in .env) must not outlive the world.
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      control.close()
      await world.close()
      removeWorldFiles(dir)
      done()
    })())
  const control = await listenForStop(dir, stop)
  const envFile = writeEnvFiles(dir, world)
  session.result(upLines(dir, world, envFile))
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(sig, () => void stop())
  await stopped
  return 0
}

export async function simDown(o: { dir?: string }): Promise<number> {
  const dir = path.resolve(o.dir ?? defaultWorldDir())
  if (!isWorldDir(dir)) {
    process.stderr.write(`sim down: no world in ${dir} (no ${MARKER} there); nothing was touched\n`)
    return 1
  }
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined
  if (uid !== undefined && lstatSync(dir).uid !== uid) {
    process.stderr.write(`sim down: ${dir} is owned by another user; nothing was touched\n`)
    return 1
  }
  try {
    if ((await askToStop(dir)) === 'none')
      process.stderr.write(`sim down: no world answers in ${dir} (it was killed?); removing what it wrote\n`)
  } catch (e) {
    process.stderr.write(`sim down: ${(e as Error).message}\n`)
    return 1
  }
  // Also when the world could not clean up after itself (killed): nothing it wrote stays behind.
  const left = removeWorldFiles(dir)
  if (left.length)
    process.stderr.write(
      `sim down: kept ${dir}: it holds files the world did not write (${left.slice(0, 5).join(', ')}${left.length > 5 ? ', ...' : ''})\n`
    )
  return 0
}

export interface SimulateCommandOptions {
  inputs: Record<string, string>
  scenario?: string
  report?: string
  /** Where to write the job summaries (Markdown). */
  summary?: string
  runs?: string
  concurrent?: string
  output: 'text' | 'json'
}

/**
 * The CLI's exit code for a simulation: the worst main or post step's, except 3 when every failure
 * is a main step that found drift (and every post step passed).
 */
export function simulateExitCode(
  runs: Array<{ exitCode: number; postExitCode?: number; outputs: Record<string, string> }>
): number {
  const worst = runs.reduce((w, r) => Math.max(w, r.exitCode, r.postExitCode ?? 0), 0)
  const failed = runs.filter(r => r.exitCode !== 0)
  const postsPassed = runs.every(r => !r.postExitCode)
  if (postsPassed && failed.length && failed.every(r => r.outputs.result === 'drifted')) return 3
  return worst
}

export async function simulateCommand(o: SimulateCommandOptions, session: TerminalSession): Promise<number> {
  const problems: string[] = []
  const runs = Number(o.runs ?? '1')
  const concurrent = Number(o.concurrent ?? '1')
  if (!Number.isInteger(runs) || runs < 1 || runs > SIMULATE_LIMITS.runs)
    problems.push(`--runs "${o.runs}": a whole number from 1 to ${SIMULATE_LIMITS.runs}`)
  if (!Number.isInteger(concurrent) || concurrent < 1 || concurrent > SIMULATE_LIMITS.concurrent)
    problems.push(`--concurrent "${o.concurrent}": a whole number from 1 to ${SIMULATE_LIMITS.concurrent}`)
  problems.push(...scenarioFileProblems(o.scenario, o.inputs))
  if (problems.length) {
    process.stderr.write(problems.map(p => `simulate: ${p}\n`).join(''))
    return 2
  }
  const { distDir, helmCommand, azCommand } = selfPaths()
  // In a terminal the children tag their progress lines so they can be kept live (see src/log).
  const progressTag = session.terminal ? `@@aks-rdma-progress-${randomBytes(6).toString('hex')}@@` : undefined
  const result = await simulate({
    scenarioFile: o.scenario,
    inputs: o.inputs,
    reportPath: o.report,
    runs,
    concurrent,
    distDir,
    helmCommand,
    azCommand,
    print: text => session.result(text),
    note: line => session.info(line),
    actionLog: quiet => session.childOutput(quiet ? { masksOnly: true } : { progressTag }),
    childEnv: progressTag ? { [PROGRESS_TAG_ENV]: progressTag } : {},
    printResults: o.output === 'text',
    // A terminal gets the report as plain text; the runner's log (simulate in a workflow), the Markdown.
    resultFormat: session.terminal ? 'text' : 'markdown',
    summaryPath: o.summary
  })
  if (o.output === 'json') session.result(JSON.stringify(result.report, null, 2) + '\n')
  return simulateExitCode(result.runs)
}
