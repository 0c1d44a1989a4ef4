// An upgrade of both operators on a running 4-node pool, the way NVIDIA documents it, against the
// simulated cluster and the helm stand-in: the stack applied at the newest versions the simulator
// serves before the pins (and an older DOCA driver), a workload of two GPU + RDMA pods running
// (one per node), then apply at the pinned versions (parametrised: a pin change moves both ends).
// The charts' CRDs are applied before each `helm upgrade`; the OFED driver and then the GPU driver
// are replaced by their operators node by node (their upgradePolicy: cordon, drain or GPU pod
// deletion, restart, uncordon) with never more than one node out at a time, one at a time for the
// two operators together; the workload always has a Ready pod; the summary shows from → to; drift
// then finds every cluster component as desired.
import { jest } from '@jest/globals'
import { chartOwnCrds } from '../../../sim/helm/crds.js'
import { nicClusterPolicySpec } from '../../../src/components/nic-cluster-policy.js'
import { detectDrift } from '../../../src/stack/drift.js'
import { KubeClient } from '../../../src/kube/client.js'
import { emptyReport } from '../../../src/report/report.js'
import { renderSummary } from '../../../src/report/summary.js'
import { CRD_SOURCE } from '../../../src/stack/downgrade.js'
import {
  applyOn,
  chartVersionBefore as previous,
  collectLog,
  POOL,
  poolNodes,
  stackWorldForTests,
  storeList
} from '../../support/stack-world.js'
import { podReady, trainerDeployment } from '../../support/gpu-workloads.js'

jest.setTimeout(420_000)

const NODES = 4
const OLD_DOCA = 'doca3.3.0-26.01-1.0.0.0-0'
/** Driver rollouts take simulated minutes per node: real-time limits with room for a busy machine. */
const UPGRADE_RUN = { rollout: 'pipelined', 'step-timeout': '5m', timeout: '15m' }

const WORKLOAD = trainerDeployment(
  2,
  {
    affinity: {
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { labelSelector: { matchLabels: { app: 'trainer' } }, topologyKey: 'kubernetes.io/hostname' }
        ]
      }
    },
    nodeSelector: { 'kubernetes.azure.com/agentpool': POOL }
  },
  { 'nvidia.com/gpu': '1', 'rdma/hca_shared_devices_a': '1' }
)

