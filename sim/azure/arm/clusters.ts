// Managed clusters (ManagedClusters_* of api 2026-06-01): get, createOrUpdate (LRO, 201/200 +
// Azure-AsyncOperation), delete (LRO, 202), listClusterUserCredential (the backend's `user`
// kubeconfig, or the exec/kubelogin `aad` one for an Entra-integrated cluster) and
// listClusterAdminCredential (the `admin` certificate kubeconfig; refused with 400 BadRequest
// when local accounts are disabled). Kubeconfigs travel base64-encoded, as on the wire.
// Creating a cluster adds its agentPoolProfiles (their nodes appear in the backend when the
// operation succeeds); deleting removes every pool, preempting an operation still running (a
// create included) as AKS does.
import { header, json, parseJsonBody, type SimHttpRequest, type SimHttpResponse } from '../http.js'
import { AGENT_POOL_NAME, AGENT_POOL_PROPERTIES, CLUSTER_NAME } from './agent-pool-schema.js'
import { deletionTiming, type ArmContext, type ClusterRoute } from './context.js'
import { armError, resourceNotFound } from './errors.js'
import { operationUrls } from './lro.js'
import { validateProperties } from './validate.js'

const CLUSTER_TYPE = 'Microsoft.ContainerService/managedClusters'

export class Clusters {
  constructor(private readonly ctx: ArmContext) {}

  get(route: ClusterRoute): SimHttpResponse {
    this.ctx.ops.observe(this.ctx.cluster.operation)
    for (const r of [...this.ctx.cluster.pools.values()]) this.ctx.ops.observe(r.operation)
    if (!this.ctx.cluster.exists) return this.notFound(route)
    return json(200, this.ctx.cluster.clusterJson(route.subscriptionId))
  }

  listUserCredential(route: ClusterRoute, req: SimHttpRequest): SimHttpResponse {
    const format = req.query.get('format')
    if (format && !['exec', 'azure'].includes(format.toLowerCase())) {
      return armError(
        400,
        'InvalidParameter',
        `The value '${format}' of parameter 'format' is invalid. Allowed values are: azure, exec.`,
        { target: 'format' }
      )
    }
    if (format && !this.ctx.cluster.aad) {
      return armError(
        400,
        'BadRequest',
        `The 'format' parameter is only supported for Azure AD-enabled clusters; cluster '${route.clusterName}' is not one.`
      )
    }
    const kind = this.ctx.cluster.aad ? 'aad' : 'user'
    return this.kubeconfig('clusterUser', this.ctx.backend.kubeconfig(kind))
  }

  listAdminCredential(_route: ClusterRoute): SimHttpResponse {
    if (!this.ctx.cluster.localAccounts) {
      return armError(
        400,
        'BadRequest',
        'Getting static credential is not allowed because this cluster is set to disable local accounts.'
      )
    }
    return this.kubeconfig('clusterAdmin', this.ctx.backend.kubeconfig('admin'))
  }

