// The RDMA stack as the guide installs it, driven through the store: NFD + NodeFeatureRule,
// Network Operator / NicClusterPolicy / MOFED, ib-node-config, the RDMA shared device plugin and
// the GPU Operator — the happy path (its DaemonSets defaulted and rolled out as `kubectl rollout
// status` reads them), Ubuntu 24.04 naming, and the guide's failure modes.
import { kernelHash } from '../../../sim/kube/controllers/network-operator.js'
import {
  endpointStopped,
  registerEndpoint,
  setExtendedResource
} from '../../../sim/kube/controllers/node-resources.js'
import {
  applyGuideDevicePlugin,
  applyIbNodeConfig,
  applyNfdRule,
  applyNicClusterPolicy,
  gpuPool,
  installGpuOperator,
  installNetworkOperator,
  isReady,
  makeWorld,
  networkOperatorWorld,
  systemPool,
  upstream,
  type World
} from '../../support/controllers-world.js'

let w: World

const PCI15B3 = 'feature.node.kubernetes.io/pci-15b3.present'
const WAIT = 'network.nvidia.com/operator.mofed.wait'
const ncp = () => w.get('nicclusterpolicies', undefined, 'nic-cluster-policy', 'mellanox.com')
const cp = () => w.get('clusterpolicies', undefined, 'cluster-policy', 'nvidia.com')
const gpuNodes = () => w.list('nodes', { labelSelector: 'agentpool=gpu' })
const ofedPods = () =>
  w.list('pods', { namespace: 'network-operator', labelSelector: 'nvidia.com/ofed-driver' })
const sleepReal = (ms: number) => new Promise(r => setTimeout(r, ms))

