// Server-side printing: meta.k8s.io/v1 Table responses (what `kubectl get` asks for) with the
// usual columns for nodes, pods, daemonsets, deployments, namespaces and configmaps, a CRD's
// additionalPrinterColumns, and NAME / AGE for everything else.
import type { KubeObject, ObjectStore, ResourceType } from '../store.js'
import { crdInfo } from './crds.js'

interface Column {
  name: string
  type: string
  format?: string
  priority?: number
  cell: (o: KubeObject) => unknown
}

export function wantsTable(accept: string): boolean {
  return accept.includes('as=Table')
}

/** `5m`, `3h`, `2d` like kubectl's HumanDuration (short form). */
export function age(timestamp: string | undefined): string {
  if (!timestamp) return '<unknown>'
  const s = Math.max(0, Math.floor((Date.now() - Date.parse(timestamp)) / 1000))
  if (s < 120) return `${s}s`
  const m = Math.floor(s / 60)
  if (m < 10) return `${m}m${s % 60 ? `${s % 60}s` : ''}`
  if (m < 180) return `${m}m`
  const h = Math.floor(m / 60)
  if (h < 48) return `${h}h`
  return `${Math.floor(h / 24)}d`
}

const name: Column = { name: 'Name', type: 'string', format: 'name', cell: o => o.metadata.name }
const ageCol: Column = { name: 'Age', type: 'string', cell: o => age(o.metadata.creationTimestamp) }
const none = (v: unknown) => (v === undefined || v === null || v === '' ? '<none>' : v)

function podStatus(o: KubeObject): string {
  if (o.metadata.deletionTimestamp) return 'Terminating'
  for (const cs of o.status?.containerStatuses ?? []) {
    const reason = cs.state?.waiting?.reason ?? cs.state?.terminated?.reason
    if (reason) return reason
  }
  return o.status?.reason ?? o.status?.phase ?? 'Pending'
}

function selectorText(sel: Record<string, string> | undefined): string {
  const entries = Object.entries(sel ?? {})
  return entries.length ? entries.map(([k, v]) => `${k}=${v}`).join(',') : '<none>'
}

