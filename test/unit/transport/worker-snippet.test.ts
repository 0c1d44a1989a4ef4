// The Dynamo worker snippet (src/transport/dynamo-worker.ts) is what the transport check's pods run:
// each pod's container is the snippet's (image, env, resources, /dev/shm mount; no securityContext,
// so the image's own non-root user and no capability), its script starts with the snippet's
// UCX_NET_DEVICES prelude, and the pods carry the snippet's node selector, tolerations and volume.
// docs/transport-check.md shows the snippet of the default inputs as the job summary renders it. Also: the
// GPU→NIC map from the probe's facts, nvidia-smi's bus id form, the plan's transport part, and the
// inputs' checks.
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import {
  dynamoWorkerSnippet,
  GPU_NIC_MAP_ENV,
  NET_DEVICES_PRELUDE,
  nvidiaSmiBusId
} from '../../../src/transport/dynamo-worker.js'
import { buildPlan, renderPlanText } from '../../../src/plan/plan.js'
import { workloadYaml } from '../../../src/report/workload-summary.js'
import { InputError, readSettings } from '../../../src/settings/input-helper.js'
import type { Settings } from '../../../src/settings/settings.js'
import { gpuNicMapOf, transportPod } from '../../../src/transport/pods.js'
import { transportPair } from '../../../src/transport/runner.js'
import { parseProbeOutput, PROBE_HEADER } from '../../../src/verify/probe-output.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'

function settings(over: Record<string, string> = {}): Settings {
  // gpudirect as its default (dmabuf): the docs show the snippet of the default inputs.
  return readSettings(
    reader({ ...VALID_APPLY, gpudirect: 'dmabuf', mode: 'verify', 'transport-check': 'ucx', ...over })
  ).settings
}

function problems(over: Record<string, string>): string[] {
  try {
    readSettings(reader({ ...VALID_APPLY, ...over }), {})
    return []
  } catch (e) {
    if (e instanceof InputError) return e.problems
    throw e
  }
}

/** A probe message of an ND H100 v5 node as Azure lays it out (ndv5 topology: four GPU/NIC pairs per NUMA node). */
function h100Probe(node: string) {
  const gpus = ['0001', '0002', '0003', '0008', '0009', '000a', '000b', '000c']
  const lines = [PROBE_HEADER]
  for (let i = 0; i < 8; i++) {
    const nic = `${(0x101 + i).toString(16).padStart(4, '0')}:00:00.0`
    lines.push(`nic mlx5_ib${i} ${nic} ${i < 4 ? 0 : 1} pci${nic.slice(0, 4)}:00 x`)
    lines.push(`port mlx5_ib${i} 1 InfiniBand|4: ACTIVE|5: LinkUp|400 Gb/sec (4X NDR)`)
    lines.push(`gpu ${gpus[i]}:00:00.0 0x030200 ${i < 4 ? 0 : 1} pci${gpus[i]}:00 x`)
  }
  lines.push('memlock unlimited', 'peermem 1', 'end')
  return parseProbeOutput(node, lines.join('\n'))
}

interface Container {
  image: string
  command: string[]
  args: string[]
  env?: unknown[]
  resources: unknown
  volumeMounts: unknown[]
  securityContext?: unknown
  ports?: unknown[]
}

describe('the transport pods are the worker snippet', () => {
  it.each([
    ['the default inputs', {}],
    [
      'a tainted pool, another resource, UCX’s defaults',
      { 'node-taints': 'sku=gpu:NoSchedule', 'rdma-resource-name': 'ib', 'transport-ucx-env': 'defaults' }
    ]
  ])('%s', (_name, over) => {
    const s = settings(over)
    const map = '00000001:00:00.0=mlx5_ib0'
    const snippet = dynamoWorkerSnippet(s, { gpuNicMap: map }) as {
      nodeSelector: unknown
      tolerations?: unknown
      volumes: unknown
      containers: Container[]
    }
    const want = snippet.containers[0]
    for (const pod of [
      transportPod({ settings: s, role: 'server', node: 'n0', gpuNicMap: map }),
      transportPod({ settings: s, role: 'client', node: 'n1', gpuNicMap: map, serverIp: '10.244.0.7' })
    ]) {
      expect(pod.spec.nodeSelector).toEqual(snippet.nodeSelector)
      expect(pod.spec.tolerations).toEqual(snippet.tolerations)
      expect(pod.spec.volumes).toEqual(snippet.volumes)
      expect(pod.spec.securityContext).toBeUndefined()
      const [c] = pod.spec.containers as Container[]
      const { args, ports: _ports, ...rest } = c
      const { args: wantArgs, ...wantRest } = want
      expect(rest).toEqual(wantRest)
      expect(c.securityContext).toBeUndefined()
      // The worker's script up to its `exec`, then the check's.
      const prelude = wantArgs[0].slice(0, wantArgs[0].lastIndexOf('exec '))
      expect(args[0].startsWith(prelude)).toBe(true)
      expect(args[0]).toContain('ucx_info -d')
    }
    if (s.transport.ucxEnv === 'dynamo') {
      expect(want.env).toEqual([
        { name: 'UCX_TLS', value: 'rc_x,rc,dc_x,dc,cuda_copy,cuda_ipc' },
        { name: 'UCX_RNDV_SCHEME', value: 'get_zcopy' },
        { name: 'UCX_RNDV_THRESH', value: '0' },
        { name: 'UCX_IB_REG_METHODS', value: 'odp,rcache' },
        { name: 'UCX_CUDA_COPY_DMABUF', value: 'yes' },
        { name: 'UCX_IB_GPU_DIRECT_RDMA', value: 'no' },
        { name: GPU_NIC_MAP_ENV, value: map }
      ])
      expect(want.args[0].startsWith(NET_DEVICES_PRELUDE)).toBe(true)
    } else {
      expect(want.env).toBeUndefined()
      expect(want.args[0]).not.toContain('UCX_NET_DEVICES')
    }
    expect(want.resources).toEqual({
      requests: { [`rdma/${s.stack.rdmaResourceName}`]: '1', 'nvidia.com/gpu': '1' },
      limits: { [`rdma/${s.stack.rdmaResourceName}`]: '1', 'nvidia.com/gpu': '1' }
    })
  })

  it('the client needs its server’s IP, and only safe words go into the scripts', () => {
    const s = settings()
    expect(() => transportPod({ settings: s, role: 'client', node: 'n1', gpuNicMap: '' })).toThrow(
      /server pod IP/
    )
    expect(() =>
      transportPod({ settings: s, role: 'client', node: 'n1', gpuNicMap: '', serverIp: '1.2.3.4; rm -rf /' })
    ).toThrow(/unsafe word/)
  })

  it('docs/transport-check.md shows the snippet of the default inputs as the job summary renders it', () => {
    const readme = readFileSync('docs/transport-check.md', 'utf8')
    expect(readme).toContain('```yaml\n' + workloadYaml(dynamoWorkerSnippet(settings())) + '\n```')
  })
})

