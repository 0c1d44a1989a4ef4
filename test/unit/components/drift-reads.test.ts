// What each component's drift compares beyond its manifests and release, over in-memory reads of
// the cluster and ARM (lists and GETs only; a write would throw): the device plugin pods and the
// OFED driver DaemonSets and pods running another image than desired, the ClusterPolicy's
// driver.rdma against the chart values, the feature and provider registration states, the node
// pool field by field; and the troubleshooting lines a failed step's diagnostic adds.
import { describe, expect, it } from '@jest/globals'
import { RestError } from '@azure/core-rest-pipeline'
import type { ArmClients } from '../../../src/azure/clients.js'
import {
  COMPONENTS,
  type ArmComponent,
  type ComponentName,
  type DiagnosticView,
  type KubeComponent
} from '../../../src/components/index.js'
import { podImages, reported } from '../../../src/components/shared.js'
import type { HealthVerdict } from '../../../src/health/types.js'
import type { KubeReader } from '../../../src/kube/client.js'
import { KindNotServedError } from '../../../src/kube/errors.js'
import type { KubeObject } from '../../../src/kube/types.js'
import type { DriftItem } from '../../../src/drift/item.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import { INPUTS } from '../../../src/settings/input-definitions.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'
import { driftItem } from '../../support/drift-items.js'
import { nicClusterPolicy } from '../../support/operator-objects.js'

// Built inside each test (never while the file loads): the mutation run switches mutants on per test.
const settings = () => readSettings(reader({ ...VALID_APPLY, 'node-pool': 'rdmapool' })).settings

/** Reads served from `objects` (by kind, namespace, a label selector of k=v or k terms); writes throw. */
function cluster(objects: KubeObject[], o: { getError?: Error } = {}): { kube: KubeReader; reads: string[] } {
  const reads: string[] = []
  const matches = (obj: KubeObject, selector?: string) =>
    !selector ||
    selector.split(',').every(term => {
      const [k, v] = term.split('=')
      const labels = obj.metadata.labels ?? {}
      return v === undefined ? k in labels : labels[k] === v
    })
  // A KubeReader: drift cannot write (no such method); its extras compare reads, never dry runs.
  const kube: KubeReader = {
    list: async (apiVersion, kind, opts = {}) => {
      reads.push(
        `LIST ${kind}${opts.namespace ? ` -n ${opts.namespace}` : ''}${opts.labelSelector ? ` -l ${opts.labelSelector}` : ''}`
      )
      return {
        items: objects.filter(
          x =>
            x.kind === kind &&
            x.apiVersion === apiVersion &&
            (!opts.namespace || x.metadata.namespace === opts.namespace) &&
            matches(x, opts.labelSelector)
        ),
        resourceVersion: '1'
      }
    },
    get: async ref => {
      reads.push(`GET ${ref.kind}/${ref.name}`)
      if (o.getError) throw o.getError
      return objects.find(x => x.kind === ref.kind && x.metadata.name === ref.name)
    },
    dryRunApply: async m => {
      throw new Error(`the drift extras compare reads only, not a dry run of ${m.kind}`)
    }
  }
  return { kube, reads }
}

const pod = (
  name: string,
  namespace: string,
  node: string,
  labels: Record<string, string>,
  containers: Record<string, string>
): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace, labels },
  spec: { nodeName: node, containers: Object.entries(containers).map(([n, image]) => ({ name: n, image })) }
})

async function extras(
  name: ComponentName,
  kube: KubeReader,
  found: DriftItem[] = [],
  release?: { valuePaths: string[] }
) {
  const c = COMPONENTS[name] as KubeComponent
  const desired = c.desired(settings())
  return c.driftExtras({
    component: name,
    settings: settings(),
    kube,
    desired,
    found,
    ...(release
      ? { release: { status: { status: 'deployed' } as never, valuePaths: release.valuePaths } }
      : {})
  })
}

