// Drift mode against a whole simulated world (Azure + Kubernetes + the helm stand-in): the real
// apply flow first, then detectDrift on the converged world (nothing, and not one mutating
// request), then one thing changed behind the action's back at a time — the OFED driver version in
// the policy, a helm value, the device plugin config, a namespace label, an OFED driver pod and a
// device plugin pod on another image, a hand-edited ClusterPolicy, a field taken by another field
// manager, a deleted NodeFeatureRule, the pool size — each found as exactly one item with the right
// component and field and zero writes; apply fixes what it can and the next drift run is clean,
// except the pool size, which apply never changes. Drift mode's step ends as a warning and its log
// prints each drifted field with the desired and the actual value and the fix.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { connectAzure } from '../../../src/azure/index.js'
import { silentLog } from '../../../src/log/index.js'
import { detectDrift, DriftError } from '../../../src/stack/drift.js'
import { KubeClient } from '../../../src/kube/client.js'
import type { KubeObject } from '../../../src/kube/types.js'
import { rdmaDevicePluginManifests } from '../../../src/components/rdma-device-plugin.js'
import type { DriftItem } from '../../../src/drift/item.js'
import type { FlowResult } from '../../../src/run/flow.js'
import type { Settings } from '../../../src/settings/settings.js'
import { helmReleaseCounts, helmStandin } from '../../../sim/helm/index.js'
import type { World } from '../../../sim/world.js'
import * as runner from '../../support/runner-env.js'

jest.setTimeout(900_000)

let world: World
let kubeconfigPath: string
let convergedKubeRequests = 0
const flowLog: string[] = []

function settings(mode: string, extra: Record<string, string> = {}): Settings {
  // The drifts below include driver.rdma.useHostMofed, a value of the peermem path.
  return runner.secretAuthSettings(
    world,
    runner.twoNodeRun(mode, { 'step-timeout': '10m', gpudirect: 'peermem', ...extra })
  )
}

/** Runs the action's flow in-process, its workflow-command output collected rather than printed. */
async function flow(mode: string, extra: Record<string, string> = {}): Promise<FlowResult> {
  return runner.runFlowAs(settings(mode, extra), mode, flowLog)
}

const secrets = () =>
  world.kube.store.list(world.kube.store.type('', 'secrets')!, { labelSelector: 'owner=helm' }).items

/** detectDrift as drift mode calls it; asserts it wrote nothing (ARM, Kubernetes, helm). */
async function drift(extra: Record<string, string> = {}): Promise<DriftItem[]> {
  const s = settings('drift', extra)
  const helmBefore = helmReleaseCounts(secrets())
  const azure = connectAzure(s, silentLog, { tuning: { baseDelayMs: 5, maxDelayMs: 20 } })
  world.recorder.reset()
  const items = await detectDrift({ settings: s, azure, kubeconfigPath })
  const mutating = world.recorder.records.filter(r => r.mutating)
  expect(mutating).toEqual([])
  expect(helmReleaseCounts(secrets())).toEqual(helmBefore)
  return items
}

function storeType(group: string, plural: string) {
  return world.kube.store.type(group, plural)!
}

function mutateObject(
  group: string,
  plural: string,
  ns: string | undefined,
  name: string,
  fn: (o: any) => void
): void {
  const t = storeType(group, plural)
  const live = structuredClone(world.kube.store.get(t, ns, name)) as any
  fn(live)
  world.kube.store.update(t, { ...live, metadata: { ...live.metadata, resourceVersion: undefined } })
}

/** Waits until no node of the pool is held by a driver upgrade (the operators roll on their own). */
async function upgradesSettled(): Promise<void> {
  const held = () =>
    (
      world.kube.store.list(storeType('', 'nodes'), {
        labelSelector: `kubernetes.azure.com/agentpool=${runner.RUN_POOL}`
      }).items as any[]
    ).filter(
      n =>
        n.spec?.unschedulable ||
        ['nvidia.com/gpu-driver-upgrade-state', 'nvidia.com/ofed-driver-upgrade-state'].some(
          l => !['', 'upgrade-done'].includes(n.metadata.labels?.[l] ?? '')
        )
    )
  for (let i = 0; i < 2400 && held().length; i++) await new Promise(r => setTimeout(r, 50))
  expect(held().map(n => n.metadata.name)).toEqual([])
}

