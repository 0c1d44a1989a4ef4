// The simulated kubelet where its rules come from upstream (sim/README.md, "Upstream sources"):
// the CrashLoopBackOff schedule of kubernetes/kubernetes, an image's platforms against the node's
// CPU (containerd's pull, runc's exec), hostPath mount propagation against what the DOCA driver
// container publishes, and ib-node-config's restarts bounded to one per boot when a later systemd
// drop-in keeps memlock limited.
import { ibNodeConfigDaemonSet, IB_SETUP, RESTART_MARKER } from '../../../src/components/ib-node-config.js'
import { BUSYBOX_IMAGE } from '../../../src/settings/images.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import { TK } from '../../../sim/kube/controllers/context.js'
import type { KubeObject } from '../../../sim/kube/store.js'
import {
  applyNfdRule,
  applyNicClusterPolicy,
  gpuPool,
  installNetworkOperator,
  isReady,
  makeWorld,
  pod,
  type World
} from '../../support/controllers-world.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'

let w: World

/** Every status the store receives for the pod's container, in order. */
function statusesOf(world: World, name: string, init = false): any[] {
  const seen: any[] = []
  world.controllers.ctx.cache.onEvent((e, tk) => {
    if (tk !== TK.pods || e.object.metadata.name !== name) return
    const st = (init ? e.object.status?.initContainerStatuses : e.object.status?.containerStatuses)?.[0]
    if (st) seen.push(structuredClone(st))
  })
  return seen
}

describe('CrashLoopBackOff as the kubelet does it', () => {
  it('the first exit restarts at once; then 10 s doubling to a 5 min cap', async () => {
    w = makeWorld()
    w.cluster.addPool(gpuPool('gpu', 1))
    const node = w.list('nodes')[0].metadata.name
    const seen = statusesOf(w, 'crasher')
    w.create(
      pod(
        'crasher',
        { containers: [{ name: 'c', image: BUSYBOX_IMAGE, command: ['sh', '-c', 'exit 3'] }] },
        node
      )
    )
    await w.waitFor('eight restarts', () => seen.some(s => s.restartCount >= 8), 120_000)
    const messages = seen
      .filter(s => s.state.waiting?.reason === 'CrashLoopBackOff')
      .map(s => `${s.restartCount} ${/^back-off (\S+) /.exec(s.state.waiting.message)?.[1]}`)
    expect([...new Set(messages)].slice(0, 7)).toEqual([
      '1 10s',
      '2 20s',
      '3 40s',
      '4 1m20s',
      '5 2m40s',
      '6 5m0s',
      '7 5m0s'
    ])
    // Restart 1 came without a back-off: the container went from its first exit straight to running.
    const first = seen.findIndex(s => s.restartCount === 1)
    expect(seen.slice(0, first).some(s => s.state.waiting?.reason === 'CrashLoopBackOff')).toBe(false)
    expect(seen[first].lastState.terminated).toMatchObject({ exitCode: 3, reason: 'Error' })
  })
})

describe("an image's platforms against the node's CPU", () => {
  const arm = () => {
    w.cluster.addPool(gpuPool('grace', 1, { vmSize: 'Standard_ND128isr_NDR_GB200_v6', osSku: 'Ubuntu2404' }))
    return w.list('nodes', { labelSelector: 'agentpool=grace' })[0]
  }

  it('GB200 nodes are arm64; a multi-platform image with arm64 runs there', async () => {
    w = makeWorld()
    const node = arm()
    expect(node.metadata.labels).toMatchObject({ 'kubernetes.io/arch': 'arm64' })
    w.create(
      pod(
        'ok',
        { containers: [{ name: 'c', image: BUSYBOX_IMAGE, command: ['sh', '-c', 'sleep infinity'] }] },
        node.metadata.name
      )
    )
    await w.waitFor('running', () => isReady(w.get('pods', 'default', 'ok')!))
  })

  it('a single amd64 manifest is pulled, then runc cannot exec it: exit 255, "exec format error", CrashLoopBackOff', async () => {
    w = makeWorld()
    const node = arm().metadata.name
    const seen = statusesOf(w, 'perf', true)
    const image = 'docker.io/mellanox/cuda-perftest:latest'
    w.create(
      pod(
        'perf',
        {
          initContainers: [{ name: 'probe', image, command: ['sh', '-c', 'ls /sys/class/infiniband'] }],
          containers: [{ name: 'hold', image, command: ['sh', '-c', 'sleep infinity'] }]
        },
        node
      )
    )
    await w.waitFor('back-off', () => seen.some(s => s.state.waiting?.reason === 'CrashLoopBackOff'))
    const last = seen.find(s => s.state.waiting?.reason === 'CrashLoopBackOff')!
    expect(last.lastState.terminated).toMatchObject({ exitCode: 255, reason: 'Error' })
    expect(w.controllers.logs('default', 'perf', 'probe', { previous: true }) ?? '').toContain(
      'exec /usr/bin/sh: exec format error'
    )
    const events = w.list('events', { namespace: 'default' }).map(e => e.reason)
    expect(events).toEqual(expect.arrayContaining(['Pulled', 'Created', 'Started', 'BackOff']))
  })

  it('an index without the node’s platform fails the pull: ErrImagePull, then ImagePullBackOff', async () => {
    w = makeWorld({
      kube: { images: [{ image: 'example.io/amd64-only', manifest: 'index', arches: ['amd64'] }] }
    })
    const node = arm().metadata.name
    const seen = statusesOf(w, 'idx')
    w.create(
      pod(
        'idx',
        { containers: [{ name: 'c', image: 'example.io/amd64-only:1.0', command: ['sh', '-c', 'true'] }] },
        node
      )
    )
    await w.waitFor('pull back-off', () => seen.some(s => s.state.waiting?.reason === 'ImagePullBackOff'))
    expect(seen.find(s => s.state.waiting?.reason === 'ErrImagePull')!.state.waiting.message).toBe(
      `failed to pull and unpack image "example.io/amd64-only:1.0": no match for platform in manifest sha256:${'0'.repeat(64)}: not found`
    )
    expect(seen.every(s => !s.state.running)).toBe(true)
  })
})

