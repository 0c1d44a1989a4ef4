// The Azure flow tests' worlds (test/support/azure-world.ts), each closed after the test that
// started it, the poll options they give the pool and cluster waits, and a pool a scenario seeds.
import { startWorld, type TestWorld } from './azure-world.js'
import { closeAfterTest } from './world-scope.js'

/** Poll options for ensureNodePool, ensureCluster and cleanup: quick polls, a bound well past them. */
export const POLL_FAST = { timeoutMs: 20_000, pollIntervalMs: 20 }

/** A pool as a scenario seeds it, compatible with settingsFor()'s node pool. */
export const COMPATIBLE_POOL = {
  name: 'rdma',
  vmSize: 'Standard_ND96asr_v4',
  count: 2,
  osSKU: 'Ubuntu2204',
  gpuDriver: 'None'
}

/** startWorld, closed after this test. */
export async function worldForTest(
  overrides: Record<string, unknown> = {},
  timeScale?: number
): Promise<TestWorld> {
  return closeAfterTest(await startWorld(overrides, timeScale))
}
