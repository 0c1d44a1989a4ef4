// Every perftest command line the benchmark puts into a pod, as perftest itself would take it: the
// argv is read back out of the pods the runner builds (every test, role, NIC and CUDA device, the
// GPU phase and its host-memory repeat) for every settings combination that changes it (GPUDirect
// on and off, every supported size: 8 or 4 GPUs and NICs), then run through the simulated perftest's parameter
// validation (sim/kube/workloads/perftest-params.ts, read from linux-rdma/perftest's
// src/perftest_parameters.c) at each modelled release. A flag combination the real tool refuses
// fails here: CUDA memory for write latency, a duplicated option, an iteration count out of range.
// Builds without CUDA must refuse --use_cuda in the way the action recognises (its host-memory
// repeat), and nothing else.
import { describe, expect, it } from '@jest/globals'
import { devicePairs } from '../../../src/benchmark/pairing.js'
import { perftestPod, type PairSpec, type Role } from '../../../src/benchmark/perftest-pods.js'
import { isCudaRejection } from '../../../src/benchmark/phase.js'
import { BENCHMARK_TESTS, testPhases } from '../../../src/benchmark/runner.js'
import { benchmarkPlan } from '../../../src/benchmark/plan.js'
import { describePerftestError, parsePerftestOutput } from '../../../src/parse/perftest.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import type { Settings } from '../../../src/settings/settings.js'
import { findRdmaVmSize, supportedVmSizes } from '../../../src/settings/vm-sizes.js'
import {
  checkPerftestArgv,
  perftestBuildOf,
  PERFTEST_RELEASES,
  type PerftestBuild
} from '../../../sim/kube/workloads/perftest-params.js'
import { writeLatencyArgv } from '../../support/perftest-pods.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'

/** An image of the user's, built for arm64: the default benchmark image is amd64 only. */
const ARM64_PERFTEST = 'registry.example.com/perftest-cuda:26.04-arm64'

function settings(over: Record<string, string>): Settings {
  const arm64 = findRdmaVmSize(over['vm-size'] ?? '')?.arch === 'arm64'
  const image: Record<string, string> = arm64 ? { 'benchmark-image': ARM64_PERFTEST } : {}
  return readSettings(reader({ ...VALID_APPLY, mode: 'verify', ...image, ...over })).settings
}

/** The settings that change a perftest command line: the size's GPUs and NICs, GPUDirect on or off. */
const COMBINATIONS = supportedVmSizes().flatMap(({ name: vmSize }) =>
  ['true', 'false'].map(gpudirect => ({ vmSize, gpudirect }))
)

/** A node pair of the size: every NIC, each with its local GPU (or none where the size has fewer GPUs). */
function pairOf(s: Settings): PairSpec {
  const size = findRdmaVmSize(s.nodePool.vmSize)!
  const devs = Array.from({ length: size.ibNics }, (_, i) => `mlx5_ib${i}`)
  const gpus = size.gpus
  return {
    id: 'p1',
    server: 'node-a',
    client: 'node-b',
    devices: devicePairs(devs, devs).map(d =>
      d.index < gpus ? { ...d, cuda: { server: gpus - 1 - d.index, client: d.index } } : d
    ),
    gpus: { server: gpus, client: gpus }
  }
}

