// Field paths as server-side apply sees them: which lists merge by key (built-in merge keys, or
// x-kubernetes-list-type/-map-keys from a CRD schema), the set of field paths an object sets,
// reading/removing the value at a path, the structured merge of an applied config, and the
// conversion to and from the `FieldsV1` (`f:` / `k:` / `v:`) form stored in managedFields.

export type ListKind = { kind: 'map'; keys: string[] } | { kind: 'set' } | { kind: 'atomic' }

/** Decides how the list at a schema path (field names, `[]` for list items) merges. */
export type ListOracle = (schemaPath: string[], items: unknown[]) => ListKind

export const isPlainObject = (v: unknown): v is Record<string, any> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

const ATOMIC: ListKind = { kind: 'atomic' }

/** Merge keys of the compiled-in types, by list field name. */
const BUILTIN_LIST_KEYS: Record<string, string[]> = {
  containers: ['name'],
  initContainers: ['name'],
  ephemeralContainers: ['name'],
  env: ['name'],
  volumes: ['name'],
  imagePullSecrets: ['name'],
  resourceClaims: ['name'],
  volumeMounts: ['mountPath'],
  volumeDevices: ['devicePath'],
  hostAliases: ['ip'],
  conditions: ['type'],
  addresses: ['type'],
  ownerReferences: ['uid'],
  topologySpreadConstraints: ['topologyKey', 'whenUnsatisfiable']
}

const DEFAULTED_KEYS: Record<string, unknown> = { protocol: 'TCP' }

function allObjectsWith(items: unknown[], keys: string[]): boolean {
  return items.every(i => isPlainObject(i) && keys.every(k => k in i || k in DEFAULTED_KEYS))
}

/** List semantics of the compiled-in Kubernetes types (a table of the well-known lists). */
export const builtinListOracle: ListOracle = (schemaPath, items) => {
  const field = schemaPath[schemaPath.length - 1]
  if (field === 'finalizers') return items.every(i => typeof i === 'string') ? { kind: 'set' } : ATOMIC
  if (field === 'ports') {
    if (items.length && allObjectsWith(items, ['containerPort']))
      return { kind: 'map', keys: ['containerPort', 'protocol'] }
    if (items.length && allObjectsWith(items, ['port'])) return { kind: 'map', keys: ['port', 'protocol'] }
    return ATOMIC
  }
  const keys = BUILTIN_LIST_KEYS[field]
  if (keys && allObjectsWith(items, keys)) return { kind: 'map', keys }
  return ATOMIC
}

/** List semantics read from a CRD's openAPIV3Schema; metadata lists use the built-in table. */
export function schemaListOracle(schema: unknown): ListOracle {
  return (schemaPath, items) => {
    if (schemaPath[0] === 'metadata') return builtinListOracle(schemaPath, items)
    let node: any = schema
    for (const el of schemaPath) {
      if (!isPlainObject(node)) return ATOMIC
      if (el === '[]') node = node.items
      else
        node =
          node.properties?.[el] ??
          (isPlainObject(node.additionalProperties) ? node.additionalProperties : undefined)
    }
    if (!isPlainObject(node)) return ATOMIC
    const lt = node['x-kubernetes-list-type']
    if (lt === 'set') return { kind: 'set' }
    if (lt === 'map') {
      const keys: string[] = node['x-kubernetes-list-map-keys'] ?? []
      if (keys.length && allObjectsWith(items, keys)) return { kind: 'map', keys }
    }
    return ATOMIC
  }
}

// ---- paths -------------------------------------------------------------------------------------

/** One path element: `f:<field>`, `k:<json of key fields>` or `v:<json value>`. */
export type PathEl = string
export type FieldSet = Map<string, PathEl[]>

export const pathId = (els: PathEl[]): string => JSON.stringify(els)

function sortedJson(v: unknown): string {
  if (isPlainObject(v))
    return `{${Object.keys(v)
      .sort()
      .map(k => `${JSON.stringify(k)}:${sortedJson(v[k])}`)
      .join(',')}}`
  if (Array.isArray(v)) return `[${v.map(sortedJson).join(',')}]`
  return JSON.stringify(v)
}

export function deepEqual(a: unknown, b: unknown): boolean {
  return sortedJson(a) === sortedJson(b)
}

