// The CLI's help text, generated: the command list, and per command its options and the action
// inputs it reads (a mode's command: that mode's) with each input's default and description (from
// src/settings/input-definitions.ts).
import type { InputDefinition } from '../src/settings/input-definitions.js'
import { aliasesOf, commandMode, COMMANDS, inputFlags, type CommandSpec, type OptionSpec } from './flags.js'

export const EXIT_CODES =
  'Exit codes: 0 success, 1 failure, 2 bad usage or input, 3 drift found (drift mode, with fail-on-drift).'

const WIDTH = 100

function wrap(text: string, width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else line = line ? `${line} ${word}` : word
  }
  if (line) lines.push(line)
  return lines
}

/** `  --flag VALUE      description…` with the description wrapped under its column. */
function entry(flag: string, description: string, column: number): string[] {
  const text = wrap(description, WIDTH - column)
  const first = `  ${flag}`
  const out: string[] = []
  if (first.length + 2 > column) {
    out.push(first)
    for (const t of text) out.push(' '.repeat(column) + t)
  } else {
    out.push(first.padEnd(column) + (text[0] ?? ''))
    for (const t of text.slice(1)) out.push(' '.repeat(column) + t)
  }
  return out
}

const PLACEHOLDER: Record<InputDefinition['kind'], string> = {
  string: 'VALUE',
  boolean: 'true|false',
  enum: '',
  integer: 'N',
  number: 'X',
  duration: 'DURATION',
  path: 'FILE',
  secret: 'SECRET'
}

function inputFlag(i: InputDefinition, spec: CommandSpec): string {
  const value = i.kind === 'enum' ? (i.values ?? []).join('|') : PLACEHOLDER[i.kind]
  return `${[i.name, ...aliasesOf(spec, i.name)].map(n => `--${n}`).join(', ')} ${value}`
}

function optionFlag(o: OptionSpec): string {
  const names = o.short ? `-${o.short}, --${o.name}` : `--${o.name}`
  return o.type === 'string' ? `${names} ${o.value ?? 'VALUE'}` : names
}

function usageLine(spec: CommandSpec): string {
  const parts = [`node dist/cli.js ${spec.name}`]
  if (spec.inputs !== 'none') parts.push('[--<input> VALUE ...]')
  parts.push('[options]')
  if (spec.positional) parts.push(spec.positional.name)
  return parts.join(' ')
}

export function commandHelp(spec: CommandSpec): string {
  const column = 34
  const out = [`Usage: ${usageLine(spec)}`, '', ...wrap(spec.summary, WIDTH), '']
  if (spec.positional) {
    out.push('Arguments:', ...entry(spec.positional.name, spec.positional.description, column), '')
  }
  out.push('Options:')
  for (const o of spec.options)
    out.push(...entry(optionFlag(o), o.description + (o.default ? ` (default: ${o.default})` : ''), column))
  const inputs = inputFlags(spec)
  if (inputs.length) {
    const mode = commandMode(spec)
    out.push(
      '',
      mode
        ? `Inputs ${mode} reads (of action.yml; also read from INPUT_<NAME> variables, e.g. INPUT_NODE-COUNT):`
        : 'Inputs (those of action.yml; also read from INPUT_<NAME> variables, e.g. INPUT_NODE-COUNT):'
    )
    for (const i of inputs)
      out.push(
        ...entry(inputFlag(i, spec), i.description + (i.default ? ` (default: ${i.default})` : ''), column)
      )
  }
  out.push('', EXIT_CODES)
  return out.join('\n') + '\n'
}

export function mainHelp(): string {
  const column = 20
  const out = [
    'Usage: node dist/cli.js <command> [flags]',
    '',
    'aks-rdma-action from a terminal: the action modes with the inputs as flags, the simulated',
    'Azure + AKS world, and the perftest / ibstat parsers. Logs go to stderr, results to stdout.',
    '',
    'Commands:'
  ]
  for (const c of COMMANDS) out.push(...entry(c.name, c.summary, column))
  out.push(
    '',
    'node dist/cli.js <command> --help lists its flags: the inputs of action.yml it reads, with their defaults.',
    'node dist/cli.js --version prints the version. Installed (npm install -g, or npx from the repository),',
    'the command is aks-rdma-action.',
    EXIT_CODES
  )
  return out.join('\n') + '\n'
}
