// The simulated cluster and core controllers: nodes from pools (names, labels, OS rule, taints,
// join spread, scaling), kubeconfig shapes, DaemonSet placement / rolling update / OnDelete /
// status, Deployment and Job, scheduling failures, and the kubelet's pod lifecycle with faults.
import { parse } from 'yaml'
import { createWorldTls } from '../../../sim/tls.js'
import { kernelHash } from '../../../sim/kube/controllers/network-operator.js'
import { fnv32a, safeEncode } from '../../../sim/kube/hardware.js'
import {
  gpuPool,
  installNetworkOperator,
  isReady,
  makeWorld,
  pod,
  systemNodesWorld,
  systemPool,
  type World
} from '../../support/controllers-world.js'

let w: World

function ds(name: string, spec: Record<string, unknown> = {}, template: Record<string, unknown> = {}) {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace: 'kube-system' },
    spec: {
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'c', image: 'busybox:1.36' }], ...template }
      },
      ...spec
    }
  }
}

describe('nodes from agent pools', () => {
  it('creates AKS-shaped nodes with labels, taints, capacity and nodeInfo (NFD labels come from NFD)', () => {
    w = makeWorld()
    w.cluster.addPool(gpuPool('gpu', 2, { labels: { team: 'ml' }, taints: ['sku=gpu:NoSchedule'] }))
    w.cluster.addPool(systemPool(1))
    const nodes = w.list('nodes')
    expect(nodes).toHaveLength(3)
    const n = nodes.find(x => x.metadata.name.startsWith('aks-gpu-'))!
    expect(n.metadata.name).toMatch(/^aks-gpu-\d{8}-vmss00000[0-1]$/)
    const l = n.metadata.labels!
    expect(l['kubernetes.azure.com/agentpool']).toBe('gpu')
    expect(l.agentpool).toBe('gpu')
    expect(l['node.kubernetes.io/instance-type']).toBe('Standard_ND96isr_H100_v5')
    expect(l['kubernetes.io/os']).toBe('linux')
    expect(l['kubernetes.io/hostname']).toBe(n.metadata.name)
    expect(l['kubernetes.azure.com/accelerator']).toBe('nvidia')
    expect(l.team).toBe('ml')
    expect(Object.keys(l).filter(k => k.startsWith('feature.node.kubernetes.io/'))).toEqual([])
    expect(n.spec.taints).toEqual([{ key: 'sku', value: 'gpu', effect: 'NoSchedule' }])
    expect(n.status.nodeInfo.osImage).toBe('Ubuntu 22.04.5 LTS')
    expect(n.status.nodeInfo.kernelVersion).toBe('5.15.0-1079-azure')
    expect(n.status.capacity.cpu).toBe('96')
    expect(n.status.allocatable.pods).toBe('110')
    expect(n.status.conditions.find((c: any) => c.type === 'Ready').status).toBe('True')
    const sys = nodes.find(x => x.metadata.name.startsWith('aks-system-'))!
    expect(sys.metadata.labels!['kubernetes.azure.com/accelerator']).toBeUndefined()
  })

  it('NFD labels a node only while its worker runs there: a taint the worker does not tolerate leaves it unlabelled', async () => {
    w = makeWorld()
    w.cluster.addPool(gpuPool('gpu', 2, { taints: ['sku=gpu:NoSchedule'] }))
    w.cluster.addPool(gpuPool('open', 1))
    w.cluster.addPool(systemPool(1))
    installNetworkOperator(w)
    const labels = (pool: string) =>
      w.list('nodes', { labelSelector: `agentpool=${pool}` }).map(n => n.metadata.labels!)
    await w.waitFor('untainted nodes labelled', () =>
      [...labels('open'), ...labels('system')].every(l => l['feature.node.kubernetes.io/kernel-version.full'])
    )
    const [open] = labels('open')
    expect(open['feature.node.kubernetes.io/system-os_release.ID']).toBe('ubuntu')
    expect(open['feature.node.kubernetes.io/system-os_release.VERSION_ID']).toBe('22.04')
    expect(open['feature.node.kubernetes.io/kernel-version.full']).toBe('5.15.0-1079-azure')
    expect(open['feature.node.kubernetes.io/pci-10de.present']).toBe('true')
    expect(open['feature.node.kubernetes.io/pci-15b3.present']).toBeUndefined()
    expect(labels('system')[0]['feature.node.kubernetes.io/pci-10de.present']).toBeUndefined()
    expect(labels('system')[0]['feature.node.kubernetes.io/pci-1414.present']).toBe('true')
    // The tainted pool: no worker pod (the DaemonSet controller leaves it out), so no labels.
    const workers = w.list('pods', { namespace: 'network-operator', labelSelector: 'role=worker' })
    expect(workers.map(p => p.spec.nodeName).filter(n => n.startsWith('aks-gpu-'))).toEqual([])
    for (const l of labels('gpu')) expect(l['feature.node.kubernetes.io/kernel-version.full']).toBeUndefined()
    // A worker that tolerates the taint labels them.
    w.store.mutate(
      w.t('daemonsets', 'apps'),
      'network-operator',
      'network-operator-node-feature-discovery-worker',
      o => {
        o.spec.template.spec.tolerations.push({
          key: 'sku',
          operator: 'Equal',
          value: 'gpu',
          effect: 'NoSchedule'
        })
      }
    )
    await w.waitFor('tainted nodes labelled', () =>
      labels('gpu').every(l => l['feature.node.kubernetes.io/pci-10de.present'] === 'true')
    )
  })

  it('follows the AKS OS rule: Ubuntu is 24.04 from Kubernetes 1.35; Ubuntu2204 pins 22.04', async () => {
    w = makeWorld()
    w.cluster.addPool(gpuPool('new', 1, { kubernetesVersion: '1.35' }))
    w.cluster.addPool(gpuPool('pinned', 1, { kubernetesVersion: '1.35', osSku: 'Ubuntu2204' }))
    w.cluster.addPool(gpuPool('explicit', 1, { kubernetesVersion: '1.33', osSku: 'Ubuntu2404' }))
    const byPool = (p: string) => w.list('nodes', { labelSelector: `agentpool=${p}` })[0]
    expect(byPool('new').status.nodeInfo.osImage).toMatch(/^Ubuntu 24\.04/)
    expect(byPool('new').status.nodeInfo.kernelVersion).toBe('6.8.0-1021-azure')
    expect(byPool('pinned').status.nodeInfo.osImage).toBe('Ubuntu 22.04.5 LTS')
    expect(byPool('explicit').status.nodeInfo.osImage).toMatch(/^Ubuntu 24\.04/)
    installNetworkOperator(w)
    const VERSION = 'feature.node.kubernetes.io/system-os_release.VERSION_ID'
    await w.waitFor('NFD labels', () => byPool('new').metadata.labels![VERSION])
    expect(byPool('new').metadata.labels![VERSION]).toBe('24.04')
  })

  it('a DaemonSet whose pods name an unknown priority class creates none and reports FailedCreate', async () => {
    w = makeWorld()
    w.cluster.addPool(gpuPool('gpu', 1))
    w.create(ds('agent', {}, { priorityClassName: 'node-critical-typo' }))
    const event = await w.waitFor('FailedCreate', () =>
      w.list('events', { namespace: 'kube-system' }).find(e => e.reason === 'FailedCreate')
    )
    expect(event.message).toBe(
      `Error creating: pods "${event.message.match(/pods "([^"]+)"/)[1]}" is forbidden: no PriorityClass with name node-critical-typo was found`
    )
    expect(w.list('pods', { namespace: 'kube-system', labelSelector: 'app=agent' })).toEqual([])
  })

  it('joins nodes over joinSpread, scales up and down, and removes pools with their pods', async () => {
    w = makeWorld({ nodes: { joinSpread: '60s' } })
    w.cluster.addPool(gpuPool('gpu', 4))
    expect(w.list('nodes')).toHaveLength(1)
    await w.waitFor('4 nodes joined', () => w.list('nodes').length === 4)
    const joined = Object.values(w.hardware.all()).map(h => h.timeline.joinedAt!)
    expect(Math.max(...joined) - Math.min(...joined)).toBeGreaterThanOrEqual(55_000)
    w.create(ds('agent'))
    await w.waitFor('4 agent pods', () => w.list('pods', { namespace: 'kube-system' }).length === 4)
    w.cluster.setPoolCount('gpu', 2)
    expect(
      w
        .list('nodes')
        .map(n => n.metadata.name)
        .sort()
    ).toEqual([w.cluster.nodeNameOf('gpu', 0), w.cluster.nodeNameOf('gpu', 1)])
    await w.waitFor('pods follow nodes', () => w.list('pods', { namespace: 'kube-system' }).length === 2)
    w.cluster.setPoolCount('gpu', 3)
    await w.waitFor('3 nodes', () => w.list('nodes').length === 3)
    expect(w.list('nodes').map(n => n.metadata.name)).toContain(w.cluster.nodeNameOf('gpu', 4))
    w.cluster.removePool('gpu')
    expect(w.list('nodes')).toHaveLength(0)
    expect(w.list('pods')).toHaveLength(0)
  })

  it('hands out token, client-certificate and AAD (kubelogin exec) kubeconfigs', () => {
    const tls = createWorldTls()
    w = makeWorld({ azure: { tenantId: '72f988bf-86f1-41af-91ab-2d7cd011db47' } }, { tls })
    w.cluster.setServer('https://127.0.0.1:40123', { user: 'user-token', admin: 'admin-token' })
    const user = parse(w.cluster.kubeconfig('user'))
    const admin = parse(w.cluster.kubeconfig('admin'))
    const aad = parse(w.cluster.kubeconfig('aad'))
    for (const k of [user, admin, aad]) {
      expect(k.clusters[0].cluster.server).toBe('https://127.0.0.1:40123')
      expect(Buffer.from(k.clusters[0].cluster['certificate-authority-data'], 'base64').toString()).toBe(
        tls.caPem
      )
      expect(k['current-context']).toBe(k.contexts[0].name)
    }
    expect(user.users[0].user.token).toBe('user-token')
    expect(Buffer.from(admin.users[0].user['client-certificate-data'], 'base64').toString()).toMatch(
      /BEGIN CERTIFICATE/
    )
    expect(Buffer.from(admin.users[0].user['client-key-data'], 'base64').toString()).toMatch(/PRIVATE KEY/)
    const exec = aad.users[0].user.exec
    expect(exec.command).toBe('kubelogin')
    expect(exec.apiVersion).toBe('client.authentication.k8s.io/v1beta1')
    expect(exec.args).toEqual([
      'get-token',
      '--environment',
      'AzurePublicCloud',
      '--server-id',
      '6dae42f8-4368-4678-94ff-3960e28e3630',
      '--client-id',
      '80faf920-1908-4b52-b5ef-a8e7bedfc67a',
      '--tenant-id',
      '72f988bf-86f1-41af-91ab-2d7cd011db47',
      '--login',
      'devicecode'
    ])
  })
})

