// Server-side printer columns of the kinds served beyond the core set (kubernetes/kubernetes
// @v1.33.2 pkg/printers/internalversion/printers.go: the column definitions of AddHandlers and
// printPodDisruptionBudget, printCronJob, printEndpointSlice, printNetworkPolicy, printStorageClass,
// printResourceQuota, printLimitRange, printReplicationController, printIngressClass).
import { selectorString } from '../selectors.js'
import type { KubeObject } from '../store.js'
import { AGE, type Column, NAME, since } from './printers.js'

const str = (name: string, f: (o: KubeObject, now: number) => unknown, priority?: number): Column => ({
  name,
  type: 'string',
  ...(priority ? { priority } : {}),
  cell: (o, now) => f(o, now) ?? ''
})
const int = (name: string, f: (o: KubeObject) => unknown): Column => ({
  name,
  type: 'integer',
  cell: o => f(o) ?? 0
})
const CREATED_AT: Column = { name: 'Created At', type: 'date', cell: o => o.metadata.creationTimestamp ?? '' }

/** metav1.FormatLabelSelector: `<none>` for an empty selector. */
function labelSelector(sel: any): string {
  if (!sel) return '<none>'
  return selectorString(sel) || '<none>'
}

/** formatDiscoveryEndpoints: the first three addresses, then `+ N more...`. */
function sliceEndpoints(o: KubeObject): string {
  const addrs: string[] = (o.endpoints ?? []).flatMap((e: any) => e.addresses ?? [])
  if (!addrs.length) return '<unset>'
  const shown = addrs.slice(0, 3).join(',')
  return addrs.length > 3 ? `${shown} + ${addrs.length - 3} more...` : shown
}

/** printResourceQuota's `resource: used/hard` lists, requests and limits apart. */
function quotaList(o: KubeObject, limits: boolean): string {
  const hard = (o.status?.hard ?? {}) as Record<string, string>
  const used = (o.status?.used ?? {}) as Record<string, string>
  return Object.keys(hard)
    .sort()
    .filter(k => k.startsWith('limits') === limits)
    .map(k => `${k}: ${used[k] ?? '0'}/${hard[k]}`)
    .join(', ')
}

const containers = (spec: any): any[] => spec?.template?.spec?.containers ?? []

export const SERVED_COLUMNS: Record<string, Column[]> = {
  'poddisruptionbudgets.policy': [
    NAME,
    str('Min Available', o => (o.spec?.minAvailable ?? 'N/A').toString()),
    str('Max Unavailable', o => (o.spec?.maxUnavailable ?? 'N/A').toString()),
    int('Allowed Disruptions', o => o.status?.disruptionsAllowed),
    AGE
  ],
  'cronjobs.batch': [
    NAME,
    str('Schedule', o => o.spec?.schedule),
    str('Timezone', o => o.spec?.timeZone ?? '<none>'),
    str('Suspend', o => (o.spec?.suspend === undefined ? '<unset>' : o.spec.suspend ? 'True' : 'False')),
    int('Active', o => (o.status?.active ?? []).length),
    str('Last Schedule', (o, now) =>
      o.status?.lastScheduleTime ? since(o.status.lastScheduleTime, now) : '<none>'
    ),
    AGE,
    str(
      'Containers',
      o =>
        containers(o.spec?.jobTemplate?.spec)
          .map(c => c.name)
          .join(','),
      1
    ),
    str(
      'Images',
      o =>
        containers(o.spec?.jobTemplate?.spec)
          .map(c => c.image)
          .join(','),
      1
    ),
    str('Selector', o => labelSelector(o.spec?.jobTemplate?.spec?.selector), 1)
  ],
  'endpointslices.discovery.k8s.io': [
    NAME,
    str('AddressType', o => o.addressType),
    str('Ports', o => {
      const ports: any[] = o.ports ?? []
      return ports.length ? ports.map(p => (p.port === undefined ? '<unset>' : p.port)).join(',') : '<unset>'
    }),
    str('Endpoints', sliceEndpoints),
    AGE
  ],
  'networkpolicies.networking.k8s.io': [
    NAME,
    str('Pod-Selector', o => labelSelector(o.spec?.podSelector)),
    AGE
  ],
  'storageclasses.storage.k8s.io': [
    {
      ...NAME,
      cell: o =>
        o.metadata.annotations?.['storageclass.kubernetes.io/is-default-class'] === 'true'
          ? `${o.metadata.name} (default)`
          : o.metadata.name
    },
    str('Provisioner', o => o.provisioner),
    str('ReclaimPolicy', o => o.reclaimPolicy),
    str('VolumeBindingMode', o => o.volumeBindingMode),
    { name: 'AllowVolumeExpansion', type: 'string', cell: o => String(o.allowVolumeExpansion ?? false) },
    AGE
  ],
  'ingressclasses.networking.k8s.io': [
    NAME,
    str('Controller', o => o.spec?.controller),
    str('Parameters', o => {
      const p = o.spec?.parameters
      return p ? `${p.apiGroup ? `${p.kind}.${p.apiGroup}` : p.kind}/${p.name}` : '<none>'
    }),
    AGE
  ],
  resourcequotas: [
    NAME,
    AGE,
    str('Request', o => quotaList(o, false)),
    str('Limit', o => quotaList(o, true))
  ],
  limitranges: [NAME, CREATED_AT],
  replicationcontrollers: [
    NAME,
    int('Desired', o => o.spec?.replicas),
    int('Current', o => o.status?.replicas),
    int('Ready', o => o.status?.readyReplicas),
    AGE,
    str(
      'Containers',
      o =>
        containers(o.spec)
          .map(c => c.name)
          .join(','),
      1
    ),
    str(
      'Images',
      o =>
        containers(o.spec)
          .map(c => c.image)
          .join(','),
      1
    ),
    str('Selector', o => selectorString({ matchLabels: o.spec?.selector }) || '<none>', 1)
  ]
}