describe('podImages and reported', () => {
  it('summarises the pods on another image, three nodes named at most', () => {
    const pods = ['n1', 'n2', 'n3', 'n4', 'n5'].map((n, i) =>
      pod(`p${i}`, 'ns', n, {}, { main: i === 0 ? 'good:1' : 'old:0' })
    )
    pods.push({ ...pod('p9', 'ns', 'n9', {}, {}), spec: { containers: [{ name: 'other', image: 'x' }] } })
    expect(podImages(pods, 'main', img => img === 'good:1')).toEqual({
      bad: 4,
      summary: 'old:0 on 4/6 pods (n2, n3, n4, …)'
    })
    expect(podImages(pods.slice(0, 1), 'main', img => img === 'good:1')).toBeUndefined()
    const unscheduled = {
      ...pod('lost', 'ns', '', {}, { main: 'old:0' }),
      spec: { containers: [{ name: 'main', image: 'old:0' }] }
    }
    expect(podImages([unscheduled], 'main', () => false)?.summary).toBe('old:0 on 1/1 pods (lost)')
    expect(
      podImages(
        [pod('a', 'ns', 'n1', {}, { main: 'x:1' }), pod('b', 'ns', 'n2', {}, { main: 'y:1' })],
        'main',
        () => false
      )
    ).toEqual({ bad: 2, summary: 'x:1 on 1/2 pods (n1); y:1 on 1/2 pods (n2)' })
  })

  it('knows a reported object or path under it', () => {
    const found = [{ field: 'daemonset/x spec.template.spec.containers[a].image' }]
    expect(reported(found, 'daemonset/x')).toBe(true)
    expect(reported(found, 'daemonset/x', 'spec.template')).toBe(true)
    expect(reported(found, 'daemonset/x', 'metadata')).toBe(false)
    expect(reported([{ field: 'daemonset/x' }], 'daemonset/x', 'spec')).toBe(true)
    expect(reported(found, 'daemonset/y')).toBe(false)
  })
})

describe('rdma-device-plugin: the pods run the desired image', () => {
  const ds = () =>
    (COMPONENTS['rdma-device-plugin'] as KubeComponent)
      .desired(settings())
      .manifests!.find(m => m.kind === 'DaemonSet')!
  const container = () => (ds().spec as any).template.spec.containers[0]
  const labels = () => (ds().spec as any).selector.matchLabels

  it('names the pods still on another image, and says how to look at the rollout', async () => {
    const c = cluster([
      pod('a', 'kube-system', 'n1', labels(), { [container().name]: container().image }),
      pod('b', 'kube-system', 'n2', labels(), {
        [container().name]: 'ghcr.io/mellanox/k8s-rdma-shared-dev-plugin:v1.5.2'
      }),
      pod('c', 'default', 'n3', labels(), { [container().name]: 'elsewhere:1' })
    ])
    expect(await extras('rdma-device-plugin', c.kube)).toEqual([
      driftItem(
        'rdma-device-plugin',
        `pods -l name=rdma-shared-dp-ds spec.containers[${container().name}].image`,
        container().image,
        'ghcr.io/mellanox/k8s-rdma-shared-dev-plugin:v1.5.2 on 1/2 pods (n2)',
        false,
        'the DaemonSet is as desired but 1 pod(s) still run another image: check the rollout (kubectl rollout status ds/rdma-shared-dp-ds -n kube-system)'
      )
    ])
    expect(c.reads).toEqual(['LIST Pod -n kube-system -l name=rdma-shared-dp-ds'])
  })

  it('says nothing when every pod is on the image, or when the DaemonSet itself already differs', async () => {
    const same = cluster([pod('a', 'kube-system', 'n1', labels(), { [container().name]: container().image })])
    expect(await extras('rdma-device-plugin', same.kube)).toEqual([])
    const off = cluster([pod('b', 'kube-system', 'n2', labels(), { [container().name]: 'old:1' })])
    expect(
      await extras('rdma-device-plugin', off.kube, [{ field: 'daemonset/rdma-shared-dp-ds' } as DriftItem])
    ).toEqual([])
    expect(off.reads).toEqual([])
  })
})

