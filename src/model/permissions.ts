// What the action's identity must be allowed to do (Azure and Kubernetes) and what to grant when refused.
// The README's permissions table is this list. Docs: README.md#permissions, docs/security.md.
import { WORK_NAMESPACE } from './work-labels.js'

export interface AzurePermission {
  /** The Azure RBAC action ARM checks. */
  action: string
  /** When the action calls it. */
  when: string
  /** The least built-in role that carries it, and where to assign it. */
  role: string
}

export const AZURE_PERMISSIONS: readonly AzurePermission[] = [
  {
    action: 'Microsoft.Features/providers/features/read',
    when: 'register-feature: read AKSInfinibandSupport',
    role: 'Reader (or Contributor) on the subscription'
  },
  {
    action: 'Microsoft.Features/providers/features/register/action',
    when: 'register-feature: register AKSInfinibandSupport when it is not Registered',
    role: 'Contributor (or Owner) on the subscription'
  },
  {
    action: 'Microsoft.ContainerService/register/action',
    when: 'register-feature: re-register the Microsoft.ContainerService provider',
    role: 'Contributor (or Owner) on the subscription'
  },
  {
    action: 'Microsoft.ContainerService/managedClusters/read',
    when: "create-cluster: true, cleanup: cluster: read the cluster; kubeconfig with apply, drift with subscription-id or uninstall with cleanup: its API server's address",
    role: 'Azure Kubernetes Service Cluster User Role (or Reader) on the cluster'
  },
  {
    action: 'Microsoft.ContainerService/managedClusters/agentPools/read',
    when: "apply, drift: read the RDMA pool and list the cluster's pools",
    role: 'Azure Kubernetes Service Agent Pool Manager Role (or Azure Kubernetes Service Contributor Role) on the cluster'
  },
  {
    action: 'Microsoft.ContainerService/managedClusters/agentPools/write',
    when: 'apply: create the RDMA pool when it is absent',
    role: 'Azure Kubernetes Service Agent Pool Manager Role (or Azure Kubernetes Service Contributor Role) on the cluster'
  },
  {
    action: 'Microsoft.ContainerService/managedClusters/agentPools/delete',
    when: 'cleanup: node-pool (post step) of a pool the run created',
    role: 'Azure Kubernetes Service Agent Pool Manager Role (or Azure Kubernetes Service Contributor Role) on the cluster'
  },
  {
    action: 'Microsoft.ContainerService/managedClusters/listClusterUserCredential/action',
    when: 'every run without kubeconfig (admin-credentials: false): the kubeconfig',
    role: 'Azure Kubernetes Service Cluster User Role on the cluster'
  },
  {
    action: 'Microsoft.ContainerService/managedClusters/listClusterAdminCredential/action',
    when: 'admin-credentials: true, without kubeconfig: the admin kubeconfig',
    role: 'Azure Kubernetes Service Cluster Admin Role on the cluster'
  },
  {
    action: 'Microsoft.ContainerService/managedClusters/write',
    when: 'create-cluster: true: create the cluster when it is absent',
    role: 'Azure Kubernetes Service Contributor Role on the resource group'
  },
  {
    action: 'Microsoft.ContainerService/managedClusters/delete',
    when: 'cleanup: cluster (post step) of a cluster the run created',
    role: 'Azure Kubernetes Service Contributor Role on the resource group'
  }
]

/** The action and scope ARM names in an AuthorizationFailed message. */
export function deniedAction(message: string): { action: string; scope?: string } | undefined {
  const m = /perform action '([^']+)'(?: over scope '([^']+)')?/i.exec(message)
  return m ? { action: m[1], ...(m[2] ? { scope: m[2] } : {}) } : undefined
}

/** `missing permission <action> — grant <role>` for an ARM AuthorizationFailed message; undefined otherwise. */
export function azurePermissionHint(message: string): string | undefined {
  const denied = deniedAction(message)
  if (!denied) return undefined
  const known = AZURE_PERMISSIONS.find(p => p.action.toLowerCase() === denied.action.toLowerCase())
  return (
    `missing Azure permission ${denied.action}${denied.scope ? ` on ${denied.scope}` : ''}: ` +
    (known ? `grant the identity ${known.role}` : 'grant the identity a role that carries it') +
    ' (role assignments can take a few minutes to apply)'
  )
}

/** What the stack needs on the cluster, and how to give it (a 403 from the API server). */
export const KUBERNETES_PERMISSION =
  'The action needs cluster-admin rights on the cluster (it installs CRDs, cluster-scoped policies, DaemonSets in ' +
  'kube-system and helm releases): the user credential of a cluster with local accounts has them; on an Entra ID ' +
  'cluster bind the identity to cluster-admin (Kubernetes RBAC), or with Azure RBAC for Kubernetes authorization ' +
  'grant it Azure Kubernetes Service RBAC Cluster Admin on the cluster; or use admin-credentials: true with ' +
  'Azure Kubernetes Service Cluster Admin Role. drift and verify need only read access (get, list, watch; ' +
  "docs/security.md says what each mode needs): verify's node probe and benchmark also create and delete " +
  'daemonsets and pods in namespace aks-rdma-verify (recorded, when they create it, in the ConfigMap ' +
  'kube-system/aks-rdma-action-owned), and drift compares helm release values with get and list ' +
  "on secrets in the releases' namespaces."

/** What drift needs beyond reading to compare a helm release's status and values (helm keeps releases in Secrets). */
export function helmSecretsPermission(namespace: string): string {
  return `reading helm's release Secrets needs get and list on secrets in namespace ${namespace}`
}

/** What verify's node probe writes, as permissions (docs/security.md, "What each mode needs on the cluster"). */
export const PROBE_PERMISSION =
  `the node probe needs create, delete and list on daemonsets.apps in namespace ${WORK_NAMESPACE} ` +
  `(and, while ${WORK_NAMESPACE} does not exist, create and patch on namespaces and create and update on the ` +
  'ConfigMap kube-system/aks-rdma-action-owned that records it)'

/** The hint for a 403 the API server gave, naming what was refused (its message). */
export function kubernetesPermissionHint(serverMessage: string): string | undefined {
  const m = /forbidden: User "([^"]*)" cannot (\S+) resource "([^"]+)"(?: in API group "([^"]*)")?/i.exec(
    serverMessage
  )
  if (!m) return undefined
  const [, user, verb, resource, group] = m
  return `missing Kubernetes permission: ${user} may not ${verb} ${resource}${group ? `.${group}` : ''}. ${KUBERNETES_PERMISSION}`
}
