// The closing section of a successful run's job summary: the Pod a workload on the RDMA pool is, as
// YAML, from the report (built by src/model/workload.ts). No I/O. See README.md and docs/job-summary.md.
import { stringify } from 'yaml'
import { code, fence } from './markdown.js'
import type { ReportWorkload } from './report.js'

/**
 * The Pod as YAML (two-space indent, as in the README), written as YAML 1.1 so that strings such as
 * `yes` and `no` are quoted: kubectl's parser (sigs.k8s.io/yaml over YAML 1.1) would read them bare as
 * booleans, and an env value must be a string.
 */
export function workloadYaml(pod: Record<string, unknown>): string {
  return stringify(pod, { indent: 2, lineWidth: 0, aliasDuplicateObjects: false, version: '1.1' }).trimEnd()
}

/** How to run it, and how it maps to a Dynamo worker (also the README's words). */
export const WORKLOAD_USAGE =
  'Save it as `rdma-workload.yaml` and run `kubectl apply -f rdma-workload.yaml`: it idles on the benchmark image. ' +
  'For an NVIDIA Dynamo worker, its `spec` is the component’s `podTemplate.spec` (DynamoGraphDeployment, ' +
  '`nvidia.com/v1beta1`): keep the container name `main` (the one the Dynamo operator fills in), the node ' +
  'selector, the tolerations and the resources; give your runtime image and leave out the command.'

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
    `A Pod on pool ${code(w.pool)} asks for the shared RDMA device ${code(`${w.rdmaResource}: 1`)} per container and ${gpus}. ` +
      'No `IPC_LOCK` capability and no privileged mode are needed: ib-node-config sets memlock unlimited for containerd and kubelet on every pool node.' +
      (benchmarked
        ? ' This run\u2019s benchmark pods were built from this same spec, on this image (with GPUDirect each bandwidth container held all of its node\u2019s GPUs, each NIC using the GPU local to it), so it is proven on this cluster.'
        : ''),
    `${f}yaml\n${yaml}\n${f}`,
    WORKLOAD_USAGE
  ]
  return lines.join('\n\n')
}
