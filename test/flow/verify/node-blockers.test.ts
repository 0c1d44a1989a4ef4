// A node held out of service, on the simulated cluster: one left cordoned by an interrupted run is
// named by verify (nodes-ready) and by drift (the nodes component) with `kubectl uncordon <node>`;
// one a GPU driver upgrade could not take (a pod using its GPUs that the GPU Operator may not
// delete: no controller, gpuPodDeletion.force off) is named with its state, upgrade-failed as the
// simulator's upgrade controller sets it, and the fix upstream documents.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals'
import { nodeDrift } from '../../../src/drift/nodes.js'
import type { KubeObject } from '../../../src/kube/types.js'
import { runVerification, type Check } from '../../../src/verify/index.js'
import { startRdmaWorld, type RdmaWorld } from '../../support/verify-world.js'

jest.setTimeout(240_000)

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms))
const nodesReady = (checks: Check[]) => checks.find(c => c.name === 'nodes-ready')!

describe('nodes held out of service', () => {
  let w: RdmaWorld
  const nodeType = () => w.sim.store.type('', 'nodes')!
  const node = (name: string) => w.sim.store.get(nodeType(), undefined, name) as unknown as KubeObject
  const setUnschedulable = (name: string, on: boolean) =>
    w.sim.store.mutate(nodeType(), undefined, name, o => {
      o.spec = { ...(o.spec ?? {}), unschedulable: on }
    })

  beforeAll(async () => {
    w = await startRdmaWorld({ nodes: 2 })
  })
  afterAll(async () => {
    await w?.close()
  })

  it('names a node left cordoned, in verify and in drift, with kubectl uncordon', async () => {
    const [cordoned, other] = w.rdmaNodes()
    setUnschedulable(cordoned, true)
    try {
      const v = await runVerification({ settings: w.settings, kube: w.kube, mode: 'drift' })
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
    // A bare pod (no controller) using a GPU: the GPU Operator's pod deletion may not remove it.
    await w.kube.applyManifest({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'notebook', namespace: 'default' },
      spec: {
        nodeName: held,
        containers: [
          {
            name: 'notebook',
            image: 'nvcr.io/nvidia/pytorch:25.01-py3',
            resources: { requests: { 'nvidia.com/gpu': '1' }, limits: { 'nvidia.com/gpu': '1' } }
          }
        ]
      }
    })
    // A new driver version in the ClusterPolicy: the operator replaces the driver node by node.
    const cpType = w.sim.store.type('nvidia.com', 'clusterpolicies')!
    w.sim.store.mutate(cpType, undefined, 'cluster-policy', o => {
      o.spec.driver = { ...o.spec.driver, version: '580.999.01' }
    })
    const label = 'nvidia.com/gpu-driver-upgrade-state'
    for (let i = 0; i < 2400 && node(held).metadata.labels?.[label] !== 'upgrade-failed'; i++) await sleep(50)
    expect(node(held).metadata.labels?.[label]).toBe('upgrade-failed')

    const v = await runVerification({ settings: w.settings, kube: w.kube, mode: 'drift' })
    const result = nodesReady(v.checks).nodes!.find(n => n.node === held)!
    expect(result.status).toBe('fail')
    expect(result.detail).toContain(`(${label}=upgrade-failed)`)
    expect(result.detail).toContain(`kubectl drain ${held} --ignore-daemonsets`)
    expect(result.detail).toContain(
      `kubectl delete pod -n gpu-operator -l app=nvidia-driver-daemonset --field-selector spec.nodeName=${held}`
    )
    const gpu = v.checks.find(c => c.name === 'gpu-operator')!
    expect(gpu.nodes!.find(n => n.node === held)!.detail).toContain('upgrade-failed')

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
