// A downgrade on a running cluster, against the simulated cluster and the helm stand-in: the GPU
// Operator installed at v26.3.3 and upgraded to v26.7.0 (its CRDs applied first, each stamped with
// the chart version), then apply asks for v26.3.3 again. Without allow-downgrade the run is
// refused before any write, naming both versions and the input; with it the release goes back
// but every CRD that came from v26.7.0 stays as it is.
import { jest } from '@jest/globals'
import { chartOwnCrds } from '../../../sim/helm/crds.js'
import type { KubeObject } from '../../../src/kube/types.js'
import { applyStack } from '../../../src/stack/index.js'
import { CRD_SOURCE } from '../../../src/stack/downgrade.js'
import { applyOn, collectLog, stackWorldForTests, storeList } from '../../support/stack-world.js'

jest.setTimeout(300_000)

const OLD = 'v26.3.3'
const NEW = 'v26.7.0'
const OLD_DOCA = 'doca3.3.0-26.01-1.0.0.0-0'

describe('a GPU Operator downgrade', () => {
  const w = stackWorldForTests({ nodes: 1 })
  const crd = (name: string): KubeObject | undefined =>
    w.sim.store.tryGet(w.sim.store.type('apiextensions.k8s.io', 'customresourcedefinitions')!, '', name) as
      KubeObject | undefined
  const releaseVersions = (): string[] =>
    storeList(w, 'secrets', 'gpu-operator', 'owner=helm')
      .map((s: any) => `${s.metadata.labels.version}:${s.metadata.labels.status}`)
      .sort()

  it('upgrades as before: the new chart CRDs applied first, stamped with the chart version', async () => {
    const first = await applyOn(w, { inputs: { 'gpu-operator-version': OLD } })
    if (!first.ok) console.log(first.diagnostics.map(d => d.text).join('\n\n'))
    expect(first.ok).toBe(true)
    // helm installed v26.3.3's CRDs with the first install: no stamp.
    expect(crd('clusterpolicies.nvidia.com')?.metadata.annotations?.[CRD_SOURCE.chartVersion]).toBeUndefined()

    const upLog = collectLog()
    const up = await applyOn(w, { inputs: { 'gpu-operator-version': NEW }, runId: 'run-2', log: upLog })
    if (!up.ok) console.log(up.diagnostics.map(d => d.text).join('\n\n'))
    expect(up.ok).toBe(true)
    expect(up.steps.find(s => s.name === 'gpu-operator')?.version).toEqual({ from: OLD, to: NEW })
    // An upgrade runs the chart's hooks as before.
    expect(upLog.lines).toContainEqual(
      `helm upgrade --install gpu-operator nvidia/gpu-operator --version ${NEW} -n gpu-operator --wait`
    )
    for (const c of chartOwnCrds('gpu-operator', NEW))
      expect([c.metadata.name, crd(c.metadata.name)?.metadata.annotations]).toEqual([
        c.metadata.name,
        { ...c.metadata.annotations, [CRD_SOURCE.chart]: 'gpu-operator', [CRD_SOURCE.chartVersion]: NEW }
      ])
  })

  it('is refused before any write, naming both versions and allow-downgrade', async () => {
    w.recorder.reset()
    const log = collectLog()
    const res = await applyOn(w, { inputs: { 'gpu-operator-version': OLD }, runId: 'run-3', log })
    expect(res.ok).toBe(false)
    const failed = res.steps.filter(s => s.status === 'failure')
    expect(failed.map(s => s.name)).toEqual(['gpu-operator'])
    expect(failed[0].detail).toContain(`chart nvidia/gpu-operator ${NEW} is installed, ${OLD} was asked for`)
    expect(failed[0].detail).toContain('allow-downgrade: true')
    expect(res.steps.filter(s => s.status !== 'failure').map(s => s.status)).toEqual(
      Array(res.steps.length - 1).fill('skipped')
    )
    expect(res.diagnostics.map(d => d.title)).toEqual(['Downgrade refused'])
    // Not one write: no Lease, no CRD, no helm release, no manifest.
    expect(w.recorder.records.filter(r => r.mutating)).toEqual([])
    expect(w.recorder.records.length).toBeGreaterThan(0)
    expect(releaseVersions().filter(v => v.endsWith(':deployed'))).toEqual(['2:deployed'])
  })

  it('refuses an older DOCA driver too, each component named with its versions', async () => {
    const live = w.settings().stack.docaDriverVersion
    w.recorder.reset()
    const res = await applyOn(w, {
      inputs: { 'gpu-operator-version': OLD, 'doca-driver-version': OLD_DOCA },
      runId: 'run-3b'
    })
    expect(res.ok).toBe(false)
    const failed = res.steps.filter(s => s.status === 'failure')
    expect(failed.map(s => s.name)).toEqual(['nic-cluster-policy', 'gpu-operator'])
    expect(failed[0].detail).toContain(
      `nic-cluster-policy: NicClusterPolicy spec.ofedDriver.version ${live} is installed, ${OLD_DOCA} was asked for`
    )
    expect(failed[1].detail).toContain(
      `gpu-operator: chart nvidia/gpu-operator ${NEW} is installed, ${OLD} was asked for`
    )
    expect(w.recorder.records.filter(r => r.mutating)).toEqual([])
  })

  it('a version it cannot read stops the run there, before any write', async () => {
    w.recorder.reset()
    const res = await applyStack({
      // A helm whose hash is not the one given is never run: no release can be read.
      settings: w.settings({ 'helm-sha256': '0'.repeat(64) }, 'run-3c'),
      kubeconfigPath: w.kubeconfigPath,
      log: collectLog()
    })
    expect(res.ok).toBe(false)
    expect(res.steps.filter(s => s.status === 'failure').map(s => s.name)).toEqual(['network-operator'])
    expect(res.steps.find(s => s.name === 'network-operator')?.detail).toMatch(
      /^could not read the installed version \(read before any write, to refuse a downgrade\): .*helm/
    )
    expect(res.diagnostics.map(d => d.step)).toEqual(['network-operator'])
    expect(w.recorder.records.filter(r => r.mutating)).toEqual([])
  })

  it('with allow-downgrade goes back to the older chart but keeps the newer CRDs', async () => {
    const before = new Map(
      chartOwnCrds('gpu-operator', NEW).map(c => [c.metadata.name, crd(c.metadata.name)])
    )
    w.recorder.reset()
    const log = collectLog()
    const res = await applyOn(w, {
      inputs: { 'gpu-operator-version': OLD, 'allow-downgrade': 'true' },
      runId: 'run-4',
      log
    })
    if (!res.ok) console.log(res.diagnostics.map(d => d.text).join('\n\n'))
    expect(res.ok).toBe(true)
    const step = res.steps.find(s => s.name === 'gpu-operator')!
    expect(step.version).toEqual({ from: NEW, to: OLD })
    expect(releaseVersions().filter(v => v.endsWith(':deployed'))).toEqual(['3:deployed'])
    expect(log.lines).toContainEqual(
      `warning: gpu-operator: downgrading chart nvidia/gpu-operator ${NEW} → ${OLD} (allow-downgrade: true)`
    )
    // v26.3.3's CRDs differ from v26.7.0's: each is kept, said so in the log and the step's detail.
    const olderOnes = chartOwnCrds('gpu-operator', OLD).map(c => c.metadata.name)
    expect(olderOnes).toContain('clusterpolicies.nvidia.com')
    for (const name of olderOnes) {
      expect(step.detail).toContain(`customresourcedefinition/${name} kept: applied from gpu-operator ${NEW}`)
      expect(crd(name)?.metadata.resourceVersion).toBe(before.get(name)?.metadata.resourceVersion)
      expect(crd(name)?.metadata.annotations?.[CRD_SOURCE.chartVersion]).toBe(NEW)
    }
    expect(w.recorder.records.filter(r => r.mutating && r.resource === 'customresourcedefinitions')).toEqual(
      []
    )
    // The older chart's own CRD upgrade hook would apply its CRDs: helm runs without hooks.
    expect(log.lines).toContainEqual(
      `helm upgrade --install gpu-operator nvidia/gpu-operator --version ${OLD} -n gpu-operator --wait --no-hooks`
    )
    expect(step.detail).toContain('with --no-hooks (its CRD upgrade hook would apply the older CRDs)')
  })
})
