// The transport check against the simulated cluster: two pods built from the Dynamo worker snippet
// (the runtime image as UID 1000, one GPU and rdma/<name>, a memory-backed /dev/shm), UCX's own
// view and choice read back. A healthy pool passes with gpudirect-rdma; then each way Dynamo's path
// breaks while perftest still passes, each made by a scenario key of the world (or the check's own
// UCX settings), each failing with its cause and fix: the pod without rdma/<name> (failed with
// Dynamo's UCX settings, tcp with UCX's defaults), a UCX without verbs, a UCX without CUDA,
// nvidia_peermem crash-looping without dma-buf (host-staged), a 64 KiB memlock for the non-root
// worker, UCX's defaults on a pool whose pods get the Ethernet mlx5 VF, and a too small /dev/shm.
// No pod is left behind.
import { beforeAll, describe, expect, it, jest } from '@jest/globals'
import { deriveResult, emptyReport } from '../../../src/report/report.js'
import { renderSummary } from '../../../src/report/summary.js'
import { StepError } from '../../../src/run/steps.js'
import { runTransportStep } from '../../../src/run/transport-step.js'
import type { KubeObject } from '../../../src/kube/types.js'
import type { Settings } from '../../../src/settings/settings.js'
import { runTransportCheck } from '../../../src/transport/runner.js'
import type { NodeFacts } from '../../../src/verify/probe-output.js'
import {
  expectPerftestPasses,
  holdEveryGpu,
  probeFacts,
  rdmaWorldForTests,
  verifyOn,
  withRdmaWorld,
  workPods,
  type RdmaWorld
} from '../../support/verify-world.js'

jest.setTimeout(300_000)

const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.6.2'

/** The world's settings with other transport settings (and benchmark settings). */
function variant(
  w: RdmaWorld,
  transport: Partial<Settings['transport']> = {},
  benchmark: Partial<Settings['benchmark']> = {}
): Settings {
  return {
    ...w.settings,
    transport: { ...w.settings.transport, ...transport },
    benchmark: { ...w.settings.benchmark, ...benchmark }
  }
}

async function check(w: RdmaWorld, f: Map<string, NodeFacts>, s: Settings) {
  const run = await runTransportCheck({ settings: s, kube: w.kube, facts: f })
  expect(workPods(w)).toHaveLength(0)
  return run
}

/**
 * A 2-node world of `scenario` (and `inputs`) where perftest passes: `judge` gets the transport
 * check's result with Dynamo's settings there, the world and its probe facts.
 */
function withUcxWorld(
  scenario: Record<string, unknown>,
  judge: (t: TransportRun['transport'], w: RdmaWorld, f: Map<string, NodeFacts>) => Promise<void> | void,
  inputs: Record<string, string> = {}
): Promise<void> {
  return withRdmaWorld({ nodes: 2, inputs: { 'transport-check': 'ucx', ...inputs }, scenario }, async w => {
    const f = await probeFacts(w)
    await expectPerftestPasses(w, f)
    await judge((await check(w, f, w.settings)).transport, w, f)
  })
}

type TransportRun = Awaited<ReturnType<typeof runTransportCheck>>

function dpWithoutLinkTypes(m: KubeObject): void {
  if (m.kind !== 'ConfigMap' || m.metadata.name !== 'rdma-devices') return
  const config = JSON.parse(m.data['config.json'])
  for (const r of config.configList) delete r.selectors.linkTypes
  m.data['config.json'] = JSON.stringify(config)
}

