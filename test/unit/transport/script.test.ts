// The transport check's container scripts run by a real POSIX sh, with stand-ins for the image's
// programs (ucx_perftest, ucx_info, nvidia-smi, sleep) first on PATH that record how they were
// called: the sections the log is split into, the server's two runs, the client's retries while
// the server does not listen yet (and only then), each run's exit code; then the reading of a
// log and of the preflight lines at their edges.
import { execFileSync } from 'node:child_process'
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import {
  BANDWIDTH_TEST,
  LATENCY_TEST,
  perftestClientArgv,
  perftestServerArgv
} from '../../../src/transport/plan.js'
import {
  CONNECT_ATTEMPTS,
  clientScript,
  netDeviceNames,
  parsePreflight,
  serverScript,
  splitTransportLog
} from '../../../src/transport/script.js'

let bin: string
let calls: string

/** A stand-in program: records `<name> <argv> | UCX_PROTO_INFO=<v>` and runs `body`. */
function standIn(name: string, body: string): void {
  const file = path.join(bin, name)
  writeFileSync(
    file,
    `#!/bin/sh\necho "${name} $* | UCX_PROTO_INFO=\${UCX_PROTO_INFO:-unset}" >> "${calls}"\n${body}\n`
  )
  chmodSync(file, 0o755)
}

function run(script: string): string {
  return execFileSync('sh', ['-c', script], {
    encoding: 'utf8',
    env: { PATH: `${bin}:/usr/bin:/bin`, HOME: bin }
  })
}

const recorded = (name: string) =>
  readFileSync(calls, 'utf8')
    .split('\n')
    .filter(l => l.startsWith(`${name} `))

beforeEach(() => {
  bin = mkdtempSync(path.join(tmpdir(), 'transport-script-'))
  calls = path.join(bin, 'calls.log')
  writeFileSync(calls, '')
  standIn('nvidia-smi', 'echo 00000001:00:00.0')
  standIn('ucx_info', '[ "$1" = -v ] && echo "# Library version: 1.19.0" || echo "# Memory domain: mlx5_ib0"')
  standIn('sleep', 'true')
})
afterEach(() => rmSync(bin, { recursive: true, force: true }))

describe('the server script', () => {
  it('prints its preflight and UCX’s view, then serves two runs, each with its exit code', () => {
    standIn('ucx_perftest', 'echo "served"; exit 0')
    const sections = splitTransportLog(run(serverScript()))
    expect([...sections.keys()]).toEqual(['preflight', 'ucx_info', 'server'])
    expect(sections.get('server')).toEqual({ text: 'served\nserved\n', exitCode: 0 })
    expect(sections.get('ucx_info')!.text).toContain('# Memory domain: mlx5_ib0')
    const preflight = parsePreflight(sections.get('preflight')!.text)
    expect(preflight.uid).toBe(Number(execFileSync('id', ['-u'], { encoding: 'utf8' }).trim()))
    expect(preflight.gpus).toEqual(['00000001:00:00.0'])
    expect(preflight.ucxVersion).toBe('1.19.0')
    expect(preflight.netDevices).toBe('all')
    expect(recorded('ucx_perftest')).toEqual([
      `${perftestServerArgv().join(' ')} | UCX_PROTO_INFO=unset`,
      `${perftestServerArgv().join(' ')} | UCX_PROTO_INFO=unset`
    ])
  })

  it('reports the last run’s exit code when a run fails', () => {
    standIn('ucx_perftest', 'echo "bind failed"; exit 5')
    expect(splitTransportLog(run(serverScript())).get('server')).toEqual({
      text: 'bind failed\nbind failed\n',
      exitCode: 5
    })
  })
})