describe('hostPath mount propagation against what the DOCA driver container publishes', () => {
  const DIR = '/host/run/mellanox/drivers'
  const watcher = (name: string, node: string, propagation?: string): KubeObject =>
    pod(
      name,
      {
        containers: [
          {
            name: 'c',
            image: BUSYBOX_IMAGE,
            command: [
              'sh',
              '-c',
              `until [ -f ${DIR}/.driver-ready ]; do sleep 5; done; echo ready; ` +
                `if [ -f ${DIR}/usr/src/ofa_kernel/default/Module.symvers ]; then echo headers; else echo no headers; fi; sleep infinity`
            ],
            volumeMounts: [
              {
                name: 'd',
                mountPath: DIR,
                readOnly: true,
                ...(propagation ? { mountPropagation: propagation } : {})
              }
            ]
          }
        ],
        volumes: [{ name: 'd', hostPath: { path: '/run/mellanox/drivers', type: 'DirectoryOrCreate' } }]
      },
      node
    )

  it('the ready file is seen by every pod; the headers the driver mounts later only with HostToContainer', async () => {
    w = makeWorld()
    w.cluster.addPool(gpuPool('gpu', 1))
    const node = w.list('nodes')[0].metadata.name
    w.create(watcher('private', node))
    w.create(watcher('slave', node, 'HostToContainer'))
    installNetworkOperator(w)
    applyNfdRule(w)
    applyNicClusterPolicy(w)
    const log = (p: string) => w.controllers.logs('default', p, 'c') ?? ''
    await w.waitFor(
      'both saw the ready file',
      () => /headers/.test(log('private')) && /headers/.test(log('slave'))
    )
    expect(log('private')).toBe('ready\nno headers\n')
    expect(log('slave')).toBe('ready\nheaders\n')
    expect(w.hardware.get(node)!.mounts.map(m => m.path)).toEqual(['/run/mellanox/drivers/usr/src'])
    // A pod that starts after the mount gets it with its (recursive) bind mount, propagation or not.
    w.create(watcher('later', node))
    await w.waitFor('later', () => /headers/.test(log('later')))
    expect(log('later')).toBe('ready\nheaders\n')
  })
})

describe('ib-node-config on a node where a later drop-in keeps memlock limited', () => {
  it('restarts containerd and kubelet exactly once; every re-run fails with the reason and restarts nothing', async () => {
    w = makeWorld()
    w.cluster.addPool(gpuPool('gpu', 1))
    const node = w.list('nodes')[0].metadata.name
    w.hardware.update(node, h => {
      h.ofedReady = true
      h.files['/run/mellanox/drivers/.driver-ready'] = ''
      h.files['/etc/systemd/system/containerd.service.d/zz-limits.conf'] = '[Service]\nLimitMEMLOCK=65536\n'
    })
    const s = readSettings(reader({ ...VALID_APPLY, 'node-pool': 'gpu' }), {}).settings
    const seen: any[] = []
    w.controllers.ctx.cache.onEvent((e, tk) => {
      if (tk !== TK.pods || !e.object.metadata.name.startsWith('ib-node-config')) return
      const st = (e.object.status?.initContainerStatuses ?? []).find((c: any) => c.name === IB_SETUP)
      if (st) seen.push(structuredClone(st))
    })
    w.create(ibNodeConfigDaemonSet(s) as KubeObject)
    await w.waitFor('three runs of ib-setup', () => seen.some(st => st.restartCount >= 3), 120_000)
    expect(w.hardware.get(node)).toMatchObject({ containerdRestarts: 1, kubeletRestarts: 1 })
    expect(w.hardware.get(node)!.files[RESTART_MARKER]).toBe('')
    const podName = w.list('pods', { namespace: 'kube-system' })[0].metadata.name
    const previous = w.controllers.logs('kube-system', podName, IB_SETUP, { previous: true }) ?? ''
    expect(previous).toContain('not restarting them again')
    expect(previous).not.toContain('restarting containerd')
  })
})
