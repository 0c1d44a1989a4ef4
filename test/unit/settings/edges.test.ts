// Input validation at its edges, word for word: each checked input with a value just inside and
// just outside what it accepts (a prefix or suffix the pattern must refuse, a length at the limit),
// the identity rules (creds JSON, which auth type needs what, the inputs winning over creds), the
// endpoints and the audience per cloud, the placeholders plan mode uses, warnings, the run id, and
// the InputError text itself.
import { describe, expect, it } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { InputError, readSettings, type SettingsResult } from '../../../src/settings/input-helper.js'
import { INPUTS, parseLabel, parseTaint } from '../../../src/settings/input-definitions.js'
import { echoValue } from '../../../src/util/echo.js'
import { AZURE_IDS, reader, VALID_APPLY } from '../../support/inputs.js'

const GUID = '01234567-89ab-cdef-0123-456789ABCDEF'
/** An input's default (the versions it pins move with the releases). */
const byDefault = (name: string) => INPUTS.find(i => i.name === name)!.default!

function read(
  over: Record<string, string>,
  env: NodeJS.ProcessEnv = {},
  base: Record<string, string> = VALID_APPLY
): SettingsResult {
  return readSettings(reader({ ...base, ...over }), env)
}

/** The problems the inputs have (none: []). */
function problems(over: Record<string, string>, base: Record<string, string> = VALID_APPLY): string[] {
  try {
    read(over, {}, base)
    return []
  } catch (e) {
    if (e instanceof InputError) return e.problems
    throw e
  }
}

