// Discovery documents: /version, /api (APIVersions), /apis (APIGroupList) and the per group-version
// APIResourceList with subresources (`pods/log`, `daemonsets/status`). Always the legacy form:
// clients asking for aggregated discovery fall back to it when the Content-Type says plain JSON.
import type { ObjectStore, ResourceType } from '../store.js'
import { byVersionPriority } from './crd-versions.js'

export const SERVER_VERSION = 'v1.33.2'

export function versionInfo(): Record<string, string> {
  const [major, minor] = SERVER_VERSION.slice(1).split('.')
  return {
    major,
    minor,
    gitVersion: SERVER_VERSION,
    gitCommit: '0000000000000000000000000000000000000000',
    gitTreeState: 'clean',
    buildDate: '2025-06-17T00:00:00Z',
    goVersion: 'go1.24.4',
    compiler: 'gc',
    platform: 'linux/amd64'
  }
}

export function apiVersions(host: string): Record<string, unknown> {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: host }]
  }
}

function groupVersions(store: ObjectStore): Map<string, Set<string>> {
  const groups = new Map<string, Set<string>>()
  for (const t of store.types()) {
    if (!t.group) continue
    if (!groups.has(t.group)) groups.set(t.group, new Set())
    for (const v of [t.version, ...(t.versions ?? [])]) groups.get(t.group)!.add(v)
  }
  // Each group's versions in Kubernetes version priority: the first is the preferred one.
  for (const [g, vs] of groups) groups.set(g, new Set([...vs].sort(byVersionPriority)))
  return groups
}

export function apiGroupList(store: ObjectStore): Record<string, unknown> {
  const groups = [...groupVersions(store).entries()].map(([name, versions]) => {
    const vs = [...versions].map(version => ({ groupVersion: `${name}/${version}`, version }))
    return { name, versions: vs, preferredVersion: vs[0] }
  })
  return { kind: 'APIGroupList', apiVersion: 'v1', groups }
}

export function apiGroup(store: ObjectStore, group: string): Record<string, unknown> | undefined {
  const versions = groupVersions(store).get(group)
  if (!versions) return undefined
  const vs = [...versions].map(version => ({ groupVersion: `${group}/${version}`, version }))
  return { kind: 'APIGroup', apiVersion: 'v1', name: group, versions: vs, preferredVersion: vs[0] }
}

const SUBRESOURCE_SHAPE: Record<
  string,
  { verbs: string[]; kind?: string; group?: string; version?: string }
> = {
  status: { verbs: ['get', 'patch', 'update'] },
  log: { verbs: ['get'] },
  eviction: { verbs: ['create'], kind: 'Eviction', group: 'policy', version: 'v1' },
  binding: { verbs: ['create'], kind: 'Binding' },
  scale: { verbs: ['get', 'patch', 'update'], kind: 'Scale', group: 'autoscaling', version: 'v1' },
  finalize: { verbs: ['update'] },
  token: { verbs: ['create'], kind: 'TokenRequest', group: 'authentication.k8s.io', version: 'v1' },
  ephemeralcontainers: { verbs: ['get', 'patch', 'update'] },
  approval: { verbs: ['get', 'patch', 'update'] },
  exec: { verbs: ['create', 'get'], kind: 'PodExecOptions' },
  attach: { verbs: ['create', 'get'], kind: 'PodAttachOptions' },
  portforward: { verbs: ['create', 'get'], kind: 'PodPortForwardOptions' }
}

/** Built-in resources in the `all` category (`kubectl get all`), as a real server lists them. */
const CATEGORY_ALL = new Set([
  'pods',
  'services',
  'replicationcontrollers',
  'daemonsets',
  'deployments',
  'replicasets',
  'statefulsets',
  'jobs',
  'cronjobs',
  'horizontalpodautoscalers'
])
const BUILTIN_CATEGORY_GROUPS = new Set(['', 'apps', 'batch', 'autoscaling'])

function resourceEntries(t: ResourceType): Record<string, unknown>[] {
  const main = {
    name: t.plural,
    singularName: t.singular,
    namespaced: t.namespaced,
    kind: t.kind,
    verbs: t.verbs ?? ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    ...(t.shortNames?.length ? { shortNames: t.shortNames } : {}),
    ...(t.categories?.length
      ? { categories: t.categories }
      : BUILTIN_CATEGORY_GROUPS.has(t.group) && CATEGORY_ALL.has(t.plural)
        ? { categories: ['all'] }
        : {})
  }
  const subs = (t.subresources ?? []).map(s => {
    const shape = SUBRESOURCE_SHAPE[s] ?? { verbs: ['get'] }
    return {
      name: `${t.plural}/${s}`,
      singularName: '',
      namespaced: t.namespaced,
      ...(shape.group ? { group: shape.group, version: shape.version } : {}),
      kind: shape.kind ?? t.kind,
      verbs: shape.verbs
    }
  })
  return [main, ...subs]
}

export function apiResourceList(
  store: ObjectStore,
  group: string,
  version: string
): Record<string, unknown> | undefined {
  const types = store
    .types()
    .filter(t => t.group === group && (t.version === version || t.versions?.includes(version)))
  if (!types.length) return undefined
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: group ? `${group}/${version}` : version,
    resources: types.flatMap(resourceEntries)
  }
}
