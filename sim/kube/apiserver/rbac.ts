// Authorization as a cluster with RBAC does it: the request's attributes (verb, API group,
// resource/subresource, namespace, name — or a non-resource path) parsed from the URL the way the
// API server's RequestInfoFactory does, members of system:masters allowed outright, everyone else
// through the ClusterRoles/Roles their ClusterRoleBindings/RoleBindings (in the store, so kubectl
// can read and change them) grant. A denial is the real Forbidden Status and message. Also the
// default bootstrap roles every cluster has (cluster-admin, discovery, basic-user, public info).
import type { KubeObject, ObjectStore } from '../store.js'
import type { UserInfo } from './authn.js'
import { ApiError } from './status.js'

export interface Attributes {
  resourceRequest: boolean
  verb: string
  /** Non-resource requests. */
  path: string
  apiGroup: string
  apiVersion: string
  resource: string
  subresource: string
  namespace: string
  name: string
}

export interface PolicyRule {
  verbs: string[]
  apiGroups?: string[]
  resources?: string[]
  resourceNames?: string[]
  nonResourceURLs?: string[]
}

export interface Decision {
  allowed: boolean
  reason: string
}

const SPECIAL_VERBS = new Set(['proxy', 'watch'])
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize'])

/** The authorization attributes of a request (k8s.io/apiserver RequestInfoFactory). */
export function requestAttributes(method: string, pathname: string, query: URLSearchParams): Attributes {
  const a: Attributes = {
    resourceRequest: false,
    verb: method.toLowerCase(),
    path: pathname,
    apiGroup: '',
    apiVersion: '',
    resource: '',
    subresource: '',
    namespace: '',
    name: ''
  }
  let parts = pathname.split('/').filter(Boolean).map(decodeURIComponent)
  if (parts.length < 3 || (parts[0] !== 'api' && parts[0] !== 'apis')) return a
  const prefix = parts[0]
  parts = parts.slice(1)
  if (prefix === 'apis') {
    if (parts.length < 3) return a
    a.apiGroup = parts[0]
    parts = parts.slice(1)
  }
  a.resourceRequest = true
  a.apiVersion = parts[0]
  parts = parts.slice(1)
  let viaPrefix = false
  if (SPECIAL_VERBS.has(parts[0]) && parts.length >= 2) {
    a.verb = parts[0]
    parts = parts.slice(1)
    viaPrefix = true
  } else {
    a.verb =
      { POST: 'create', GET: 'get', HEAD: 'get', PUT: 'update', PATCH: 'patch', DELETE: 'delete' }[
        method.toUpperCase()
      ] ?? ''
  }
  if (parts[0] === 'namespaces') {
    if (parts.length > 1) {
      a.namespace = parts[1]
      if (parts.length > 2 && !NAMESPACE_SUBRESOURCES.has(parts[2])) parts = parts.slice(2)
    }
  }
  if (parts.length >= 3) a.subresource = parts[2]
  if (parts.length >= 2) a.name = parts[1]
  if (parts.length >= 1) a.resource = parts[0]
  if (!a.name && a.verb === 'get') {
    const watch = query.get('watch')
    a.verb = watch !== null && !['false', '0'].includes(watch.toLowerCase()) ? 'watch' : 'list'
    const exact = /^metadata\.name==?([^,]+)$/.exec(query.get('fieldSelector') ?? '')
    if (exact) a.name = exact[1]
  }
  if (!a.name && a.verb === 'delete') a.verb = 'deletecollection'
  if (viaPrefix && a.verb === 'watch') a.subresource = parts.length >= 3 ? parts[2] : ''
  return a
}

function resourceOf(a: Attributes): string {
  return a.subresource ? `${a.resource}/${a.subresource}` : a.resource
}

