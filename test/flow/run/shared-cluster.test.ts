// The whole action flow (Azure + Kubernetes + the helm stand-in, in-process) on a cluster it
// shares: an existing inference pool with GPUs and the AKS-managed driver (gpuProfile.driver
// Install), and the RDMA pool the run creates tainted sku=gpu:NoSchedule (node-taints). The run
// succeeds — the stack and the benchmark pods tolerate the taint — warns about the other pool with
// the reason, and leaves it alone: NFD labels only the RDMA pool, so neither the NicClusterPolicy's
// driver nor any GPU Operator operand is scheduled on the inference pool.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals'
import type { KubeObject } from '../../../src/kube/types.js'
import type { FlowResult } from '../../../src/run/flow.js'
import type { World } from '../../../sim/world.js'
import {
  twoNodeRun,
  runFlowQuietly,
  secretAuthSettings,
  runnerWorld,
  leaveWorld
} from '../../support/runner-env.js'

jest.setTimeout(600_000)

let world: World
let flow: FlowResult
const flowLog: string[] = []
const log = () => flowLog.join('')

const list = (group: string, plural: string, ns?: string): KubeObject[] =>
  world.kube.store.list(world.kube.store.type(group, plural)!, ns ? { namespace: ns } : {})
    .items as KubeObject[]
const nodesOf = (pool: string) =>
  list('', 'nodes').filter(n => n.metadata.labels?.['kubernetes.azure.com/agentpool'] === pool)

beforeAll(async () => {
  world = await runnerWorld('shared-runner', {
    kube: { timeScale: 0.01, delays: { mofed: '60s', gpuDriver: '40s', default: '5s' } },
    azure: {
      existingPools: [
        { name: 'infer', vmSize: 'Standard_NC24ads_A100_v4', count: 1, osSKU: 'Ubuntu', gpuDriver: 'Install' }
      ]
    }
  })
  const settings = secretAuthSettings(
    world,
    twoNodeRun('apply', {
      'node-taints': 'sku=gpu:NoSchedule',
      benchmark: 'true',
      timeout: '60m',
      'step-timeout': '30m',
      rollout: 'pipelined'
    })
  )
  flow = await runFlowQuietly({ ...settings, runId: 'shared-cluster' }, flowLog)
})

afterAll(() => leaveWorld(world))

describe('a tainted RDMA pool beside a GPU pool with the AKS-managed driver', () => {
  it('converges, verifies and benchmarks on the tainted pool', () => {
    if (flow.exitCode !== 0) console.log(log())
    expect(flow.exitCode).toBe(0)
    expect(flow.report.result).toBe('success')
    const rdma = nodesOf('rdma')
    expect(rdma).toHaveLength(2)
    for (const n of rdma) {
      expect(n.spec.taints).toEqual([{ key: 'sku', value: 'gpu', effect: 'NoSchedule' }])
      expect(n.status.allocatable['rdma/hca_shared_devices_a']).toBe('1k')
    }
    expect(Number(flow.report.outputs['bandwidth-gbps'])).toBeGreaterThan(0)
  })

  it('warns about the other GPU pool with the reason', () => {
    expect(log()).toContain(
      'pool infer (Standard_NC24ads_A100_v4) has GPUs with the AKS-managed driver (gpuProfile.driver Install)'
    )
    expect(log()).toContain('The action confines the GPU Operator and the NicClusterPolicy to pool rdma')
  })

  it('leaves the other pool alone: no NFD labels, no node agent of either operator there', () => {
    const [infer] = nodesOf('infer')
    expect(infer).toBeDefined()
    const labels = Object.keys(infer.metadata.labels ?? {})
    expect(
      labels.filter(l => l.startsWith('feature.node.kubernetes.io/') || l.startsWith('nvidia.com/'))
    ).toEqual([])
    // Node agents (DaemonSet pods) of either operator: none there. (Their controllers, Deployments,
    // may run on any node, as on a real cluster.)
    const agents = list('', 'pods').filter(
      p =>
        p.spec?.nodeName === infer.metadata.name &&
        ['network-operator', 'gpu-operator'].includes(p.metadata.namespace ?? '') &&
        p.metadata.ownerReferences?.[0]?.kind === 'DaemonSet'
    )
    expect(agents.map(p => p.metadata.name)).toEqual([])
    // The RDMA pool got them.
    const rdmaNames = new Set(nodesOf('rdma').map(n => n.metadata.name))
    const driver = list('', 'pods', 'gpu-operator').filter(
      p => p.metadata.labels?.app === 'nvidia-driver-daemonset' && rdmaNames.has(p.spec?.nodeName)
    )
    expect(driver).toHaveLength(2)
  })
})