const BUILTIN_COLUMNS: Record<string, Column[]> = {
  nodes: [
    name,
    {
      name: 'Status',
      type: 'string',
      cell: o => {
        const ready = (o.status?.conditions ?? []).find((c: any) => c.type === 'Ready')
        const base = ready?.status === 'True' ? 'Ready' : ready ? 'NotReady' : 'Unknown'
        return o.spec?.unschedulable ? `${base},SchedulingDisabled` : base
      }
    },
    {
      name: 'Roles',
      type: 'string',
      cell: o =>
        Object.keys(o.metadata.labels ?? {})
          .filter(k => k.startsWith('node-role.kubernetes.io/'))
          .map(k => k.slice('node-role.kubernetes.io/'.length))
          .join(',') || '<none>'
    },
    ageCol,
    { name: 'Version', type: 'string', cell: o => o.status?.nodeInfo?.kubeletVersion ?? '' },
    {
      name: 'Internal-IP',
      type: 'string',
      priority: 1,
      cell: o => none((o.status?.addresses ?? []).find((a: any) => a.type === 'InternalIP')?.address)
    },
    {
      name: 'External-IP',
      type: 'string',
      priority: 1,
      cell: o => none((o.status?.addresses ?? []).find((a: any) => a.type === 'ExternalIP')?.address)
    },
    { name: 'OS-Image', type: 'string', priority: 1, cell: o => o.status?.nodeInfo?.osImage ?? '' },
    {
      name: 'Kernel-Version',
      type: 'string',
      priority: 1,
      cell: o => o.status?.nodeInfo?.kernelVersion ?? ''
    },
    {
      name: 'Container-Runtime',
      type: 'string',
      priority: 1,
      cell: o => o.status?.nodeInfo?.containerRuntimeVersion ?? ''
    }
  ],
  pods: [
    name,
    {
      name: 'Ready',
      type: 'string',
      cell: o =>
        `${(o.status?.containerStatuses ?? []).filter((c: any) => c.ready).length}/${(o.spec?.containers ?? []).length}`
    },
    { name: 'Status', type: 'string', cell: podStatus },
    {
      name: 'Restarts',
      type: 'string',
      cell: o =>
        String(
          (o.status?.containerStatuses ?? []).reduce((n: number, c: any) => n + (c.restartCount ?? 0), 0)
        )
    },
    ageCol,
    { name: 'IP', type: 'string', priority: 1, cell: o => none(o.status?.podIP) },
    { name: 'Node', type: 'string', priority: 1, cell: o => none(o.spec?.nodeName) },
    { name: 'Nominated Node', type: 'string', priority: 1, cell: o => none(o.status?.nominatedNodeName) },
    { name: 'Readiness Gates', type: 'string', priority: 1, cell: () => '<none>' }
  ],
  daemonsets: [
    name,
    { name: 'Desired', type: 'integer', cell: o => o.status?.desiredNumberScheduled ?? 0 },
    { name: 'Current', type: 'integer', cell: o => o.status?.currentNumberScheduled ?? 0 },
    { name: 'Ready', type: 'integer', cell: o => o.status?.numberReady ?? 0 },
    { name: 'Up-to-date', type: 'integer', cell: o => o.status?.updatedNumberScheduled ?? 0 },
    { name: 'Available', type: 'integer', cell: o => o.status?.numberAvailable ?? 0 },
    { name: 'Node Selector', type: 'string', cell: o => selectorText(o.spec?.template?.spec?.nodeSelector) },
    ageCol,
    {
      name: 'Containers',
      type: 'string',
      priority: 1,
      cell: o => (o.spec?.template?.spec?.containers ?? []).map((c: any) => c.name).join(',')
    },
    {
      name: 'Images',
      type: 'string',
      priority: 1,
      cell: o => (o.spec?.template?.spec?.containers ?? []).map((c: any) => c.image).join(',')
    },
    { name: 'Selector', type: 'string', priority: 1, cell: o => selectorText(o.spec?.selector?.matchLabels) }
  ],
  deployments: [
    name,
    { name: 'Ready', type: 'string', cell: o => `${o.status?.readyReplicas ?? 0}/${o.spec?.replicas ?? 1}` },
    { name: 'Up-to-date', type: 'integer', cell: o => o.status?.updatedReplicas ?? 0 },
    { name: 'Available', type: 'integer', cell: o => o.status?.availableReplicas ?? 0 },
    ageCol
  ],
  namespaces: [name, { name: 'Status', type: 'string', cell: o => o.status?.phase ?? 'Active' }, ageCol],
  configmaps: [
    name,
    {
      name: 'Data',
      type: 'integer',
      cell: o => Object.keys(o.data ?? {}).length + Object.keys(o.binaryData ?? {}).length
    },
    ageCol
  ]
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
      name,
      ...info.printerColumns.map(c => ({
        name: c.name,
        type: c.type === 'date' ? 'string' : c.type,
        priority: c.priority ?? 0,
        cell: (o: KubeObject) => {
          const v = jsonPath(o, c.jsonPath)
          if (c.type === 'date') return typeof v === 'string' ? age(v) : '<unknown>'
          return v === undefined ? null : typeof v === 'object' ? JSON.stringify(v) : v
        }
      }))
    ]
  }
  if (t.group === '' || t.group === 'apps') return BUILTIN_COLUMNS[t.plural] ?? [name, ageCol]
  return [name, ageCol]
}

export function toTable(
  store: ObjectStore,
  t: ResourceType,
  items: KubeObject[],
  metadata: Record<string, unknown>,
  includeObject = 'Metadata'
): Record<string, unknown> {
  const cols = columnsFor(store, t)
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
      cells: cols.map(c => c.cell(o)),
      object:
        includeObject === 'Object'
          ? o
          : { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: o.metadata }
    }))
  }
}