describe('nic-cluster-policy: the OFED driver runs the policy’s version', () => {
  const version = INPUTS.find(i => i.name === 'doca-driver-version')!.default!
  const good = `nvcr.io/nvidia/mellanox/doca-driver:${version}-ubuntu22.04-amd64`
  const ofedDs = (image: string, name = 'mofed-ubuntu22.04-abc-ds'): KubeObject => ({
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace: 'network-operator', labels: { 'nvidia.com/ofed-driver': '' } },
    spec: { template: { spec: { containers: [{ name: 'mofed-container', image }] } } }
  })
  const ofedPod = (node: string, image: string) =>
    pod(
      `mofed-${node}`,
      'network-operator',
      node,
      { 'nvidia.com/ofed-driver': '' },
      { 'mofed-container': image }
    )

  /** The driver the operator runs is not the policy's: nothing apply can fix. */
  const driverDrift = (field: string, actual: string, hint: string) =>
    driftItem(
      'nic-cluster-policy',
      field,
      `nvcr.io/nvidia/mellanox/doca-driver:${version}-…`,
      actual,
      false,
      hint
    )

  it('a DaemonSet rendered with another driver: the operator did not follow the policy', async () => {
    const c = cluster([
      ofedDs(good),
      ofedDs('nvcr.io/nvidia/mellanox/doca-driver:25.04-0.6.1.0-2-ubuntu22.04-amd64', 'mofed-old-ds')
    ])
    expect(await extras('nic-cluster-policy', c.kube)).toEqual([
      driverDrift(
        'daemonset/mofed-old-ds spec.template.spec.containers[mofed-container].image',
        'nvcr.io/nvidia/mellanox/doca-driver:25.04-0.6.1.0-2-ubuntu22.04-amd64',
        'the policy is as desired but the Network Operator did not render it: check its logs (kubectl logs -n network-operator deploy/network-operator); a hand edit of the DaemonSet is reverted by the operator'
      )
    ])
    expect(c.reads).toEqual(['LIST DaemonSet -n network-operator -l nvidia.com/ofed-driver'])
  })

  it('a DaemonSet without a mofed-container is judged by its first container', async () => {
    const ds = ofedDs('other:1')
    ;(ds.spec as any).template.spec.containers = [{ name: 'driver', image: 'other:1' }]
    const [item] = await extras('nic-cluster-policy', cluster([ds]).kube)
    expect(item.field).toBe('daemonset/mofed-ubuntu22.04-abc-ds spec.template.spec.containers[driver].image')
  })

  it('DaemonSets as desired but pods on the old driver: they update OnDelete', async () => {
    const c = cluster([
      ofedDs(good),
      ofedPod('n1', good),
      ofedPod('n2', 'nvcr.io/nvidia/mellanox/doca-driver:old-ubuntu22.04-amd64')
    ])
    expect(await extras('nic-cluster-policy', c.kube)).toEqual([
      driverDrift(
        'pods -l nvidia.com/ofed-driver spec.containers[mofed-container].image',
        'nvcr.io/nvidia/mellanox/doca-driver:old-ubuntu22.04-amd64 on 1/2 pods (n2)',
        'the driver DaemonSets update OnDelete: the Network Operator replaces these pods node by node when ofedDriver.upgradePolicy.autoUpgrade is true; otherwise drain the node and delete its driver pod'
      )
    ])
    expect(c.reads).toEqual([
      'LIST DaemonSet -n network-operator -l nvidia.com/ofed-driver',
      'LIST Pod -n network-operator -l nvidia.com/ofed-driver'
    ])
  })

  it('nothing more once the policy’s ofedDriver itself was reported, and nothing when all run it', async () => {
    const stale = cluster([ofedDs('old:1')])
    expect(
      await extras('nic-cluster-policy', stale.kube, [
        { field: 'nicclusterpolicy/nic-cluster-policy spec.ofedDriver.version' } as DriftItem
      ])
    ).toEqual([])
    expect(stale.reads).toEqual([])
    expect(await extras('nic-cluster-policy', cluster([ofedDs(good), ofedPod('n1', good)]).kube)).toEqual([])
  })
})