async function applyAgain(extra: Record<string, string> = {}): Promise<FlowResult> {
  const r = await flow('apply', extra)
  expect(r.report.steps.filter(x => x.status === 'failure').map(x => `${x.name}: ${x.detail}`)).toEqual([])
  expect(r.exitCode).toBe(0)
  return r
}

beforeAll(async () => {
  world = await runner.runnerWorld('drift-runner', {
    azure: { feature: { state: 'NotRegistered', pollsUntilRegistered: 1 } }
  })

  const r = await flow('apply')
  expect(r.report.steps.filter(x => x.status === 'failure').map(x => `${x.name}: ${x.detail}`)).toEqual([])
  expect(r.exitCode).toBe(0)
  kubeconfigPath = r.report.outputs['kubeconfig-path']
  expect(kubeconfigPath).toBeTruthy()
})

afterAll(() => runner.leaveWorld(world))

describe('drift on a converged world', () => {
  it('finds nothing and writes nothing, in a handful of requests', async () => {
    expect(await drift()).toEqual([])
    const counts = world.recorder.counts()
    // the feature, the provider, the pool
    expect(counts.arm.total).toBe(3)
    // GETs of the seven manifests and the ClusterPolicy, three lists, discovery, and the helm reads
    expect(world.recorder.records.filter(r => r.service === 'kube').every(r => r.method === 'GET')).toBe(true)
    expect(counts.kube.total).toBeLessThanOrEqual(25)
    convergedKubeRequests = counts.kube.total
  })

  it('drift mode end to end: a drift step, no items, result success, no mutating request at all', async () => {
    world.recorder.reset()
    const r = await flow('drift')
    expect(r.exitCode).toBe(0)
    expect(r.report.result).toBe('success')
    expect(r.report.drift).toEqual([])
    expect(r.report.steps.find(s => s.name === 'drift')).toMatchObject({
      status: 'success',
      detail: 'no drift'
    })
    expect(world.recorder.records.filter(x => x.mutating)).toEqual([])
  })
})

/**
 * Changes one thing behind the action's back, runs the checks, and puts it back whatever they
 * found (apply, unless told otherwise), so one failing check cannot leave the world drifted for
 * the tests after it; then drift is clean again.
 */
async function changed(
  change: () => unknown,
  checks: () => Promise<void>,
  putBack: () => unknown = () => applyAgain()
): Promise<void> {
  await change()
  try {
    await checks()
  } finally {
    await putBack()
  }
  // A change that rolled a driver leaves nodes held until the operator is done.
  await upgradesSettled()
  expect(await drift()).toEqual([])
}

