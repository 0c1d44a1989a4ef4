// Server-side printing: meta.k8s.io/v1 Table responses (what `kubectl get` asks for): the built-in
// kinds' columns (printers.ts), a CRD's additionalPrinterColumns, and NAME / AGE for everything
// else. Ages are computed against the server's clock (the world's), as kube-apiserver's are.
import type { KubeObject, ObjectStore, ResourceType } from '../store.js'
import { typeKey } from '../store.js'
import { crdInfo } from './crds.js'
import { AGE, BUILTIN_COLUMNS, NAME, type Column, since } from './printers.js'
import { SERVED_COLUMNS } from './printers-served.js'

export function wantsTable(accept: string): boolean {
  return accept.includes('as=Table')
}

/** Reads a simple JSONPath (`.status.state`, `.spec.items[0].name`). */
function jsonPath(obj: unknown, path: string): unknown {
  let cur: any = obj
  for (const part of path
    .replace(/^\{?\.?/, '')
    .replace(/\}$/, '')
    .split('.')) {
    if (!part) continue
    const m = /^([^[]*)((?:\[\d+\])*)$/.exec(part)
    if (!m) return undefined
    if (m[1]) cur = cur?.[m[1]]
    for (const idx of m[2].match(/\d+/g) ?? []) cur = cur?.[Number(idx)]
    if (cur === undefined) return undefined
  }
  return cur
}

function columnsFor(store: ObjectStore, t: ResourceType): Column[] {
  const info = crdInfo(store, t)
  if (info?.printerColumns.length) {
    return [
      NAME,
      ...info.printerColumns.map(c => ({
        name: c.name,
        type: c.type === 'date' ? 'string' : c.type,
        priority: c.priority ?? 0,
        cell: (o: KubeObject, now: number) => {
          const v = jsonPath(o, c.jsonPath)
          if (c.type === 'date') return typeof v === 'string' ? since(v, now) : '<unknown>'
          return v === undefined ? null : typeof v === 'object' ? JSON.stringify(v) : v
        }
      }))
    ]
  }
  return BUILTIN_COLUMNS[typeKey(t)] ?? SERVED_COLUMNS[typeKey(t)] ?? [NAME, AGE]
}

export function toTable(
  store: ObjectStore,
  t: ResourceType,
  items: KubeObject[],
  metadata: Record<string, unknown>,
  includeObject = 'Metadata'
): Record<string, unknown> {
  const cols = columnsFor(store, t)
  const now = store.now()
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata,
    columnDefinitions: cols.map(c => ({
      name: c.name,
      type: c.type,
      format: c.format ?? '',
      description: c.name,
      priority: c.priority ?? 0
    })),
    rows: items.map(o => ({
      cells: cols.map(c => c.cell(o, now)),
      object:
        includeObject === 'Object'
          ? o
          : { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: o.metadata }
    }))
  }
}