describe('hardware', () => {
  it('models IB VFs per VM size, the Ethernet VF, and the scenario overrides', () => {
    w = makeWorld({
      nodes: {
        degraded: [
          { index: 3, nic: 3, gbps: 100 },
          { index: 2, gbps: 200 }
        ],
        noInfiniband: [1]
      }
    })
    w.cluster.addPool({
      name: 'hb',
      vmSize: 'Standard_HB120rs_v3',
      count: 1,
      osSku: 'Ubuntu',
      mode: 'User',
      kubernetesVersion: '1.33'
    })
    w.cluster.addPool(gpuPool('h100', 2))
    w.cluster.addPool({
      name: 'a100',
      vmSize: 'Standard_ND96asr_v4',
      count: 1,
      osSku: 'Ubuntu',
      mode: 'User',
      kubernetesVersion: '1.33'
    })
    const hb = w.hardware.all().find(h => h.pool === 'hb')!
    expect(hb.rdmaIndex).toBe(0)
    const ib = (h: typeof hb) => h.nics.filter(n => n.linkLayer === 'InfiniBand')
    expect(ib(hb).map(n => [n.name, n.gbps, n.deviceId])).toEqual([['mlx5_ib0', 200, '101c']])
    const [h0, h1] = w.hardware.all().filter(h => h.pool === 'h100')
    expect(h1.rdmaIndex).toBe(2)
    expect(ib(h0)).toHaveLength(0) // index 1: noInfiniband
    expect(ib(h1).every(n => n.gbps === 200 && n.deviceId === '101e')).toBe(true)
    const a100 = w.hardware.all().find(h => h.pool === 'a100')!
    expect(a100.rdmaIndex).toBe(3)
    expect(ib(a100).map(n => [n.gbps, n.deviceId])).toEqual([
      ...Array(3).fill([200, '101c']),
      [100, '101c'],
      ...Array(4).fill([200, '101c'])
    ])
    for (const h of w.hardware.all()) {
      const eth = h.nics.filter(n => n.linkLayer === 'Ethernet')
      expect(eth).toHaveLength(1)
      expect(eth[0]).toMatchObject({ vendor: '15b3', deviceId: '101a', driver: 'mlx5_core' })
    }
  })

  it('names MOFED DaemonSets with the FNV-32a kernel hash, safe-encoded', () => {
    const h = kernelHash('5.15.0-1079-azure')
    expect(h).toBe(safeEncode(String(fnv32a('5.15.0-1079-azure'))))
    expect(h).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{9,10}$/)
    expect(kernelHash('6.8.0-1021-azure')).not.toBe(h)
    expect(fnv32a('')).toBe(0x811c9dc5)
    expect(fnv32a('a')).toBe(0xe40c292c)
  })
})

