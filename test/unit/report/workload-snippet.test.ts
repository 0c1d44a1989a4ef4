// The Pod a workload on the RDMA pool is (src/model/workload.ts) is what every benchmark proves: each
// perftest container's resources are the Pod's for the GPUs that container asks for, each benchmark
// pod tolerates exactly its tolerations and runs its image, and nothing needs IPC_LOCK or privileges.
// It is a whole Pod (apiVersion, kind, name: what `kubectl apply -f` needs; the flow test
// test/flow/run/existing-kubeconfig.test.ts applies it with the real kubectl). The README shows the Pod
// of the default inputs, and how to run it, byte for byte as the job summary renders them.
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { devicePairs } from '../../../src/benchmark/pairing.js'
import { perftestPod, type PairSpec, type PhaseSpec } from '../../../src/benchmark/perftest-pods.js'
import type { KubeObject } from '../../../src/kube/types.js'
import { workloadPod } from '../../../src/model/workload.js'
import { WORKLOAD_USAGE, workloadYaml } from '../../../src/report/workload-summary.js'
import type { Settings } from '../../../src/settings/settings.js'
import { applySettings } from '../../support/apply-settings.js'

const settings = (over: Record<string, string> = {}) => applySettings({ mode: 'verify', ...over })

const devs = (n: number) => Array.from({ length: n }, (_, i) => `mlx5_ib${i}`)
// Each NIC with its NIC-local GPU on both sides (GPUDirect), on 8-GPU nodes.
const pair: PairSpec = {
  id: 'p1',
  server: 'node-a',
  client: 'node-b',
  devices: devicePairs(devs(8), devs(8)).map(d => ({ ...d, cuda: { server: d.index, client: d.index } })),
  gpus: { server: 8, client: 8 }
}
// A pair of 4-GPU nodes where only the first NICs have a local GPU.
const fewer: PairSpec = {
  ...pair,
  devices: pair.devices.map(d => (d.index < 4 ? d : { ...d, cuda: undefined })),
  gpus: { server: 4, client: 4 }
}
const phase = (useCuda: boolean): PhaseSpec => ({
  name: useCuda ? 'bw-r1' : 'bw-r1-host',
  test: 'ib_write_bw',
  round: 1,
  useCuda
})

interface Container {
  name: string
  resources: { requests: Record<string, string>; limits: Record<string, string> }
  securityContext?: { privileged?: boolean; capabilities?: { add?: string[] } }
}

function benchmarkPods(s: Settings): KubeObject[] {
  const pods: KubeObject[] = []
  for (const [p, spec] of [
    [phase(true), pair],
    [phase(false), pair],
    [phase(true), fewer]
  ] as const)
    for (const role of ['server', 'client'] as const)
      pods.push(
        perftestPod({ settings: s, phase: p, pair: spec, role, devices: spec.devices, serverIp: '10.0.0.1' })
      )
  return pods
}

describe('the workload snippet is what the benchmark pods use', () => {
  it.each([
    ['the default inputs', {}],
    [
      'a tainted pool and another resource name',
      { 'node-taints': 'sku=gpu:NoSchedule,dedicated:NoExecute', 'rdma-resource-name': 'ib' }
    ]
  ])('%s: every container has the snippet resources, every pod its tolerations', (_name, over) => {
    const s = settings(over)
    const snippet = (gpus: number) =>
      (workloadPod(s, gpus) as { spec: { tolerations?: unknown[]; containers: Container[] } }).spec
    let withGpu = 0
    let withoutGpu = 0
    for (const pod of benchmarkPods(s)) {
      expect(pod.spec.tolerations).toEqual(snippet(0).tolerations ?? [])
      for (const c of pod.spec.containers as Container[]) {
        const gpus = Number(c.resources.limits['nvidia.com/gpu'] ?? 0)
        expect((c as Container & { image: string }).image).toBe(
          (snippet(gpus).containers[0] as Container & { image: string }).image
        )
        if (gpus) withGpu++
        else withoutGpu++
        expect(c.resources).toEqual(snippet(gpus).containers[0].resources)
        // No IPC_LOCK, no privileged mode: ib-node-config set memlock unlimited on the node.
        expect(c.securityContext?.capabilities?.add ?? []).not.toContain('IPC_LOCK')
        expect(c.securityContext?.privileged ?? false).toBe(false)
      }
      expect(pod.spec.securityContext?.privileged ?? false).toBe(false)
    }
    // Both kinds of container were compared (GPUDirect and host memory).
    expect(withGpu).toBeGreaterThan(0)
    expect(withoutGpu).toBeGreaterThan(0)
  })

  it('a whole Pod: the pool selector, the pool taints tolerated, rdma/<name>: 1 and the GPUs', () => {
    const s = settings({ 'node-pool': 'ndpool', 'node-taints': 'sku=gpu:NoSchedule,dedicated:NoExecute' })
    expect(workloadPod(s, 8)).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'rdma-workload', labels: { 'aks-rdma-action/rdma-workload': 'true' } },
      spec: {
        nodeSelector: { 'kubernetes.azure.com/agentpool': 'ndpool' },
        tolerations: [
          { key: 'sku', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' },
          { key: 'dedicated', operator: 'Exists', effect: 'NoExecute' }
        ],
        containers: [
          {
            name: 'main',
            image: s.benchmark.image,
            command: ['sleep', 'infinity'],
            resources: {
              requests: { 'rdma/hca_shared_devices_a': '1', 'nvidia.com/gpu': '8' },
              limits: { 'rdma/hca_shared_devices_a': '1', 'nvidia.com/gpu': '8' }
            }
          }
        ]
      }
    })
  })

  it('the README shows the Pod of the default inputs, and how to run it, as the job summary renders them', () => {
    const readme = readFileSync('README.md', 'utf8')
    const yaml = workloadYaml(workloadPod(settings(), 8))
    const block = '```yaml\n' + yaml + '\n```'
    expect(readme).toContain(block)
    // The words after it, as the summary has them (the README wraps its lines).
    const flat = (t: string) => t.replace(/\s+/g, ' ')
    expect(flat(readme)).toContain(flat(`${block}\n\n${WORKLOAD_USAGE}`))
  })
})
