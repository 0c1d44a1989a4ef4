// The gpudirect input end to end without a cluster: its default (dmabuf, NVIDIA's recommendation),
// the GPU Operator values each mode renders, perftest's and UCX's and NCCL's knobs, the node
// probe's judgement of what a node shows, the report's path, and the plan.
import { describe, expect, it } from '@jest/globals'
import { gpuOperatorValues } from '../../../src/components/gpu-operator.js'
import { nodeGpuDirectPath, perftestCudaFlags, ucxGpuDirectEnv } from '../../../src/model/gpudirect.js'
import { dynamoWorkerEnv } from '../../../src/transport/dynamo-worker.js'
import { buildPlan, renderPlanText } from '../../../src/plan/plan.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import { gpuDirectReport } from '../../../src/verify/gpudirect.js'
import { judgeFacts } from '../../../src/verify/probe-check.js'
import { benchFacts } from '../../support/probe-facts.js'
import { AZURE_IDS, reader } from '../../support/inputs.js'

/** A node's probe facts with its InfiniBand ports Active at 400 (what a healthy node shows). */
const healthy = (o: Parameters<typeof benchFacts>[2]) => {
  const f = benchFacts('n1', 8, { ...o, gpus: 8 })
  return {
    ...f,
    ibPorts: f.activeDevices.map(ca => ({
      ca,
      port: 1,
      state: 'Active' as const,
      physicalState: 'LinkUp' as const,
      rateGbps: 400,
      linkLayer: 'InfiniBand' as const
    }))
  }
}

const settingsOf = (over: Record<string, string> = {}) =>
  readSettings(reader({ ...AZURE_IDS, 'resource-group': 'rg', 'cluster-name': 'aks1', ...over })).settings

describe('gpudirect', () => {
  it('defaults to dmabuf and refuses anything but dmabuf or peermem before any network call', () => {
    expect(settingsOf().gpudirect).toBe('dmabuf')
    expect(settingsOf({ gpudirect: 'peermem' }).gpudirect).toBe('peermem')
    expect(() => settingsOf({ gpudirect: 'nvidia-peermem' })).toThrow(/gpudirect/)
  })

  it('dmabuf: the open kernel modules and no driver.rdma; peermem: driver.rdma on, useHostMofed as given', () => {
    const dmabuf = gpuOperatorValues(settingsOf()) as { driver: Record<string, unknown> }
    expect(dmabuf.driver).toEqual({ kernelModuleType: 'open' })
    const peermem = gpuOperatorValues(settingsOf({ gpudirect: 'peermem' })) as {
      driver: Record<string, unknown>
    }
    expect(peermem.driver).toEqual({ rdma: { enabled: true, useHostMofed: false } })
  })

  it('each tool’s knobs per mode', () => {
    expect(perftestCudaFlags('dmabuf', 2)).toEqual(['--use_cuda=2', '--use_cuda_dmabuf'])
    expect(perftestCudaFlags('peermem', 2)).toEqual(['--use_cuda=2'])
    expect(ucxGpuDirectEnv('dmabuf')).toEqual([
      { name: 'UCX_CUDA_COPY_DMABUF', value: 'yes' },
      { name: 'UCX_IB_GPU_DIRECT_RDMA', value: 'no' }
    ])
    expect(ucxGpuDirectEnv('peermem')).toEqual([])
    // The Dynamo worker (and so the transport check) carries the dmabuf knobs; `defaults` carries none.
    const names = (env: Array<{ name: string }>) => env.map(e => e.name)
    expect(names(dynamoWorkerEnv(settingsOf({ 'transport-check': 'ucx' })))).toEqual(
      expect.arrayContaining(['UCX_CUDA_COPY_DMABUF', 'UCX_IB_GPU_DIRECT_RDMA'])
    )
    expect(names(dynamoWorkerEnv(settingsOf({ gpudirect: 'peermem' })))).not.toContain(
      'UCX_IB_GPU_DIRECT_RDMA'
    )
  })

  it('a node shows the path its mode asks for, or none', () => {
    expect(nodeGpuDirectPath('dmabuf', { peermemLoaded: false, openKernelModules: true })).toBe('dma-buf')
    expect(nodeGpuDirectPath('dmabuf', { peermemLoaded: true, openKernelModules: false })).toBeNull()
    expect(nodeGpuDirectPath('dmabuf', { peermemLoaded: true, openKernelModules: null })).toBeNull()
    expect(nodeGpuDirectPath('peermem', { peermemLoaded: true, openKernelModules: false })).toBe(
      'nvidia_peermem'
    )
    expect(nodeGpuDirectPath('peermem', { peermemLoaded: false, openKernelModules: true })).toBeNull()
  })

  it('the probe judges the mode’s path: proprietary modules fail dmabuf, a missing nvidia_peermem does not', () => {
    const dmabuf = settingsOf()
    const open = judgeFacts(healthy({ peermem: false, openModules: true }), dmabuf)
    expect(open.status).toBe('pass')
    expect(open.detail).toContain('open GPU kernel modules (dma-buf)')
    const proprietary = judgeFacts(healthy({ peermem: true, openModules: false }), dmabuf)
    expect(proprietary.status).toBe('fail')
    expect(proprietary.detail).toContain('proprietary kernel modules')
    const unknown = judgeFacts(healthy({ openModules: null }), dmabuf)
    expect(unknown.status).toBe('warn')
    // peermem mode: the module is what counts.
    const peermem = settingsOf({ gpudirect: 'peermem' })
    expect(judgeFacts(healthy({ peermem: false, openModules: true }), peermem).status).toBe('fail')
  })

  it('the report names the path every probed GPU node took, or the nodes without it', () => {
    const s = settingsOf()
    const both = gpuDirectReport([benchFacts('n1', 8), benchFacts('n2', 8)], s)
    expect(both).toMatchObject({ mode: 'dmabuf', path: 'dma-buf' })
    expect(both!.detail).toMatch(/^GPUDirect by dma-buf on 2 nodes/)
    const one = gpuDirectReport([benchFacts('n1', 8), benchFacts('n2', 8, { openModules: false })], s)
    expect(one!.path).toBeNull()
    expect(one!.nodes.map(n => n.path)).toEqual(['dma-buf', null])
    expect(one!.detail).toContain('n2 (proprietary kernel modules, nvidia_peermem loaded)')
    const peermem = gpuDirectReport([benchFacts('n1', 8)], settingsOf({ gpudirect: 'peermem' }))
    expect(peermem!.path).toBe('nvidia_peermem')
    // No GPU node probed: nothing to say.
    expect(gpuDirectReport([benchFacts('n1', 8, { gpus: 0 })], s)).toBeUndefined()
  })

  it('plan --gpudirect dmabuf: no peermem asked for, perftest with --use_cuda_dmabuf', () => {
    const plan = buildPlan(settingsOf())
    const gpu = plan.components.find(c => c.name === 'gpu-operator')!
    expect(gpu.readiness.summary).not.toContain('peermem')
    expect(gpu.helm?.values).toMatchObject({ driver: { kernelModuleType: 'open' } })
    const text = renderPlanText(plan)
    expect(text).toContain('--use_cuda=<NIC-local GPU> --use_cuda_dmabuf')
    const legacy = renderPlanText(buildPlan(settingsOf({ gpudirect: 'peermem' })))
    expect(legacy).not.toContain('--use_cuda_dmabuf')
    expect(legacy).toContain('nvidia-peermem-ctr')
  })
})
