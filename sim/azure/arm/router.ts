// ARM request routing: bearer checks, Azure RBAC (scenario azure.deny), api-version, then subscription → resource group →
// cluster resolution, then the handler for the path. Paths and names compare case-insensitively,
// as in ARM. Operation status resources (`.../locations/{loc}/operations/{id}`) and operation
// results (`.../operationresults/{id}`) are served here too.
import type { EntraStandIn } from '../entra.js'
import { json, type SimHttpRequest, type SimHttpResponse } from '../http.js'
import { AgentPools } from './agent-pools.js'
import { ARM_AUDIENCES } from '../entra.js'
import { header } from '../http.js'
import { checkArmAuth } from './auth.js'
import { authorize } from './authorization.js'
import { Clusters } from './clusters.js'
import type { ArmContext, ClusterRoute } from './context.js'
import { armError, resourceGroupNotFound, subscriptionNotFound } from './errors.js'
import { Features } from './features.js'
import { Providers } from './providers.js'

const SEG = '([^/]+)'
const FEATURE_RE = new RegExp(
  `^/subscriptions/${SEG}/providers/Microsoft\\.Features/providers/${SEG}/features/${SEG}(/register)?$`,
  'i'
)
const OPERATION_RE = new RegExp(
  `^/subscriptions/${SEG}/providers/Microsoft\\.ContainerService/locations/${SEG}/(operations|operationresults)/${SEG}$`,
  'i'
)
const PROVIDER_RE = new RegExp(`^/subscriptions/${SEG}/providers/${SEG}(/register)?$`, 'i')
const CLUSTER_RE = new RegExp(
  `^/subscriptions/${SEG}/resourceGroups/${SEG}/providers/Microsoft\\.ContainerService/managedClusters/${SEG}(?:/(listClusterUserCredential|listClusterAdminCredential|agentPools)(?:/${SEG})?)?$`,
  'i'
)

function bearerOf(req: SimHttpRequest): string {
  return /^Bearer\s+(\S+)$/i.exec(header(req, 'authorization') ?? '')?.[1] ?? ''
}

/** POSTs that only read (credentials); every other PUT/POST/PATCH/DELETE counts as mutating. */
export function isArmReadOnlyPost(path: string): boolean {
  return /\/listCluster(User|Admin|Monitoring)Credential$/i.test(path)
}

export class ArmService {
  readonly features: Features
  readonly providers: Providers
  private readonly clusters: Clusters
  private readonly pools: AgentPools

  constructor(
    private readonly ctx: ArmContext,
    private readonly entra: EntraStandIn
  ) {
    this.features = new Features(ctx)
    this.providers = new Providers(ctx)
    this.clusters = new Clusters(ctx)
    this.pools = new AgentPools(ctx)
  }

  handle(req: SimHttpRequest): SimHttpResponse {
    this.ctx.ops.settleAll()
    const refused = checkArmAuth(req, this.entra, this.ctx.time, this.ctx.base())
    if (refused) return refused
    const claims = this.entra.checkAccessToken(bearerOf(req), ARM_AUDIENCES).claims
    const forbidden = authorize(req, this.ctx.scenario.azure.deny, {
      objectId: String(claims?.oid ?? claims?.appid ?? this.ctx.scenario.azure.clientId)
    })
    if (forbidden) return forbidden
    const apiVersion = req.query.get('api-version')
    if (!apiVersion) {
      return armError(
        400,
        'MissingApiVersionParameter',
        'The api-version query parameter (?api-version=) is required for all requests.'
      )
    }
    const path = decodeURIComponent(req.path.replace(/\/+$/, ''))
    const subMatch = /^\/subscriptions\/([^/]+)/i.exec(path)
    if (!subMatch) return this.noRoute(req)
    if (subMatch[1].toLowerCase() !== this.ctx.scenario.azure.subscriptionId.toLowerCase())
      return subscriptionNotFound(subMatch[1])
    const sub = this.ctx.scenario.azure.subscriptionId
    const m = req.method.toUpperCase()

    let r = FEATURE_RE.exec(path)
    if (r) {
      const [, , ns, name, register] = r
      if (register && m === 'POST') return this.features.register(sub, ns, name)
      if (!register && m === 'GET') return this.features.get(sub, ns, name)
      return this.methodNotAllowed(req)
    }
    r = OPERATION_RE.exec(path)
    if (r)
      return m === 'GET'
        ? this.operation(sub, r[3].toLowerCase(), r[4], apiVersion)
        : this.methodNotAllowed(req)
    r = PROVIDER_RE.exec(path)
    if (r) {
      const [, , ns, register] = r
      if (register && m === 'POST') return this.providers.register(sub, ns)
      if (!register && m === 'GET') return this.providers.get(sub, ns)
      return this.methodNotAllowed(req)
    }
    r = CLUSTER_RE.exec(path)
    if (r)
      return this.cluster(
        req,
        { subscriptionId: sub, resourceGroup: r[2], clusterName: r[3], apiVersion },
        r[4],
        r[5]
      )
    return this.noRoute(req)
  }

