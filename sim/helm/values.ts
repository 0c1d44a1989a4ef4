// Chart values as helm builds them: `-f` files (YAML 1.1, as helm's go-yaml reads them) merged in
// order, `--set`/`--set-string` parsed with helm's strvals rules (dotted keys, `a[0]`, `{x,y}` lists,
// `\` escapes, typed true/false/null/integers), then coalesced over the chart's defaults (a null
// user value deletes the default key).
import { readFileSync } from 'node:fs'
import { parse as parseYaml } from 'yaml'

export type Values = Record<string, any>

export const isMap = (v: unknown): v is Values => typeof v === 'object' && v !== null && !Array.isArray(v)

/** helm's typedVal: true/false/null (any case), integers not starting with 0 (and "0"); else the string. */
export function typedVal(val: string, stringOnly: boolean): unknown {
  if (stringOnly) return val
  const lower = val.toLowerCase()
  if (lower === 'true') return true
  if (lower === 'false') return false
  if (lower === 'null') return null
  if (val === '0') return 0
  if (val.length > 0 && val[0] !== '0' && /^[+-]?\d+$/.test(val)) {
    const n = Number(val)
    if (Number.isSafeInteger(n)) return n
  }
  return val
}

class Scanner {
  pos = 0
  constructor(readonly text: string) {}
  /** Reads until one of `stops` (unescaped); returns the text and the stop char ('' at the end). */
  until(stops: string): { text: string; stop: string } {
    let out = ''
    while (this.pos < this.text.length) {
      const c = this.text[this.pos++]
      if (c === '\\' && this.pos < this.text.length) {
        out += this.text[this.pos++]
        continue
      }
      if (stops.includes(c)) return { text: out, stop: c }
      out += c
    }
    return { text: out, stop: '' }
  }
  peek(): string {
    return this.text[this.pos] ?? ''
  }
}

function setIndex(list: unknown[], index: number, value: unknown): unknown[] {
  if (index < 0) throw new Error(`negative ${index} index not allowed`)
  if (index > 65536) throw new Error(`index of ${index} is greater than maximum supported index 65536`)
  while (list.length <= index) list.push(null)
  list[index] = value
  return list
}

function parseList(sc: Scanner, stringOnly: boolean): unknown[] {
  sc.pos++ // '{'
  const out: unknown[] = []
  for (;;) {
    const { text, stop } = sc.until(',}')
    if (stop === '') throw new Error("list must terminate with '}'")
    out.push(typedVal(text, stringOnly))
    if (stop === '}') {
      const next = sc.peek()
      if (next === ',') sc.pos++
      else if (next !== '') throw new Error(`unexpected character after list: "${next}"`)
      return out
    }
  }
}

/** Parses one key (and its nested path) into `data`; returns false when the input is exhausted. */
function parseKey(sc: Scanner, data: Values, stringOnly: boolean): void {
  const { text: key, stop } = sc.until('=[,.')
  switch (stop) {
    case '':
      if (key.length > 0) throw new Error(`key "${key}" has no value`)
      return
    case ',':
      throw new Error(`key "${key}" has no value (cannot end with ,)`)
    case '=': {
      if (sc.peek() === '{') {
        data[key] = parseList(sc, stringOnly)
        return
      }
      const { text } = sc.until(',')
      data[key] = typedVal(text, stringOnly)
      return
    }
    case '.': {
      if (!key) throw new Error('key "" has no value')
      const inner = isMap(data[key]) ? data[key] : {}
      data[key] = inner
      parseKey(sc, inner, stringOnly)
      return
    }
    case '[': {
      const list = Array.isArray(data[key]) ? (data[key] as unknown[]) : []
      data[key] = parseIndexed(sc, list, stringOnly)
      return
    }
  }
}

function parseIndexed(sc: Scanner, list: unknown[], stringOnly: boolean): unknown[] {
  const { text, stop } = sc.until(']')
  if (stop !== ']' || !/^\d+$/.test(text)) throw new Error(`failed to parse index: "${text}"`)
  const index = Number(text)
  const next = sc.text[sc.pos++] ?? ''
  if (next === '=') {
    if (sc.peek() === '{') return setIndex(list, index, parseList(sc, stringOnly))
    const { text: v } = sc.until(',')
    return setIndex(list, index, typedVal(v, stringOnly))
  }
  if (next === '.') {
    const inner = isMap(list[index]) ? (list[index] as Values) : {}
    parseKey(sc, inner, stringOnly)
    return setIndex(list, index, inner)
  }
  if (next === '[') {
    const inner = Array.isArray(list[index]) ? (list[index] as unknown[]) : []
    return setIndex(list, index, parseIndexed(sc, inner, stringOnly))
  }
  throw new Error(`key "${sc.text}" has no value`)
}

/** Applies one `--set` (or `--set-string`) argument to `base`, as helm's strvals.ParseInto does. */
export function parseSetInto(text: string, base: Values, stringOnly = false): void {
  const sc = new Scanner(text)
  while (sc.pos < text.length) parseKey(sc, base, stringOnly)
}

/** Recursively merges b over a (maps merged, everything else replaced), like helm's mergeMaps. */
export function mergeMaps(a: Values, b: Values): Values {
  const out: Values = { ...a }
  for (const [k, v] of Object.entries(b)) {
    if (isMap(v) && isMap(out[k])) out[k] = mergeMaps(out[k], v)
    else out[k] = v
  }
  return out
}

/** Reads a `-f` values file as helm does (YAML 1.1); an empty file is no values. */
export function readValuesFile(file: string): Values {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    throw new Error(`open ${file}: no such file or directory`)
  }
  let doc: unknown
  try {
    doc = parseYaml(text, { version: '1.1' })
  } catch (e) {
    throw new Error(
      `failed to parse ${file}: error converting YAML to JSON: ${(e as Error).message.split('\n')[0]}`
    )
  }
  if (doc === null || doc === undefined) return {}
  if (!isMap(doc))
    throw new Error(`failed to parse ${file}: error unmarshaling JSON: cannot unmarshal into values`)
  return doc
}

/** The user-supplied values of one helm invocation: files in order, then --set, then --set-string. */
export function userValues(files: string[], sets: string[], setStrings: string[]): Values {
  let base: Values = {}
  for (const f of files) base = mergeMaps(base, readValuesFile(f))
  for (const s of sets) {
    try {
      parseSetInto(s, base, false)
    } catch (e) {
      throw new Error(`failed parsing --set data: ${(e as Error).message}`)
    }
  }
  for (const s of setStrings) {
    try {
      parseSetInto(s, base, true)
    } catch (e) {
      throw new Error(`failed parsing --set-string data: ${(e as Error).message}`)
    }
  }
  return base
}

/** Coalesces user values over chart defaults: maps merge, user scalars win, user null removes the key. */
export function coalesce(user: Values, defaults: Values): Values {
  const out: Values = structuredClone(defaults)
  for (const [k, v] of Object.entries(user)) {
    if (v === null) delete out[k]
    else if (isMap(v) && isMap(out[k])) out[k] = coalesce(v, out[k])
    else out[k] = structuredClone(v)
  }
  return out
}
