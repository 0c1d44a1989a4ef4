// The transport check's container scripts (POSIX sh, after the worker snippet's UCX_NET_DEVICES prelude)
// and the reading of their logs. What they run: docs/transport-check.md#what-it-does.
import { BANDWIDTH_TEST, LATENCY_TEST, perftestClientArgv, perftestServerArgv } from './plan.js'
import { splitLogSections, type LogSection } from '../util/log-sections.js'

export const SECTION_MARK = '@@@ aks-rdma-action transport'

/** Client connection attempts (2 s apart) while the server runs its preflight. */
export const CONNECT_ATTEMPTS = 30

/** Words that may go into the scripts unquoted (IPs, numbers, flags). */
const SAFE_WORD = /^[A-Za-z0-9_./=:,@%+-]+$/

function word(a: string): string {
  if (!SAFE_WORD.test(a)) throw new Error(`unsafe word in a transport command: ${JSON.stringify(a)}`)
  return a
}

const PORT = '/sys/class/infiniband/$d/ports/1'

/** What every pod prints first: its view of the node, then UCX's. */
export const PREFLIGHT_SCRIPT = [
  `echo '${SECTION_MARK} preflight'`,
  'echo uid $(id -u)',
  'echo memlock $(ulimit -l)',
  'echo shm $(df -k /dev/shm 2>/dev/null | grep /dev/shm)',
  'echo infiniband $(ls /dev/infiniband 2>/dev/null)',
  'echo gpus $(nvidia-smi --query-gpu=pci.bus_id --format=csv,noheader 2>/dev/null)',
  'echo net-devices ${UCX_NET_DEVICES:-all}',
  'for d in $(ls /sys/class/infiniband 2>/dev/null); do',
  `  echo "port $d $(cat ${PORT}/state)|$(cat ${PORT}/link_layer)|$(cat ${PORT}/rate)"`,
  'done',
  'echo peermem $(cat /sys/module/nvidia_peermem/version 2>/dev/null || echo none)',
  "echo ucx $(ucx_info -v 2>/dev/null | grep 'Library version')",
  `echo '${SECTION_MARK} ucx_info'`,
  'ucx_info -d 2>&1'
].join('\n')

/** The server runs ucx_perftest twice: one run per client test. */
export function serverScript(): string {
  const run = perftestServerArgv().map(word).join(' ')
  return [
    PREFLIGHT_SCRIPT,
    `echo '${SECTION_MARK} server'`,
    `${run} 2>&1`,
    'echo "exit=$?"',
    `${run} 2>&1`,
    'echo "exit=$?"'
  ].join('\n')
}

/** A client run retried while the server does not listen yet, its output after `section`'s mark. */
function clientRun(section: string, argv: string[], env: string): string {
  const file = `/tmp/aks-rdma-ucx-${section}.log`
  const cmd = `${env}${argv.map(word).join(' ')} > ${file} 2>&1`
  const tries = Array.from({ length: CONNECT_ATTEMPTS }, (_, k) => k + 1).join(' ')
  const loop = `for attempt in ${tries}; do ${cmd}; c=$?; if [ $c -eq 0 ]; then exit 0; fi; if cat ${file} | grep -q "connect() failed"; then sleep 2; else exit $c; fi; done; exit 1`
  return [
    `echo '${SECTION_MARK} ${section}'`,
    `sh -c '${loop}'`,
    'c=$?',
    `cat ${file}`,
    'echo "exit=$c"'
  ].join('\n')
}

export function clientScript(serverIp: string): string {
  return [
    PREFLIGHT_SCRIPT,
    clientRun('bandwidth', perftestClientArgv(BANDWIDTH_TEST, serverIp), 'UCX_PROTO_INFO=y '),
    clientRun('latency', perftestClientArgv(LATENCY_TEST, serverIp), '')
  ].join('\n')
}

export type { LogSection } from '../util/log-sections.js'