/** The Forbidden error a real API server answers with (handlers/responsewriters.ForbiddenStatusError). */
export function forbidden(user: UserInfo, a: Attributes): ApiError {
  const who = JSON.stringify(user.username)
  const sanitize = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
  if (!a.resourceRequest)
    return new ApiError(
      403,
      'Forbidden',
      sanitize(`forbidden: User ${who} cannot ${a.verb} path ${JSON.stringify(a.path)}`)
    )
  const where = a.namespace ? `in the namespace ${JSON.stringify(a.namespace)}` : 'at the cluster scope'
  const msg = sanitize(
    `User ${who} cannot ${a.verb} resource ${JSON.stringify(resourceOf(a))} in API group ${JSON.stringify(a.apiGroup)} ${where}`
  )
  const gr = a.apiGroup ? `${a.resource}.${a.apiGroup}` : a.resource
  const message = !gr
    ? `forbidden: ${msg}`
    : a.name
      ? `${gr} ${JSON.stringify(a.name)} is forbidden: ${msg}`
      : `${gr} is forbidden: ${msg}`
  return new ApiError(403, 'Forbidden', message, {
    ...(a.name ? { name: a.name } : {}),
    group: a.apiGroup,
    kind: a.resource
  })
}

// ---- rule matching (rbac/v1 evaluation helpers) -------------------------------------------------

function has(list: string[] | undefined, v: string): boolean {
  return (list ?? []).some(x => x === '*' || x === v)
}

export function ruleAllows(a: Attributes, r: PolicyRule): boolean {
  if (!has(r.verbs, a.verb)) return false
  if (!a.resourceRequest)
    return (r.nonResourceURLs ?? []).some(
      u => u === '*' || u === a.path || (u.endsWith('*') && a.path.startsWith(u.slice(0, -1)))
    )
  if (!has(r.apiGroups, a.apiGroup)) return false
  const combined = resourceOf(a)
  const resourceOk = (r.resources ?? []).some(
    x => x === '*' || x === combined || (!!a.subresource && x === `*/${a.subresource}`)
  )
  if (!resourceOk) return false
  return !r.resourceNames?.length || r.resourceNames.includes(a.name)
}

interface Grant {
  rules: PolicyRule[]
  /** Where the grant comes from, in the words of the RBAC authorizer's reason. */
  source: string
}

function subjectMatches(user: UserInfo, s: any, bindingNamespace?: string): boolean {
  if (s?.kind === 'User') return s.name === user.username
  if (s?.kind === 'Group') return user.groups.includes(s.name)
  if (s?.kind === 'ServiceAccount')
    return user.username === `system:serviceaccount:${s.namespace ?? bindingNamespace ?? ''}:${s.name}`
  return false
}

function rulesOf(store: ObjectStore, kind: 'ClusterRole' | 'Role', name: string, ns?: string): PolicyRule[] {
  const t =
    kind === 'ClusterRole'
      ? store.type('rbac.authorization.k8s.io', 'clusterroles')
      : store.type('rbac.authorization.k8s.io', 'roles')
  const role = t ? store.tryGet(t, kind === 'Role' ? ns : undefined, name) : undefined
  return (role?.rules ?? []) as PolicyRule[]
}

/** Every grant that reaches `user` in `namespace` ('' = cluster-wide bindings only). */
function grants(store: ObjectStore, user: UserInfo, namespace: string): Grant[] {
  const out: Grant[] = []
  const crb = store.type('rbac.authorization.k8s.io', 'clusterrolebindings')
  const rb = store.type('rbac.authorization.k8s.io', 'rolebindings')
  const describe = (b: KubeObject, s: any) =>
    `${b.kind} ${JSON.stringify(b.metadata.namespace ? `${b.metadata.namespace}/${b.metadata.name}` : b.metadata.name)} of ${b.roleRef?.kind} ${JSON.stringify(b.roleRef?.name)} to ${s.kind} ${JSON.stringify(s.name)}`
  for (const b of crb ? store.list(crb).items : []) {
    const s = (b.subjects ?? []).find((x: any) => subjectMatches(user, x))
    if (!s || b.roleRef?.kind !== 'ClusterRole') continue
    out.push({ rules: rulesOf(store, 'ClusterRole', b.roleRef.name), source: describe(b, s) })
  }
  if (namespace && rb)
    for (const b of store.list(rb, { namespace }).items) {
      const s = (b.subjects ?? []).find((x: any) => subjectMatches(user, x, namespace))
      if (!s) continue
      const kind = b.roleRef?.kind === 'Role' ? 'Role' : 'ClusterRole'
      out.push({ rules: rulesOf(store, kind, b.roleRef?.name, namespace), source: describe(b, s) })
    }
  return out
}

