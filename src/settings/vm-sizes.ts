// RDMA-capable Azure VM sizes (from Azure's GPU and HPC size pages): GPUs, IB NICs, VF device and link
// rate, and whether the stack can finish on them. Docs: README.md#supported-vm-sizes.

/** The InfiniBand VFs the NodeFeatureRule labels: ConnectX-6 (101c) and the mlx5Gen VF of ConnectX-7 and later (101e). */
export const IB_VF_DEVICES = ['101c', '101e'] as const

export type GpuVendor = 'NVIDIA' | 'AMD'

/** The CPU architecture of a size's nodes, as Kubernetes names it (`kubernetes.io/arch`). */
export type CpuArch = 'amd64' | 'arm64'

export interface RdmaVmSize {
  name: string
  gpus: number
  gpuModel: string
  /** Absent on sizes without GPUs. */
  gpuVendor?: GpuVendor
  ibNics: number
  linkGbps: number
  /** ConnectX generation of the InfiniBand NICs. */
  nic: 'ConnectX-5' | 'ConnectX-6' | 'ConnectX-7' | 'ConnectX-8'
  /** PCI device id (vendor 15b3) of the VF the VM sees. */
  vfDevice: '1018' | '101c' | '101e'
  /** The nodes' CPUs: arm64 for the Grace-based GB200/GB300 sizes, amd64 elsewhere. */
  arch: CpuArch
}

const NV = 'NVIDIA' as const

export const RDMA_VM_SIZES: readonly RdmaVmSize[] = [
  {
    name: 'Standard_ND96asr_v4',
    gpus: 8,
    gpuModel: 'A100 40GB',
    gpuVendor: NV,
    ibNics: 8,
    linkGbps: 200,
    nic: 'ConnectX-6',
    vfDevice: '101c',
    arch: 'amd64'
  },
  {
    name: 'Standard_ND96amsr_A100_v4',
    gpus: 8,
    gpuModel: 'A100 80GB',
    gpuVendor: NV,
    ibNics: 8,
    linkGbps: 200,
    nic: 'ConnectX-6',
    vfDevice: '101c',
    arch: 'amd64'
  },
  {
    name: 'Standard_ND96isr_H100_v5',
    gpus: 8,
    gpuModel: 'H100',
    gpuVendor: NV,
    ibNics: 8,
    linkGbps: 400,
    nic: 'ConnectX-7',
    vfDevice: '101e',
    arch: 'amd64'
  },
  {
    name: 'Standard_ND96isr_H200_v5',
    gpus: 8,
    gpuModel: 'H200',
    gpuVendor: NV,
    ibNics: 8,
    linkGbps: 400,
    nic: 'ConnectX-7',
    vfDevice: '101e',
    arch: 'amd64'
  },
  {
    name: 'Standard_ND96isrf_H200_v5',
    gpus: 8,
    gpuModel: 'H200',
    gpuVendor: NV,
    ibNics: 8,
    linkGbps: 400,
    nic: 'ConnectX-7',
    vfDevice: '101e',
    arch: 'amd64'
  },
  {
    name: 'Standard_ND128isr_NDR_GB200_v6',
    gpus: 4,
    gpuModel: 'B200',
    gpuVendor: NV,
    ibNics: 4,
    linkGbps: 400,
    nic: 'ConnectX-7',
    vfDevice: '101e',
    arch: 'arm64'
  },
  {
    name: 'Standard_ND128isr_GB300_v6',
    gpus: 4,
    gpuModel: 'B300',
    gpuVendor: NV,
    ibNics: 4,
    // "800Gbps vs 400 Gbps" per GPU against GB200 (Learn nd-gb300-v6-series-summary.md): XDR.
    linkGbps: 800,
    nic: 'ConnectX-8',
    vfDevice: '101e',
    arch: 'arm64'
  },
  {
    name: 'Standard_ND96isr_MI300X_v5',
    gpus: 8,
    gpuModel: 'MI300X',
    gpuVendor: 'AMD',
    ibNics: 8,
    linkGbps: 400,
    nic: 'ConnectX-7',
    vfDevice: '101e',
    arch: 'amd64'
  },
  {
    name: 'Standard_ND96asr_MI200_v4',
    gpus: 8,
    gpuModel: 'MI200',
    gpuVendor: 'AMD',
    ibNics: 8,
    linkGbps: 200,
    nic: 'ConnectX-6',
    vfDevice: '101c',
    arch: 'amd64'
  },
  {
    name: 'Standard_ND40rs_v2',
    gpus: 8,
    gpuModel: 'V100',
    gpuVendor: NV,
    ibNics: 1,
    linkGbps: 100,
    nic: 'ConnectX-5',
    vfDevice: '1018',
    arch: 'amd64'
  },
  {
    name: 'Standard_HB120rs_v3',
    gpus: 0,
    gpuModel: '',
    ibNics: 1,
    linkGbps: 200,
    nic: 'ConnectX-6',
    vfDevice: '101c',
    arch: 'amd64'
  },
  {
    name: 'Standard_HB176rs_v4',
    gpus: 0,
    gpuModel: '',
    ibNics: 1,
    linkGbps: 400,
    nic: 'ConnectX-7',
    vfDevice: '101e',
    arch: 'amd64'
  },
  {
    name: 'Standard_HX176rs',
    gpus: 0,
    gpuModel: '',
    ibNics: 1,
    linkGbps: 400,
    nic: 'ConnectX-7',
    vfDevice: '101e',
    arch: 'amd64'
  },
  {
    name: 'Standard_HC44rs',
    gpus: 0,
    gpuModel: '',
    ibNics: 1,
    linkGbps: 100,
    nic: 'ConnectX-5',
    vfDevice: '1018',
    arch: 'amd64'
  }
]

