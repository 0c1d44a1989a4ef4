// How GPU memory reaches the NIC (the `gpudirect` input) in each tool's terms: GPU Operator, perftest,
// UCX, NCCL. Docs: docs/guide-departures.md#gpudirect-by-dma-buf-not-nvidia-peermem.
import type { GpuDirectMode } from '../settings/settings.js'

/** The path GPUDirect took on a node, as the report names it; null: neither (staged or unknown). */
export type GpuDirectPath = 'dma-buf' | 'nvidia_peermem'

/** The path each mode asks for. */
export function wantedPath(mode: GpuDirectMode): GpuDirectPath {
  return mode === 'dmabuf' ? 'dma-buf' : 'nvidia_peermem'
}

/**
 * The GPU Operator values a mode adds: dmabuf runs the open kernel modules (DMA-BUF needs them;
 * `kernelModuleType` replaced the no-op `useOpenKernelModules`, chart values v26.3.3/v26.7.0) and
 * leaves driver.rdma at the chart's default (off: no nvidia-peermem-ctr); peermem turns
 * driver.rdma.enabled on, with useHostMofed as given.
 */
export function gpuOperatorDriverValues(mode: GpuDirectMode, useHostMofed: boolean): Record<string, unknown> {
  return mode === 'dmabuf' ? { kernelModuleType: 'open' } : { rdma: { enabled: true, useHostMofed } }
}

/** perftest's memory flags for a CUDA device: `--use_cuda_dmabuf` (perftest ≥ v4.5-0.20) follows `--use_cuda`. */
export function perftestCudaFlags(mode: GpuDirectMode, device: number | string): string[] {
  return mode === 'dmabuf' ? [`--use_cuda=${device}`, '--use_cuda_dmabuf'] : [`--use_cuda=${device}`]
}

/**
 * UCX's knobs for a mode (openucx/ucx src/uct/cuda/cuda_copy/cuda_copy_md.c `DMABUF`,
 * src/uct/ib/base/ib_md.c `GPU_DIRECT_RDMA`): dmabuf requires the cuda_copy dma-buf export and keeps
 * the ib domain off nvidia_peermem, so a transfer that moves proves DMA-BUF; peermem sets nothing
 * (UCX uses nvidia_peermem when it is loaded).
 */
export function ucxGpuDirectEnv(mode: GpuDirectMode): Array<{ name: string; value: string }> {
  return mode === 'dmabuf'
    ? [
        { name: 'UCX_CUDA_COPY_DMABUF', value: 'yes' },
        { name: 'UCX_IB_GPU_DIRECT_RDMA', value: 'no' }
      ]
    : []
}

/**
 * The path a node shows: dma-buf where the mode is dmabuf and the GPU driver runs the open kernel
 * modules (`/proc/driver/nvidia/version`: "Open Kernel Module"); nvidia_peermem where the mode is
 * peermem and the module is loaded; null otherwise (unknown facts count as not shown).
 */
export function nodeGpuDirectPath(
  mode: GpuDirectMode,
  facts: { peermemLoaded: boolean | null; openKernelModules: boolean | null }
): GpuDirectPath | null {
  if (mode === 'dmabuf') return facts.openKernelModules === true ? 'dma-buf' : null
  return facts.peermemLoaded === true ? 'nvidia_peermem' : null
}
