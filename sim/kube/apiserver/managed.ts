// metadata.managedFields bookkeeping: recording which manager set which fields on ordinary writes
// (operation Update) and the server-side apply merge (operation Apply) with its conflict
// detection, forced ownership transfer and removal of fields a manager stopped applying.
import type { KubeObject } from '../store.js'
import {
  type FieldSet,
  type ListOracle,
  type PathEl,
  type Scope,
  deepEqual,
  fieldsOf,
  formatPath,
  fromFieldsV1,
  getAt,
  hasPrefix,
  isPlainObject,
  mergeApplied,
  pathId,
  removeAt,
  scoped,
  toFieldsV1
} from './fieldpaths.js'

export interface ManagedFieldsEntry {
  manager: string
  operation: 'Apply' | 'Update'
  apiVersion: string
  time: string
  fieldsType: 'FieldsV1'
  fieldsV1: Record<string, any>
  subresource?: string
}

interface Entry {
  raw: ManagedFieldsEntry
  set: FieldSet
  changed: boolean
}

export interface Conflict {
  manager: string
  apiVersion: string
  path: PathEl[]
}

export class ApplyConflictError extends Error {
  constructor(readonly conflicts: Conflict[]) {
    super(conflictMessage(conflicts))
  }
}

/** `Apply failed with 1 conflict: conflict with "m" using apps/v1: .spec.replicas` (real wording). */
function conflictMessage(conflicts: Conflict[]): string {
  const n = conflicts.length
  const head = `Apply failed with ${n} conflict${n === 1 ? '' : 's'}: `
  if (n === 1) {
    const c = conflicts[0]
    return `${head}conflict with "${c.manager}" using ${c.apiVersion}: ${formatPath(c.path)}`
  }
  const byManager = new Map<string, Conflict[]>()
  for (const c of conflicts) byManager.set(c.manager, [...(byManager.get(c.manager) ?? []), c])
  return (
    head +
    [...byManager.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(
        ([m, cs]) =>
          `conflicts with "${m}" using ${cs[0].apiVersion}:\n${cs.map(c => `- ${formatPath(c.path)}`).join('\n')}`
      )
      .join('\n')
  )
}

export const nowTime = (): string => new Date().toISOString().replace(/\.\d+Z$/, 'Z')

function entriesOf(obj: KubeObject | undefined): Entry[] {
  const raw = (obj?.metadata.managedFields ?? []) as ManagedFieldsEntry[]
  return raw
    .filter(e => isPlainObject(e))
    .map(e => ({ raw: e, set: fromFieldsV1(e.fieldsV1), changed: false }))
}

function render(entries: Entry[]): ManagedFieldsEntry[] | undefined {
  const out = entries
    .filter(e => e.set.size > 0)
    .map(e => (e.changed ? { ...e.raw, time: nowTime(), fieldsV1: toFieldsV1(e.set) } : e.raw))
  return out.length ? out : undefined
}

function subtract(e: Entry, ids: Iterable<string>): void {
  for (const id of ids) if (e.set.delete(id)) e.changed = true
}

const sameSub = (e: ManagedFieldsEntry, subresource?: string) => (e.subresource ?? '') === (subresource ?? '')

/** A leaf whose value can conflict (not a keyed item or interior map). */
function isLeafIn(obj: unknown, els: PathEl[]): { found: boolean; value?: unknown } {
  const at = getAt(obj, els)
  if (!at.found) return at
  if (isPlainObject(at.value) && Object.keys(at.value).length) return { found: false }
  return at
}

export interface WriteContext {
  oracle: ListOracle
  scope: Scope
  apiVersion: string
  subresource?: string
}

/**
 * managedFields after an ordinary write (create / update / patch) by `manager`: the manager takes
 * every field it changed (other managers lose them), removed fields leave every set.
 */
export function managedAfterUpdate(
  old: KubeObject | undefined,
  next: KubeObject,
  manager: string,
  ctx: WriteContext
): ManagedFieldsEntry[] | undefined {
  const entries = entriesOf(old)
  const oldObj = old ? scoped(old, ctx.scope) : {}
  const newObj = scoped(next, ctx.scope)
  const oldSet = fieldsOf(oldObj, ctx.oracle)
  const newSet = fieldsOf(newObj, ctx.oracle)
  const changed: string[] = []
  for (const [id, els] of newSet) {
    if (!oldSet.has(id)) changed.push(id)
    else {
      const a = isLeafIn(oldObj, els)
      const b = isLeafIn(newObj, els)
      if (a.found && b.found && !deepEqual(a.value, b.value)) changed.push(id)
    }
  }
  const removed = [...oldSet.keys()].filter(id => !newSet.has(id))
  let mine = entries.find(
    e => e.raw.manager === manager && e.raw.operation === 'Update' && sameSub(e.raw, ctx.subresource)
  )
  for (const e of entries) {
    subtract(e, removed)
    if (e !== mine) subtract(e, changed)
  }
  if (changed.length) {
    if (!mine) {
      mine = {
        raw: {
          manager,
          operation: 'Update',
          apiVersion: ctx.apiVersion,
          time: nowTime(),
          fieldsType: 'FieldsV1',
          fieldsV1: {},
          ...(ctx.subresource ? { subresource: ctx.subresource } : {})
        },
        set: new Map(),
        changed: true
      }
      entries.push(mine)
    }
    for (const id of changed) mine.set.set(id, newSet.get(id)!)
    mine.changed = true
  }
  return render(entries)
}

/**
 * Server-side apply of `applied` by `manager` onto `live` (undefined: the object is created).
 * Returns the merged object (managedFields set). Throws ApplyConflictError unless `force`.
 */
export function serverSideApply(
  live: KubeObject | undefined,
  applied: KubeObject,
  manager: string,
  force: boolean,
  ctx: WriteContext
): KubeObject {
  const entries = entriesOf(live)
  const appliedObj = scoped(applied, ctx.scope)
  const appliedSet = fieldsOf(appliedObj, ctx.oracle)
  const liveObj = live ? scoped(live, ctx.scope) : {}

  const conflicts: Conflict[] = []
  const lost = new Map<Entry, string[]>()
  for (const e of entries) {
    if (e.raw.manager === manager) continue
    for (const [id, els] of appliedSet) {
      if (!e.set.has(id)) continue
      const mineValue = isLeafIn(appliedObj, els)
      const liveValue = isLeafIn(liveObj, els)
      if (mineValue.found && liveValue.found && !deepEqual(mineValue.value, liveValue.value)) {
        conflicts.push({ manager: e.raw.manager, apiVersion: e.raw.apiVersion, path: els })
        lost.set(e, [...(lost.get(e) ?? []), id])
      }
    }
  }
  if (conflicts.length && !force) throw new ApplyConflictError(conflicts)
  for (const [e, ids] of lost) subtract(e, ids)

  let mine = entries.find(
    e => e.raw.manager === manager && e.raw.operation === 'Apply' && sameSub(e.raw, ctx.subresource)
  )
  const others = entries.filter(e => e !== mine)
  const dropped = [...(mine?.set.values() ?? [])].filter(els => !appliedSet.has(pathId(els)))
  const removable = dropped.filter(
    els =>
      !others.some(e => [...e.set.values()].some(o => hasPrefix(o, els))) &&
      ![...appliedSet.values()].some(a => hasPrefix(a, els))
  )

  const base: KubeObject = live
    ? structuredClone(live)
    : { apiVersion: applied.apiVersion, kind: applied.kind, metadata: { name: applied.metadata.name } }
  if (!live && applied.metadata.namespace) base.metadata.namespace = applied.metadata.namespace
  // Shallow paths first: removing an item or map drops its owned descendants with it.
  for (const els of removable.sort((a, b) => a.length - b.length)) removeAt(base, els)
  const merged = mergeApplied(base, appliedObj, ctx.oracle) as KubeObject

  if (mine) {
    const same = mine.set.size === appliedSet.size && [...appliedSet.keys()].every(id => mine!.set.has(id))
    if (!same) {
      mine.set = appliedSet
      mine.changed = true
    }
  } else {
    mine = {
      raw: {
        manager,
        operation: 'Apply',
        apiVersion: ctx.apiVersion,
        time: nowTime(),
        fieldsType: 'FieldsV1',
        fieldsV1: {},
        ...(ctx.subresource ? { subresource: ctx.subresource } : {})
      },
      set: appliedSet,
      changed: true
    }
    entries.push(mine)
  }
  const managedFields = render(entries)
  if (managedFields) merged.metadata.managedFields = managedFields
  else delete merged.metadata.managedFields
  return merged
}
