// What the action renders, checked against the upstream files of the versions it pins (copies in
// test/fixtures/upstream/, sources in SOURCES.md): every helm values key exists in the pinned
// chart's values (the NFD worker's in the chart's node-feature-discovery subchart, whose values
// schema helm enforces), every NicClusterPolicy field exists in the pinned CRD, the DOCA driver and
// telemetry versions are the ones NVIDIA pairs with the Network Operator release, and the images
// are pinned by the digests their publishers list.
import { Ajv2020 } from 'ajv/dist/2020.js'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { parse, parseAllDocuments } from 'yaml'
import { CHART_DRIVER_UPGRADE_POLICY, gpuOperatorValues } from '../../../src/components/gpu-operator.js'
import { ibNodeConfigDaemonSet } from '../../../src/components/ib-node-config.js'
import { networkOperatorValues } from '../../../src/components/network-operator.js'
import { DOCA_TELEMETRY, nicClusterPolicySpec } from '../../../src/components/nic-cluster-policy.js'
import { rdmaDevicePluginManifests } from '../../../src/components/rdma-device-plugin.js'
import {
  BENCHMARK_IMAGE_DEFAULT,
  BUSYBOX_IMAGE,
  DEFAULT_IMAGE_ARCHES,
  DYNAMO_RUNTIME_IMAGE,
  NCCL_TESTS_IMAGE,
  RDMA_DEVICE_PLUGIN_IMAGE
} from '../../../src/settings/images.js'
import { INPUTS } from '../../../src/settings/input-definitions.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import type { Settings } from '../../../src/settings/settings.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'

const UPSTREAM = path.resolve(process.cwd(), 'test/fixtures/upstream')
const read = (f: string): string => readFileSync(path.join(UPSTREAM, f), 'utf8')
const yamlOf = (f: string): any => parse(read(f))
const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)
const defaultOf = (name: string): string => INPUTS.find(i => i.name === name)!.default!
let nfdSchema: ReturnType<Ajv2020['compile']> | undefined
/** The NFD subchart's values schema (draft 2020-12; unknown formats such as int64 are ignored). */
const nfdValuesSchema = () =>
  (nfdSchema ??= new Ajv2020({ strict: false, allErrors: true, logger: false }).compile(
    JSON.parse(read('network-operator-v26.4.1-nfd-subchart-values.schema.json'))
  ))

// A tainted pool, so that every toleration and selector the action renders is there.
// Built before the tests, not while the file loads (a settings bug fails tests, not the file).
let settings: Settings
beforeAll(() => {
  settings = readSettings(
    reader({ ...VALID_APPLY, 'node-taints': 'sku=gpu:NoSchedule,dedicated=rdma:NoExecute' }),
    {}
  ).settings
})

/**
 * Key paths of `ours` missing from `upstream`: a key must exist upstream; its value is compared
 * further only where both are maps and upstream's is not empty (an empty map, a list or a scalar
 * upstream takes whatever the user gives: nodeSelector {}, tolerations []).
 */
function missingKeys(ours: Record<string, unknown>, upstream: Record<string, unknown>, at = ''): string[] {
  const out: string[] = []
  for (const [k, v] of Object.entries(ours)) {
    const where = at ? `${at}.${k}` : k
    if (!(k in upstream)) {
      out.push(where)
      continue
    }
    const up = upstream[k]
    if (isMap(v) && isMap(up) && Object.keys(up).length > 0) out.push(...missingKeys(v, up, where))
  }
  return out
}

/** Field paths of `value` that the OpenAPI schema does not declare (no additionalProperties, no x-preserve). */
function undeclaredFields(value: unknown, schema: any, at: string): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => undeclaredFields(v, schema?.items, `${at}[${i}]`))
  if (!isMap(value) || !schema) return []
  if (schema['x-kubernetes-preserve-unknown-fields'] || schema.additionalProperties) return []
  const props = schema.properties ?? {}
  return Object.entries(value).flatMap(([k, v]) =>
    k in props ? undeclaredFields(v, props[k], `${at}.${k}`) : [`${at}.${k}`]
  )
}

