// The simulator's commands (flags parsed by the CLI): `sim up` (start a world, write DIR/.env for
// `--env-file`, print the environment a client needs as NAME=value lines, then READY, and run until
// `sim down` or a signal; refuses a folder that holds a live world), `sim down` (stops it and
// removes everything it wrote: .env with the client secret, the admin kubeconfig, the CA, the helm
// and az stand-ins and their state; the folder too when that leaves it empty), and `simulate`.
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { PROGRESS_TAG_ENV } from '../src/log/terminal-commands.js'
import type { TerminalSession } from '../src/log/terminal-session.js'
import { INPUTS } from '../src/settings/input-definitions.js'
import { isRdmaSize, vmSizeSpec } from './kube/hardware.js'
import { loadScenario, ScenarioError, type Scenario } from './scenario.js'
import { indexProblems } from './scenario-schema.js'
import { simulate } from './simulate.js'
import { removeWorldFiles, startWorld } from './world.js'

export const DEFAULT_DIR = path.join(tmpdir(), 'aks-rdma-sim')

/** The running bundle (dist/cli.js) and the helm and az stand-in command lines that re-enter it. */
function selfPaths(): { distDir: string; helmCommand: string[]; azCommand: string[] } {
  const self = fileURLToPath(import.meta.url)
  return {
    distDir: path.dirname(self),
    helmCommand: [process.execPath, self, '__helm'],
    azCommand: [process.execPath, self, '__az']
  }
}

/** The pid of the `sim up` process serving DIR, when it is still alive. */
export function liveWorldPid(dir: string): number | undefined {
  const pidFile = path.join(dir, 'pid')
  if (!existsSync(pidFile)) return undefined
  const pid = Number(readFileSync(pidFile, 'utf8'))
  if (!Number.isInteger(pid) || pid <= 0) return undefined
  try {
    process.kill(pid, 0)
    return pid
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM' ? pid : undefined
  }
}

/** A dotenv value: as it is when plain, single-quoted otherwise (read literally by node and dotenv). */
function envValue(v: string): string {
  return /^[^\s#'"\\`$]*$/.test(v) ? v : `'${v}'`
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

export async function simUp(o: SimUpOptions, session: TerminalSession): Promise<number> {
  const dir = path.resolve(o.dir ?? DEFAULT_DIR)
  const live = liveWorldPid(dir)
  if (live !== undefined) {
    process.stderr.write(
      `sim up: ${dir} holds a running world (process ${live}); stop it with \`node dist/cli.js sim down --dir ${dir}\` or pick another --dir\n`
    )
    return 1
  }
  if (o.scenario && !existsSync(o.scenario)) {
    process.stderr.write(`sim up: --scenario ${o.scenario}: file not found\n`)
    return 2
  }
  const bad = scenarioFileProblems(o.scenario)
  if (bad.length) {
    process.stderr.write(bad.map(p => `sim up: ${p}\n`).join(''))
    return 2
  }
  const { helmCommand, azCommand } = selfPaths()
  const world = await startWorld({ scenarioFile: o.scenario, dir, helmCommand, azCommand })
  writeFileSync(path.join(dir, 'pid'), String(process.pid))
  const env = world.env()
  const inputs: Record<string, string> = {
    ...world.inputs(),
    'auth-type': 'secret',
    'client-secret': world.scenario.azure.clientSecret
  }
  // Everything `node dist/cli.js apply --env-file DIR/.env` (and @github/local-action, whose
  // getIDToken is not implemented, hence the client-secret path) needs to reach this world.
  const envFile = path.join(dir, '.env')
  writeFileSync(
    envFile + '.tmp',
    [
      '# Written by `node dist/cli.js sim up`: this world, for --env-file (removed by sim down).',
      ...Object.entries(inputs).map(([k, v]) => `INPUT_${k.toUpperCase()}=${envValue(v)}`),
      ...Object.entries(env).map(([k, v]) => `${k}=${envValue(v)}`)
    ].join('\n') + '\n',
    { mode: 0o600 }
  )
  renameSync(envFile + '.tmp', envFile)
  const lines: Record<string, string> = {
    ARM_ENDPOINT: world.azure.armEndpoint,
    AUTHORITY_HOST: world.azure.authorityHost,
    AZURE_SUBSCRIPTION_ID: inputs['subscription-id'],
    AZURE_TENANT_ID: inputs['tenant-id'],
    AZURE_CLIENT_ID: inputs['client-id'],
    AZURE_CLIENT_SECRET: world.scenario.azure.clientSecret,
    RESOURCE_GROUP: inputs['resource-group'],
    CLUSTER_NAME: inputs['cluster-name'],
    KUBE_API_SERVER: world.kube.url,
    ...env,
    ENV_FILE: envFile,
    LOCAL_ACTION_ENV_FILE: envFile
  }
  session.result(
    Object.entries(lines)
      .map(([k, v]) => `${k}=${v}\n`)
      .join('') + 'READY\n'
  )
  await new Promise<void>(resolve => {
    for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(sig, () => resolve())
  })
  rmSync(envFile, { force: true })
  await world.close()
  // The admin kubeconfig and the client secret (in .env) must not outlive the world.
  removeWorldFiles(dir, ['pid'])
  return 0
}

export async function simDown(o: { dir?: string }): Promise<number> {
  const dir = path.resolve(o.dir ?? DEFAULT_DIR)
  const pidFile = path.join(dir, 'pid')
  if (!existsSync(pidFile)) {
    process.stderr.write(`sim down: no running world in ${dir}\n`)
    return 1
  }
  const pid = Number(readFileSync(pidFile, 'utf8'))
  let running = true
  try {
    process.kill(pid, 'SIGTERM')
  } catch {
    running = false
    process.stderr.write(`sim down: process ${pid} is not running\n`)
  }
  // A running world removes its files as it stops; wait for that (at most 10 s).
  for (let i = 0; running && i < 100 && existsSync(pidFile); i++) await new Promise(r => setTimeout(r, 100))
  // Also when the world could not clean up after itself (killed): nothing of it stays behind.
  removeWorldFiles(dir, ['.env', 'pid'])
  return 0
}

export interface SimulateCommandOptions {
  inputs: Record<string, string>
  scenario?: string
  report?: string
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
  if (!Number.isInteger(runs) || runs < 1) problems.push(`--runs "${o.runs}": a whole number ≥ 1`)
  if (!Number.isInteger(concurrent) || concurrent < 1)
    problems.push(`--concurrent "${o.concurrent}": a whole number ≥ 1`)
  if (o.scenario && !existsSync(o.scenario)) problems.push(`--scenario "${o.scenario}": file not found`)
  else problems.push(...scenarioFileProblems(o.scenario, o.inputs))
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
    printResults: o.output === 'text'
  })
  if (o.output === 'json') session.result(JSON.stringify(result.report, null, 2) + '\n')
  return simulateExitCode(result.runs)
}
