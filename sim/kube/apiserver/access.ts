// The scenario key `kube.access`: identities with fewer rights than the cluster admin. Each
// entry names a user and the RBAC rules it keeps; the world then drops that user from
// system:masters and grants the rules through a ClusterRole + ClusterRoleBinding (rules without
// a namespace) and a Role + RoleBinding per namespace, named `aks-rdma-sim:<user>`, which kubectl
// can read. Everything else it asks for is answered 403 as a real RBAC cluster answers it.
import type { ObjectStore } from '../store.js'
import type { PolicyRule } from './rbac.js'

/** One rule an identity keeps (an RBAC PolicyRule, plus the namespace it applies in). */
export interface AccessRule {
  verbs: string[]
  /** API groups ('' = core, '*' = all); required with `resources`. */
  apiGroups?: string[]
  /** Resources (`pods`, `pods/log`, `*`); required unless `nonResourceURLs`. */
  resources?: string[]
  resourceNames?: string[]
  /** Non-resource paths (`/healthz`, `/apis/*`); only without `namespace`. */
  nonResourceURLs?: string[]
  /** Grant the rule only in this namespace (a Role); cluster-wide when absent (a ClusterRole). */
  namespace?: string
}

/** scenario `kube.access[]`: a user name and the rules it keeps. */
export interface AccessGrant {
  /** `clusterUser` (the user credential's token, the action's default identity), `clusterAdmin`
   *  (the admin token), `masterclient` (the admin client certificate), or an Entra identity's
   *  user name (upn, else object id). */
  user: string
  rules: AccessRule[]
}

const VERBS = new Set([
  '*',
  'get',
  'list',
  'watch',
  'create',
  'update',
  'patch',
  'delete',
  'deletecollection',
  'impersonate',
  'bind',
  'escalate',
  'use',
  'approve',
  'sign',
  'proxy'
])
const RULE_KEYS = new Set([
  'verbs',
  'apiGroups',
  'resources',
  'resourceNames',
  'nonResourceURLs',
  'namespace'
])
const NAMESPACE_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/

function strings(v: unknown, where: string, problems: string[], nonEmpty: boolean): void {
  if (!Array.isArray(v) || v.some(x => typeof x !== 'string')) problems.push(`${where}: a list of strings`)
  else if (nonEmpty && v.length === 0) problems.push(`${where}: at least one entry`)
}

/** Problems with a `kube.access` value (empty when it is valid). */
export function accessProblems(value: unknown): string[] {
  const problems: string[] = []
  if (value === undefined) return problems
  if (!Array.isArray(value)) return ['kube.access: a list of {user, rules}']
  value.forEach((g, i) => {
    const at = `kube.access[${i}]`
    if (typeof g !== 'object' || g === null || Array.isArray(g)) {
      problems.push(`${at}: a mapping with user and rules`)
      return
    }
    const grant = g as Record<string, unknown>
    for (const k of Object.keys(grant))
      if (k !== 'user' && k !== 'rules') problems.push(`${at}.${k}: unknown key (user, rules)`)
    if (typeof grant.user !== 'string' || !grant.user.trim()) problems.push(`${at}.user: a user name`)
    if (!Array.isArray(grant.rules)) {
      problems.push(`${at}.rules: a list of rules (verbs, apiGroups, resources, …)`)
      return
    }
    grant.rules.forEach((r, j) => {
      const rat = `${at}.rules[${j}]`
      if (typeof r !== 'object' || r === null || Array.isArray(r)) {
        problems.push(`${rat}: a mapping`)
        return
      }
      const rule = r as Record<string, unknown>
      for (const k of Object.keys(rule))
        if (!RULE_KEYS.has(k)) problems.push(`${rat}.${k}: unknown key (${[...RULE_KEYS].join(', ')})`)
      strings(rule.verbs, `${rat}.verbs`, problems, true)
      if (Array.isArray(rule.verbs))
        for (const v of rule.verbs)
          if (typeof v === 'string' && !VERBS.has(v))
            problems.push(`${rat}.verbs: "${v}" is not a verb (${[...VERBS].join(', ')})`)
      const hasResources = rule.resources !== undefined
      const hasUrls = rule.nonResourceURLs !== undefined
      if (hasResources === hasUrls) problems.push(`${rat}: exactly one of resources or nonResourceURLs`)
      if (hasResources) {
        strings(rule.resources, `${rat}.resources`, problems, true)
        strings(rule.apiGroups, `${rat}.apiGroups`, problems, true)
      } else if (rule.apiGroups !== undefined) problems.push(`${rat}.apiGroups: only with resources`)
      if (hasUrls) {
        strings(rule.nonResourceURLs, `${rat}.nonResourceURLs`, problems, true)
        if (rule.namespace !== undefined) problems.push(`${rat}.namespace: not with nonResourceURLs`)
      }
      if (rule.resourceNames !== undefined)
        strings(rule.resourceNames, `${rat}.resourceNames`, problems, false)
      if (
        rule.namespace !== undefined &&
        (typeof rule.namespace !== 'string' || !NAMESPACE_RE.test(rule.namespace))
      )
        problems.push(`${rat}.namespace: a namespace name`)
    })
  })
  return problems
}

