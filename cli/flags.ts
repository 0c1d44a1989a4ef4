// The CLI's commands and their flags, parsed strictly with node:util parseArgs; each input is a flag.
// Rules for flags and misuse (exit 2): docs/running-locally.md#flags.
import { parseArgs } from 'node:util'
import { INPUTS, inputModes, MODES, type InputDefinition } from '../src/settings/input-definitions.js'
import type { Mode } from '../src/settings/settings.js'
import { editDistance } from '../src/util/closest.js'

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
  /** A command that is not a mode but reads the inputs one reads (status: drift's). */
  inputsOf?: Mode
  options: OptionSpec[]
  /** A positional argument (the parsers' FILE). */
  positional?: { name: string; description: string }
}

/** The flag of a file of inputs (never `--env-file`: Node reads that itself, node-argv.ts). */
export const INPUTS_FILE_FLAG = '--inputs-file'

const INPUTS_FILE: OptionSpec = {
  name: INPUTS_FILE_FLAG.slice(2),
  type: 'string',
  value: 'FILE',
  description:
    'NAME=value lines (INPUT_<NAME> inputs and environment variables, e.g. the .env `sim up` writes) loaded before the command runs; they override the environment, flags override them. A NODE_EXTRA_CA_CERTS in it is trusted by this process too. Formerly --env-file, which Node itself reads: never pass that.'
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
  short: 'o',
  default: 'text',
  description:
    'text: the result as plain text, where the summary and report are, and `export KUBECONFIG=…`; json: the JSON report, alone on stdout.'
}

const DRY_RUN: OptionSpec = {
  name: 'dry-run',
  type: 'boolean',
  description:
    'Remove nothing: read the cluster and list what uninstall would remove and what it would keep, and why (no write, no Lease; read permissions only). -o json: the same as one JSON document.'
}

/** Flags that are other names of an input (kubectl's `--context`). */
export const INPUT_ALIASES: Readonly<Record<string, string>> = { context: 'kube-context' }

export const COMMANDS: readonly CommandSpec[] = [
  {
    name: 'apply',
    summary:
      'Set up the cluster (Azure feature, node pool, credentials, the stack), then verify and benchmark it.',
    inputs: 'all-but-mode',
    options: [OUTPUT_RUN, INPUTS_FILE, VERBOSE, HELP]
  },
  {
    name: 'verify',
    summary:
      'Run the verification checks and benchmarks only (creates nothing but short-lived test pods). Given no Azure cluster (--resource-group, --cluster-name), it uses --kubeconfig or $KUBECONFIG and makes no Azure call.',
    inputs: 'all-but-mode',
    options: [OUTPUT_RUN, INPUTS_FILE, VERBOSE, HELP]
  },
  {
    name: 'drift',
    summary:
      'Compare the desired state with the live one, read-only. Exit code 3 when drift is found (with fail-on-drift, the default). Given no Azure cluster, it uses --kubeconfig or $KUBECONFIG and compares the cluster only; --kubeconfig with --subscription-id, --resource-group and --cluster-name compares the Azure resources too.',
    inputs: 'all-but-mode',
    options: [OUTPUT_RUN, INPUTS_FILE, VERBOSE, HELP]
  },
  {
    name: 'uninstall',
    summary:
      'Remove from the cluster what the action installed, in reverse order and under the Lease (never what it did not create); with cleanup node-pool or cluster, then that too when the action created it. --dry-run lists what it would remove and keep, removing nothing.',
    inputs: 'all-but-mode',
    options: [DRY_RUN, OUTPUT_RUN, INPUTS_FILE, VERBOSE, HELP]
  },
  {
    name: 'status',
    summary:
      'What the action installed on the cluster (helm releases, chart, version, status; whose they are), for which node pools (nodes, ready), who holds the run Lease, and the last run. Read-only: no write, read permissions only. Reads the inputs drift reads, and reaches the cluster as drift does.',
    inputs: 'all-but-mode',
    inputsOf: 'drift',
    options: [
      {
        ...OUTPUT_RUN,
        description: 'text: the status in 80 columns; json: one JSON document (numbers as numbers).'
      },
      INPUTS_FILE,
      VERBOSE,
      HELP
    ]
  },
  {
    name: 'plan',
    summary:
      'Print every operation apply would do (with --mode uninstall: what uninstall would remove). No credentials, no network.',
    inputs: 'all-but-mode',
    options: [
      {
        name: 'mode',
        type: 'string',
        value: 'apply|uninstall',
        values: ['apply', 'uninstall'],
        default: 'apply',
        description: 'Which mode to plan: what apply would do, or what uninstall would remove.'
      },
      {
        ...OUTPUT_RUN,
        description: 'text: the plan as text; json: the plan as one JSON document.'
      },
      INPUTS_FILE,
      VERBOSE,
      HELP
    ]
  },
  {
    name: 'simulate',
    summary:
      'Start a simulated Azure + AKS world, run the action (main and post steps) against it as the runner would, print the result, and write the report.',
    inputs: 'all',
    options: [
      { name: 'scenario', type: 'string', value: 'FILE', description: 'Scenario YAML (see the README).' },
      {
        name: 'report',
        type: 'string',
        value: 'FILE',
        description:
          'Where to write the report (default: report.json in a new private folder $TMPDIR/aks-rdma-simulate-XXXXXX).'
      },
      {
        name: 'summary',
        type: 'string',
        value: 'FILE',
        description: 'Also write the job summary (the Markdown a workflow run shows) to FILE.'
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
          'text: the result as plain text (under GitHub Actions: the job summary) and the report path; json: the report, alone on stdout.'
      },
      INPUTS_FILE,
      VERBOSE,
      HELP
    ]
  },
  {
    name: 'sim up',
    summary:
      'Start a simulated world and keep it running until `sim down` or a signal. Prints NAME=value lines, then READY, and writes DIR/.env for `--inputs-file`.',
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
      INPUTS_FILE,
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
      INPUTS_FILE,
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
      INPUTS_FILE,
      HELP
    ],
    positional: { name: 'FILE', description: 'The file to read; - for standard input.' }
  },
  {
    name: 'ibstat parse',
    summary:
      'ibstat / ibstatus / ibv_devinfo / ibv_devices / rdma link output → JSON. Exit 1 when the tool reported an error or no device (empty ibstat output included), 2 when it is not such output.',
    inputs: 'none',
    options: [INPUTS_FILE, HELP],
    positional: { name: 'FILE', description: 'The file to read; - for standard input.' }
  }
]