describe('gpu-operator: the ClusterPolicy has the chart values’ driver.rdma', () => {
  const policy = (rdma: Record<string, unknown> | undefined): KubeObject => ({
    apiVersion: 'nvidia.com/v1',
    kind: 'ClusterPolicy',
    metadata: { name: 'cluster-policy' },
    spec: { driver: rdma === undefined ? {} : { rdma } }
  })
  const rerender =
    'the release is as desired but its ClusterPolicy was changed: `helm repo add nvidia https://helm.ngc.nvidia.com/nvidia && helm upgrade gpu-operator nvidia/gpu-operator --version v26.7.0 -n gpu-operator --reuse-values` re-renders it (apply does not upgrade an unchanged release)'

  it('reports useHostMofed turned on and RDMA turned off, each with the patch that fixes it', async () => {
    const c = cluster([policy({ enabled: false, useHostMofed: true })])
    expect(await extras('gpu-operator', c.kube, [], { valuePaths: [] })).toEqual([
      driftItem(
        'gpu-operator',
        'clusterpolicy/cluster-policy spec.driver.rdma.enabled',
        'true',
        'false',
        false,
        `${rerender}; or \`kubectl patch clusterpolicy cluster-policy --type merge -p '{"spec":{"driver":{"rdma":{"enabled":true}}}}'\``
      ),
      driftItem(
        'gpu-operator',
        'clusterpolicy/cluster-policy spec.driver.rdma.useHostMofed',
        'false',
        'true',
        false,
        `${rerender}; or \`kubectl patch clusterpolicy cluster-policy --type merge -p '{"spec":{"driver":{"rdma":{"useHostMofed":false}}}}'\``
      )
    ])
    expect(c.reads).toEqual(['GET ClusterPolicy/cluster-policy'])
  })

  it('an absent rdma block reads as (absent); a missing policy is drift of its own', async () => {
    const [item] = await extras('gpu-operator', cluster([policy(undefined)]).kube, [], { valuePaths: [] })
    expect(item).toMatchObject({
      field: 'clusterpolicy/cluster-policy spec.driver.rdma.enabled',
      actual: '(absent)'
    })
    expect(await extras('gpu-operator', cluster([]).kube, [], { valuePaths: [] })).toEqual([
      driftItem('gpu-operator', 'clusterpolicy/cluster-policy', 'present', 'absent', false, rerender)
    ])
    const noCrd = cluster([], { getError: new KindNotServedError('nvidia.com/v1', 'ClusterPolicy') })
    expect((await extras('gpu-operator', noCrd.kube, [], { valuePaths: [] }))[0].actual).toBe('absent')
    const broken = cluster([], { getError: new Error('HTTP 500 etcd unavailable') })
    await expect(extras('gpu-operator', broken.kube, [], { valuePaths: [] })).rejects.toThrow(
      'etcd unavailable'
    )
  })

  it('as desired: nothing; a value path the release already reports, or no release, or another chart: not repeated', async () => {
    expect(
      await extras('gpu-operator', cluster([policy({ enabled: true, useHostMofed: false })]).kube, [], {
        valuePaths: []
      })
    ).toEqual([])
    const off = policy({ enabled: false, useHostMofed: true })
    expect(
      await extras('gpu-operator', cluster([off]).kube, [], { valuePaths: ['driver.rdma.useHostMofed'] })
    ).toHaveLength(1)
    expect(await extras('gpu-operator', cluster([off]).kube, [], { valuePaths: ['driver'] })).toEqual([])
    const none = cluster([off])
    expect(await extras('gpu-operator', none.kube)).toEqual([])
    expect(none.reads).toEqual([])
    expect(
      await extras('gpu-operator', cluster([off]).kube, [{ field: 'helm/gpu-operator chart' } as DriftItem], {
        valuePaths: []
      })
    ).toEqual([])
  })
})

