// The closing section of a successful run's job summary: the pod snippet a workload on the RDMA pool
// uses (node selector, the pool's tolerations, rdma/<name>: 1 and the GPUs), as YAML, with why no
// IPC_LOCK or privileged mode is needed. The snippet comes from the report (built by
// src/model/workload.ts, the same functions the benchmark pods are built from). Pure: no I/O.
import { stringify } from 'yaml'
import { code, fence } from './markdown.js'
import type { ReportWorkload } from './report.js'

/** The snippet as YAML (two-space indent, as in the README). */
export function workloadYaml(podSnippet: Record<string, unknown>): string {
  return stringify(podSnippet, { indent: 2, lineWidth: 0, aliasDuplicateObjects: false }).trimEnd()
}

export function workloadSection(w: ReportWorkload, benchmarked: boolean): string {
  const yaml = workloadYaml(w.podSnippet)
  const f = fence(yaml)
  const gpus =
    w.gpusPerNode === null
      ? 'its GPUs (`nvidia.com/gpu`)'
      : w.gpusPerNode > 0
        ? `its GPUs (\`nvidia.com/gpu\`, up to ${w.gpusPerNode} per node; all of them here)`
        : 'no GPU (this VM size has none)'
  const lines = [
    '### Run a workload on this pool',
    `A pod on pool ${code(w.pool)} asks for the shared RDMA device ${code(`${w.rdmaResource}: 1`)} per container and ${gpus}. ` +
      'No `IPC_LOCK` capability and no privileged mode are needed: ib-node-config sets memlock unlimited for containerd and kubelet on every pool node.' +
      (benchmarked
        ? ' This run\u2019s benchmark pods were built from this same snippet (with GPUDirect each bandwidth container held all of its node\u2019s GPUs, each NIC using the GPU local to it), so it is proven on this cluster.'
        : ''),
    `${f}yaml\n${yaml}\n${f}`
  ]
  return lines.join('\n\n')
}
