// The columns kube-apiserver's server-side printers give the built-in kinds (kubernetes/kubernetes
// @v1.33 pkg/printers/internalversion/printers.go: AddHandlers' column definitions and the print*
// functions' cells; ages by k8s.io/apimachinery/pkg/util/duration HumanDuration against the
// server's clock). Priority-1 columns are what `kubectl get -o wide` adds.
import type { KubeObject } from '../store.js'
import { selectorString } from '../selectors.js'

export interface Column {
  name: string
  type: string
  format?: string
  priority?: number
  cell: (o: KubeObject, now: number) => unknown
}

/** duration.HumanDuration: `45s`, `5m30s`, `3h20m`, `2d4h`, `<invalid>` for the future. */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000)
  if (seconds < -1) return '<invalid>'
  if (seconds < 0) return '0s'
  if (seconds < 120) return `${seconds}s`
  const minutes = Math.floor(seconds / 60)
  if (minutes < 10) return seconds % 60 ? `${minutes}m${seconds % 60}s` : `${minutes}m`
  if (minutes < 180) return `${minutes}m`
  const hours = Math.floor(minutes / 60)
  if (hours < 8) return minutes % 60 ? `${hours}h${minutes % 60}m` : `${hours}h`
  if (hours < 48) return `${hours}h`
  const days = Math.floor(hours / 24)
  if (hours < 24 * 8) return hours % 24 ? `${days}d${hours % 24}h` : `${days}d`
  if (hours < 24 * 365 * 2) return `${days}d`
  const years = Math.floor(days / 365)
  if (hours < 24 * 365 * 8) return days % 365 ? `${years}y${days % 365}d` : `${years}y`
  return `${years}y`
}

/** translateTimestampSince: `<unknown>` without a timestamp. */
export function since(timestamp: string | undefined, now: number): string {
  if (!timestamp) return '<unknown>'
  return humanDuration(now - Date.parse(timestamp))
}

const none = (v: unknown) => (v === undefined || v === null || v === '' ? '<none>' : v)
const containers = (spec: any): any[] => spec?.template?.spec?.containers ?? []

export const NAME: Column = { name: 'Name', type: 'string', format: 'name', cell: o => o.metadata.name }
export const AGE: Column = {
  name: 'Age',
  type: 'string',
  cell: (o, now) => since(o.metadata.creationTimestamp, now)
}
const CREATED_AT: Column = { name: 'Created At', type: 'date', cell: o => o.metadata.creationTimestamp ?? '' }

const WORKLOAD_WIDE: Column[] = [
  {
    name: 'Containers',
    type: 'string',
    priority: 1,
    cell: o =>
      containers(o.spec)
        .map(c => c.name)
        .join(',')
  },
  {
    name: 'Images',
    type: 'string',
    priority: 1,
    cell: o =>
      containers(o.spec)
        .map(c => c.image)
        .join(',')
  },
  { name: 'Selector', type: 'string', priority: 1, cell: o => selectorString(o.spec?.selector) || '<none>' }
]

function podStatus(o: KubeObject): string {
  const st = o.status ?? {}
  let reason: string = st.reason ?? st.phase ?? 'Pending'
  const inits: any[] = st.initContainerStatuses ?? []
  const specInits: any[] = o.spec?.initContainers ?? []
  let initializing = false
  inits.forEach((c, i) => {
    const t = c.state?.terminated
    if (t && t.exitCode === 0) return
    initializing = true
    if (t) reason = t.reason ? `Init:${t.reason}` : `Init:ExitCode:${t.exitCode}`
    else if (c.state?.waiting?.reason && c.state.waiting.reason !== 'PodInitializing')
      reason = `Init:${c.state.waiting.reason}`
    else reason = `Init:${i}/${specInits.length}`
  })
  if (!initializing || !inits.length) {
    for (const c of [...(st.containerStatuses ?? [])].reverse()) {
      if (c.state?.waiting?.reason) reason = c.state.waiting.reason
      else if (c.state?.terminated?.reason) reason = c.state.terminated.reason
      else if (c.state?.terminated) reason = `ExitCode:${c.state.terminated.exitCode}`
    }
  }
  if (o.metadata.deletionTimestamp) reason = st.reason === 'NodeLost' ? 'Unknown' : 'Terminating'
  return reason
}

