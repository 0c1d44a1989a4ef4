// The three classic patch formats: JSON merge patch (RFC 7386), strategic merge patch (merge
// lists by their merge key, `$patch` directives), and JSON patch (RFC 6902).
import { type ListOracle, deepEqual, isPlainObject } from './fieldpaths.js'

export class PatchError extends Error {}

export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return structuredClone(patch)
  const out: Record<string, any> = isPlainObject(target) ? { ...target } : {}
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k]
    else out[k] = mergePatch(out[k], v)
  }
  return out
}

const DIRECTIVE_PREFIXES = ['$setElementOrder/', '$retainKeys', '$deleteFromPrimitiveList/']

/** Strategic merge patch; list merge keys come from `oracle` (built-in types only). */
export function strategicMergePatch(
  target: unknown,
  patch: unknown,
  oracle: ListOracle,
  schemaPath: string[] = []
): unknown {
  if (!isPlainObject(patch)) return structuredClone(patch)
  if (patch.$patch === 'replace') {
    const { $patch: _p, ...rest } = patch
    return structuredClone(rest)
  }
  if (patch.$patch === 'delete') return undefined
  const out: Record<string, any> = isPlainObject(target) ? { ...target } : {}
  for (const [k, v] of Object.entries(patch)) {
    if (k.startsWith('$deleteFromPrimitiveList/')) {
      const field = k.slice('$deleteFromPrimitiveList/'.length)
      if (Array.isArray(out[field]) && Array.isArray(v))
        out[field] = out[field].filter((x: unknown) => !v.some(d => deepEqual(d, x)))
      continue
    }
    if (k === '$patch' || DIRECTIVE_PREFIXES.some(p => k.startsWith(p))) continue
    const path = [...schemaPath, k]
    if (v === null) delete out[k]
    else if (Array.isArray(v)) out[k] = mergeList(out[k], v, oracle, path)
    else if (isPlainObject(v)) {
      const merged = strategicMergePatch(out[k], v, oracle, path)
      if (merged === undefined) delete out[k]
      else out[k] = merged
    } else out[k] = v
  }
  return out
}

function mergeList(target: unknown, patch: unknown[], oracle: ListOracle, schemaPath: string[]): unknown[] {
  if (patch.some(i => isPlainObject(i) && i.$patch === 'replace'))
    return structuredClone(patch.filter(i => !(isPlainObject(i) && i.$patch === 'replace')))
  const items = patch.filter(i => !(isPlainObject(i) && i.$patch === 'delete'))
  const kind = oracle(schemaPath, items)
  if (!Array.isArray(target) || kind.kind === 'atomic') {
    if (kind.kind === 'map') return structuredClone(items).map(stripDirectives)
    return structuredClone(items)
  }
  const out = [...target]
  if (kind.kind === 'set') {
    for (const i of items) if (!out.some(o => deepEqual(o, i))) out.push(i)
    return out
  }
  const sameKey = (a: any, b: any) =>
    kind.keys.every(k => isPlainObject(a) && isPlainObject(b) && a[k] === b[k])
  for (const p of patch) {
    const idx = out.findIndex(o => sameKey(o, p))
    if (isPlainObject(p) && p.$patch === 'delete') {
      if (idx >= 0) out.splice(idx, 1)
    } else if (idx >= 0) out[idx] = strategicMergePatch(out[idx], p, oracle, [...schemaPath, '[]'])
    else out.push(stripDirectives(structuredClone(p)))
  }
  return out
}

function stripDirectives(v: any): any {
  if (!isPlainObject(v)) return v
  const out: Record<string, any> = {}
  for (const [k, x] of Object.entries(v)) if (!k.startsWith('$')) out[k] = x
  return out
}

// ---- JSON patch --------------------------------------------------------------------------------

interface Op {
  op: string
  path: string
  value?: unknown
  from?: string
}

function tokens(pointer: string): string[] {
  if (pointer === '') return []
  if (!pointer.startsWith('/')) throw new PatchError(`invalid JSON pointer "${pointer}"`)
  return pointer
    .slice(1)
    .split('/')
    .map(t => t.replace(/~1/g, '/').replace(/~0/g, '~'))
}

function parentOf(doc: any, toks: string[]): any {
  let cur = doc
  for (const t of toks.slice(0, -1)) {
    cur = Array.isArray(cur) ? cur[Number(t)] : isPlainObject(cur) ? cur[t] : undefined
    if (cur === undefined) throw new PatchError(`path /${toks.join('/')} does not exist`)
  }
  return cur
}

function read(doc: any, pointer: string): unknown {
  const toks = tokens(pointer)
  if (!toks.length) return doc
  const parent = parentOf(doc, toks)
  const last = toks[toks.length - 1]
  const v = Array.isArray(parent) ? parent[Number(last)] : parent?.[last]
  if (v === undefined) throw new PatchError(`path ${pointer} does not exist`)
  return v
}

function add(doc: any, pointer: string, value: unknown): any {
  const toks = tokens(pointer)
  if (!toks.length) return value
  const parent = parentOf(doc, toks)
  const last = toks[toks.length - 1]
  if (Array.isArray(parent)) {
    const idx = last === '-' ? parent.length : Number(last)
    if (!(idx >= 0 && idx <= parent.length)) throw new PatchError(`index ${last} out of range`)
    parent.splice(idx, 0, value)
  } else if (isPlainObject(parent)) parent[last] = value
  else throw new PatchError(`cannot add at ${pointer}`)
  return doc
}

function remove(doc: any, pointer: string): any {
  const toks = tokens(pointer)
  const parent = parentOf(doc, toks)
  const last = toks[toks.length - 1]
  if (Array.isArray(parent)) {
    const idx = Number(last)
    if (!(idx >= 0 && idx < parent.length)) throw new PatchError(`index ${last} out of range`)
    parent.splice(idx, 1)
  } else if (isPlainObject(parent) && last in parent) delete parent[last]
  else throw new PatchError(`Unable to remove nonexistent key: ${last}: missing value`)
  return doc
}

export function jsonPatch(target: unknown, ops: unknown): unknown {
  if (!Array.isArray(ops)) throw new PatchError('json patch must be a list of operations')
  let doc: any = structuredClone(target)
  for (const o of ops as Op[]) {
    switch (o.op) {
      case 'add':
        doc = add(doc, o.path, structuredClone(o.value))
        break
      case 'remove':
        doc = remove(doc, o.path)
        break
      case 'replace':
        if (o.path === '') {
          doc = structuredClone(o.value)
          break
        }
        read(doc, o.path)
        doc = remove(doc, o.path)
        doc = add(doc, o.path, structuredClone(o.value))
        break
      case 'move': {
        const v = read(doc, o.from ?? '')
        doc = remove(doc, o.from ?? '')
        doc = add(doc, o.path, v)
        break
      }
      case 'copy':
        doc = add(doc, o.path, structuredClone(read(doc, o.from ?? '')))
        break
      case 'test':
        if (!deepEqual(read(doc, o.path), o.value)) throw new PatchError(`testing value ${o.path} failed`)
        break
      default:
        throw new PatchError(`Unexpected kind: ${String(o.op)}`)
    }
  }
  return doc
}
