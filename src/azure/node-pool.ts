// The RDMA node pool: desired body, race-free create (If-None-Match: *), reuse of a compatible pool,
// and refusal before any write of one that differs in a field fixed at creation. See docs/design.md, docs/drift.md.
import type { AgentPool } from '@azure/arm-containerservice'
import type { Settings } from '../settings/settings.js'
import { cancelledBy, cancelledWhile, cancelSignal } from '../util/cancel.js'
import { formatDuration } from '../util/duration.js'
import { armError, describeArmError, isArmNotFound, armStatusOf } from './arm-errors.js'
import type { SubmittedCreate } from './submitted.js'
import type { ArmClients } from './clients.js'
import type { Log } from '../log/index.js'
import { desiredAgentPoolProperties } from '../model/azure-resources.js'
import {
  azTarget,
  labelsCommand,
  nodeTaintsCommand,
  nodepoolCommand,
  poolTarget,
  type PoolTarget
} from '../model/az-commands.js'
import { TAGS } from '../model/types.js'
import { pollUntil, AzureWaitTimeoutError } from './wait.js'
import { ClusterNotFoundError, isClusterNotFound } from './cluster-missing.js'

/** Tag names (hyphens: ARM tag names may not contain `/`). */
export const TAG_MANAGED = TAGS.managed
export const TAG_CREATED_BY = TAGS.createdBy

/** Reads a tag case-insensitively (ARM tag names are), also accepting the `a/b` spelling. */
export function tagValue(tags: Record<string, string> | undefined, name: string): string | undefined {
  if (!tags) return undefined
  const wanted = [name.toLowerCase(), name.replace(/^aks-rdma-action-/, 'aks-rdma-action/').toLowerCase()]
  for (const [k, v] of Object.entries(tags)) if (wanted.includes(k.toLowerCase())) return v
  return undefined
}

export { taintString } from '../model/azure-resources.js'
import { taintString } from '../model/azure-resources.js'
import { toleratesTaint } from '../model/tolerations.js'
import { poolTolerations } from '../model/workload.js'
import { parseTaint } from '../settings/input-definitions.js'

/** The AgentPool body this action creates for `settings`: the desired state's, typed for the SDK. */
export function desiredAgentPool(settings: Settings): AgentPool {
  return desiredAgentPoolProperties(settings) as AgentPool
}

export type PoolField =
  'vmSize' | 'count' | 'osType' | 'osSKU' | 'gpuProfile.driver' | 'nodeLabels' | 'nodeTaints'

export interface PoolDifference {
  field: PoolField
  desired: string
  actual: string
  /** Whether the action's apply would change it. Apply never modifies an existing pool, so false. */
  fixableByApply: boolean
  /** Fixed when the pool was created: the only fix is another pool or deleting this one. */
  immutable: boolean
  /** What the user can do. */
  fix: string
}

const IMMUTABLE: PoolField[] = ['vmSize', 'osType', 'osSKU', 'gpuProfile.driver']

function eqi(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase()
}

function fmtMap(m: Record<string, string> | undefined): string {
  const e = Object.entries(m ?? {}).sort(([a], [b]) => a.localeCompare(b))
  return e.length ? e.map(([k, v]) => `${k}=${v}`).join(',') : '(none)'
}

function fmtList(l: string[] | undefined): string {
  return l?.length ? [...l].sort().join(',') : '(none)'
}

/**
 * Differences between the desired pool and a live one, field by field (pure). Absent
 * gpuProfile.driver means Install (the API default); absent osSKU means Ubuntu. Each fix names an
 * az command with everything it needs to run as printed (`target`: where the pool is).
 */