function restarts(o: KubeObject, now: number): string {
  let n = 0
  let last: string | undefined
  for (const c of o.status?.containerStatuses ?? []) {
    n += c.restartCount ?? 0
    const finished = c.lastState?.terminated?.finishedAt
    if (finished && (!last || finished > last)) last = finished
  }
  return last && n ? `${n} (${since(last, now)} ago)` : String(n)
}

const POD: Column[] = [
  NAME,
  {
    name: 'Ready',
    type: 'string',
    cell: o =>
      `${(o.status?.containerStatuses ?? []).filter((c: any) => c.ready).length}/${(o.spec?.containers ?? []).length}`
  },
  { name: 'Status', type: 'string', cell: podStatus },
  { name: 'Restarts', type: 'string', cell: restarts },
  AGE,
  { name: 'IP', type: 'string', priority: 1, cell: o => none(o.status?.podIP) },
  { name: 'Node', type: 'string', priority: 1, cell: o => none(o.spec?.nodeName) },
  { name: 'Nominated Node', type: 'string', priority: 1, cell: o => none(o.status?.nominatedNodeName) },
  { name: 'Readiness Gates', type: 'string', priority: 1, cell: () => '<none>' }
]

function nodeStatus(o: KubeObject): string {
  const ready = (o.status?.conditions ?? []).find((c: any) => c.type === 'Ready')
  const base = ready?.status === 'True' ? 'Ready' : ready ? 'NotReady' : 'Unknown'
  return o.spec?.unschedulable ? `${base},SchedulingDisabled` : base
}

const NODE: Column[] = [
  NAME,
  { name: 'Status', type: 'string', cell: nodeStatus },
  {
    name: 'Roles',
    type: 'string',
    cell: o =>
      Object.keys(o.metadata.labels ?? {})
        .filter(k => k.startsWith('node-role.kubernetes.io/'))
        .map(k => k.slice('node-role.kubernetes.io/'.length))
        .join(',') || '<none>'
  },
  AGE,
  { name: 'Version', type: 'string', cell: o => o.status?.nodeInfo?.kubeletVersion ?? '' },
  ...(['InternalIP', 'ExternalIP'] as const).map(kind => ({
    name: kind === 'InternalIP' ? 'Internal-IP' : 'External-IP',
    type: 'string',
    priority: 1,
    cell: (o: KubeObject) => none((o.status?.addresses ?? []).find((a: any) => a.type === kind)?.address)
  })),
  { name: 'OS-Image', type: 'string', priority: 1, cell: o => o.status?.nodeInfo?.osImage ?? '' },
  { name: 'Kernel-Version', type: 'string', priority: 1, cell: o => o.status?.nodeInfo?.kernelVersion ?? '' },
  {
    name: 'Container-Runtime',
    type: 'string',
    priority: 1,
    cell: o => o.status?.nodeInfo?.containerRuntimeVersion ?? ''
  }
]

function servicePorts(o: KubeObject): string {
  const ports: any[] = o.spec?.ports ?? []
  if (!ports.length) return '<none>'
  return ports.map(p => `${p.port}${p.nodePort ? `:${p.nodePort}` : ''}/${p.protocol ?? 'TCP'}`).join(',')
}

function externalIp(o: KubeObject): string {
  const type = o.spec?.type
  if (type === 'ExternalName') return o.spec?.externalName ?? '<none>'
  const ingress: any[] = o.status?.loadBalancer?.ingress ?? []
  const ips = [...ingress.map(i => i.ip ?? i.hostname), ...(o.spec?.externalIPs ?? [])].filter(Boolean)
  if (ips.length) return ips.join(',')
  return type === 'LoadBalancer' ? '<pending>' : '<none>'
}

