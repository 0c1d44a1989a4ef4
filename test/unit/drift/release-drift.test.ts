// A helm release's drift as drift mode reads it (helm status and get values only, here from an
// in-memory release): not installed, a status other than deployed (pending ones not fixed by
// apply), another chart version (a leading v ignored), each differing value path, and nothing for
// a release exactly as desired.
import type { Helm, HelmReleaseStatus } from '../../../src/helm/index.js'
import { releaseDrift } from '../../../src/drift/helm.js'
import type { HelmReleaseSpec } from '../../../src/model/types.js'

const spec = {
  release: 'gpu-operator',
  chart: 'nvidia/gpu-operator',
  version: 'v25.10.1',
  namespace: 'gpu-operator',
  repo: { name: 'nvidia', url: 'https://helm.ngc.nvidia.com/nvidia' },
  values: { driver: { rdma: { enabled: true, useHostMofed: false } }, toolkit: { enabled: true } }
} as HelmReleaseSpec

const UPGRADE =
  'apply upgrades release gpu-operator in gpu-operator to nvidia/gpu-operator v25.10.1 with the desired values'

/** helm as drift reads it: the release's status and user values, each call recorded. */
function helmWith(status: HelmReleaseStatus | undefined, values: Record<string, unknown> = {}) {
  const calls: string[] = []
  const helm = {
    async status(release: string, namespace: string) {
      calls.push(`status ${release} -n ${namespace}`)
      return status
    },
    async getValues(release: string, namespace: string) {
      calls.push(`get values ${release} -n ${namespace}`)
      return values
    }
  }
  return { helm: helm as unknown as Helm, calls }
}

const deployed = (over: Partial<HelmReleaseStatus> = {}): HelmReleaseStatus => ({
  chartName: 'gpu-operator',
  chartVersion: 'v25.10.1',
  revision: 3,
  status: 'deployed',
  ...over
})

describe('a release’s drift', () => {
  it('none for the release as desired, read with status and get values only', async () => {
    const { helm, calls } = helmWith(deployed({ chartVersion: '25.10.1' }), structuredClone(spec.values!))
    const d = await releaseDrift(helm, spec, 'gpu-operator')
    expect(d).toEqual({ items: [], status: deployed({ chartVersion: '25.10.1' }), valuePaths: [] })
    expect(calls).toEqual(['status gpu-operator -n gpu-operator', 'get values gpu-operator -n gpu-operator'])
  })

  it('not installed: the release and namespace, fixed by apply, no values read', async () => {
    const { helm, calls } = helmWith(undefined)
    expect(await releaseDrift(helm, spec, 'gpu-operator')).toEqual({
      items: [
        {
          component: 'gpu-operator',
          field: 'helm/gpu-operator',
          desired: 'deployed nvidia/gpu-operator v25.10.1',
          actual: 'not installed in namespace gpu-operator',
          fixableByApply: true,
          hint: UPGRADE
        }
      ],
      valuePaths: []
    })
    expect(calls).toEqual(['status gpu-operator -n gpu-operator'])
  })

  it('a failed release is fixed by apply; a pending one waits or is rolled back first', async () => {
    const failed = await releaseDrift(
      helmWith(deployed({ status: 'failed', revision: 4 }), spec.values).helm,
      spec,
      'c'
    )
    expect(failed.items).toEqual([
      {
        component: 'c',
        field: 'helm/gpu-operator status',
        desired: 'deployed',
        actual: 'failed (revision 4)',
        fixableByApply: true,
        hint: UPGRADE
      }
    ])
    const pending = await releaseDrift(
      helmWith(deployed({ status: 'pending-upgrade' }), spec.values).helm,
      spec,
      'c'
    )
    expect(pending.items).toEqual([
      {
        component: 'c',
        field: 'helm/gpu-operator status',
        desired: 'deployed',
        actual: 'pending-upgrade (revision 3)',
        fixableByApply: false,
        hint: 'another helm operation is in progress or was interrupted; wait for it, or roll back (helm rollback gpu-operator -n gpu-operator) and apply'
      }
    ])
  })

  it('another chart version, and each differing value path with both values', async () => {
    const live = {
      driver: { rdma: { enabled: true, useHostMofed: true } },
      toolkit: { enabled: true },
      extra: 1
    }
    const d = await releaseDrift(
      helmWith(deployed({ chartVersion: 'v24.9.0' }), live).helm,
      spec,
      'gpu-operator'
    )
    expect(d.items[0]).toEqual({
      component: 'gpu-operator',
      field: 'helm/gpu-operator chart',
      desired: 'v25.10.1',
      actual: 'v24.9.0',
      fixableByApply: true,
      hint: UPGRADE
    })
    expect(d.items.slice(1).map(i => [i.field, i.desired, i.actual, i.fixableByApply])).toEqual([
      ['helm/gpu-operator values.driver.rdma.useHostMofed', 'false', 'true', true],
      ['helm/gpu-operator values.extra', expect.any(String), '1', true]
    ])
    expect(d.items[1].hint).toBe(`${UPGRADE} with the desired values (user values are replaced, not merged)`)
    expect(d.valuePaths).toEqual(['driver.rdma.useHostMofed', 'extra'])
  })
})
