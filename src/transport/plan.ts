// The transport check as the settings define it: its pods, preflight, ucx_perftest commands and pass
// rule; plan prints it and the check runs it. The pass mark and its sources: docs/transport-check.md.
import type { Settings } from '../settings/settings.js'
import { dynamoWorkerEnv, SHM_SIZE } from './dynamo-worker.js'
import { workloadResources } from '../model/workload.js'

export const TRANSPORT_PASS_RATIO = 0.8

/** ucx_perftest's own default port. */
export const UCX_PERFTEST_PORT = 13337

/** One-sided RDMA READ of GPU memory, as NIXL reads the KV cache: 64 MiB messages. */
export const BANDWIDTH_TEST = {
  test: 'ucp_get',
  size: 64 * 2 ** 20,
  iterations: 200,
  warmup: 20
} as const

/** Tag-matching ping-pong of 8 bytes of GPU memory: reported, not judged. */
export const LATENCY_TEST = { test: 'tag_lat', size: 8, iterations: 10_000, warmup: 100 } as const

/** The placeholder of the server pod's IP in the client's commands. */
export const SERVER_IP = '<server-pod-ip>'

export function perftestServerArgv(): string[] {
  return ['ucx_perftest', '-p', String(UCX_PERFTEST_PORT)]
}

export function perftestClientArgv(
  t: typeof BANDWIDTH_TEST | typeof LATENCY_TEST,
  serverIp = SERVER_IP
): string[] {
  return [
    'ucx_perftest',
    serverIp,
    '-p',
    String(UCX_PERFTEST_PORT),
    '-t',
    t.test,
    '-m',
    'cuda,cuda',
    '-s',
    String(t.size),
    '-n',
    String(t.iterations),
    '-w',
    String(t.warmup)
  ]
}

/** What each pod checks before the transfer, in order (the preflight's lines). */
export const PREFLIGHT_CHECKS = [
  'id -u: the user the image runs as (Dynamo runtime images: dynamo, UID 1000)',
  'ulimit -l: the locked-memory limit UCX registers memory under (IPC_LOCK is not effective for a non-root user)',
  'df -k /dev/shm: the memory-backed /dev/shm',
  'ls /dev/infiniband: the uverbs devices rdma/<name> gave the pod',
  'nvidia-smi --query-gpu=pci.bus_id: the GPU the pod got, and UCX_NET_DEVICES from the GPU→NIC map',
  '/sys/class/infiniband/<dev>/ports/1/{state,link_layer,rate}: the IB port state',
  '/sys/module/nvidia_peermem/version: nvidia_peermem loaded (GPUDirect through peer memory)',
  'ucx_info -d: the memory domains UCX opens (cuda among the mlx5 domain memory types, or dma-buf registration) and its transports'
] as const

export interface TransportPlan {
  enabled: boolean
  check: Settings['transport']['check']
  image: string
  /** Who the pods run as. */
  user: string
  /** What each pod requests (the workload snippet with one GPU). */
  resources: Record<string, string>
  shm: string
  env: Array<{ name: string; value: string }>
  netDevices: string
  preflight: readonly string[]
  server: string[]
  client: string[][]
  passRule: string
}

export function transportPlan(s: Settings): TransportPlan {
  const netDevices =
    s.transport.ucxEnv === 'dynamo'
      ? 'set at start to <the IB device local to the pod’s GPU>:1 from the probe’s GPU→NIC map'
      : 'unset (transport-ucx-env: defaults): UCX’s default, every device the pod can open'
  return {
    enabled: s.transport.check !== 'none',
    check: s.transport.check,
    image: s.transport.image,
    user: 'the image’s own (no securityContext; Dynamo runtime images run as dynamo, UID 1000), unprivileged, no added capability',
    resources: workloadResources(s, 1),
    shm: `emptyDir medium Memory, sizeLimit ${SHM_SIZE}, at /dev/shm`,
    env: dynamoWorkerEnv(s),
    netDevices,
    preflight: PREFLIGHT_CHECKS,
    server: perftestServerArgv(),
    client: [['UCX_PROTO_INFO=y', ...perftestClientArgv(BANDWIDTH_TEST)], perftestClientArgv(LATENCY_TEST)],
    passRule: `one worker pod on each of two RDMA nodes; UCX must move GPU memory over an InfiniBand transport with zero-copy (UCX_PROTO_INFO: gpudirect-rdma) at ≥ ${TRANSPORT_PASS_RATIO} × the NIC's link rate; /dev/shm ≥ ${SHM_SIZE}`
  }
}