describe(`upgrading both operators on a running ${NODES}-node pool`, () => {
  // A slower clock than the other stack suites: a replacement pod's start (a few simulated
  // seconds, several timer steps) must stay shorter than a driver's reload (minutes) however
  // busy the machine is.
  const w = stackWorldForTests({
    nodes: NODES,
    scenario: { kube: { timeScale: 0.01, delays: { mofed: '100s', gpuDriver: '80s', default: '5s' } } }
  })
  const list = (group: string, res: string, o: { namespace?: string; labelSelector?: string } = {}) =>
    storeList(w, res, o.namespace, o.labelSelector, group)
  const readyTrainers = (): number =>
    list('', 'pods', { namespace: 'default', labelSelector: 'app=trainer' }).filter(podReady).length

  it('rolls the drivers node by node, keeps the workload running and reports from → to', async () => {
    const to = w.settings(UPGRADE_RUN).stack
    const from = {
      'network-operator-version': previous('network-operator', to.networkOperatorVersion),
      'gpu-operator-version': previous('gpu-operator', to.gpuOperatorVersion),
      'doca-driver-version': OLD_DOCA
    }
    const first = await applyOn(w, { inputs: { ...UPGRADE_RUN, ...from } })
    if (!first.ok) console.log(first.diagnostics.map(d => d.text).join('\n\n'))
    expect(first.ok).toBe(true)

    const user = KubeClient.fromFile(w.kubeconfigPath, { retries: 0, fieldManager: 'kubectl' })
    await user.applyManifest(WORKLOAD)
    for (let i = 0; i < 600 && readyTrainers() < 2; i++) await new Promise(r => setTimeout(r, 50))
    expect(readyTrainers()).toBe(2)

    // Watch the nodes and the workload for the whole upgrade.
    const out = new Set<string>()
    const everOut = new Set<string>()
    let maxOut = 0
    let minReady = readyTrainers()
    const stop = w.sim.store.onChange((e, t) => {
      if (t.kind === 'Node' && e.object.metadata.labels?.['kubernetes.azure.com/agentpool'] === POOL) {
        if (e.object.spec?.unschedulable) out.add(e.object.metadata.name)
        else out.delete(e.object.metadata.name)
        for (const n of out) everOut.add(n)
        maxOut = Math.max(maxOut, out.size)
      }
      if (t.kind === 'Pod' && e.object.metadata.labels?.app === 'trainer') {
        minReady = Math.min(minReady, readyTrainers())
      }
    })
    w.recorder.reset()
    const log = collectLog()
    const res = await applyOn(w, { inputs: UPGRADE_RUN, runId: 'run-2', log })
    stop()
    if (!res.ok) console.log(res.diagnostics.map(d => d.text).join('\n\n'))
    expect(res.ok).toBe(true)

    // from → to per component, in the steps and in the summary.
    const versions = Object.fromEntries(res.steps.filter(s => s.version).map(s => [s.name, s.version]))
    expect(versions).toEqual({
      'network-operator': { from: from['network-operator-version'], to: to.networkOperatorVersion },
      'nic-cluster-policy': { from: OLD_DOCA, to: to.docaDriverVersion },
      'gpu-operator': { from: from['gpu-operator-version'], to: to.gpuOperatorVersion }
    })
    const summary = renderSummary({ ...emptyReport('apply'), steps: res.steps })
    expect(summary).toContain(`${from['gpu-operator-version']} → ${to.gpuOperatorVersion}`)
    expect(summary).toContain(`${OLD_DOCA} → ${to.docaDriverVersion}`)

    // Never more nodes out than the policy allows, every node's driver replaced in turn.
    const policy = nicClusterPolicySpec(w.settings()).ofedDriver as {
      upgradePolicy: { maxParallelUpgrades: number }
    }
    expect(maxOut).toBeGreaterThan(0)
    expect(maxOut).toBeLessThanOrEqual(policy.upgradePolicy.maxParallelUpgrades)
    expect(everOut.size).toBe(NODES)
    expect(minReady).toBeGreaterThanOrEqual(1)
    expect(readyTrainers()).toBe(2)
    expect(
      log.lines.some(l =>
        /^nic-cluster-policy: the Network Operator replaces the OFED driver node by node/.test(l)
      )
    ).toBe(true)

    // Every node runs the new drivers, uncordoned, its upgrade done.
    for (const n of poolNodes(w)) {
      expect(n.spec?.unschedulable ?? false).toBe(false)
      expect(n.metadata.labels?.['nvidia.com/ofed-driver-upgrade-state']).toBe('upgrade-done')
      expect(n.metadata.labels?.['nvidia.com/gpu-driver-upgrade-state']).toBe('upgrade-done')
    }
    const ofed = list('', 'pods', { namespace: 'network-operator', labelSelector: 'nvidia.com/ofed-driver' })
    expect(ofed.map(p => p.spec.containers[0].image.includes(`:${to.docaDriverVersion}-`))).toEqual(
      Array(NODES).fill(true)
    )
    const policyVersion = list('nvidia.com', 'clusterpolicies')[0].spec.driver.version
    const drivers = list('', 'pods', {
      namespace: 'gpu-operator',
      labelSelector: 'app=nvidia-driver-daemonset'
    })
    expect(drivers.map(p => p.spec.containers[0].image.includes(`:${policyVersion}`))).toEqual(
      Array(NODES).fill(true)
    )

    // The pinned charts' CRDs are there, applied before each chart's upgrade.
    const crds = new Map(
      list('apiextensions.k8s.io', 'customresourcedefinitions').map(c => [c.metadata.name, c])
    )
    for (const [chart, version] of [
      ['network-operator', to.networkOperatorVersion],
      ['gpu-operator', to.gpuOperatorVersion]
    ])
      for (const c of chartOwnCrds(chart, version))
        expect([c.metadata.name, crds.get(c.metadata.name)?.metadata.annotations]).toEqual([
          c.metadata.name,
          // Stamped with the chart version they came from: a downgrade never replaces them.
          { ...c.metadata.annotations, [CRD_SOURCE.chart]: chart, [CRD_SOURCE.chartVersion]: version }
        ])
    const crdWrite = w.recorder.records.findIndex(
      r => r.mutating && r.resource === 'customresourcedefinitions' && /clusterpolicies/.test(r.path)
    )
    const gpuRelease = w.recorder.records.findIndex(
      r => r.mutating && r.method === 'POST' && r.resource === 'secrets' && /gpu-operator/.test(r.path)
    )
    expect(crdWrite).toBeGreaterThanOrEqual(0)
    expect(crdWrite).toBeLessThan(gpuRelease)

    // Drift after the upgrade: every cluster component as desired (releases, manifests, the driver
    // pods' images), reading only. No Azure connection: the Azure components are not compared.
    w.recorder.reset()
    const drift = await detectDrift({
      settings: w.settings(UPGRADE_RUN, 'run-3'),
      kubeconfigPath: w.kubeconfigPath
    })
    expect(drift).toEqual([])
    expect(w.recorder.records.filter(r => r.mutating)).toEqual([])
  })
})
