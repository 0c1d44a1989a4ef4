// The CLI's commands and their flags, parsed with node:util parseArgs (strict): every action input
// is a `--<input> VALUE` flag (generated from the input definitions), plus each command's own
// options. Misuse is a UsageError (exit 2) with a message of one line: an unknown flag names the
// closest one, a flag without its value says so, `--mode` is refused where the command is the mode.
import { parseArgs } from 'node:util'
import { INPUTS } from '../src/settings/input-definitions.js'

export class UsageError extends Error {}

export interface OptionSpec {
  name: string
  short?: string
  type: 'string' | 'boolean'
  /** Placeholder in help (`FILE`, `N`, `text|json`). */
  value?: string
  description: string
  default?: string
  /** Allowed values (checked here). */
  values?: readonly string[]
}

export interface CommandSpec {
  /** As typed: `apply`, `sim up`, `perftest parse`. */
  name: string
  summary: string
  /** Which action inputs are flags: all, all but mode (the command is the mode), none. */
  inputs: 'all' | 'all-but-mode' | 'none'
  options: OptionSpec[]
  /** A positional argument (the parsers' FILE). */
  positional?: { name: string; description: string }
}

const ENV_FILE: OptionSpec = {
  name: 'env-file',
  type: 'string',
  value: 'FILE',
  description:
    'NAME=value lines (INPUT_<NAME> inputs and environment variables, e.g. the .env `sim up` writes) loaded before the command runs; they override the environment, flags override them. A NODE_EXTRA_CA_CERTS in it is trusted by this process too.'
}
const VERBOSE: OptionSpec = {
  name: 'verbose',
  short: 'v',
  type: 'boolean',
  description: 'Show debug lines.'
}
const HELP: OptionSpec = { name: 'help', short: 'h', type: 'boolean', description: 'Show this help.' }
const OUTPUT_RUN: OptionSpec = {
  name: 'output',
  type: 'string',
  value: 'text|json',
  values: ['text', 'json'],
  default: 'text',
  description:
    'text: the outputs, where the summary and report are, and `export KUBECONFIG=…`; json: the JSON report, alone on stdout.'
}

export const COMMANDS: readonly CommandSpec[] = [
  {
    name: 'apply',
    summary:
      'Set up the cluster (Azure feature, node pool, credentials, the stack), then verify and benchmark it.',
    inputs: 'all-but-mode',
    options: [OUTPUT_RUN, ENV_FILE, VERBOSE, HELP]
  },
  {
    name: 'verify',
    summary: 'Run the verification checks and benchmarks only (creates nothing but short-lived test pods).',
    inputs: 'all-but-mode',
    options: [OUTPUT_RUN, ENV_FILE, VERBOSE, HELP]
  },
  {
    name: 'drift',
    summary:
      'Compare the desired state with the live one, read-only. Exit code 3 when drift is found (with fail-on-drift, the default).',
    inputs: 'all-but-mode',
    options: [OUTPUT_RUN, ENV_FILE, VERBOSE, HELP]
  },
  {
    name: 'plan',
    summary: 'Print every operation apply would do. No credentials, no network.',
    inputs: 'all-but-mode',
    options: [
      {
        ...OUTPUT_RUN,
        description: 'text: the plan as text; json: the plan as one JSON document.'
      },
      ENV_FILE,
      VERBOSE,
      HELP
    ]
  },
  {
    name: 'simulate',
    summary:
      'Start a simulated Azure + AKS world, run the action (main and post steps) against it as the runner would, print the job summary and outputs, and write the report.',
    inputs: 'all',
    options: [
      { name: 'scenario', type: 'string', value: 'FILE', description: 'Scenario YAML (see the README).' },
      {
        name: 'report',
        type: 'string',
        value: 'FILE',
        description: 'Where to write the report (default: $TMPDIR/aks-rdma-simulate-report.json).'
      },
      {
        name: 'runs',
        type: 'string',
        value: 'N',
        default: '1',
        description: 'Run the action N times in sequence.'
      },
      {
        name: 'concurrent',
        type: 'string',
        value: 'N',
        default: '1',
        description: 'Run the action N times at once (their logs are not shown).'
      },
      {
        ...OUTPUT_RUN,
        description:
          'text: the job summary, the outputs and the report path; json: the report, alone on stdout.'
      },
      ENV_FILE,
      VERBOSE,
      HELP
    ]
  },
  {
    name: 'sim up',
    summary:
      'Start a simulated world and keep it running until `sim down` or a signal. Prints NAME=value lines, then READY, and writes DIR/.env for `--env-file`.',
    inputs: 'none',
    options: [
      { name: 'scenario', type: 'string', value: 'FILE', description: 'Scenario YAML (see the README).' },
      {
        name: 'dir',
        type: 'string',
        value: 'DIR',
        description:
          "The world's folder (CA, kubeconfig, helm stand-in, .env). Default: $TMPDIR/aks-rdma-sim."
      },
      ENV_FILE,
      VERBOSE,
      HELP
    ]
  },
  {
    name: 'sim down',
    summary: 'Stop the world `sim up` started in DIR.',
    inputs: 'none',
    options: [
      { name: 'dir', type: 'string', value: 'DIR', description: 'Default: $TMPDIR/aks-rdma-sim.' },
      ENV_FILE,
      HELP
    ]
  },
  {
    name: 'perftest parse',
    summary:
      'perftest output (ib_write_bw, ib_write_lat, …) → JSON. Exit 1 when the output reports a failed run or perftest refused its command line (error.flag names the option), 2 when it is not perftest output.',
    inputs: 'none',
    options: [
      {
        name: 'tool',
        type: 'string',
        value: 'NAME',
        description: 'The tool, when the output has no title line (e.g. ib_read_lat).'
      },
      ENV_FILE,
      HELP
    ],
    positional: { name: 'FILE', description: 'The file to read; - for standard input.' }
  },
  {
    name: 'ibstat parse',
    summary:
      'ibstat / ibstatus / ibv_devinfo / ibv_devices / rdma link output → JSON. Exit 1 when the tool reported an error or no device (empty ibstat output included), 2 when it is not such output.',
    inputs: 'none',
    options: [ENV_FILE, HELP],
    positional: { name: 'FILE', description: 'The file to read; - for standard input.' }
  }
]

