// The Azure permission table (src/model/permissions.ts): an AuthorizationFailed for each action it
// lists is answered with the built-in role that grants it. Docs: docs/security.md.
import { describe, expect, it } from '@jest/globals'
import { AZURE_PERMISSIONS, azurePermissionHint } from '../../../src/model/permissions.js'

/** The built-in Azure role that carries each action, by the role's own name. */
const ROLE_OF: Record<string, string> = {
  'Microsoft.Features/providers/features/read': 'Reader',
  'Microsoft.Features/providers/features/register/action': 'Contributor',
  'Microsoft.ContainerService/register/action': 'Contributor',
  'Microsoft.ContainerService/managedClusters/read': 'Azure Kubernetes Service Cluster User Role',
  'Microsoft.ContainerService/managedClusters/agentPools/read':
    'Azure Kubernetes Service Agent Pool Manager Role',
  'Microsoft.ContainerService/managedClusters/agentPools/write':
    'Azure Kubernetes Service Agent Pool Manager Role',
  'Microsoft.ContainerService/managedClusters/agentPools/delete':
    'Azure Kubernetes Service Agent Pool Manager Role',
  'Microsoft.ContainerService/managedClusters/listClusterUserCredential/action':
    'Azure Kubernetes Service Cluster User Role',
  'Microsoft.ContainerService/managedClusters/listClusterAdminCredential/action':
    'Azure Kubernetes Service Cluster Admin Role',
  'Microsoft.ContainerService/managedClusters/write': 'Azure Kubernetes Service Contributor Role',
  'Microsoft.ContainerService/managedClusters/delete': 'Azure Kubernetes Service Contributor Role'
}

describe('azurePermissionHint', () => {
  it('lists every action the table knows', () => {
    expect(AZURE_PERMISSIONS.map(p => p.action).sort()).toEqual(Object.keys(ROLE_OF).sort())
  })

  it.each(Object.entries(ROLE_OF))('%s: names the role %s', (action, role) => {
    const message = `The client 'x' with object id 'y' does not have authorization to perform action '${action}' over scope '/subscriptions/s' or the scope is invalid.`
    const hint = azurePermissionHint(message)
    expect(hint).toContain(`missing Azure permission ${action} on /subscriptions/s`)
    expect(hint).toContain(`grant the identity ${role}`)
  })
})
