// Drift of the cluster components through a Kubernetes client that throws on any write that is
// not a dry run: on a stack changed behind the action's back (the device plugin's config, the
// ib-node-config image, the NodeFeatureRule's devices, the NicClusterPolicy's driver), every
// difference is found — through dry-run applies (dryRun=All) — and nothing else is sent but reads.
// A drift that applied for real would be stopped here by the client itself, naming the request.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { KubeConfig } from '@kubernetes/client-node'
import { kubeComponents } from '../../../src/components/index.js'
import { manifestDrift } from '../../../src/drift/manifests.js'
import { KubeClient } from '../../../src/kube/client.js'
import type { KubeObject } from '../../../src/kube/types.js'
import type { DriftItem } from '../../../src/drift/item.js'
import { startRdmaWorld, type RdmaWorld } from '../../support/verify-world.js'

/** A kubeconfig whose every request is checked before it is sent: reads and dry runs only. */
class ReadOnlyKubeConfig extends KubeConfig {
  readonly sent: string[] = []
  override async applySecurityAuthentication(context: any): Promise<void> {
    const method = String(context.getHttpMethod())
    const url = String(context.getUrl())
    this.sent.push(`${method} ${url}`)
    if (method !== 'GET' && method !== 'HEAD' && !/[?&]dryRun=All(&|$)/.test(url))
      throw new Error(`drift sent a write that is not a dry run: ${method} ${url}`)
    return super.applySecurityAuthentication(context)
  }
}

let w: RdmaWorld
beforeAll(async () => {
  w = await startRdmaWorld({ nodes: 2, stack: { gpuOperator: false } })
})
afterAll(async () => {
  await w?.close()
})

/** Changes an object the action applied, as someone with kubectl would (its own field manager). */
async function editBehindTheActionsBack(
  apiVersion: string,
  kind: string,
  name: string,
  namespace: string | undefined,
  edit: (o: KubeObject) => void
): Promise<void> {
  const live = (await w.kube.get({ apiVersion, kind, name, namespace }))!
  edit(live)
  delete live.metadata.managedFields
  const kc = new KubeConfig()
  kc.loadFromString(w.sim.kubeconfig('admin'))
  await new KubeClient(kc, { retries: 1, fieldManager: 'kubectl-edit' }).applyManifest(
    {
      apiVersion,
      kind,
      metadata: { name, namespace },
      ...(live.spec ? { spec: live.spec } : {}),
      ...(live.data ? { data: live.data } : {})
    },
    { force: true }
  )
}

describe('drift through a client that refuses real writes', () => {
  it('finds every change with reads and dry-run applies only', async () => {
    await editBehindTheActionsBack('v1', 'ConfigMap', 'rdma-devices', 'kube-system', o => {
      const c = JSON.parse(o.data['config.json'])
      delete c.configList[0].selectors.linkTypes
      o.data['config.json'] = JSON.stringify(c)
    })
    await editBehindTheActionsBack('apps/v1', 'DaemonSet', 'ib-node-config', 'kube-system', o => {
      o.spec.template.spec.containers[0].image = 'busybox:1.35'
    })
    await editBehindTheActionsBack(
      'nfd.k8s-sigs.io/v1alpha1',
      'NodeFeatureRule',
      'nfd-network-rule',
      undefined,
      o => {
        o.spec.rules[0].matchFeatures[0].matchExpressions.device.value = ['101c']
      }
    )
    await editBehindTheActionsBack(
      'mellanox.com/v1alpha1',
      'NicClusterPolicy',
      'nic-cluster-policy',
      undefined,
      o => {
        o.spec.ofedDriver.version = '25.04-0.6.1.0-2'
      }
    )

    const kc = new ReadOnlyKubeConfig()
    kc.loadFromString(w.sim.kubeconfig('admin'))
    const kube = new KubeClient(kc, { retries: 1 })
    w.recorder.reset()
    const items: DriftItem[] = []
    for (const c of kubeComponents()) {
      if (c.skip(w.settings) !== undefined || c.name === 'gpu-operator' || c.name === 'network-operator')
        continue
      const desired = c.desired(w.settings)
      const found: DriftItem[] = []
      for (const m of desired.manifests ?? [])
        found.push(
          ...(await manifestDrift(kube, m, { component: c.name, force: w.settings.stack.forceConflicts }))
        )
      found.push(...(await c.driftExtras({ component: c.name, settings: w.settings, kube, desired, found })))
      items.push(...found)
    }
    expect(items.map(i => `${i.component} ${i.field}`).sort()).toEqual(
      [
        'ib-node-config daemonset/ib-node-config spec.template.spec.containers[keepalive].image',
        'nic-cluster-policy nicclusterpolicy/nic-cluster-policy spec.ofedDriver.version',
        'node-feature-rule nodefeaturerule/nfd-network-rule spec.rules[nfd-network-rule].matchFeatures[0].matchExpressions.device.value',
        'rdma-device-plugin configmap/rdma-devices data[config.json]'
      ].sort()
    )
    // Fields now held by another field manager: apply fixes them only with force-conflicts.
    expect(items.filter(i => !i.fixableByApply).every(i => /force-conflicts/.test(i.hint ?? ''))).toBe(true)
    // Each drifted object was asked about with a dry-run apply; nothing but reads otherwise.
    const writes = kc.sent.filter(r => !r.startsWith('GET '))
    expect(writes).toHaveLength(4)
    expect(writes.every(r => /^PATCH .*[?&]dryRun=All/.test(r))).toBe(true)
    expect(w.recorder.records.filter(r => r.service === 'kube' && r.mutating)).toEqual([])
  })
})
