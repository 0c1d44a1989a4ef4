// What an NVIDIA Dynamo worker on the RDMA pool puts in its pod; the transport check's pods are built from
// it and the README shows it. What it holds: docs/transport-check.md#the-worker-snippet-the-check-proves.
import type { Settings } from '../settings/settings.js'
import { ucxGpuDirectEnv } from '../model/gpudirect.js'
import { poolTolerations, workloadResources } from '../model/workload.js'
import { LABELS } from '../model/types.js'

/**
 * Dynamo's production UCX settings for InfiniBand (ai-dynamo/dynamo
 * docs/pages/kubernetes/disagg-communication-guide.md, "Complete Production Configuration"),
 * memory registration included: on-demand paging, else the registration cache.
 */
export const DYNAMO_UCX_ENV: ReadonlyArray<{ name: string; value: string }> = [
  { name: 'UCX_TLS', value: 'rc_x,rc,dc_x,dc,cuda_copy,cuda_ipc' },
  { name: 'UCX_RNDV_SCHEME', value: 'get_zcopy' },
  { name: 'UCX_RNDV_THRESH', value: '0' },
  { name: 'UCX_IB_REG_METHODS', value: 'odp,rcache' }
]

/** The container variable holding the node's GPU→NIC map: `<pci.bus_id>=<IB device> …`. */
export const GPU_NIC_MAP_ENV = 'AKS_RDMA_GPU_NICS'

/** What the README and plan show where the pool's own map goes. */
export const GPU_NIC_MAP_PLACEHOLDER = '<GPU pci.bus_id>=<its InfiniBand device> …'

/** Dynamo sizes /dev/shm 16Gi for vLLM workers (disagg-communication-guide, sharedMemory.size). */
export const SHM_SIZE = '16Gi'
export const SHM_VOLUME = 'dshm'
/** The worker container's name. */
export const WORKER_CONTAINER = 'worker'

/** What the README shows as the worker's own command. */
export const WORKER_COMMAND_PLACEHOLDER = 'python3 -m dynamo.vllm <your worker arguments>'

/** A PCI address as nvidia-smi's `pci.bus_id` prints it: `0001:00:00.0` → `00000001:00:00.0`. */
export function nvidiaSmiBusId(pciAddress: string): string {
  const [domain = '', ...rest] = pciAddress.split(':')
  return `${domain.padStart(8, '0')}:${rest.join(':')}`.toUpperCase()
}

/** The map's value: each GPU (by nvidia-smi bus id) with the InfiniBand device local to it. */
export function gpuNicMapValue(pairs: Array<{ gpuPciAddress: string; device: string }>): string {
  return pairs.map(p => `${nvidiaSmiBusId(p.gpuPciAddress)}=${p.device}`).join(' ')
}

/**
 * POSIX sh that sets UCX_NET_DEVICES to port 1 of the InfiniBand device local to each GPU the
 * container sees (nvidia-smi lists them), from the map; UCX's default (all) when none is mapped.
 */
export const NET_DEVICES_PRELUDE = [
  'd=',
  'for g in $(nvidia-smi --query-gpu=pci.bus_id --format=csv,noheader); do',
  `  for m in $${GPU_NIC_MAP_ENV}; do`,
  '    if [ "${m%%=*}" = "$g" ]; then d="$d${d:+,}${m#*=}:1"; fi',
  '  done',
  'done',
  'export UCX_NET_DEVICES="${d:-all}"'
].join('\n')

export interface DynamoWorkerOptions {
  /** The GPU→NIC map (gpuNicMapValue); the placeholder when not known. */
  gpuNicMap?: string
  /** What the worker runs after the prelude (`exec …`). */
  command?: string
}

/**
 * The worker's environment: Dynamo's UCX settings, the gpudirect input's (dmabuf: UCX registers GPU
 * memory by dma-buf only) and the GPU→NIC map UCX_NET_DEVICES is set from (transport-ucx-env:
 * dynamo); none with `defaults` (UCX's own: every transport and device).
 */
export function dynamoWorkerEnv(s: Settings, gpuNicMap?: string): Array<{ name: string; value: string }> {
  if (s.transport.ucxEnv === 'defaults') return []
  return [
    ...DYNAMO_UCX_ENV.map(e => ({ ...e })),
    ...ucxGpuDirectEnv(s.gpudirect),
    { name: GPU_NIC_MAP_ENV, value: gpuNicMap ?? GPU_NIC_MAP_PLACEHOLDER }
  ]
}

/** The shell script the worker container runs: the UCX_NET_DEVICES prelude (dynamo), then `body`. */
export function dynamoWorkerScript(s: Settings, body: string): string {
  return s.transport.ucxEnv === 'dynamo' ? `${NET_DEVICES_PRELUDE}\n${body}` : body
}

/** The pod spec fragment of a Dynamo worker with one GPU on the RDMA pool. */
export function dynamoWorkerSnippet(s: Settings, o: DynamoWorkerOptions = {}): Record<string, unknown> {
  const resources = workloadResources(s, 1)
  const tolerations = poolTolerations(s)
  return {
    nodeSelector: { [LABELS.agentPool]: s.nodePool.name },
    ...(tolerations.length ? { tolerations } : {}),
    volumes: [{ name: SHM_VOLUME, emptyDir: { medium: 'Memory', sizeLimit: SHM_SIZE } }],
    containers: [
      {
        name: WORKER_CONTAINER,
        image: s.transport.image,
        command: ['sh', '-c'],
        args: [dynamoWorkerScript(s, `exec ${o.command ?? WORKER_COMMAND_PLACEHOLDER}`)],
        ...(s.transport.ucxEnv === 'dynamo' ? { env: dynamoWorkerEnv(s, o.gpuNicMap) } : {}),
        resources: { requests: resources, limits: resources },
        volumeMounts: [{ name: SHM_VOLUME, mountPath: '/dev/shm' }]
      }
    ]
  }
}
