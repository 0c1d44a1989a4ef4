// The drift comparison's pure parts: paths a person reads, containment as server-side apply reads
// a manifest (named lists by name), helm value differences that agree with apply's upgrade
// decision, resolution of a path in a dry-run result, and short values (JSON documents diffed inside).
import { describe, expect, it } from '@jest/globals'
import { upgradeReason } from '../../../src/helm/index.js'
import {
  containedDifferences,
  describeValues,
  formatPath,
  shortValue,
  valueAt,
  valueDifferences
} from '../../../src/drift/paths.js'
import { rdmaDevicePluginManifests } from '../../../src/components/rdma-device-plugin.js'
import { driftLines } from '../../../src/drift/render.js'
import { gpuOperatorValues } from '../../../src/components/gpu-operator.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'
import { RDMA_DEVICE_PLUGIN_IMAGE } from '../../../src/settings/images.js'
import { driftItem } from '../../support/drift-items.js'

const settings = (over: Record<string, string> = {}) =>
  readSettings(reader({ ...VALID_APPLY, ...over })).settings

describe('formatPath', () => {
  it('writes keys dotted, odd keys and named elements in brackets, indexes as numbers', () => {
    expect(
      formatPath([
        { key: 'spec' },
        { key: 'template' },
        { key: 'spec' },
        { key: 'containers' },
        { name: 'k8s-rdma-shared-dp-ds' },
        { key: 'image' }
      ])
    ).toBe('spec.template.spec.containers[k8s-rdma-shared-dp-ds].image')
    expect(
      formatPath([{ key: 'metadata' }, { key: 'labels' }, { key: 'pod-security.kubernetes.io/enforce' }])
    ).toBe('metadata.labels[pod-security.kubernetes.io/enforce]')
    expect(formatPath([{ key: 'data' }, { key: 'config.json' }])).toBe('data[config.json]')
    expect(formatPath([{ key: 'args' }, { index: 2 }])).toBe('args[2]')
  })
})

describe('containedDifferences (what a manifest sets, against the live object)', () => {
  const ds = () => rdmaDevicePluginManifests(settings())[1]

  it('finds nothing when the live object holds every set field, whatever else it has', () => {
    const live = structuredClone(ds()) as any
    live.status = { numberReady: 2 }
    live.spec.template.spec.containers[0].imagePullPolicy = 'IfNotPresent'
    live.spec.template.spec.dnsPolicy = 'ClusterFirst'
    live.spec.template.spec.containers.push({ name: 'sidecar', image: 'x' })
    expect(containedDifferences(ds().spec, live.spec)).toEqual([])
  })

  it('names a changed container image by the container name, once', () => {
    const live = structuredClone(ds()) as any
    live.spec.template.spec.containers[0].image = 'ghcr.io/mellanox/k8s-rdma-shared-dev-plugin:v1.4.0'
    const d = containedDifferences(ds().spec, live.spec, [{ key: 'spec' }])
    expect(d.map(x => formatPath(x.path))).toEqual([
      'spec.template.spec.containers[k8s-rdma-shared-dp-ds].image'
    ])
    expect(d[0].desired).toBe(RDMA_DEVICE_PLUGIN_IMAGE)
    expect(d[0].actual).toBe('ghcr.io/mellanox/k8s-rdma-shared-dev-plugin:v1.4.0')
    expect(valueAt(live, d[0].path)).toBe('ghcr.io/mellanox/k8s-rdma-shared-dev-plugin:v1.4.0')
  })

  it('reports a missing named element, a missing key and an unnamed list of another length whole', () => {
    const live = structuredClone(ds()) as any
    live.spec.template.spec.volumes = live.spec.template.spec.volumes.filter((v: any) => v.name !== 'devs')
    delete live.spec.template.spec.hostNetwork
    live.spec.template.spec.tolerations = []
    const d = containedDifferences(ds().spec, live.spec)
    expect(d.map(x => formatPath(x.path)).sort()).toEqual([
      'template.spec.hostNetwork',
      'template.spec.tolerations',
      'template.spec.volumes[devs]'
    ])
    expect(d.find(x => formatPath(x.path) === 'template.spec.hostNetwork')?.actual).toBeUndefined()
  })
})

describe('valueDifferences (helm values)', () => {
  const desired = () => JSON.parse(JSON.stringify(gpuOperatorValues(settings())))

  it('lists the changed leaf paths, extra and missing keys included, and none when equal', () => {
    expect(valueDifferences(desired(), structuredClone(desired()))).toEqual([])
    const live = structuredClone(desired())
    live.driver.rdma.useHostMofed = true
    live.toolkit = { enabled: false }
    delete live.nfd
    expect(valueDifferences(desired(), live).map(d => [formatPath(d.path), d.desired, d.actual])).toEqual([
      ['driver.rdma.useHostMofed', false, true],
      ['nfd', { enabled: false }, undefined],
      ['toolkit', undefined, { enabled: false }]
    ])
  })

  it('agrees with the upgrade decision apply makes, for every single-key change', () => {
    const cases: Array<(v: any) => void> = [
      v => (v.driver.rdma.enabled = false),
      v => (v.migManager = { enabled: false, extra: [1] }),
      v => delete v.vfioManager,
      v => (v.driver.rdma = { useHostMofed: false, enabled: true }), // key order only
      () => undefined
    ]
    for (const change of cases) {
      const live = structuredClone(desired())
      change(live)
      const upgrade = upgradeReason(
        { version: 'v26.3.3', values: desired() },
        { chartVersion: 'v26.3.3', status: 'deployed', values: live }
      )
      expect(valueDifferences(desired(), live).length > 0).toBe(upgrade !== undefined)
    }
  })
})

describe('describeValues', () => {
  it('diffs two JSON documents inside their strings and names the inner paths', () => {
    const cm = rdmaDevicePluginManifests(settings())[0] as any
    const desired = cm.data['config.json']
    const live = JSON.stringify({ ...JSON.parse(desired), periodicUpdateInterval: 300 }).replace(
      '"rdmaHcaMax":1000',
      '"rdmaHcaMax":63'
    )
    expect(describeValues(desired, live)).toEqual({
      desired: 'configList[0].rdmaHcaMax=1000',
      actual: 'configList[0].rdmaHcaMax=63'
    })
  })

  it('keeps other values short and says when one is absent', () => {
    expect(describeValues('privileged', undefined)).toEqual({ desired: 'privileged', actual: '(absent)' })
    expect(shortValue('x'.repeat(500)).length).toBe(120)
    expect(shortValue({ a: 1 })).toBe('{"a":1}')
  })
})

describe('driftLines (the log of drift mode)', () => {
  it('prints each field with desired, actual and the fix; continuation lines indented under their label', () => {
    expect(
      driftLines([
        driftItem(
          'rdma-device-plugin',
          'configmap/rdma-devices -n kube-system data[config.json]',
          '{\n  "a": 1\n}',
          '(absent)',
          true,
          'apply sets it on configmap/rdma-devices -n kube-system'
        ),
        { component: 'node-pool', field: 'vmSize', desired: 'A', actual: 'B', fixableByApply: false }
      ])
    ).toEqual([
      '  rdma-device-plugin: configmap/rdma-devices -n kube-system data[config.json]',
      '    desired: {',
      '               "a": 1',
      '             }',
      '    actual:  (absent)',
      '    fix:     mode: apply fixes this (apply sets it on configmap/rdma-devices -n kube-system)',
      '  node-pool: vmSize',
      '    desired: A',
      '    actual:  B',
      '    fix:     manual fix needed'
    ])
  })
})