describe('the pinned versions', () => {
  const release = yamlOf('network-operator-v26.4.1-hack-release.yaml')

  it('the Network Operator, DOCA driver and telemetry are the set NVIDIA releases together (v26.4.1 hack/release.yaml)', () => {
    expect(defaultOf('network-operator-version')).toBe(release.NetworkOperator.version)
    expect(defaultOf('doca-driver-version')).toBe(release.Mofed.version)
    expect(DOCA_TELEMETRY).toEqual({
      repository: release.docaTelemetryService.repository,
      image: release.docaTelemetryService.image,
      version: release.docaTelemetryService.version
    })
    expect(release.Mofed.repository).toBe((nicClusterPolicySpec(settings).ofedDriver as any).repository)
  })

  it('the Network Operator is the newest patch of its minor (v26.4.1 over v26.4.0)', () => {
    expect(defaultOf('network-operator-version')).toBe('v26.4.1')
    expect(release.Mofed.version).toBe('doca3.4.1-26.04-1.1.0.0-1')
    expect(read('network-operator-v26.4.1-values.yaml')).toMatch(
      /^# Source: github.com\/Mellanox\/network-operator @ tag v26.4.1 /
    )
  })

  it('the GPU Operator is the newest release the sources show (v26.7.0)', () => {
    expect(defaultOf('gpu-operator-version')).toBe('v26.7.0')
    expect(read('gpu-operator-v26.7.0-values.yaml')).toMatch(
      /^# Source: github.com\/NVIDIA\/gpu-operator @ tag v26.7.0/
    )
  })
})