export function findRdmaVmSize(name: string): RdmaVmSize | undefined {
  return RDMA_VM_SIZES.find(s => s.name.toLowerCase() === name.toLowerCase())
}

/** Why the stack cannot finish on this size; undefined when it can. */
export function unsupportedReason(size: RdmaVmSize): string | undefined {
  if (size.gpus === 0)
    return `${size.name} has no GPU: the GPU Operator step would wait for allocatable nvidia.com/gpu forever (this action sets up RDMA GPU nodes)`
  if (size.gpuVendor !== 'NVIDIA')
    return `${size.name} has ${size.gpuVendor} ${size.gpuModel} GPUs: the NVIDIA GPU Operator cannot drive them, so nvidia.com/gpu never appears`
  if (!(IB_VF_DEVICES as readonly string[]).includes(size.vfDevice))
    return (
      `${size.name} carries ${size.nic} InfiniBand (VF PCI device ${size.vfDevice}), which the NodeFeatureRule ` +
      `(${IB_VF_DEVICES.join('/')}: ConnectX-6/7 and later) does not match, so no node is labelled and the OFED driver is never scheduled`
    )
  return undefined
}

/** The sizes the stack finishes on. */
export function supportedVmSizes(): RdmaVmSize[] {
  return RDMA_VM_SIZES.filter(s => !unsupportedReason(s))
}

/**
 * Whether a size name carries the RDMA marker: the feature letters after the vCPU count
 * (`Standard_ND96isr_H100_v5` → `isr`, `Standard_HB120rs_v3` → `rs`) contain `r`.
 */
export function hasRdmaMarker(name: string): boolean {
  const m = /^Standard_[A-Z]+\d+([a-z]*)(?:_|$)/.exec(name)
  return m !== null && m[1].includes('r')
}

/** What is wrong with a vm-size input; undefined for a size the stack finishes on. */
export function vmSizeProblem(name: string): string | undefined {
  const size = findRdmaVmSize(name)
  if (size) {
    const why = unsupportedReason(size)
    return why
      ? `not supported: ${why}. Supported: ${supportedVmSizes()
          .map(s => s.name)
          .join(', ')}`
      : undefined
  }
  const supported = `Supported: ${supportedVmSizes()
    .map(s => s.name)
    .join(', ')}`
  return hasRdmaMarker(name)
    ? `not in the action's table of sizes with NVIDIA GPUs and ConnectX-6/7 InfiniBand VFs (the only ones the stack is known to finish on). ${supported}`
    : `not an InfiniBand (RDMA) size: Azure marks them with an "r" among the feature letters (e.g. Standard_ND96isr_H100_v5). ${supported}`
}
