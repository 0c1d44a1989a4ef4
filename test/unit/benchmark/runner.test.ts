// The benchmark runner's building blocks without a cluster: the perftest pod manifests (one
// container per node side running a perftest per device pair on its own port, holding the node's
// GPUs with each NIC's local GPU as its CUDA device, pinning, anti-affinity, client retry), the
// argv built from the model's plan, device sections of a container's log, CUDA-rejection
// detection from perftest's refusal of --use_cuda, measurements from perftest text (with the CUDA devices
// used), and naming a slow end of a pair from the probe's port rates. Then runBenchmark over an
// in-memory cluster with the probe's facts given (or nodes none of which a probe can run on): the
// phases of each round in order, GPUDirect states, the host-memory repeat when perftest lacks CUDA,
// exclusions, verdicts and summaries, the concurrency limit and the cleanup before and after.
import type { Settings } from '../../../src/settings/settings.js'
import { parsePerftestOutput } from '../../../src/parse/perftest.js'
import {
  PAIR_LABEL,
  PHASE_LABEL,
  ROLE_LABEL,
  outputFile,
  perftestArgv,
  perftestPod,
  SECTION_MARK,
  sideScript,
  splitSections,
  type PairSpec,
  type PhaseSpec
} from '../../../src/benchmark/perftest-pods.js'
import { isCudaRejection, measurementFrom } from '../../../src/benchmark/phase.js'
import { BENCHMARK_TESTS, pairDevices, runBenchmark, testPhases } from '../../../src/benchmark/runner.js'
import type { KubeObject } from '../../../src/kube/types.js'
import { runLabel } from '../../../src/verify/workspace.js'
import { apiError } from '../../support/memory-cluster.js'
import {
  benchSettings,
  BW_196,
  BW_394,
  fixtureText,
  goodOutput,
  LAT,
  nicNames,
  noCudaOutput,
  type Output,
  perftestKube,
  perftestPair,
  writeLatencyArgv
} from '../../support/perftest-pods.js'
import { benchFacts as nodeFacts, factsOf } from '../../support/probe-facts.js'
import { captureLog } from '../../support/capture-log.js'
import { fleetLineRate, refineOutliers, slowPorts } from '../../../src/benchmark/link-rate.js'
import { outlierName, parseOutlierName } from '../../../src/util/outliers.js'
import { benchmarkPlan } from '../../../src/benchmark/plan.js'
import { workloadResources } from '../../../src/model/workload.js'
import type { NodeFacts } from '../../../src/verify/probe-output.js'

/** refineOutliers over outlier names, as the report carries them. */
const refine = (names: string[], slow: Set<string>, devicesPerNode?: Map<string, number>): string[] =>
  refineOutliers(names.map(parseOutlierName), slow, devicesPerNode).map(outlierName)

const settings = benchSettings
const devs = nicNames
const pair: PairSpec = perftestPair('p1', 'node-a', 'node-b', 8, true)
const bw: PhaseSpec = { name: 'bw-r1', test: 'ib_write_bw', round: 1, useCuda: true }