  put(route: ClusterRoute, req: SimHttpRequest): SimHttpResponse {
    const { cluster, backend } = this.ctx
    if (!CLUSTER_NAME.test(route.clusterName)) {
      return armError(
        400,
        'InvalidParameter',
        `The value of parameter resourceName is invalid: '${route.clusterName}'.`,
        { target: 'resourceName' }
      )
    }
    const body = parseJsonBody(req)
    if (body instanceof Error || typeof body !== 'object' || body === null || Array.isArray(body)) {
      return armError(
        400,
        'InvalidRequestContent',
        'The request content was invalid and could not be deserialized.'
      )
    }
    const b = body as Record<string, any>
    const props = (b.properties ?? {}) as Record<string, any>
    if (cluster.operation?.status === 'InProgress') {
      return armError(
        409,
        'OperationNotAllowed',
        `Operation is not allowed because the managed cluster is ${cluster.provisioningState}.`
      )
    }
    const ifNoneMatch = header(req, 'if-none-match')
    if (ifNoneMatch?.trim() === '*' && cluster.exists)
      return armError(412, 'PreconditionFailed', `Managed cluster '${cluster.name}' already exists.`)
    if (typeof b.location !== 'string' || !b.location) {
      return armError(400, 'LocationRequired', 'The location property is required for this definition.')
    }
    const creating = !cluster.exists
    if (creating) {
      const profiles = (props.agentPoolProfiles ?? []) as Array<Record<string, any>>
      if (!Array.isArray(profiles) || !profiles.some(p => p?.mode === 'System')) {
        return armError(
          400,
          'InvalidParameter',
          'A managed cluster needs at least one agent pool profile with mode System.',
          { target: 'properties.agentPoolProfiles' }
        )
      }
      for (const [i, p] of profiles.entries()) {
        if (typeof p?.name !== 'string' || !AGENT_POOL_NAME.test(p.name)) {
          return armError(
            400,
            'InvalidParameter',
            `The value of parameter agentPoolProfiles[${i}].name is invalid: '${String(p?.name)}'.`,
            { target: `properties.agentPoolProfiles[${i}].name` }
          )
        }
        const { name: _name, ...rest } = p
        const bad = validateProperties(rest, AGENT_POOL_PROPERTIES, `properties.agentPoolProfiles[${i}]`)
        if (bad) return bad
      }
      cluster.name = route.clusterName
      cluster.location = b.location
      cluster.dnsPrefix = props.dnsPrefix ?? `${route.clusterName}-dns`
      cluster.kubernetesVersion = props.kubernetesVersion || cluster.kubernetesVersion
      cluster.exists = true
      for (const p of profiles) {
        const { name, ...rest } = p
        const properties = {
          ...cluster.defaultPoolProperties({ ...rest, provisioningState: 'Creating' }),
          ...rest,
          provisioningState: 'Creating'
        }
        cluster.pools.set(String(name).toLowerCase(), { name, properties })
      }
    }
    if (b.tags && typeof b.tags === 'object') cluster.tags = { ...b.tags }
    if (props.aadProfile !== undefined) cluster.aad = !!props.aadProfile
    if (props.disableLocalAccounts !== undefined) cluster.localAccounts = !props.disableLocalAccounts
    if (!creating && props.kubernetesVersion) cluster.kubernetesVersion = props.kubernetesVersion
    cluster.provisioningState = creating ? 'Creating' : 'Updating'
    cluster.operation = this.ctx.ops.start({
      polls: this.ctx.scenario.azure.poolProvisioning.polls,
      result: 'Succeeded',
      onDone: () => {
        cluster.provisioningState = 'Succeeded'
        if (!creating) return
        for (const rec of cluster.pools.values()) {
          rec.properties.provisioningState = 'Succeeded'
          backend.addPool(cluster.toSimPool(rec))
        }
      }
    })
    const urls = operationUrls(
      this.ctx.base(),
      route.subscriptionId,
      cluster.location,
      cluster.operation,
      route.apiVersion
    )
    return json(creating ? 201 : 200, cluster.clusterJson(route.subscriptionId), {
      'Azure-AsyncOperation': urls.asyncOperation,
      'Retry-After': this.ctx.ops.retryAfterSeconds()
    })
  }

  delete(route: ClusterRoute): SimHttpResponse {
    const { cluster, backend } = this.ctx
    if (!cluster.exists) return { status: 204 }
    if (cluster.provisioningState !== 'Deleting') {
      // As in AKS, a delete preempts whatever operation is still running (a create included).
      this.ctx.ops.preemptByDelete(cluster.operation)
      for (const rec of cluster.pools.values()) this.ctx.ops.preemptByDelete(rec.operation)
      cluster.provisioningState = 'Deleting'
      cluster.operation = this.ctx.ops.start({
        ...deletionTiming(this.ctx.scenario),
        result: 'Succeeded',
        onDone: () => {
          for (const rec of cluster.pools.values()) backend.removePool(rec.name)
          cluster.pools.clear()
          cluster.exists = false
          cluster.provisioningState = 'Succeeded'
        }
      })
    }
    const urls = operationUrls(
      this.ctx.base(),
      route.subscriptionId,
      cluster.location,
      cluster.operation!,
      route.apiVersion
    )
    return {
      status: 202,
      headers: {
        'Azure-AsyncOperation': urls.asyncOperation,
        Location: urls.location,
        'Retry-After': this.ctx.ops.retryAfterSeconds()
      }
    }
  }

  notFound(route: ClusterRoute): SimHttpResponse {
    return resourceNotFound(CLUSTER_TYPE, route.clusterName, route.resourceGroup)
  }

  private kubeconfig(name: string, yaml: string): SimHttpResponse {
    return json(200, { kubeconfigs: [{ name, value: Buffer.from(yaml, 'utf8').toString('base64') }] })
  }
}
