// The command line tool (dist/cli.js): the action's modes with the same inputs as flags
// (`node dist/cli.js plan --resource-group rg --cluster-name aks1`), the simulator (`sim up`,
// `sim down`, `simulate`), the perftest / ibstat parsers, and the helm stand-in the simulator
// puts on PATH. Exit codes: 0 success, 1 the run failed, 2 bad usage or bad input.
import { EXIT, runMain } from '../src/main.js'
import { exportInputs, parseCliFlags } from '../src/run/inputs.js'

const USAGE = `Usage:
  node dist/cli.js <apply|verify|drift|plan> [--<input> <value> ...] [--output text|json]
  node dist/cli.js simulate [--scenario FILE] [--report FILE] [--runs N] [--concurrent N] [--<input> <value> ...]
  node dist/cli.js sim up [--scenario FILE] [--dir DIR]      start a simulated Azure + AKS world
  node dist/cli.js sim down [--dir DIR]                      stop it
  node dist/cli.js perftest parse FILE                        perftest output → JSON
  node dist/cli.js ibstat parse FILE                          ibstat / ibstatus / ibv_devinfo output → JSON
Inputs are those of action.yml (e.g. --resource-group, --cluster-name, --node-count); INPUT_<NAME>
environment variables are read too, as the runner sets them.`

const print = (s: string): void => {
  process.stdout.write(s)
}

function usage(message?: string): number {
  if (message) process.stderr.write(`${message}\n\n`)
  process.stderr.write(USAGE + '\n')
  return EXIT.usage
}

async function runMode(mode: string, rest: string[]): Promise<number> {
  const flags = parseCliFlags(rest, ['output'])
  if (flags.positional.length) flags.problems.push(`unexpected argument(s): ${flags.positional.join(' ')}`)
  const output = flags.options.output ?? 'text'
  if (output !== 'text' && output !== 'json')
    flags.problems.push(`--output "${output}": must be text or json`)
  if (flags.problems.length) return usage(flags.problems.join('\n'))
  exportInputs({ ...flags.inputs, mode })
  const options = { output: output as 'text' | 'json', cli: true }
  // Outside the runner, apply/verify/drift get the runner's files and the post step too.
  if (mode !== 'plan' && !process.env.GITHUB_ACTIONS)
    return (await import('../src/run/local-runner.js')).runLikeRunner(options, print)
  return runMain(options)
}

async function runParser(tool: 'perftest' | 'ibstat', rest: string[]): Promise<number> {
  if (rest[0] !== 'parse' || rest.length !== 2) return usage(`${tool}: expected "${tool} parse FILE"`)
  try {
    const text =
      tool === 'perftest'
        ? (await import('../src/parse/perftest.js')).perftestParseCommand(rest[1])
        : (await import('../src/parse/ibstat.js')).ibstatParseCommand(rest[1])
    process.stdout.write(text + '\n')
    return EXIT.success
  } catch (e) {
    process.stderr.write(`${tool} parse: ${(e as Error).message}\n`)
    return EXIT.usage
  }
}

/** The Azure SDK and the Kubernetes client need Node.js 22+ (the action runs on node24). */
function needsModernNode(command: string): number | undefined {
  const major = Number(process.versions.node.split('.')[0])
  if (major >= 22) return undefined
  process.stderr.write(
    `${command} needs Node.js 22 or newer (the action runs on node24); this is ${process.version}.\n` +
      `Run it with Node 24, e.g.: npx -y node@24 dist/cli.js ${command} ...\n`
  )
  return EXIT.usage
}

export async function cli(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  if (['apply', 'verify', 'drift', 'simulate', 'sim', '__helm'].includes(command ?? '')) {
    const refused = needsModernNode(command)
    if (refused !== undefined) return refused
  }
  switch (command) {
    case 'apply':
    case 'verify':
    case 'drift':
    case 'plan':
      return runMode(command, rest)
    case 'perftest':
    case 'ibstat':
      return runParser(command, rest)
    case 'simulate':
      return (await import('../sim/commands.js')).simulateCommand(rest, print)
    case 'sim': {
      const commands = await import('../sim/commands.js')
      if (rest[0] === 'up') return commands.simUp(rest.slice(1), print)
      if (rest[0] === 'down') return commands.simDown(rest.slice(1))
      return usage('sim: expected "sim up" or "sim down"')
    }
    case '__helm':
      // The helm stand-in the simulator puts first on PATH (not a user command).
      return (await import('../sim/helm/index.js')).helmStandin(rest, process.env, {
        stdout: s => process.stdout.write(s),
        stderr: s => process.stderr.write(s)
      })
    case undefined:
    case '-h':
    case '--help':
    case 'help':
      return usage()
    default:
      return usage(`unknown command "${command}"`)
  }
}

// A closed pipe (e.g. `| head`) is not an error of the tool.
process.stdout.on('error', e => {
  if ((e as NodeJS.ErrnoException).code !== 'EPIPE') throw e
})
process.exitCode = await cli(process.argv.slice(2))