describe('NFD and the Network Operator', () => {
  it('guide bug: without a NodeFeatureRule no node gets pci-15b3, no MOFED DaemonSet, state-OFED notReady', async () => {
    w = makeWorld()
    w.cluster.addPool(systemPool(1))
    w.cluster.addPool(gpuPool('gpu', 2))
    installNetworkOperator(w)
    applyNicClusterPolicy(w)
    await w.waitFor('ncp status', () => ncp()?.status?.state)
    await sleepReal(400) // 400 s of simulated time: longer than the MOFED delay
    expect(w.list('nodes', { labelSelector: `${PCI15B3}=true` })).toHaveLength(0)
    expect(
      w
        .list('daemonsets', { namespace: 'network-operator' }, 'apps')
        .filter(d => d.metadata.name.startsWith('mofed-'))
    ).toHaveLength(0)
    expect(ofedPods()).toHaveLength(0)
    const st = ncp()!.status
    expect(st.state).toBe('notReady')
    const ofed = st.appliedStates.find((a: any) => a.name === 'state-OFED')
    expect(ofed.state).toBe('notReady')
    expect(ofed.message).toMatch(/no Mellanox hardware is found/)
    expect(gpuNodes().every(n => n.metadata.labels![WAIT] !== 'false')).toBe(true)
  })

  it('NFD labels only while the Network Operator runs and only from rules; removing the rule removes the label', async () => {
    w = makeWorld({ nodes: { noInfiniband: [1] } })
    w.cluster.addPool(gpuPool('gpu', 3))
    applyNfdRule(w)
    await sleepReal(50)
    expect(w.list('nodes', { labelSelector: `${PCI15B3}=true` })).toHaveLength(0) // NFD not installed yet
    installNetworkOperator(w)
    await w.waitFor('labelled', () => w.list('nodes', { labelSelector: `${PCI15B3}=true` }).length === 2)
    const unlabelled = gpuNodes().find(n => !n.metadata.labels![PCI15B3])!
    expect(w.hardware.get(unlabelled.metadata.name)!.rdmaIndex).toBe(1) // the noInfiniband node
    // The chart's default rule (vendor 15b3, class 0200/0207) would also catch the Ethernet VF:
    w.create({
      apiVersion: 'nfd.k8s-sigs.io/v1alpha1',
      kind: 'NodeFeatureRule',
      metadata: { name: 'nvidia-nics-rules' },
      spec: {
        rules: [
          {
            name: 'Nvidia NICs PCI',
            labels: { 'pci-15b3.present': 'true' },
            matchFeatures: [
              {
                feature: 'pci.device',
                matchExpressions: {
                  vendor: { op: 'In', value: ['15b3'] },
                  class: { op: 'In', value: ['0200', '0207'] }
                }
              }
            ]
          }
        ]
      }
    })
    await w.waitFor('all three', () => w.list('nodes', { labelSelector: `${PCI15B3}=true` }).length === 3)
    w.store.delete(w.t('nodefeaturerules', 'nfd.k8s-sigs.io'), undefined, 'nvidia-nics-rules')
    await w.waitFor('back to two', () => w.list('nodes', { labelSelector: `${PCI15B3}=true` }).length === 2)
    w.store.delete(w.t('nodefeaturerules', 'nfd.k8s-sigs.io'), undefined, 'nfd-network-rule')
    await w.waitFor('none', () => w.list('nodes', { labelSelector: `${PCI15B3}=true` }).length === 0)
  })

  it('renders mofed-<os><ver>-<kernelHash>-ds; the guide selector app=mofed-ubuntu22.04-ds matches nothing', async () => {
    w = networkOperatorWorld({ gpus: 2 })
    await w.waitFor('mofed ready', () => ofedPods().length === 2 && ofedPods().every(isReady))
    const hash = kernelHash('5.15.0-1079-azure')
    const dsName = `mofed-ubuntu22.04-${hash}-ds`
    const d = w.get('daemonsets', 'network-operator', dsName, 'apps')!
    expect(d).toBeDefined()
    expect(d.spec.updateStrategy.type).toBe('OnDelete')
    expect(d.metadata.ownerReferences![0]).toMatchObject({
      kind: 'NicClusterPolicy',
      name: 'nic-cluster-policy'
    })
    expect(d.spec.template.spec.nodeSelector).toEqual({
      [PCI15B3]: 'true',
      'feature.node.kubernetes.io/system-os_release.ID': 'ubuntu',
      'feature.node.kubernetes.io/system-os_release.VERSION_ID': '22.04',
      'feature.node.kubernetes.io/kernel-version.full': '5.15.0-1079-azure'
    })
    const c = d.spec.template.spec.containers[0]
    expect(c.name).toBe('mofed-container')
    expect(c.image).toBe('nvcr.io/nvidia/mellanox/doca-driver:doca3.2.0-25.10-1.2.8.0-2-ubuntu22.04-amd64')
    const pod = ofedPods()[0]
    expect(pod.metadata.labels).toMatchObject({
      app: `mofed-ubuntu22.04-${hash}`,
      'nvidia.com/ofed-driver': '',
      kernel: '5.15.0-1079-azure'
    })
    expect(
      w.list('pods', { namespace: 'network-operator', labelSelector: 'app=mofed-ubuntu22.04-ds' })
    ).toHaveLength(0)
    expect(
      w.list('pods', { namespace: 'network-operator', labelSelector: 'app=mofed-ubuntu22.04' })
    ).toHaveLength(0)
    await w.waitFor('wait=false', () => gpuNodes().every(n => n.metadata.labels![WAIT] === 'false'))
    await w.waitFor('ncp ready', () => ncp()?.status?.state === 'ready')
    expect(ncp()!.status.appliedStates.map((a: any) => [a.name, a.state])).toEqual([
      ['state-OFED', 'ready'],
      ['state-doca-telemetry-service', 'ready']
    ])
    expect(w.controllers.logs('network-operator', pod.metadata.name, 'mofed-container')).toMatch(
      /\.driver-ready/
    )
  })

  it('keeps mofed.wait=true until the node’s OFED pod is Ready (the mofed delay)', async () => {
    w = networkOperatorWorld({
      gpus: 1,
      scenario: { kube: { timeScale: 0.001, delays: { mofed: '900s', default: '5s', gpuDriver: '240s' } } },
      nicClusterPolicy: false
    })
    // Taken before the policy is applied: a late poll can only make the measured span longer.
    const startedAt = w.clock.now()
    applyNicClusterPolicy(w)
    await w.waitFor('wait=true', () => gpuNodes()[0].metadata.labels![WAIT] === 'true')
    await w.waitFor('wait=false', () => gpuNodes()[0].metadata.labels![WAIT] === 'false')
    expect(w.clock.now() - startedAt).toBeGreaterThan(800_000)
    expect(w.hardware.all()[0].ofedReady).toBe(true)
  })

  it('Ubuntu 24.04 on Kubernetes 1.35: mofed-ubuntu24.04-<hash>-ds and a -ubuntu24.04-amd64 image', async () => {
    w = networkOperatorWorld({ gpus: 1, pool: { kubernetesVersion: '1.35' } })
    const name = `mofed-ubuntu24.04-${kernelHash('6.8.0-1021-azure')}-ds`
    const d = await w.waitFor('ds', () => w.get('daemonsets', 'network-operator', name, 'apps'))
    expect(d.spec.template.spec.containers[0].image).toMatch(/-ubuntu24\.04-amd64$/)
    expect(
      w
        .list(
          'daemonsets',
          { namespace: 'network-operator', labelSelector: 'nvidia.com/ofed-driver' },
          'apps'
        )
        .map(x => x.metadata.name)
    ).toEqual([name])
  })

  it('ofedFails: that node’s MOFED pod crash-loops with a build error; the policy stays notReady', async () => {
    w = networkOperatorWorld({ gpus: 2, scenario: { nodes: { ofedFails: [1] } } })
    const bad = w.cluster.nodeNameOf('gpu', 1)
    const crashing = await w.waitFor('crash loop', () =>
      ofedPods().find(
        p =>
          p.spec.nodeName === bad &&
          p.status?.containerStatuses?.[0]?.state?.waiting?.reason === 'CrashLoopBackOff'
      )
    )
    await w.waitFor(
      'good node done',
      () => w.get('nodes', undefined, w.cluster.nodeNameOf('gpu', 0))!.metadata.labels![WAIT] === 'false'
    )
    expect(w.get('nodes', undefined, bad)!.metadata.labels![WAIT]).toBe('true')
    expect(ncp()!.status.state).toBe('notReady')
    const log =
      w.controllers.logs('network-operator', crashing.metadata.name, 'mofed-container', { previous: true }) ??
      w.controllers.logs('network-operator', crashing.metadata.name, 'mofed-container')
    expect(log).toMatch(/Error: failed to build mlnx-ofed-kernel-dkms for kernel 5\.15\.0-1079-azure/)
  })

  it('a NicClusterPolicy with another name is ignored', async () => {
    w = makeWorld()
    w.cluster.addPool(gpuPool('gpu', 1))
    installNetworkOperator(w)
    const [base] = upstream('azure-aks-rdma-infiniband__configs_nicclusterpolicy_base_nic.yaml')
    w.create({ ...base, metadata: { name: 'my-policy' } })
    await w.waitFor(
      'ignored',
      () => w.get('nicclusterpolicies', undefined, 'my-policy', 'mellanox.com')?.status?.state === 'ignore'
    )
    expect(
      w
        .list('daemonsets', { namespace: 'network-operator' }, 'apps')
        .filter(d => !d.metadata.name.includes('node-feature-discovery'))
    ).toHaveLength(0)
  })
})

