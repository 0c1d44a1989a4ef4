// The collective check as the settings define it, for plan: the pods (where, what each requests),
// the objects it creates beside them, the commands each runs, NCCL's environment and the pass rule.
// No client, no network: plan prints it before anything exists (the node IPs are placeholders).
import { findRdmaVmSize } from '../settings/vm-sizes.js'
import type { Settings } from '../settings/settings.js'
import { workloadResources } from '../model/workload.js'
import { ncclEnv } from './nccl-env.js'
import { collectivePassMarks } from './pass-marks.js'
import { interArgv, intraArgv, SSH_PORT } from './script.js'
import { topologyFor } from './topology.js'

export interface CollectivePlan {
  enabled: boolean
  check: Settings['collective']['check']
  image: string
  /** pair: the benchmark's two nodes; fleet: every node with GPUs and an active port. */
  scope: Settings['benchmark']['scope']
  gpusPerNode: number | null
  resources: Record<string, string>
  objects: string[]
  env: Record<string, string>
  intra: string[]
  inter: string[]
  passRule: string
}

export function collectivePlan(s: Settings): CollectivePlan {
  const gpus = findRdmaVmSize(s.nodePool.vmSize)?.gpus ?? null
  const topology = topologyFor(s.nodePool.vmSize)
  const env = ncclEnv({ gpudirect: s.gpudirect, ...(topology ? { topologyFile: topology.name } : {}) })
  const marks = collectivePassMarks(s.nodePool.vmSize, s.collective.minBusbwGBps)
  const g = gpus ?? 1
  return {
    enabled: s.collective.check !== 'none',
    check: s.collective.check,
    image: s.collective.image,
    scope: s.benchmark.scope,
    gpusPerNode: gpus,
    resources: workloadResources(s, g),
    objects: [
      'Secret <run>-ssh: a fresh ECDSA key pair (root ssh between the pair, deleted after)',
      ...(topology ? [`ConfigMap <run>-topology: ${topology.name} (NCCL_TOPO_FILE), deleted after`] : [])
    ],
    env,
    intra: intraArgv(g),
    inter: interArgv('<launcher-pod-ip>', '<worker-pod-ip>', g, Object.keys(env)),
    passRule:
      `every node: busbw at the largest size ≥ ${marks.intra ? `${marks.intra.gbps} GB/s (${marks.intra.source})` : 'no published mark (reported, not judged)'}; ` +
      `across the pair: NCCL on InfiniBand with GPUDirect RDMA (Channel … via NET/IB/…/GDRDMA) and busbw at the largest size ≥ ${marks.inter.gbps} GB/s (${marks.inter.source}); the worker serves ssh on port ${SSH_PORT}`
  }
}