function keyOf(item: Record<string, any>, keys: string[]): Record<string, unknown> {
  const k: Record<string, unknown> = {}
  for (const name of keys) k[name] = name in item ? item[name] : DEFAULTED_KEYS[name]
  return k
}

const keyEl = (item: Record<string, any>, keys: string[]): PathEl => `k:${sortedJson(keyOf(item, keys))}`

function matchesKeyEl(item: unknown, el: PathEl): boolean {
  if (!isPlainObject(item)) return false
  const want = JSON.parse(el.slice(2)) as Record<string, unknown>
  return deepEqual(keyOf(item, Object.keys(want)), want)
}

/** Metadata fields the server owns; never part of a manager's field set. */
const SYSTEM_METADATA = new Set([
  'name',
  'namespace',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'managedFields',
  'selfLink'
])

/**
 * Which part of an object a write covers: the main resource (status excluded when the type has a
 * status subresource) or the status subresource (status only).
 */
export type Scope = 'main' | 'main+status' | 'status'

/** The top-level portion of `obj` a write in `scope` may touch (system metadata stripped). */
export function scoped(obj: Record<string, any>, scope: Scope): Record<string, any> {
  const out: Record<string, any> = {}
  for (const [k, v] of Object.entries(obj)) {
    if (k === 'apiVersion' || k === 'kind' || v === undefined) continue
    if (scope === 'status' ? k !== 'status' : k === 'status' && scope === 'main') continue
    if (k === 'metadata' && isPlainObject(v)) {
      const meta: Record<string, any> = {}
      for (const [mk, mv] of Object.entries(v))
        if (!SYSTEM_METADATA.has(mk) && mv !== undefined) meta[mk] = mv
      if (Object.keys(meta).length) out.metadata = meta
    } else out[k] = v
  }
  return out
}

/** The set of field paths `obj` (already scoped) sets. */
export function fieldsOf(obj: Record<string, any>, oracle: ListOracle): FieldSet {
  const set: FieldSet = new Map()
  const add = (els: PathEl[]) => set.set(pathId(els), els)
  const walk = (v: unknown, els: PathEl[], schemaPath: string[]): void => {
    if (isPlainObject(v)) {
      const keys = Object.keys(v).filter(k => v[k] !== undefined)
      if (!keys.length && els.length) add(els)
      for (const k of keys) walk(v[k], [...els, `f:${k}`], [...schemaPath, k])
    } else if (Array.isArray(v)) {
      const lk = oracle(schemaPath, v)
      if (lk.kind === 'map') {
        for (const item of v as Record<string, any>[]) {
          const itemEls = [...els, keyEl(item, lk.keys)]
          add(itemEls)
          for (const f of Object.keys(item)) walk(item[f], [...itemEls, `f:${f}`], [...schemaPath, '[]', f])
        }
      } else if (lk.kind === 'set') for (const item of v) add([...els, `v:${JSON.stringify(item)}`])
      else add(els)
    } else add(els)
  }
  walk(obj, [], [])
  return set
}

/** The value at a path, if present. */
export function getAt(obj: unknown, els: PathEl[]): { found: boolean; value?: unknown } {
  let cur: unknown = obj
  for (const el of els) {
    if (el.startsWith('f:')) {
      if (!isPlainObject(cur) || !(el.slice(2) in cur)) return { found: false }
      cur = cur[el.slice(2)]
    } else if (el.startsWith('k:')) {
      if (!Array.isArray(cur)) return { found: false }
      const item = cur.find(i => matchesKeyEl(i, el))
      if (item === undefined) return { found: false }
      cur = item
    } else {
      if (!Array.isArray(cur)) return { found: false }
      const want = JSON.parse(el.slice(2))
      const item = cur.find(i => deepEqual(i, want))
      if (item === undefined) return { found: false }
      cur = item
    }
  }
  return { found: true, value: cur }
}

const isEmptyContainer = (v: unknown) =>
  (Array.isArray(v) && v.length === 0) || (isPlainObject(v) && Object.keys(v).length === 0)

