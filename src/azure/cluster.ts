// The AKS cluster: read it, and with create-cluster create a minimal one when it is absent
// (system pool, managed identity, tagged with this run). An existing cluster is reused and
// never modified.
import type { ManagedCluster } from '@azure/arm-containerservice'
import type { Settings } from '../settings/settings.js'
import { formatDuration } from '../util/duration.js'
import { armError, describeArmError, isNotFound } from './arm-errors.js'
import type { ArmClients } from './clients.js'
import type { Log } from '../log/index.js'
import { desiredCluster as desiredClusterModel } from '../model/azure-resources.js'
import { sleep, StepTimeoutError } from './wait.js'

import { SYSTEM_POOL_VM_SIZE } from '../model/azure-resources.js'
export { dnsPrefixFor, SYSTEM_POOL_VM_SIZE } from '../model/azure-resources.js'

export interface ClusterOptions {
  log: Log
  timeoutMs: number
  /** Delay between LRO polls (default 15 s). */
  pollIntervalMs?: number
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
    if (isNotFound(e)) {
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
        `${step}: the cluster is in provisioning state Failed; repair it (az aks update -g ${resourceGroup} -n ${name}) before running the action`
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
  const abort = AbortSignal.timeout(Math.max(1, o.timeoutMs))
  const poller = clients.containerService.managedClusters.createOrUpdate(resourceGroup, name, body, {
    ifNoneMatch: '*',
    updateIntervalInMs: interval,
    abortSignal: abort
  })
  try {
    await poller.submitted()
  } catch (e) {
    if (armError(e).status === 412) {
      const raced = await readCluster(clients, settings)
      if (raced) {
        o.log.info(`${step}: appeared while creating (HTTP 412); reusing it unchanged`)
        return { action: 'reused', cluster: raced }
      }
    }
    throw new Error(`${step}: create request failed: ${describeArmError(e)}`)
  }
  let last = 'Creating'
  while (!poller.isDone) {
    if (Date.now() - started + interval > o.timeoutMs)
      throw new StepTimeoutError(step, last, Date.now() - started)
    await sleep(interval)
    try {
      await poller.poll({ abortSignal: abort })
    } catch (e) {
      const now = await readCluster(clients, settings).catch(() => undefined)
      throw new Error(
        `${step}: creation failed (${now?.provisioningState ?? 'Failed'}): ${e instanceof Error ? e.message : String(e)}`
      )
    }
    o.log.info(
      `${step}: ${poller.operationState?.status ?? last} (${formatDuration(Date.now() - started)} elapsed)`
    )
    last = poller.operationState?.status ?? last
  }
  const cluster = poller.result ?? (await readCluster(clients, settings))
  if (!cluster) throw new Error(`${step}: creation reported success but the cluster cannot be read`)
  o.log.info(`${step}: created (${formatDuration(Date.now() - started)})`)
  return { action: 'created', cluster }
}