describe('each checked input, just inside and just outside', () => {
  const POOL = 'must match ^[a-z][a-z0-9]{0,11}$ (1-12 lowercase letters and digits, starting with a letter)'
  const CLUSTER =
    'must match ^[a-zA-Z0-9]$|^[a-zA-Z0-9][-_a-zA-Z0-9]{0,61}[a-zA-Z0-9]$ (1-63 letters, digits, - and _, starting and ending with a letter or digit)'
  const RG = '1-90 letters, digits, underscores, hyphens, periods and parentheses'
  const RESOURCE =
    'must be a valid extended resource name part (letters, digits, -, _ and ., up to 63, e.g. hca_shared_devices_a); nodes advertise rdma/<name>'
  const IMAGE =
    'must be an image reference pinned by tag or digest, e.g. ghcr.io/mellanox/k8s-rdma-shared-dev-plugin:v1.5.3'
  const PINNED = (input: string) => `must be a pinned version such as ${byDefault(input)}`
  const NO_CREDENTIALS = 'must not carry credentials (user:password@): the action sends its own tokens'
  const NO_CONTROL = 'must not contain spaces or control characters (raw or %-encoded)'
  const ORIGIN = 'must be an origin only, such as https://management.azure.com (no path, query or fragment)'
  const HTTPS = 'must be an https URL (Azure SDKs refuse bearer tokens over http)'
  /** Per input: values it accepts, then each problem with the values that have it. */
  const RULES: Array<[string, string[], Array<[string, string[]]>]> = [
    [
      'client-id',
      [GUID],
      [
        [
          'must be a GUID (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)',
          [`x${GUID}`, `${GUID}0`, GUID.replace('-', '')]
        ]
      ]
    ],
    ['resource-group', ['rg.prod_(1)-a', 'a'.repeat(90)], [[RG, ['a'.repeat(91), 'rg prod', ' rg/x']]]],
    ['cluster-name', ['a', 'a-_9', 'a'.repeat(63)], [[CLUSTER, ['a'.repeat(64), 'a-', '-a', 'a.b']]]],
    [
      'location',
      ['westeurope2'],
      [['a region name such as eastus or westeurope', ['west europe', '-eastus', 'eastus-']]]
    ],
    [
      'kubernetes-version',
      ['1.33', '10.330.12'],
      [['must look like 1.33 or 1.33.2', ['v1.33', '1.33.2.1', '1', '1.33.', '1.x']]]
    ],
    ['node-pool', ['a', 'a23456789012'], [[POOL, ['a234567890123', '1pool', 'Pool', 'pool-']]]],
    [
      'network-operator-version',
      ['v26.1.0', '26.1.0', 'v26.1.0-rc.1', 'v26.10.12', 'v26.1.0 '],
      [[PINNED('network-operator-version'), ['v26.1', 'xv26.1.0', 'v26.1.0-', 'v26.1.0-rc_1']]]
    ],
    ['gpu-operator-version', [], [[PINNED('gpu-operator-version'), ['latest']]]],
    [
      'doca-driver-version',
      ['doca3.2.0-25.10-1.2.8.0-2', 'a'.repeat(128)],
      [[PINNED('doca-driver-version'), ['a'.repeat(129), '-doca', 'doca 3']]]
    ],
    [
      'helm-version',
      ['v3.19.0'],
      [['must be a pinned version such as v3.19.0 (helm 3)', ['v4.0.0', 'v3.19']]]
    ],
    [
      'rdma-resource-name',
      ['shared_ib', 'a', 'a'.repeat(63)],
      [[RESOURCE, ['a'.repeat(64), '_a', 'a_', 'rdma/a']]]
    ],
    [
      'rdma-device-plugin-image',
      [
        'ghcr.io/mellanox/k8s-rdma-shared-dev-plugin:v1.5.3',
        'registry:5000/a/b:1',
        'a.b.c/x_y.z-w/plugin:v1',
        `ghcr.io/x/y@sha256:${'a'.repeat(64)}`,
        'ghcr.io/x/y:v1 '
      ],
      [
        [
          IMAGE,
          [
            'ghcr.io/mellanox/k8s-rdma-shared-dev-plugin',
            'ghcr.io/Mellanox/plugin:v1',
            'ghcr.io/x/y::v1',
            'ghcr.io/x/y:-v1',
            `ghcr.io/x/y@sha256:${'a'.repeat(63)}`,
            'host:port/x:v1',
            '/x:v1'
          ]
        ]
      ]
    ],
    [
      'arm-endpoint',
      ['https://management.usgovcloudapi.net', 'https://management.azure.com/'],
      [
        [NO_CREDENTIALS, ['https://user:pass@management.azure.com']],
        [NO_CONTROL, ['https://management.azure.com/%0A', 'https://management.azure.com/\u0007']],
        [HTTPS, ['http://management.example.com']],
        ['not a URL (e.g. https://management.azure.com)', ['management.example.com']]
      ]
    ],
    [
      'authority-host',
      ['https://login.chinacloudapi.cn'],
      [
        [ORIGIN, ['https://login.microsoftonline.com/x', 'https://login.microsoftonline.com?x=1']],
        [HTTPS, ['ftp://login.example.com']]
      ]
    ],
    ['zones', ['1,2,3'], [['Azure availability zones are 1, 2 and 3', ['0', '4', '12']]]],
    [
      'min-bandwidth-ratio',
      ['1', '.5'],
      [['must be a number greater than 0 and at most 1 (e.g. 0.9)', ['0', '1.01', '0.9x', '-0.5']]]
    ]
  ]
  const cases = RULES.flatMap(([input, accepted, refused]) => [
    ...accepted.map(value => [input, value, undefined] as const),
    ...refused.flatMap(([problem, values]) => values.map(value => [input, value, problem] as const))
  ])
  it.each(cases)('%s %j', (input, value, problem) => {
    const got = problems({ [input]: value, ...(input === 'location' ? { 'create-cluster': 'false' } : {}) })
    const shown = echoValue(value.trim().replace(/\/\/[^/]*@/, '//***@'))
    expect(got).toEqual(problem === undefined ? [] : [`${input} ${shown}: ${problem}`])
  })
})