describe('DaemonSet controller', () => {
  it('places pods by nodeSelector, node affinity and tolerations, with owner refs and status', async () => {
    w = makeWorld()
    w.cluster.addPool(gpuPool('gpu', 2, { taints: ['sku=gpu:NoSchedule'] }))
    w.cluster.addPool(systemPool(2))
    w.create(ds('everywhere', {}, { tolerations: [{ operator: 'Exists' }] }))
    w.create(ds('untolerated'))
    w.create(
      ds(
        'gpu-only',
        {},
        {
          nodeSelector: { 'kubernetes.azure.com/agentpool': 'gpu' },
          tolerations: [{ key: 'sku', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }]
        }
      )
    )
    w.create(
      ds(
        'affinity',
        {},
        {
          tolerations: [{ operator: 'Exists' }],
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [
                  {
                    matchExpressions: [{ key: 'kubernetes.azure.com/accelerator', operator: 'DoesNotExist' }]
                  }
                ]
              }
            }
          }
        }
      )
    )
    const pods = (app: string) => w.list('pods', { namespace: 'kube-system', labelSelector: `app=${app}` })
    await w.waitFor('pods ready', () =>
      ['everywhere', 'untolerated', 'gpu-only', 'affinity'].every(
        a => pods(a).length && pods(a).every(isReady)
      )
    )
    expect(pods('everywhere')).toHaveLength(4)
    const onlyOn = (app: string, pool: string) => pods(app).every(p => p.spec.nodeName.includes(`-${pool}-`))
    expect(onlyOn('untolerated', 'system')).toBe(true)
    expect(pods('untolerated')).toHaveLength(2)
    expect(onlyOn('gpu-only', 'gpu')).toBe(true)
    expect(onlyOn('affinity', 'system')).toBe(true)
    const p = pods('everywhere')[0]
    expect(p.metadata.name).toMatch(/^everywhere-[bcdfghjklmnpqrstvwxz2456789]{5}$/)
    expect(p.metadata.ownerReferences![0]).toMatchObject({
      kind: 'DaemonSet',
      name: 'everywhere',
      controller: true
    })
    expect(p.metadata.labels!['controller-revision-hash']).toBeTruthy()
    await w.waitFor(
      'ds status',
      () => w.get('daemonsets', 'kube-system', 'everywhere', 'apps')?.status?.numberReady === 4
    )
    expect(w.get('daemonsets', 'kube-system', 'everywhere', 'apps')!.status).toMatchObject({
      desiredNumberScheduled: 4,
      currentNumberScheduled: 4,
      numberReady: 4,
      numberAvailable: 4,
      updatedNumberScheduled: 4,
      numberMisscheduled: 0,
      observedGeneration: 1
    })
  })

  it('removes pods from nodes that stop matching and adds them where they start to', async () => {
    w = systemNodesWorld(3)
    w.create(ds('labelled', {}, { nodeSelector: { role: 'x' } }))
    const nodes = w.list('nodes').map(n => n.metadata.name)
    const label = (n: string, v?: string) =>
      w.store.mutate(w.t('nodes'), undefined, n, o => {
        if (v) o.metadata.labels!.role = v
        else delete o.metadata.labels!.role
      })
    label(nodes[0], 'x')
    label(nodes[1], 'x')
    const pods = () => w.list('pods', { namespace: 'kube-system' })
    await w.waitFor('2 pods', () => pods().length === 2)
    label(nodes[0])
    label(nodes[2], 'x')
    await w.waitFor('moved', () => pods().length === 2 && pods().every(p => p.spec.nodeName !== nodes[0]))
    expect(
      pods()
        .map(p => p.spec.nodeName)
        .sort()
    ).toEqual([nodes[1], nodes[2]].sort())
  })

  it('rolls pods on template change with RollingUpdate and leaves them with OnDelete', async () => {
    w = systemNodesWorld(3)
    w.create(ds('rolling'))
    w.create(ds('ondelete', { updateStrategy: { type: 'OnDelete' } }))
    const pods = (app: string) => w.list('pods', { namespace: 'kube-system', labelSelector: `app=${app}` })
    await w.waitFor(
      'ready',
      () => pods('rolling').filter(isReady).length === 3 && pods('ondelete').filter(isReady).length === 3
    )
    const before = new Set([...pods('rolling'), ...pods('ondelete')].map(p => p.metadata.name))
    for (const name of ['rolling', 'ondelete']) {
      w.store.mutate(w.t('daemonsets', 'apps'), 'kube-system', name, o => {
        o.spec.template.metadata.annotations = { 'kubectl.kubernetes.io/restartedAt': '2026-01-01T00:00:00Z' }
      })
    }
    await w.waitFor('rolled', () => {
      const s = w.get('daemonsets', 'kube-system', 'rolling', 'apps')!.status
      return (
        s.updatedNumberScheduled === 3 &&
        s.numberReady === 3 &&
        pods('rolling').every(p => !before.has(p.metadata.name))
      )
    })
    expect(pods('ondelete').every(p => before.has(p.metadata.name))).toBe(true)
    const st = w.get('daemonsets', 'kube-system', 'ondelete', 'apps')!.status
    expect(st.updatedNumberScheduled).toBe(0)
    expect(st.observedGeneration).toBe(2)
    // OnDelete: a deleted pod comes back with the new template.
    const victim = pods('ondelete')[0]
    w.store.delete(w.t('pods'), 'kube-system', victim.metadata.name)
    await w.waitFor(
      'replaced',
      () => w.get('daemonsets', 'kube-system', 'ondelete', 'apps')!.status.updatedNumberScheduled === 1
    )
  })

  it('deleting a DaemonSet garbage-collects its pods', async () => {
    w = systemNodesWorld(2)
    w.create(ds('gone'))
    await w.waitFor('pods', () => w.list('pods').length === 2)
    w.store.delete(w.t('daemonsets', 'apps'), 'kube-system', 'gone')
    await w.waitFor('gc', () => w.list('pods').length === 0)
  })
})

