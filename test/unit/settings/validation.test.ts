// Input validation: every rule has a failing case; all problems are reported at once; secrets
// are never echoed.
import { writeFileSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { readSettings } from '../../../src/settings/input-helper.js'
import { hasRdmaMarker, RDMA_VM_SIZES } from '../../../src/settings/vm-sizes.js'
import { vmSizeSpec } from '../../../sim/kube/hardware.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'
import { problemsOf } from '../../support/input-problems.js'

function expectProblem(values: Record<string, string>, input: string, text: RegExp): void {
  const problems = problemsOf(values)
  const hit = problems.find(p => p.startsWith(input))
  expect(hit).toBeDefined()
  expect(hit).toMatch(text)
}

describe('settings from inputs', () => {
  it('builds typed settings with the documented defaults', () => {
    const { settings, warnings } = readSettings(
      reader(VALID_APPLY),
      { GITHUB_RUN_ID: '42', GITHUB_RUN_ATTEMPT: '2', GITHUB_JOB: 'rdma' },
      { nonce: 'abcdef012345' }
    )
    expect(warnings).toEqual([])
    expect(settings.mode).toBe('apply')
    expect(settings.nodePool).toEqual({
      name: 'rdmapool',
      vmSize: 'Standard_ND96isr_H100_v5',
      count: 2,
      osSku: 'Ubuntu',
      labels: {},
      taints: [],
      zones: []
    })
    expect(settings.stack).toMatchObject({
      networkOperatorVersion: 'v26.4.1',
      gpuOperatorVersion: 'v26.7.0',
      docaDriverVersion: 'doca3.4.1-26.04-1.1.0.0-1',
      rdmaResourceName: 'hca_shared_devices_a',
      rdmaHcaMax: 1000,
      useHostMofed: false
    })
    expect(settings.wait).toEqual({
      timeoutMs: 3_600_000,
      stepTimeoutMs: 1_500_000,
      retries: 3,
      rollout: 'pipelined'
    })
    expect(settings.azure.armEndpoint).toBe('https://management.azure.com')
    expect(settings.azure.audience).toBe('api://AzureADTokenExchange')
    expect(settings.runId).toBe('42-2/rdma/abcdef012345')
  })

  it('parses labels, taints, zones and durations', () => {
    const { settings } = readSettings(
      reader({
        ...VALID_APPLY,
        'node-labels': 'a=b, team=ml',
        'node-taints': 'sku=gpu:NoSchedule,x=:NoExecute',
        zones: '1,2',
        timeout: '1h30m',
        'step-timeout': '90s'
      }),
      {}
    )
    expect(settings.nodePool.labels).toEqual({ a: 'b', team: 'ml' })
    expect(settings.nodePool.taints).toEqual([
      { key: 'sku', value: 'gpu', effect: 'NoSchedule' },
      { key: 'x', value: '', effect: 'NoExecute' }
    ])
    expect(settings.nodePool.zones).toEqual(['1', '2'])
    expect(settings.wait.timeoutMs).toBe(5_400_000)
    expect(settings.wait.stepTimeoutMs).toBe(90_000)
  })

  it('reports every problem at once', () => {
    const problems = problemsOf({ 'node-pool': 'GPU_Pool', 'vm-size': 'Standard_D4s_v5', timeout: 'soon' })
    expect(problems.length).toBeGreaterThanOrEqual(5) // + resource-group, cluster-name, subscription-id
    expect(problems).toContain(
      'node-pool "GPU_Pool": must match ^[a-z][a-z0-9]{0,11}$ (1-12 lowercase letters and digits, starting with a letter)'
    )
  })

  const cases: Array<[string, Record<string, string>, string, RegExp]> = [
    ['pool name too long', { 'node-pool': 'abcdefghijklm' }, 'node-pool', /1-12 lowercase/],
    ['pool name starting with a digit', { 'node-pool': '1pool' }, 'node-pool', /starting with a letter/],
    ['node-count not an integer', { 'node-count': 'two' }, 'node-count', /integer from 1 to 1000/],
    ['node-count over 1000', { 'node-count': '1001' }, 'node-count', /integer from 1 to 1000/],
    ['node-count 1 with benchmark', { 'node-count': '1' }, 'node-count', /at least 2 when benchmark/],
    ['vm-size without RDMA', { 'vm-size': 'Standard_D4s_v5' }, 'vm-size', /not an InfiniBand/],
    ['vm-size GPU without RDMA', { 'vm-size': 'Standard_NC24ads_A100_v4' }, 'vm-size', /not an InfiniBand/],
    ['client-id without tenant-id', { 'tenant-id': '' }, 'tenant-id', /required when client-id/],
    ['client-id not a GUID', { 'client-id': 'my-app' }, 'client-id', /GUID/],
    ['missing resource group', { 'resource-group': '' }, 'resource-group', /required/],
    ['bad cluster name', { 'cluster-name': '-bad-' }, 'cluster-name', /must match/],
    [
      'chart version unpinned',
      { 'gpu-operator-version': 'latest' },
      'gpu-operator-version',
      /pinned version/
    ],
    ['doca version malformed', { 'doca-driver-version': 'doca 3' }, 'doca-driver-version', /pinned version/],
    ['helm 2', { 'helm-version': 'v2.17.0' }, 'helm-version', /helm 3/],
    [
      'image without tag',
      { 'rdma-device-plugin-image': 'ghcr.io/mellanox/k8s-rdma-shared-dev-plugin' },
      'rdma-device-plugin-image',
      /pinned by tag/
    ],
    ['image malformed', { 'benchmark-image': 'Not An Image:1' }, 'benchmark-image', /image reference/],
    [
      'resource name invalid',
      { 'rdma-resource-name': 'hca/shared' },
      'rdma-resource-name',
      /extended resource name/
    ],
    ['duration unparseable', { 'step-timeout': '25 minutes' }, 'step-timeout', /duration such as/],
    ['cleanup cluster without create', { cleanup: 'cluster' }, 'cleanup', /only with create-cluster/],
    ['unknown mode', { mode: 'destroy' }, 'mode', /one of apply, verify, drift, plan/],
    ['unknown auth-type', { 'auth-type': 'password' }, 'auth-type', /one of auto, oidc, secret, cli/],
    ['unknown environment', { environment: 'AzureGermanCloud' }, 'environment', /one of AzureCloud/],
    ['unknown os-sku', { 'os-sku': 'AzureLinux' }, 'os-sku', /one of Ubuntu, Ubuntu2204, Ubuntu2404/],
    ['unknown benchmark-scope', { 'benchmark-scope': 'all' }, 'benchmark-scope', /one of pair, fleet/],
    ['unknown rollout', { rollout: 'fast' }, 'rollout', /one of pipelined, sequential/],
    ['boolean not a boolean', { benchmark: 'maybe' }, 'benchmark', /true or false/],
    ['ratio out of range', { 'min-bandwidth-ratio': '1.5' }, 'min-bandwidth-ratio', /at most 1/],
    ['bad label', { 'node-labels': 'noequals' }, 'node-labels', /key=value/],
    ['bad taint effect', { 'node-taints': 'a=b:Sometimes' }, 'node-taints', /Effect one of/],
    ['bad zone', { zones: 'eastus-1' }, 'zones', /1, 2 and 3/],
    ['zone Azure does not have', { zones: '1,4' }, 'zones "4"', /1, 2 and 3/],
    ['timeout without a unit', { timeout: '60' }, 'timeout "60"', /needs a unit.*60s.*10m/],
    ['step-timeout without a unit', { 'step-timeout': '90' }, 'step-timeout "90"', /needs a unit/],
    [
      'create-cluster without location',
      { 'create-cluster': 'true' },
      'location',
      /required with create-cluster/
    ],
    ['http arm endpoint', { 'arm-endpoint': 'http://127.0.0.1:1234' }, 'arm-endpoint', /https URL/],
    [
      'auth-type secret without a secret',
      { 'auth-type': 'secret' },
      'auth-type',
      /needs client-id, tenant-id and client-secret/
    ],
    ['kubernetes-version malformed', { 'kubernetes-version': 'latest' }, 'kubernetes-version', /1\.33/],
    ['retries out of range', { retries: '-1' }, 'retries', /integer from 0 to 20/],
    [
      'override file missing',
      { 'gpu-operator-values': '/nonexistent/values.yaml' },
      'gpu-operator-values',
      /file not found/
    ]
  ]
  it.each(cases)('%s is refused', (_title, over, input, text) => {
    expectProblem({ ...VALID_APPLY, ...over }, input, text)
  })

  it('accepts exactly the sizes with NVIDIA GPUs and ConnectX-6/7 InfiniBand VFs, refusing the others with the reason', () => {
    // Without the benchmark: its default image is amd64 only (see the architecture test below).
    const noBench = { ...VALID_APPLY, benchmark: 'false' }
    const accepted = RDMA_VM_SIZES.filter(v => problemsOf({ ...noBench, 'vm-size': v.name }).length === 0)
    expect(accepted.map(v => v.name)).toEqual([
      'Standard_ND96asr_v4',
      'Standard_ND96amsr_A100_v4',
      'Standard_ND96isr_H100_v5',
      'Standard_ND96isr_H200_v5',
      'Standard_ND96isrf_H200_v5',
      'Standard_ND128isr_NDR_GB200_v6',
      'Standard_ND128isr_GB300_v6'
    ])
    const why: Array<[string, RegExp]> = [
      [
        'Standard_HB120rs_v3',
        /has no GPU: the GPU Operator step would wait for allocatable nvidia\.com\/gpu forever/
      ],
      ['Standard_HX176rs', /has no GPU/],
      ['Standard_HC44rs', /has no GPU/],
      ['Standard_ND96isr_MI300X_v5', /has AMD MI300X GPUs: the NVIDIA GPU Operator cannot drive them/],
      ['Standard_ND96asr_MI200_v4', /has AMD MI200 GPUs/],
      [
        'Standard_ND40rs_v2',
        /carries ConnectX-5 InfiniBand \(VF PCI device 1018\), which the NodeFeatureRule \(101c\/101e[^)]*\) does not match/
      ],
      ['Standard_ND192isr_Z900_v9', /not in the action's table of sizes with NVIDIA GPUs and ConnectX-6\/7/],
      ['Standard_D4s_v5', /not an InfiniBand \(RDMA\) size/]
    ]
    for (const [size, text] of why) {
      const [p] = problemsOf({ ...VALID_APPLY, 'vm-size': size })
      expect(p).toMatch(/^vm-size /)
      expect(p).toMatch(text)
      expect(p).toContain(
        'Supported: Standard_ND96asr_v4, Standard_ND96amsr_A100_v4, Standard_ND96isr_H100_v5'
      )
    }
    // Case-insensitive names are normalised to the table's spelling.
    expect(
      readSettings(reader({ ...VALID_APPLY, 'vm-size': 'standard_nd96isr_h100_v5' }), {}).settings.nodePool
        .vmSize
    ).toBe('Standard_ND96isr_H100_v5')
  })

  it('refuses an arm64 size whose default benchmark image is amd64 only, before any network call (unless an image is given)', () => {
    for (const size of ['Standard_ND128isr_NDR_GB200_v6', 'Standard_ND128isr_GB300_v6']) {
      expectProblem(
        { ...VALID_APPLY, 'vm-size': size },
        'benchmark-image',
        new RegExp(
          `^benchmark-image "docker\\.io/mellanox/cuda-perftest:latest": the default image is not published for arm64, the CPU architecture of ${size} \\(its containers would fail with "exec format error"\\); set benchmark-image to an image built for arm64, or benchmark: false$`
        )
      )
      expect(problemsOf({ ...VALID_APPLY, 'vm-size': size, benchmark: 'false' })).toEqual([])
      expect(
        problemsOf({ ...VALID_APPLY, 'vm-size': size, 'benchmark-image': 'example.io/perftest-arm64:1.0' })
      ).toEqual([])
    }
    // amd64 sizes keep the default.
    expect(problemsOf({ ...VALID_APPLY, 'vm-size': 'Standard_ND96isr_H100_v5' })).toEqual([])
  })

  it('refuses Ubuntu 22.04 on the arm64 (Grace) sizes before any network call; warns on Ubuntu, which follows the cluster', () => {
    const arm = { ...VALID_APPLY, benchmark: 'false' }
    for (const size of ['Standard_ND128isr_NDR_GB200_v6', 'Standard_ND128isr_GB300_v6']) {
      expectProblem(
        { ...arm, 'vm-size': size, 'os-sku': 'Ubuntu2204' },
        'os-sku',
        new RegExp(
          `^os-sku "Ubuntu2204": ${size} \\(arm64, Grace\\) is offered with Ubuntu 24\\.04 only; set os-sku to Ubuntu2404$`
        )
      )
      expect(problemsOf({ ...arm, 'vm-size': size, 'os-sku': 'Ubuntu2404' })).toEqual([])
      const { warnings } = readSettings(reader({ ...arm, 'vm-size': size }), {})
      expect(warnings.some(w => w.startsWith(`os-sku "Ubuntu" on ${size}`))).toBe(true)
    }
    // amd64 sizes take every os-sku.
    expect(problemsOf({ ...VALID_APPLY, 'os-sku': 'Ubuntu2204' })).toEqual([])
  })

  it("the simulator's hardware table agrees with the action's (GPUs, their vendor, the IB VF device, rate)", () => {
    for (const v of RDMA_VM_SIZES) {
      const hw = vmSizeSpec(v.name)
      expect({
        size: v.name,
        gpus: hw.gpus,
        vendor: hw.gpus ? (hw.gpuVendor ?? '10de') : undefined,
        vf: hw.ibDeviceId,
        gbps: hw.ibGbps,
        nics: hw.ibNics,
        arch: hw.arch
      }).toEqual({
        size: v.name,
        gpus: v.gpus,
        vendor: v.gpuVendor === 'AMD' ? '1002' : v.gpuVendor === 'NVIDIA' ? '10de' : undefined,
        vf: v.vfDevice,
        gbps: v.linkGbps,
        nics: v.ibNics,
        arch: v.arch
      })
    }
  })

  it('knows the RDMA marker', () => {
    expect(hasRdmaMarker('Standard_ND96isr_H100_v5')).toBe(true)
    expect(hasRdmaMarker('Standard_HB120rs_v3')).toBe(true)
    expect(hasRdmaMarker('Standard_ND96is_H100_v5')).toBe(false)
    expect(hasRdmaMarker('Standard_NC24ads_A100_v4')).toBe(false)
  })

  it('unpacks creds JSON, with inputs winning, and never echoes it', () => {
    const creds = JSON.stringify({
      clientId: '33333333-3333-3333-3333-333333333333',
      clientSecret: 's3cr3t-value',
      tenantId: '11111111-1111-1111-1111-111111111111',
      subscriptionId: '44444444-4444-4444-4444-444444444444'
    })
    const { settings, secrets, warnings } = readSettings(
      reader({ 'resource-group': 'rg', 'cluster-name': 'c', creds }),
      {}
    )
    expect(settings.azure).toMatchObject({
      clientId: '33333333-3333-3333-3333-333333333333',
      clientSecret: 's3cr3t-value',
      subscriptionId: '44444444-4444-4444-4444-444444444444'
    })
    expect(secrets).toEqual(expect.arrayContaining(['s3cr3t-value', creds]))
    expect(warnings).toEqual([])
    const bad = '{"clientId": "x", "clientSecret": "leaky-secret"'
    const problems = problemsOf({ 'resource-group': 'rg', 'cluster-name': 'c', creds: bad })
    expect(problems.join('\n')).toMatch(/creds \(hidden\): not a JSON object/)
    expect(problems.join('\n')).not.toContain('leaky-secret')
  })

  it('never echoes a client secret in a problem', () => {
    const problems = problemsOf({
      'resource-group': 'rg',
      'cluster-name': 'c',
      'subscription-id': '00000000-0000-0000-0000-000000000000',
      'client-secret': 'super-secret-1'
    })
    expect(problems.join('\n')).toMatch(/client-secret \(hidden\): given without client-id/)
    expect(problems.join('\n')).not.toContain('super-secret-1')
  })

  it('plan mode needs no credentials or cluster names', () => {
    const { settings } = readSettings(reader({ mode: 'plan' }), {})
    expect(settings.cluster.resourceGroup).toBe('<resource-group>')
  })

  it('reads override files as YAML mappings', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'inputs-'))
    const good = path.join(dir, 'values.yaml')
    writeFileSync(good, 'driver:\n  version: 580.1\n')
    const bad = path.join(dir, 'bad.yaml')
    writeFileSync(bad, '- a\n- b\n')
    const { settings } = readSettings(reader({ ...VALID_APPLY, 'gpu-operator-values': good }), {})
    expect(settings.stack.gpuOperatorValues).toEqual({ driver: { version: 580.1 } })
    expectProblem(
      { ...VALID_APPLY, 'network-operator-values': bad },
      'network-operator-values',
      /must be a YAML mapping/
    )
  })
})