describe('lists: node labels and taints', () => {
  it('a label is key=value with a valid key (prefix allowed) and value, nothing more', () => {
    expect(parseLabel('team=gpu')).toEqual(['team', 'gpu'])
    expect(parseLabel('example.com/team=')).toEqual(['example.com/team', ''])
    expect(parseLabel('a.b-c.d/x_y.z=v-1.2_3')).toEqual(['a.b-c.d/x_y.z', 'v-1.2_3'])
    for (const bad of [
      'team',
      'team=a=b',
      '=x',
      'Example.com/team=x',
      '-team=x',
      'team-=x',
      'team=-x',
      'team=x-',
      `${'a'.repeat(64)}=x`,
      `k=${'a'.repeat(64)}`,
      'a_b.example.com/x=y',
      'ex..com/x=y'
    ])
      expect({ bad, parsed: parseLabel(bad) }).toEqual({ bad, parsed: undefined })
    expect(parseLabel(`${'a'.repeat(63)}=${'b'.repeat(63)}`)).toEqual(['a'.repeat(63), 'b'.repeat(63)])
  })

  it('a taint is key[=value]:Effect with one of the three effects', () => {
    expect(parseTaint('sku=gpu:NoSchedule')).toEqual({ key: 'sku', value: 'gpu', effect: 'NoSchedule' })
    expect(parseTaint('dedicated:NoExecute')).toEqual({ key: 'dedicated', value: '', effect: 'NoExecute' })
    expect(parseTaint('a/b=:PreferNoSchedule')).toEqual({ key: 'a/b', value: '', effect: 'PreferNoSchedule' })
    for (const bad of [
      'sku=gpu',
      'sku=gpu:Sometimes',
      'sku=gpu:NoSchedule:x',
      'x sku=gpu:NoSchedule',
      'sku=gpu:NoSchedule ',
      '-sku=gpu:NoSchedule',
      'sku=-gpu:NoSchedule',
      ':NoSchedule'
    ])
      expect({ bad, parsed: parseTaint(bad) }).toEqual({ bad, parsed: undefined })
  })

  it('bad entries are named with the rule; good ones kept', () => {
    expect(problems({ 'node-labels': 'a=b, bad, c=d' })).toEqual([
      'node-labels "bad": each entry must be key=value with a valid Kubernetes label key and value'
    ])
    expect(problems({ 'node-taints': 'x=y:Maybe' })).toEqual([
      'node-taints "x=y:Maybe": each entry must be key=value:Effect with Effect one of NoSchedule, PreferNoSchedule, NoExecute'
    ])
    const s = read({ 'node-labels': 'a=b,c=d', 'node-taints': 'sku=gpu:NoSchedule', zones: '1, 2' }).settings
    expect(s.nodePool).toMatchObject({
      labels: { a: 'b', c: 'd' },
      taints: [{ key: 'sku', value: 'gpu', effect: 'NoSchedule' }],
      zones: ['1', '2']
    })
    expect(problems({ zones: '1,1' })).toEqual(['zones: each zone at most once'])
  })
})

