// Several RDMA pools on one cluster through the whole action flow: `apply` for rdmapool (H100),
// then `apply` for poolb (A100, another VM size, a pool the action creates) leaves the cluster-wide
// objects selecting both pools (the record lists them), each pool verified, without drift, and
// benchmarked at its own link rate; `uninstall` of poolb takes it out of the managed pools and
// leaves rdmapool verified, its OFED driver and device plugin running, and poolb's driver pods gone.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals'
import type { FlowResult } from '../../../src/run/flow.js'
import type { KubeObject } from '../../../src/kube/types.js'
import type { World } from '../../../sim/world.js'
import { runFlowQuietly, secretAuthSettings, runnerWorld, leaveWorld } from '../../support/runner-env.js'

jest.setTimeout(900_000)

const POOLS = {
  rdmapool: { 'vm-size': 'Standard_ND96isr_H100_v5' },
  poolb: { 'vm-size': 'Standard_ND96asr_v4' }
} as const
type Pool = keyof typeof POOLS

let world: World
const flowLog: string[] = []
const applied: Partial<Record<Pool, FlowResult>> = {}

async function flow(mode: string, pool: Pool, extra: Record<string, string> = {}): Promise<FlowResult> {
  const s = secretAuthSettings(world, {
    mode,
    'node-pool': pool,
    ...POOLS[pool],
    'node-count': '2',
    timeout: '40m',
    'step-timeout': '15m',
    ...extra
  })
  return runFlowQuietly(s, flowLog)
}

const list = (group: string, plural: string, namespace?: string): KubeObject[] =>
  world.kube.store.list(world.kube.store.type(group, plural)!, namespace ? { namespace } : {})
    .items as KubeObject[]
const poolOf = (nodeName: string | undefined): string | undefined =>
  list('', 'nodes').find(n => n.metadata.name === nodeName)?.metadata.labels?.[
    'kubernetes.azure.com/agentpool'
  ]
/** The pools whose nodes run a Running pod labelled `label` in `namespace`, each node once. */
function poolsRunning(namespace: string, label: string): string[] {
  const pods = list('', 'pods', namespace).filter(
    p =>
      p.metadata.labels?.[label.split('=')[0]] === (label.split('=')[1] ?? '') &&
      p.status?.phase === 'Running'
  )
  return [...new Set(pods.map(p => poolOf(p.spec?.nodeName)))].filter(Boolean).sort() as string[]
}
const recordedPools = (): Array<{ name: string; state: string }> =>
  JSON.parse(
    list('', 'configmaps', 'kube-system').find(c => c.metadata.name === 'aks-rdma-action-owned')?.data?.[
      'pools.json'
    ] ?? 'null'
  )
const policyPools = (): string[] =>
  list(
    'mellanox.com',
    'nicclusterpolicies'
  )[0]?.spec?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms?.[0]?.matchExpressions?.find(
    (e: { key: string }) => e.key === 'kubernetes.azure.com/agentpool'
  )?.values
const linkRates = (r: FlowResult | undefined): number[] => [
  ...new Set((r?.report.benchmark?.pairs ?? []).map(p => p.linkGbps ?? 0))
]

beforeAll(async () => {
  world = await runnerWorld('pools-runner')
  applied.rdmapool = await flow('apply', 'rdmapool')
  expect(applied.rdmapool.exitCode).toBe(0)
  applied.poolb = await flow('apply', 'poolb')
  expect(applied.poolb.exitCode).toBe(0)
})

afterAll(() => leaveWorld(world))

describe('two managed pools of different VM sizes', () => {
  it('the second apply adds its pool: the objects select both, the record lists both as managed', () => {
    expect(policyPools()).toEqual(['poolb', 'rdmapool'])
    expect(recordedPools().map(p => [p.name, p.state])).toEqual([
      ['rdmapool', 'managed'],
      ['poolb', 'managed']
    ])
    for (const ds of ['ib-node-config', 'rdma-shared-dp-ds'])
      expect(
        list('apps', 'daemonsets', 'kube-system').find(d => d.metadata.name === ds)?.spec?.template?.spec
          ?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms?.[0]
          ?.matchExpressions
      ).toEqual([{ key: 'kubernetes.azure.com/agentpool', operator: 'In', values: ['poolb', 'rdmapool'] }])
    // The OFED driver, ib-node-config and the device plugin run on both pools.
    expect(poolsRunning('network-operator', 'nvidia.com/ofed-driver')).toEqual(['poolb', 'rdmapool'])
    expect(poolsRunning('kube-system', 'app=ib-node-config')).toEqual(['poolb', 'rdmapool'])
    expect(poolsRunning('kube-system', 'name=rdma-shared-dp-ds')).toEqual(['poolb', 'rdmapool'])
  })

  it('each pool is benchmarked at its own link rate', () => {
    expect(linkRates(applied.rdmapool)).toEqual([400])
    expect(linkRates(applied.poolb)).toEqual([200])
  })

  it('verify of each pool passes and drift of each is clean', async () => {
    for (const pool of ['rdmapool', 'poolb'] as const) {
      const v = await flow('verify', pool, { benchmark: 'false' })
      expect([pool, v.exitCode, v.report.checks.filter(c => c.status === 'fail').map(c => c.name)]).toEqual([
        pool,
        0,
        []
      ])
      const d = await flow('drift', pool)
      expect([pool, d.exitCode, d.report.drift?.map(i => i.field) ?? []]).toEqual([pool, 0, []])
    }
  })

  it('uninstall of poolb takes it out and leaves rdmapool verified, its driver and device plugin running', async () => {
    const u = await flow('uninstall', 'poolb')
    expect(u.exitCode).toBe(0)
    expect(u.report.steps.find(s => s.name === 'pools')?.detail).toMatch(/^pool poolb taken out/)
    expect(policyPools()).toEqual(['rdmapool'])
    expect(recordedPools().map(p => [p.name, p.state])).toEqual([['rdmapool', 'managed']])
    const v = await flow('verify', 'rdmapool', { benchmark: 'false' })
    expect(v.exitCode).toBe(0)
    expect(poolsRunning('network-operator', 'nvidia.com/ofed-driver')).toEqual(['rdmapool'])
    expect(poolsRunning('kube-system', 'name=rdma-shared-dp-ds')).toEqual(['rdmapool'])
    expect(poolsRunning('kube-system', 'app=ib-node-config')).toEqual(['rdmapool'])
  })
})
