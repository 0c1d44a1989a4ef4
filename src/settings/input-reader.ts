// Reads and checks each input by its definition (input-definitions.ts), collecting every problem and
// warning and the values to mask. No network access. Limits: docs/security.md#bounded-inputs.
import { parse as parseYaml, YAMLParseError } from 'yaml'
import { formatDuration, parseDuration } from '../util/duration.js'
import { echoValue } from '../util/echo.js'
import { FileInputError, readBoundedFile } from '../util/files.js'
import { INPUTS, type InputDefinition, type InputName } from './input-definitions.js'

export type InputReader = (name: string) => string | undefined

/**
 * Most entries a list input may hold. zones: an Azure region has three availability zones. AKS
 * documents no count limit for a pool's labels or taints (the REST definition has no maxItems);
 * 100 each is far above real use and keeps the pool's PUT body and every node's kubelet flags small.
 */
export const LIST_LIMITS: Readonly<Record<string, number>> = {
  'node-labels': 100,
  'node-taints': 100,
  zones: 3
}

/** A top-level key of a values file or a NicClusterPolicy: a name, as every chart and CRD uses. */
const YAML_KEY_RE = /^[A-Za-z_][A-Za-z0-9_.-]{0,252}$/

/** Bad entries of one list input reported one by one; the rest are counted. */
const LIST_PROBLEMS_SHOWN = 3

export class Inputs {
  readonly problems: string[] = []
  readonly warnings: string[] = []
  /** Values that must be masked in logs (client secret, creds secret). */
  readonly secrets: string[] = []
  private readonly defs = new Map(INPUTS.map(d => [d.name, d]))

  constructor(private readonly read: InputReader) {}

  def(name: InputName): InputDefinition {
    const d = this.defs.get(name)
    if (!d) throw new Error(`no input named ${name}`)
    return d
  }

  /** The value as given (trimmed; empty counts as not given). */
  raw(name: InputName): string | undefined {
    const v = this.read(name)?.trim()
    return v === undefined || v === '' ? undefined : v
  }

  /** A value as a problem quotes it: never a secret's, never credentials in a URL (`//user:pass@`). */
  private shown(name: InputName, v: string): string {
    return this.def(name).kind === 'secret' ? '(hidden)' : echoValue(v.replace(/\/\/[^/]*@/g, '//***@'))
  }

  problem(text: string): void {
    this.problems.push(text)
  }

  /** Applies the input's own check and warning to `value`; false when it has a problem. */
  check(name: InputName, value: string): boolean {
    const d = this.def(name)
    const problem = d.check?.(value)
    if (problem) {
      this.problem(`${name} ${this.shown(name, value)}: ${problem}`)
      return false
    }
    const warning = d.warn?.(value, this.raw(name) !== undefined)
    if (warning) this.warnings.push(warning)
    return true
  }

  /** A string input as given, checked; undefined when not given. */
  optional(name: InputName): string | undefined {
    const v = this.raw(name)
    if (v !== undefined) this.check(name, v)
    return v
  }

  /** A string input as given or its default, checked. */
  str(name: InputName): string {
    const v = this.raw(name) ?? this.def(name).default!
    this.check(name, v)
    return v
  }

  enumOf<T extends string>(name: InputName): T {
    const d = this.def(name)
    const v = this.raw(name) ?? d.default!
    const match = d.values!.find(a => a.toLowerCase() === v.toLowerCase())
    if (!match) this.problem(`${name} ${this.shown(name, v)}: must be one of ${d.values!.join(', ')}`)
    return (match ?? d.default) as T
  }

  bool(name: InputName): boolean {
    const v = this.raw(name) ?? this.def(name).default!
    if (/^(true|yes|1|on)$/i.test(v)) {
      this.check(name, v)
      return true
    }
    if (/^(false|no|0|off)$/i.test(v)) return false
    this.problem(`${name} ${this.shown(name, v)}: must be true or false`)
    return this.def(name).default === 'true'
  }

  int(name: InputName): number {
    const d = this.def(name)
    const v = this.raw(name) ?? d.default!
    if (!/^\d+$/.test(v) || Number(v) < d.min! || Number(v) > d.max!) {
      this.problem(`${name} ${this.shown(name, v)}: must be an integer from ${d.min} to ${d.max}`)
      return Number(d.default)
    }
    return Number(v)
  }