describe('identity', () => {
  const creds = (o: Record<string, unknown>) => JSON.stringify(o)
  const noIds = { 'resource-group': 'rg', 'cluster-name': 'aks1' }

  it('creds fill in what the inputs leave out; the inputs win, with a warning each', () => {
    const r = read(
      {
        creds: creds({
          clientId: AZURE_IDS['client-id'],
          tenantId: AZURE_IDS['tenant-id'],
          subscriptionId: AZURE_IDS['subscription-id'],
          clientSecret: 'from-creds'
        })
      },
      {},
      noIds
    )
    expect(r.settings.azure).toMatchObject({
      clientId: AZURE_IDS['client-id'],
      tenantId: AZURE_IDS['tenant-id'],
      subscriptionId: AZURE_IDS['subscription-id'],
      clientSecret: 'from-creds'
    })
    expect(r.warnings).toEqual([])
    expect(r.secrets).toContain('from-creds')
    const both = read(
      {
        'client-secret': 'from-input',
        creds: creds({ clientId: GUID, tenantId: GUID, subscriptionId: GUID, clientSecret: 'from-creds' })
      },
      {},
      VALID_APPLY
    )
    expect(both.settings.azure).toMatchObject({
      clientId: AZURE_IDS['client-id'],
      clientSecret: 'from-input'
    })
    expect(both.warnings).toEqual([
      'creds: client-id is also given as an input; the input wins (as azure/login does)',
      'creds: tenant-id is also given as an input; the input wins (as azure/login does)',
      'creds: subscription-id is also given as an input; the input wins (as azure/login does)',
      'creds: client-secret is also given as an input; the input wins'
    ])
    expect(both.secrets).toEqual(expect.arrayContaining(['from-input', 'from-creds']))
  })

  it('creds that are not a JSON object, or miss the client or tenant, are refused without echoing them', () => {
    const notObject =
      'creds (hidden): not a JSON object; expected {"clientId", "clientSecret", "tenantId", "subscriptionId"} as azure/login takes it'
    for (const text of ['not json', '[1,2]', 'null', '"a string"', '42'])
      expect(problems({ creds: text, 'subscription-id': AZURE_IDS['subscription-id'] }, noIds)).toEqual([
        notObject
      ])
    expect(problems({ creds: creds({ subscriptionId: GUID, clientId: '' }) }, noIds)).toEqual([
      'creds (hidden): missing clientId, tenantId'
    ])
    expect(problems({ creds: creds({ subscriptionId: GUID, clientId: GUID, tenantId: 7 }) }, noIds)).toEqual([
      'creds (hidden): missing tenantId',
      'tenant-id: required when client-id is given (OIDC and client secret need both)'
    ])
    expect(
      problems({ 'tenant-id': GUID, creds: creds({ subscriptionId: GUID, clientId: GUID }) }, noIds)
    ).toEqual([])
    expect(
      problems({ 'client-id': GUID, creds: creds({ subscriptionId: GUID, tenantId: GUID }) }, noIds)
    ).toEqual([])
  })

  it('which identity inputs each auth type needs (outside plan mode)', () => {
    const sub = { 'subscription-id': GUID }
    expect(problems({ ...sub, 'client-id': GUID }, noIds)).toEqual([
      'tenant-id: required when client-id is given (OIDC and client secret need both)'
    ])
    expect(problems({ ...sub, 'tenant-id': GUID }, noIds)).toEqual([
      'client-id: required when tenant-id is given'
    ])
    expect(problems({ ...sub, 'tenant-id': GUID, 'auth-type': 'cli' }, noIds)).toEqual([])
    expect(problems({ ...sub, 'client-secret': 's' }, noIds)).toEqual([
      'client-secret (hidden): given without client-id'
    ])
    expect(problems({ ...sub, 'auth-type': 'oidc', 'tenant-id': GUID }, noIds)).toEqual([
      'client-id: required when tenant-id is given',
      'auth-type "oidc": needs client-id and tenant-id'
    ])
    expect(problems({ ...sub, 'auth-type': 'oidc' }, noIds)).toEqual([
      'auth-type "oidc": needs client-id and tenant-id'
    ])
    expect(problems({ ...sub, 'auth-type': 'secret', 'client-id': GUID, 'tenant-id': GUID }, noIds)).toEqual([
      'auth-type "secret": needs client-id, tenant-id and client-secret (or creds)'
    ])
    expect(
      problems(
        { ...sub, 'auth-type': 'secret', 'client-id': GUID, 'tenant-id': GUID, 'client-secret': 's' },
        noIds
      )
    ).toEqual([])
    expect(problems({ ...sub, 'auth-type': 'secret' }, noIds)).toHaveLength(1)
    expect(problems({}, noIds)).toEqual(['subscription-id: required (or in creds) outside plan mode'])
    expect(problems({ mode: 'plan', 'client-id': GUID }, {})).toEqual([])
  })

  it('endpoints lose trailing slashes; the audience follows the cloud unless really given', () => {
    const az = (o: Record<string, string>) => read(o).settings.azure
    expect(
      az({
        'arm-endpoint': 'https://arm.example.com///',
        'authority-host': 'https://login.example.com/',
        'allow-custom-endpoints': 'true'
      })
    ).toMatchObject({
      armEndpoint: 'https://arm.example.com',
      authorityHost: 'https://login.example.com'
    })
    expect(az({})).toMatchObject({
      armEndpoint: 'https://management.azure.com',
      authorityHost: 'https://login.microsoftonline.com',
      audience: 'api://AzureADTokenExchange'
    })
    // The runner passes action.yml's default audience for every cloud: the cloud's own is used.
    expect(az({ environment: 'AzureUSGovernment', audience: 'api://AzureADTokenExchange' }).audience).toBe(
      'api://AzureADTokenExchangeUSGov'
    )
    expect(az({ environment: 'AzureChinaCloud' }).audience).toBe('api://AzureADTokenExchangeChina')
    expect(az({ environment: 'AzureChinaCloud', audience: 'api://custom' }).audience).toBe('api://custom')
    expect(az({ audience: 'api://custom' }).audience).toBe('api://custom')
  })
})

