// The real kubectl against the simulated API server alone (test/sim/kube): a suite skipped, with the
// reason printed, when /usr/bin/kubectl is absent, with one API server world and a scratch directory
// holding a token kubeconfig per suite, and kubectl-runner.ts's runners for kubectl there.
import { afterAll, beforeAll, describe } from '@jest/globals'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { kubectlRunner, type KubectlRunner } from './kubectl-runner.js'
import { TOKEN, kubeConfigYaml, startWorld, type TestWorld } from './apiserver-world.js'

export const KUBECTL = '/usr/bin/kubectl'

/**
 * A describe block `name` over the real kubectl (skipped, saying why, without it): before its tests
 * a world starts and a scratch directory (prefix `prefix`) gets its kubeconfig, then `ready` runs
 * with both; after them both go. `body` declares the tests with the session's runners.
 */
export function kubectlSuite(
  name: string,
  prefix: string,
  ready: (w: TestWorld, session: KubectlRunner) => unknown,
  body: (session: KubectlRunner) => void
): void {
  const haveKubectl = existsSync(KUBECTL)
  if (!haveKubectl) console.log(`skipping "${name}": ${KUBECTL} not found`)
  let world: TestWorld | undefined
  let dir = ''
  const session = kubectlRunner(KUBECTL, () => dir, 'kubeconfig')
  ;(haveKubectl ? describe : describe.skip)(name, () => {
    beforeAll(async () => {
      world = await startWorld()
      dir = mkdtempSync(path.join(tmpdir(), prefix))
      session.file('kubeconfig', kubeConfigYaml(world.server.url, world.tls, { token: TOKEN }))
      await ready(world, session)
    })
    afterAll(async () => {
      await world?.close()
      if (dir) rmSync(dir, { recursive: true, force: true })
    })
    body(session)
  })
}