export function comparePool(desired: AgentPool, live: AgentPool, target: PoolTarget): PoolDifference[] {
  const out: PoolDifference[] = []
  const poolName = target.pool
  const add = (field: PoolField, d: string, a: string, same: boolean, fix: string): void => {
    if (!same)
      out.push({
        field,
        desired: d,
        actual: a,
        fixableByApply: false,
        immutable: IMMUTABLE.includes(field),
        fix
      })
  }
  const recreate = `fixed at creation: choose another node-pool name, or delete the pool (\`${nodepoolCommand(target, 'delete', poolName)}\`) and re-run`
  const dv = desired.vmSize ?? ''
  const lv = live.vmSize ?? ''
  add('vmSize', dv, lv, eqi(dv, lv), recreate)
  const dos = desired.osType ?? 'Linux'
  const los = live.osType ?? 'Linux'
  add('osType', dos, los, eqi(dos, los), recreate)
  const dsku = desired.osSKU ?? 'Ubuntu'
  const lsku = live.osSKU ?? 'Ubuntu'
  add('osSKU', dsku, lsku, eqi(dsku, lsku), recreate)
  const dd = desired.gpuProfile?.driver ?? 'Install'
  const ld = live.gpuProfile?.driver ?? 'Install'
  add(
    'gpuProfile.driver',
    dd,
    ld,
    eqi(dd, ld),
    `${recreate} (the GPU Operator needs driver None; a pool with the AKS-installed driver conflicts with it)`
  )
  // Never a scale-down of a live pool: it removes nodes and whatever runs on them.
  add(
    'count',
    String(desired.count ?? ''),
    String(live.count ?? ''),
    desired.count === live.count,
    (live.count ?? 0) > (desired.count ?? 0)
      ? `set node-count: ${live.count} to match the pool (it has more nodes than node-count; nothing is removed)`
      : `\`${nodepoolCommand(target, 'scale', poolName, ['--node-count', String(desired.count)])}\`, or set node-count: ${live.count}`
  )
  const dl = fmtMap(desired.nodeLabels)
  const ll = fmtMap(live.nodeLabels)
  add('nodeLabels', dl, ll, dl === ll, `\`${labelsCommand(target, poolName, desired.nodeLabels ?? {})}\``)
  const dt = fmtList(desired.nodeTaints)
  const lt = fmtList(live.nodeTaints)
  const taints = nodeTaintsCommand(target, poolName, desired.nodeTaints ?? [])
  add(
    'nodeTaints',
    dt,
    lt,
    dt === lt,
    taints
      ? `\`${taints}\``
      : `the Azure CLI sets no taint without a value (${dt}): recreate the pool with them, or set node-taints: ${lt === '(none)' ? '""' : lt}`
  )
  return out
}

export interface NodePoolOptions {
  log: Log
  /** Bound of the whole step (settings.wait.stepTimeoutMs). */
  timeoutMs: number
  /** Delay between LRO polls (default 10 s); tests shorten it. */
  pollIntervalMs?: number
  /**
   * Called just before the create's PUT, so the run can remember it (core.saveState) before any
   * outcome: the post step then deletes a create that failed, timed out or was cancelled too.
   */
  onCreateSubmit?: (submitted: SubmittedCreate) => void
  /**
   * Called when ARM refused the create with HTTP 412 (If-None-Match: the resource already
   * existed, made by another run): the create announced by onCreateSubmit did not happen, and the
   * run must forget it, so its post step never deletes what it reuses.
   */
  onCreateRefused?: () => void
  /** What precheckNodePool found: the pool is not read again before the create or the reuse. */
  precheck?: PoolPrecheck
}

/** What precheckNodePool found: no pool (to be created), or a pool compatible with the inputs. */
export type PoolPrecheck = { state: 'absent' } | { state: 'present'; pool: AgentPool }

export interface NodePoolResult {
  action: 'created' | 'reused'
  pool: AgentPool
  warnings: string[]
}

const TRANSITIONAL = [
  'creating',
  'updating',
  'scaling',
  'upgrading',
  'starting',
  'stopping',
  'canceling',
  'migrating',
  'reconcilingclusteridentity'
]

export class NodePoolError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'NodePoolError'
  }
}

/** The refusal of an existing pool that differs in fields fixed at creation. */
function incompatiblePool(settings: Settings, live: AgentPool): NodePoolError | undefined {
  const name = settings.nodePool.name
  const fatal = comparePool(desiredAgentPool(settings), live, poolTarget(settings)).filter(d => d.immutable)
  if (!fatal.length) return undefined
  return new NodePoolError(
    `node pool ${name}: an existing pool differs in fields fixed at creation, so it cannot be used (nothing was changed):\n` +
      fatal.map(d => `  - ${d.field}: wanted ${d.desired}, found ${d.actual}`).join('\n') +
      `\nFix: set the node-pool input to a new name, or delete the pool (${nodepoolCommand(azTarget(settings), 'delete', name)}) and re-run.`
  )
}