describe('Deployment, Job and scheduling', () => {
  it('runs a Deployment through a ReplicaSet and reports Available', async () => {
    w = systemNodesWorld(2)
    w.create({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default', generation: 1 },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] }
        }
      }
    })
    await w.waitFor(
      'available',
      () => w.get('deployments', 'default', 'web', 'apps')?.status?.availableReplicas === 3
    )
    const d = w.get('deployments', 'default', 'web', 'apps')!
    expect(d.status).toMatchObject({
      replicas: 3,
      readyReplicas: 3,
      updatedReplicas: 3,
      observedGeneration: 1
    })
    expect(d.status.conditions.find((c: any) => c.type === 'Available').status).toBe('True')
    const rs = w.list('replicasets', { namespace: 'default' }, 'apps')
    expect(rs).toHaveLength(1)
    expect(
      w
        .list('pods', { namespace: 'default' })
        .every(p => p.metadata.labels!['pod-template-hash'] === rs[0].metadata.labels!['pod-template-hash'])
    ).toBe(true)
  })

  it('runs a Job to completion', async () => {
    w = systemNodesWorld(1)
    w.create({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'once', namespace: 'default' },
      spec: {
        template: {
          spec: {
            restartPolicy: 'Never',
            containers: [
              { name: 'c', image: 'busybox', command: ['sh', '-c', 'echo hello; sleep 3; echo done'] }
            ]
          }
        }
      }
    })
    await w.waitFor('complete', () =>
      (w.get('jobs', 'default', 'once', 'batch')?.status?.conditions ?? []).some(
        (c: any) => c.type === 'Complete'
      )
    )
    const pod = w.list('pods', { namespace: 'default', labelSelector: 'job-name=once' })[0]
    expect(pod.status.phase).toBe('Succeeded')
    expect(w.controllers.logs('default', pod.metadata.name)).toBe('hello\ndone\n')
  })

  it('leaves a pod Pending/Unschedulable with the scheduler message when no node has the resource', async () => {
    w = makeWorld()
    w.cluster.addPool(gpuPool('gpu', 2))
    w.create(
      pod('wants-rdma', {
        containers: [{ name: 'c', image: 'x', resources: { limits: { 'rdma/hca_shared_devices_a': '1' } } }]
      })
    )
    const pending = await w.waitFor('unschedulable', () => {
      const p = w.get('pods', 'default', 'wants-rdma')
      return p?.status?.conditions?.[0]?.reason === 'Unschedulable' ? p : undefined
    })
    expect(pending.status.conditions[0].message).toBe(
      '0/2 nodes are available: 2 Insufficient rdma/hca_shared_devices_a. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.'
    )
    expect(
      w
        .list('events', { namespace: 'default' })
        .some(e => e.reason === 'FailedScheduling' && e.involvedObject.name === 'wants-rdma')
    ).toBe(true)
  })
})

