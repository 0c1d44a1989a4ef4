// plan mode: the ten components in order, every rendered manifest valid against the Kubernetes
// OpenAPI schemas (kubernetes-models) and the NicClusterPolicy against its CRD schema; the
// guide's bugs corrected in the desired state.
import { Ajv } from 'ajv'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { DaemonSet } from 'kubernetes-models/apps/v1'
import { ConfigMap, Namespace } from 'kubernetes-models/v1'
import { parseAllDocuments } from 'yaml'
import { COMPONENT_ORDER } from '../../../src/components/index.js'
import { templateCrdsArgv } from '../../../src/helm/index.js'
import { buildPlan, renderPlanMarkdown, renderPlanText } from '../../../src/plan/plan.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'

const UPSTREAM = path.resolve(process.cwd(), 'test/fixtures/upstream')
const settingsOf = (over: Record<string, string> = {}) =>
  readSettings(reader({ ...VALID_APPLY, ...over }), { GITHUB_RUN_ID: '7' }).settings

function ncpSchemaValidator() {
  const docs = parseAllDocuments(
    readFileSync(path.join(UPSTREAM, 'network-operator-v26.4.1-crd-nicclusterpolicies.yaml'), 'utf8')
  )
  const crd = docs.map(d => d.toJS()).find(d => d?.kind === 'CustomResourceDefinition')
  const schema = crd.spec.versions.find((v: { name: string }) => v.name === 'v1alpha1').schema.openAPIV3Schema
  // The CRD's integer formats, as the API server checks them.
  const formats = {
    int32: { type: 'number' as const, validate: (n: number) => Number.isInteger(n) && Math.abs(n) < 2 ** 31 },
    int64: { type: 'number' as const, validate: (n: number) => Number.isSafeInteger(n) }
  }
  const ajv = new Ajv({ strict: false, allErrors: true, formats })
  return ajv.compile(schema)
}

