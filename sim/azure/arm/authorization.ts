// Azure RBAC as ARM applies it to the calls the action makes: each request maps to the action ARM
// checks (Microsoft.ContainerService/managedClusters/agentPools/write for an agent pool PUT, …) and
// its scope; an action the scenario denies (`azure.deny`, exact or with `*` globs, case-insensitive)
// is refused as ARM refuses it: 403 AuthorizationFailed naming the client, the action and the scope.
// Everything else is allowed (the default identity may do anything).
import type { SimHttpRequest, SimHttpResponse } from '../http.js'
import { globToRegExp } from '../http.js'
import { armError } from './errors.js'

const SEG = '([^/]+)'
const FEATURE = new RegExp(
  `^(/subscriptions/${SEG}/providers/Microsoft\\.Features/providers/${SEG}/features/${SEG})(/register)?$`,
  'i'
)
const PROVIDER = new RegExp(`^(/subscriptions/${SEG})/providers/${SEG}(/register)?$`, 'i')
const CLUSTER = new RegExp(
  `^(/subscriptions/${SEG}/resourceGroups/${SEG}/providers/Microsoft\\.ContainerService/managedClusters/${SEG})(?:/(listClusterUserCredential|listClusterAdminCredential|agentPools)(?:/${SEG})?)?$`,
  'i'
)

const VERB: Record<string, string> = { GET: 'read', PUT: 'write', PATCH: 'write', DELETE: 'delete' }

/** The Azure RBAC action a request needs and the scope it is checked at; undefined when none is modelled. */
export function armAction(method: string, rawPath: string): { action: string; scope: string } | undefined {
  const path = decodeURIComponent(rawPath.replace(/\/+$/, ''))
  const m = method.toUpperCase()
  let r = FEATURE.exec(path)
  if (r)
    return r[5]
      ? { action: 'Microsoft.Features/providers/features/register/action', scope: r[1] }
      : { action: 'Microsoft.Features/providers/features/read', scope: r[1] }
  r = PROVIDER.exec(path)
  if (r && r[4] && m === 'POST') return { action: `${r[3]}/register/action`, scope: r[1] }
  r = CLUSTER.exec(path)
  if (r) {
    const scope = r[1]
    const sub = r[5]?.toLowerCase()
    if (sub === 'listclusterusercredential')
      return { action: 'Microsoft.ContainerService/managedClusters/listClusterUserCredential/action', scope }
    if (sub === 'listclusteradmincredential')
      return { action: 'Microsoft.ContainerService/managedClusters/listClusterAdminCredential/action', scope }
    if (sub === 'agentpools') {
      const verb = VERB[m]
      return verb
        ? {
            action: `Microsoft.ContainerService/managedClusters/agentPools/${verb}`,
            scope: r[6] ? `${scope}/agentPools/${r[6]}` : scope
          }
        : undefined
    }
    const verb = VERB[m]
    return verb ? { action: `Microsoft.ContainerService/managedClusters/${verb}`, scope } : undefined
  }
  return undefined
}

/** ARM's refusal when the scenario denies the request's action to the caller; undefined when allowed. */
export function authorize(
  req: SimHttpRequest,
  denied: readonly string[] | undefined,
  caller: { objectId: string }
): SimHttpResponse | undefined {
  if (!denied?.length) return undefined
  const needed = armAction(req.method, req.path)
  if (!needed) return undefined
  if (!denied.some(d => globToRegExp(d).test(needed.action))) return undefined
  return armError(
    403,
    'AuthorizationFailed',
    `The client '${caller.objectId}' with object id '${caller.objectId}' does not have authorization to perform action '${needed.action}' over scope '${needed.scope}' or the scope is invalid. If access was recently granted, please refresh your credentials.`
  )
}