describe('RDMA shared device plugin', () => {
  it('guide config (no linkTypes) also selects the Ethernet VF; AZ config (linkTypes infiniband) does not', async () => {
    w = networkOperatorWorld({ gpus: 1, nicClusterPolicy: false })
    const [base] = upstream('azure-aks-rdma-infiniband__configs_nicclusterpolicy_base_nic.yaml')
    const [rdma] = upstream(
      'azure-aks-rdma-infiniband__configs_nicclusterpolicy_rdma-shared-device-plugin_rdma.yaml'
    )
    w.create({ ...base, spec: { ...base.spec, ...rdma.spec } })
    applyGuideDevicePlugin(w)
    const node = () => gpuNodes()[0]
    await w.waitFor(
      'both advertised',
      () =>
        node().status.allocatable['rdma/hca_shared_devices_a'] && node().status.allocatable['rdma/shared_ib']
    )
    expect(node().status.allocatable['rdma/hca_shared_devices_a']).toBe('1k')
    expect(node().status.capacity['rdma/hca_shared_devices_a']).toBe('1k')
    expect(node().status.allocatable['rdma/shared_ib']).toBe('63')
    const matched = w.hardware.all()[0].rdmaMatchedDevices
    expect(matched['rdma/hca_shared_devices_a']).toHaveLength(9)
    expect(matched['rdma/hca_shared_devices_a']).toContain('mlx5_an0')
    expect(matched['rdma/shared_ib']).toHaveLength(8)
    expect(matched['rdma/shared_ib']).not.toContain('mlx5_an0')
    const dp = w.list('pods', { namespace: 'kube-system', labelSelector: 'name=rdma-shared-dp-ds' })[0]
    const log = w.controllers.logs('kube-system', dp.metadata.name)!
    expect(log).toMatch(/matched device .* \(mlx5_an0, netdev eth1, link type ether\)/)
    const nodp = w.list('pods', { namespace: 'network-operator', labelSelector: 'app=rdma-shared-dp' })
    expect(nodp).toHaveLength(1)
    expect(w.get('configmaps', 'network-operator', 'rdma-devices')!.data['config.json']).toMatch(/shared_ib/)
    await w.waitFor('ncp ready', () => ncp()?.status?.state === 'ready')
    expect(ncp()!.status.appliedStates.map((a: any) => a.name)).toContain('state-RDMA-device-plugin')
  })

  it('advertises nothing before OFED is ready, and crash-loops without its ConfigMap', async () => {
    w = makeWorld()
    w.cluster.addPool(gpuPool('gpu', 1))
    const [, dsObj] = upstream('dynamo-guide-infiniband-on-azure__rdma-shared-device-plugin.yaml')
    w.create(dsObj)
    const pod = await w.waitFor('crash loop', () =>
      w
        .list('pods', { namespace: 'kube-system' })
        .find(p => p.status?.containerStatuses?.[0]?.state?.waiting?.reason === 'CrashLoopBackOff')
    )
    expect(w.controllers.logs('kube-system', pod.metadata.name)).toMatch(
      /config\.json: no such file or directory/
    )
    const [cm] = upstream('dynamo-guide-infiniband-on-azure__rdma-shared-device-plugin.yaml')
    w.create(cm)
    await w.waitFor('running', () => w.list('pods', { namespace: 'kube-system' }).some(isReady))
    await sleepReal(50)
    expect(gpuNodes()[0].status.allocatable['rdma/hca_shared_devices_a']).toBeUndefined()
    expect(w.hardware.all()[0].timeline.devicePluginStartedAt).toBeDefined()
  })
})