function jobStatus(o: KubeObject): string {
  const has = (t: string) =>
    (o.status?.conditions ?? []).some((c: any) => c.type === t && c.status === 'True')
  if (has('Complete')) return 'Complete'
  if (has('Failed')) return 'Failed'
  if (o.metadata.deletionTimestamp) return 'Terminating'
  if (has('Suspended')) return 'Suspended'
  if (has('FailureTarget')) return 'FailureTarget'
  if (has('SuccessCriteriaMet')) return 'SuccessCriteriaMet'
  return 'Running'
}

function jobCompletions(o: KubeObject): string {
  const succeeded = o.status?.succeeded ?? 0
  if (o.spec?.completions != null) return `${succeeded}/${o.spec.completions}`
  const parallelism = o.spec?.parallelism ?? 0
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`
}

function jobDuration(o: KubeObject, now: number): string {
  const start = o.status?.startTime
  if (!start) return ''
  const end = o.status?.completionTime ? Date.parse(o.status.completionTime) : now
  return humanDuration(end - Date.parse(start))
}

function eventTimes(o: KubeObject, now: number): { first: string; last: string; count: number } {
  const first = o.firstTimestamp ? since(o.firstTimestamp, now) : since(o.eventTime, now)
  let last = o.lastTimestamp ? since(o.lastTimestamp, now) : first
  let count = o.count || 1
  if (o.series) {
    last = since(o.series.lastObservedTime, now)
    count = o.series.count
  }
  return { first, last, count }
}

function eventSource(o: KubeObject): string {
  const component = o.source?.component || o.reportingComponent || ''
  const host = o.source?.host || o.reportingInstance || ''
  return host ? `${component}, ${host}` : component
}

const EVENT: Column[] = [
  { name: 'Last Seen', type: 'string', cell: (o, now) => eventTimes(o, now).last },
  { name: 'Type', type: 'string', cell: o => o.type ?? '' },
  { name: 'Reason', type: 'string', cell: o => o.reason ?? '' },
  {
    name: 'Object',
    type: 'string',
    cell: o => {
      const kind = String(o.involvedObject?.kind ?? '').toLowerCase()
      return o.involvedObject?.name ? `${kind}/${o.involvedObject.name}` : kind
    }
  },
  { name: 'Subobject', type: 'string', priority: 1, cell: o => o.involvedObject?.fieldPath ?? '' },
  { name: 'Source', type: 'string', priority: 1, cell: eventSource },
  { name: 'Message', type: 'string', cell: o => String(o.message ?? '').trim() },
  { name: 'First Seen', type: 'string', priority: 1, cell: (o, now) => eventTimes(o, now).first },
  { name: 'Count', type: 'string', priority: 1, cell: (o, now) => eventTimes(o, now).count },
  { name: 'Name', type: 'string', priority: 1, format: 'name', cell: o => o.metadata.name }
]

const selectorText = (sel: Record<string, string> | undefined) =>
  selectorString({ matchLabels: sel }) || '<none>'
const int = (name: string, f: (o: KubeObject) => unknown, priority?: number): Column => ({
  name,
  type: 'integer',
  ...(priority ? { priority } : {}),
  cell: o => f(o) ?? 0
})
const str = (name: string, f: (o: KubeObject, now: number) => unknown, priority?: number): Column => ({
  name,
  type: 'string',
  ...(priority ? { priority } : {}),
  cell: (o, now) => f(o, now) ?? ''
})

/** Columns by resource key (`pods`, `daemonsets.apps`). */
export const BUILTIN_COLUMNS: Record<string, Column[]> = {
  nodes: NODE,
  pods: POD,
  events: EVENT,
  namespaces: [NAME, str('Status', o => o.status?.phase ?? 'Active'), AGE],
  configmaps: [
    NAME,
    int('Data', o => Object.keys(o.data ?? {}).length + Object.keys(o.binaryData ?? {}).length),
    AGE
  ],
  secrets: [NAME, str('Type', o => o.type), int('Data', o => Object.keys(o.data ?? {}).length), AGE],
  serviceaccounts: [NAME, int('Secrets', o => (o.secrets ?? []).length), AGE],
  services: [
    NAME,
    str('Type', o => o.spec?.type),
    str('Cluster-IP', o => none(o.spec?.clusterIP)),
    str('External-IP', externalIp),
    str('Port(s)', servicePorts),
    AGE,
    str('Selector', o => selectorText(o.spec?.selector), 1)
  ],
  endpoints: [
    NAME,
    str('Endpoints', o => {
      const eps = (o.subsets ?? []).flatMap((s: any) =>
        (s.addresses ?? []).flatMap((a: any) =>
          (s.ports ?? [{}]).map((p: any) => (p.port ? `${a.ip}:${p.port}` : a.ip))
        )
      )
      return eps.length ? eps.join(',') : '<none>'
    }),
    AGE
  ],
  'daemonsets.apps': [
    NAME,
    int('Desired', o => o.status?.desiredNumberScheduled),
    int('Current', o => o.status?.currentNumberScheduled),
    int('Ready', o => o.status?.numberReady),
    int('Up-to-date', o => o.status?.updatedNumberScheduled),
    int('Available', o => o.status?.numberAvailable),
    str('Node Selector', o => selectorText(o.spec?.template?.spec?.nodeSelector)),
    AGE,
    ...WORKLOAD_WIDE
  ],
  'deployments.apps': [
    NAME,
    str('Ready', o => `${o.status?.readyReplicas ?? 0}/${o.spec?.replicas ?? 1}`),
    int('Up-to-date', o => o.status?.updatedReplicas),
    int('Available', o => o.status?.availableReplicas),
    AGE,
    ...WORKLOAD_WIDE
  ],
  'replicasets.apps': [
    NAME,
    int('Desired', o => o.spec?.replicas),
    int('Current', o => o.status?.replicas),
    int('Ready', o => o.status?.readyReplicas),
    AGE,
    ...WORKLOAD_WIDE
  ],
  'statefulsets.apps': [
    NAME,
    str('Ready', o => `${o.status?.readyReplicas ?? 0}/${o.spec?.replicas ?? 1}`),
    AGE,
    ...WORKLOAD_WIDE.slice(0, 2)
  ],
  'controllerrevisions.apps': [
    NAME,
    str('Controller', o => {
      const ref = (o.metadata.ownerReferences ?? []).find(r => r.controller)
      return ref ? `${ref.kind.toLowerCase()}.${ref.apiVersion.split('/')[0]}/${ref.name}` : '<none>'
    }),
    int('Revision', o => o.revision),
    AGE
  ],
  'jobs.batch': [
    NAME,
    str('Status', jobStatus),
    str('Completions', jobCompletions),
    str('Duration', jobDuration),
    AGE,
    ...WORKLOAD_WIDE
  ],
  'leases.coordination.k8s.io': [NAME, str('Holder', o => o.spec?.holderIdentity), AGE],
  'priorityclasses.scheduling.k8s.io': [
    NAME,
    int('Value', o => o.value),
    { name: 'Global-Default', type: 'boolean', cell: o => !!o.globalDefault },
    AGE,
    str('PreemptionPolicy', o => o.preemptionPolicy ?? 'PreemptLowerPriority')
  ],
  'runtimeclasses.node.k8s.io': [NAME, str('Handler', o => o.handler), AGE],
  'clusterroles.rbac.authorization.k8s.io': [NAME, CREATED_AT],
  'roles.rbac.authorization.k8s.io': [NAME, CREATED_AT],
  'clusterrolebindings.rbac.authorization.k8s.io': [
    NAME,
    str('Role', o => `${o.roleRef?.kind}/${o.roleRef?.name}`),
    AGE
  ],
  'rolebindings.rbac.authorization.k8s.io': [
    NAME,
    str('Role', o => `${o.roleRef?.kind}/${o.roleRef?.name}`),
    AGE
  ],
  'customresourcedefinitions.apiextensions.k8s.io': [NAME, CREATED_AT]
}
