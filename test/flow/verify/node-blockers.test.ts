// A node held out of service, on the simulated cluster: one left cordoned by an interrupted run is
// named by verify (nodes-ready) and by drift (the nodes component) with `kubectl uncordon <node>`;
// one a GPU driver upgrade could not take (a pod using its GPUs whose PodDisruptionBudget refuses
// the eviction until the pod deletion's timeout) is named with its state, upgrade-failed as the
// simulator's upgrade controller sets it, the fix upstream documents, and the pod and its budget.
import { describe, expect, it, jest } from '@jest/globals'
import { nodeDrift } from '../../../src/drift/nodes.js'
import { nodeBlockers } from '../../../src/model/node-blockers.js'
import { podsHolding } from '../../../src/stack/held-nodes.js'
import type { KubeObject } from '../../../src/kube/types.js'
import type { Check } from '../../../src/verify/index.js'
import { rdmaWorldForTests, verifyOn } from '../../support/verify-world.js'
import { podReady, trainerDeployment } from '../../support/gpu-workloads.js'

jest.setTimeout(240_000)

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms))
const nodesReady = (checks: Check[]) => checks.find(c => c.name === 'nodes-ready')!

describe('nodes held out of service', () => {
  const w = rdmaWorldForTests({ nodes: 2 })
  const nodeType = () => w.sim.store.type('', 'nodes')!
  const node = (name: string) => w.sim.store.get(nodeType(), undefined, name) as unknown as KubeObject
  const setUnschedulable = (name: string, on: boolean) =>
    w.sim.store.mutate(nodeType(), undefined, name, o => {
      o.spec = { ...(o.spec ?? {}), unschedulable: on }
    })

  it('names a node left cordoned, in verify and in drift, with kubectl uncordon', async () => {
    const [cordoned, other] = w.rdmaNodes()
    setUnschedulable(cordoned, true)
    try {
      const v = await verifyOn(w, 'drift')
      const check = nodesReady(v.checks)
      expect(check.status).toBe('fail')
      const result = check.nodes!.find(n => n.node === cordoned)!
      expect(result.status).toBe('fail')
      expect(result.detail).toContain(`kubectl uncordon ${cordoned}`)
      expect(check.nodes!.find(n => n.node === other)!.status).toBe('pass')
      expect(check.detail).toContain(cordoned)

      const items = await nodeDrift(w.kube, w.settings.nodePool.name)
      expect(items).toEqual([
        expect.objectContaining({
          component: 'nodes',
          field: `node/${cordoned} spec.unschedulable`,
          fixableByApply: false,
          hint: `kubectl uncordon ${cordoned}`
        })
      ])
    } finally {
      setUnschedulable(cordoned, false)
    }
    expect(await nodeDrift(w.kube, w.settings.nodePool.name)).toEqual([])
  })

  it('names a node a GPU driver upgrade could not take, with its state and the fix', async () => {
    const [held] = w.rdmaNodes()
    // A trainer using a GPU on that node, its PodDisruptionBudget allowing no disruption: the GPU
    // Operator's pod deletion evicts, the eviction is refused until its timeout.
    await w.kube.applyManifest(
      trainerDeployment(
        1,
        { nodeSelector: { 'kubernetes.io/hostname': held }, tolerations: [{ operator: 'Exists' }] },
        { 'nvidia.com/gpu': '1' }
      )
    )
    await w.kube.applyManifest({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'trainer', namespace: 'default' },
      spec: { minAvailable: 1, selector: { matchLabels: { app: 'trainer' } } }
    })
    const pods = () =>
      w.sim.store.list(w.sim.store.type('', 'pods')!, { namespace: 'default', labelSelector: 'app=trainer' })
        .items as unknown as KubeObject[]
    for (let i = 0; i < 1200 && !pods().some(podReady); i++) await sleep(50)
    expect(
      pods()
        .filter(podReady)
        .map(p => p.spec.nodeName)
    ).toEqual([held])
    // A new driver version in the ClusterPolicy: the operator replaces the driver node by node.
    const cpType = w.sim.store.type('nvidia.com', 'clusterpolicies')!
    w.sim.store.mutate(cpType, undefined, 'cluster-policy', o => {
      o.spec.driver = { ...o.spec.driver, version: '580.999.01' }
    })
    const label = 'nvidia.com/gpu-driver-upgrade-state'
    for (let i = 0; i < 2400 && node(held).metadata.labels?.[label] !== 'upgrade-failed'; i++) await sleep(50)
    expect(node(held).metadata.labels?.[label]).toBe('upgrade-failed')

    const v = await verifyOn(w, 'drift')
    const result = nodesReady(v.checks).nodes!.find(n => n.node === held)!
    expect(result.status).toBe('fail')
    expect(result.detail).toContain(`(${label}=upgrade-failed)`)
    expect(result.detail).toContain(`kubectl drain ${held} --ignore-daemonsets`)
    expect(result.detail).toContain(
      `kubectl delete pod -n gpu-operator -l app=nvidia-driver-daemonset --field-selector spec.nodeName=${held}`
    )
    const gpu = v.checks.find(c => c.name === 'gpu-operator')!
    expect(gpu.nodes!.find(n => n.node === held)!.detail).toContain('upgrade-failed')

    // The pod in the way, its budget, and the operator's own word on the node.
    const [blocker] = nodeBlockers(node(held))
    const lines = await podsHolding(w.kube, blocker)
    expect(lines[0]).toMatch(
      new RegExp(
        `^pod default/trainer-\\S+ on ${held}: PodDisruptionBudget default/trainer allows no disruption`
      )
    )
    expect(lines.at(-1)).toMatch(
      /event GPUDriverUpgrade: Failed to delete workload pods on the node for the driver upgrade, drain did not complete within 5m0s$/
    )

    const items = await nodeDrift(w.kube, w.settings.nodePool.name)
    expect(items).toContainEqual(
      expect.objectContaining({
        component: 'nodes',
        field: `node/${held} label ${label}`,
        actual: expect.stringMatching(/^upgrade-failed: /),
        hint: expect.stringContaining(`kubectl drain ${held}`)
      })
    )
  })
})
