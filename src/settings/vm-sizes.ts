// RDMA-capable Azure VM sizes (FACTS.md §6): GPUs, InfiniBand NICs per VM and their link rate.
// Azure marks RDMA capability with an `r` among a size's feature letters (ND96is*r*_H100_v5,
// HB120*r*s_v3); a size without it cannot do InfiniBand.

export interface RdmaVmSize {
  name: string
  gpus: number
  gpuModel: string
  ibNics: number
  linkGbps: number
}

export const RDMA_VM_SIZES: readonly RdmaVmSize[] = [
  { name: 'Standard_ND96asr_v4', gpus: 8, gpuModel: 'A100 40GB', ibNics: 8, linkGbps: 200 },
  { name: 'Standard_ND96amsr_A100_v4', gpus: 8, gpuModel: 'A100 80GB', ibNics: 8, linkGbps: 200 },
  { name: 'Standard_ND96isr_H100_v5', gpus: 8, gpuModel: 'H100', ibNics: 8, linkGbps: 400 },
  { name: 'Standard_ND96isr_H200_v5', gpus: 8, gpuModel: 'H200', ibNics: 8, linkGbps: 400 },
  { name: 'Standard_ND96isrf_H200_v5', gpus: 8, gpuModel: 'H200', ibNics: 8, linkGbps: 400 },
  { name: 'Standard_ND128isr_NDR_GB200_v6', gpus: 4, gpuModel: 'B200', ibNics: 4, linkGbps: 400 },
  { name: 'Standard_ND128isr_GB300_v6', gpus: 4, gpuModel: 'B300', ibNics: 4, linkGbps: 400 },
  { name: 'Standard_ND96isr_MI300X_v5', gpus: 8, gpuModel: 'MI300X', ibNics: 8, linkGbps: 400 },
  { name: 'Standard_ND96asr_MI200_v4', gpus: 8, gpuModel: 'MI200', ibNics: 8, linkGbps: 200 },
  { name: 'Standard_ND40rs_v2', gpus: 8, gpuModel: 'V100', ibNics: 1, linkGbps: 100 },
  { name: 'Standard_HB120rs_v3', gpus: 0, gpuModel: '', ibNics: 1, linkGbps: 200 },
  { name: 'Standard_HB176rs_v4', gpus: 0, gpuModel: '', ibNics: 1, linkGbps: 400 },
  { name: 'Standard_HX176rs', gpus: 0, gpuModel: '', ibNics: 1, linkGbps: 400 },
  { name: 'Standard_HC44rs', gpus: 0, gpuModel: '', ibNics: 1, linkGbps: 100 }
]

export function findRdmaVmSize(name: string): RdmaVmSize | undefined {
  return RDMA_VM_SIZES.find(s => s.name.toLowerCase() === name.toLowerCase())
}

/**
 * Whether a size name carries the RDMA marker: the feature letters after the vCPU count
 * (`Standard_ND96isr_H100_v5` → `isr`, `Standard_HB120rs_v3` → `rs`) contain `r`.
 */
export function hasRdmaMarker(name: string): boolean {
  const m = /^Standard_[A-Z]+\d+([a-z]*)(?:_|$)/.exec(name)
  return m !== null && m[1].includes('r')
}