export function commandSpec(name: string): CommandSpec | undefined {
  return COMMANDS.find(c => c.name === name)
}

/** The mode a command is (apply, verify, drift, plan), if it is one. */
export function commandMode(spec: CommandSpec): Mode | undefined {
  return (MODES as readonly string[]).includes(spec.name) ? (spec.name as Mode) : undefined
}

/** The inputs a command accepts as flags: all but mode where the command is the mode. */
function acceptedInputs(spec: CommandSpec): readonly InputDefinition[] {
  if (spec.inputs === 'none') return []
  // Where the command is the mode, plan's `--mode` stands for plan-mode.
  return INPUTS.filter(i => spec.inputs === 'all' || (i.name !== 'mode' && i.name !== 'plan-mode'))
}

/** The inputs a command reads (what its help lists): a mode's command, those of that mode. */
export function inputFlags(spec: CommandSpec): readonly InputDefinition[] {
  const mode = commandMode(spec) ?? spec.inputsOf
  return acceptedInputs(spec).filter(i => !mode || inputModes(i).includes(mode))
}

/** The alias flags of the inputs a command reads. */
export function aliasesOf(spec: CommandSpec, input: string): string[] {
  const read = new Set(inputFlags(spec).map(i => i.name))
  return Object.entries(INPUT_ALIASES)
    .filter(([, target]) => target === input && read.has(target))
    .map(([alias]) => alias)
}

export interface ParsedCommand {
  /** Action inputs given as flags, by input name. */
  inputs: Record<string, string>
  /** Inputs given as flags that this command does not read (a note, not an error). */
  unread: string[]
  /** The command's own options. */
  options: Record<string, string | boolean | undefined>
  positional?: string
}

export { editDistance }

/** The flag closest to `given` (without dashes), when one is close enough to be a typo. */
export function closestFlag(given: string, spec: CommandSpec): string | undefined {
  const names = [
    ...inputFlags(spec).flatMap(i => [i.name, ...aliasesOf(spec, i.name)]),
    ...spec.options.map(o => o.name)
  ]
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

/** Boolean inputs whose flag alone turns them on: `--all-pools` is `--all-pools true`. */
export const BARE_FLAG_INPUTS: ReadonlySet<string> = new Set(['all-pools'])

/** `--all-pools` not followed by true or false becomes `--all-pools true`. */
function withBareFlags(argv: string[]): string[] {
  const out: string[] = []
  for (let i = 0; i < argv.length; i++) {
    out.push(argv[i])
    if (argv[i] === '--') {
      out.push(...argv.slice(i + 1))
      break
    }
    const name = argv[i].startsWith('--') ? argv[i].slice(2) : ''
    if (BARE_FLAG_INPUTS.has(name) && !['true', 'false'].includes(argv[i + 1] ?? '')) out.push('true')
  }
  return out
}

/** Parses a command's arguments (after the command words); throws UsageError on misuse. */
export function parseCommand(spec: CommandSpec, rawArgv: string[]): ParsedCommand {
  const argv = withBareFlags(rawArgv)
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = {}
  const accepted = acceptedInputs(spec)
  for (const i of accepted) options[i.name] = { type: 'string' }
  for (const [alias, target] of Object.entries(INPUT_ALIASES))
    if (accepted.some(i => i.name === target)) options[alias] = { type: 'string' }
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
  const inputNames = new Set(accepted.map(i => i.name))
  for (const [k, v] of Object.entries(parsed.values)) {
    const input = INPUT_ALIASES[k] ?? k
    if (!inputNames.has(input)) own[k] = v as string | boolean
    else if (input !== k && parsed.values[input] !== undefined)
      throw new UsageError(`--${k} and --${input} are the same input: give one`)
    else inputs[input] = v as string
  }
  const read = new Set(inputFlags(spec).map(i => i.name))
  const unread = Object.keys(inputs).filter(k => !read.has(k))
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
  return { inputs, unread, options: own, ...(positionals.length ? { positional: positionals[0] } : {}) }
}
