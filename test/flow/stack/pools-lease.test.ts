// The managed pools under concurrent runs: a re-run for a managed pool reads the pools without the
// Lease (a converged re-run takes none), so a run that adds a pool while it waits for the Lease must
// not be undone: when the re-run takes the Lease it reads the pools again and writes the objects
// for all of them. Here another holder keeps the Lease while it records poolc, as a run adding it
// would; the waiting re-run for rdmapool then writes the objects for poolc too — those it had
// already found converged (the NicClusterPolicy, ib-node-config) again, and the rest as it goes.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals'
import { KubeClient } from '../../../src/kube/client.js'
import { acquireLease } from '../../../src/stack/lease.js'
import { OwnershipRecord } from '../../../src/stack/ownership.js'
import { applyStack } from '../../../src/stack/apply.js'
import { collectLog, startStackWorld, useHelmStandin, type StackWorld } from '../../support/stack-world.js'

jest.setTimeout(300_000)

let w: StackWorld

beforeAll(async () => {
  await useHelmStandin()
  w = await startStackWorld({ nodes: 1 })
  for (const name of ['poolb', 'poolc'])
    w.sim.addPool({
      name,
      vmSize: 'Standard_ND96isr_H100_v5',
      count: 1,
      osSku: 'Ubuntu',
      mode: 'User',
      kubernetesVersion: '1.33'
    })
  for (const [pool, runId] of [
    ['rdmapool', 'run-1'],
    ['poolb', 'run-2']
  ]) {
    const r = await applyStack({
      settings: w.settings({ 'node-pool': pool }, runId),
      kubeconfigPath: w.kubeconfigPath,
      log: collectLog()
    })
    expect([pool, r.ok]).toEqual([pool, true])
  }
})

afterAll(async () => w?.close())

const policyPools = (): string[] =>
  w.sim.store
    .tryGet(w.sim.store.type('mellanox.com', 'nicclusterpolicies')!, undefined, 'nic-cluster-policy')
    ?.spec?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms?.[0]?.matchExpressions?.find(
      (e: { key: string }) => e.key === 'kubernetes.azure.com/agentpool'
    )?.values

const dsPools = (name: string): string[] =>
  w.sim.store.tryGet(w.sim.store.type('apps', 'daemonsets')!, 'kube-system', name)?.spec?.template?.spec
    ?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms?.[0]
    ?.matchExpressions?.[0]?.values

describe('a re-run that waited for the Lease', () => {
  it('writes the objects for the pools recorded while it waited', async () => {
    expect(policyPools()).toEqual(['poolb', 'rdmapool'])
    const kube = KubeClient.fromFile(w.kubeconfigPath, { retries: 3 })
    const other = await acquireLease(kube, { holder: 'run-x', timeoutMs: 60_000, leaseDurationSeconds: 60 })
    // A change that makes the re-run write (the device plugin's config), so it wants the Lease.
    const log = collectLog()
    const rerun = applyStack({
      settings: w.settings(
        { 'node-pool': 'rdmapool', 'rdma-hca-max': '63', 'step-timeout': '4m', timeout: '10m' },
        'run-4'
      ),
      kubeconfigPath: w.kubeconfigPath,
      log
    })
    // Once it waits for the Lease, the holder records poolc (as a run adding it does) and lets go.
    for (let i = 0; i < 600 && !log.lines.some(l => l.includes('is held by run run-x')); i++)
      await new Promise(r => setTimeout(r, 100))
    expect(log.lines.some(l => l.includes('is held by run run-x'))).toBe(true)
    expect(log.lines).toContain('the stack serves pools poolb, rdmapool')
    await OwnershipRecord.of(kube, 'run-x').changePools(current => [
      ...(current ?? []),
      { name: 'poolc', state: 'pending', taints: [], runId: 'run-x', at: new Date().toISOString() }
    ])
    await other.release()
    const r = await rerun
    if (!r.ok) console.log(r.diagnostics.map(d => d.text).join('\n'))
    expect(r.ok).toBe(true)
    expect(log.lines).toContain("the stack's pools: poolb, rdmapool → poolb, poolc, rdmapool")
    // The steps it had converged before the Lease are written again for poolc, and the rest for it too.
    expect(policyPools()).toEqual(['poolb', 'poolc', 'rdmapool'])
    for (const ds of ['ib-node-config', 'rdma-shared-dp-ds'])
      expect([ds, dsPools(ds)]).toEqual([ds, ['poolb', 'poolc', 'rdmapool']])
  })
})