/**
 * The refusal of an existing pool whose nodes carry NoSchedule/NoExecute taints the inputs do not
 * list: the stack tolerates exactly node-taints, so none of its pods would ever run there.
 */
export function untoleratedPoolTaints(settings: Settings, live: AgentPool): NodePoolError | undefined {
  const name = settings.nodePool.name
  // Matched as the scheduler matches them (a valueless node-taints entry tolerates any value).
  const tolerations = poolTolerations(settings)
  const missing = (live.nodeTaints ?? []).filter(t => {
    if (!/:(NoSchedule|NoExecute)$/.test(t)) return false
    const taint = parseTaint(t)
    return !taint || !tolerations.some(x => toleratesTaint(x, taint))
  })
  if (!missing.length) return undefined
  const all = [...new Set([...settings.nodePool.taints.map(taintString), ...missing])].join(',')
  const kept = (live.nodeTaints ?? []).filter(t => !missing.includes(t))
  const remove = nodeTaintsCommand(azTarget(settings), name, kept)
  return new NodePoolError(
    `node pool ${name}: its nodes carry taint${missing.length > 1 ? 's' : ''} ${missing.join(', ')} that node-taints does not list; ` +
      "the stack's pods tolerate exactly node-taints, so they would never be scheduled there (nothing was changed).\n" +
      `Fix: set node-taints: ${all}` +
      (remove ? `, or remove the taint from the pool (${remove}).` : '.')
  )
}

/** Reads the pool: undefined when it (or its cluster) does not exist. */
async function readPool(clients: ArmClients, settings: Settings): Promise<AgentPool | undefined> {
  const { resourceGroup, name: cluster } = settings.cluster
  const name = settings.nodePool.name
  try {
    return await clients.containerService.agentPools.get(resourceGroup, cluster, name)
  } catch (e) {
    // A missing cluster is not a missing pool (unless this run creates the cluster first).
    if (!settings.cluster.create && isClusterNotFound(e, cluster))
      throw new ClusterNotFoundError(settings, clients.subscriptionId)
    if (isArmNotFound(e) && armError(e).code !== 'ResourceGroupNotFound') return undefined
    throw new NodePoolError(`node pool ${name}: reading it failed: ${describeArmError(e)}`)
  }
}

/**
 * Settles, with one GET and no write, whether the pool exists and can be used: throws a
 * NodePoolError for an existing pool that differs in a field fixed at creation (VM size, OS type
 * and SKU, GPU driver) or whose provisioning failed. A run calls it before its first write (the
 * feature registration, the cluster, the stack) in both rollouts, so an incompatible pool costs no
 * mutating request, ARM or Kubernetes; then passes the result to ensureNodePool (`precheck`).
 */
export async function precheckNodePool(
  clients: ArmClients,
  settings: Settings,
  o: { log: Log }
): Promise<PoolPrecheck> {
  const name = settings.nodePool.name
  const live = await readPool(clients, settings)
  if (!live) {
    o.log.info(`node pool ${name}: absent; it will be created`)
    return { state: 'absent' }
  }
  const refused = incompatiblePool(settings, live) ?? untoleratedPoolTaints(settings, live)
  if (refused) throw refused
  if ((live.provisioningState ?? '').toLowerCase() === 'failed') {
    const pe = live.status?.provisioningError
    throw new NodePoolError(
      `node pool ${name}: exists in provisioning state Failed (${pe?.code ?? 'Unknown'}: ${pe?.message ?? 'no message from ARM'}); nothing was changed. ` +
        `Delete the failed pool (${nodepoolCommand(azTarget(settings), 'delete', name)}) or fix the cause and re-run.`
    )
  }
  o.log.info(
    `node pool ${name}: exists (${live.count}× ${live.vmSize}, ${live.provisioningState ?? 'Succeeded'}) and is compatible`
  )
  return { state: 'present', pool: live }
}

