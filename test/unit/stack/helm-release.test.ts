// The helm half of a component (createHelmReleases) with helm's commands stubbed on the Helm class
// and ensureHelm's pinned-PATH route given a stand-in binary: the plan (needed or not, why, the
// installed version), one helm and one `repo add` per repository for the run, the chart's CRDs,
// status, uninstall and upgrade --install with their exact arguments and log lines.
import { jest } from '@jest/globals'
import type { HelmReleaseStatus } from '../../../src/helm/index.js'
import type { HelmReleaseSpec } from '../../../src/model/types.js'
import type { Settings } from '../../../src/settings/settings.js'
import { createHelmReleases } from '../../../src/stack/helm-release.js'
import { captureLog } from '../../support/capture-log.js'
import { useHelmStandinOnPath } from '../../support/helm-standin-bin.js'
import { deployedRelease, nvidiaChart, stubHelm, STUB_FIRST_DEPLOYED } from '../../support/helm-stub.js'

const helmBin = useHelmStandinOnPath()

afterEach(() => jest.restoreAllMocks())

const spec = (over: Partial<HelmReleaseSpec> = {}): HelmReleaseSpec =>
  nvidiaChart('gpu-operator', 'v26.7.0', { driver: { enabled: false } }, over)

function setup(release?: HelmReleaseStatus, values: Record<string, unknown> = {}) {
  const settings = {
    stack: { helmVersion: helmBin.version, helmSha256: helmBin.sha256 }
  } as unknown as Settings
  const log = captureLog()
  const { calls, helms } = stubHelm({
    releases: { 'gpu-operator': release },
    values,
    crds: [{ kind: 'CustomResourceDefinition', metadata: { name: 'clusterpolicies.nvidia.com' } }]
  })
  const releases = createHelmReleases(settings, '/k/config', log)
  return { releases, calls, helms, log }
}

const deployed = (over: Partial<HelmReleaseStatus> = {}): HelmReleaseStatus =>
  deployedRelease('gpu-operator', 'v26.7.0', { revision: 4, ...over })