describe('every values key exists in the pinned chart', () => {
  it('Network Operator v26.4.1 (the NFD worker in its node-feature-discovery subchart)', () => {
    const values = networkOperatorValues(settings)
    const chart = yamlOf('network-operator-v26.4.1-values.yaml')
    const { 'node-feature-discovery': nfd, ...rest } = values
    expect(missingKeys(rest, chart)).toEqual([])
    const sub = yamlOf('network-operator-v26.4.1-nfd-subchart-values.yaml')
    expect(missingKeys(nfd as Record<string, unknown>, sub)).toEqual([])
    // helm validates a subchart's values against its schema: the coalesced values must pass it.
    const validate = nfdValuesSchema()
    const coalesced = structuredClone(sub)
    for (const [k, v] of Object.entries(nfd as Record<string, any>))
      coalesced[k] = isMap(v) && isMap(coalesced[k]) ? { ...coalesced[k], ...v } : v
    const ok = validate(coalesced)
    expect(validate.errors ?? []).toEqual([])
    expect(ok).toBe(true)
    expect((nfd as any).worker.tolerations).toEqual([
      { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'sku', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' },
      { key: 'dedicated', operator: 'Equal', value: 'rdma', effect: 'NoExecute' }
    ])
  })

  it('the schema check has teeth: a misspelt worker key or a malformed toleration is refused', () => {
    const validate = nfdValuesSchema()
    const sub = yamlOf('network-operator-v26.4.1-nfd-subchart-values.yaml')
    expect(validate({ ...sub, worker: { ...sub.worker, tolerations: 'sku=gpu' } })).toBe(false)
    expect(missingKeys({ worker: { tolerationz: [] } }, sub)).toEqual(['worker.tolerationz'])
  })

  it('the GPU driver upgrade policy the plan states is the chart default (GPU Operator v26.7.0)', () => {
    const chart = yamlOf('gpu-operator-v26.7.0-values.yaml').driver.upgradePolicy
    expect(chart).toMatchObject(CHART_DRIVER_UPGRADE_POLICY)
    expect((gpuOperatorValues(settings).driver as any).upgradePolicy).toBeUndefined()
  })

  it('GPU Operator v26.7.0', () => {
    const values = gpuOperatorValues(settings)
    expect(missingKeys(values, yamlOf('gpu-operator-v26.7.0-values.yaml'))).toEqual([])
    // The ClusterPolicy the chart renders carries the operands' tolerations (spec.daemonsets.tolerations).
    const crd = parseAllDocuments(read('gpu-operator-v26.7.0-crd-clusterpolicies.yaml'))
      .map(d => d.toJS())
      .find(d => d?.kind === 'CustomResourceDefinition')
    const spec = crd.spec.versions[0].schema.openAPIV3Schema.properties.spec
    expect(
      undeclaredFields(
        { daemonsets: values.daemonsets, driver: { rdma: (values.driver as any).rdma } },
        spec,
        'spec'
      )
    ).toEqual([])
  })
})

describe('every NicClusterPolicy field exists in the pinned CRD (v26.4.1)', () => {
  const crd = parseAllDocuments(read('network-operator-v26.4.1-crd-nicclusterpolicies.yaml'))
    .map(d => d.toJS())
    .find(d => d?.kind === 'CustomResourceDefinition')
  const spec = crd.spec.versions.find((v: any) => v.name === 'v1alpha1').schema.openAPIV3Schema.properties
    .spec

  it('with tolerations and the pool in the node affinity', () => {
    const ours = nicClusterPolicySpec(settings)
    expect(undeclaredFields(ours, spec, 'spec')).toEqual([])
    expect(ours.tolerations).toEqual([
      { key: 'sku', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' },
      { key: 'dedicated', operator: 'Equal', value: 'rdma', effect: 'NoExecute' }
    ])
  })

  it('and the check has teeth', () => {
    expect(undeclaredFields({ ofedDriver: { versoin: 'x' } }, spec, 'spec')).toEqual([
      'spec.ofedDriver.versoin'
    ])
  })
})

describe('images pinned by published digests', () => {
  const digestOf = (image: string): string => image.split('@')[1]

  it('busybox: the index digest docker-library publishes for busybox:1.37.0', () => {
    expect(BUSYBOX_IMAGE).toMatch(/^docker\.io\/library\/busybox:1\.37\.0@sha256:[0-9a-f]{64}$/)
    expect(read('docker-library-repo-info__repos_busybox_remote_1.37.0-EXCERPT.md')).toContain(
      `## \`busybox:1.37.0\`\n\n\`\`\`console\n$ docker pull busybox@${digestOf(BUSYBOX_IMAGE)}`
    )
    const ds = ibNodeConfigDaemonSet(settings) as any
    const pod = ds.spec.template.spec
    expect([...pod.initContainers, ...pod.containers].map((c: any) => c.image)).toEqual(
      Array(3).fill(BUSYBOX_IMAGE)
    )
  })

  it('the RDMA shared device plugin: the build and digest NVIDIA lists for Network Operator v26.4.1', () => {
    const release = yamlOf('network-operator-v26.4.1-hack-release.yaml').RdmaSharedDevicePlugin
    expect(RDMA_DEVICE_PLUGIN_IMAGE.split('@')[0]).toBe(
      `${release.repository}/${release.image}:${release.version}`
    )
    const related = yamlOf('network-operator-v26.4.1-ocp-bundle-EXCERPT.yaml').spec.relatedImages
    expect(related).toContainEqual({
      name: 'rdma-shared-device-plugin',
      image: `${release.repository}/${release.image}@${digestOf(RDMA_DEVICE_PLUGIN_IMAGE)}`
    })
    expect(defaultOf('rdma-device-plugin-image')).toBe(RDMA_DEVICE_PLUGIN_IMAGE)
    const [, ds] = rdmaDevicePluginManifests(settings) as any[]
    const pod = ds.spec.template.spec
    expect(pod.containers[0].image).toBe(RDMA_DEVICE_PLUGIN_IMAGE)
    expect(pod.initContainers[0].image).toBe(BUSYBOX_IMAGE)
  })
})

describe('the architectures of the default images (docs/IMAGES.md)', () => {
  it('busybox: amd64 and arm64 are among the platforms of its published index', () => {
    const md = read('docker-library-repo-info__repos_busybox_remote_1.37.0-EXCERPT.md')
    expect(md).toContain('Manifest MIME: `application/vnd.oci.image.index.v1+json`')
    expect(md).toContain('### `busybox:1.37.0` - linux; amd64')
    expect(md).toContain('### `busybox:1.37.0` - linux; arm64 variant v8')
    expect(DEFAULT_IMAGE_ARCHES[BUSYBOX_IMAGE]).toEqual(['amd64', 'arm64'])
  })

  it("the RDMA device plugin: NVIDIA's bundle of the release declares amd64 and arm64 supported", () => {
    const labels = yamlOf('network-operator-v26.4.1-ocp-bundle-EXCERPT.yaml').metadata.labels
    expect(labels).toEqual({
      'operatorframework.io/arch.amd64': 'supported',
      'operatorframework.io/arch.arm64': 'supported'
    })
    expect(DEFAULT_IMAGE_ARCHES[RDMA_DEVICE_PLUGIN_IMAGE]).toEqual(['amd64', 'arm64'])
  })

  it('the benchmark image: no published platforms, counted as amd64 only', () => {
    expect(defaultOf('benchmark-image')).toBe(BENCHMARK_IMAGE_DEFAULT)
    expect(DEFAULT_IMAGE_ARCHES[BENCHMARK_IMAGE_DEFAULT]).toEqual(['amd64'])
  })

  it("the Dynamo runtime image: Dynamo's current release, published for x86_64 and ARM64", () => {
    const md = read('dynamo-compatibility-v1.6-EXCERPT.md')
    const tag = DYNAMO_RUNTIME_IMAGE.split('/').pop()!
    expect(tag).toBe('vllm-runtime:1.6.2')
    expect(md).toContain(`${tag} — backend pins as v1.6.0`)
    expect(md).toContain('Arch: x86_64, ARM64')
    expect(md).toMatch(/^\| vLLM \| 0\.31\.0 \| 1\.4\.1 \|/m)
    expect(defaultOf('transport-image')).toBe(DYNAMO_RUNTIME_IMAGE)
    expect(DEFAULT_IMAGE_ARCHES[DYNAMO_RUNTIME_IMAGE]).toEqual(['amd64', 'arm64'])
  })

  it("the nccl-tests image: Azure's workflow pushes amd64 and arm64, tagged latest only", () => {
    const wf = yamlOf('azure-aks-rdma-infiniband__.github_workflows_build-nccl-tests-image.yaml')
    const steps = wf.jobs.build_push.steps as Array<{ id?: string; with?: Record<string, string> }>
    const build = steps.find(x => x.with?.file === 'tests/containers/nccl-tests/Dockerfile')!
    expect(build.with!.platforms).toBe('linux/amd64,linux/arm64')
    // A type=schedule tag is made only by a scheduled run, and the workflow has no schedule trigger.
    expect(steps.find(x => x.id === 'tag')!.with!.tags).toContain('type=raw,value=latest')
    expect(Object.keys(wf.on)).toEqual(['push', 'workflow_dispatch'])
    expect(defaultOf('collective-image')).toBe(NCCL_TESTS_IMAGE)
    expect(NCCL_TESTS_IMAGE.endsWith(':latest')).toBe(true)
    expect(DEFAULT_IMAGE_ARCHES[NCCL_TESTS_IMAGE]).toEqual(['amd64', 'arm64'])
  })

  it('every default image of an input has its architectures recorded', () => {
    for (const input of [
      'rdma-device-plugin-image',
      'benchmark-image',
      'transport-image',
      'collective-image'
    ])
      expect(DEFAULT_IMAGE_ARCHES[defaultOf(input)]?.length).toBeGreaterThan(0)
  })
})