describe('ib-node-config', () => {
  it('sets memlock unlimited and loads ib_umad; every pod (re)creation restarts kubelet and containerd again', async () => {
    w = makeWorld()
    w.cluster.addPool(gpuPool('gpu', 2))
    applyIbNodeConfig(w)
    const pods = () => w.list('pods', { namespace: 'kube-system', labelSelector: 'app=ib-node-config' })
    await w.waitFor('ready', () => pods().length === 2 && pods().every(isReady))
    for (const h of w.hardware.all()) {
      expect(h).toMatchObject({
        memlockUnlimited: true,
        ibModulesLoaded: true,
        kubeletRestarts: 1,
        containerdRestarts: 1
      })
      expect(h.timeline.ibNodeConfigInitAt).toBeDefined()
    }
    const log = w.controllers.logs('kube-system', pods()[0].metadata.name, 'ib-setup')!
    expect(log.split('\n')).toEqual(
      expect.arrayContaining([
        '=== IB Node Configuration ===',
        'OK: ib_umad',
        'OK: containerd active',
        'OK: kubelet active',
        '=== Setup Complete ==='
      ])
    )
    const victim = pods()[0]
    w.store.delete(w.t('pods'), 'kube-system', victim.metadata.name)
    await w.waitFor('re-run', () => w.hardware.get(victim.spec.nodeName)!.kubeletRestarts === 2)
    expect(w.hardware.get(victim.spec.nodeName)!.containerdRestarts).toBe(2)
  })
})

