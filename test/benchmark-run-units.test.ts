// The benchmark runner's building blocks without a cluster: the perftest pod manifests (one
// container per device pair on its own port, resources, pinning, anti-affinity, client retry),
// the argv built from the model's plan, CUDA-rejection detection from perftest's usage output,
// measurements from perftest text, and naming a slow end of a pair from the probe's port rates.
import { readSettings } from '../src/settings/input-helper.js'
import type { Settings } from '../src/settings/settings.js'
import { parsePerftest } from '../src/parse/perftest.js'
import { devicePairs } from '../src/benchmark/pairing.js'
import {
  clientScript,
  perftestArgv,
  perftestPod,
  type PairSpec,
  type PhaseSpec
} from '../src/benchmark/perftest-pods.js'
import { isCudaRejection, measurementFrom } from '../src/benchmark/phase.js'
import { fleetLineRate, refineOutliers, slowPorts } from '../src/benchmark/link-rate.js'
import type { NodeFacts } from '../src/verify/probe-output.js'
import { reader, VALID_APPLY } from './support/inputs.js'

function settings(over: Record<string, string> = {}): Settings {
  return readSettings(reader({ ...VALID_APPLY, mode: 'verify', ...over })).settings
}

const devs = (n: number) => Array.from({ length: n }, (_, i) => `mlx5_ib${i}`)
const pair: PairSpec = {
  id: 'p1',
  server: 'node-a',
  client: 'node-b',
  devices: devicePairs(devs(8), devs(8))
}
const bw: PhaseSpec = { name: 'bw-r1', test: 'ib_write_bw', round: 1, useCuda: true, gpusPerNode: 8 }

describe('perftest pods', () => {
  it('a server pod runs every device pair in its own container on port 18515+i, with GPU and RDMA resources', () => {
    const s = settings()
    const pod = perftestPod({ settings: s, phase: bw, pair, role: 'server', devices: pair.devices })
    expect(pod.spec.containers).toHaveLength(8)
    const c3 = pod.spec.containers[3]
    expect(c3.name).toBe('d3')
    expect(c3.command).toEqual([
      'ib_write_bw',
      '-d',
      'mlx5_ib3',
      '-p',
      '18518',
      '-s',
      '8388608',
      '-n',
      '2000',
      '-F',
      '--report_gbits',
      '--use_cuda=0'
    ])
    expect(c3.resources.limits).toEqual({ 'rdma/hca_shared_devices_a': '1', 'nvidia.com/gpu': '1' })
    expect(c3.securityContext).toBeUndefined()
    expect(pod.spec.restartPolicy).toBe('Never')
    expect(
      pod.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]
        .matchFields[0].values
    ).toEqual(['node-a'])
    const anti = pod.spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]
    expect(anti.topologyKey).toBe('kubernetes.io/hostname')
    expect(anti.labelSelector.matchLabels['aks-rdma-action/pair']).toBe('p1')
  })

  it('a client connects to the server pod IP and retries, bounded, while the server starts', () => {
    const s = settings({ 'benchmark-gpudirect': 'false' })
    const pod = perftestPod({
      settings: s,
      phase: { ...bw, useCuda: false },
      pair,
      role: 'client',
      devices: pair.devices.slice(0, 1),
      serverIp: '10.244.1.7'
    })
    expect(
      pod.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]
        .matchFields[0].values
    ).toEqual(['node-b'])
    const [sh, dashC, script] = pod.spec.containers[0].command
    expect([sh, dashC]).toEqual(['sh', '-c'])
    expect(script).toMatch(
      /^for attempt in 1 2 3 .* 15; do ib_write_bw -d mlx5_ib0 -p 18515 .*--report_gbits 10\.244\.1\.7 && exit 0; sleep 2; done; exit 1$/
    )
    expect(script).not.toMatch(/use_cuda/)
    expect(pod.spec.containers[0].resources.limits).toEqual({ 'rdma/hca_shared_devices_a': '1' })
  })

  it('latency uses the plan`s small messages; devices beyond the GPU count run from host memory', () => {
    const s = settings()
    expect(perftestArgv(s, 'ib_write_lat', 'client', 'mlx5_ib0', 18515, false, '10.0.0.2')).toEqual([
      'ib_write_lat',
      '-d',
      'mlx5_ib0',
      '-p',
      '18515',
      '-s',
      '2',
      '-n',
      '10000',
      '-F',
      '10.0.0.2'
    ])
    const pod = perftestPod({
      settings: s,
      phase: { ...bw, gpusPerNode: 1 },
      pair,
      role: 'server',
      devices: pair.devices.slice(0, 2)
    })
    expect(pod.spec.containers[0].command).toContain('--use_cuda=0')
    expect(pod.spec.containers[1].command).not.toContain('--use_cuda=0')
    expect(clientScript(['a'], 2)).toBe('for attempt in 1 2; do a && exit 0; sleep 2; done; exit 1')
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

  it('recognises a perftest built without CUDA from its usage output', () => {
    const parsed = parsePerftest(usage, { tool: 'ib_write_bw' })
    expect(parsed.error?.kind).toBe('usage')
    expect(isCudaRejection(usage, parsed)).toBe(true)
    const other =
      "ib_write_bw: unrecognized option '--bogus'\n Usage:\n  ib_write_bw            start a server and wait for connection\n"
    expect(isCudaRejection(other, parsePerftest(other, { tool: 'ib_write_bw' }))).toBe(false)
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
      'ib_write_bw',
      200,
      parsePerftest(text, { tool: 'ib_write_bw' })
    )
    expect(m).toMatchObject({
      server: 'node-a',
      client: 'node-b',
      device: 'mlx5_ib2',
      bwAvgGbps: 196.55,
      bwPeakGbps: 196.8,
      linkGbps: 200
    })
    const failed = measurementFrom(
      pair,
      pair.devices[0],
      'ib_write_bw',
      200,
      parsePerftest(
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
    expect(refineOutliers(['a/mlx5_ib2 ↔ b/mlx5_ib2'], slow)).toEqual(['b/mlx5_ib2'])
    const cOut = [0, 1, 2, 3].map(i => `a/mlx5_ib${i} ↔ c/mlx5_ib${i}`)
    expect(refineOutliers(cOut, slow, new Map([['c', 4]]))).toEqual(['c'])
    expect(refineOutliers(['a/mlx5_ib0 ↔ a2/mlx5_ib0'], slow)).toEqual(['a/mlx5_ib0 ↔ a2/mlx5_ib0'])
    // A single-NIC node whose only device is named is the node.
    expect(refineOutliers(['a/mlx5_ib0 ↔ d/mlx5_ib0'], new Set(['d/mlx5_ib0']), new Map([['d', 1]]))).toEqual(
      ['d']
    )
  })
})