/** One ensureNodePool call: what its create, wait and reuse steps share. */
class PoolRun {
  readonly step: string
  readonly started = Date.now()
  private readonly interval: number
  private readonly desired: AgentPool

  constructor(
    private readonly clients: ArmClients,
    private readonly settings: Settings,
    private readonly o: NodePoolOptions
  ) {
    this.step = `node pool ${settings.nodePool.name}`
    this.interval = o.pollIntervalMs ?? 10_000
    this.desired = desiredAgentPool(settings)
  }

  get(): Promise<AgentPool | undefined> {
    return readPool(this.clients, this.settings)
  }

  private remaining(): number {
    return Math.max(0, this.o.timeoutMs - (Date.now() - this.started))
  }

  describeCreate(): string {
    const { resourceGroup, name: cluster } = this.settings.cluster
    const desired = this.desired
    return `creating ${desired.count}× ${desired.vmSize} (${desired.osSKU}, gpuProfile.driver None) in ${resourceGroup}/${cluster}`
  }

  async create(): Promise<AgentPool> {
    const { settings, o, step, started, desired } = this
    const { resourceGroup, name: cluster } = settings.cluster
    const name = settings.nodePool.name
    const abort = AbortSignal.timeout(Math.max(1, this.remaining()))
    o.onCreateSubmit?.({
      resourceGroup,
      cluster,
      pool: name,
      createdBy: tagValue(desired.tags, TAG_CREATED_BY) ?? settings.runId
    })
    const poller = this.clients.containerService.agentPools.createOrUpdate(
      resourceGroup,
      cluster,
      name,
      desired,
      {
        ifNoneMatch: '*',
        updateIntervalInMs: this.interval,
        abortSignal: abort
      }
    )
    try {
      await poller.submitted()
    } catch (e) {
      if (armStatusOf(e) === 412) throw e
      throw new NodePoolError(`${step}: create request failed: ${describeArmError(e)}${quotaHint(e)}`)
    }
    // The poller waits between polls as ARM's Retry-After says (its own interval otherwise); after
    // each poll the pool's provisioningState is logged with the elapsed time.
    let lastState = 'Creating'
    poller.onProgress(() => {
      if (poller.isDone) return
      o.log.info(`${step}: ${lastState} (${formatDuration(Date.now() - started)} elapsed)`)
      // The operation status only says InProgress: read the pool's state for the next line.
      void this.get()
        .then(p => (lastState = p?.provisioningState ?? lastState))
        .catch(() => undefined)
    })
    try {
      // The wait (never the PUT) also ends when the run is cancelled: the create stays submitted.
      await poller.pollUntilDone({ abortSignal: AbortSignal.any([abort, cancelSignal()]) })
    } catch (e) {
      if (cancelledBy())
        throw cancelledWhile(
          `${step} provisions (its create was submitted; ${lastState} in Azure: ${nodepoolCommand(azTarget(settings), 'show', name)})`
        )
      if (e instanceof Error && e.name === 'AbortError')
        throw new AzureWaitTimeoutError(
          step,
          lastState,
          Date.now() - started,
          `The pool may still finish; check it with ${nodepoolCommand(azTarget(settings), 'show', name)}`
        )
      throw await this.failure(e)
    }
    const result = poller.result ?? (await this.get())
    if (!result) throw new NodePoolError(`${step}: creation reported success but the pool cannot be read`)
    if ((result.provisioningState ?? 'Succeeded').toLowerCase() === 'failed')
      throw await this.failure(undefined)
    o.log.info(
      `${step}: created (${result.provisioningState ?? 'Succeeded'}, ${formatDuration(Date.now() - started)})`
    )
    return result
  }