export function commandSpec(name: string): CommandSpec | undefined {
  return COMMANDS.find(c => c.name === name)
}

export function inputFlags(spec: CommandSpec): typeof INPUTS {
  if (spec.inputs === 'none') return []
  return INPUTS.filter(i => spec.inputs === 'all' || i.name !== 'mode')
}

export interface ParsedCommand {
  /** Action inputs given as flags, by input name. */
  inputs: Record<string, string>
  /** The command's own options. */
  options: Record<string, string | boolean | undefined>
  positional?: string
}

/** Edit distance (insertions, deletions, substitutions). */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const cur = [i]
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1))
    prev = cur
  }
  return prev[b.length]
}

/** The flag closest to `given` (without dashes), when one is close enough to be a typo. */
export function closestFlag(given: string, spec: CommandSpec): string | undefined {
  const names = [...inputFlags(spec).map(i => i.name), ...spec.options.map(o => o.name)]
  let best: { name: string; d: number } | undefined
  for (const name of names) {
    const d = name.startsWith(given) && given.length >= 3 ? 0.5 : editDistance(given, name)
    if (!best || d < best.d) best = { name, d }
  }
  if (!best) return undefined
  return best.d <= Math.max(2, Math.floor(given.length / 3)) ? best.name : undefined
}

function unknownOption(flag: string, spec: CommandSpec): UsageError {
  const bare = flag.replace(/^-+/, '')
  if (bare === 'mode' && spec.inputs === 'all-but-mode')
    return new UsageError(
      `--mode: not with the ${spec.name} command (the command is the mode: node dist/cli.js ${spec.name} …)`
    )
  const near = closestFlag(bare, spec)
  return new UsageError(
    near
      ? `${flag}: unknown option; did you mean --${near}?`
      : `${flag}: unknown option (node dist/cli.js ${spec.name} --help lists them)`
  )
}

/** Parses a command's arguments (after the command words); throws UsageError on misuse. */
export function parseCommand(spec: CommandSpec, argv: string[]): ParsedCommand {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = {}
  for (const i of inputFlags(spec)) options[i.name] = { type: 'string' }
  for (const o of spec.options) options[o.name] = { type: o.type, ...(o.short ? { short: o.short } : {}) }
  let parsed: ReturnType<typeof parseArgs>
  try {
    parsed = parseArgs({ args: argv, options, strict: true, allowPositionals: !!spec.positional })
  } catch (e) {
    const err = e as Error & { code?: string }
    const flag = /'(-[^' ]+)/.exec(err.message)?.[1]
    if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && flag) throw unknownOption(flag, spec)
    if (err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && flag) {
      const long = flag.replace(/^-+/, '')
      const takesValue = options[long]?.type === 'string' || /argument missing|ambiguous/.test(err.message)
      if (takesValue) {
        const input = INPUTS.find(i => i.name === long)
        const hint = input?.values
          ? ` (${input.values.join(', ')})`
          : input?.kind === 'boolean'
            ? ' (true or false)'
            : ''
        throw new UsageError(`${flag}: needs a value${hint}`)
      }
      throw new UsageError(`${flag}: takes no value`)
    }
    if (err.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
      const arg = /'([^']*)'/.exec(err.message)?.[1] ?? ''
      throw new UsageError(`unexpected argument "${arg}" (node dist/cli.js ${spec.name} --help)`)
    }
    throw new UsageError(err.message.split('\n')[0])
  }
  const inputs: Record<string, string> = {}
  const own: ParsedCommand['options'] = {}
  const inputNames = new Set(inputFlags(spec).map(i => i.name))
  for (const [k, v] of Object.entries(parsed.values)) {
    if (inputNames.has(k)) inputs[k] = v as string
    else own[k] = v as string | boolean
  }
  for (const o of spec.options) {
    const v = own[o.name]
    if (o.values && typeof v === 'string' && !o.values.includes(v))
      throw new UsageError(`--${o.name} "${v}": must be ${o.values.join(' or ')}`)
  }
  const positionals = parsed.positionals
  if (spec.positional) {
    if (positionals.length === 0 && !own.help)
      throw new UsageError(`${spec.name}: expected ${spec.positional.name} (- for standard input)`)
    if (positionals.length > 1) throw new UsageError(`unexpected argument "${positionals[1]}"`)
  }
  return { inputs, options: own, ...(positionals.length ? { positional: positionals[0] } : {}) }
}
