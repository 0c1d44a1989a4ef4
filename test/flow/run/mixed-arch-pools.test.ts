// An amd64 pool (H100, Ubuntu 22.04) and an arm64 pool (GB300, Ubuntu 24.04) managed together
// through the whole action flow: the Network Operator renders one OFED DaemonSet per (OS, version,
// kernel) group with that group's architecture in the driver tag, and every pod on every node of
// both pools runs only images published for the node's architecture (the simulated registry
// refuses or fails the others as containerd and runc do), with both pools verified. On the same OS
// and kernel the operator renders one DaemonSet for both (its node pools are keyed by OS and kernel
// only), with the first node's architecture: the arm64 nodes' driver fails to run, and apply fails
// at once naming the architecture and the fix.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals'
import type { FlowResult } from '../../../src/run/flow.js'
import type { KubeObject } from '../../../src/kube/types.js'
import { imagePlatforms } from '../../../sim/kube/images.js'
import type { World } from '../../../sim/world.js'
import { restoreRunner, runFlowQuietly, secretAuthSettings, runnerWorld } from '../../support/runner-env.js'

jest.setTimeout(900_000)

const POOLS = {
  amdpool: { 'vm-size': 'Standard_ND96isr_H100_v5', 'os-sku': 'Ubuntu2204' },
  armpool: { 'vm-size': 'Standard_ND128isr_GB300_v6', 'os-sku': 'Ubuntu2404' }
} as const
type Pool = keyof typeof POOLS

let world: World
const flowLog: string[] = []

async function flow(mode: string, pool: Pool, extra: Record<string, string> = {}): Promise<FlowResult> {
  const s = secretAuthSettings(world, {
    mode,
    'node-pool': pool,
    ...POOLS[pool],
    ...extra,
    'node-count': '2',
    // The default benchmark image is published for amd64 only.
    benchmark: 'false',
    timeout: '40m',
    'step-timeout': '15m'
  })
  return runFlowQuietly(s, flowLog)
}

const list = (group: string, plural: string, namespace?: string): KubeObject[] =>
  world.kube.store.list(world.kube.store.type(group, plural)!, namespace ? { namespace } : {})
    .items as KubeObject[]

afterAll(() => restoreRunner())

describe('an amd64 and an arm64 pool', () => {
  beforeAll(async () => {
    world = await runnerWorld('arch-runner')
    for (const pool of ['amdpool', 'armpool'] as const)
      expect([pool, (await flow('apply', pool)).exitCode]).toEqual([pool, 0])
  })
  afterAll(async () => world?.close())

  it('the nodes carry their architecture; one OFED DaemonSet per OS group, its driver tag of that architecture', () => {
    const archOf = Object.fromEntries(
      list('', 'nodes')
        .filter(n => (n.metadata.labels?.['kubernetes.azure.com/agentpool'] ?? '') in POOLS)
        .map(n => [
          n.metadata.labels?.['kubernetes.azure.com/agentpool'],
          n.metadata.labels?.['kubernetes.io/arch']
        ])
    )
    expect(archOf).toEqual({ amdpool: 'amd64', armpool: 'arm64' })
    const images = list('apps', 'daemonsets', 'network-operator')
      .filter(d => d.metadata.labels?.['nvidia.com/ofed-driver'] !== undefined)
      .map(d => String(d.spec.template.spec.containers[0].image).replace(/^.*:/, ''))
      .sort()
    expect(images).toEqual([
      expect.stringMatching(/-ubuntu22\.04-amd64$/),
      expect.stringMatching(/-ubuntu24\.04-arm64$/)
    ])
  })

  it('every pod on the pools’ nodes runs only images published for its node’s architecture', () => {
    const nodes = new Map(
      list('', 'nodes')
        .filter(n => (n.metadata.labels?.['kubernetes.azure.com/agentpool'] ?? '') in POOLS)
        .map(n => [n.metadata.name, n.metadata.labels?.['kubernetes.io/arch'] as 'amd64' | 'arm64'])
    )
    const pods = list('', 'pods').filter(p => nodes.has(p.spec?.nodeName) && p.status?.phase === 'Running')
    const wrong: string[] = []
    for (const p of pods)
      for (const c of [...(p.spec.initContainers ?? []), ...p.spec.containers]) {
        const arch = nodes.get(p.spec.nodeName)!
        if (!imagePlatforms(world.scenario, c.image).arches.includes(arch))
          wrong.push(`${p.metadata.name}/${c.name} ${c.image} on ${arch}`)
      }
    expect(wrong).toEqual([])
    // The OFED driver, ib-node-config and the device plugin run on all four nodes.
    for (const label of ['nvidia.com/ofed-driver', 'app', 'name'])
      expect(pods.filter(p => p.metadata.labels?.[label] !== undefined).length).toBeGreaterThanOrEqual(4)
  })

  it('verify of each pool passes', async () => {
    for (const pool of ['amdpool', 'armpool'] as const) {
      const v = await flow('verify', pool)
      expect([pool, v.exitCode, v.report.checks.filter(c => c.status === 'fail').map(c => c.detail)]).toEqual(
        [pool, 0, []]
      )
    }
  })
})

describe('an amd64 and an arm64 pool on the same OS and kernel', () => {
  beforeAll(async () => {
    world = await runnerWorld('arch-same-os-runner')
  })
  afterAll(async () => world?.close())

  it('share one OFED DaemonSet of the first architecture: the arm64 apply fails at once, naming it and the fix', async () => {
    expect((await flow('apply', 'amdpool', { 'os-sku': 'Ubuntu2404' })).exitCode).toBe(0)
    const r = await flow('apply', 'armpool', { 'step-timeout': '60m', timeout: '90m' })
    expect(r.exitCode).not.toBe(0)
    const step = r.report.steps.find(s => s.name === 'nic-cluster-policy')
    expect(step?.status).toBe('failure')
    expect(step?.detail).toMatch(/runs \S+-ubuntu24\.04-amd64, built for amd64, on this arm64 node/)
    expect(step?.detail).toContain('os-sku Ubuntu2204')
    const sets = list('apps', 'daemonsets', 'network-operator').filter(
      d => d.metadata.labels?.['nvidia.com/ofed-driver'] !== undefined
    )
    expect(sets.map(d => String(d.spec.template.spec.containers[0].image).replace(/^.*-/, ''))).toEqual([
      'amd64'
    ])
  })
})
