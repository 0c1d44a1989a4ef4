// The collective check's pass marks per VM size (docs/collective-check.md lists them): all_reduce
// busbw in GB/s at the largest size, within one node (every GPU, NVLink) and across two nodes
// (InfiniBand), each with where it comes from; derived marks say how they were derived.
import { findRdmaVmSize } from '../settings/vm-sizes.js'

export interface PassMark {
  gbps: number
  source: string
}

export interface CollectivePassMarks {
  /** null: no published or derivable mark (the size's intra-node busbw is reported, not judged). */
  intra: PassMark | null
  inter: PassMark
}

const NHC = 'Azure/azurehpc-health-checks'

/** Intra-node marks Azure's node health checks apply (check_nccl_allreduce <busbw> 1 <topo> 16G). */
const INTRA: Record<string, PassMark> = {
  Standard_ND96isr_H100_v5: {
    gbps: 460,
    source: `${NHC}@0e0a1ac conf/nd96isr_h100_v5.conf (check_nccl_allreduce 460.0 … 16G)`
  },
  Standard_ND96isr_H200_v5: {
    gbps: 431,
    source: `${NHC}@0e0a1ac conf/nd96isr_h200_v5.conf (check_nccl_allreduce 431.0 … 16G)`
  },
  Standard_ND96isrf_H200_v5: {
    gbps: 432,
    source: `${NHC}@0e0a1ac conf/nd96isrf_h200_v5.conf (check_nccl_allreduce 432.0 … 16G)`
  },
  Standard_ND128isr_NDR_GB200_v6: {
    gbps: 432,
    source: `${NHC} GB200 v6 check (check_nccl_allreduce 432; its conf is not in the public conf/ at 0e0a1ac)`
  },
  Standard_ND128isr_GB300_v6: {
    gbps: 432,
    source: 'derived: the GB200 v6 mark (the same 4-GPU NVLink domain per node); no published GB300 mark'
  },
  Standard_ND96asr_v4: {
    gbps: 228,
    source: `${NHC}@0e0a1ac conf/nd96asr_v4.conf (check_nccl_allreduce 228.0 … 8G)`
  },
  Standard_ND96amsr_A100_v4: {
    gbps: 228,
    source: `${NHC}@0e0a1ac conf/nd96amsr_a100_v4.conf (check_nccl_allreduce 228.0 … 16G)`
  },
  Standard_ND40rs_v2: {
    gbps: 110,
    source: `${NHC}@0e0a1ac conf/nd40rs_v2.conf (check_nccl_allreduce 110.0 … 8G)`
  }
}

/** 180 GB/s across two ND A100 v4 nodes (8 × 200 Gb/s HDR): Azure/aks-rdma-infiniband tests/expected-output.md. */
const INTER_BASE = { gbps: 180, nicGbps: 8 * 200 }

export function collectivePassMarks(vmSize: string, minBusbwGBps?: number): CollectivePassMarks {
  const intra = INTRA[vmSize] ?? null
  if (minBusbwGBps !== undefined)
    return { intra, inter: { gbps: minBusbwGBps, source: 'collective-min-busbw' } }
  const size = findRdmaVmSize(vmSize)
  const total = size ? size.ibNics * size.linkGbps : INTER_BASE.nicGbps
  if (total === INTER_BASE.nicGbps)
    return {
      intra,
      inter: {
        gbps: INTER_BASE.gbps,
        source:
          'Azure/aks-rdma-infiniband tests/expected-output.md (a last busbw under 180 GB/s indicates a problem, 8 × HDR)'
      }
    }
  const gbps = Math.round(((INTER_BASE.gbps * total) / INTER_BASE.nicGbps) * 100) / 100
  return {
    intra,
    inter: {
      gbps,
      source: `derived: 180 GB/s over 8 × 200 Gb/s (Azure/aks-rdma-infiniband tests/expected-output.md) scaled to ${size!.ibNics} × ${size!.linkGbps} Gb/s`
    }
  }
}
