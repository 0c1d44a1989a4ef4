// Agent pools (AgentPools_* of api 2026-06-01): get (404 NotFound when absent), list,
// createOrUpdate and delete as long-running operations. A PUT answers 201 (create) or 200
// (update) with the pool in Creating/Updating/Scaling and `Azure-AsyncOperation` + `Retry-After`;
// a DELETE answers 202 with `Azure-AsyncOperation` + `Location` (204 when there is nothing to
// delete). Outcomes follow `scenario.azure.poolProvisioning`. Refusals as ARM/AKS give them:
// 412 PreconditionFailed for `If-None-Match: *` on an existing pool (or a stale `If-Match`),
// 400 PropertyChangeNotAllowed for an immutable field, 400 InvalidRequestContent /
// InvalidParameter for bodies that break the schema, 409 OperationNotAllowed for a PUT while
// another operation runs on the pool (a DELETE preempts it instead, as in AKS). A PUT on an existing pool merges the body over the stored pool.
// A time-based create (`poolProvisioning.duration`) has its nodes join during the operation,
// after a boot delay, as AKS's VMs register before ARM reports Succeeded; otherwise they join at
// its end.
import { durationOf } from '../../scenario.js'
import { header, json, parseJsonBody, type SimHttpRequest, type SimHttpResponse } from '../http.js'
import { AGENT_POOL_NAME, AGENT_POOL_PROPERTIES } from './agent-pool-schema.js'
import { deletionTiming, type ArmContext, type ClusterRoute } from './context.js'
import { newETag, type PoolRecord } from './cluster-model.js'
import { armError } from './errors.js'
import { operationUrls, type Operation } from './lro.js'
import { validateProperties } from './validate.js'

/** Fields fixed at creation (gpuProfile.driver per Learn; vmSize/osSKU/osType as AKS refuses changing them). */
const IMMUTABLE: Array<[string, (p: Record<string, any>) => unknown]> = [
  ['vmSize', p => p.vmSize],
  ['osSKU', p => p.osSKU],
  ['osType', p => p.osType],
  ['gpuProfile.driver', p => (p.gpuProfile ? (p.gpuProfile.driver ?? 'Install') : undefined)]
]
const READ_ONLY = [
  'eTag',
  'provisioningState',
  'currentOrchestratorVersion',
  'powerState',
  'status',
  'virtualMachineNodesStatus'
]

export class AgentPools {
  constructor(private readonly ctx: ArmContext) {}

  get(route: ClusterRoute, poolName: string): SimHttpResponse {
    const rec = this.ctx.cluster.getPool(poolName)
    if (!rec) return this.notFound(route, poolName)
    this.ctx.ops.observe(rec.operation)
    if (!this.ctx.cluster.getPool(poolName)) return this.notFound(route, poolName)
    return json(200, this.ctx.cluster.poolJson(route.subscriptionId, rec))
  }

  list(route: ClusterRoute): SimHttpResponse {
    for (const r of [...this.ctx.cluster.pools.values()]) this.ctx.ops.observe(r.operation)
    const value = [...this.ctx.cluster.pools.values()].map(r =>
      this.ctx.cluster.poolJson(route.subscriptionId, r)
    )
    return json(200, { value })
  }