/** The perftest command lines in a pod's script (unquoted words: the script refuses anything else). */
function argvsOf(script: string): string[][] {
  return [...script.matchAll(/(?:^sh -c '|; do if )(ib_\w+ [^>]*?) > \/tmp\//gm)].map(m => m[1].split(' '))
}

/** Every argv the runner can put into a pod for these settings. */
function everyArgv(s: Settings): string[][] {
  const pair = pairOf(s)
  const out: string[][] = []
  for (const t of BENCHMARK_TESTS) {
    const { first, hostRepeat } = testPhases(s, t, 1, s.benchmark.gpudirect)
    for (const phase of [first, ...(hostRepeat ? [hostRepeat] : [])])
      for (const role of ['server', 'client'] as Role[]) {
        const pod = perftestPod({
          settings: s,
          phase,
          pair,
          role,
          devices: pair.devices,
          serverIp: '10.244.1.7'
        })
        out.push(...argvsOf(pod.spec.containers[0].command[2]))
      }
  }
  return out
}

const RELEASES = Object.entries(PERFTEST_RELEASES).map(([name, r]) => [name, r.version] as const)

describe('every perftest command line the benchmark runs', () => {
  it('is read back from the pods: each NIC, role and test, the GPU phase and its host repeat', () => {
    const s = settings({ 'vm-size': 'Standard_ND96isr_H100_v5' })
    const argvs = everyArgv(s)
    // 8 NICs × 2 roles × (bw with CUDA + bw from host memory + lat from host memory)
    expect(argvs).toHaveLength(8 * 2 * 3)
    expect(argvs.filter(a => a.some(w => w.startsWith('--use_cuda')))).toHaveLength(16)
    expect(
      argvs.filter(a => a[0] === 'ib_write_lat').every(a => !a.some(w => w.startsWith('--use_cuda')))
    ).toBe(true)
    expect(argvs).toContainEqual([
      'ib_write_bw',
      '-d',
      'mlx5_ib3',
      '-p',
      '18518',
      '-s',
      '8388608',
      '-n',
      '5000',
      '-F',
      '--report_gbits',
      '--perform_warm_up',
      '--use_cuda=3',
      '10.244.1.7'
    ])
  })

  describe.each(COMBINATIONS)('$vmSize, benchmark-gpudirect $gpudirect', ({ vmSize, gpudirect }) => {
    const argvsOfCombination = () =>
      everyArgv(settings({ 'vm-size': vmSize, 'benchmark-gpudirect': gpudirect }))

    it.each(RELEASES)('perftest %s built with CUDA accepts each of them', (_name, version) => {
      const build: PerftestBuild = { version, cuda: true }
      for (const argv of argvsOfCombination()) {
        const v = checkPerftestArgv(argv, build)
        expect({ argv: argv.join(' '), refused: v.ok ? null : v.refusal }).toEqual({
          argv: argv.join(' '),
          refused: null
        })
      }
    })

    it.each(RELEASES)(
      'perftest %s built without CUDA refuses only --use_cuda, as the action recognises',
      (_name, version) => {
        const build: PerftestBuild = { version, cuda: false }
        for (const argv of argvsOfCombination()) {
          const v = checkPerftestArgv(argv, build)
          const usesCuda = argv.some(w => w.startsWith('--use_cuda'))
          expect({ argv: argv.join(' '), accepted: v.ok }).toEqual({
            argv: argv.join(' '),
            accepted: !usesCuda
          })
          if (v.ok) continue
          // What the server's section holds: stderr first, stdout when perftest exits.
          const parsed = parsePerftestOutput(v.refusal.stderr + v.refusal.stdout, { tool: argv[0] })
          expect(parsed.error).toMatchObject({ kind: 'cuda', flag: '--use_cuda' })
          expect(isCudaRejection(parsed)).toBe(true)
        }
      }
    )
  })

  it('the plan the action prints is the one it runs: NHC’s bandwidth settings, latency from host memory', () => {
    const plan = benchmarkPlan(settings({ 'vm-size': 'Standard_ND96isr_H100_v5' }))
    expect(plan.tests.map(t => [t.tool, t.gpuMemory, t.serverArgs.join(' ')])).toEqual([
      [
        'ib_write_bw',
        true,
        '-d <device> -p <port> -s 8388608 -n 5000 -F --report_gbits --perform_warm_up --use_cuda=<NIC-local GPU>'
      ],
      ['ib_write_lat', false, '-d <device> -p <port> -s 2 -n 1000 -F']
    ])
  })

  it('the default image is taken as a CUDA build of the newest modelled release', () => {
    const image = settings({}).benchmark.image
    expect(perftestBuildOf(image)).toEqual({ version: PERFTEST_RELEASES['26.04'].version, cuda: true })
  })

  it('CUDA memory for write latency — what the benchmark once ran — is refused by every release that checks it', () => {
    const argv = [...writeLatencyArgv(), '--use_cuda=0']
    const messages = RELEASES.map(([name, version]) => {
      const v = checkPerftestArgv(argv, { version, cuda: true })
      if (v.ok) return [name, 'accepted']
      const parsed = parsePerftestOutput(v.refusal.stderr + v.refusal.stdout, { tool: 'ib_write_lat' })
      return [name, v.refusal.code, describePerftestError(parsed.error!)]
    })
    expect(messages).toEqual([
      ['4.5-0.20', 1, 'refused --use_cuda: Perftest supports CUDA latency tests with read/send verbs only'],
      ['23.10', 1, 'refused --use_cuda: Perftest supports CUDA latency tests with read/send verbs only'],
      ['25.10', 1, 'refused --use_cuda: Perftest supports CUDA latency tests with read/send verbs only'],
      [
        '26.04',
        1,
        "refused --use_cuda: Perftest doesn't support CUDA latency test with write (without immediate) verb"
      ]
    ])
  })
})
