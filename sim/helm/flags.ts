// Command-line parsing with the rules of helm's flag library (spf13/pflag): flags anywhere among the
// arguments, `--name value`, `--name=value`, `-n value`, `-nvalue`, repeatable string arrays, bool
// flags with an optional `=false`, and `--` ending flags. Errors carry helm's wording.
import { GoDurationError, parseGoDurationNs } from '../go-duration.js'

export type FlagKind = 'string' | 'bool' | 'array' | 'int' | 'duration'

export interface FlagSpec {
  name: string
  short?: string
  kind: FlagKind
}

export type FlagValues = Record<string, string | boolean | string[] | number | undefined>

/** Flags every helm command accepts. */
export const GLOBAL_FLAGS: FlagSpec[] = [
  { name: 'kubeconfig', kind: 'string' },
  { name: 'kube-context', kind: 'string' },
  { name: 'namespace', short: 'n', kind: 'string' },
  { name: 'debug', kind: 'bool' },
  { name: 'repository-config', kind: 'string' },
  { name: 'repository-cache', kind: 'string' },
  { name: 'registry-config', kind: 'string' },
  { name: 'burst-limit', kind: 'int' },
  { name: 'qps', kind: 'string' },
  { name: 'help', short: 'h', kind: 'bool' }
]

export class FlagError extends Error {}

/** Go's time.ParseDuration (helm's --timeout): `5m0s`, `300s`, `1h30m`, `1.5h`, `250ms`. Returns ms. */
export function parseHelmDuration(text: string): number {
  try {
    return parseGoDurationNs(text) / 1e6
  } catch (e) {
    throw e instanceof GoDurationError ? new FlagError(e.message) : e
  }
}

function convert(spec: FlagSpec, raw: string, shown: string): string | boolean | number {
  if (spec.kind === 'bool') {
    const v = raw.toLowerCase()
    if (['1', 't', 'true'].includes(v)) return true
    if (['0', 'f', 'false'].includes(v)) return false
    throw new FlagError(
      `invalid argument "${raw}" for "${shown}" flag: strconv.ParseBool: parsing "${raw}": invalid syntax`
    )
  }
  if (spec.kind === 'int') {
    if (!/^[+-]?\d+$/.test(raw)) {
      throw new FlagError(
        `invalid argument "${raw}" for "${shown}" flag: strconv.ParseInt: parsing "${raw}": invalid syntax`
      )
    }
    return Number(raw)
  }
  if (spec.kind === 'duration') {
    try {
      return parseHelmDuration(raw)
    } catch (e) {
      throw new FlagError(`invalid argument "${raw}" for "${shown}" flag: ${(e as Error).message}`)
    }
  }
  return raw
}

/** Parses argv against the command's flags plus the global ones; returns positionals and values by long name. */
export function parseFlags(argv: string[], specs: FlagSpec[]): { args: string[]; flags: FlagValues } {
  const all = [...specs, ...GLOBAL_FLAGS]
  const byLong = new Map(all.map(s => [s.name, s]))
  const byShort = new Map(all.filter(s => s.short).map(s => [s.short!, s]))
  const flags: FlagValues = {}
  const args: string[] = []
  const set = (spec: FlagSpec, raw: string, shown: string): void => {
    const v = convert(spec, raw, shown)
    if (spec.kind === 'array') {
      const prev = (flags[spec.name] as string[] | undefined) ?? []
      flags[spec.name] = [...prev, raw]
    } else flags[spec.name] = v
  }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--') {
      args.push(...argv.slice(i + 1))
      break
    }
    if (a.startsWith('--') && a.length > 2) {
      const eq = a.indexOf('=')
      const name = eq >= 0 ? a.slice(2, eq) : a.slice(2)
      const spec = byLong.get(name)
      if (!spec) throw new FlagError(`unknown flag: --${name}`)
      const shown = `--${name}`
      if (eq >= 0) set(spec, a.slice(eq + 1), shown)
      else if (spec.kind === 'bool') set(spec, 'true', shown)
      else {
        if (i + 1 >= argv.length) throw new FlagError(`flag needs an argument: --${name}`)
        set(spec, argv[++i], shown)
      }
      continue
    }
    if (a.startsWith('-') && a.length > 1) {
      // Shorthand cluster: -ab, -nvalue, -n value, -n=value
      let j = 1
      while (j < a.length) {
        const c = a[j]
        const spec = byShort.get(c)
        if (!spec) throw new FlagError(`unknown shorthand flag: '${c}' in ${a}`)
        const shown = `-${c}, --${spec.name}`
        const rest = a.slice(j + 1)
        if (spec.kind === 'bool') {
          if (rest.startsWith('=')) {
            set(spec, rest.slice(1), shown)
            break
          }
          set(spec, 'true', shown)
          j++
          continue
        }
        if (rest.length > 0) set(spec, rest.startsWith('=') ? rest.slice(1) : rest, shown)
        else {
          if (i + 1 >= argv.length) throw new FlagError(`flag needs an argument: '${c}' in -${c}`)
          set(spec, argv[++i], shown)
        }
        break
      }
      continue
    }
    args.push(a)
  }
  return { args, flags }
}