  number(name: InputName): number {
    const v = this.str(name)
    return Number(v)
  }

  /** Milliseconds, within the input's range (min..max). */
  duration(name: InputName): number {
    const d = this.def(name)
    const v = this.raw(name) ?? d.default!
    const range = `from ${formatDuration(d.min ?? 1)} to ${formatDuration(d.max ?? Number.MAX_SAFE_INTEGER)}`
    // A bare number is refused: `60` would be 60 seconds to one reader and 60 minutes to another.
    if (/^\d+(?:\.\d+)?$/.test(v)) {
      this.problem(
        `${name} ${this.shown(name, v)}: needs a unit: s (seconds), m (minutes) or h (hours), as in 60s, 10m, 1h or 1h30m, ${range}`
      )
      return parseDuration(d.default!)!
    }
    const ms = parseDuration(v)
    if (ms === undefined || ms <= 0) {
      this.problem(
        `${name} ${this.shown(name, v)}: must be a duration such as 90s, 25m, 1h or 1h30m, ${range}`
      )
      return parseDuration(d.default!)!
    }
    if ((d.min !== undefined && ms < d.min) || (d.max !== undefined && ms > d.max)) {
      this.problem(`${name} ${this.shown(name, v)}: out of range; must be ${range}`)
      return parseDuration(d.default!)!
    }
    return ms
  }

  /**
   * The entries of a comma-separated list input that pass its check. Over its limit (LIST_LIMITS)
   * it says so once; only the first few bad entries are named, the others counted.
   */
  list(name: InputName): string[] {
    const entries = (this.raw(name) ?? '')
      .split(',')
      .map(s => s.trim())
      .filter(Boolean)
    const limit = LIST_LIMITS[name]
    if (limit !== undefined && entries.length > limit)
      this.problem(`${name}: ${entries.length} entries; at most ${limit}`)
    const before = this.problems.length
    const good = entries.filter(entry => this.check(name, entry))
    const bad = this.problems.length - before
    if (bad > LIST_PROBLEMS_SHOWN) {
      this.problems.splice(before + LIST_PROBLEMS_SHOWN)
      this.problem(`${name}: ${bad - LIST_PROBLEMS_SHOWN} more invalid entries`)
    }
    return good
  }

  /**
   * A YAML mapping read from the file the input names; undefined when not given (or wrong). The
   * file must be a regular file of at most 1 MiB (a FIFO or a device is refused without waiting),
   * hold a mapping whose top-level keys are names (letters, digits, `_`, `-`, `.`), and nothing of a
   * refused file's content is repeated in the problem (only where, and what kind of error).
   */
  yamlFile(name: InputName): Record<string, unknown> | undefined {
    const file = this.raw(name)
    if (!file) return undefined
    const at = `${name} ${echoValue(file, 200)}`
    let text: string
    try {
      text = readBoundedFile(file)
    } catch (e) {
      if (!(e instanceof FileInputError)) throw e
      this.problem(
        `${at}: ${e.reason}${e.reason === 'file not found' ? ' (give a path relative to the workspace)' : ''}`
      )
      return undefined
    }
    let doc: unknown
    try {
      doc = parseYaml(text)
    } catch (e) {
      const where =
        e instanceof YAMLParseError && e.linePos
          ? ` at line ${e.linePos[0].line}, column ${e.linePos[0].col}`
          : ''
      const code = e instanceof YAMLParseError ? ` (${e.code})` : ''
      this.problem(`${at}: not valid YAML${where}${code}`)
      return undefined
    }
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
      this.problem(`${at}: must be a YAML mapping (${this.def(name).holds})`)
      return undefined
    }
    const badKeys = Object.keys(doc).filter(k => !YAML_KEY_RE.test(k))
    if (badKeys.length) {
      this.problem(
        `${at}: ${badKeys.length} top-level key${badKeys.length > 1 ? 's are' : ' is'} not a name (letters, digits, _, - and .), so this is not ${this.def(name).holds}`
      )
      return undefined
    }
    return doc as Record<string, unknown>
  }
}
