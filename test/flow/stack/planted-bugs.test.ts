// Bugs planted in what the action writes fail against the simulator as against a real cluster,
// through the action's own client and modules: the NicClusterPolicy the action renders is accepted
// by the Network Operator's real CRD and stays converged (the schema's defaults are no drift), but a
// field the CRD does not have fails the server-side apply naming it; the work namespace's pod
// cleanup (grace 0) frees a pod's name at once, but deleting with the pod's own grace period and
// re-creating the name at once is refused with `object is being deleted`.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { chartCrds } from '../../../sim/kube/crds/index.js'
import { startWorld, type World } from '../../../sim/world.js'
import { KubeClient } from '../../../src/kube/client.js'
import { KubeRequestError } from '../../../src/kube/errors.js'
import type { KubeObject } from '../../../src/kube/types.js'
import { buildPlan } from '../../../src/plan/plan.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import { createPod, deletePods, ensureWorkNamespace, WORK_NAMESPACE } from '../../../src/verify/workspace.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'

jest.setTimeout(120_000)

let world: World
let dir: string
let kube: KubeClient

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'planted-bugs-'))
  world = await startWorld({
    dir: path.join(dir, 'world'),
    helmCommand: [process.execPath, '-e', 'process.exit(1)']
  })
  const kubeconfig = path.join(dir, 'kubeconfig')
  writeFileSync(kubeconfig, world.kube.kubeconfig('admin'), { mode: 0o600 })
  kube = KubeClient.fromFile(kubeconfig, { retries: 0, backoffBaseMs: 5 })
  // What `helm install network-operator` at the pinned version puts first: the chart's CRDs.
  const crdT = world.kube.store.type('apiextensions.k8s.io', 'customresourcedefinitions')!
  const version = readSettings(reader(VALID_APPLY), {}).settings.stack.networkOperatorVersion
  for (const crd of chartCrds('network-operator', version)) world.kube.store.create(crdT, crd)
  while (!world.kube.store.type('mellanox.com', 'nicclusterpolicies'))
    await new Promise(r => setTimeout(r, 10))
})
afterAll(async () => {
  await world?.close()
  rmSync(dir, { recursive: true, force: true })
})

function nicClusterPolicy(): KubeObject {
  const s = readSettings(reader(VALID_APPLY), { GITHUB_RUN_ID: '7' }).settings
  const c = buildPlan(s).components.find(x => x.name === 'nic-cluster-policy')!
  return structuredClone(c.manifests![0]) as KubeObject
}

async function rejection(p: Promise<unknown>): Promise<KubeRequestError> {
  try {
    await p
  } catch (e) {
    if (e instanceof KubeRequestError) return e
    throw e
  }
  throw new Error('the request succeeded')
}

describe('a field the CRD does not have', () => {
  it('is not in the NicClusterPolicy the action renders: applied, then converged with the schema’s defaults', async () => {
    const ncp = nicClusterPolicy()
    const applied = await kube.applyManifest(ncp)
    expect(applied.created).toBe(true)
    // The schema's defaults are filled in…
    expect(applied.object.spec.ofedDriver).toMatchObject({
      forcePrecompiled: false,
      terminationGracePeriodSeconds: 300
    })
    // …and are no reason to apply again.
    expect((await kube.needsApply(ncp)).converged).toBe(true)
    expect((await kube.dryRunApply(ncp)).wouldChange).toBe(false)
  })

  it('fails the apply when planted, naming the field, as a real API server answers it', async () => {
    const planted = nicClusterPolicy()
    planted.spec.ofedDriver.imagee = planted.spec.ofedDriver.image
    const err = await rejection(kube.applyManifest(planted))
    expect(err.status).toBe(500)
    expect(err.serverMessage).toBe(
      'failed to create typed patch object (/nic-cluster-policy; mellanox.com/v1alpha1, Kind=NicClusterPolicy): .spec.ofedDriver.imagee: field not declared in schema'
    )
  })
})

describe('a name deleted and re-created at once', () => {
  const pod = (): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'planted', namespace: WORK_NAMESPACE, labels: { 'aks-rdma-action/run': 'planted' } },
    spec: {
      // Longer than the test: a graceful delete keeps the pod terminating throughout.
      terminationGracePeriodSeconds: 360_000,
      containers: [{ name: 'hold', image: 'busybox:1.36', command: ['sh', '-c', 'sleep infinity'] }]
    }
  })
  const running = async () => {
    for (;;) {
      const live = await kube.get({
        apiVersion: 'v1',
        kind: 'Pod',
        namespace: WORK_NAMESPACE,
        name: 'planted'
      })
      if (live?.status?.phase === 'Running') return
      await new Promise(r => setTimeout(r, 20))
    }
  }

  it('is free at once after the action’s cleanup (grace 0), not after a graceful delete', async () => {
    await ensureWorkNamespace(kube)
    await createPod(kube, pod())
    await running()
    await deletePods(kube, 'aks-rdma-action/run=planted')
    await createPod(kube, pod())
    await running()
    // The planted bug: a delete that leaves the pod its grace period, and the same name again at once.
    await kube.core.deleteNamespacedPod({ name: 'planted', namespace: WORK_NAMESPACE })
    const err = await rejection(createPod(kube, pod()))
    expect(err.status).toBe(409)
    expect(err.serverMessage).toBe('object is being deleted: pods "planted" already exists')
    await deletePods(kube, 'aks-rdma-action/run=planted')
  })
})