  async failure(e: unknown): Promise<Error> {
    const step = this.step
    if (e instanceof Error && e.name === 'AbortError')
      return new AzureWaitTimeoutError(step, 'Creating', Date.now() - this.started)
    const p = await this.get().catch(() => undefined)
    const pe = p?.status?.provisioningError
    let code = pe?.code
    let message = pe?.message
    if (!code && e instanceof Error) {
      const m = /has failed\. ([^.]+)\. ([\s\S]*)$/.exec(e.message)
      if (m) [, code, message] = m
      else ({ code, message } = armError(e))
    }
    return new NodePoolError(
      `${step}: provisioning ${p?.provisioningState ?? 'Failed'}: ${code ?? 'Unknown'}: ${message ?? 'no message from ARM'}. ` +
        `Delete the failed pool (${nodepoolCommand(azTarget(this.settings), 'delete', this.settings.nodePool.name)}) or fix the cause and re-run.`
    )
  }

  /** An existing pool in a transitional state: waits for it to settle. */
  private async settle(pool: AgentPool): Promise<AgentPool> {
    const { step, o } = this
    o.log.info(`${step}: exists and is ${pool.provisioningState}; waiting for it to settle`)
    const r = await pollUntil({
      step,
      timeoutMs: o.timeoutMs,
      startedAt: this.started,
      backoff: { initialMs: this.interval, maxMs: this.interval },
      log: o.log,
      probe: async () => {
        const p = await this.get()
        if (!p)
          throw new NodePoolError(`${step}: disappeared while waiting for it (was ${pool.provisioningState})`)
        const s = p.provisioningState ?? 'Succeeded'
        if (s.toLowerCase() === 'failed') throw await this.failure(undefined)
        return { done: !TRANSITIONAL.includes(s.toLowerCase()), state: s, value: p }
      }
    })
    return r.value ?? pool
  }

  async reuse(found: AgentPool): Promise<NodePoolResult> {
    const { settings, step, o } = this
    let pool = found
    const refused = incompatiblePool(settings, pool) ?? untoleratedPoolTaints(settings, pool)
    if (refused) throw refused
    const state = (pool.provisioningState ?? 'Succeeded').toLowerCase()
    if (state === 'failed') throw await this.failure(undefined)
    if (TRANSITIONAL.includes(state)) pool = await this.settle(pool)
    const warnings = comparePool(this.desired, pool, poolTarget(settings))
      .filter(d => !d.immutable)
      .map(
        d =>
          `${step}: existing pool has ${d.field} ${d.actual}, inputs ask for ${d.desired}; the action does not change existing pools (${d.fix})`
      )
    for (const w of warnings) o.log.warning(w)
    o.log.info(
      `${step}: reusing the existing pool (${pool.count}× ${pool.vmSize}, ${pool.provisioningState ?? 'Succeeded'}); no changes made`
    )
    return { action: 'reused', pool, warnings }
  }
}

/** Creates the RDMA pool, or reuses a compatible one without writing. */
export async function ensureNodePool(
  clients: ArmClients,
  settings: Settings,
  o: NodePoolOptions
): Promise<NodePoolResult> {
  const run = new PoolRun(clients, settings, o)
  const step = run.step
  let live = o.precheck ? (o.precheck.state === 'present' ? o.precheck.pool : undefined) : await run.get()
  if (!live) {
    o.log.info(`${step}: absent; ${run.describeCreate()}`)
    try {
      const pool = await run.create()
      return { action: 'created', pool, warnings: [] }
    } catch (e) {
      if (armStatusOf(e) !== 412) throw e
      // Someone created it between our read and our create: not ours (never to be deleted by this
      // run's post step); treat it as present.
      o.onCreateRefused?.()
      o.log.info(`${step}: appeared while creating (HTTP 412 on If-None-Match); reusing it if compatible`)
      live = await run.get()
      if (!live)
        throw new NodePoolError(
          `${step}: the create was refused with HTTP 412 (pool exists) but the pool cannot be read`
        )
    }
  }
  return run.reuse(live)
}

function quotaHint(e: unknown): string {
  const { code, message } = armError(e)
  if (/quota/i.test(code) || /quota/i.test(message))
    return '. Request a quota increase for this VM family in the region, or pick another vm-size/location.'
  if (/SkuNotAvailable|NotAvailableForSubscription/i.test(code))
    return '. The VM size is not offered in this region/zone for the subscription.'
  return ''
}