describe('kubelet pod lifecycle', () => {
  it('takes a pod through init containers to Ready with real-shaped status and events', async () => {
    w = systemNodesWorld(1)
    const node = w.list('nodes')[0].metadata.name
    w.create(
      pod(
        'p',
        {
          initContainers: [{ name: 'init', image: 'busybox:1.36', command: ['sh', '-c', 'echo init-ran'] }],
          containers: [{ name: 'app', image: 'nginx:1.27' }]
        },
        node
      )
    )
    const seen = new Set<string>()
    w.store.onChange(e => {
      if (e.object.kind === 'Pod' && e.object.status?.phase) seen.add(e.object.status.phase)
    })
    const p = await w.waitFor('ready', () => {
      const x = w.get('pods', 'default', 'p')
      return x && isReady(x) ? x : undefined
    })
    expect(seen.has('Pending')).toBe(true)
    expect(p.status.phase).toBe('Running')
    expect(p.status.conditions.map((c: any) => c.type)).toEqual(
      expect.arrayContaining(['PodScheduled', 'Initialized', 'ContainersReady', 'Ready'])
    )
    expect(p.status.initContainerStatuses[0].state.terminated).toMatchObject({
      exitCode: 0,
      reason: 'Completed'
    })
    expect(p.status.containerStatuses[0]).toMatchObject({
      name: 'app',
      ready: true,
      restartCount: 0,
      started: true
    })
    expect(p.status.containerStatuses[0].state.running.startedAt).toBeTruthy()
    expect(p.status.podIP).toMatch(/^10\.244\./)
    expect(p.status.hostIP).toMatch(/^10\.224\./)
    expect(w.controllers.logs('default', 'p', 'init')).toBe('init-ran\n')
    const reasons = w
      .list('events', { namespace: 'default' })
      .filter(e => e.involvedObject.name === 'p')
      .map(e => e.reason)
    expect(reasons).toEqual(expect.arrayContaining(['Scheduled', 'Pulling', 'Pulled', 'Created', 'Started']))
  })

  it('CrashLoopBackOff fault: restarts grow, waiting reason, back-off event and logs that say why', async () => {
    w = systemNodesWorld(1, {
      kube: { timeScale: 0.001, faults: [{ pod: 'crashy', kind: 'CrashLoopBackOff' }] }
    })
    w.create(pod('crashy-1', { containers: [{ name: 'app', image: 'app:1' }] }))
    const p = await w.waitFor('restarts', () => {
      const x = w.get('pods', 'default', 'crashy-1')
      const cs = x?.status?.containerStatuses?.[0]
      return cs && cs.restartCount >= 2 && cs.state.waiting?.reason === 'CrashLoopBackOff' ? x : undefined
    })
    const cs = p.status.containerStatuses[0]
    expect(cs.ready).toBe(false)
    expect(cs.lastState.terminated.exitCode).toBe(1)
    expect(cs.state.waiting.message).toMatch(
      /^back-off \d+s restarting failed container=app pod=crashy-1_default/
    )
    const ev = w.list('events', { namespace: 'default' }).find(e => e.reason === 'BackOff')!
    expect(ev.type).toBe('Warning')
    expect(ev.message).toMatch(/^Back-off restarting failed container app in pod crashy-1_default/)
    expect(ev.count).toBeGreaterThanOrEqual(2)
    expect(w.controllers.logs('default', 'crashy-1', 'app', { previous: true })).toMatch(
      /CrashLoopBackOff for pods named "crashy\*"/
    )
  })

  it('ImagePullBackOff fault: ErrImagePull then ImagePullBackOff with the pull failure event', async () => {
    w = systemNodesWorld(1, {
      kube: { timeScale: 0.001, faults: [{ pod: 'pull', kind: 'ImagePullBackOff' }] }
    })
    w.create(pod('pull-me', { containers: [{ name: 'app', image: 'ghcr.io/acme/missing:v9' }] }))
    const reasons = new Set<string>()
    w.store.onChange(e => {
      const r = e.object.status?.containerStatuses?.[0]?.state?.waiting?.reason
      if (e.object.kind === 'Pod' && r) reasons.add(r)
    })
    await w.waitFor(
      'backoff',
      () =>
        w.get('pods', 'default', 'pull-me')?.status?.containerStatuses?.[0]?.state?.waiting?.reason ===
        'ImagePullBackOff'
    )
    expect(reasons.has('ErrImagePull')).toBe(true)
    const evs = w.list('events', { namespace: 'default' }).map(e => e.message)
    expect(evs.some(m => m.startsWith('Failed to pull image "ghcr.io/acme/missing:v9"'))).toBe(true)
    expect(evs).toContain('Error: ImagePullBackOff')
    expect(w.get('pods', 'default', 'pull-me')!.status.phase).toBe('Pending')
  })

  it('NeverReady fault: running but never Ready, with readiness probe failures', async () => {
    w = systemNodesWorld(1, { kube: { timeScale: 0.001, faults: [{ pod: 'slow', kind: 'NeverReady' }] } })
    w.create(
      pod('slow-1', {
        containers: [
          { name: 'app', image: 'app:1', readinessProbe: { httpGet: { path: '/healthz', port: 8080 } } }
        ]
      })
    )
    const ev = await w.waitFor('unhealthy', () =>
      w.list('events', { namespace: 'default' }).find(e => e.reason === 'Unhealthy')
    )
    expect(ev.message).toMatch(
      /^Readiness probe failed: Get "http:\/\/10\.244\.[\d.]+:8080\/healthz": dial tcp .* connect: connection refused$/
    )
    const p = w.get('pods', 'default', 'slow-1')!
    expect(p.status.phase).toBe('Running')
    expect(isReady(p)).toBe(false)
    expect(p.status.containerStatuses[0].state.running).toBeTruthy()
  })
})