describe('GPU Operator', () => {
  async function stack(gpuSpec: Record<string, unknown>, o: { ofed?: boolean; ready?: boolean } = {}) {
    w = networkOperatorWorld({ gpus: 2, system: 1, nicClusterPolicy: o.ofed !== false })
    installGpuOperator(w, gpuSpec)
    if (o.ready !== false)
      await w.waitFor('cluster policy ready', () => cp()?.status?.state === 'ready', 20_000)
  }
  const driverPods = () =>
    w.list('pods', { namespace: 'gpu-operator', labelSelector: 'app=nvidia-driver-daemonset' })
  const peermemStatus = (p: any) =>
    p.status?.containerStatuses?.find((c: any) => c.name === 'nvidia-peermem-ctr')

  it('driver.rdma.enabled: peermem sidecar loads nvidia_peermem after OFED; GPUs advertised', async () => {
    await stack({ driver: { rdma: { enabled: true } } })
    const driver = w.get('daemonsets', 'gpu-operator', 'nvidia-driver-daemonset', 'apps')!
    expect(driver.spec.template.spec.nodeSelector).toEqual({ 'nvidia.com/gpu.deploy.driver': 'true' })
    expect(driver.spec.template.spec.containers.map((c: any) => c.name)).toEqual([
      'nvidia-driver-ctr',
      'nvidia-peermem-ctr'
    ])
    expect(driver.spec.template.spec.initContainers[0].name).toBe('k8s-driver-manager')
    expect(
      driver.spec.template.spec.volumes.find((v: any) => v.name === 'mlnx-ofed-usr-src').hostPath.path
    ).toBe('/run/mellanox/drivers/usr/src')
    for (const n of gpuNodes()) {
      expect(n.metadata.labels!['nvidia.com/gpu.deploy.driver']).toBe('true')
      expect(n.status.allocatable['nvidia.com/gpu']).toBe('8')
    }
    for (const h of w.hardware.all().filter(x => x.pool === 'gpu')) {
      expect(h.nvidiaPeermemLoaded).toBe(true)
      expect(h.timeline.peermemReadyAt!).toBeGreaterThanOrEqual(h.timeline.ofedReadyAt!)
    }
    const pod = w.list('pods', { namespace: 'gpu-operator', labelSelector: 'app=nvidia-driver-daemonset' })[0]
    expect(w.controllers.logs('gpu-operator', pod.metadata.name, 'nvidia-peermem-ctr')).toMatch(
      /successfully loaded nvidia-peermem module/
    )
    expect(cp()!.status.conditions.find((c: any) => c.type === 'Ready').status).toBe('True')
    expect(
      w
        .list('pods', { namespace: 'gpu-operator', labelSelector: 'app=nvidia-cuda-validator' })
        .every(p => p.status.phase === 'Succeeded')
    ).toBe(true)
  })

  it('guide bug: with useHostMofed=true the sidecar does not wait for the DOCA driver; modprobe fails, it crash-loops, never Ready', async () => {
    await stack({ driver: { rdma: { enabled: true, useHostMofed: true } } }, { ready: false })
    const driver = await w.waitFor('the driver DaemonSet', () =>
      w.get('daemonsets', 'gpu-operator', 'nvidia-driver-daemonset', 'apps')
    )
    const side = driver.spec.template.spec.containers.find((c: any) => c.name === 'nvidia-peermem-ctr')
    expect(side.env).toEqual([{ name: 'USE_HOST_MOFED', value: 'true' }])
    expect(
      driver.spec.template.spec.volumes.find((v: any) => v.name === 'mlnx-ofed-usr-src').hostPath.path
    ).toBe('/usr/src')
    // Once the DOCA driver is up everywhere, the sidecar still fails each restart: built against
    // the host's /usr/src (no OFED sources), the module has no peer-memory client to register.
    await w.waitFor('OFED ready and a restart after it', () => {
      const pods = driverPods()
      return (
        pods.length === 2 &&
        w.hardware.all().every(h => h.pool !== 'gpu' || h.ofedReady) &&
        pods.every(p => (peermemStatus(p)?.restartCount ?? 0) >= 3)
      )
    })
    for (const p of driverPods()) {
      const st = peermemStatus(p)
      expect(st.ready).toBe(false)
      expect(st.lastState.terminated.exitCode).toBe(1)
      expect(p.status.conditions.find((c: any) => c.type === 'Ready').status).toBe('False')
    }
    for (const h of w.hardware.all().filter(x => x.pool === 'gpu')) expect(h.nvidiaPeermemLoaded).toBe(false)
    // The previous instance's log: the current one may have just restarted and printed nothing yet.
    const log = w.controllers.logs('gpu-operator', driverPods()[0].metadata.name, 'nvidia-peermem-ctr', {
      previous: true
    })
    expect(log).toMatch(
      /modprobe: ERROR: could not insert 'nvidia_peermem': Invalid argument\nfailed to load nvidia-peermem module/
    )
    expect(cp()!.status.state).toBe('notReady')
  })

  it('without the DOCA driver the sidecar waits (useHostMofed false) or fails at once (true)', async () => {
    // No NicClusterPolicy: the DOCA driver never comes; only the inbox mlx5_core is loaded.
    await stack({ driver: { rdma: { enabled: true } } }, { ofed: false, ready: false })
    await w.waitFor('GPU drivers ready', () =>
      w.hardware.all().every(h => h.pool !== 'gpu' || h.gpuDriverReady)
    )
    await sleepReal(w.clock.real(60_000)) // simulated: six of the sidecar's 10 s checks
    for (const p of driverPods()) {
      expect(peermemStatus(p)).toMatchObject({ ready: false, restartCount: 0, state: { running: {} } })
      expect(w.controllers.logs('gpu-operator', p.metadata.name, 'nvidia-peermem-ctr')).toMatch(
        /^waiting for mellanox ofed and nvidia drivers to be installed/
      )
    }
    w.close()
    await stack({ driver: { rdma: { enabled: true, useHostMofed: true } } }, { ofed: false, ready: false })
    await w.waitFor(
      'the sidecar restarted',
      () => driverPods().length === 2 && driverPods().every(p => (peermemStatus(p)?.restartCount ?? 0) >= 1)
    )
    expect(w.hardware.all().some(h => h.ofedReady)).toBe(false)
    // The failed instance's log: the current one until the back-off ends, then the previous one
    // (kubectl logs --previous) while the restarted instance waits again.
    const name = driverPods()[0].metadata.name
    const logs = (previous: boolean) =>
      w.controllers.logs('gpu-operator', name, 'nvidia-peermem-ctr', { previous }) ?? ''
    expect(logs(true) + logs(false)).toMatch(/Invalid argument/)
  })

  it('without driver.rdma there is no peermem sidecar', async () => {
    await stack({})
    const driver = w.get('daemonsets', 'gpu-operator', 'nvidia-driver-daemonset', 'apps')!
    expect(driver.spec.template.spec.containers.map((c: any) => c.name)).toEqual(['nvidia-driver-ctr'])
  })
})

