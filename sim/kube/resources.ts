// The built-in resource types the simulated API server serves (core, apps, batch, coordination,
// rbac, node, apiextensions), and registerBuiltins() which puts them into a store together with
// the namespaces, PriorityClasses and `kubernetes` Service every fresh cluster has, and the
// store's strategy (admission, defaulting, validation, generation, deletion).
import { seedPriorityClasses } from './admission.js'
import type { KubeObject, ObjectStore, ResourceType } from './store.js'
import { typeKey } from './store.js'
import { SERVED_KINDS } from './served-kinds.js'
import { builtinStrategy } from './strategy.js'

const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']

function t(
  group: string,
  version: string,
  plural: string,
  kind: string,
  namespaced: boolean,
  extra: { shortNames?: string[]; subresources?: string[]; singular?: string; verbs?: string[] } = {}
): ResourceType {
  return {
    group,
    version,
    plural,
    singular: extra.singular ?? kind.toLowerCase(),
    kind,
    namespaced,
    verbs: extra.verbs ?? ALL_VERBS,
    ...(extra.shortNames ? { shortNames: extra.shortNames } : {}),
    ...(extra.subresources ? { subresources: extra.subresources } : {})
  }
}

export const BUILTIN_TYPES: ResourceType[] = [
  t('', 'v1', 'namespaces', 'Namespace', false, {
    shortNames: ['ns'],
    subresources: ['status', 'finalize'],
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']
  }),
  t('', 'v1', 'nodes', 'Node', false, { shortNames: ['no'], subresources: ['status'] }),
  t('', 'v1', 'pods', 'Pod', true, {
    shortNames: ['po'],
    subresources: [
      'status',
      'log',
      'eviction',
      'binding',
      'exec',
      'attach',
      'portforward',
      'ephemeralcontainers'
    ]
  }),
  t('', 'v1', 'configmaps', 'ConfigMap', true, { shortNames: ['cm'] }),
  t('', 'v1', 'secrets', 'Secret', true),
  t('', 'v1', 'serviceaccounts', 'ServiceAccount', true, { shortNames: ['sa'], subresources: ['token'] }),
  t('', 'v1', 'events', 'Event', true, { shortNames: ['ev'] }),
  t('', 'v1', 'services', 'Service', true, { shortNames: ['svc'], subresources: ['status'] }),
  t('', 'v1', 'endpoints', 'Endpoints', true, { shortNames: ['ep'], singular: 'endpoints' }),
  t('', 'v1', 'persistentvolumeclaims', 'PersistentVolumeClaim', true, {
    shortNames: ['pvc'],
    subresources: ['status']
  }),
  t('apps', 'v1', 'daemonsets', 'DaemonSet', true, { shortNames: ['ds'], subresources: ['status'] }),
  t('apps', 'v1', 'deployments', 'Deployment', true, {
    shortNames: ['deploy'],
    subresources: ['status', 'scale']
  }),
  t('apps', 'v1', 'replicasets', 'ReplicaSet', true, {
    shortNames: ['rs'],
    subresources: ['status', 'scale']
  }),
  t('apps', 'v1', 'statefulsets', 'StatefulSet', true, {
    shortNames: ['sts'],
    subresources: ['status', 'scale']
  }),
  t('apps', 'v1', 'controllerrevisions', 'ControllerRevision', true),
  t('batch', 'v1', 'jobs', 'Job', true, { subresources: ['status'] }),
  t('coordination.k8s.io', 'v1', 'leases', 'Lease', true),
  t('rbac.authorization.k8s.io', 'v1', 'clusterroles', 'ClusterRole', false),
  t('rbac.authorization.k8s.io', 'v1', 'clusterrolebindings', 'ClusterRoleBinding', false),
  t('rbac.authorization.k8s.io', 'v1', 'roles', 'Role', true),
  t('rbac.authorization.k8s.io', 'v1', 'rolebindings', 'RoleBinding', true),
  t('node.k8s.io', 'v1', 'runtimeclasses', 'RuntimeClass', false),
  t('scheduling.k8s.io', 'v1', 'priorityclasses', 'PriorityClass', false, { shortNames: ['pc'] }),
  // Reviews: created to ask a question, answered in their status, never stored.
  t('authorization.k8s.io', 'v1', 'selfsubjectaccessreviews', 'SelfSubjectAccessReview', false, {
    verbs: ['create']
  }),
  t('authorization.k8s.io', 'v1', 'selfsubjectrulesreviews', 'SelfSubjectRulesReview', false, {
    verbs: ['create']
  }),
  t('authorization.k8s.io', 'v1', 'subjectaccessreviews', 'SubjectAccessReview', false, {
    verbs: ['create']
  }),
  t('authorization.k8s.io', 'v1', 'localsubjectaccessreviews', 'LocalSubjectAccessReview', true, {
    verbs: ['create']
  }),
  t('authentication.k8s.io', 'v1', 'selfsubjectreviews', 'SelfSubjectReview', false, { verbs: ['create'] }),
  t('apiextensions.k8s.io', 'v1', 'customresourcedefinitions', 'CustomResourceDefinition', false, {
    shortNames: ['crd', 'crds'],
    subresources: ['status']
  }),
  ...SERVED_KINDS
]

/** Groups whose types are compiled in (strategic merge patch and list merge keys apply to them). */
export const BUILTIN_GROUPS = new Set(BUILTIN_TYPES.map(b => b.group))

export const INITIAL_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease']

/** The `kubernetes` Service of the default namespace (the API server's own, first IP of the range). */
const KUBERNETES_SERVICE: KubeObject = {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: {
    name: 'kubernetes',
    namespace: 'default',
    labels: { component: 'apiserver', provider: 'kubernetes' }
  },
  spec: {
    clusterIP: '10.0.0.1',
    ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 443 }],
    sessionAffinity: 'None',
    type: 'ClusterIP'
  }
}

/** Registers every built-in type and creates the objects a fresh cluster has (when absent). */
export function registerBuiltins(store: ObjectStore): void {
  for (const type of BUILTIN_TYPES) store.registerType(type)
  store.setStrategy(builtinStrategy(store, new Set(BUILTIN_TYPES.map(typeKey))))
  seedPriorityClasses(store)
  const ns = store.type('', 'namespaces')!
  for (const name of INITIAL_NAMESPACES)
    if (!store.tryGet(ns, undefined, name))
      store.create(ns, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } })
  const svc = store.type('', 'services')!
  if (!store.tryGet(svc, 'default', 'kubernetes')) store.create(svc, structuredClone(KUBERNETES_SERVICE))
}
