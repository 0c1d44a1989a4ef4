// What the action's creates of an AKS cluster and node pool look like to the unit tests: the system
// pool it gives a new cluster, and create options that record the create hooks' calls.
import type { SubmittedCreate } from '../../src/azure/submitted.js'
import type { Log } from '../../src/log/index.js'

/** The one system pool of a cluster the action creates. */
export const SYSTEM_POOL_PROFILE = {
  name: 'system',
  mode: 'System',
  vmSize: 'Standard_D4s_v5',
  count: 1,
  minCount: 1,
  maxCount: 2,
  enableAutoScaling: true,
  osType: 'Linux'
}

/** Create options polling every 5 ms whose hooks push `submit <json>` and `refused` onto `events`. */
export function recordingCreateOptions(
  log: Log,
  timeoutMs: number
): {
  log: Log
  timeoutMs: number
  pollIntervalMs: number
  onCreateSubmit: (s: SubmittedCreate) => void
  onCreateRefused: () => void
  events: string[]
} {
  const events: string[] = []
  return {
    log,
    timeoutMs,
    pollIntervalMs: 5,
    onCreateSubmit: s => events.push(`submit ${JSON.stringify(s)}`),
    onCreateRefused: () => events.push('refused'),
    events
  }
}