describe('perftest pods', () => {
  it("a server pod is one container holding the node's GPUs, one perftest per NIC on port 18515+i with its NIC-local GPU", () => {
    const s = settings({ 'vm-size': 'Standard_ND96isr_H100_v5' })
    const pod = perftestPod({ settings: s, phase: bw, pair, role: 'server', devices: pair.devices })
    expect(pod.spec.containers).toHaveLength(1)
    const c = pod.spec.containers[0]
    expect(c.name).toBe('perftest')
    const script: string = c.command[2]
    expect(c.command.slice(0, 2)).toEqual(['sh', '-c'])
    expect(script).toContain(
      `sh -c 'ib_write_bw -d mlx5_ib3 -p 18518 -s 8388608 -n 5000 -F --report_gbits --perform_warm_up --use_cuda=4 > ${outputFile(3)} 2>&1; echo "exit=$?" >> ${outputFile(3)}' &`
    )
    expect(script.match(/ &$/gm)).toHaveLength(8)
    expect(script).toContain(`wait\necho '${SECTION_MARK} d0 mlx5_ib0'\ncat ${outputFile(0)}`)
    expect(c.env).toEqual([{ name: 'CUDA_DEVICE_ORDER', value: 'PCI_BUS_ID' }])
    // The workload snippet with all 8 GPUs: what the summary shows users.
    expect(c.resources.limits).toEqual(workloadResources(s, 8))
    expect(c.resources.limits).toEqual({ 'rdma/hca_shared_devices_a': '1', 'nvidia.com/gpu': '8' })
    expect(benchmarkPlan(s).resources).toEqual(c.resources.limits)
    expect(c.ports.map((p: { containerPort: number }) => p.containerPort)).toEqual(
      Array.from({ length: 8 }, (_, i) => 18515 + i)
    )
    expect(c.securityContext).toBeUndefined()
    expect(pod.spec.restartPolicy).toBe('Never')
    expect(
      pod.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]
        .matchFields[0].values
    ).toEqual(['node-a'])
    const anti = pod.spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]
    expect(anti.topologyKey).toBe('kubernetes.io/hostname')
    expect(anti.labelSelector.matchLabels['aks-rdma-action/pair']).toBe('p1')
  })

  it('a client connects to the server pod IP with its own NIC-local GPU and retries, bounded, while the server starts', () => {
    const pod = perftestPod({
      settings: settings(),
      phase: bw,
      pair,
      role: 'client',
      devices: pair.devices.slice(6, 7),
      serverIp: '10.244.1.7'
    })
    expect(
      pod.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]
        .matchFields[0].values
    ).toEqual(['node-b'])
    const script: string = pod.spec.containers[0].command[2]
    expect(script.split('\n')[0]).toMatch(
      /^sh -c 'for attempt in 1 2 3 .* 15; do if ib_write_bw -d mlx5_ib6 -p 18521 .*--report_gbits --perform_warm_up --use_cuda=6 10\.244\.1\.7 > \/tmp\/aks-rdma-perftest-d6\.log 2>&1; then echo exit=0 >> \S+; exit 0; fi; sleep 2; done; echo exit=1 >> \S+; exit 1' &$/
    )
  })

  it('host memory: no GPU, no --use_cuda; a device without a NIC-local GPU on a side runs from host memory', () => {
    const s = settings({ 'benchmark-gpudirect': 'false' })
    const pod = perftestPod({
      settings: s,
      phase: { ...bw, useCuda: false },
      pair,
      role: 'client',
      devices: pair.devices.slice(0, 1),
      serverIp: '10.244.1.7'
    })
    expect(pod.spec.containers[0].command[2]).not.toMatch(/use_cuda/)
    expect(pod.spec.containers[0].resources.limits).toEqual({ 'rdma/hca_shared_devices_a': '1' })
    expect(pod.spec.containers[0].env).toBeUndefined()
    expect(perftestArgv(s, 'ib_write_lat', 'client', 'mlx5_ib0', 18515, undefined, '10.0.0.2')).toEqual([
      ...writeLatencyArgv(),
      '10.0.0.2'
    ])
    // Latency never takes a CUDA device: perftest refuses GPU memory for write latency.
    expect(() => perftestArgv(settings(), 'ib_write_lat', 'server', 'mlx5_ib0', 18515, 0)).toThrow(
      'ib_write_lat measures from host memory, not a CUDA device'
    )
    const facts = (node: string, local: Array<number | null>): NodeFacts => ({
      node,
      ibPorts: [],
      activeDevices: devs(local.length),
      rateGbps: {},
      memlock: 'unlimited',
      memlockUnlimited: true,
      peermemLoaded: true,
      openKernelModules: true,
      gpus: [],
      nics: local.map((g, i) => ({
        device: `mlx5_ib${i}`,
        pciAddress: '',
        numaNode: 0,
        upstream: ['', ''],
        localGpu: g,
        locality: g === null ? null : 'numa'
      })),
      error: null,
      ibstatError: null
    })
    expect(pairDevices(facts('a', [1, 0]), facts('b', [null, 3])).map(d => d.cuda)).toEqual([
      undefined,
      { server: 0, client: 3 }
    ])
  })

  it('refuses a word that could break out of the script', () => {
    expect(() =>
      sideScript('server', [{ index: 0, device: "x'; reboot; '", argv: ['ib_write_bw'] }])
    ).toThrow(/unsafe word/)
    expect(() =>
      sideScript('server', [{ index: 0, device: 'mlx5_ib0', argv: ['ib_write_bw', '$(id)'] }])
    ).toThrow(/unsafe word/)
  })

  it('splits a container log into device sections with their exit codes', () => {
    const log = [
      `${SECTION_MARK} d0 mlx5_ib0`,
      'line a',
      'exit=0',
      `${SECTION_MARK} d10 mlx5_ib10`,
      "Couldn't connect to 10.0.0.1:18525",
      'exit=1',
      ''
    ].join('\n')
    expect(splitSections(log)).toEqual(
      new Map([
        [0, { text: 'line a', exitCode: 0 }],
        [10, { text: "Couldn't connect to 10.0.0.1:18525", exitCode: 1 }]
      ])
    )
  })
})

