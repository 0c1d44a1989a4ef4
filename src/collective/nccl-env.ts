// The environment the collective check's NCCL runs with, in one place so the caller can choose how
// GPU memory reaches the NIC. The settings and why: docs/collective-check.md.

import type { GpuDirectMode } from '../settings/settings.js'

/** How GPU memory reaches the NIC: the run's gpudirect input (src/model/gpudirect.ts). */
export type GpudirectMode = GpuDirectMode

/** Where the check mounts the topology ConfigMap. */
export const TOPOLOGY_DIR = '/opt/aks-rdma-action/topology'

export interface NcclEnvOptions {
  /** Default peermem: NCCL's own choice, which registers through nvidia_peermem when it is loaded. */
  gpudirect?: GpudirectMode
  /** The topology file's name under TOPOLOGY_DIR (topology.ts), when the size needs one. */
  topologyFile?: string
}

/**
 * NCCL's variables, by name. dmabuf sets NCCL_DMABUF_ENABLE=1 (NVIDIA/nccl init.cc, the
 * `DMABUF_ENABLE` parameter); peermem leaves NCCL's default, which takes nvidia_peermem when
 * /sys/module/nvidia_peermem/version exists (transport/net_ib.cc ncclIbGdrSupport).
 */
export function ncclEnv(o: NcclEnvOptions = {}): Record<string, string> {
  const mode = o.gpudirect ?? 'peermem'
  return {
    NCCL_DEBUG: 'INFO',
    NCCL_DEBUG_SUBSYS: 'INIT,NET',
    NCCL_IB_DISABLE: '0',
    CUDA_DEVICE_ORDER: 'PCI_BUS_ID',
    ...(o.topologyFile ? { NCCL_TOPO_FILE: `${TOPOLOGY_DIR}/${o.topologyFile}` } : {}),
    ...(mode === 'dmabuf' ? { NCCL_DMABUF_ENABLE: '1' } : {})
  }
}