/** Removes the value at a path (in place), dropping containers the removal left empty. */
export function removeAt(obj: Record<string, any>, els: PathEl[]): void {
  if (!els.length) return
  const parents: unknown[] = [obj]
  for (const el of els.slice(0, -1)) {
    const next = getAt(parents[parents.length - 1], [el])
    if (!next.found) return
    parents.push(next.value)
  }
  const removeChild = (parent: unknown, el: PathEl): boolean => {
    if (el.startsWith('f:') && isPlainObject(parent) && el.slice(2) in parent) {
      delete parent[el.slice(2)]
      return true
    }
    if (Array.isArray(parent)) {
      const idx = el.startsWith('k:')
        ? parent.findIndex(i => matchesKeyEl(i, el))
        : parent.findIndex(i => deepEqual(i, JSON.parse(el.slice(2))))
      if (idx >= 0) {
        parent.splice(idx, 1)
        return true
      }
    }
    return false
  }
  if (!removeChild(parents[parents.length - 1], els[els.length - 1])) return
  // Prune containers that became empty (never the object root or its top-level fields).
  for (let i = parents.length - 1; i >= 2; i--) {
    if (!isEmptyContainer(parents[i])) break
    removeChild(parents[i - 1], els[i - 1])
  }
}

/** Structured merge of an applied configuration onto a live value. */
export function mergeApplied(
  live: unknown,
  applied: unknown,
  oracle: ListOracle,
  schemaPath: string[] = []
): unknown {
  if (isPlainObject(applied)) {
    const out: Record<string, any> = isPlainObject(live) ? { ...live } : {}
    for (const [k, v] of Object.entries(applied)) {
      if (v === undefined || v === null) continue
      out[k] = mergeApplied(out[k], v, oracle, [...schemaPath, k])
    }
    return out
  }
  if (Array.isArray(applied)) {
    const lk = oracle(schemaPath, applied)
    if (lk.kind === 'atomic' || !Array.isArray(live)) return structuredClone(applied)
    const out = [...live]
    for (const item of applied) {
      if (lk.kind === 'set') {
        if (!out.some(o => deepEqual(o, item))) out.push(item)
        continue
      }
      const el = keyEl(item as Record<string, any>, lk.keys)
      const idx = out.findIndex(o => matchesKeyEl(o, el))
      if (idx >= 0) out[idx] = mergeApplied(out[idx], item, oracle, [...schemaPath, '[]'])
      else out.push(structuredClone(item))
    }
    return out
  }
  return structuredClone(applied)
}

// ---- FieldsV1 ----------------------------------------------------------------------------------

export function toFieldsV1(set: FieldSet): Record<string, any> {
  const MEMBER = Symbol('member')
  type Node = { [k: string]: Node } & { [MEMBER]?: boolean }
  const root: Node = {}
  for (const els of set.values()) {
    let node = root
    for (const el of els) node = node[el] ??= {}
    node[MEMBER] = true
  }
  const render = (node: Node): Record<string, any> => {
    const keys = Object.keys(node).sort()
    const out: Record<string, any> = {}
    if (node[MEMBER] && keys.length) out['.'] = {}
    for (const k of keys) out[k] = render(node[k])
    return out
  }
  return render(root)
}

export function fromFieldsV1(tree: unknown): FieldSet {
  const set: FieldSet = new Map()
  const walk = (node: unknown, els: PathEl[]) => {
    if (!isPlainObject(node)) return
    const keys = Object.keys(node)
    if (!keys.length && els.length) set.set(pathId(els), els)
    for (const k of keys) {
      if (k === '.') set.set(pathId(els), els)
      else walk(node[k], [...els, k])
    }
  }
  walk(tree, [])
  return set
}

/** A path as Kubernetes prints it in conflict messages: `.spec.containers[name="x"].image`. */
export function formatPath(els: PathEl[]): string {
  return els
    .map(el => {
      if (el.startsWith('f:')) return `.${el.slice(2)}`
      if (el.startsWith('k:')) {
        const key = JSON.parse(el.slice(2)) as Record<string, unknown>
        return `[${Object.entries(key)
          .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
          .join(',')}]`
      }
      return `[=${el.slice(2)}]`
    })
    .join('')
}

/** True when `prefix` is a (non-strict) prefix of `els`. */
export function hasPrefix(els: PathEl[], prefix: PathEl[]): boolean {
  return prefix.length <= els.length && prefix.every((p, i) => els[i] === p)
}