describe('one thing changed behind the action’s back', () => {
  it('the OFED driver version in the NicClusterPolicy', async () => {
    const s = settings('drift')
    // the operator re-renders its driver DaemonSets from the policy (waited for); that follows, it is not reported again
    const ofedImages = () =>
      world.kube.store
        .list(storeType('apps', 'daemonsets'), {
          namespace: 'network-operator',
          labelSelector: 'nvidia.com/ofed-driver'
        })
        .items.map((d: any) => d.spec.template.spec.containers[0].image as string)
    await changed(
      () =>
        mutateObject('mellanox.com', 'nicclusterpolicies', undefined, 'nic-cluster-policy', o => {
          o.spec.ofedDriver.version = 'doca3.1.0-25.07-0.9.7.0-0'
        }),
      async () => {
        while (!ofedImages().some(i => i.includes(':doca3.1.0-25.07-0.9.7.0-0-')))
          await new Promise(r => setTimeout(r, 10))
        // The new version rolls the OFED driver: a node the operator is replacing it on is named too.
        const all = await drift()
        const nodes = all.filter(i => i.component === 'nodes')
        expect(nodes.filter(i => !i.field.endsWith(' label nvidia.com/ofed-driver-upgrade-state'))).toEqual(
          []
        )
        const items = all.filter(i => i.component !== 'nodes')
        expect(items).toEqual([
          expect.objectContaining({
            component: 'nic-cluster-policy',
            field: 'nicclusterpolicy/nic-cluster-policy spec.ofedDriver.version',
            desired: s.stack.docaDriverVersion,
            actual: 'doca3.1.0-25.07-0.9.7.0-0',
            fixableByApply: true
          })
        ])
        expect(items[0].hint).toContain('nicclusterpolicy/nic-cluster-policy')
      }
    )
  })

  it('a helm value (helm upgrade --reuse-values --set driver.rdma.useHostMofed=true)', async () => {
    let out = ''
    await changed(
      async () => {
        const code = await helmStandin(
          [
            'upgrade',
            'gpu-operator',
            'nvidia/gpu-operator',
            '--version',
            'v26.7.0',
            '-n',
            'gpu-operator',
            '--reuse-values',
            '--set',
            'driver.rdma.useHostMofed=true'
          ],
          { ...process.env, KUBECONFIG: kubeconfigPath },
          { stdout: t => (out += t), stderr: t => (out += t) }
        )
        expect({ code, out }).toMatchObject({ code: 0 })
      },
      async () => {
        const items = await drift()
        // The new values roll the GPU driver: a node the operator is replacing it on is named too
        // (component nodes, its upgrade state), however far the rollout has got.
        const nodes = items.filter(i => i.component === 'nodes')
        expect(nodes.filter(i => !i.field.endsWith(' label nvidia.com/gpu-driver-upgrade-state'))).toEqual([])
        // the ClusterPolicy the chart re-rendered follows from the value: one item
        expect(items.filter(i => i.component !== 'nodes')).toEqual([
          expect.objectContaining({
            component: 'gpu-operator',
            field: 'helm/gpu-operator values.driver.rdma.useHostMofed',
            desired: 'false',
            actual: 'true',
            fixableByApply: true
          })
        ])
      }
    )
  })

  it('the device plugin ConfigMap (config.json)', async () => {
    await changed(
      () =>
        mutateObject('', 'configmaps', 'kube-system', 'rdma-devices', o => {
          o.data['config.json'] = o.data['config.json'].replace('"rdmaHcaMax": 1000', '"rdmaHcaMax": 63')
        }),
      async () => {
        const items = await drift()
        expect(items).toEqual([
          expect.objectContaining({
            component: 'rdma-device-plugin',
            field: 'configmap/rdma-devices data[config.json]',
            desired: 'configList[0].rdmaHcaMax=1000',
            actual: 'configList[0].rdmaHcaMax=63',
            fixableByApply: true
          })
        ])
        expect(items[0].hint).toContain('configmap/rdma-devices -n kube-system')
      }
    )
  })

  it('a label of a managed object (the namespace’s pod-security level)', async () => {
    await changed(
      () =>
        mutateObject('', 'namespaces', undefined, 'network-operator', o => {
          delete o.metadata.labels['pod-security.kubernetes.io/enforce']
        }),
      async () => {
        expect(await drift()).toEqual([
          expect.objectContaining({
            component: 'network-operator',
            field: 'namespace/network-operator metadata.labels[pod-security.kubernetes.io/enforce]',
            desired: 'privileged',
            actual: '(absent)',
            fixableByApply: true
          })
        ])
      }
    )
  })

  it('an OFED driver pod running another driver than the policy’s (an OnDelete DaemonSet not rolled)', async () => {
    const s = settings('drift')
    const pods = world.kube.store.list(storeType('', 'pods'), {
      namespace: 'network-operator',
      labelSelector: 'nvidia.com/ofed-driver'
    }).items as KubeObject[]
    expect(pods.length).toBe(2)
    const pod = pods[0]
    const image = pod.spec.containers.find((c: any) => c.name === 'mofed-container').image
    const old = image.replace(s.stack.docaDriverVersion, 'doca3.1.0-25.07-0.9.7.0-0')
    const setImage = (to: string) =>
      mutateObject('', 'pods', 'network-operator', pod.metadata.name, o => {
        o.spec.containers.find((c: any) => c.name === 'mofed-container').image = to
      })
    await changed(
      () => setImage(old),
      async () => {
        const items = await drift()
        expect(items).toEqual([
          expect.objectContaining({
            component: 'nic-cluster-policy',
            field: 'pods -l nvidia.com/ofed-driver spec.containers[mofed-container].image',
            desired: `nvcr.io/nvidia/mellanox/doca-driver:${s.stack.docaDriverVersion}-…`,
            actual: `${old} on 1/2 pods (${pod.spec.nodeName})`,
            fixableByApply: false
          })
        ])
        expect(items[0].hint).toMatch(/autoUpgrade/)
      },
      () => setImage(image)
    )
  })

  it('a device plugin pod running another image than its DaemonSet', async () => {
    const pods = world.kube.store.list(storeType('', 'pods'), {
      namespace: 'kube-system',
      labelSelector: 'name=rdma-shared-dp-ds'
    }).items as KubeObject[]
    const pod = pods[0]
    const image = pod.spec.containers[0].image
    const setImage = (to: string) =>
      mutateObject('', 'pods', 'kube-system', pod.metadata.name, o => {
        o.spec.containers[0].image = to
      })
    await changed(
      () => setImage('ghcr.io/mellanox/k8s-rdma-shared-dev-plugin:v1.4.0'),
      async () => {
        expect(await drift()).toEqual([
          expect.objectContaining({
            component: 'rdma-device-plugin',
            field: 'pods -l name=rdma-shared-dp-ds spec.containers[k8s-rdma-shared-dp-ds].image',
            desired: image,
            actual: `ghcr.io/mellanox/k8s-rdma-shared-dev-plugin:v1.4.0 on 1/${pods.length} pods (${pod.spec.nodeName})`,
            fixableByApply: false
          })
        ])
      },
      () => setImage(image)
    )
  })

  it('the ClusterPolicy edited by hand: reported, not fixable by apply (the release is unchanged)', async () => {
    const useHostMofed = (to: boolean) =>
      mutateObject('nvidia.com', 'clusterpolicies', undefined, 'cluster-policy', o => {
        o.spec.driver.rdma.useHostMofed = to
      })
    await changed(
      () => useHostMofed(true),
      async () => {
        // The edit rolls the GPU driver: a node the operator is replacing it on is named too.
        const items = (await drift()).filter(i => i.component !== 'nodes')
        expect(items).toEqual([
          expect.objectContaining({
            component: 'gpu-operator',
            field: 'clusterpolicy/cluster-policy spec.driver.rdma.useHostMofed',
            desired: 'false',
            actual: 'true',
            fixableByApply: false
          })
        ])
        // The fix is the chart's own upgrade with the values kept: release, chart, version, namespace.
        for (const fact of [
          'helm upgrade gpu-operator',
          'nvidia/gpu-operator',
          '--version v26.7.0',
          '-n gpu-operator',
          '--reuse-values'
        ])
          expect(items[0].hint).toContain(fact)
      },
      () => useHostMofed(false)
    )
  })

  it('a field another field manager took: apply fails on the conflict unless force-conflicts', async () => {
    const [cm] = rdmaDevicePluginManifests(settings('drift'))
    const other = KubeClient.fromFile(kubeconfigPath, { retries: 0, fieldManager: 'kubectl-edit' })
    await changed(
      () =>
        other.applyManifest(
          {
            ...(cm as KubeObject),
            data: { 'config.json': cm.data && (cm.data as any)['config.json'].replace('1000', '500') }
          },
          { force: true }
        ),
      async () => {
        const items = await drift()
        expect(items).toHaveLength(1)
        expect(items[0]).toMatchObject({
          component: 'rdma-device-plugin',
          field: 'configmap/rdma-devices data[config.json]',
          desired: 'configList[0].rdmaHcaMax=1000',
          actual: 'configList[0].rdmaHcaMax=500',
          fixableByApply: false
        })
        expect(items[0].hint).toMatch(/kubectl-edit/)
        expect(items[0].hint).toMatch(/force-conflicts: true/)
        const forced = await drift({ 'force-conflicts': 'true' })
        expect(forced).toEqual([expect.objectContaining({ field: items[0].field, fixableByApply: true })])
      },
      () => applyAgain({ 'force-conflicts': 'true' })
    )
  })

  it('a deleted NodeFeatureRule', async () => {
    await changed(
      () =>
        world.kube.store.delete(
          storeType('nfd.k8s-sigs.io', 'nodefeaturerules'),
          undefined,
          'nfd-network-rule'
        ),
      async () => {
        const items = await drift()
        expect(items).toEqual([
          expect.objectContaining({
            component: 'node-feature-rule',
            field: 'nodefeaturerule/nfd-network-rule',
            desired: 'present',
            actual: 'absent',
            fixableByApply: true
          })
        ])
        expect(items[0].hint).toContain('nodefeaturerule/nfd-network-rule')
      }
    )
  })

  it('the pool size: reported as not fixable by apply, and still there after apply', async () => {
    world.azure.setPool(runner.RUN_POOL, { count: 3 })
    const expected = [
      expect.objectContaining({
        component: 'node-pool',
        field: 'count',
        desired: '2',
        actual: '3',
        fixableByApply: false
      })
    ]
    const items = await drift()
    expect(items).toEqual(expected)
    // a third node, not one request more
    expect(world.recorder.counts().kube.total).toBe(convergedKubeRequests)
    // A live pool is never to be scaled down: the fix is node-count.
    expect(items[0].hint).toContain('set node-count: 3')
    expect(items[0].hint).not.toContain('nodepool scale')
    const r = await applyAgain()
    expect(r.report.outputs['node-pool-action']).toBe('reused')
    expect(await drift()).toEqual(expected)
    // a cluster that cannot be read: the Azure part is still reported, the rest named as unread
    const unreachable = path.join(mkdtempSync(path.join(tmpdir(), 'drift-kc-')), 'kubeconfig')
    writeFileSync(
      unreachable,
      readFileSync(kubeconfigPath, 'utf8').replace(/server: \S+/, 'server: https://127.0.0.1:9')
    )
    const s = settings('drift', { retries: '0' })
    const azure = connectAzure(s, silentLog)
    const failed = await detectDrift({ settings: s, azure, kubeconfigPath: unreachable }).catch(e => e)
    expect(failed).toBeInstanceOf(DriftError)
    expect(failed.items).toEqual(expected)
    // The six cluster components are unreadable; the feature read may also fail when the machine is
    // loaded (MSAL's authority discovery timing out), which does not change what this test checks.
    expect(failed.message).toMatch(
      /could not read [67] components: (infiniband-feature: .*; )?network-operator: .*; gpu-operator: /
    )
    // drift mode reports it as drift
    const d = await flow('drift')
    expect(d.exitCode).toBe(1) // fail-on-drift defaults to true
    expect(d.report.result).toBe('drifted')
    expect(d.report.outputs.drifted).toBe('true')
    expect(d.report.drift).toEqual(expected)
    // The drift step shows ⚠️ (a warning, not a success), and the log says what the summary says.
    expect(d.report.steps.find(x => x.name === 'drift')).toMatchObject({
      status: 'warning',
      detail: '1 drifted field'
    })
    const log = flowLog.join('')
    expect(log).toMatch(/^::warning[^\n]*::drift: 1 drifted field/m)
    expect(log).toContain(
      ['  node-pool: count', '    desired: 2', '    actual:  3', '    fix:     '].join('\n')
    )
    expect(log).toMatch(/^ {4}fix: .*set node-count: 3/m)
  })
})
