// The simulator's commands: `sim up` (start a world, print the environment a client needs as
// NAME=value lines, then READY, and run until `sim down` or a signal), `sim down`, and
// `simulate` (flags → simulate()).
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseCliFlags } from '../src/run/inputs.js'
import { simulate } from './simulate.js'
import { startWorld } from './world.js'

const DEFAULT_DIR = path.join(tmpdir(), 'aks-rdma-sim')

/** The running bundle (dist/cli.js) and the helm stand-in command line that re-enters it. */
function selfPaths(): { distDir: string; helmCommand: string[] } {
  const self = fileURLToPath(import.meta.url)
  return { distDir: path.dirname(self), helmCommand: [process.execPath, self, '__helm'] }
}

export async function simUp(argv: string[], print: (s: string) => void): Promise<number> {
  const flags = parseCliFlags(argv, ['scenario', 'dir'])
  if (flags.problems.length || flags.positional.length) {
    process.stderr.write(
      `sim up: ${[...flags.problems, ...flags.positional.map(p => `unexpected argument ${p}`)].join('\n')}\n`
    )
    return 2
  }
  const dir = flags.options.dir ?? DEFAULT_DIR
  const world = await startWorld({
    scenarioFile: flags.options.scenario,
    dir,
    helmCommand: selfPaths().helmCommand
  })
  const env = world.env()
  const inputs: Record<string, string> = {
    ...world.inputs(),
    'auth-type': 'secret',
    'client-secret': world.scenario.azure.clientSecret
  }
  const envFile = path.join(dir, '.env')
  // For `npx @github/local-action . src/main.ts <envFile>`: its getIDToken is not implemented, so
  // the .env selects the client-secret path.
  writeFileSync(
    envFile,
    [
      ...Object.entries(inputs).map(([k, v]) => `INPUT_${k.toUpperCase()}=${v}`),
      ...Object.entries(env).map(([k, v]) => `${k}=${v}`)
    ].join('\n') + '\n',
    { mode: 0o600 }
  )
  writeFileSync(path.join(dir, 'pid'), String(process.pid))
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
    LOCAL_ACTION_ENV_FILE: envFile
  }
  for (const [k, v] of Object.entries(lines)) print(`${k}=${v}\n`)
  print('READY\n')
  await new Promise<void>(resolve => {
    for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(sig, () => resolve())
  })
  await world.close()
  rmSync(path.join(dir, 'pid'), { force: true })
  return 0
}

export async function simDown(argv: string[]): Promise<number> {
  const flags = parseCliFlags(argv, ['dir'])
  const dir = flags.options.dir ?? DEFAULT_DIR
  const pidFile = path.join(dir, 'pid')
  if (!existsSync(pidFile)) {
    process.stderr.write(`sim down: no running world in ${dir}\n`)
    return 1
  }
  const pid = Number(readFileSync(pidFile, 'utf8'))
  try {
    process.kill(pid, 'SIGTERM')
  } catch {
    process.stderr.write(`sim down: process ${pid} is not running\n`)
  }
  for (let i = 0; i < 100 && existsSync(pidFile); i++) await new Promise(r => setTimeout(r, 100))
  rmSync(pidFile, { force: true })
  return 0
}

export async function simulateCommand(argv: string[], print: (s: string) => void): Promise<number> {
  const flags = parseCliFlags(argv, ['scenario', 'report', 'runs', 'concurrent'])
  const runs = Number(flags.options.runs ?? '1')
  const concurrent = Number(flags.options.concurrent ?? '1')
  if (!Number.isInteger(runs) || runs < 1)
    flags.problems.push(`--runs "${flags.options.runs}": a whole number ≥ 1`)
  if (!Number.isInteger(concurrent) || concurrent < 1)
    flags.problems.push(`--concurrent "${flags.options.concurrent}": a whole number ≥ 1`)
  if (flags.positional.length) flags.problems.push(`unexpected argument(s): ${flags.positional.join(' ')}`)
  if (flags.options.scenario && !existsSync(flags.options.scenario))
    flags.problems.push(`--scenario "${flags.options.scenario}": file not found`)
  if (flags.problems.length) {
    process.stderr.write(`simulate: ${flags.problems.join('\n')}\n`)
    return 2
  }
  const { distDir, helmCommand } = selfPaths()
  const result = await simulate({
    scenarioFile: flags.options.scenario,
    inputs: flags.inputs,
    reportPath: flags.options.report,
    runs,
    concurrent,
    distDir,
    helmCommand,
    print
  })
  return result.exitCode
}