  private cluster(
    req: SimHttpRequest,
    route: ClusterRoute,
    action: string | undefined,
    poolName: string | undefined
  ): SimHttpResponse {
    const m = req.method.toUpperCase()
    const creating = !action && m === 'PUT'
    const where = this.ctx.cluster.resolve(route.resourceGroup, route.clusterName, creating)
    if (where === 'resource-group-missing') return resourceGroupNotFound(route.resourceGroup)
    if (where === 'cluster-missing') {
      if (!action && m === 'DELETE') return { status: 204 }
      return this.clusters.notFound(route)
    }
    const a = action?.toLowerCase()
    if (!a) {
      if (m === 'GET') return this.clusters.get(route)
      if (m === 'PUT') return this.clusters.put(route, req)
      if (m === 'DELETE') return this.clusters.delete(route)
    } else if (a === 'listclusterusercredential' && m === 'POST' && !poolName) {
      return this.clusters.listUserCredential(route, req)
    } else if (a === 'listclusteradmincredential' && m === 'POST' && !poolName) {
      return this.clusters.listAdminCredential(route)
    } else if (a === 'agentpools') {
      if (!poolName) return m === 'GET' ? this.pools.list(route) : this.methodNotAllowed(req)
      if (m === 'GET') return this.pools.get(route, poolName)
      if (m === 'PUT') return this.pools.put(route, poolName, req)
      if (m === 'DELETE') return this.pools.delete(route, poolName)
    }
    return this.methodNotAllowed(req)
  }

  private operation(sub: string, kind: string, id: string, apiVersion: string): SimHttpResponse {
    const op = this.ctx.ops.poll(id)
    if (!op) return armError(404, 'NotFound', `Operation '${id}' was not found.`)
    if (kind === 'operationresults') {
      if (op.status === 'InProgress') {
        return {
          status: 202,
          headers: {
            Location: `${this.ctx.base()}/subscriptions/${sub}/providers/Microsoft.ContainerService/locations/${this.ctx.cluster.location}/operationresults/${op.id}?api-version=${apiVersion}`,
            'Retry-After': this.ctx.ops.retryAfterSeconds()
          }
        }
      }
      if (op.status === 'Failed')
        return json(400, {
          error: op.spec.error ?? { code: 'OperationFailed', message: 'The operation failed.' }
        })
      return { status: 204 }
    }
    const resourceId = `/subscriptions/${sub}/providers/Microsoft.ContainerService/locations/${this.ctx.cluster.location}/operations/${op.id}`
    const headers: Record<string, string> =
      op.status === 'InProgress' ? { 'Retry-After': this.ctx.ops.retryAfterSeconds() } : {}
    return json(200, this.ctx.ops.statusBody(op, resourceId), headers)
  }

  private methodNotAllowed(req: SimHttpRequest): SimHttpResponse {
    return armError(
      405,
      'MethodNotAllowed',
      `The requested resource does not support http method '${req.method}'.`
    )
  }

  private noRoute(req: SimHttpRequest): SimHttpResponse {
    return armError(
      404,
      'InvalidResourceType',
      `No HTTP resource was found that matches the request URI '${req.path}'.`
    )
  }
}