describe('plan', () => {
  it('shows each node’s hardware with its InfiniBand rate: ND GB300 v6 at 800 Gb/s per GPU', () => {
    const gb300 = buildPlan(
      settingsOf({
        'vm-size': 'Standard_ND128isr_GB300_v6',
        'benchmark-image': 'example.io/perftest-arm64:1.0'
      })
    )
    expect(gb300.cluster.hardware).toBe('4 × B300 GPUs, 4 × 800 Gb/s InfiniBand (ConnectX-8), arm64')
    expect(renderPlanText(gb300)).toContain('Each node: 4 × B300 GPUs, 4 × 800 Gb/s InfiniBand')
    expect(renderPlanMarkdown(gb300)).toContain('4 × 800 Gb/s InfiniBand')
    const h100 = buildPlan(settingsOf({ 'vm-size': 'Standard_ND96isr_H100_v5' }))
    expect(h100.cluster.hardware).toBe('8 × H100 GPUs, 8 × 400 Gb/s InfiniBand (ConnectX-7), amd64')
  })

  it('lists the ten components in order', () => {
    const plan = buildPlan(settingsOf())
    expect(plan.components.map(c => c.name)).toEqual([...COMPONENT_ORDER])
    expect(plan.components).toHaveLength(10)
    expect(plan.components.find(c => c.name === 'cluster')).toMatchObject({
      enabled: false,
      skipReason: expect.stringMatching(/create-cluster/)
    })
    expect(
      buildPlan(settingsOf({ 'create-cluster': 'true', location: 'eastus' })).components.find(
        c => c.name === 'cluster'
      )?.enabled
    ).toBe(true)
  })

  it('renders manifests that validate against the Kubernetes schemas and the NicClusterPolicy CRD', () => {
    const validateNcp = ncpSchemaValidator()
    const models: Record<string, new (o: any) => { validate(): void }> = { DaemonSet, ConfigMap, Namespace }
    const manifests = buildPlan(settingsOf()).components.flatMap(c => c.manifests ?? [])
    expect(manifests.map(m => m.kind).sort()).toEqual([
      'ConfigMap',
      'DaemonSet',
      'DaemonSet',
      'Namespace',
      'Namespace',
      'NicClusterPolicy',
      'NodeFeatureRule'
    ])
    for (const m of manifests) {
      if (m.kind === 'NicClusterPolicy') {
        const ok = validateNcp(m)
        expect(validateNcp.errors ?? []).toEqual([])
        expect(ok).toBe(true)
      } else if (models[m.kind]) {
        expect(() => new models[m.kind](m).validate()).not.toThrow()
      }
    }
  })

  it('the NicClusterPolicy CRD validator does reject a broken policy', () => {
    const validateNcp = ncpSchemaValidator()
    const ncp = buildPlan(settingsOf()).components.find(c => c.name === 'nic-cluster-policy')!
      .manifests![0] as any
    const broken = structuredClone(ncp)
    broken.spec.ofedDriver.forcePrecompiled = 'no'
    expect(validateNcp(broken)).toBe(false)
  })

  it('carries the corrections to the guide', () => {
    const plan = buildPlan(settingsOf())
    const byName = Object.fromEntries(plan.components.map(c => [c.name, c]))
    // Bug 1: gpuProfile.driver None, never the retired tag.
    const put = byName['node-pool'].azure!.find(o => o.method === 'PUT')!
    expect(put.headers).toEqual({ 'If-None-Match': '*' })
    expect((put.body as any).properties.gpuProfile).toEqual({ driver: 'None' })
    expect(JSON.stringify(put.body)).not.toContain('SkipGPUDriverInstall')
    // Bug 2: a NodeFeatureRule for 101c/101e.
    const nfr = byName['node-feature-rule'].manifests![0] as any
    expect(nfr.spec.rules[0].labels).toEqual({ 'feature.node.kubernetes.io/pci-15b3.present': 'true' })
    expect(nfr.spec.rules[0].matchFeatures[0].matchExpressions.device.value).toEqual(['101c', '101e'])
    // Bug 3: readiness on nvidia.com/ofed-driver, never app=mofed-ubuntu22.04-ds.
    expect(JSON.stringify(byName['nic-cluster-policy'].readiness)).toContain('nvidia.com/ofed-driver')
    expect(JSON.stringify(plan.components.map(c => c.readiness))).not.toContain('mofed-ubuntu22.04-ds')
    // Bug 4: useHostMofed false by default, from the input otherwise.
    expect((byName['gpu-operator'].helm!.values as any).driver.rdma).toEqual({
      enabled: true,
      useHostMofed: false
    })
    expect(
      (buildPlan(settingsOf({ 'use-host-mofed': 'true' })).components[9].helm!.values as any).driver.rdma
        .useHostMofed
    ).toBe(true)
    // Device plugin selectors filter the link type; DaemonSets pinned to the managed pools (here the one).
    const cm = byName['rdma-device-plugin'].manifests![0] as any
    expect(JSON.parse(cm.data['config.json']).configList[0].selectors.linkTypes).toEqual(['infiniband'])
    for (const c of ['ib-node-config', 'rdma-device-plugin']) {
      const ds = byName[c].manifests!.find(m => m.kind === 'DaemonSet') as any
      expect(
        ds.spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution
          .nodeSelectorTerms
      ).toEqual([
        {
          matchExpressions: [{ key: 'kubernetes.azure.com/agentpool', operator: 'In', values: ['rdmapool'] }]
        }
      ])
    }
    // Pinned versions everywhere.
    expect(byName['network-operator'].helm!.version).toBe('v26.4.1')
    expect(byName['gpu-operator'].helm!.version).toBe('v26.7.0')
    expect((byName['network-operator'].helm!.values as any).nfd.deployNodeFeatureRules).toBe(false)
    expect(byName['network-operator'].manifests![0].metadata.labels).toEqual({
      'pod-security.kubernetes.io/enforce': 'privileged'
    })
  })

  it('merges values files over the built-in values and a policy file replaces the spec', () => {
    const s = settingsOf()
    s.stack.gpuOperatorValues = { driver: { version: '580.1' }, migManager: { enabled: true } }
    s.stack.nicClusterPolicy = { spec: { ofedDriver: { repository: 'r', image: 'i', version: 'v' } } }
    const plan = buildPlan(s)
    expect((plan.components[9].helm!.values as any).driver).toEqual({
      rdma: { enabled: true, useHostMofed: false },
      version: '580.1'
    })
    expect((plan.components[9].helm!.values as any).migManager.enabled).toBe(true)
    expect((plan.components[6].manifests![0] as any).spec).toEqual({
      ofedDriver: { repository: 'r', image: 'i', version: 'v' }
    })
  })

  it('renders text with helm argv, manifests, readiness, checks and the benchmark plan', () => {
    const text = renderPlanText(buildPlan(settingsOf()))
    expect(text).toContain(
      'helm upgrade --install network-operator nvidia/network-operator --version v26.4.1 --namespace network-operator'
    )
    expect(text).toContain('kind: NicClusterPolicy')
    expect(text).toContain('ready when:')
    expect(text).toContain('Verification checks:')
    expect(text).toMatch(/ib_write_bw client: .*--report_gbits/)
    const md = renderPlanMarkdown(buildPlan(settingsOf()))
    expect(md).toContain('| 7 | `nic-cluster-policy` |')
  })

  it('ib-node-config waits for the OFED driver in an init container (never placed by mofed.wait); the device plugin is placed by it in pipelined rollout', () => {
    const ds = (rollout: string, name: string) =>
      buildPlan(settingsOf({ rollout }))
        .components.find(c => c.name === name)!
        .manifests!.find(m => m.kind === 'DaemonSet') as any
    const MOFED_WAIT = 'network.nvidia.com/operator.mofed.wait'
    for (const rollout of ['pipelined', 'sequential']) {
      const ib = ds(rollout, 'ib-node-config').spec.template.spec
      // Placed on the managed pools by affinity; no selector at all (mofed.wait never places it).
      expect(ib.nodeSelector).toBeUndefined()
      expect(
        ib.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms
      ).toEqual([
        {
          matchExpressions: [{ key: 'kubernetes.azure.com/agentpool', operator: 'In', values: ['rdmapool'] }]
        }
      ])
      expect(ib.initContainers.map((c: any) => c.name)).toEqual(['wait-for-ofed-driver', 'ib-setup'])
      expect(ib.initContainers[0].volumeMounts).toEqual([
        {
          name: 'ofed-driver-state',
          mountPath: '/host/run/mellanox/drivers',
          readOnly: true,
          mountPropagation: 'HostToContainer'
        }
      ])
    }
    expect(ds('pipelined', 'rdma-device-plugin').spec.template.spec.nodeSelector[MOFED_WAIT]).toBe('false')
    expect(
      ds('sequential', 'rdma-device-plugin').spec.template.spec.nodeSelector?.[MOFED_WAIT]
    ).toBeUndefined()
  })

  it('node agents are system-node-critical and tolerate the pool taints; plan shows every toleration', () => {
    const s = settingsOf({ 'node-taints': 'sku=gpu:NoSchedule' })
    const plan = buildPlan(s)
    const byName = Object.fromEntries(plan.components.map(c => [c.name, c]))
    const pool = { key: 'sku', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }
    const gpu = { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }
    for (const name of ['ib-node-config', 'rdma-device-plugin']) {
      const spec = (byName[name].manifests!.find(m => m.kind === 'DaemonSet') as any).spec.template.spec
      expect(spec.priorityClassName).toBe('system-node-critical')
      expect(spec.tolerations).toEqual([gpu, pool])
    }
    const no = byName['network-operator'].helm!.values as any
    expect(no['node-feature-discovery'].worker).toEqual({
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              {
                matchExpressions: [
                  { key: 'kubernetes.azure.com/agentpool', operator: 'In', values: ['rdmapool'] }
                ]
              }
            ]
          }
        }
      },
      tolerations: [gpu, pool]
    })
    expect((byName['gpu-operator'].helm!.values as any).daemonsets.tolerations).toEqual([gpu, pool])
    const ncp = byName['nic-cluster-policy'].manifests![0] as any
    expect(ncp.spec.tolerations).toEqual([pool])
    expect(ncp.spec.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms).toEqual([
      {
        matchExpressions: [
          { key: 'feature.node.kubernetes.io/pci-15b3.present', operator: 'In', values: ['true'] },
          { key: 'kubernetes.azure.com/agentpool', operator: 'In', values: ['rdmapool'] }
        ]
      }
    ])
    const text = renderPlanText(plan)
    expect(text.match(/key: sku/g)?.length).toBeGreaterThanOrEqual(5)
    // Without taints the policy carries no tolerations field (as Azure's own policy).
    expect((buildPlan(settingsOf()).components[6].manifests![0] as any).spec.tolerations).toBeUndefined()
  })

  it('says what a downgrade does, for each component that carries a version, as allow-downgrade sets', () => {
    const refused = buildPlan(settingsOf())
    expect(refused.components.filter(c => c.downgrade).map(c => c.name)).toEqual([
      'network-operator',
      'nic-cluster-policy',
      'gpu-operator'
    ])
    const gpu = (p: typeof refused) => p.components.find(c => c.name === 'gpu-operator')!.downgrade
    expect(gpu(refused)).toBe(
      'a newer chart version than v26.7.0 installed: the run is refused before any write (allow-downgrade: false)'
    )
    expect(refused.components.find(c => c.name === 'nic-cluster-policy')!.downgrade).toContain(
      'a newer NicClusterPolicy spec.ofedDriver.version than doca'
    )
    const allowed = buildPlan(settingsOf({ 'allow-downgrade': 'true' }))
    expect(gpu(allowed)).toBe(
      'a newer chart version than v26.7.0 installed: downgraded to v26.7.0 (allow-downgrade: true); a CRD applied from a newer version of the chart is kept, not replaced'
    )
    expect(renderPlanText(allowed)).toContain(`  downgrade: ${gpu(allowed)}`)
  })

  it('says what an upgrade does: CRDs before each helm upgrade, the drivers rolled, OnDelete pods replaced', () => {
    const plan = buildPlan(settingsOf())
    const byName = Object.fromEntries(plan.components.map(c => [c.name, c]))
    // The CRDs are those `helm template --include-crds` renders for the pinned chart version.
    for (const name of ['network-operator', 'gpu-operator']) {
      const h = byName[name].helm!
      expect(h.crdsFirst).toEqual(['helm', ...templateCrdsArgv(h, `<values-${name}.yaml>`)])
      expect(h.crdsFirst).toEqual(
        expect.arrayContaining(['template', '--include-crds', '--version', h.version])
      )
    }
    // Only the components whose change does more than write say what.
    expect(plan.components.filter(c => c.onChange).map(c => c.name)).toEqual([
      'nic-cluster-policy',
      'ib-node-config',
      'gpu-operator'
    ])
    expect(byName['nic-cluster-policy'].onChange).toBe(
      'the Network Operator replaces the OFED driver node by node (ofedDriver.upgradePolicy: at most 1 node at once, each cordoned and drained first, uncordoned once its new driver is Ready); the next component is written once it is done'
    )
    // The GPU Operator's: the chart's defaults, which the action leaves in place.
    expect(byName['gpu-operator'].onChange).toContain(
      'at most 1 node at once and 25% of the nodes unavailable, each cordoned, its GPU pods deleted first'
    )
    expect(byName['ib-node-config'].onChange).toMatch(/OnDelete .*deletes the pods that ran the earlier one/)

    // In the text: the CRDs line sits between `helm repo add` and `helm upgrade`.
    const lines = renderPlanText(plan).split('\n')
    const gpu = lines.findIndex(l => l.startsWith('10. gpu-operator'))
    const at = (re: RegExp): number => gpu + lines.slice(gpu).findIndex(l => re.test(l))
    expect(at(/^ {2}helm repo add nvidia /)).toBeLessThan(
      at(/^ {2}upgrading from another chart version, first its CRDs/)
    )
    expect(
      at(/^ {4}helm template gpu-operator nvidia\/gpu-operator --version v26\.7\.0 .*--include-crds$/)
    ).toBeLessThan(at(/^ {2}helm upgrade --install gpu-operator /))
    expect(lines[at(/^ {2}changed on a running cluster:/)]).toContain(
      'the GPU Operator replaces the GPU driver node by node'
    )
  })

  it('the rollout text follows the upgrade policies the settings give', () => {
    const s = settingsOf()
    s.stack.gpuOperatorValues = {
      driver: { upgradePolicy: { maxParallelUpgrades: 0, drain: { enable: true } } }
    }
    s.stack.nicClusterPolicy = {
      spec: {
        ofedDriver: {
          repository: 'r',
          image: 'i',
          version: 'v',
          upgradePolicy: { autoUpgrade: true, maxParallelUpgrades: 2, drain: { enable: false } }
        }
      }
    }
    const byName = Object.fromEntries(buildPlan(s).components.map(c => [c.name, c]))
    expect(byName['nic-cluster-policy'].onChange).toContain('at most 2 nodes at once, each cordoned first,')
    expect(byName['gpu-operator'].onChange).toContain(
      'at most every node at once and 25% of the nodes unavailable, each cordoned, its GPU pods deleted and drained first'
    )
    s.stack.gpuOperatorValues = { driver: { upgradePolicy: { autoUpgrade: false } } }
    s.stack.nicClusterPolicy = { spec: { ofedDriver: { repository: 'r', image: 'i', version: 'v' } } }
    const off = Object.fromEntries(buildPlan(s).components.map(c => [c.name, c]))
    expect(off['gpu-operator'].onChange).toMatch(
      /^driver\.upgradePolicy\.autoUpgrade is not true: the GPU Operator does not replace/
    )
    expect(off['nic-cluster-policy'].onChange).toMatch(/^ofedDriver\.upgradePolicy\.autoUpgrade is not true/)
  })
})
