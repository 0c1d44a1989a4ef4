// The simulated perftest's command-line validation against perftest's own texts: each refusal
// fixture (test/fixtures/perftest-refusals, composed from linux-rdma/perftest's source at the tags
// SOURCES.md names) is exactly what the simulator prints (stderr, then stdout when it exits) for a
// command line perftest refuses that way, at every modelled release that refuses it; releases that
// do not check accept. Also: which release and build an image carries, and the notices a CUDA run
// prints.
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import {
  bytesUnit,
  checkPerftestArgv,
  perftestBuildOf,
  PERFTEST_RELEASES,
  type PerftestReleaseName
} from '../../../sim/kube/workloads/perftest-params.js'

const dir = path.resolve(process.cwd(), 'test/fixtures/perftest-refusals')
const names = Object.keys(JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8')) as object)
const fixture = (prefix: string) =>
  readFileSync(
    path.join(
      dir,
      names.find(f => f.startsWith(`${prefix}-`))!
    ),
    'utf8'
  )

const ALL: PerftestReleaseName[] = ['4.5-0.20', '23.10', '25.10', '26.04']
const build = (release: PerftestReleaseName, cuda = true) => ({
  version: PERFTEST_RELEASES[release].version,
  cuda
})

/** What the simulated perftest prints for an argv, or null when it accepts it. */
function printed(argv: string[], release: PerftestReleaseName, cuda = true): string | null {
  const v = checkPerftestArgv(argv, build(release, cuda))
  return v.ok ? null : v.refusal.stderr + v.refusal.stdout
}

const CASES: Array<
  [string, string[], PerftestReleaseName[], { cuda?: boolean; accepted?: PerftestReleaseName[] }]
> = [
  ['01', ['ib_write_lat', '-s', '2', '--use_cuda=0'], ['4.5-0.20', '23.10', '25.10'], {}],
  ['02', ['ib_write_lat', '-s', '2', '--use_cuda=0'], ['26.04'], {}],
  ['03', ['ib_send_lat', '-s', '2', '-I', '64', '--use_cuda=0'], ['23.10'], { accepted: ['4.5-0.20'] }],
  ['04', ['ib_send_lat', '-s', '2', '-I', '64', '--use_cuda=0'], ['25.10', '26.04'], {}],
  ['05', ['ib_write_bw', '--use_cuda=0'], ['23.10', '25.10', '26.04'], { cuda: false }],
  ['06', ['ib_write_bw', '--use_cuda=0'], ['4.5-0.20'], { cuda: false }],
  ['07', ['ib_write_bw', '-s', '2', '-s', '4'], ['23.10', '25.10', '26.04'], { accepted: ['4.5-0.20'] }],
  [
    '08',
    ['ib_write_bw', '--perform_warm_up', '--perform_warm_up'],
    ['23.10', '25.10', '26.04'],
    { accepted: ['4.5-0.20'] }
  ],
  ['09', ['ib_write_bw', '-n', '4'], ['23.10', '25.10', '26.04'], {}],
  ['10', ['ib_write_bw', '-p', '18515x'], ALL, {}],
  ['11', ['ib_write_lat', '-b'], ALL, {}],
  ['12', ['ib_write_lat', '-q', '2'], ALL, {}],
  ['13', ['ib_write_bw', '10.0.0.1', '10.0.0.2'], ALL, {}],
  ['14', ['ib_write_bw', '--use_cuda=-1'], ALL, {}],
  ['15', ['ib_write_bw', '-a', '-D', '10'], ALL, {}],
  ['16', ['ib_write_bw', '-n'], ALL, {}]
]

describe('perftest refuses as its source does', () => {
  it.each(CASES)('fixture %s: %j', (prefix, argv, releases, { cuda = true, accepted = [] }) => {
    const text = fixture(prefix)
    for (const release of releases)
      expect({ release, out: printed(argv, release, cuda) }).toEqual({ release, out: text })
    for (const release of accepted)
      expect({ release, out: printed(argv, release, cuda) }).toEqual({ release, out: null })
  })

  it('--use_cuda_dmabuf: taken after --use_cuda in every modelled release, refused before it or in a build without CUDA', () => {
    for (const release of ALL) {
      expect(printed(['ib_write_bw', '--use_cuda=0', '--use_cuda_dmabuf'], release)).toBeNull()
      expect(printed(['ib_write_bw', '--use_cuda_dmabuf', '--use_cuda=0'], release)).toContain(
        'CUDA DMA-BUF cannot be used without CUDA'
      )
    }
    expect(printed(['ib_write_bw', '--use_cuda=0', '--use_cuda_dmabuf'], '25.10', false)).not.toBeNull()
  })

  it('exit codes: 1 for every refusal', () => {
    for (const [, argv, releases, { cuda = true }] of CASES)
      for (const release of releases) {
        const v = checkPerftestArgv(argv, build(release, cuda))
        expect(v.ok ? 0 : v.refusal.code).toBe(1)
      }
  })

  it('26.04 takes GPU memory for write latency with --write_with_imm; 25.10 refuses it, and before 24.01 there is no such option', () => {
    const argv = ['ib_write_lat', '-s', '2', '--write_with_imm', '--use_cuda=0']
    expect(checkPerftestArgv(argv, build('26.04'))).toMatchObject({
      ok: true,
      options: { writeImm: true, cuda: 0 }
    })
    expect(printed(argv, '25.10')).toBe(fixture('01'))
    expect(printed(argv, '23.10')).toMatch(/^ib_write_lat: unrecognized option '--write_with_imm'\n/)
    expect(printed(['ib_read_bw', '--write_with_imm'], '26.04')).toBe(
      'Write_with_imm can only be used with write_lat and write_bw tests\n Parser function exited with Error\n'
    )
  })

  it('before 23.07 the iteration count may reach 10^8 only', () => {
    expect(printed(['ib_write_bw', '-n', '4'], '4.5-0.20')).toBe(
      ' Iteration num should be between 5 and 100000000\n Parser function exited with Error\n'
    )
  })

  it('getopt: glued and clustered short options, --name=value, a missing or surplus argument', () => {
    const v = checkPerftestArgv(
      ['ib_write_bw', '-aF', '-s65536', '--iters=5000', '-dmlx5_0', 'host'],
      build('25.10')
    )
    expect(v).toMatchObject({
      ok: true,
      options: { all: true, cpuFreq: true, size: 65536, iters: 5000, device: 'mlx5_0', host: 'host' }
    })
    expect(printed(['ib_write_bw', '--report_gbits=1'], '25.10')).toMatch(
      /^ib_write_bw: option '--report_gbits' doesn't allow an argument\n Invalid Command or flag\./
    )
    expect(printed(['ib_write_bw', '-Y'], '25.10')).toMatch(/^ib_write_bw: invalid option -- 'Y'\n/)
    expect(printed(['ib_write_bw', '-s', '4K', '--', '-host'], '25.10')).toBeNull()
    expect(checkPerftestArgv(['ib_write_bw', '-s', '1M'], build('25.10'))).toMatchObject({
      options: { size: 1048576 }
    })
  })

  it('notices on stdout: no peak with -D or more than 20000 iterations, GPU memory never inline', () => {
    const notices = (argv: string[], release: PerftestReleaseName = '25.10') => {
      const v = checkPerftestArgv(argv, build(release))
      return v.ok ? v.notices : null
    }
    expect(notices(['ib_write_bw', '-n', '20001'])).toEqual([
      " WARNING: BW peak won't be measured in this run."
    ])
    expect(notices(['ib_write_bw', '-D', '5'])).toEqual([" WARNING: BW peak won't be measured in this run."])
    expect(notices(['ib_write_lat', '-n', '20001'])).toEqual([])
    expect(notices(['ib_write_bw', '-s', '8388608', '--use_cuda=1'])).toEqual([
      "Perftest doesn't supports CUDA tests with inline messages: inline size set to 0"
    ])
    expect(notices(['ib_write_bw', '--use_cuda=1'], '4.5-0.20')).toEqual([])
  })

  it('the image names its perftest: a version tag, else the newest modelled release; nocuda = no CUDA', () => {
    expect(perftestBuildOf('docker.io/mellanox/cuda-perftest:latest')).toEqual(build('26.04'))
    expect(perftestBuildOf('docker.io/mellanox/cuda-perftest@sha256:abc')).toEqual(build('26.04'))
    expect(perftestBuildOf('registry:5000/perftest:25.10.0-0.128')).toEqual(build('25.10'))
    expect(perftestBuildOf('ghcr.io/x/perftest-nocuda:v4.5-0.20')).toEqual(build('4.5-0.20', false))
    expect(perftestBuildOf('ghcr.io/x/perftest-nocuda:24.04')).toEqual({ version: [24, 4, 0], cuda: false })
    expect(perftestBuildOf('ghcr.io/x/perftest:26.04.17')).toEqual(build('26.04'))
    expect(bytesUnit(build('23.10'))).toBe('MB/sec')
    expect(bytesUnit(build('25.10'))).toBe('MiB/sec')
  })
})
