// Reads the AKS cluster and, with create-cluster, creates a minimal one when absent; an existing
// cluster is never modified. See docs/ephemeral-clusters.md.
import type { ManagedCluster } from '@azure/arm-containerservice'
import type { Settings } from '../settings/settings.js'
import { cancelledBy, cancelledWhile, cancelSignal } from '../util/cancel.js'
import { formatDuration } from '../util/duration.js'
import { armError, describeArmError, isArmNotFound } from './arm-errors.js'
import type { ArmClients } from './clients.js'
import type { SubmittedCreate } from './submitted.js'
import type { Log } from '../log/index.js'
import { desiredCluster as desiredClusterModel } from '../model/azure-resources.js'
import { TAG_CREATED_BY, tagValue } from './node-pool.js'
import { AzureWaitTimeoutError } from './wait.js'
import { azTarget, clusterCommand } from '../model/az-commands.js'

import { SYSTEM_POOL_VM_SIZE } from '../model/azure-resources.js'
export { dnsPrefixFor, SYSTEM_POOL_VM_SIZE } from '../model/azure-resources.js'

export interface ClusterOptions {
  log: Log
  timeoutMs: number
  /** Delay between LRO polls when ARM gives no Retry-After (default 15 s). */
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
}

export interface ClusterResult {
  action: 'created' | 'reused'
  cluster: ManagedCluster
}

/** The minimal cluster this action creates (the desired state's, typed for the SDK). */
export function desiredCluster(settings: Settings): ManagedCluster {
  if (!settings.cluster.location)
    throw new Error(`create-cluster: location is required to create cluster ${settings.cluster.name}`)
  return desiredClusterModel(settings) as unknown as ManagedCluster
}

async function readCluster(clients: ArmClients, settings: Settings): Promise<ManagedCluster | undefined> {
  const { resourceGroup, name } = settings.cluster
  try {
    return await clients.containerService.managedClusters.get(resourceGroup, name)
  } catch (e) {
    if (isArmNotFound(e)) {
      if (armError(e).code === 'ResourceGroupNotFound') {
        throw new Error(
          `cluster ${name}: resource group ${resourceGroup} does not exist in subscription ${clients.subscriptionId}; create it first (az group create) or fix resource-group`
        )
      }
      return undefined
    }
    throw new Error(`cluster ${resourceGroup}/${name}: reading it failed: ${describeArmError(e)}`)
  }
}

/** Returns the cluster, creating it only when create-cluster is set and it does not exist. */
export async function ensureCluster(
  clients: ArmClients,
  settings: Settings,
  o: ClusterOptions
): Promise<ClusterResult> {
  const { resourceGroup, name } = settings.cluster
  const step = `cluster ${resourceGroup}/${name}`
  const started = Date.now()
  const existing = await readCluster(clients, settings)
  if (existing) {
    const state = existing.provisioningState ?? 'Succeeded'
    o.log.info(
      `${step}: exists (${state}, Kubernetes ${existing.currentKubernetesVersion ?? existing.kubernetesVersion ?? '?'}); reusing it unchanged`
    )
    if (state.toLowerCase() === 'failed') {
      throw new Error(
        `${step}: the cluster is in provisioning state Failed; repair it (${clusterCommand(azTarget(settings), 'update')}) before running the action`
      )
    }
    return { action: 'reused', cluster: existing }
  }
  if (!settings.cluster.create) {
    throw new Error(
      `${step}: not found in subscription ${clients.subscriptionId}. Check cluster-name and resource-group, or set create-cluster: true to create it`
    )
  }
  const body = desiredCluster(settings)
  o.log.info(
    `${step}: absent; creating it in ${body.location} (system pool ${SYSTEM_POOL_VM_SIZE} ×1..2${body.kubernetesVersion ? `, Kubernetes ${body.kubernetesVersion}` : ''})`
  )
  const interval = o.pollIntervalMs ?? 15_000
  const abort = AbortSignal.timeout(Math.max(1, o.timeoutMs - (Date.now() - started)))
  o.onCreateSubmit?.({
    resourceGroup,
    cluster: name,
    createdBy: tagValue(body.tags, TAG_CREATED_BY) ?? settings.runId
  })
  const poller = clients.containerService.managedClusters.createOrUpdate(resourceGroup, name, body, {
    ifNoneMatch: '*',
    updateIntervalInMs: interval,
    abortSignal: abort
  })
  try {
    await poller.submitted()
  } catch (e) {
    if (armError(e).status === 412) {
      o.onCreateRefused?.()
      const raced = await readCluster(clients, settings)
      if (raced) {
        o.log.info(`${step}: appeared while creating (HTTP 412); reusing it unchanged`)
        return { action: 'reused', cluster: raced }
      }
    }
    throw new Error(`${step}: create request failed: ${describeArmError(e)}`)
  }
  // The poller waits between polls as ARM's Retry-After says (its own interval otherwise).
  poller.onProgress(state => {
    if (!poller.isDone)
      o.log.info(`${step}: ${state.status ?? 'Creating'} (${formatDuration(Date.now() - started)} elapsed)`)
  })
  try {
    // The wait (never the PUT) also ends when the run is cancelled: the create stays submitted.
    await poller.pollUntilDone({ abortSignal: AbortSignal.any([abort, cancelSignal()]) })
  } catch (e) {
    if (cancelledBy())
      throw cancelledWhile(
        `${step} provisions (its create was submitted; ${poller.operationState?.status ?? 'Creating'} in Azure: ${clusterCommand(azTarget(settings), 'show')})`
      )
    if (abort.aborted || (e instanceof Error && e.name === 'AbortError'))
      throw new AzureWaitTimeoutError(
        step,
        poller.operationState?.status ?? 'Creating',
        Date.now() - started,
        `The cluster may still finish; check it with ${clusterCommand(azTarget(settings), 'show')}`
      )
    const now = await readCluster(clients, settings).catch(() => undefined)
    throw new Error(
      `${step}: creation failed (${now?.provisioningState ?? 'Failed'}): ${e instanceof Error ? e.message : String(e)}`
    )
  }
  const cluster = poller.result ?? (await readCluster(clients, settings))
  if (!cluster) throw new Error(`${step}: creation reported success but the cluster cannot be read`)
  o.log.info(`${step}: created (${formatDuration(Date.now() - started)})`)
  return { action: 'created', cluster }
}
