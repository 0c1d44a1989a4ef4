// The plan's text (the log, `node dist/cli.js plan`) and its job-summary Markdown, line by line, from
// a small hand-built plan document: every part a component can carry (an Azure operation with
// headers and body, manifests with and without a namespace, a helm release, readiness conditions,
// the guide departure, what a change does), a skipped component, the verification checks, and the
// benchmark and transport parts both on and off.
import { buildPlan, renderPlanMarkdown, renderPlanText, type PlanDocument } from '../../../src/plan/plan.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'
import { textLines } from '../../support/text-lines.js'

function planDocument(): PlanDocument {
  return {
    mode: 'plan',
    cluster: {
      resourceGroup: 'rg',
      name: 'aks',
      nodePool: 'rdma',
      vmSize: 'Standard_ND96asr_v4',
      nodeCount: 2,
      hardware: null
    },
    pools: { before: 'the recorded pools', after: 'the recorded pools, and rdma' },
    rollout: 'pipelined',
    components: [
      {
        name: 'feature',
        kind: 'azure',
        title: 'Register the feature',
        enabled: true,
        azure: [
          {
            method: 'POST',
            path: '/subscriptions/s/providers/X/register',
            apiVersion: '2021-07-01',
            headers: { 'If-Match': '*' },
            body: { a: 1 },
            when: 'always'
          },
          { method: 'GET', path: '/x', apiVersion: 'v', when: 'until Registered' }
        ],
        readiness: { summary: 'Registered', conditions: ['state is Registered', 'provider re-registered'] },
        departsFromGuide: 'waits for the state'
      },
      {
        name: 'cluster',
        kind: 'azure',
        title: 'Create the cluster',
        enabled: false,
        skipReason: 'create-cluster is false',
        readiness: { summary: 'Succeeded', conditions: [] }
      },
      {
        name: 'config',
        kind: 'manifest',
        title: 'Apply manifests',
        enabled: true,
        manifests: [
          { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns' } },
          { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'ns' }, data: { k: 'v' } }
        ],
        readiness: { summary: 'a | b', conditions: ['present'] },
        onChange: 'pods are replaced'
      },
      {
        name: 'operator',
        kind: 'helm',
        title: 'Install the operator',
        enabled: true,
        helm: {
          release: 'op',
          chart: 'repo/op',
          version: '1.0',
          namespace: 'ops',
          commands: [
            ['helm', 'repo', 'add', 'repo', 'https://example.test'],
            ['helm', 'upgrade', '--install', 'op', 'repo/op']
          ],
          crdsFirst: ['helm', 'template', 'repo/op', '--include-crds'],
          values: { a: { b: true } }
        },
        readiness: { summary: 'rolled out', conditions: [] }
      }
    ],
    verification: [
      { name: 'nodes', description: 'the nodes are Ready', readOnly: true },
      { name: 'probe', description: 'the devices open', readOnly: false }
    ],
    benchmark: {
      enabled: true,
      scope: 'pair',
      image: 'perftest:1',
      gpudirect: true,
      tests: [
        {
          tool: 'ib_write_bw',
          gpuMemory: true,
          serverArgs: ['-d', 'mlx5_0'],
          clientArgs: ['-d', 'mlx5_0', 'ip']
        },
        { tool: 'ib_write_lat', gpuMemory: false, serverArgs: ['-a'], clientArgs: ['-a', 'ip'] }
      ],
      resources: { 'rdma/ib': '1', 'nvidia.com/gpu': '8' },
      gpuPlacement: 'GPU 0',
      passRule: 'at least 90 %'
    },
    transport: {
      enabled: true,
      check: 'ucx',
      image: 'dynamo:1',
      user: 'dynamo',
      resources: { 'rdma/ib': '1' },
      shm: '1Gi',
      env: [
        { name: 'A', value: '1' },
        { name: 'B', value: '2' }
      ],
      netDevices: 'mlx5_0:1',
      preflight: ['memlock', 'devices'],
      server: ['ucx_perftest'],
      client: [
        ['ucx_perftest', 'ip', '-t', 'tag_bw'],
        ['ucx_perftest', 'ip', '-t', 'tag_lat']
      ],
      passRule: 'rc transport'
    },
    collective: {
      enabled: true,
      check: 'nccl',
      image: 'nccl:1',
      scope: 'pair',
      gpusPerNode: 8,
      resources: { 'rdma/ib': '1', 'nvidia.com/gpu': '8' },
      objects: ['Secret ssh'],
      env: { NCCL_DEBUG: 'INFO' },
      intra: ['all_reduce_perf', '-g', '8'],
      inter: ['mpirun', 'all_reduce_perf', '-g', '1'],
      passRule: 'ib-gdr above the marks'
    }
  }
}

