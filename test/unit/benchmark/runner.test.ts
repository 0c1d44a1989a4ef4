// The benchmark runner's building blocks without a cluster: the perftest pod manifests (one
// container per node side running a perftest per device pair on its own port, holding the node's
// GPUs with each NIC's local GPU as its CUDA device, pinning, anti-affinity, client retry), the
// argv built from the model's plan, device sections of a container's log, CUDA-rejection
// detection from perftest's refusal of --use_cuda, measurements from perftest text (with the CUDA devices
// used), and naming a slow end of a pair from the probe's port rates.
import { readSettings } from '../../../src/settings/input-helper.js'
import type { Settings } from '../../../src/settings/settings.js'
import { parsePerftestOutput } from '../../../src/parse/perftest.js'
import { devicePairs } from '../../../src/benchmark/pairing.js'
import {
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
import { pairDevices } from '../../../src/benchmark/runner.js'
import { fleetLineRate, refineOutliers, slowPorts } from '../../../src/benchmark/link-rate.js'
import { outlierName, parseOutlierName } from '../../../src/model/outliers.js'
import { benchmarkPlan } from '../../../src/model/benchmark-plan.js'
import { workloadResources } from '../../../src/model/workload.js'
import type { NodeFacts } from '../../../src/verify/probe-output.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'

/** refineOutliers over outlier names, as the report carries them. */
const refine = (names: string[], slow: Set<string>, devicesPerNode?: Map<string, number>): string[] =>
  refineOutliers(names.map(parseOutlierName), slow, devicesPerNode).map(outlierName)

function settings(over: Record<string, string> = {}): Settings {
  return readSettings(reader({ ...VALID_APPLY, mode: 'verify', ...over })).settings
}

const devs = (n: number) => Array.from({ length: n }, (_, i) => `mlx5_ib${i}`)
// NIC i's local GPU is CUDA device 7 - i on the server and i on the client (any mapping the probe finds).
const pair: PairSpec = {
  id: 'p1',
  server: 'node-a',
  client: 'node-b',
  devices: devicePairs(devs(8), devs(8)).map(d => ({ ...d, cuda: { server: 7 - d.index, client: d.index } })),
  gpus: { server: 8, client: 8 }
}
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
      'ib_write_lat',
      '-d',
      'mlx5_ib0',
      '-p',
      '18515',
      '-s',
      '2',
      '-n',
      '1000',
      '-F',
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
  const usage = [
    "ib_write_bw: unrecognized option '--use_cuda=0'",
    ' Invalid Command or flag.',
    ' Please check command line and run again.',
    '',
    ' Usage:',
    '  ib_write_bw            start a server and wait for connection',
    '  ib_write_bw <host>     connect to server at <host>',
    ''
  ].join('\n')

  it('recognises a perftest built without CUDA from its refusal of --use_cuda, and only that', () => {
    const parsed = parsePerftestOutput(usage, { tool: 'ib_write_bw' })
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
