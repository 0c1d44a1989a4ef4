// Unit-test helper: the transport check's UCX pods as the kubelet and their scripts leave them,
// for the tests that drive the pods over memory-kube: the settings they are made for (mode verify,
// transport-check ucx, run 77), the statuses a worker container reports, and the logs the pods'
// scripts (src/transport/script.ts) print around real UCX outputs from test/fixtures/ucx.
import { readFileSync } from 'node:fs'
import { readSettings } from '../../src/settings/input-helper.js'
import type { Settings } from '../../src/settings/settings.js'
import { transportPodName } from '../../src/transport/pods.js'
import { SECTION_MARK } from '../../src/transport/script.js'
import { reader, VALID_APPLY } from './inputs.js'
import type { MemoryCluster } from './memory-cluster.js'
import { memoryKube, setPodStatus, waitingOn as waitingOnPod, type MemoryKube } from './memory-kube.js'

/** The work namespace the pods run in by default. */
export const UCX_NS = 'aks-rdma-verify'

const ucxFixture = (name: string) => readFileSync(new URL(`../fixtures/ucx/${name}`, import.meta.url), 'utf8')

/** Settings with the UCX transport check, GITHUB_RUN_ID 77, and `wait` overridden as given. */
export const ucxSettings = (over: Partial<Settings['wait']> = {}): Settings => {
  const s = readSettings(
    reader({ ...VALID_APPLY, mode: 'verify', 'transport-check': 'ucx' }),
    { GITHUB_RUN_ID: '77' },
    { nonce: 'n0' }
  ).settings
  return { ...s, wait: { ...s.wait, ...over } }
}

/** The preflight and ucx_info sections every pod prints first (script.ts PREFLIGHT_SCRIPT). */
export const preflight = [
  `${SECTION_MARK} preflight`,
  'uid 1000',
  'memlock unlimited',
  'shm tmpfs 16777216 0 16777216 0% /dev/shm',
  'infiniband rdma_cm umad0 uverbs0',
  'gpus 00000001:00:00.0',
  'net-devices mlx5_ib0:1',
  'port mlx5_ib0 4: ACTIVE|InfiniBand|200 Gb/sec (4X HDR)',
  'peermem 580.126.20',
  'ucx # Library version: 1.19.0',
  `${SECTION_MARK} ucx_info`,
  ucxFixture('07-ucx_info-d-mlx5-rc_verbs-ucx7960.txt').trimEnd()
].join('\n')

/** UCX_PROTO_INFO's table of the GET, in the layout of fixture 04 (proto_debug.c). */
export const GET_TABLE = [
  '[1767930429.284905] [ucx-client:45:0]   +---------------------------+----------------------------------------------------------------+',
  '[1767930429.284906] [ucx-client:45:0]   | perftest inter-node cfg#1 | remote memory read by ucp_get* into cuda/GPU0 from cuda/dev[0] |',
  '[1767930429.284906] [ucx-client:45:0]   +---------------------------+-------------------+--------------------------------------------+',
  '[1767930429.284906] [ucx-client:45:0]   |                    0..inf | zero-copy         | rc_mlx5/mlx5_ib0:1                         |',
  '[1767930429.284907] [ucx-client:45:0]   +---------------------------+-------------------+--------------------------------------------+'
].join('\n')

/** ucx_perftest's final results (392.11 Gb/s). */
export const RESULTS = ucxFixture('01-ucx_perftest-tag_bw-final-ucx10649.txt').trimEnd()

/** The client's log: preflight, then bandwidth (with the protocol table) and latency runs. */
export const clientLog = (table = GET_TABLE) =>
  [
    preflight,
    `${SECTION_MARK} bandwidth`,
    table,
    RESULTS,
    'exit=0',
    `${SECTION_MARK} latency`,
    RESULTS,
    'exit=0'
  ].join('\n')

/** The server's log: preflight, then the CUDA server's output. */
export const serverLog = [
  preflight,
  `${SECTION_MARK} server`,
  ucxFixture('02-ucx_perftest-cuda-server-box-interleaved-ucx11865.txt').trimEnd(),
  'exit=0'
].join('\n')

/** A pod whose worker runs, with its IP. */
export const runningWithIp = {
  phase: 'Running',
  podIP: '10.244.1.7',
  containerStatuses: [
    { name: 'worker', ready: true, state: { running: { startedAt: '2026-12-02T10:00:00Z' } } }
  ]
}
/** A pod whose worker finished. */
export const succeeded = {
  phase: 'Succeeded',
  podIP: '10.244.2.9',
  containerStatuses: [
    { name: 'worker', ready: false, state: { terminated: { exitCode: 0, reason: 'Completed' } } }
  ]
}

/** Until the check waits on pod `name` (created, watched). */
export const waitingOn = (f: { cluster: MemoryCluster }, name: string, ns = UCX_NS): Promise<void> =>
  waitingOnPod(f.cluster, name, ns)

/** The pod with a new status, as the kubelet reports it. */
export const setStatus = (f: { cluster: MemoryCluster }, name: string, status: object, ns = UCX_NS): void =>
  setPodStatus(f.cluster, name, ns, status)

/** The fake client of a check under `s`, its two pods' names, and the logs given for them. */
export function ucxPods(
  s: Settings,
  logs: { server?: string | Error; client?: string | Error } = {}
): { f: MemoryKube; server: string; client: string } {
  const f = memoryKube()
  const server = transportPodName(s, 'server')
  const client = transportPodName(s, 'client')
  if (logs.server !== undefined) f.logs.set(server, logs.server)
  if (logs.client !== undefined) f.logs.set(client, logs.client)
  return { f, server, client }
}