describe('startKubeSim', () => {
  it('serves the simulated cluster over HTTPS, with pod logs from the kubelet', async () => {
    const { startKubeSim } = await import('../../../sim/kube/index.js')
    const { SimClock, SimRecorder } = await import('../../../sim/contracts.js')
    const { loadScenario } = await import('../../../sim/scenario.js')
    const https = await import('node:https')
    const tls = createWorldTls()
    const scenario = loadScenario(undefined, { kube: { timeScale: 0.001 } })
    const sim = await startKubeSim({ scenario, clock: new SimClock(0.001), recorder: new SimRecorder(), tls })
    try {
      sim.addPool(systemPool(2))
      const get = (p: string) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const req = https.request(
            `${sim.url}${p}`,
            { ca: tls.caPem, headers: { Authorization: `Bearer ${sim.adminToken}` } },
            res => {
              let body = ''
              res.on('data', c => (body += c))
              res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
            }
          )
          req.on('error', reject)
          req.end()
        })
      const nodes = JSON.parse((await get('/api/v1/nodes')).body)
      expect(nodes.items).toHaveLength(2)
      sim.store.create(sim.store.type('', 'pods')!, {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'hello', namespace: 'default' },
        spec: {
          restartPolicy: 'Never',
          containers: [{ name: 'c', image: 'busybox', command: ['sh', '-c', 'echo hi from the sim'] }]
        }
      })
      const start = Date.now()
      while (sim.store.get(sim.store.type('', 'pods')!, 'default', 'hello').status?.phase !== 'Succeeded') {
        if (Date.now() - start > 10_000) throw new Error('pod did not finish')
        await new Promise(r => setTimeout(r, 10))
      }
      const log = await get('/api/v1/namespaces/default/pods/hello/log')
      expect(log.status).toBe(200)
      expect(log.body).toBe('hi from the sim\n')
      expect(Object.keys(sim.kubeletRestarts())).toHaveLength(2)
      expect(parse(sim.kubeconfig('user')).clusters[0].cluster.server).toBe(sim.url)
    } finally {
      await sim.close()
    }
  })
})