function policyRule(r: AccessRule): PolicyRule {
  return {
    verbs: [...r.verbs],
    ...(r.apiGroups ? { apiGroups: [...r.apiGroups] } : {}),
    ...(r.resources ? { resources: [...r.resources] } : {}),
    ...(r.resourceNames?.length ? { resourceNames: [...r.resourceNames] } : {}),
    ...(r.nonResourceURLs ? { nonResourceURLs: [...r.nonResourceURLs] } : {})
  }
}

/** The users the grants restrict. */
export function restrictedUsers(grants: AccessGrant[] = []): Set<string> {
  return new Set(grants.map(g => g.user))
}

/** Writes each grant's roles and bindings (cluster-wide and per namespace) into the store. */
export function installAccess(store: ObjectStore, grants: AccessGrant[] = []): void {
  const g = 'rbac.authorization.k8s.io'
  const types = {
    clusterRole: store.type(g, 'clusterroles')!,
    clusterBinding: store.type(g, 'clusterrolebindings')!,
    role: store.type(g, 'roles')!,
    roleBinding: store.type(g, 'rolebindings')!,
    ns: store.type('', 'namespaces')!
  }
  for (const grant of grants) {
    const name = `aks-rdma-sim:${grant.user}`
    const labels = { 'app.kubernetes.io/managed-by': 'aks-rdma-sim' }
    const subjects = [{ apiGroup: g, kind: 'User', name: grant.user }]
    const byNs = new Map<string, PolicyRule[]>()
    for (const r of grant.rules) {
      const ns = r.namespace ?? ''
      byNs.set(ns, [...(byNs.get(ns) ?? []), policyRule(r)])
    }
    for (const [ns, rules] of byNs) {
      if (!ns) {
        store.create(types.clusterRole, {
          apiVersion: `${g}/v1`,
          kind: 'ClusterRole',
          metadata: { name, labels },
          rules
        })
        store.create(types.clusterBinding, {
          apiVersion: `${g}/v1`,
          kind: 'ClusterRoleBinding',
          metadata: { name, labels },
          roleRef: { apiGroup: g, kind: 'ClusterRole', name },
          subjects
        })
        continue
      }
      if (!store.tryGet(types.ns, undefined, ns))
        store.create(types.ns, {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name: ns, labels: { 'kubernetes.io/metadata.name': ns } },
          spec: { finalizers: ['kubernetes'] },
          status: { phase: 'Active' }
        })
      store.create(types.role, {
        apiVersion: `${g}/v1`,
        kind: 'Role',
        metadata: { name, namespace: ns, labels },
        rules
      })
      store.create(types.roleBinding, {
        apiVersion: `${g}/v1`,
        kind: 'RoleBinding',
        metadata: { name, namespace: ns, labels },
        roleRef: { apiGroup: g, kind: 'Role', name },
        subjects
      })
    }
  }
}