/** A transport pod's log split by section (preflight, ucx_info, server, bandwidth, latency). */
export function splitTransportLog(log: string): Map<string, LogSection> {
  return splitLogSections(log, SECTION_MARK)
}

export interface IbPortView {
  device: string
  /** `ACTIVE`, `DOWN` … */
  state: string
  linkLayer: string
  rateGbps: number | null
}

export interface Preflight {
  uid: number | null
  /** `ulimit -l`: KiB, or null for unlimited. */
  memlockKiB: number | null
  memlock: string | null
  /** /dev/shm size in KiB (df -k). */
  shmKiB: number | null
  /** /dev/infiniband entries (uverbsN, umadN, rdma_cm). */
  infiniband: string[]
  /** nvidia-smi pci.bus_id of the GPUs the pod sees. */
  gpus: string[]
  /** UCX_NET_DEVICES after the prelude (`all` when unset). */
  netDevices: string
  ports: IbPortView[]
  /** nvidia_peermem's module version, or null when /sys/module has no nvidia_peermem. */
  peermem: string | null
  /** UCX's library version (ucx_info -v), or null when the image has no ucx_info. */
  ucxVersion: string | null
}

const DEVICE_NAME = /^[A-Za-z0-9_.:-]{1,64}$/

/** Reads the preflight section's lines. */
export function parsePreflight(text: string): Preflight {
  const p: Preflight = {
    uid: null,
    memlockKiB: null,
    memlock: null,
    shmKiB: null,
    infiniband: [],
    gpus: [],
    netDevices: 'all',
    ports: [],
    peermem: null,
    ucxVersion: null
  }
  for (const line of text.split('\n')) {
    const [key, ...rest] = line.trim().split(/\s+/)
    const value = rest.join(' ')
    switch (key) {
      case 'uid':
        p.uid = /^\d+$/.test(value) ? Number(value) : null
        break
      case 'memlock':
        p.memlock = value || null
        p.memlockKiB = /^\d+$/.test(value) ? Number(value) : null
        break
      case 'shm': {
        // `tmpfs 16777216 0 16777216 0% /dev/shm`: the size is the 1K-blocks column.
        const size = rest[1]
        p.shmKiB = size && /^\d+$/.test(size) ? Number(size) : null
        break
      }
      case 'infiniband':
        p.infiniband = rest.filter(f => DEVICE_NAME.test(f))
        break
      case 'gpus':
        p.gpus = rest.filter(f => /^[0-9A-Fa-f:.]+$/.test(f))
        break
      case 'net-devices':
        p.netDevices = value || 'all'
        break
      case 'port': {
        const device = rest[0] ?? ''
        if (!DEVICE_NAME.test(device)) break
        const [state = '', linkLayer = '', rate = ''] = rest.slice(1).join(' ').split('|')
        const r = /^(\d+(?:\.\d+)?)\s*Gb/.exec(rate.trim())
        p.ports.push({
          device,
          state: state.replace(/^\d+:\s*/, '').trim(),
          linkLayer: linkLayer.trim(),
          rateGbps: r ? Number(r[1]) : null
        })
        break
      }
      case 'peermem':
        p.peermem = value && value !== 'none' ? value : null
        break
      case 'ucx': {
        // `ucx # Library version: 1.19.0`
        const v = rest[rest.length - 1]
        p.ucxVersion = v && /^\d+(\.\d+)+/.test(v) ? v : null
        break
      }
    }
  }
  return p
}

/** The IB devices a UCX_NET_DEVICES value names (`mlx5_ib3:1,mlx5_ib4:1` → mlx5_ib3, mlx5_ib4); [] for all. */
export function netDeviceNames(netDevices: string): string[] {
  if (!netDevices || netDevices === 'all') return []
  return netDevices
    .split(',')
    .map(d => d.trim().replace(/:\d+$/, ''))
    .filter(Boolean)
}
