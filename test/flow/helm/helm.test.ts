// The action's Helm class driving the helm stand-in (a real child process on PATH) against the
// simulated API server: repo add idempotence, status of absent and installed releases, user values,
// the skip decision (needsUpgrade) and an upgrade when values change. The values file is checked to
// be private (0600), passed with --values and removed afterwards.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Helm, HelmCommandError, PLAN_VALUES_FILE } from '../../../src/helm/helm.js'
import { needsUpgrade, upgradeReason } from '../../../src/helm/compare.js'
import { silentLog } from '../../../src/log/index.js'
import { helmStandinBinDir } from '../../support/helm-standin-bin.js'
import { startHelmWorld, type HelmWorld } from '../../support/helm-world.js'

const REPO = { name: 'nvidia', url: 'https://helm.ngc.nvidia.com/nvidia' }
let w: HelmWorld
let helm: Helm
let argLog: string

const gpu = (values: Record<string, unknown>, version = 'v26.3.3') => ({
  release: 'gpu-operator',
  chart: 'nvidia/gpu-operator',
  version,
  namespace: 'gpu-operator',
  values,
  createNamespace: true
})

beforeAll(async () => {
  const binDir = await helmStandinBinDir()
  w = await startHelmWorld(binDir)
  // A wrapper that records each invocation's argv and the mode and content of the --values file.
  const dir = mkdtempSync(path.join(tmpdir(), 'helm-wrap-'))
  argLog = path.join(dir, 'args.log')
  const wrapper = path.join(dir, 'helm')
  writeFileSync(
    wrapper,
    `#!/bin/sh
echo "ARGV $*" >> "${argLog}"
prev=""
for a in "$@"; do
  if [ "$prev" = "--values" ]; then echo "MODE $(stat -c %a "$a")" >> "${argLog}"; cat "$a" >> "${argLog}"; echo >> "${argLog}"; fi
  prev="$a"
done
exec "${path.join(binDir, 'helm')}" "$@"
`
  )
  chmodSync(wrapper, 0o755)
  helm = new Helm({
    helmPath: wrapper,
    kubeconfig: w.kubeconfigPath,
    env: w.env as Record<string, string>,
    log: silentLog
  })
})
afterAll(async () => {
  await w.close()
})

describe('Helm', () => {
  it('reports its version and adds the repo idempotently', async () => {
    expect(await helm.version()).toBe('v3.19.0')
    await helm.repoAdd(REPO.name, REPO.url)
    await helm.repoAdd(REPO.name, REPO.url)
    await helm.repoUpdate()
    await expect(helm.repoAdd(REPO.name, 'https://example.invalid/charts')).rejects.toThrow(
      'helm repository "nvidia" already points to https://helm.ngc.nvidia.com/nvidia, not https://example.invalid/charts'
    )
  })

  it('returns undefined for an absent release', async () => {
    expect(await helm.status('gpu-operator', 'gpu-operator')).toBeUndefined()
  })

  it('installs with values in a private file, then reports status and user values', async () => {
    const values = { nfd: { enabled: false }, driver: { rdma: { enabled: true } } }
    const st = await helm.upgradeInstall(gpu(values))
    expect(st).toEqual({
      chartName: 'gpu-operator',
      chartVersion: 'v26.3.3',
      appVersion: 'v26.3.3',
      revision: 1,
      status: 'deployed',
      firstDeployed: expect.stringMatching(/^\d{4}-\d\d-\d\dT/)
    })
    expect(await helm.getValues('gpu-operator', 'gpu-operator')).toEqual(values)
    const log = readFileSync(argLog, 'utf8')
    const argvLine = log.split('\n').find(l => l.startsWith('ARGV upgrade'))!
    expect(argvLine).toMatch(
      /^ARGV upgrade --install gpu-operator nvidia\/gpu-operator --version v26\.3\.3 --namespace gpu-operator --create-namespace --values \S+gpu-operator\.json$/
    )
    expect(argvLine).not.toContain('rdma')
    expect(log).toContain('MODE 600')
    const valuesPath = argvLine.split(' ').pop()!
    expect(existsSync(valuesPath)).toBe(false)
    const cp = w.store.get(w.store.type('nvidia.com', 'clusterpolicies')!, undefined, 'cluster-policy')
    expect(cp.spec.driver.rdma).toEqual({ enabled: true, useHostMofed: false })
  })

  it('skips an unchanged release and upgrades when values change', async () => {
    const desired = {
      version: 'v26.3.3',
      values: { driver: { rdma: { enabled: true } }, nfd: { enabled: false } }
    }
    const live = async () => {
      const status = (await helm.status('gpu-operator', 'gpu-operator'))!
      return {
        chartVersion: status.chartVersion,
        status: status.status,
        values: await helm.getValues('gpu-operator', 'gpu-operator')
      }
    }
    expect(needsUpgrade(desired, await live())).toBe(false)

    const changed = { version: 'v26.3.3', values: { ...desired.values, migManager: { enabled: false } } }
    expect(upgradeReason(changed, await live())).toBe('values differ')
    const st = await helm.upgradeInstall(gpu(changed.values))
    expect(st).toMatchObject({ revision: 2, status: 'deployed' })
    expect(needsUpgrade(changed, await live())).toBe(false)
    const cp = w.store.get(w.store.type('nvidia.com', 'clusterpolicies')!, undefined, 'cluster-policy')
    expect(cp.spec.migManager.enabled).toBe(false)

    expect(upgradeReason({ ...changed, version: 'v26.7.0' }, await live())).toBe('chart v26.3.3 → v26.7.0')
  })

  it('surfaces helm errors with helm stderr', async () => {
    const err = (await helm.upgradeInstall(gpu({}, 'v9.9.9')).catch(e => e)) as HelmCommandError
    expect(err).toBeInstanceOf(HelmCommandError)
    expect(err.exitCode).toBe(1)
    expect(err.message).toContain(`chart "gpu-operator" matching v9.9.9 not found in nvidia index`)
    await expect(helm.getValues('absent', 'gpu-operator')).rejects.toThrow('release: not found')
  })

  it('plans the exact argv it runs', () => {
    expect(helm.planArgv({ ...gpu({}), wait: true, atomic: true, timeoutMs: 600_000 })).toEqual([
      'upgrade',
      '--install',
      'gpu-operator',
      'nvidia/gpu-operator',
      '--version',
      'v26.3.3',
      '--namespace',
      'gpu-operator',
      '--create-namespace',
      '--values',
      PLAN_VALUES_FILE,
      '--wait',
      '--atomic',
      '--timeout',
      '600s'
    ])
  })
})
