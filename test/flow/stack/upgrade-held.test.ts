// A GPU driver upgrade held by a pod that will not go, on the simulated cluster: the stack applied at
// the GPU Operator version before the pin, a bare pod using a GPU (no controller: the GPU
// Operator's pod deletion may not remove it, gpuPodDeletion.force is off) on one node, then apply at
// the pinned version with a short step-timeout. While waiting the run names that pod and its node
// (with the fix); the step's failure names the node, its upgrade state and the documented fix.
import { jest } from '@jest/globals'
import { KubeClient } from '../../../src/kube/client.js'
import type { KubeObject } from '../../../src/kube/types.js'
import {
  applyOn,
  chartVersionBefore as previous,
  collectLog,
  poolNodes,
  stackWorldForTests
} from '../../support/stack-world.js'
import { barePod, gpuContainer, PYTORCH_IMAGE } from '../../support/gpu-workloads.js'

jest.setTimeout(300_000)

const LABEL = 'nvidia.com/gpu-driver-upgrade-state'

describe('a GPU driver upgrade held by a pod that will not go', () => {
  const w = stackWorldForTests({ nodes: 2 })

  it('names the pod and its node while waiting, and the node, its state and the fix on timeout', async () => {
    const pin = w.settings().stack.gpuOperatorVersion
    const old = { 'gpu-operator-version': previous('gpu-operator', pin) }
    const first = await applyOn(w, { inputs: old })
    if (!first.ok) console.log(first.diagnostics.map(d => d.text).join('\n\n'))
    expect(first.ok).toBe(true)

    const nodes = poolNodes(w).map(n => n.metadata.name)
    const held = nodes.sort()[0]
    const user = KubeClient.fromFile(w.kubeconfigPath, { retries: 0, fieldManager: 'kubectl' })
    await user.applyManifest(
      barePod(
        'notebook',
        { nodeName: held },
        gpuContainer('notebook', PYTORCH_IMAGE, { 'nvidia.com/gpu': '1' })
      )
    )

    const log = collectLog()
    const res = await applyOn(w, { inputs: { 'step-timeout': '30s' }, runId: 'run-2', log })
    expect(res.ok).toBe(false)
    const step = res.steps.find(s => s.name === 'gpu-operator')!
    expect(step.status).toBe('failure')
    const node = w.sim.store.get(w.sim.store.type('', 'nodes')!, undefined, held) as unknown as KubeObject
    expect(node.metadata.labels?.[LABEL]).toBe('upgrade-failed')

    // While waiting: the pod in the way, on its node, with the fix, before the step failed.
    const named = log.lines.findIndex(
      l =>
        l.startsWith('warning: gpu-operator: pod default/notebook on ' + held) && l.includes('no controller')
    )
    expect(named).toBeGreaterThanOrEqual(0)
    expect(log.lines[named]).toContain('kubectl delete pod -n default notebook')
    const failedAt = log.lines.findIndex(l => l.startsWith('error: gpu-operator:'))
    expect(failedAt).toBeGreaterThan(named)
    // The progress lines named the node and its state.
    expect(
      log.lines.some(l => l.startsWith('gpu-operator: ') && l.includes(`held: ${held} (${LABEL}=`))
    ).toBe(true)

    // The failure: the node, its state and the fix; the diagnostic repeats the pod.
    expect(step.detail).toContain(`${held}: GPU driver upgrade failed (${LABEL}=upgrade-failed)`)
    expect(step.detail).toContain(`kubectl drain ${held} --ignore-daemonsets`)
    const diagnostic = res.diagnostics.find(d => d.step === 'gpu-operator')!
    expect(diagnostic.text).toContain('Held nodes (cordoned or mid driver upgrade):')
    expect(diagnostic.text).toContain(`pod default/notebook on ${held}`)
  })
})