describe('the Azure components’ drift (GETs only)', () => {
  function arm(o: {
    feature?: string | Error
    provider?: string | Error
    pool?: Record<string, unknown> | Error
  }) {
    const get = (v: unknown, wrap: (x: string) => unknown) => async () => {
      if (v instanceof Error) throw v
      return typeof v === 'string' ? wrap(v) : v
    }
    return {
      features: { features: { get: get(o.feature, state => ({ properties: { state } })) } },
      resources: { providers: { get: get(o.provider, registrationState => ({ registrationState })) } },
      containerService: { agentPools: { get: get(o.pool, () => undefined) } }
    } as unknown as ArmClients
  }
  const drift = (name: ComponentName, clients: ArmClients, s = settings()) =>
    (COMPONENTS[name] as ArmComponent).drift({ component: name, settings: s, clients })

  it('the feature and the provider: Registered (any case) or drift that apply fixes', async () => {
    expect(await drift('infiniband-feature', arm({ feature: 'registered', provider: 'Registered' }))).toEqual(
      []
    )
    expect(
      await drift('infiniband-feature', arm({ feature: 'NotRegistered', provider: 'Unregistered' }))
    ).toEqual([
      driftItem(
        'infiniband-feature',
        'feature.state',
        'Registered',
        'NotRegistered',
        true,
        'apply registers the feature, then re-registers the provider'
      ),
      driftItem(
        'infiniband-feature',
        'provider.registrationState',
        'Registered',
        'Unregistered',
        true,
        'apply registers the resource provider Microsoft.ContainerService'
      )
    ])
    const [pending] = await drift('infiniband-feature', arm({ feature: 'Pending', provider: 'Registered' }))
    expect(pending.hint).toBe(
      'registration awaits approval by Microsoft for this subscription; apply keeps waiting for it'
    )
  })

  it('a feature or provider that cannot be read fails the component, saying which', async () => {
    const e = new RestError('denied', { statusCode: 403, code: 'AuthorizationFailed' })
    await expect(drift('infiniband-feature', arm({ feature: e }))).rejects.toThrow(
      'reading feature Microsoft.ContainerService/AKSInfinibandSupport failed: HTTP 403 AuthorizationFailed: denied'
    )
    await expect(drift('infiniband-feature', arm({ feature: 'Registered', provider: e }))).rejects.toThrow(
      'reading provider Microsoft.ContainerService failed: HTTP 403 AuthorizationFailed: denied'
    )
  })

  it('the node pool: absent is drift apply fixes; a Failed or busy pool is named with what to do', async () => {
    const missing = await drift(
      'node-pool',
      arm({ pool: new RestError('nf', { statusCode: 404, code: 'NotFound' }) })
    )
    expect(missing).toEqual([
      driftItem(
        'node-pool',
        'agentPool',
        `present (${settings().nodePool.count} × ${settings().nodePool.vmSize})`,
        'absent',
        true,
        'apply creates pool rdmapool'
      )
    ])
    await expect(
      drift(
        'node-pool',
        arm({ pool: new RestError('rg', { statusCode: 404, code: 'ResourceGroupNotFound' }) })
      )
    ).rejects.toThrow(/^reading node pool rdmapool failed: HTTP 404 ResourceGroupNotFound/)
    const asDesired = {
      vmSize: settings().nodePool.vmSize,
      count: settings().nodePool.count,
      osType: 'Linux',
      osSKU: 'Ubuntu',
      mode: 'User',
      gpuProfile: { driver: 'None' },
      nodeLabels: {},
      nodeTaints: []
    }
    const failed = await drift('node-pool', arm({ pool: { ...asDesired, provisioningState: 'Failed' } }))
    expect(failed.find(i => i.field === 'provisioningState')).toEqual(
      driftItem(
        'node-pool',
        'provisioningState',
        'Succeeded',
        'Failed',
        false,
        'delete the failed pool (`az aks nodepool delete --subscription 00000000-0000-0000-0000-000000000000 --resource-group rg --cluster-name aks1 --name rdmapool`) or fix the cause, then apply'
      )
    )
    const busy = await drift('node-pool', arm({ pool: { ...asDesired, provisioningState: 'Upgrading' } }))
    expect(busy.find(i => i.field === 'provisioningState')?.hint).toBe(
      'an operation is in progress on pool rdmapool; run drift again when it settles'
    )
    const scaled = await drift('node-pool', arm({ pool: { ...asDesired, count: 3 } }))
    expect(scaled.find(i => i.field === 'count')).toMatchObject({
      desired: String(settings().nodePool.count),
      actual: '3',
      fixableByApply: false,
      hint: 'apply never changes an existing pool; set node-count: 3 to match the pool (it has more nodes than node-count; nothing is removed)'
    })
    // A smaller pool may be scaled up to node-count.
    const small = await drift('node-pool', arm({ pool: { ...asDesired, count: 1 } }))
    expect(small.find(i => i.field === 'count')?.hint).toBe(
      'apply never changes an existing pool; `az aks nodepool scale --subscription 00000000-0000-0000-0000-000000000000 --resource-group rg --cluster-name aks1 --name rdmapool --node-count 2`, or set node-count: 1'
    )
  })

  it('the cluster and the credentials add nothing of their own', async () => {
    expect(await drift('cluster', arm({}))).toEqual([])
    expect(await drift('credentials', arm({}))).toEqual([])
  })
})