export const SUPERUSER_GROUP = 'system:masters'

export function authorize(store: ObjectStore, user: UserInfo, a: Attributes): Decision {
  if (user.groups.includes(SUPERUSER_GROUP)) return { allowed: true, reason: '' }
  for (const g of grants(store, user, a.namespace))
    if (g.rules.some(r => ruleAllows(a, r))) return { allowed: true, reason: `RBAC: allowed by ${g.source}` }
  return { allowed: false, reason: '' }
}

/** The rules `user` holds in `namespace` (SelfSubjectRulesReview). */
export function rulesFor(
  store: ObjectStore,
  user: UserInfo,
  namespace: string
): { resourceRules: PolicyRule[]; nonResourceRules: PolicyRule[] } {
  const resourceRules: PolicyRule[] = []
  const nonResourceRules: PolicyRule[] = []
  for (const r of grants(store, user, namespace).flatMap(g => g.rules)) {
    if (r.resources?.length)
      resourceRules.push({
        verbs: [...r.verbs],
        apiGroups: [...(r.apiGroups ?? [])],
        resources: [...r.resources],
        ...(r.resourceNames?.length ? { resourceNames: [...r.resourceNames] } : {})
      })
    if (r.nonResourceURLs?.length)
      nonResourceRules.push({ verbs: [...r.verbs], nonResourceURLs: [...r.nonResourceURLs] })
  }
  return { resourceRules, nonResourceRules }
}

// ---- bootstrap policy -----------------------------------------------------------------------------

const ADMIN_RULES: PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] }
]

const BOOTSTRAP: Array<{ name: string; rules: PolicyRule[]; groups: string[] }> = [
  { name: 'cluster-admin', rules: ADMIN_RULES, groups: [SUPERUSER_GROUP] },
  {
    name: 'system:discovery',
    rules: [
      {
        verbs: ['get'],
        nonResourceURLs: [
          '/api',
          '/api/*',
          '/apis',
          '/apis/*',
          '/healthz',
          '/livez',
          '/openapi',
          '/openapi/*',
          '/readyz',
          '/version',
          '/version/'
        ]
      }
    ],
    groups: ['system:authenticated']
  },
  {
    name: 'system:basic-user',
    rules: [
      {
        verbs: ['create'],
        apiGroups: ['authorization.k8s.io'],
        resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']
      },
      { verbs: ['create'], apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'] }
    ],
    groups: ['system:authenticated']
  },
  {
    name: 'system:public-info-viewer',
    rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'] }],
    groups: ['system:authenticated', 'system:unauthenticated']
  }
]

const BOOTSTRAP_LABELS = { 'kubernetes.io/bootstrapping': 'rbac-defaults' }

/** Creates the default ClusterRoles and ClusterRoleBindings a new cluster has (when absent). */
export function seedBootstrapRbac(store: ObjectStore): void {
  const roles = store.type('rbac.authorization.k8s.io', 'clusterroles')
  const bindings = store.type('rbac.authorization.k8s.io', 'clusterrolebindings')
  if (!roles || !bindings) return
  for (const b of BOOTSTRAP) {
    const annotations = { 'rbac.authorization.kubernetes.io/autoupdate': 'true' }
    if (!store.tryGet(roles, undefined, b.name))
      store.create(roles, {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: b.name, labels: BOOTSTRAP_LABELS, annotations },
        rules: b.rules
      })
    if (!store.tryGet(bindings, undefined, b.name))
      store.create(bindings, {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: b.name, labels: BOOTSTRAP_LABELS, annotations },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: b.name },
        subjects: b.groups.map(name => ({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name }))
      })
  }
}