describe('the plan text', () => {
  it('renders every part of every component, in order', () => {
    expect(renderPlanText(planDocument())).toBe(
      textLines(
        'Plan for rg/aks: pool rdma (2 × Standard_ND96asr_v4), rollout pipelined',
        'Pools the stack serves: before, the recorded pools; after, the recorded pools, and rdma',
        '',
        '1. feature — Register the feature',
        '  POST /subscriptions/s/providers/X/register?api-version=2021-07-01  (always)',
        '    If-Match: *',
        '    {',
        '      "a": 1',
        '    }',
        '  GET /x?api-version=v  (until Registered)',
        '  ready when: Registered',
        '    - state is Registered',
        '    - provider re-registered',
        '  departs from the guide: waits for the state',
        '',
        '2. cluster — Create the cluster [skipped: create-cluster is false]',
        '  ready when: Succeeded',
        '',
        '3. config — Apply manifests',
        '  apply --server-side Namespace ns:',
        '    apiVersion: v1',
        '    kind: Namespace',
        '    metadata:',
        '      name: ns',
        '  apply --server-side ConfigMap ns/cm:',
        '    apiVersion: v1',
        '    kind: ConfigMap',
        '    metadata:',
        '      name: cm',
        '      namespace: ns',
        '    data:',
        '      k: v',
        '  ready when: a | b',
        '    - present',
        '  changed on a running cluster: pods are replaced',
        '',
        '4. operator — Install the operator',
        '  helm repo add repo https://example.test',
        '  upgrading from another chart version, first its CRDs (helm never upgrades them): the CustomResourceDefinitions of',
        '    helm template repo/op --include-crds',
        '    applied server-side (--force-conflicts), each waited for until Established',
        '  helm upgrade --install op repo/op',
        '  values (op):',
        '    a:',
        '      b: true',
        '  ready when: rolled out',
        '',
        'Verification checks:',
        '  - nodes: the nodes are Ready',
        '  - probe: the devices open (creates a short-lived DaemonSet)',
        '',
        'Benchmark (pair, image perftest:1, GPUDirect on, requests rdma/ib: 1, nvidia.com/gpu: 8):',
        '  ib_write_bw server: -d mlx5_0',
        '  ib_write_bw client: -d mlx5_0 ip',
        '  ib_write_lat server: -a',
        '  ib_write_lat client: -a ip',
        '  GPU memory: GPU 0',
        '  pass: at least 90 %',
        '',
        'Transport check (ucx, image dynamo:1): two worker pods, one per RDMA node, each requesting rdma/ib: 1',
        '  user: dynamo',
        '  /dev/shm: 1Gi',
        '  env: A=1 B=2',
        '  UCX_NET_DEVICES: mlx5_0:1',
        '  each pod first checks:',
        '    - memlock',
        '    - devices',
        '  server: ucx_perftest (twice: one run per client test)',
        '  client: ucx_perftest ip -t tag_bw',
        '  client: ucx_perftest ip -t tag_lat',
        '  pass: rc transport',
        '',
        "Collective check (nccl, image nccl:1): one pod per RDMA node of the benchmark's pair scope (root with IPC_LOCK, a memory-backed /dev/shm), each requesting rdma/ib: 1, nvidia.com/gpu: 8",
        '  creates: Secret ssh',
        '  env: NCCL_DEBUG=INFO',
        '  every pod: all_reduce_perf -g 8',
        "  pair's worker: then sshd -D -p 2222; pair's launcher: then mpirun all_reduce_perf -g 1",
        '  pass: ib-gdr above the marks',
        ''
      )
    )
  })

  it('says when the benchmark and the transport and collective checks are off, with the input that turns them on', () => {
    const plan = planDocument()
    plan.benchmark = { ...plan.benchmark, enabled: false, gpudirect: false }
    plan.transport = { ...plan.transport, enabled: false }
    plan.collective = { ...plan.collective, enabled: false }
    const text = renderPlanText(plan)
    expect(
      text.endsWith(
        '\n\nBenchmark: off (benchmark: false)\n\nTransport check: off (transport-check: none)\n\nCollective check: off (collective-check: none)\n'
      )
    ).toBe(true)
    expect(text).not.toContain('all_reduce_perf')
    expect(text).not.toContain('ib_write_bw')
    expect(text).not.toContain('ucx_perftest')
  })

  it('says GPUDirect off when the benchmark runs from host memory', () => {
    const plan = planDocument()
    plan.benchmark = { ...plan.benchmark, gpudirect: false }
    expect(renderPlanText(plan)).toContain('Benchmark (pair, image perftest:1, GPUDirect off, requests')
  })
})