describe('the GPU→NIC map', () => {
  it('each GPU with the active IB NIC local to it, in nvidia-smi’s bus id form', () => {
    expect(gpuNicMapOf(h100Probe('n0'))).toBe(
      [
        '00000001:00:00.0=mlx5_ib0',
        '00000002:00:00.0=mlx5_ib1',
        '00000003:00:00.0=mlx5_ib2',
        '00000008:00:00.0=mlx5_ib3',
        '00000009:00:00.0=mlx5_ib4',
        '0000000A:00:00.0=mlx5_ib5',
        '0000000B:00:00.0=mlx5_ib6',
        '0000000C:00:00.0=mlx5_ib7'
      ].join(' ')
    )
    expect(nvidiaSmiBusId('000a:00:00.0')).toBe('0000000A:00:00.0')
  })

  it('the pair: the first two nodes with GPUs and an active port; fewer is a reason', () => {
    const ok = h100Probe
    const pair = transportPair(new Map(['n10', 'n2', 'n1'].map(n => [n, ok(n)])))
    expect(Array.isArray(pair) && pair.map(f => f.node)).toEqual(['n1', 'n2'])
    expect(transportPair(new Map([['n1', ok('n1')]]))).toBe(
      'needs two RDMA nodes with GPUs and an active InfiniBand port, found 1 (n1)'
    )
  })
})

describe('plan and inputs', () => {
  it('the plan shows the pods, what they check and run, and the pass rule', () => {
    const s = settings()
    const plan = buildPlan(s)
    expect(plan.transport).toMatchObject({
      enabled: true,
      image: 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.6.2',
      resources: { 'rdma/hca_shared_devices_a': '1', 'nvidia.com/gpu': '1' }
    })
    const text = renderPlanText(plan)
    expect(text).toContain('Transport check (ucx, image nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.6.2)')
    expect(text).toContain('  server: ucx_perftest -p 13337')
    expect(text).toContain(
      '  client: UCX_PROTO_INFO=y ucx_perftest <server-pod-ip> -p 13337 -t ucp_get -m cuda,cuda -s 67108864 -n 200 -w 20'
    )
    expect(text).toMatch(/pass: .*≥ 0\.8 × the NIC's link rate/)
    expect(renderPlanText(buildPlan(settings({ 'transport-check': 'none' })))).toContain(
      'Transport check: off (transport-check: none)'
    )
  })

  it('bad values are refused naming the input; the check needs two nodes and GPUs', () => {
    expect(problems({ 'transport-check': 'nixl' })).toContain(
      'transport-check "nixl": must be one of none, ucx'
    )
    expect(problems({ 'transport-ucx-env': 'all' })).toContain(
      'transport-ucx-env "all": must be one of dynamo, defaults'
    )
    expect(problems({ 'transport-image': 'nvcr.io/nvidia/ai-dynamo/vllm-runtime' })[0]).toMatch(
      /^transport-image .*: must be an image reference pinned by tag or digest/
    )
    expect(problems({ 'transport-check': 'ucx', 'node-count': '1', benchmark: 'false' })).toContain(
      'transport-check "ucx": needs node-count of at least 2 (the check runs one worker pod on each of two nodes), got 1'
    )
    expect(problems({ 'transport-check': 'ucx', 'vm-size': 'Standard_HB120rs_v3' }).join('\n')).toMatch(
      /^transport-check "ucx": Standard_HB120rs_v3 has no GPUs, and the check moves GPU memory/m
    )
    expect(settings().transport).toEqual({
      check: 'ucx',
      image: 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.6.2',
      ucxEnv: 'dynamo'
    })
    expect(readSettings(reader(VALID_APPLY), {}).settings.transport.check).toBe('none')
  })

  it("the default runtime image covers arm64 (GB200), a given one is the user's to vouch for", () => {
    const gb200 = {
      'vm-size': 'Standard_ND128isr_NDR_GB200_v6',
      benchmark: 'false',
      'transport-check': 'ucx'
    }
    expect(problems(gb200)).toEqual([])
    expect(problems({ ...gb200, 'transport-image': 'example.io/my-dynamo-runtime:1.0' })).toEqual([])
  })
})
