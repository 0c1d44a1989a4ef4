// The Azure half of the action in one import: sign-in, ARM clients, the InfiniBand feature, the
// cluster, the RDMA node pool, cluster credentials and the post-step cleanup.
import type { Settings } from '../settings/settings.js'
import { createCredential, type AzureCredential, type CreateCredentialOptions } from './auth.js'
import { createArmClients, pipelineOptions, type ArmClients, type RetryTuning } from './clients.js'
import { log as processLog, type Log } from '../log/index.js'

export * from './api-server.js'
export * from './arm-errors.js'
export * from './auth.js'
export * from './cleanup.js'
export * from './clients.js'
export * from './cloud.js'
export * from './cluster.js'
export * from './credentials.js'
export * from './feature.js'
export * from './node-pool.js'
export * from './other-pools.js'
export * from './wait.js'

export interface AzureConnection {
  auth: AzureCredential
  clients: ArmClients
}

/** Signs in (logging the method) and builds the ARM clients, retries bounded by settings.wait.retries. */
export function connectAzure(
  settings: Pick<Settings, 'azure'> & { wait: Pick<Settings['wait'], 'retries'> },
  log: Log = processLog,
  options: { tuning?: Partial<RetryTuning>; credential?: CreateCredentialOptions } = {}
): AzureConnection {
  const tuning: RetryTuning = { retries: settings.wait.retries, ...options.tuning }
  const auth = createCredential(settings.azure, log, {
    clientOptions: pipelineOptions(tuning, log),
    ...options.credential
  })
  const clients = createArmClients(settings.azure, auth.credential, { ...tuning, log })
  return { auth, clients }
}
