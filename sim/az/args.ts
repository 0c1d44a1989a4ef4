// The command line of the az stand-in, read as the real CLI's argparse reads it: words, then
// `--flag value` / `--flag=value` / short flags (`-g`, `-n`, …), boolean switches, and the few
// arguments that take every following word (`--labels a=b c=d`, nargs='*'); results printed as
// `--output` asks (json by default, tsv/table, none) after a simple `--query`; the signed-in account.
import type { AzProfile, Subscription } from './profile.js'
import { AzError } from './token.js'

export interface AzIo {
  stdout(text: string): void
  stderr(text: string): void
}

export const NOT_SIGNED_IN = "Please run 'az login' to setup account."
const BOOLEAN_FLAGS = new Set([
  '--service-principal',
  '--allow-no-subscriptions',
  '--identity',
  '--debug',
  '--verbose',
  '--only-show-errors',
  '--use-device-code',
  '--version',
  '--help',
  '--no-wait'
])
/** Arguments that take every word up to the next flag (argparse nargs='*'). */
const LIST_FLAGS = new Set(['--labels'])
const SHORT: Record<string, string> = {
  '-u': '--username',
  '-p': '--password',
  '-t': '--tenant',
  '-s': '--subscription',
  '-o': '--output',
  '-n': '--name',
  '-g': '--resource-group',
  '-c': '--node-count'
}

export interface Parsed {
  words: string[]
  flags: Map<string, string | true>
  /** The words of each nargs='*' argument given (possibly none, or one empty word). */
  lists: Map<string, string[]>
}

export function parse(argv: string[]): Parsed {
  const words: string[] = []
  const flags = new Map<string, string | true>()
  const lists = new Map<string, string[]>()
  const isFlag = (a: string | undefined): boolean => a !== undefined && a.length > 1 && a.startsWith('-')
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (!a.startsWith('-') || a === '-') {
      words.push(a)
      continue
    }
    const eq = a.indexOf('=')
    const name = SHORT[eq > 0 ? a.slice(0, eq) : a] ?? (eq > 0 ? a.slice(0, eq) : a)
    if (LIST_FLAGS.has(name)) {
      const list: string[] = eq > 0 ? [a.slice(eq + 1)] : []
      while (eq < 0 && i + 1 < argv.length && !isFlag(argv[i + 1])) list.push(argv[++i])
      lists.set(name, list)
    } else if (eq > 0) flags.set(name, a.slice(eq + 1))
    else if (BOOLEAN_FLAGS.has(name)) flags.set(name, true)
    else {
      const v = argv[i + 1]
      if (v === undefined) throw new AzError(`argument ${name}: expected one argument`, 2)
      flags.set(name, v)
      i++
    }
  }
  return { words, flags, lists }
}

export function value(p: Parsed, name: string): string | undefined {
  const v = p.flags.get(name)
  return typeof v === 'string' ? v : undefined
}

/** Prints a result as `--output` asks (json by default; tsv; none), after a simple `--query key`. */
export function print(io: AzIo, p: Parsed, result: unknown): void {
  let out = result
  const query = value(p, '--query')
  if (query) for (const key of query.split('.')) out = (out as Record<string, unknown> | undefined)?.[key]
  const format = value(p, '--output') ?? 'json'
  if (format === 'none') return
  if (format === 'tsv' || format === 'table') {
    const row = (o: unknown): string =>
      o !== null && typeof o === 'object'
        ? Object.values(o)
            .map(v => (typeof v === 'object' ? '' : String(v)))
            .join('\t')
        : String(o ?? '')
    io.stdout((Array.isArray(out) ? out.map(row) : [row(out)]).join('\n') + '\n')
    return
  }
  io.stdout(JSON.stringify(out, null, 2) + '\n')
}

export function signedIn(profile: AzProfile): Subscription {
  const subs = profile.subscriptions()
  const current = subs.find(s => s.isDefault) ?? subs[0]
  if (!current) throw new AzError(NOT_SIGNED_IN)
  return current
}