describe('the rest of the settings', () => {
  it('plan mode uses placeholders for what it does not need; other modes require it', () => {
    const plan = readSettings(reader({ mode: 'plan' }), {}).settings
    expect(plan.cluster).toMatchObject({ resourceGroup: '<resource-group>', name: '<cluster-name>' })
    expect(problems({ 'resource-group': '', 'cluster-name': '' }, AZURE_IDS)).toEqual([
      'resource-group: required',
      'cluster-name: required'
    ])
    expect(problems({ 'create-cluster': 'true' })).toEqual([
      'location: required with create-cluster: true (the region of the new cluster, e.g. eastus)'
    ])
    expect(problems({ cleanup: 'cluster' })).toEqual([
      'cleanup "cluster": only with create-cluster: true (the action deletes only a cluster it created)'
    ])
    // Uninstall, and the plan of one, delete only a cluster whose created-by tag names the action.
    expect(problems({ cleanup: 'cluster', mode: 'uninstall' })).toEqual([])
    expect(problems({ cleanup: 'cluster', mode: 'plan', 'plan-mode': 'uninstall' })).toEqual([])
    expect(problems({ cleanup: 'cluster', mode: 'plan' })).toHaveLength(1)
  })

  it('booleans, enums, integers, durations: accepted spellings, and the exact refusal', () => {
    expect(read({ 'create-cluster': 'YES', location: 'eastus' }).settings.cluster.create).toBe(true)
    expect(read({ 'force-conflicts': 'on' }).settings.stack.forceConflicts).toBe(true)
    expect(read({ 'fail-on-drift': 'Off' }).settings.failOnDrift).toBe(false)
    expect(read({ 'register-feature': '0' }).settings.registerFeature).toBe(false)
    expect(read({}).settings.registerFeature).toBe(true)
    expect(problems({ 'force-conflicts': 'maybe' })).toEqual([
      'force-conflicts "maybe": must be true or false'
    ])
    expect(problems({ 'client-secret': 'not-shown', 'auth-type': 'sometimes' })).toEqual([
      'auth-type "sometimes": must be one of auto, oidc, secret, cli'
    ])
    expect(read({ mode: 'VERIFY' }).settings.mode).toBe('verify')
    expect(problems({ 'node-count': '0' })).toEqual(['node-count "0": must be an integer from 1 to 1000'])
    expect(problems({ 'node-count': '1001' })).toEqual([
      'node-count "1001": must be an integer from 1 to 1000'
    ])
    expect(problems({ 'node-count': '2.5' })).toEqual(['node-count "2.5": must be an integer from 1 to 1000'])
    expect(read({ 'node-count': '1000' }).settings.nodePool.count).toBe(1000)
    expect(problems({ timeout: '0s' })).toEqual([
      'timeout "0s": must be a duration such as 90s, 25m, 1h or 1h30m, from 1s to 120h'
    ])
    expect(problems({ 'step-timeout': 'soon' })).toEqual([
      'step-timeout "soon": must be a duration such as 90s, 25m, 1h or 1h30m, from 1s to 120h'
    ])
    expect(read({ timeout: '1h30m', 'step-timeout': '90s' }).settings.wait).toMatchObject({
      timeoutMs: 5_400_000,
      stepTimeoutMs: 90_000
    })
  })

  it('warnings: step-timeout over timeout, latest images, use-host-mofed; the VM sizes the stack finishes on', () => {
    expect(read({ timeout: '10m', 'step-timeout': '20m' }).warnings).toEqual([
      'step-timeout is longer than timeout; the whole-run timeout applies first'
    ])
    expect(read({ 'rdma-device-plugin-image': 'ghcr.io/x/y:latest' }).warnings).toEqual([
      'rdma-device-plugin-image "ghcr.io/x/y:latest": "latest" is not a pinned version; runs may differ over time'
    ])
    expect(read({ 'benchmark-image': 'ghcr.io/azure/aks-rdma-infiniband/ibtools:latest' }).warnings).toEqual([
      'benchmark-image "ghcr.io/azure/aks-rdma-infiniband/ibtools:latest": "latest" is not a pinned version; runs may differ over time'
    ])
    expect(read({ 'use-host-mofed': 'Yes' }).warnings).toEqual([
      'use-host-mofed: true tells the GPU Operator the OFED driver is installed on the host; here the Network Operator installs it, so nvidia-peermem will not wait for it (NVIDIA advises false)'
    ])
    expect(read({ 'use-host-mofed': 'false' }).warnings).toEqual([])
    expect(read({ 'vm-size': 'standard_nd96asr_v4' }).settings.nodePool.vmSize).toBe('Standard_ND96asr_v4')
    const supported =
      'Supported: Standard_ND96asr_v4, Standard_ND96amsr_A100_v4, Standard_ND96isr_H100_v5, Standard_ND96isr_H200_v5, Standard_ND96isrf_H200_v5, Standard_ND128isr_NDR_GB200_v6, Standard_ND128isr_GB300_v6'
    expect(problems({ 'vm-size': 'Standard_ND96isr_B300_v7' })).toEqual([
      `vm-size "Standard_ND96isr_B300_v7": not in the action's table of sizes with NVIDIA GPUs and ConnectX-6/7 InfiniBand VFs (the only ones the stack is known to finish on). ${supported}`
    ])
    expect(problems({ 'vm-size': 'Standard_ND96is_H100_v5' })).toEqual([
      `vm-size "Standard_ND96is_H100_v5": not an InfiniBand (RDMA) size: Azure marks them with an "r" among the feature letters (e.g. Standard_ND96isr_H100_v5). ${supported}`
    ])
    expect(problems({ 'vm-size': 'Standard_HB120rs_v3' })).toEqual([
      `vm-size "Standard_HB120rs_v3": not supported: Standard_HB120rs_v3 has no GPU: the GPU Operator step would wait for allocatable nvidia.com/gpu forever (this action sets up RDMA GPU nodes). ${supported}`
    ])
  })

  it('YAML file inputs: a mapping is read; anything else is named with what the file must hold', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'settings-yaml-'))
    const file = (name: string, text: string) => {
      const p = path.join(dir, name)
      writeFileSync(p, text)
      return p
    }
    expect(
      read({ 'gpu-operator-values': file('ok.yaml', 'driver:\n  version: 1\n') }).settings.stack
        .gpuOperatorValues
    ).toEqual({
      driver: { version: 1 }
    })
    const list = file('list.yaml', '- a\n- b\n')
    expect(problems({ 'gpu-operator-values': list })).toEqual([
      `gpu-operator-values "${list}": must be a YAML mapping (helm values)`
    ])
    const scalar = file('scalar.yaml', 'just text\n')
    expect(problems({ 'nic-cluster-policy': scalar })).toEqual([
      `nic-cluster-policy "${scalar}": must be a YAML mapping (a NicClusterPolicy or its spec)`
    ])
    const broken = file('broken.yaml', 'a: [1, 2\n')
    expect(problems({ 'network-operator-values': broken })[0]).toMatch(
      new RegExp(
        `^network-operator-values "${broken.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}": not valid YAML at line 2, column 1 \\([A-Z_]+\\)$`
      )
    )
    const missing = path.join(dir, 'nope.yaml')
    expect(problems({ 'network-operator-values': missing })).toEqual([
      `network-operator-values "${missing}": file not found (give a path relative to the workspace)`
    ])
  })

  it('the run id: the runner’s run, attempt and job, the job-key, and a nonce of the run’s own', () => {
    const runner = { GITHUB_RUN_ID: '42', GITHUB_RUN_ATTEMPT: '3', GITHUB_JOB: 'rdma' }
    const id = (o: Record<string, string>, env: NodeJS.ProcessEnv) => read(o, env).settings.runId
    expect(id({}, runner)).toMatch(/^42-3\/rdma\/[0-9a-f]{12}$/)
    // Two jobs of one workflow run (matrix legs: same run, attempt and job) never share it.
    expect(id({}, runner)).not.toBe(id({}, runner))
    expect(id({}, { GITHUB_RUN_ID: '42' })).toMatch(/^42-1\/job\/[0-9a-f]{12}$/)
    expect(id({ 'job-key': 'h100' }, runner)).toMatch(/^42-3\/rdma\/h100\/[0-9a-f]{12}$/)
    expect(id({ 'job-key': '{\n  "gpu": "h100",\n  "zone": 1\n}' }, runner)).toMatch(
      /^42-3\/rdma\/gpu:h100,zone:1\/[0-9a-f]{12}$/
    )
    expect(id({ 'job-key': 'x'.repeat(300) }, runner)).toMatch(/^42-3\/rdma\/key-[0-9a-f]{12}\/[0-9a-f]{12}$/)
    expect(id({}, {})).toMatch(/^local\/[0-9a-f]{12}$/)
    // The post step recomputes it from the nonce in the main step's saved id.
    const main = id({ 'job-key': 'h100' }, runner)
    const nonce = main.slice(-12)
    expect(
      readSettings(reader({ ...VALID_APPLY, 'job-key': 'h100' }), runner, { nonce }).settings.runId
    ).toBe(main)
    expect(
      readSettings(reader({ ...VALID_APPLY }), { ...runner, GITHUB_JOB: 'other' }, { nonce }).settings.runId
    ).not.toBe(main)
  })

  it('InputError says how many problems, one per line', () => {
    expect(new InputError(['a']).message).toBe('1 input problem:\n  - a')
    expect(new InputError(['a', 'b']).message).toBe('2 input problems:\n  - a\n  - b')
    expect(new InputError([]).name).toBe('InputError')
  })
})
