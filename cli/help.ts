// The CLI's help text, generated: the command list, and per command its options and the action
// inputs it reads (a mode's command: that mode's) with each input's default and description (from
// src/settings/input-definitions.ts), every line at most 80 columns wide (an 80-column terminal).
import type { InputDefinition } from '../src/settings/input-definitions.js'
import { aliasesOf, commandMode, COMMANDS, inputFlags, type CommandSpec, type OptionSpec } from './flags.js'

export const EXIT_CODES =
  'Exit codes: 0 success, 1 failure, 2 bad usage or input, 3 drift found (drift mode, with fail-on-drift),\n' +
  '130 / 143 cancelled by SIGINT / SIGTERM (the Lease released first).'

/** The widest line of every help page: an 80-column terminal shows each without wrapping. */
export const WIDTH = 80

/**
 * A word wider than `width` (an image reference with its digest, say) in pieces that fit: each cut
 * before an `@`, or after a `:` or `/`, where one fits, else at the width.
 */
function cut(word: string, width: number): string[] {
  const pieces: string[] = []
  let rest = word
  while (rest.length > width) {
    const head = rest.slice(0, width + 1)
    const at = Math.max(head.lastIndexOf('@'), head.lastIndexOf(':') + 1, head.lastIndexOf('/') + 1)
    const end = at > 0 && at <= width ? at : width
    pieces.push(rest.slice(0, end))
    rest = rest.slice(end)
  }
  return [...pieces, rest]
}

/** The words of `text`, a word wider than `width` cut into pieces that fit. */
function words(text: string, width: number): string[] {
  return text
    .split(/\s+/)
    .filter(Boolean)
    .flatMap(w => (w.length <= width ? [w] : cut(w, width)))
}

/** `text` in lines of at most `width` columns; lines after the first indented by `indent`. */
function wrap(text: string, width: number, indent = ''): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of words(text, width - indent.length)) {
    const limit = lines.length ? width - indent.length : width
    if (line && line.length + 1 + word.length > limit) {
      lines.push(line)
      line = word
    } else line = line ? `${line} ${word}` : word
  }
  if (line) lines.push(line)
  return lines.map((l, i) => (i ? indent + l : l))
}

/** Where a description starts when one of its words is wider than its column. */
const HANGING = 6

/**
 * `  --flag VALUE      description…` with the description wrapped under its column; a flag too wide
 * for its column on a line of its own (its values wrapped at `|` when they do not fit either), and so
 * is one whose description holds a word wider than the column: that description starts further left.
 */
function entry(flag: string, description: string, column: number): string[] {
  const longest = Math.max(0, ...description.split(/\s+/).map(w => w.length))
  const at = longest > WIDTH - column ? HANGING : column
  const text = wrap(description, WIDTH - at)
  const first = `  ${flag}`
  const out: string[] = []
  if (first.length + 2 > at || at !== column) {
    const flagLines = wrap(flag.replace(/\|/g, '| '), WIDTH - 2, '    ').map(l => l.replace(/\| /g, '|'))
    out.push(...flagLines.map(l => `  ${l}`))
    for (const t of text) out.push(' '.repeat(at) + t)
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
  const out = [...wrap(`Usage: ${usageLine(spec)}`, WIDTH, '         '), '', ...wrap(spec.summary, WIDTH), '']
  if (spec.positional) {
    out.push('Arguments:', ...entry(spec.positional.name, spec.positional.description, column), '')
  }
  out.push('Options:')
  for (const o of spec.options)
    out.push(...entry(optionFlag(o), o.description + (o.default ? ` (default: ${o.default})` : ''), column))
  const inputs = inputFlags(spec)
  if (inputs.length) {
    const mode = commandMode(spec) ?? spec.inputsOf
    out.push(
      '',
      ...wrap(
        mode
          ? `Inputs ${spec.name} reads (of action.yml; also read from INPUT_<NAME> variables, e.g. INPUT_NODE-COUNT):`
          : 'Inputs (those of action.yml; also read from INPUT_<NAME> variables, e.g. INPUT_NODE-COUNT):',
        WIDTH
      )
    )
    for (const i of inputs)
      out.push(
        ...entry(inputFlag(i, spec), i.description + (i.default ? ` (default: ${i.default})` : ''), column)
      )
  }
  out.push('', ...wrap(EXIT_CODES, WIDTH))
  return out.join('\n') + '\n'
}

export function mainHelp(): string {
  const column = 20
  const out = [
    'Usage: node dist/cli.js <command> [flags]',
    '',
    ...wrap(
      'aks-rdma-action from a terminal: the action modes with the inputs as flags, the simulated ' +
        'Azure + AKS world, and the perftest / ibstat parsers. Logs go to stderr, results to stdout.',
      WIDTH
    ),
    '',
    'Commands:'
  ]
  for (const c of COMMANDS) out.push(...entry(c.name, c.summary, column))
  out.push(
    '',
    ...wrap(
      'node dist/cli.js <command> --help lists its flags: the inputs of action.yml it reads, with ' +
        'their defaults. node dist/cli.js --version prints the version. Installed (npm install -g, ' +
        'or npx from the repository), the command is aks-rdma-action.',
      WIDTH
    ),
    ...wrap(EXIT_CODES, WIDTH)
  )
  return out.join('\n') + '\n'
}