describe('perftest output', () => {
  /** perftest before 23.07 built without CUDA: --use_cuda is an unrecognized option. */
  const usage = () =>
    fixtureText('perftest-refusals/06-ib_write_bw-nocuda-unrecognized-option-before-23.07.txt')

  it('recognises a perftest built without CUDA from its refusal of --use_cuda, and only that', () => {
    const parsed = parsePerftestOutput(usage(), { tool: 'ib_write_bw' })
    expect(parsed.error).toMatchObject({ kind: 'cuda', flag: '--use_cuda' })
    expect(isCudaRejection(parsed)).toBe(true)
    // perftest 23.07 and later: stderr first, then stdout when it exits.
    const since2307 = ' Parser function exited with Error\n Unsupported memory type\n'
    expect(isCudaRejection(parsePerftestOutput(since2307, { tool: 'ib_write_bw' }))).toBe(true)
    const other =
      "ib_write_bw: unrecognized option '--bogus'\n Usage:\n  ib_write_bw            start a server and wait for connection\n"
    expect(isCudaRejection(parsePerftestOutput(other, { tool: 'ib_write_bw' }))).toBe(false)
    // A refusal of the command line is the action's error, not a missing CUDA build.
    const writeLat =
      'Perftest supports CUDA latency tests with read/send verbs only\n---------------------------------------------------------------------------------------\n'
    expect(isCudaRejection(parsePerftestOutput(writeLat, { tool: 'ib_write_lat' }))).toBe(false)
  })

  it('turns a client log into a measurement, and a failure into an error measurement', () => {
    const text = [
      '---------------------------------------------------------------------------------------',
      '                    RDMA_Write BW Test',
      ' #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]',
      ' 8388608    2000             196.80             196.55\t\t   0.002929',
      '---------------------------------------------------------------------------------------'
    ].join('\n')
    const m = measurementFrom(
      pair,
      pair.devices[2],
      bw,
      200,
      parsePerftestOutput(text, { tool: 'ib_write_bw' })
    )
    expect(m).toMatchObject({
      server: 'node-a',
      client: 'node-b',
      device: 'mlx5_ib2',
      cuda: { server: 5, client: 2 },
      bwAvgGbps: 196.55,
      bwPeakGbps: 196.8,
      linkGbps: 200
    })
    expect(
      measurementFrom(
        pair,
        pair.devices[2],
        { ...bw, useCuda: false },
        200,
        parsePerftestOutput(text, { tool: 'ib_write_bw' })
      ).cuda
    ).toBeNull()
    const failed = measurementFrom(
      pair,
      pair.devices[0],
      bw,
      200,
      parsePerftestOutput(
        "Couldn't connect to 10.0.0.1:18515\nUnable to open file descriptor for socket connection Unable to init the socket connection\n",
        { tool: 'ib_write_bw' }
      )
    )
    expect(failed.bwAvgGbps).toBeNull()
    expect(failed.error).toMatch(/^connect: Couldn't connect/)
  })
})

describe('line rate and outlier naming', () => {
  const facts = (node: string, rates: number[]): NodeFacts => ({
    node,
    gpus: [],
    nics: [],
    ibPorts: [],
    activeDevices: rates.map((_, i) => `mlx5_ib${i}`),
    rateGbps: Object.fromEntries(rates.map((r, i) => [`mlx5_ib${i}`, r])),
    memlock: 'unlimited',
    memlockUnlimited: true,
    peermemLoaded: true,
    openKernelModules: true,
    error: null,
    ibstatError: null
  })

  it('the line rate is the fastest active port of the fleet, else the VM size nominal rate', () => {
    const s = settings({ 'vm-size': 'Standard_ND96asr_v4' })
    expect(fleetLineRate([facts('a', [200, 200]), facts('b', [200, 50])], s)).toBe(200)
    expect(fleetLineRate([], s)).toBe(200)
  })

  it('names the slow end of a pair outlier, and the node when all its devices are slow', () => {
    const all = [
      facts('a', [400, 400, 400, 400]),
      facts('b', [400, 400, 100, 400]),
      facts('c', [100, 100, 100, 100])
    ]
    const slow = slowPorts(all, 400)
    expect([...slow].sort()).toEqual(['b/mlx5_ib2', 'c/mlx5_ib0', 'c/mlx5_ib1', 'c/mlx5_ib2', 'c/mlx5_ib3'])
    expect(refine(['a/mlx5_ib2 ↔ b/mlx5_ib2'], slow)).toEqual(['b/mlx5_ib2'])
    const cOut = [0, 1, 2, 3].map(i => `a/mlx5_ib${i} ↔ c/mlx5_ib${i}`)
    expect(refine(cOut, slow, new Map([['c', 4]]))).toEqual(['c'])
    expect(refine(['a/mlx5_ib0 ↔ a2/mlx5_ib0'], slow)).toEqual(['a/mlx5_ib0 ↔ a2/mlx5_ib0'])
    // A single-NIC node whose only device is named is the node.
    expect(refine(['a/mlx5_ib0 ↔ d/mlx5_ib0'], new Set(['d/mlx5_ib0']), new Map([['d', 1]]))).toEqual(['d'])
  })
})

// ---- runBenchmark over an in-memory cluster -------------------------------------------------
// perftest-pods' perftestKube: memory-kube with what runBenchmark and its phases call (the work
// namespace, node list, pod create, log, delete by label, watch of pods) and a kubelet that runs
// servers and finishes clients, a finished pod's log holding real perftest output chosen by
// `output`. The probe's facts are probe-facts' benchFacts.
const benchKube = perftestKube

const BENCH_SELECTOR = (s: Settings) =>
  `app.kubernetes.io/name=aks-rdma-action,app.kubernetes.io/component=rdma-benchmark,aks-rdma-action/run=${runLabel(s.runId)}`

/** The benchmark's result when it measured nothing: no rounds, pairs or numbers, GPUDirect off. */
const nothingMeasured = (
  verdict: string,
  summary: string,
  scope: string,
  minBandwidthRatio: number,
  excluded: Array<{ node: string; reason: string }> = []
) => ({
  verdict,
  summary,
  scope,
  rounds: 0,
  phases: 0,
  schedule: { rounds: [], partners: {}, unpaired: [] },
  pairs: [],
  outliers: [],
  gpudirect: 'off',
  gpudirectDetail: '',
  bandwidthGbps: '',
  latencyUs: '',
  lineRateGbps: null,
  excluded,
  report: { scope, pairs: [], outliers: [], minBandwidthRatio }
})

/** runBenchmark over `facts`, with settings from `inputs` and perftest pods printing `output`. */
async function benchmarked(
  inputs: Record<string, string>,
  facts: Map<string, NodeFacts>,
  o: { output?: Output; namespace?: string; timeoutMs?: number } = {}
) {
  const s = settings(inputs)
  const f = benchKube(o.output)
  const log = captureLog()
  const run = await runBenchmark({
    settings: s,
    kube: f.kube,
    facts,
    ...(o.namespace ? { namespace: o.namespace } : {}),
    timeoutMs: o.timeoutMs ?? 2000,
    log
  })
  return { s, f, log, run }
}

describe('runBenchmark', () => {
  it('is skipped when benchmark is false, touching nothing', async () => {
    const s = settings({ benchmark: 'false', 'min-bandwidth-ratio': '0.85', 'benchmark-scope': 'fleet' })
    const f = benchKube()
    expect(await runBenchmark({ settings: s, kube: f.kube })).toEqual(
      nothingMeasured('skipped', 'benchmark is false', 'fleet', 0.85)
    )
    expect(f.calls).toEqual([])
  })

  it('a pair over GPUDirect: bandwidth with --use_cuda, latency from host memory, pods cleaned before and after', async () => {
    const { s, f, log, run } = await benchmarked(
      { 'benchmark-scope': 'pair' },
      factsOf(nodeFacts('node-b', 1, { gpus: 4 }), nodeFacts('node-a', 1)),
      { namespace: 'bench', timeoutMs: 45_000 }
    )
    const sel = BENCH_SELECTOR(s)
    expect(f.calls).toEqual([
      'get Namespace bench',
      // The namespace it creates is recorded as the action's (pending, then its uid).
      'get ConfigMap aks-rdma-action-owned',
      'apply Namespace bench live=null',
      `delete bench -l ${sel}`,
      'create bw-r1 server',
      'create bw-r1 client',
      `delete bench -l ${sel},aks-rdma-action/phase=bw-r1`,
      'create lat-r1 server',
      'create lat-r1 client',
      `delete bench -l ${sel},aks-rdma-action/phase=lat-r1`,
      `delete bench -l ${sel}`
    ])
    expect(f.cluster.all('v1', 'Pod')).toEqual([])
    // Natural order: node-a serves; each side's pod holds all of its node's GPUs.
    const bwServer = f.created[0]
    expect(
      bwServer.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]
        .matchFields[0].values
    ).toEqual(['node-a'])
    expect(bwServer.metadata.labels?.[PAIR_LABEL]).toBe('p1')
    expect(bwServer.spec.containers[0].resources.limits['nvidia.com/gpu']).toBe('8')
    expect(f.created[1].spec.containers[0].resources.limits['nvidia.com/gpu']).toBe('4')
    expect(bwServer.spec.activeDeadlineSeconds).toBe(90)
    expect(log.lines.filter(l => l.startsWith('info: round'))).toEqual([
      'info: round 1/1: ib_write_bw on 1 pair(s) with --use_cuda',
      'info: round 1/1: ib_write_lat on 1 pair(s) from host memory'
    ])
    expect(log.warnings).toEqual([])
    expect(run).toMatchObject({
      verdict: 'pass',
      summary: '2 measurement(s) over 1 round(s) passed (≥ 0.9 × 400 Gb/s)',
      scope: 'pair',
      rounds: 1,
      phases: 2,
      outliers: [],
      gpudirect: 'on',
      gpudirectDetail: 'GPU memory registered directly (nvidia_peermem loaded on every measured node)',
      bandwidthGbps: '394.40',
      latencyUs: '5.49',
      lineRateGbps: 400,
      excluded: []
    })
    expect(run.schedule.rounds).toEqual([[{ round: 1, server: 'node-a', client: 'node-b' }]])
    expect(run.pairs.map(p => [p.test, p.device, p.cuda, p.bwAvgGbps, p.tTypicalUs, p.verdict])).toEqual([
      ['ib_write_bw', 'mlx5_ib0', { server: 0, client: 0 }, 394.4, null, 'pass'],
      ['ib_write_lat', 'mlx5_ib0', undefined, null, 5.49, 'pass']
    ])
    expect(run.report).toMatchObject({ scope: 'pair', minBandwidthRatio: 0.9, outliers: [] })
    expect(run.report.pairs).toEqual(run.pairs)
    expect(run.pairs[0]).toMatchObject({ linkGbps: 400, ratio: 0.986, bwPeakGbps: 394.58 })
    expect(run.analysis?.measurements).toHaveLength(2)
  })

  it('perftest without CUDA: the bandwidth phase is repeated from host memory and later rounds stay there', async () => {
    const { s, f, log, run } = await benchmarked(
      { 'benchmark-scope': 'fleet' },
      factsOf(...['n1', 'n2', 'n3', 'n4'].map(n => nodeFacts(n, 1))),
      { output: noCudaOutput, namespace: 'bench' }
    )
    const phases = [...new Set(f.created.map(p => p.metadata.labels?.[PHASE_LABEL]))]
    expect(phases).toEqual(['bw-r1', 'bw-r1-host', 'lat-r1', 'bw-r2', 'lat-r2'])
    expect(
      f.created
        .filter(p => p.metadata.labels?.[PHASE_LABEL] === 'bw-r1')
        .map(p => p.metadata.labels?.[ROLE_LABEL])
    ).toEqual(['server', 'server'])
    expect(
      f.created.some(
        p =>
          p.spec.containers[0].command[2].includes('use_cuda') && p.metadata.labels?.[PHASE_LABEL] !== 'bw-r1'
      )
    ).toBe(false)
    expect(
      f.created
        .filter(p => p.metadata.labels?.[PHASE_LABEL] === 'bw-r1')
        .map(p => p.metadata.labels?.[PAIR_LABEL])
    ).toEqual(['p1', 'p2'])
    expect(log.lines.filter(l => /^info: (round|perftest)/.test(l))).toEqual([
      'info: round 1/2: ib_write_bw on 2 pair(s) with --use_cuda',
      'info: perftest rejected --use_cuda (Unsupported memory type); repeating from host memory',
      'info: round 1/2: ib_write_lat on 2 pair(s) from host memory',
      'info: round 2/2: ib_write_bw on 2 pair(s) from host memory',
      'info: round 2/2: ib_write_lat on 2 pair(s) from host memory'
    ])
    expect(run.phases).toBe(5)
    expect(run.rounds).toBe(2)
    expect(run.gpudirect).toBe('unsupported')
    expect(run.gpudirectDetail).toBe(
      `perftest in ${s.benchmark.image} has no CUDA support (Unsupported memory type); measured from host memory instead — use an image with a CUDA build of perftest for GPUDirect`
    )
    expect(run.verdict).toBe('warn')
    expect(run.summary).toBe(
      '8 measurement(s) over 2 round(s) passed (≥ 0.9 × 400 Gb/s); GPUDirect unsupported by the image'
    )
    expect(run.pairs.every(p => p.cuda === undefined)).toBe(true)
  })

  it('host-staged when a measured node lacks nvidia_peermem (no note: the measurement stands)', async () => {
    const s = settings()
    const f = benchKube()
    const run = await runBenchmark({
      settings: s,
      kube: f.kube,
      facts: factsOf(
        nodeFacts('a', 1, { peermem: null }),
        nodeFacts('b', 1, { peermem: false }),
        nodeFacts('c', 1)
      ),
      timeoutMs: 2000
    })
    expect(run.gpudirect).toBe('host-staged')
    expect(run.gpudirectDetail).toBe(
      'nvidia_peermem not loaded on a, b: the NIC cannot register GPU memory there (perftest --use_cuda fails: "Couldn\'t allocate MR")'
    )
    expect(run.verdict).toBe('pass')
    expect(run.summary).toBe('2 measurement(s) over 1 round(s) passed (≥ 0.9 × 400 Gb/s)')
    expect(f.calls[0]).toBe('get Namespace aks-rdma-verify')
  })

  it('gpudirect dmabuf: --use_cuda_dmabuf after --use_cuda; a node without the open GPU kernel modules is named', async () => {
    const s = settings({ gpudirect: 'dmabuf' })
    expect(perftestArgv(s, 'ib_write_bw', 'client', 'mlx5_ib0', 18515, 3, '10.0.0.2')).toEqual(
      expect.arrayContaining(['--use_cuda=3', '--use_cuda_dmabuf'])
    )
    const argv = perftestArgv(s, 'ib_write_bw', 'server', 'mlx5_ib0', 18515, 3)
    expect(argv.indexOf('--use_cuda_dmabuf')).toBe(argv.indexOf('--use_cuda=3') + 1)
    // Host memory (no CUDA device): neither flag.
    expect(perftestArgv(s, 'ib_write_bw', 'server', 'mlx5_ib0', 18515, undefined).join(' ')).not.toMatch(
      /use_cuda/
    )
    const run = async (open: boolean | null) =>
      runBenchmark({
        settings: s,
        kube: benchKube().kube,
        // nvidia_peermem is not what dmabuf needs: it is absent on every node here.
        facts: factsOf(
          nodeFacts('a', 1, { peermem: false, openModules: open }),
          nodeFacts('b', 1, { peermem: false })
        ),
        timeoutMs: 2000
      })
    const on = await run(true)
    expect(on.gpudirect).toBe('on')
    expect(on.gpudirectDetail).toMatch(/^GPU memory registered by DMA-BUF/)
    const off = await run(false)
    expect(off.gpudirect).toBe('unsupported')
    expect(off.gpudirectDetail).toMatch(
      /^the GPU driver does not run the open kernel modules on a: no DMA-BUF/
    )
  })

  it('benchmark-gpudirect false: host memory everywhere, said so', async () => {
    const { f, log, run } = await benchmarked(
      { 'benchmark-gpudirect': 'false' },
      factsOf(nodeFacts('a', 1), nodeFacts('b', 1))
    )
    expect(run.gpudirect).toBe('off')
    expect(run.gpudirectDetail).toBe('benchmark-gpudirect is false: host memory')
    expect(log.lines.filter(l => l.startsWith('info: round'))[0]).toBe(
      'info: round 1/1: ib_write_bw on 1 pair(s) from host memory'
    )
    expect(f.created.some(p => p.spec.containers[0].command[2].includes('use_cuda'))).toBe(false)
    expect(run.pairs[0].cuda).toBeUndefined()
    expect(run.verdict).toBe('pass')
  })

  it('a size the action does not know counts the GPUs the probe found', async () => {
    const base = settings()
    const s: Settings = { ...base, nodePool: { ...base.nodePool, vmSize: 'Standard_Custom_v9' } }
    const noneLog = captureLog()
    const none = await runBenchmark({
      settings: s,
      kube: benchKube().kube,
      facts: factsOf(
        nodeFacts('a', 1, { gpus: 0, local: [null] }),
        nodeFacts('b', 1, { gpus: 0, local: [null] })
      ),
      timeoutMs: 2000,
      log: noneLog
    })
    expect(none.gpudirect).toBe('off')
    expect(none.gpudirectDetail).toBe('Standard_Custom_v9 has no GPUs: host memory')
    expect(noneLog.lines.filter(l => l.startsWith('info: round'))[0]).toBe(
      'info: round 1/1: ib_write_bw on 1 pair(s) from host memory'
    )
    expect(none.verdict).toBe('pass')
    const f = benchKube()
    const some = await runBenchmark({
      settings: s,
      kube: f.kube,
      facts: factsOf(nodeFacts('a', 1, { gpus: 0, local: [null] }), nodeFacts('b', 1, { gpus: 2 })),
      timeoutMs: 2000
    })
    // GPUs on one side only: no device has a NIC-local GPU on both, so it is measured from host memory.
    expect(some.gpudirect).toBe('on')
    expect(some.verdict).toBe('warn')
    expect(some.summary).toBe(
      "2 measurement(s) over 1 round(s) passed (≥ 0.9 × 400 Gb/s); 1 device measurement(s) from host memory: no GPU local to the NIC on one side (see the probe's GPUs)"
    )
  })

  it('counts the devices without a NIC-local GPU on both sides, and names excluded nodes', async () => {
    const { run } = await benchmarked(
      {},
      factsOf(nodeFacts('a', 3, { local: [0, null, 2] }), nodeFacts('b', 3), nodeFacts('c', 0), {
        ...nodeFacts('d', 0),
        error: 'probe pod unschedulable: 0/4 nodes are available'
      })
    )
    expect(run.excluded).toEqual([
      { node: 'c', reason: 'no active InfiniBand port' },
      { node: 'd', reason: 'probe pod unschedulable: 0/4 nodes are available' }
    ])
    expect(run.pairs.filter(p => p.test === 'ib_write_bw').map(p => p.cuda)).toEqual([
      { server: 0, client: 0 },
      undefined,
      { server: 2, client: 2 }
    ])
    expect(run.verdict).toBe('warn')
    expect(run.summary).toBe(
      "6 measurement(s) over 1 round(s) passed (≥ 0.9 × 400 Gb/s); 1 device measurement(s) from host memory: no GPU local to the NIC on one side (see the probe's GPUs); 2 node(s) not measured: c, d"
    )
  })

  it('fails with the outliers when a measurement is below the line rate', async () => {
    const s = settings()
    const f = benchKube((_p, _r, phase, i) =>
      phase.startsWith('lat') ? LAT() : i === 1 ? BW_196() : BW_394()
    )
    const run = await runBenchmark({
      settings: s,
      kube: f.kube,
      facts: factsOf(nodeFacts('a', 2), nodeFacts('b', 2)),
      timeoutMs: 2000
    })
    expect(run.verdict).toBe('fail')
    expect(run.summary).toBe('1 of 4 measurement(s) failed; outliers: a/mlx5_ib1 ↔ b/mlx5_ib1')
    expect(run.outliers).toEqual(['a/mlx5_ib1 ↔ b/mlx5_ib1'])
    expect(run.report.outliers).toEqual(run.outliers)
    // The probe's port rates name the slow end.
    const slowB = nodeFacts('b', 2)
    slowB.rateGbps.mlx5_ib1 = 200
    const named = await runBenchmark({
      settings: s,
      kube: benchKube((_p, _r, phase, i) => (phase.startsWith('lat') ? LAT() : i === 1 ? BW_196() : BW_394()))
        .kube,
      facts: factsOf(nodeFacts('a', 2), slowB),
      timeoutMs: 2000
    })
    expect(named.outliers).toEqual(['b/mlx5_ib1'])
    expect(named.report.outliers).toEqual(['b/mlx5_ib1'])
    const refused = fixtureText('perftest-refusals/11-ib_write_lat-bidirectional.txt')
    const lat = await runBenchmark({
      settings: s,
      kube: benchKube((_p, _r, phase) => (phase.startsWith('lat') ? refused : BW_394())).kube,
      facts: factsOf(nodeFacts('a', 1), nodeFacts('b', 1)),
      timeoutMs: 2000
    })
    expect(lat.verdict).toBe('fail')
    expect(lat.summary).toBe('1 of 2 measurement(s) failed; outliers: a/mlx5_ib0 ↔ b/mlx5_ib0')
    expect(lat.pairs[1].reasons).toEqual([
      'perftest failed: refused -b: Bidirectional is only available in BW test'
    ])
    expect(run.bandwidthGbps).toBe('196.55')
  })

  it('fails without two usable nodes, naming the excluded ones', async () => {
    const s = settings()
    const one = await runBenchmark({
      settings: s,
      kube: benchKube().kube,
      facts: factsOf(nodeFacts('a', 1), { ...nodeFacts('b', 1), error: 'probe exited 1' }, nodeFacts('c', 0))
    })
    expect(one).toEqual(
      nothingMeasured(
        'fail',
        'needs two RDMA nodes with an active InfiniBand port, found 1 (excluded: b: probe exited 1; c: no active InfiniBand port)',
        'pair',
        0.9,
        [
          { node: 'b', reason: 'probe exited 1' },
          { node: 'c', reason: 'no active InfiniBand port' }
        ]
      )
    )
    const none = await runBenchmark({
      settings: settings({ 'benchmark-scope': 'fleet' }),
      kube: benchKube().kube,
      facts: new Map()
    })
    expect(none.summary).toBe('needs two RDMA nodes with an active InfiniBand port, found 0')
  })

  it('without facts it lists the pool’s nodes and leaves out those a probe cannot run on', async () => {
    const s = settings()
    const node = (name: string, ready: string, rdma: string): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name, labels: { 'kubernetes.azure.com/agentpool': s.nodePool.name } },
      status: {
        conditions: [{ type: 'Ready', status: ready }],
        allocatable: { [`rdma/${s.stack.rdmaResourceName}`]: rdma }
      }
    })
    const f = benchKube(goodOutput, { nodes: [node('n1', 'False', '1'), node('n2', 'True', '0')] })
    const run = await runBenchmark({ settings: s, kube: f.kube })
    expect(run.summary).toBe(
      `needs two RDMA nodes with an active InfiniBand port, found 0 (excluded: n1: node NotReady; n2: no allocatable rdma/${s.stack.rdmaResourceName} for the probe pod to request)`
    )
    expect(f.calls).toEqual([`list Node -l kubernetes.azure.com/agentpool=${s.nodePool.name} limit=500`])
    expect(run.verdict).toBe('fail')
    expect(run.excluded).toEqual([
      { node: 'n1', reason: 'node NotReady' },
      { node: 'n2', reason: `no allocatable rdma/${s.stack.rdmaResourceName} for the probe pod to request` }
    ])
  })

  it('creates at most 16 pods at once by default, and as many as asked', async () => {
    const s = settings({ 'benchmark-scope': 'fleet', 'benchmark-gpudirect': 'false' })
    const nodes = Array.from({ length: 36 }, (_, i) => nodeFacts(`n${String(i).padStart(2, '0')}`, 1))
    const f = benchKube()
    const run = await runBenchmark({ settings: s, kube: f.kube, facts: factsOf(...nodes), timeoutMs: 2000 })
    expect(f.maxInFlight.create).toBe(16)
    expect(run.phases).toBe(4)
    const g = benchKube()
    await runBenchmark({
      settings: s,
      kube: g.kube,
      facts: factsOf(...nodes.slice(0, 6)),
      timeoutMs: 2000,
      concurrency: 2
    })
    expect(g.maxInFlight.create).toBe(2)
  })

  it('uses the step timeout when none is given', async () => {
    const s = settings({ 'step-timeout': '10m' })
    const f = benchKube()
    await runBenchmark({ settings: s, kube: f.kube, facts: factsOf(nodeFacts('a', 1), nodeFacts('b', 1)) })
    expect(f.created[0].spec.activeDeadlineSeconds).toBe(1200)
  })

  it('a cleanup that fails is a warning naming the namespace and selector', async () => {
    const s = settings()
    const f = benchKube(goodOutput, {
      deleteError: apiError(500, 'InternalError', 'etcdserver: request timed out')
    })
    const log = captureLog()
    const run = await runBenchmark({
      settings: s,
      kube: f.kube,
      facts: factsOf(nodeFacts('a', 1), nodeFacts('b', 1)),
      namespace: 'bench',
      timeoutMs: 2000,
      log
    })
    const sel = BENCH_SELECTOR(s)
    expect(run.verdict).toBe('pass')
    expect(log.warnings.at(-1)).toBe(
      `could not delete the benchmark pods (-n bench -l ${sel}): delete pods -n bench -l ${sel}: HTTP 500: etcdserver: request timed out`
    )
    expect(log.warnings.slice(0, 2)).toEqual(
      ['bw-r1', 'lat-r1'].map(
        ph =>
          `could not delete the ${ph} perftest pods: delete pods -n bench -l ${sel},aks-rdma-action/phase=${ph}: HTTP 500: etcdserver: request timed out`
      )
    )
    expect(log.warnings).toHaveLength(3)
  })

  it('a cleanup that fails without a log is ignored', async () => {
    const f = benchKube(goodOutput, {
      deleteError: apiError(500, 'InternalError', 'etcdserver: request timed out')
    })
    const run = await runBenchmark({
      settings: settings(),
      kube: f.kube,
      facts: factsOf(nodeFacts('a', 1), nodeFacts('b', 1)),
      timeoutMs: 2000
    })
    expect(run.verdict).toBe('pass')
  })
})

describe('testPhases and pairDevices', () => {
  it('names each phase by test and round; GPU memory only where the plan takes it', () => {
    const s = settings()
    expect(testPhases(s, BENCHMARK_TESTS[0], 2, true)).toEqual({
      first: { name: 'bw-r2', test: 'ib_write_bw', round: 2, useCuda: true },
      hostRepeat: { name: 'bw-r2-host', test: 'ib_write_bw', round: 2, useCuda: false }
    })
    expect(testPhases(s, BENCHMARK_TESTS[0], 3, false)).toEqual({
      first: { name: 'bw-r3', test: 'ib_write_bw', round: 3, useCuda: false }
    })
    expect(testPhases(s, BENCHMARK_TESTS[1], 1, true)).toEqual({
      first: { name: 'lat-r1', test: 'ib_write_lat', round: 1, useCuda: false }
    })
  })

  it('a device has CUDA devices only when both of its NICs have a local GPU', () => {
    expect(
      pairDevices(nodeFacts('a', 3, { local: [null, 4, 5] }), nodeFacts('b', 3, { local: [1, null, 2] })).map(
        d => d.cuda
      )
    ).toEqual([undefined, undefined, { server: 5, client: 2 }])
  })
})