describe('the plan in the job summary', () => {
  it('is a table of the components and the whole text folded beneath it', () => {
    const plan = planDocument()
    const md = renderPlanMarkdown(plan)
    expect(md).toBe(
      textLines(
        '## aks-rdma-action plan: rg/aks',
        '',
        'Pool `rdma`: 2 × `Standard_ND96asr_v4`, rollout `pipelined`.',
        '',
        '| # | Component | Kind | Runs | Ready when |',
        '| --- | --- | --- | --- | --- |',
        '| 1 | `feature` | azure | yes | Registered |',
        '| 2 | `cluster` | azure | skipped: create-cluster is false | Succeeded |',
        '| 3 | `config` | manifest | yes | a \\| b |',
        '| 4 | `operator` | helm | yes | rolled out |',
        '',
        '<details><summary>Full plan</summary>',
        '',
        '```',
        renderPlanText(plan),
        '```',
        '',
        '</details>',
        ''
      )
    )
  })

  it('keeps a fence in the plan text from closing the folded block', () => {
    const plan = planDocument()
    plan.components[0].title = 'Register ```the``` feature'
    const md = renderPlanMarkdown(plan)
    expect(md).toContain("1. feature — Register '''the''' feature")
    expect(md.match(/```/g)).toHaveLength(2)
  })
})

describe('the plan document', () => {
  it('names the mode, the cluster and the pool from the settings', () => {
    const { settings } = readSettings(reader({ ...VALID_APPLY }), { GITHUB_RUN_ID: '7' })
    const plan = buildPlan(settings)
    expect(plan.mode).toBe('plan')
    expect(plan.cluster).toEqual({
      resourceGroup: settings.cluster.resourceGroup,
      name: settings.cluster.name,
      nodePool: settings.nodePool.name,
      vmSize: settings.nodePool.vmSize,
      nodeCount: settings.nodePool.count,
      hardware: '8 × H100 GPUs, 8 × 400 Gb/s InfiniBand (ConnectX-7), amd64'
    })
    expect(plan.rollout).toBe(settings.wait.rollout)
  })

  it('gives each helm release its repo add, its upgrade with the step timeout, and its CRD rendering', () => {
    const { settings } = readSettings(reader({ ...VALID_APPLY, 'step-timeout': '7m' }), {
      GITHUB_RUN_ID: '7'
    })
    const helm = buildPlan(settings).components.find(c => c.name === 'network-operator')!.helm!
    const [repoAdd, upgrade] = helm.commands
    expect(helm.commands).toHaveLength(2)
    expect(repoAdd.slice(0, 3)).toEqual(['helm', 'repo', 'add'])
    expect(upgrade.slice(0, 3)).toEqual(['helm', 'upgrade', '--install'])
    expect(upgrade).toContain(`<values-${helm.release}.yaml>`)
    expect(upgrade.slice(upgrade.indexOf('--timeout'), upgrade.indexOf('--timeout') + 2)).toEqual([
      '--timeout',
      '420s'
    ])
    expect(helm.crdsFirst[0]).toBe('helm')
    expect(helm.crdsFirst).toContain(`<values-${helm.release}.yaml>`)
  })

  it("carries a component's guide departure and change note only where it has one", () => {
    const { settings } = readSettings(reader({ ...VALID_APPLY }), { GITHUB_RUN_ID: '7' })
    const byName = new Map(buildPlan(settings).components.map(c => [c.name, c]))
    expect(byName.get('nic-cluster-policy')!.departsFromGuide).toMatch(/\w/)
    expect(byName.get('ib-node-config')!.onChange).toMatch(/\w/)
    expect(Object.keys(byName.get('infiniband-feature')!)).not.toContain('departsFromGuide')
    expect(Object.keys(byName.get('infiniband-feature')!)).not.toContain('onChange')
    expect(Object.keys(byName.get('infiniband-feature')!)).not.toContain('helm')
    expect(Object.keys(byName.get('infiniband-feature')!)).not.toContain('manifests')
    expect(Object.keys(byName.get('network-operator')!)).not.toContain('azure')
  })
})
