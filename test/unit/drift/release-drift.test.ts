// A helm release's drift as drift mode reads it (helm status and get values only, here from an
// in-memory release): not installed, a status other than deployed (pending ones not fixed by
// apply), another chart version (a leading v ignored), each differing value path, and nothing for
// a release exactly as desired.
import { HelmCommandError, type Helm, type HelmReleaseStatus } from '../../../src/helm/index.js'
import { releaseDrift, secretsForbidden } from '../../../src/drift/helm.js'
import type { KubeReader } from '../../../src/kube/client.js'
import type { KubeObject } from '../../../src/kube/types.js'
import type { HelmReleaseSpec } from '../../../src/model/types.js'
import { driftItem } from '../../support/drift-items.js'
import { deployedStatus } from '../../support/release-status.js'

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

const deployed = (over: Partial<HelmReleaseStatus> = {}) =>
  deployedStatus('gpu-operator', 'v25.10.1', 3, over)

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
        driftItem(
          'gpu-operator',
          'helm/gpu-operator',
          'deployed nvidia/gpu-operator v25.10.1',
          'not installed in namespace gpu-operator',
          true,
          UPGRADE
        )
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
      driftItem('c', 'helm/gpu-operator status', 'deployed', 'failed (revision 4)', true, UPGRADE)
    ])
    const pending = await releaseDrift(
      helmWith(deployed({ status: 'pending-upgrade' }), spec.values).helm,
      spec,
      'c'
    )
    expect(pending.items).toEqual([
      driftItem(
        'c',
        'helm/gpu-operator status',
        'deployed',
        'pending-upgrade (revision 3)',
        false,
        'another helm operation is in progress or was interrupted; wait for it, or roll back (helm rollback gpu-operator -n gpu-operator) and apply'
      )
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
    expect(d.items[0]).toEqual(
      driftItem('gpu-operator', 'helm/gpu-operator chart', 'v25.10.1', 'v24.9.0', true, UPGRADE)
    )
    expect(d.items.slice(1).map(i => [i.field, i.desired, i.actual, i.fixableByApply])).toEqual([
      ['helm/gpu-operator values.driver.rdma.useHostMofed', 'false', 'true', true],
      ['helm/gpu-operator values.extra', expect.any(String), '1', true]
    ])
    expect(d.items[1].hint).toBe(`${UPGRADE} with the desired values (user values are replaced, not merged)`)
    expect(d.valuePaths).toEqual(['driver.rdma.useHostMofed', 'extra'])
  })
})

describe('a release’s drift by an identity that may not read Secrets', () => {
  const forbidden = new HelmCommandError(
    ['status', 'gpu-operator'],
    1,
    'Error: secrets is forbidden: User "reader" cannot list resource "secrets" in API group "" in the namespace "gpu-operator"'
  )
  const refusingHelm = {
    async status() {
      throw forbidden
    },
    async getValues() {
      throw new Error('values are never read from objects')
    }
  } as unknown as Helm
  const deployment = (name: string, annotations: Record<string, string>, chart: string): KubeObject => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'gpu-operator', annotations, labels: { 'helm.sh/chart': chart } }
  })
  const ours = {
    'meta.helm.sh/release-name': 'gpu-operator',
    'meta.helm.sh/release-namespace': 'gpu-operator'
  }
  const kubeWith = (items: KubeObject[]): KubeReader => ({
    get: async () => undefined,
    list: async (apiVersion, kind, o) => {
      expect([apiVersion, kind, o?.namespace]).toEqual(['apps/v1', 'Deployment', 'gpu-operator'])
      return { items, resourceVersion: '1' }
    },
    dryRunApply: async () => {
      throw new Error('no dry run')
    }
  })
  const why = "reading helm's release Secrets needs get and list on secrets in namespace gpu-operator"

  it('recognises helm refused its Secrets', () => {
    expect(secretsForbidden(forbidden)).toBe(true)
    expect(secretsForbidden(new HelmCommandError(['status'], 1, 'Error: release: not found'))).toBe(false)
    expect(secretsForbidden(new Error('secrets is forbidden'))).toBe(false)
  })

  it('reads the chart version from the release’s Deployments, not a subchart’s or another release’s', async () => {
    const kube = kubeWith([
      deployment('gpu-operator', ours, 'gpu-operator-v25.10.0'),
      deployment('nfd-master', ours, 'node-feature-discovery-0.18.3'),
      deployment('other', { ...ours, 'meta.helm.sh/release-name': 'other' }, 'gpu-operator-v1.0.0'),
      deployment('elsewhere', { ...ours, 'meta.helm.sh/release-namespace': 'x' }, 'gpu-operator-v2.0.0')
    ])
    const d = await releaseDrift(refusingHelm, spec, 'gpu-operator', kube)
    expect(d).toEqual({
      items: [driftItem('gpu-operator', 'helm/gpu-operator chart', 'v25.10.1', 'v25.10.0', true, UPGRADE)],
      status: { chartName: 'gpu-operator', chartVersion: 'v25.10.0', revision: 0, status: 'unknown' },
      valuePaths: [],
      notCompared: `helm/gpu-operator: chart version compared from its released objects; status and values not compared (${why})`
    })
    const same = await releaseDrift(
      refusingHelm,
      spec,
      'gpu-operator',
      kubeWith([deployment('gpu-operator', ours, 'gpu-operator-25.10.1')])
    )
    expect(same.items).toEqual([])
  })

  it('no Deployment of the release: not installed, said how it was read', async () => {
    const d = await releaseDrift(refusingHelm, spec, 'gpu-operator', kubeWith([]))
    expect(d.items.map(i => [i.field, i.actual])).toEqual([
      ['helm/gpu-operator', 'not installed in namespace gpu-operator (no Deployment of the release)']
    ])
    expect(d.notCompared).toBe(
      `helm/gpu-operator: no object of the release found; status and values not compared (${why})`
    )
  })

  it('without a Kubernetes reader, or for another helm failure, the error propagates', async () => {
    await expect(releaseDrift(refusingHelm, spec, 'gpu-operator')).rejects.toBe(forbidden)
    const broken = {
      async status() {
        throw new HelmCommandError(['status'], 1, 'Error: Kubernetes cluster unreachable')
      }
    } as unknown as Helm
    await expect(releaseDrift(broken, spec, 'gpu-operator', kubeWith([]))).rejects.toThrow('unreachable')
  })
})