describe('the client script', () => {
  const bandwidth = perftestClientArgv(BANDWIDTH_TEST, '10.0.0.7').join(' ')
  const latency = perftestClientArgv(LATENCY_TEST, '10.0.0.7').join(' ')

  it('retries while the server does not listen yet, then runs bandwidth (with protocol info) and latency', () => {
    // Fails to connect on its first two calls, then succeeds.
    standIn(
      'ucx_perftest',
      `n=$(grep -c '^ucx_perftest ' "${calls}"); if [ "$n" -le 2 ]; then echo "connect() failed: Connection refused"; exit 1; fi; echo "result $n"`
    )
    const sections = splitTransportLog(run(clientScript('10.0.0.7')))
    expect([...sections.keys()]).toEqual(['preflight', 'ucx_info', 'bandwidth', 'latency'])
    expect(sections.get('bandwidth')).toEqual({ text: 'result 3', exitCode: 0 })
    expect(sections.get('latency')).toEqual({ text: 'result 4\n', exitCode: 0 })
    expect(recorded('ucx_perftest')).toEqual([
      `${bandwidth} | UCX_PROTO_INFO=y`,
      `${bandwidth} | UCX_PROTO_INFO=y`,
      `${bandwidth} | UCX_PROTO_INFO=y`,
      `${latency} | UCX_PROTO_INFO=unset`
    ])
    // The protocol info is the bandwidth run's own environment, not the retry loop's.
    expect(recorded('sleep')).toEqual(['sleep 2 | UCX_PROTO_INFO=unset', 'sleep 2 | UCX_PROTO_INFO=unset'])
  })

  it('does not retry any other failure, and keeps its exit code and output', () => {
    standIn('ucx_perftest', 'echo "UCX ERROR no such device"; exit 3')
    const sections = splitTransportLog(run(clientScript('10.0.0.7')))
    expect(sections.get('bandwidth')).toEqual({ text: 'UCX ERROR no such device', exitCode: 3 })
    expect(sections.get('latency')).toEqual({ text: 'UCX ERROR no such device\n', exitCode: 3 })
    expect(recorded('ucx_perftest')).toHaveLength(2)
    expect(recorded('sleep')).toEqual([])
  })

  it(`gives up after ${CONNECT_ATTEMPTS} attempts when the server never listens`, () => {
    standIn('ucx_perftest', 'echo "connect() failed: Connection refused"; exit 1')
    const sections = splitTransportLog(run(clientScript('10.0.0.7')))
    expect(sections.get('bandwidth')).toEqual({ text: 'connect() failed: Connection refused', exitCode: 1 })
    expect(recorded('ucx_perftest')).toHaveLength(2 * CONNECT_ATTEMPTS)
    expect(recorded('sleep')).toHaveLength(2 * CONNECT_ATTEMPTS)
  })
})

describe('a transport log read back', () => {
  it('ignores what comes before the first mark and reads CRLF and CR line ends', () => {
    const log = [
      'prelude noise',
      '@@@ aks-rdma-action transport server',
      'a',
      ' exit=12 ',
      'b',
      'exit=0',
      '@@@ aks-rdma-action transport  latency  ',
      'x'
    ].join('\r\n')
    const sections = splitTransportLog(log.replace('a\r\n', 'a\r'))
    expect([...sections.keys()]).toEqual(['server', 'latency'])
    expect(sections.get('server')).toEqual({ text: 'a\nb', exitCode: 0 })
    expect(sections.get('latency')).toEqual({ text: 'x', exitCode: null })
  })

  it('takes only whole `exit=<digits>` lines as exit codes', () => {
    const log = ['@@@ aks-rdma-action transport bandwidth', 'exit=1', 'an exit=2', 'exit=3x', 'exit='].join(
      '\n'
    )
    expect(splitTransportLog(log).get('bandwidth')).toEqual({
      text: 'an exit=2\nexit=3x\nexit=',
      exitCode: 1
    })
  })

  it('reads no section from a line that only starts like the mark', () => {
    expect([...splitTransportLog('@@@ aks-rdma-action transportserver\nexit=0').keys()]).toEqual([])
  })
})

describe('the preflight lines at their edges', () => {
  it('leaves what it cannot read empty, never guessed', () => {
    expect(
      parsePreflight(
        [
          'uid 10a',
          'memlock unlimited',
          'shm',
          'infiniband',
          'gpus ERROR 0000:01:00.0',
          'net-devices',
          'port',
          'port bad/name 1: ACTIVE|InfiniBand|200 Gb/sec',
          'port mlx5_0 ACTIVE|InfiniBand|fast',
          'peermem 1.0',
          'ucx'
        ].join('\n')
      )
    ).toEqual({
      uid: null,
      memlockKiB: null,
      memlock: 'unlimited',
      shmKiB: null,
      infiniband: [],
      gpus: ['0000:01:00.0'],
      netDevices: 'all',
      ports: [{ device: 'mlx5_0', state: 'ACTIVE', linkLayer: 'InfiniBand', rateGbps: null }],
      peermem: '1.0',
      ucxVersion: null
    })
  })

  it('reads a fractional rate, an indented line and a df line without its size', () => {
    const p = parsePreflight(
      ['  port mlx5_1 4: ACTIVE | InfiniBand | 12.5 Gb/sec', 'shm tmpfs - 0', 'memlock', 'uid 0'].join('\n')
    )
    expect(p.ports).toEqual([{ device: 'mlx5_1', state: 'ACTIVE', linkLayer: 'InfiniBand', rateGbps: 12.5 }])
    expect(p.shmKiB).toBeNull()
    expect(p.memlock).toBeNull()
    expect(p.uid).toBe(0)
  })
})

describe('the devices UCX_NET_DEVICES names', () => {
  it('each device without its port; none for all or unset', () => {
    expect(netDeviceNames('mlx5_ib3:1, mlx5_ib4:1,,mlx5_ib5')).toEqual(['mlx5_ib3', 'mlx5_ib4', 'mlx5_ib5'])
    expect(netDeviceNames('all')).toEqual([])
    expect(netDeviceNames('')).toEqual([])
  })
})