  put(route: ClusterRoute, poolName: string, req: SimHttpRequest): SimHttpResponse {
    const { cluster } = this.ctx
    if (!AGENT_POOL_NAME.test(poolName)) {
      return armError(
        400,
        'InvalidParameter',
        `The value of parameter agentPoolName is invalid: '${poolName}'. Agent pool names must start with a lowercase letter, have at most 12 characters (6 for Windows) and contain only lowercase letters and digits (pattern ${AGENT_POOL_NAME.source}).`,
        { target: 'agentPoolName' }
      )
    }
    const body = parseJsonBody(req)
    if (body instanceof Error || typeof body !== 'object' || body === null || Array.isArray(body)) {
      const why = body instanceof Error ? body.message : 'the body must be a JSON object'
      return armError(
        400,
        'InvalidRequestContent',
        `The request content was invalid and could not be deserialized: '${why}'.`
      )
    }
    const props = ((body as Record<string, unknown>).properties ?? {}) as Record<string, unknown>
    const invalid = validateProperties(props, AGENT_POOL_PROPERTIES)
    if (invalid) return invalid

    const existing = cluster.getPool(poolName)
    const ifNoneMatch = header(req, 'if-none-match')
    const ifMatch = header(req, 'if-match')
    if (
      ifNoneMatch !== undefined &&
      existing &&
      (ifNoneMatch.trim() === '*' || unquote(ifNoneMatch) === existing.properties.eTag)
    ) {
      return armError(
        412,
        'PreconditionFailed',
        `Agent pool '${poolName}' already exists and the request's If-None-Match header is '${ifNoneMatch}'.`
      )
    }
    if (
      ifMatch !== undefined &&
      (!existing || (ifMatch.trim() !== '*' && unquote(ifMatch) !== existing.properties.eTag))
    ) {
      return armError(
        412,
        'PreconditionFailed',
        existing
          ? `The If-Match header '${ifMatch}' does not match the current eTag '${existing.properties.eTag}' of agent pool '${poolName}'.`
          : `Agent pool '${poolName}' does not exist but the request has If-Match '${ifMatch}'.`
      )
    }
    if (cluster.operation?.status === 'InProgress')
      return this.busy(`the managed cluster is ${cluster.provisioningState}`)
    if (existing?.operation?.status === 'InProgress')
      return this.busy(
        `another agent pool operation (${existing.properties.provisioningState}) is in progress`
      )

    const writable = Object.fromEntries(Object.entries(props).filter(([k]) => !READ_ONLY.includes(k)))
    const mode = (writable.mode as string | undefined) ?? existing?.properties.mode ?? 'User'
    const count = (writable.count as number | undefined) ?? existing?.properties.count ?? 1
    const [min, max] = mode === 'System' ? [1, 1000] : [0, 1000]
    if (count < min || count > max) {
      return armError(
        400,
        'InvalidParameter',
        `The value of parameter properties.count is invalid: ${count}. It must be in the range [${min}, ${max}] for ${mode} agent pools.`,
        {
          target: 'properties.count'
        }
      )
    }
    return existing ? this.update(route, existing, writable) : this.create(route, poolName, writable)
  }

  delete(route: ClusterRoute, poolName: string): SimHttpResponse {
    const { cluster, backend } = this.ctx
    const rec = cluster.getPool(poolName)
    if (!rec) return { status: 204 }
    if (rec.operation?.status === 'InProgress' && rec.properties.provisioningState === 'Deleting')
      return this.deleteAccepted(route, rec.operation)
    const systemPools = [...cluster.pools.values()].filter(r => r.properties.mode === 'System')
    if (rec.properties.mode === 'System' && systemPools.length <= 1) {
      return armError(
        400,
        'OperationNotAllowed',
        `Agent pool '${rec.name}' is the cluster's last System pool and cannot be deleted.`
      )
    }
    // As in AKS, a delete preempts whatever operation is still running (a create included).
    this.ctx.ops.preemptByDelete(rec.operation)
    rec.properties.provisioningState = 'Deleting'
    rec.operation = this.ctx.ops.start({
      ...deletionTiming(this.ctx.scenario),
      result: 'Succeeded',
      onDone: () => {
        cluster.pools.delete(rec.name.toLowerCase())
        backend.removePool(rec.name)
      }
    })
    return this.deleteAccepted(route, rec.operation)
  }

  private create(route: ClusterRoute, poolName: string, writable: Record<string, unknown>): SimHttpResponse {
    const { cluster, backend } = this.ctx
    const properties = {
      ...cluster.defaultPoolProperties({
        vmSize: writable.vmSize as string | undefined,
        count: writable.count as number | undefined,
        osSKU: writable.osSKU as string | undefined,
        mode: writable.mode as string | undefined,
        orchestratorVersion: writable.orchestratorVersion as string | undefined,
        provisioningState: 'Creating'
      }),
      ...writable
    }
    properties.orchestratorVersion = (writable.orchestratorVersion as string) || cluster.kubernetesVersion
    properties.provisioningState = 'Creating'
    const rec: PoolRecord = { name: poolName, properties }
    cluster.pools.set(poolName.toLowerCase(), rec)
    let joined = false
    const join = (): void => {
      if (joined) return
      joined = true
      backend.addPool(cluster.toSimPool(rec))
    }
    // Time-based: the VMs register as nodes while ARM still reports Creating (as in AKS).
    const boot = this.bootDelayMs()
    rec.operation = this.start(rec, join, boot !== undefined ? [{ atMs: boot, run: join }] : [])
    return this.accepted(route, rec, 201)
  }