describe('troubleshooting lines of a failed step', () => {
  const view = (o: Partial<DiagnosticView> & { nodes?: HealthVerdict['nodes'] }): DiagnosticView => ({
    reason: 'timed out',
    states: '',
    logs: '',
    ...o,
    ...(o.nodes
      ? { verdict: { done: false, message: '', readyNodes: 0, totalNodes: o.nodes.length, nodes: o.nodes } }
      : {})
  })
  const hints = (name: ComponentName, v: DiagnosticView) => (COMPONENTS[name] as KubeComponent).hints(v)

  it('nic-cluster-policy: no OFED pod and state-OFED not ready points at the NodeFeatureRule', () => {
    const policy = nicClusterPolicy({
      state: 'notReady',
      appliedStates: [
        { name: 'state-OFED', state: 'notReady', message: 'no Mellanox hardware is found' },
        { name: 'state-doca-telemetry-service', state: 'ready' },
        { name: 'state-RDMA-device-plugin', state: 'ignore' }
      ]
    })
    expect(hints('nic-cluster-policy', view({ snapshot: { policies: [policy], pods: [] } }))).toEqual([
      'state-OFED is not ready and there is no OFED driver pod: the NodeFeatureRule is missing or matched no node, so nothing labels feature.node.kubernetes.io/pci-15b3.present=true and the Network Operator schedules no driver (check `kubectl get nodefeaturerule nfd-network-rule` and the node labels).',
      'NicClusterPolicy states not ready: state-OFED notReady (no Mellanox hardware is found).'
    ])
    const withPods = { snapshot: { policies: [policy], pods: [pod('m', 'network-operator', 'n1', {}, {})] } }
    expect(hints('nic-cluster-policy', view(withPods))).toEqual([
      'NicClusterPolicy states not ready: state-OFED notReady (no Mellanox hardware is found).'
    ])
    expect(hints('nic-cluster-policy', view({ snapshot: { policies: [], pods: [] } }))).toHaveLength(1)
    const ready = {
      ...policy,
      status: { state: 'ready', appliedStates: [{ name: 'state-OFED', state: 'ready' }] }
    }
    expect(hints('nic-cluster-policy', view({ snapshot: { policies: [ready], pods: [] } }))).toEqual([])
  })

  it('gpu-operator: a peermem problem points at the OFED driver and useHostMofed', () => {
    const line =
      'nvidia-peermem-ctr waits for the OFED driver (/run/mellanox/drivers/.driver-ready); check the OFED pods (-l nvidia.com/ofed-driver) and keep driver.rdma.useHostMofed false.'
    expect(hints('gpu-operator', view({ states: 'nvidia-peermem-ctr: waiting: CrashLoopBackOff' }))).toEqual([
      line
    ])
    expect(
      hints(
        'gpu-operator',
        view({ nodes: [{ node: 'n1', ready: false, detail: 'nvidia-peermem-ctr running, not Ready' }] })
      )
    ).toEqual([line])
    expect(
      hints(
        'gpu-operator',
        view({ states: 'nvidia-driver-ctr: running', nodes: [{ node: 'n1', ready: false }] })
      )
    ).toEqual([])
  })

  it('rdma-device-plugin: nothing allocatable points at its selectors and the OFED driver', () => {
    expect(
      hints(
        'rdma-device-plugin',
        view({ nodes: [{ node: 'n1', ready: false, detail: 'allocatable rdma/hca_shared_devices_a = 0' }] })
      )
    ).toEqual([
      'The device plugin runs but advertises no RDMA device: its selectors (vendor 15b3, driver mlx5_core, linkTypes infiniband) matched nothing — is the OFED driver loaded on the node?'
    ])
    expect(
      hints(
        'rdma-device-plugin',
        view({ nodes: [{ node: 'n1', ready: false, detail: 'no device plugin pod' }] })
      )
    ).toEqual([])
  })

  it('node-feature-rule always says where labels come from; the others add none', () => {
    expect(hints('node-feature-rule', view({}))).toEqual([
      'Nodes are labelled by NFD from the NodeFeatureRule nfd-network-rule (PCI 15b3 devices 101c/101e); check `kubectl get nodes -L feature.node.kubernetes.io/pci-15b3.present` and that the VM size has InfiniBand.'
    ])
    expect(hints('network-operator', view({}))).toEqual([])
  })
})