describe('createHelmReleases', () => {
  // Each release there is read with status and get values (the live values are the release's own,
  // compared with the desired ones); the plan carries its chart and first deployment: whose it is
  // (src/stack/ownership.ts).
  it.each([
    {
      why: 'a release as desired needs nothing, and says so with the installed version',
      live: deployed({ chartVersion: '26.7.0' }),
      values: { driver: { enabled: false } },
      plan: { needed: false, reason: 'release deployed with the desired chart and values', version: '26.7.0' }
    },
    {
      why: 'other values are needed, with the reason',
      live: deployed(),
      values: { driver: { enabled: true } },
      plan: { needed: true, reason: 'values differ', version: 'v26.7.0' }
    },
    {
      why: 'another status is needed, with the reason',
      live: deployed({ status: 'failed' }),
      values: { driver: { enabled: false } },
      plan: { needed: true, reason: 'release status is failed', version: 'v26.7.0' }
    }
  ])('plan: $why', async ({ live, values, plan }) => {
    const t = setup(live, values)
    expect(await t.releases.plan(spec())).toEqual({
      needed: plan.needed,
      reason: plan.reason,
      installedVersion: plan.version,
      status: live
    })
    expect(t.calls).toEqual([
      'status gpu-operator -n gpu-operator',
      'get values gpu-operator -n gpu-operator'
    ])
    expect(t.log.lines).toEqual([expect.stringMatching(/^info: Using helm v3\.19\.0 from PATH \(/)])
  })

  it('plan: an absent release is needed, with no version and no values read', async () => {
    const t = setup(undefined)
    expect(await t.releases.plan(spec())).toEqual({ needed: true, reason: 'not installed' })
    expect(t.calls).toEqual(['status gpu-operator -n gpu-operator'])
  })

  it('one helm for all calls, on the kubeconfig; the repository added once', async () => {
    const t = setup(undefined)
    const crds = await t.releases.crds(spec())
    expect(crds).toEqual([
      { kind: 'CustomResourceDefinition', metadata: { name: 'clusterpolicies.nvidia.com' } }
    ])
    await t.releases.crds(spec())
    await t.releases.status('gpu-operator', 'gpu-operator')
    // Another repository is added on its own.
    await t.releases.crds(
      spec({ repo: { name: 'mellanox', url: 'https://mellanox.github.io/network-operator' } })
    )
    expect(t.calls).toEqual([
      'repo add nvidia https://helm.ngc.nvidia.com/nvidia',
      'crds {"release":"gpu-operator","chart":"nvidia/gpu-operator","version":"v26.7.0","namespace":"gpu-operator","values":{"driver":{"enabled":false}}}',
      'crds {"release":"gpu-operator","chart":"nvidia/gpu-operator","version":"v26.7.0","namespace":"gpu-operator","values":{"driver":{"enabled":false}}}',
      'status gpu-operator -n gpu-operator',
      'repo add mellanox https://mellanox.github.io/network-operator',
      'crds {"release":"gpu-operator","chart":"nvidia/gpu-operator","version":"v26.7.0","namespace":"gpu-operator","values":{"driver":{"enabled":false}}}'
    ])
    expect(t.helms.size).toBe(1)
    const [h] = [...t.helms]
    expect((h as unknown as { opts: unknown }).opts).toEqual({
      helmPath: helmBin.helmPath,
      kubeconfig: '/k/config'
    })
    expect(t.log.lines.filter(l => l.includes('Using helm'))).toHaveLength(1)
  })

  it('status is helm’s; uninstall says what it runs and whether there was a release', async () => {
    const t = setup(deployed())
    expect(await t.releases.status('gpu-operator', 'gpu-operator')).toEqual(deployed())
    expect(await t.releases.uninstall('gpu-operator', 'gpu-operator', 5000)).toBe(true)
    expect(await t.releases.uninstall('gpu-operator', 'gpu-operator', 5000)).toBe(false)
    expect(t.calls).toEqual([
      'status gpu-operator -n gpu-operator',
      'uninstall gpu-operator -n gpu-operator 5000',
      'uninstall gpu-operator -n gpu-operator 5000'
    ])
    expect(t.log.lines.slice(1)).toEqual([
      'info: helm uninstall gpu-operator -n gpu-operator --wait',
      'info: helm uninstall gpu-operator -n gpu-operator --wait'
    ])
  })

  it('upgrade --install: installed when there was no release, an upgrade after; both logged', async () => {
    const t = setup(undefined)
    expect(await t.releases.upgrade(spec(), 1234)).toMatchObject({
      installed: true,
      revision: 1,
      status: { chartName: 'gpu-operator', revision: 1, firstDeployed: STUB_FIRST_DEPLOYED }
    })
    expect(await t.releases.upgrade(spec({ version: 'v26.8.0' }), 99)).toMatchObject({
      installed: false,
      revision: 2,
      status: { chartVersion: 'v26.8.0', firstDeployed: STUB_FIRST_DEPLOYED }
    })
    expect(t.calls).toEqual([
      'repo add nvidia https://helm.ngc.nvidia.com/nvidia',
      'status gpu-operator -n gpu-operator',
      'upgrade {"release":"gpu-operator","chart":"nvidia/gpu-operator","version":"v26.7.0","namespace":"gpu-operator","values":{"driver":{"enabled":false}},"createNamespace":true,"wait":true,"timeoutMs":1234}',
      'status gpu-operator -n gpu-operator',
      'upgrade {"release":"gpu-operator","chart":"nvidia/gpu-operator","version":"v26.8.0","namespace":"gpu-operator","values":{"driver":{"enabled":false}},"createNamespace":true,"wait":true,"timeoutMs":99}'
    ])
    expect(t.log.lines.slice(1)).toEqual([
      'info: helm upgrade --install gpu-operator nvidia/gpu-operator --version v26.7.0 -n gpu-operator --wait',
      'info: helm: gpu-operator revision 1 deployed (chart gpu-operator v26.7.0)',
      'info: helm upgrade --install gpu-operator nvidia/gpu-operator --version v26.8.0 -n gpu-operator --wait',
      'info: helm: gpu-operator revision 2 deployed (chart gpu-operator v26.8.0)'
    ])
  })

  it('upgrade --install expecting no release: one that appeared since the plan is refused, not upgraded', async () => {
    const t = setup(deployed({ chartVersion: 'v26.7.0' }))
    await expect(t.releases.upgrade(spec(), 1234, { expectAbsent: true })).rejects.toThrow(
      'helm release gpu-operator -n gpu-operator (chart gpu-operator v26.7.0) appeared while this run was about to install it; it is left alone'
    )
    expect(t.calls.filter(c => c.startsWith('upgrade'))).toEqual([])
  })
})