  private update(route: ClusterRoute, rec: PoolRecord, writable: Record<string, unknown>): SimHttpResponse {
    const { cluster, backend } = this.ctx
    for (const [field, read] of IMMUTABLE) {
      const wanted = read(writable)
      const current = read(rec.properties) ?? (field === 'gpuProfile.driver' ? 'Install' : undefined)
      if (wanted !== undefined && current !== undefined && wanted !== current) {
        return armError(
          400,
          'PropertyChangeNotAllowed',
          `Changing property '${field}' is not allowed: agent pool '${rec.name}' has ${field} '${String(current)}', the request asks for '${String(wanted)}'.`,
          { target: field }
        )
      }
    }
    const wasFailed = rec.properties.provisioningState === 'Failed'
    const oldCount = rec.properties.count
    Object.assign(rec.properties, writable, { eTag: newETag() })
    if (writable.orchestratorVersion === '') rec.properties.orchestratorVersion = cluster.kubernetesVersion
    const newCount = rec.properties.count
    rec.properties.provisioningState = newCount !== oldCount ? 'Scaling' : 'Updating'
    rec.operation = this.start(rec, () => {
      if (wasFailed) backend.addPool(cluster.toSimPool(rec))
      else if (newCount !== oldCount) backend.setPoolCount(rec.name, newCount)
    })
    return this.accepted(route, rec, 200)
  }

  /**
   * When the nodes of a time-based create start joining: after a boot delay
   * (`poolProvisioning.bootDelay`, default 40 % of the duration), so that with `nodes.joinSpread`
   * every node has joined before the operation completes (the last at most at 95 % of it). None
   * for poll-counted operations or a create that fails: those nodes join at the end, or never.
   */
  private bootDelayMs(): number | undefined {
    const pp = this.ctx.scenario.azure.poolProvisioning
    if (pp.duration === undefined || pp.result !== 'Succeeded') return undefined
    const duration = durationOf(pp.duration, 0)
    const spread = durationOf(this.ctx.scenario.nodes.joinSpread, 0)
    const wanted = durationOf(pp.bootDelay, duration * 0.4)
    return Math.max(0, Math.min(wanted, duration * 0.95 - spread))
  }

  private start(
    rec: PoolRecord,
    onSucceeded: () => void,
    milestones: Array<{ atMs: number; run(): void }> = []
  ): Operation {
    const pp = this.ctx.scenario.azure.poolProvisioning
    const error = {
      code: pp.errorCode ?? 'AllocationFailed',
      message:
        pp.errorMessage ??
        `Allocation failed. We do not have sufficient capacity for the requested VM size ${String(rec.properties.vmSize)} in this region.`
    }
    return this.ctx.ops.start({
      ...this.timing(),
      result: pp.result,
      error,
      milestones,
      onDone: status => {
        rec.properties.provisioningState = status
        if (status === 'Succeeded') onSucceeded()
      }
    })
  }

  private timing(): { polls: number; durationMs?: number } {
    const pp = this.ctx.scenario.azure.poolProvisioning
    return { polls: pp.polls, durationMs: pp.duration !== undefined ? durationOf(pp.duration, 0) : undefined }
  }

  private accepted(route: ClusterRoute, rec: PoolRecord, status: 200 | 201): SimHttpResponse {
    const urls = operationUrls(
      this.ctx.base(),
      route.subscriptionId,
      this.ctx.cluster.location,
      rec.operation!,
      route.apiVersion
    )
    return json(status, this.ctx.cluster.poolJson(route.subscriptionId, rec), {
      'Azure-AsyncOperation': urls.asyncOperation,
      'Retry-After': this.ctx.ops.retryAfterSeconds()
    })
  }

  private deleteAccepted(route: ClusterRoute, op: Operation): SimHttpResponse {
    const urls = operationUrls(
      this.ctx.base(),
      route.subscriptionId,
      this.ctx.cluster.location,
      op,
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

  private busy(why: string): SimHttpResponse {
    return armError(
      409,
      'OperationNotAllowed',
      `Operation is not allowed because ${why}. Please wait for it to finish before starting a new operation.`
    )
  }

  private notFound(route: ClusterRoute, poolName: string): SimHttpResponse {
    return armError(
      404,
      'NotFound',
      `Could not find agent pool '${poolName}' in managed cluster '${route.clusterName}' of resource group '${route.resourceGroup}'.`
    )
  }
}

function unquote(etag: string): string {
  return etag
    .trim()
    .replace(/^W\//, '')
    .replace(/^"(.*)"$/, '$1')
}
