// A whole simulated world (sim/world.ts) for the suites that drive it with real clients (kubectl,
// the Python client): in a fresh scratch directory, helm refused, its admin and user kubeconfigs
// written there as `admin` and `user`.
import { afterAll, beforeAll } from '@jest/globals'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { startWorld, type World } from '../../sim/world.js'

/**
 * Before the tests of the calling describe block: a scratch directory (prefix `prefix`), a world in
 * it with `scenarioOverrides`, its kubeconfigs; then `ready` with both. After them both go.
 */
export function scratchWorldForTests(
  prefix: string,
  ready: (world: World, dir: string) => unknown,
  scenarioOverrides?: unknown
): void {
  let world: World | undefined
  let dir = ''
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), prefix))
    world = await startWorld({
      dir: path.join(dir, 'world'),
      helmCommand: [process.execPath, '-e', 'process.exit(1)'],
      ...(scenarioOverrides ? { scenarioOverrides } : {})
    })
    for (const user of ['admin', 'user'] as const)
      writeFileSync(path.join(dir, user), world.kube.kubeconfig(user), { mode: 0o600 })
    await ready(world, dir)
  })
  afterAll(async () => {
    await world?.close()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })
}