describe('one pool, pods changed by the cluster: healthy, no rdma/<name>, a small /dev/shm, the Ethernet VF', () => {
  const w = rdmaWorldForTests({
    nodes: 2,
    inputs: { 'transport-check': 'ucx' },
    // Pods also get the accelerated-networking VF (a device plugin config without linkTypes).
    alter: dpWithoutLinkTypes,
    scenario: {
      kube: {
        mutatePods: [
          { image: 'vllm-runtime:1.6.2-nordma', dropResources: ['rdma/hca_shared_devices_a'] },
          { image: 'vllm-runtime:1.6.2-shm', memoryLimit: '64Mi' }
        ]
      }
    }
  })
  let f: Map<string, NodeFacts>
  beforeAll(async () => {
    f = await probeFacts(w)
    await expectPerftestPasses(w, f)
  })

  it('Dynamo’s settings on a healthy path: gpudirect-rdma through nvidia_peermem, at the link rate, as UID 1000', async () => {
    const run = await check(w, f, w.settings)
    const t = run.transport
    expect(t).toMatchObject({
      mode: 'gpudirect-rdma',
      verdict: 'pass',
      protocol: 'zero-copy',
      gpudirect: 'nvidia_peermem'
    })
    expect(t.fix).toBeUndefined()
    const [a, b] = w.rdmaNodes()
    expect(t.pairs).toEqual([
      { server: a, client: b, bandwidthGbps: expect.any(Number), latencyUs: expect.any(Number) }
    ])
    // 200 Gb/s HDR: the pass mark is 0.8 × 200; UCX read at near the link rate.
    expect(t.linkGbps).toBe(200)
    expect(t.passMarkGbps).toBe(160)
    expect(t.pairs[0].bandwidthGbps!).toBeGreaterThan(180)
    // The lane is the InfiniBand device local to the client's GPU, which UCX_NET_DEVICES named.
    const client = t.sides.find(x => x.role === 'client')!
    expect(t.lanes).toEqual([`rc_mlx5/${client.netDevices}`])
    expect(client.netDevices).toMatch(/^mlx5_ib\d:1$/)
    for (const x of t.sides) {
      expect(x).toMatchObject({
        uid: 1000,
        memlock: 'unlimited',
        shmMiB: 16384,
        peermem: true,
        // The default image, Dynamo 1.6.2: UCX 1.21 (modelled as 1.21.0).
        ucxVersion: '1.21.0'
      })
      expect(x.ucx).toEqual({ cuda: true, ib: true, cudaMemoryType: true, dmabuf: true })
      expect(x.ports).toEqual([
        { device: x.netDevices.replace(/:1$/, ''), state: 'ACTIVE', linkLayer: 'InfiniBand', rateGbps: 200 }
      ])
    }
    expect(t.ucxEnv.UCX_TLS).toBe('rc_x,rc,dc_x,dc,cuda_copy,cuda_ipc')
  })

  it('the pod loses rdma/<name> to a policy: Dynamo’s settings fail naming it; UCX’s defaults fall back to tcp', async () => {
    const dynamo = (await check(w, f, variant(w, { image: `${IMAGE}-nordma` }))).transport
    expect(dynamo.mode).toBe('failed')
    expect(dynamo.verdict).toBe('fail')
    expect(dynamo.reason).toMatch(
      /has no \/dev\/infiniband device \(no uverbs file\): it did not get rdma\/hca_shared_devices_a/
    )
    expect(dynamo.fix).toMatch(/request rdma\/hca_shared_devices_a: 1 in every worker container/)
    expect(dynamo.sides.every(x => x.uverbs.length === 0)).toBe(true)

    const defaults = (await check(w, f, variant(w, { image: `${IMAGE}-nordma`, ucxEnv: 'defaults' })))
      .transport
    expect(defaults.mode).toBe('tcp')
    expect(defaults.lanes).toEqual(['tcp/eth0'])
    expect(defaults.reason).toMatch(
      /^UCX chose tcp \(tcp\/eth0\) between the pods: .*has no \/dev\/infiniband device/
    )
    expect(defaults.fix).toMatch(/request rdma\/hca_shared_devices_a: 1/)
    // far below the link: a few Gb/s
    expect(defaults.pairs[0].bandwidthGbps!).toBeLessThan(10)
  })

  it('a memory limit caps the memory-backed /dev/shm: the path is fine, the verdict fails on /dev/shm', async () => {
    const t = (await check(w, f, variant(w, { image: `${IMAGE}-shm` }))).transport
    expect(t.mode).toBe('gpudirect-rdma')
    expect(t.verdict).toBe('fail')
    expect(t.sides.map(x => x.shmMiB)).toEqual([64, 64])
    expect(t.reason).toMatch(
      /^\/dev\/shm is 64 MiB in the (server|client) pod on .*, less than the 16Gi the worker mounts/
    )
    expect(t.fix).toMatch(/memory limit above 16Gi/)
  })

  it('the step: a failed verdict fails it and the run, with the outputs, both pods’ output and the summary section', async () => {
    const v = await verifyOn(w)
    const report = emptyReport('verify')
    await expect(
      runTransportStep(variant(w, { image: `${IMAGE}-shm` }), w.kube, v, report)
    ).rejects.toBeInstanceOf(StepError)
    expect(report.steps).toEqual([expect.objectContaining({ name: 'transport', status: 'failure' })])
    expect(report.steps[0].detail).toMatch(
      /^transport: gpudirect-rdma: \/dev\/shm is 64 MiB .*\. Fix: give worker containers a memory limit/
    )
    expect(report.outputs.transport).toBe('gpudirect-rdma')
    expect(Number(report.outputs['transport-gbps'])).toBe(report.transport!.pairs[0].bandwidthGbps)
    expect(report.diagnostics!.map(d => d.title)).toEqual(['server pod output', 'client pod output'])
    expect(report.diagnostics![1].text).toContain('@@@ aks-rdma-action transport bandwidth')
    expect(report.transport!.workerSnippet).toBeUndefined()
    report.result = deriveResult(report)
    expect(report.result).toBe('failure')
    const md = renderSummary(report)
    expect(md).toContain('transport check failed (gpudirect-rdma)')
    expect(md).toContain('### Dynamo transport (UCX)')
    expect(md).toMatch(/\*\*Fix:\*\* give worker containers a memory limit/)
    expect(workPods(w)).toHaveLength(0)
  })

  it('UCX’s defaults on pods that also get the Ethernet VF: UCX opens mlx5_an0 and fails naming it', async () => {
    const t = (await check(w, f, variant(w, { ucxEnv: 'defaults' }))).transport
    expect(t.mode).toBe('failed')
    expect(t.reason).toMatch(
      /UCX used mlx5_an0, the node's Ethernet \(accelerated-networking\) mlx5 device, .*UCX_NET_DEVICES=all/
    )
    expect(t.reason).toMatch(/ibv_query_gid\(dev=mlx5_an0 port=1 index=0\) failed/)
    expect(t.fix).toMatch(/set UCX_NET_DEVICES to the InfiniBand device local to the worker's GPU/)
  })
})

describe('a busy pool: workload pods hold every GPU', () => {
  it('the step says the pool is busy, which pods hold the GPUs and what still ran', () =>
    withRdmaWorld({ nodes: 2, inputs: { 'transport-check': 'ucx' } }, async w => {
      const v = await verifyOn(w)
      const holders = await holdEveryGpu(w)
      const report = emptyReport('verify')
      await expect(runTransportStep(w.settings, w.kube, v, report)).rejects.toBeInstanceOf(StepError)
      const t = report.transport!
      expect(t.verdict).toBe('fail')
      expect(t.busy?.holders).toEqual(
        holders.map(h => ({ node: h.node, namespace: 'default', name: h.name }))
      )
      expect(t.reason).toContain('busy')
      expect(t.reason).toContain('nvidia.com/gpu')
      expect(t.reason).toContain('the read-only checks and the node probe ran')
      for (const h of holders) expect(t.reason).toContain(`default/${h.name} on ${h.node}`)
      expect(t.fix).toContain('transport-check: none')
      expect(report.steps[0]).toMatchObject({ name: 'transport', status: 'failure' })
      expect(report.steps[0].detail).toContain('busy')
      report.result = deriveResult(report)
      const md = renderSummary(report)
      expect(md).toContain('transport check not run: the pool is busy')
      for (const h of holders) expect(md).toContain(`default/${h.name}`)
      expect(workPods(w)).toHaveLength(0)
    }))
})

describe('the runtime image’s UCX', () => {
  it('without verbs: Dynamo’s settings fail, UCX’s defaults take tcp, both naming the image', () =>
    withUcxWorld({ dynamo: { ucx: { verbs: false } } }, async (dynamo, w, f) => {
      expect(dynamo.mode).toBe('failed')
      expect(dynamo.reason).toMatch(
        /^UCX in nvcr.io\/nvidia\/ai-dynamo\/vllm-runtime:1.6.2 has no InfiniBand support: ucx_info -d .* lists no ib memory domain although the pod has uverbs0/
      )
      expect(dynamo.fix).toMatch(/--with-verbs/)
      const defaults = (await check(w, f, variant(w, { ucxEnv: 'defaults' }))).transport
      expect(defaults.mode).toBe('tcp')
      expect(defaults.reason).toMatch(/^UCX chose tcp .*no InfiniBand support/)
    }))

  it('without CUDA: failed, "VRAM memory is detected as host" / NIXL_ERR_BACKEND in the words', () =>
    withUcxWorld({ dynamo: { ucx: { cuda: false } } }, async t => {
      expect(t.mode).toBe('failed')
      expect(t.reason).toMatch(
        /has no CUDA support: ucx_info -d lists no cuda_cpy memory domain and ucx_perftest -m cuda failed \(Unsupported memory types cuda<->cuda\)/
      )
      expect(t.reason).toMatch(/NIXL_ERR_BACKEND/)
      expect(t.fix).toMatch(/--with-cuda/)
      expect(t.sides.every(x => x.ucx?.cuda === false)).toBe(true)
    }))
})

describe('the nodes', () => {
  it('nvidia_peermem crash-looping and no dma-buf: perftest from host memory passes, UCX stages through host memory', () =>
    withUcxWorld(
      { nodes: { peermemFails: [0, 1], dmabuf: false } },
      async t => {
        expect(t.mode).toBe('host-staged')
        expect(t.protocol).toBe('software emulation')
        expect(t.pairs[0].bandwidthGbps!).toBeLessThan(40)
        expect(t.reason).toMatch(/nvidia_peermem is not loaded \(no \/sys\/module\/nvidia_peermem on/)
        expect(t.fix).toMatch(/nvidia-peermem-ctr/)
        expect(t.sides.every(x => x.peermem === false && x.ucx?.cudaMemoryType === false)).toBe(true)
      },
      { 'benchmark-gpudirect': 'false' }
    ))

  it('a 64 KiB memlock for the non-root worker: GPUDirect perftest passes, UCX cannot create its CQ', () =>
    withUcxWorld({ nodes: { containerMemlockKiB: 64 } }, async t => {
      expect(t.mode).toBe('failed')
      expect(t.reason).toMatch(
        /UCX could not create its InfiniBand queues in the (client|server) pod .*ibv_create_cq\(cqe=4096\) failed: Cannot allocate memory.*the worker's locked-memory limit is 64 KiB for UID 1000, and a non-root user cannot use IPC_LOCK/
      )
      expect(t.fix).toMatch(/LimitMEMLOCK=infinity/)
      expect(t.sides.map(x => x.memlock)).toEqual(['64', '64'])
    }))
})