describe('the whole guide, fixed', () => {
  it('every RDMA node: mofed.wait=false, rdma/hca_shared_devices_a=1k, nvidia.com/gpu=8, one kubelet restart', async () => {
    w = networkOperatorWorld({ gpus: 3, system: 1 })
    applyIbNodeConfig(w)
    applyGuideDevicePlugin(w)
    installGpuOperator(w, { driver: { rdma: { enabled: true } } })
    await w.waitFor(
      'all nodes done',
      () =>
        gpuNodes().every(
          n =>
            n.metadata.labels![WAIT] === 'false' &&
            n.status.allocatable['rdma/hca_shared_devices_a'] === '1k' &&
            n.status.allocatable['nvidia.com/gpu'] === '8'
        ),
      20_000
    )
    await w.waitFor(
      'policies ready',
      () => ncp()?.status?.state === 'ready' && cp()?.status?.state === 'ready',
      20_000
    )
    // The other DaemonSets the operators render and the device plugin the guide applies carry no
    // update strategy: the API server defaults it, and their status is what `kubectl rollout status`
    // reads as rolled out (RollingUpdate, observedGeneration caught up, every scheduled pod updated
    // and available).
    const daemonSets = w.list('daemonsets', {}, 'apps')
    expect(daemonSets.map(d => d.metadata.name)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^mofed-/),
        'rdma-shared-dp-ds',
        'nvidia-driver-daemonset'
      ])
    )
    for (const ds of daemonSets) {
      // Both driver DaemonSets are OnDelete upstream (the operators replace their pods); `kubectl
      // rollout status` refuses that strategy on a real cluster as here.
      if (/^mofed-|^nvidia-driver-daemonset$/.test(ds.metadata.name)) {
        expect(ds.spec.updateStrategy).toEqual({ type: 'OnDelete' })
        continue
      }
      expect([ds.metadata.name, ds.spec.updateStrategy, ds.spec.revisionHistoryLimit]).toEqual([
        ds.metadata.name,
        { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
        10
      ])
      await w.waitFor(`${ds.metadata.name} rolled out`, () => {
        const st = w.get('daemonsets', ds.metadata.namespace, ds.metadata.name, 'apps')!.status
        return (
          st?.observedGeneration >= ds.metadata.generation! &&
          st.desiredNumberScheduled > 0 &&
          st.updatedNumberScheduled === st.desiredNumberScheduled &&
          st.numberAvailable === st.desiredNumberScheduled
        )
      })
    }
    const restarts = Object.fromEntries(
      w.hardware
        .all()
        .filter(h => h.pool === 'gpu')
        .map(h => [h.nodeName, h.kubeletRestarts])
    )
    expect(Object.values(restarts)).toEqual([1, 1, 1])
    for (const h of w.hardware.all().filter(x => x.pool === 'gpu')) {
      expect(h).toMatchObject({
        ofedReady: true,
        memlockUnlimited: true,
        ibModulesLoaded: true,
        gpuDriverReady: true,
        nvidiaPeermemLoaded: true
      })
      expect(h.timeline.rdmaAdvertisedAt!).toBeGreaterThanOrEqual(h.timeline.ofedReadyAt!)
    }
    const sys = w.list('nodes', { labelSelector: 'agentpool=system' })[0]
    expect(sys.metadata.labels![WAIT]).toBeUndefined()
    expect(sys.status.allocatable['nvidia.com/gpu']).toBeUndefined()
    expect(w.errors).toEqual([])
  })

  it('a device plugin endpoint replaced by another pod’s: the old one’s stop leaves the resource alone', async () => {
    w = makeWorld()
    w.cluster.addPool(gpuPool('gpu', 1))
    const ctx = w.controllers.ctx
    const name = gpuNodes()[0].metadata.name
    const count = () => gpuNodes()[0].status.allocatable?.['nvidia.com/gpu']
    // The kubelet's device manager keeps one endpoint per resource: a rollout's new plugin pod
    // registers before or after the old pod's endpoint goes, and only the current one counts.
    registerEndpoint(ctx, name, 'nvidia.com/gpu', 'old-pod')
    setExtendedResource(ctx, name, 'nvidia.com/gpu', 8)
    registerEndpoint(ctx, name, 'nvidia.com/gpu', 'new-pod')
    endpointStopped(ctx, name, 'nvidia.com/gpu', 'old-pod')
    expect(count()).toBe('8')
    endpointStopped(ctx, name, 'nvidia.com/gpu', 'new-pod')
    expect(count()).toBe('0')
  })
})
