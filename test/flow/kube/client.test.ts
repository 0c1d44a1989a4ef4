// KubeClient and the Lease against the simulated API server (no controllers): server-side apply
// with `changed`, the GET-only convergence check (no mutating request when converged), conflicts
// naming the other field manager, deletes guarded by uid, an object's events, container logs,
// retries of injected 500s, pagination, watches that survive disconnects, and two runs serialised
// by the Lease.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { SimClock, SimRecorder } from '../../../sim/contracts.js'
import type { FaultSpec } from '../../../sim/scenario.js'
import { createWorldTls, type WorldTls } from '../../../sim/tls.js'
import { startApiServer, type ApiServer } from '../../../sim/kube/apiserver/index.js'
import type { LogProvider } from '../../../sim/kube/apiserver/handlers.js'
import { registerBuiltins } from '../../../sim/kube/resources.js'
import { ObjectStore } from '../../../sim/kube/store.js'
import { KubeClient } from '../../../src/kube/client.js'
import { ApplyConflictError, isKindNotServed, KubeRequestError } from '../../../src/kube/errors.js'
import { watchUntil } from '../../../src/kube/watch.js'
import type { KubeObject } from '../../../src/kube/types.js'
import { acquireLease, releaseLease, LEASE_NAME } from '../../../src/stack/lease.js'
import { lineLog } from '../../../src/log/index.js'
import { withWorld, worldForTests } from '../../support/world-scope.js'

const TOKEN = 'kube-client-test-token'
let tls: WorldTls

interface World {
  store: ObjectStore
  server: ApiServer
  recorder: SimRecorder
  kubeconfigPath: string
  client(retries?: number): KubeClient
  close(): Promise<void>
}

async function startWorld(faults: FaultSpec[] = [], timeScale = 0.001, logs?: LogProvider): Promise<World> {
  tls ??= createWorldTls()
  const store = new ObjectStore()
  registerBuiltins(store)
  const recorder = new SimRecorder()
  const server = await startApiServer({
    store,
    tls,
    recorder,
    clock: new SimClock(timeScale),
    tokens: new Set([TOKEN]),
    faults,
    logs
  })
  const dir = mkdtempSync(path.join(tmpdir(), 'kube-client-'))
  const kubeconfigPath = path.join(dir, 'kubeconfig')
  const b64 = (s: string): string => Buffer.from(s).toString('base64')
  writeFileSync(
    kubeconfigPath,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      '- name: sim',
      '  cluster:',
      `    server: ${server.url}`,
      `    certificate-authority-data: ${b64(tls.caPem)}`,
      'users:',
      '- name: u',
      '  user:',
      `    token: ${TOKEN}`,
      'contexts:',
      '- name: sim',
      '  context: {cluster: sim, user: u}',
      'current-context: sim',
      ''
    ].join('\n'),
    { mode: 0o600 }
  )
  return {
    store,
    server,
    recorder,
    kubeconfigPath,
    client: (retries = 3) => KubeClient.fromFile(kubeconfigPath, { retries, backoffBaseMs: 5 }),
    close: () => server.close()
  }
}

const configMap = (data: Record<string, string>, name = 'rdma-devices'): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'kube-system', labels: { 'aks-rdma-action/managed': 'true' } },
  data
})

const daemonSet = (image: string): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name: 'ib-node-config', namespace: 'kube-system', labels: { app: 'ib-node-config' } },
  spec: {
    selector: { matchLabels: { app: 'ib-node-config' } },
    updateStrategy: { type: 'OnDelete' },
    template: {
      metadata: { labels: { app: 'ib-node-config' } },
      spec: {
        hostPID: true,
        nodeSelector: { 'kubernetes.azure.com/agentpool': 'rdma' },
        tolerations: [{ operator: 'Exists' }],
        initContainers: [
          { name: 'ib-setup', image, securityContext: { privileged: true }, command: ['sh', '-c', 'echo ok'] }
        ],
        containers: [{ name: 'keepalive', image, command: ['sh', '-c', 'sleep infinity'] }]
      }
    }
  }
})

describe('server-side apply', () => {
  const w = worldForTests(() => startWorld())

  it('creates, then reports unchanged; a converged object costs only GETs', async () => {
    const c = w.client()
    const first = await c.applyManifest(daemonSet('busybox:1.36'))
    expect(first).toMatchObject({ created: true, changed: true })
    expect(first.object.metadata.resourceVersion).toBeDefined()

    w.recorder.reset()
    const need = await c.needsApply(daemonSet('busybox:1.36'))
    expect(need.converged).toBe(true)
    expect(need.confirmedByDryRun).toBe(false)
    expect(w.recorder.counts().kube.mutating).toBe(0)
    expect(w.recorder.records.every(r => r.method === 'GET')).toBe(true)

    const again = await c.applyManifest(daemonSet('busybox:1.36'))
    expect(again).toMatchObject({ created: false, changed: false })
  })

  it('sees a changed input and applies exactly that', async () => {
    const c = w.client()
    const need = await c.needsApply(daemonSet('busybox:1.37'))
    expect(need.converged).toBe(false)
    expect(need.reason).toContain('image')
    const res = await c.applyManifest(daemonSet('busybox:1.37'))
    expect(res.changed).toBe(true)
    expect(res.object.spec.template.spec.containers[0].image).toBe('busybox:1.37')
  })

  it('dry-run applies without writing', async () => {
    const c = w.client()
    const before = w.store.list(w.store.type('apps', 'daemonsets')!, { namespace: 'kube-system' }).items[0]
      .metadata.resourceVersion
    w.recorder.reset()
    const dry = await c.dryRunApply(daemonSet('busybox:9'))
    expect(dry.wouldChange).toBe(true)
    expect(dry.object.spec.template.spec.containers[0].image).toBe('busybox:9')
    expect(w.recorder.counts().kube.mutating).toBe(0)
    const after = w.store.list(w.store.type('apps', 'daemonsets')!, { namespace: 'kube-system' }).items[0]
      .metadata.resourceVersion
    expect(after).toBe(before)
  })

  it('fails a conflict with another field manager naming it and the field; force takes ownership', async () => {
    const c = w.client()
    await c.applyManifest(configMap({ 'config.json': '{"a":1}' }))
    const other = KubeClient.fromFile(w.kubeconfigPath, { retries: 0, fieldManager: 'kubectl-edit' })
    await other.applyManifest(configMap({ 'config.json': '{"a":2}' }), { force: true })

    const need = await c.needsApply(configMap({ 'config.json': '{"a":1}' }))
    expect(need.converged).toBe(false)
    expect(need.conflict?.conflicts).toEqual([{ manager: 'kubectl-edit', field: '.data.config.json' }])
    const err = await c.applyManifest(configMap({ 'config.json': '{"a":1}' })).catch(e => e)
    expect(err).toBeInstanceOf(ApplyConflictError)
    expect(err.conflicts).toEqual([{ manager: 'kubectl-edit', field: '.data.config.json' }])
    expect(err.message).toContain('"kubectl-edit"')
    expect(err.message).toContain('force-conflicts: true')

    const forced = await c.applyManifest(configMap({ 'config.json': '{"a":1}' }), { force: true })
    expect(forced.changed).toBe(true)
    expect(forced.object.data['config.json']).toBe('{"a":1}')
  })

  it('lists page by page', async () => {
    const c = w.client()
    for (let i = 0; i < 12; i++)
      await c.applyManifest(configMap({ i: String(i) }, `page-${String(i).padStart(2, '0')}`))
    w.recorder.reset()
    const all = await c.list('v1', 'ConfigMap', {
      namespace: 'kube-system',
      labelSelector: 'aks-rdma-action/managed=true',
      limit: 5
    })
    expect(all.items.filter(i => i.metadata.name.startsWith('page-'))).toHaveLength(12)
    expect(all.items.every(i => i.kind === 'ConfigMap')).toBe(true)
    expect(w.recorder.records.filter(r => r.path.endsWith('/configmaps')).length).toBe(3)
  })
})

describe('deletes, events and logs', () => {
  const asked: Array<{ pod: string; container?: string; tailLines?: number; previous?: boolean }> = []
  const w = worldForTests(() =>
    startWorld([], 0.001, (_ns, pod, container, opts = {}) => {
      asked.push({ pod, container, tailLines: opts.tailLines, previous: opts.previous })
      return pod === 'talker' ? (opts.previous ? 'before the restart\n' : 'line 1\nline 2\n') : undefined
    })
  )

  const ref = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'kube-system', name })

  it('deletes an object only while it is the one read (its uid), and says when it was gone', async () => {
    const c = w.client()
    await c.applyManifest(configMap({ a: '1' }, 'to-delete'))
    const live = await c.get(ref('to-delete'))
    await expect(c.deleteObject(ref('to-delete'), 'another-uid')).rejects.toThrow(
      /^delete configmap\/to-delete -n kube-system: HTTP 409: .*Precondition failed: UID in precondition: another-uid/
    )
    expect(await c.get(ref('to-delete'))).toBeDefined()
    expect(await c.deleteObject(ref('to-delete'), live!.metadata.uid)).toBe(true)
    expect(await c.get(ref('to-delete'))).toBeUndefined()
    expect(await c.deleteObject(ref('to-delete'))).toBe(false)
  })

  it('reads the events of one object (and kind), oldest first', async () => {
    const c = w.client()
    const event = (name: string, involved: { kind: string; name: string }, at: string): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace: 'default' },
      involvedObject: { ...involved, namespace: 'default' },
      reason: 'Test',
      message: name,
      lastTimestamp: at,
      type: 'Normal'
    })
    await c.applyManifest(event('late', { kind: 'Pod', name: 'p1' }, '2026-12-02T10:00:02Z'))
    await c.applyManifest(event('early', { kind: 'Pod', name: 'p1' }, '2026-12-02T10:00:01Z'))
    await c.applyManifest(event('other-kind', { kind: 'Job', name: 'p1' }, '2026-12-02T10:00:00Z'))
    await c.applyManifest(event('other-name', { kind: 'Pod', name: 'p2' }, '2026-12-02T10:00:00Z'))
    expect((await c.eventsFor('default', 'p1', 'Pod')).map(e => e.metadata.name)).toEqual(['early', 'late'])
    expect((await c.eventsFor('default', 'p1')).map(e => e.metadata.name)).toEqual([
      'other-kind',
      'early',
      'late'
    ])
    expect(await c.eventsFor('default', 'nobody')).toEqual([])
  })

  it('reads a container’s log tail (the last 50 lines unless told), and nothing for a pod without one', async () => {
    const c = w.client()
    const pod = (name: string): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'default' },
      spec: { containers: [{ name: 'main', image: 'busybox' }] }
    })
    await c.applyManifest(pod('talker'))
    await c.applyManifest(pod('silent'))
    expect(await c.podLog('default', 'talker')).toBe('line 1\nline 2\n')
    expect(asked.at(-1)).toEqual({ pod: 'talker', container: 'main', tailLines: 50, previous: undefined })
    expect(await c.podLog('default', 'talker', { container: 'main', tailLines: 5, previous: true })).toBe(
      'before the restart\n'
    )
    expect(asked.at(-1)).toEqual({ pod: 'talker', container: 'main', tailLines: 5, previous: true })
    // A container that has not started (400) and a pod that is gone (404): no log, no failure.
    expect(await c.podLog('default', 'silent')).toBe('')
    expect(await c.podLog('default', 'gone')).toBe('')
    await expect(c.podLog('default', 'talker', { container: 'nope' })).resolves.toBe('')
  })
})

describe('a kind the server does not serve', () => {
  const w = worldForTests(() => startWorld())

  it('reads of it fail as "not served" (the CRD is not installed), in a group that is served or not', async () => {
    const c = w.client()
    // apps/v1 is served, Widget is not: discovery has no resource for it.
    const served = { apiVersion: 'apps/v1', kind: 'Widget', name: 'w', namespace: 'default' }
    const getErr = await c.get(served).catch(e => e)
    expect(getErr).toBeInstanceOf(KubeRequestError)
    expect(getErr.message).toMatch(/does not serve Widget in apps\/v1/)
    expect(isKindNotServed(getErr)).toBe(true)
    const listErr = await c.list('apps/v1', 'Widget', { namespace: 'default' }).catch(e => e)
    expect(listErr).toBeInstanceOf(KubeRequestError)
    expect(isKindNotServed(listErr)).toBe(true)
    // A group the server does not serve at all: the object is simply absent, a list is a 404.
    expect(await c.get({ apiVersion: 'nvidia.com/v1', kind: 'ClusterPolicy', name: 'cluster-policy' })).toBe(
      undefined
    )
    const noGroup = await c.list('nvidia.com/v1', 'ClusterPolicy', {}).catch(e => e)
    expect(isKindNotServed(noGroup)).toBe(true)
    // Anything else is not "not served".
    expect(isKindNotServed(new KubeRequestError('get x', 500, 'boom'))).toBe(false)
    expect(isKindNotServed(new KubeRequestError('get x', undefined, 'socket hang up'))).toBe(false)
  })
})

describe('paginated lists and watches', () => {
  const w = worldForTests(() => startWorld())

  it("every page carries the first page's resourceVersion: a watch from it sees what changed between pages", async () => {
    const c = w.client()
    for (const n of ['pg-b0', 'pg-b1', 'pg-b2', 'pg-b3']) await c.applyManifest(configMap({ n }, n))
    const opts = { namespace: 'kube-system', labelSelector: 'aks-rdma-action/managed=true', limit: 2 }
    const first = await c.listPage('v1', 'ConfigMap', opts)
    // Created while the pages are read, sorted before the continue key: no later page holds it.
    await c.applyManifest(configMap({ n: 'new' }, 'pg-a-new'))
    const second = await c.listPage('v1', 'ConfigMap', opts, first.continue)
    expect(second.resourceVersion).toBe(first.resourceVersion)
    const names = [...first.items, ...second.items].map(i => i.metadata.name)
    expect(names).not.toContain('pg-a-new')
    // A watch from that version replays the create (list() hands its watch the same version).
    const added: string[] = []
    let handle: { stop(): void } | undefined
    await new Promise<void>((resolve, reject) => {
      void c
        .watchSource('v1', 'ConfigMap', opts)
        .watch(
          first.resourceVersion,
          ev => {
            if (ev.type === 'ADDED') added.push(ev.object.metadata.name)
            if (added.includes('pg-a-new')) resolve()
          },
          err => (err ? reject(err) : resolve())
        )
        .then(h => (handle = h), reject)
    })
    handle?.stop()
    expect(added).toContain('pg-a-new')
  })
})

describe('transient failures', () => {
  it('retries injected 500s on PATCH and succeeds', () =>
    withWorld(startWorld([{ api: 'PATCH *', status: 500, times: 2 }]), async w => {
      const res = await w.client(3).applyManifest(configMap({ x: '1' }))
      expect(res.created).toBe(true)
      const patches = w.recorder.records.filter(r => r.method === 'PATCH')
      expect(patches.map(p => p.status)).toEqual([500, 500, 201])
    }))
  it('gives up after the retries, and never retries a 4xx', () =>
    withWorld(startWorld([{ api: 'PATCH *', status: 503, times: 2 }]), async w => {
      await expect(w.client(1).applyManifest(configMap({ x: '1' }))).rejects.toThrow(/HTTP 503/)
      expect(w.recorder.records.filter(r => r.method === 'PATCH')).toHaveLength(2)
      w.recorder.reset()
      const bad = { ...configMap({}), metadata: { name: 'bad_name!', namespace: 'kube-system' } }
      await expect(w.client(3).applyManifest(bad)).rejects.toThrow(/HTTP 4\d\d/)
      expect(w.recorder.records.filter(r => r.method === 'PATCH')).toHaveLength(1)
    }))
})

describe('watch through the API server', () => {
  it('survives disconnects every 20s (simulated) and sees every change', () =>
    withWorld(startWorld([{ watch: 'disconnect', every: '20s' }], 0.001), async w => {
      const c = w.client()
      const watches = () =>
        w.recorder.records.filter(
          r => r.method === 'GET' && r.path.endsWith('/configmaps') && r.resource === 'configmaps'
        ).length
      const source = c.watchSource('v1', 'ConfigMap', { namespace: 'kube-system', labelSelector: 'step=x' })
      const p = watchUntil(source, objs => ({ done: objs.length === 5, message: `${objs.length}/5` }), {
        timeoutMs: 120_000
      })
      for (let i = 0; i < 5; i++) {
        // Each change comes after the watch was cut and re-established (a new watch request).
        const before = watches()
        while (watches() <= before) await new Promise(r => setTimeout(r, 5))
        await c.applyManifest({
          ...configMap({ i: String(i) }, `w-${i}`),
          metadata: { name: `w-${i}`, namespace: 'kube-system', labels: { step: 'x' } }
        })
      }
      const out = await p
      expect(out.objects.map(o => o.metadata.name).sort()).toEqual(['w-0', 'w-1', 'w-2', 'w-3', 'w-4'])
    }))
})

describe('Lease', () => {
  it('serialises two holders: the second waits, saying who holds it, and takes it when released', () =>
    withWorld(startWorld(), async w => {
      const a = await acquireLease(w.client(), { holder: 'run-a', timeoutMs: 10_000 })
      const lines: string[] = []
      let bHas = false
      const bPromise = acquireLease(w.client(), {
        holder: 'run-b',
        timeoutMs: 10_000,
        log: lineLog(l => lines.push(l))
      }).then(h => {
        bHas = true
        return h
      })
      // b says who holds the Lease and keeps waiting while a holds it
      while (!lines.join('\n').includes('held by run run-a')) await new Promise(r => setTimeout(r, 10))
      expect(bHas).toBe(false)
      await a.release()
      const b = await bPromise
      expect(b.waitedMs).toBeGreaterThan(0)
      const lease = w.store.get(w.store.type('coordination.k8s.io', 'leases')!, 'kube-system', LEASE_NAME)
      expect(lease.spec.holderIdentity).toBe('run-b')
      // the post step's release only removes its own lease
      expect(await releaseLease(w.kubeconfigPath, 'run-a')).toBe(false)
      expect(await releaseLease(w.kubeconfigPath, 'run-b')).toBe(true)
      await b.release()
    }))

  it('renews the lease while held', () =>
    withWorld(startWorld(), async w => {
      const h = await acquireLease(w.client(), {
        holder: 'renewer',
        timeoutMs: 60_000,
        leaseDurationSeconds: 3
      })
      const leases = w.store.type('coordination.k8s.io', 'leases')!
      const first = w.store.get(leases, 'kube-system', LEASE_NAME).spec.renewTime
      // the renewal timer writes a later renewTime (waited for, not timed)
      while (w.store.get(leases, 'kube-system', LEASE_NAME).spec.renewTime === first)
        await new Promise(r => setTimeout(r, 20))
      const later = w.store.get(leases, 'kube-system', LEASE_NAME)
      expect(Date.parse(later.spec.renewTime)).toBeGreaterThan(Date.parse(first))
      expect(later.spec.holderIdentity).toBe('renewer')
      expect(h.held()).toBe(true)
      await h.release()
      expect(w.store.tryGet(leases, 'kube-system', LEASE_NAME)).toBeUndefined()
    }))

  it('takes over an expired lease, and times out on a live one', () =>
    withWorld(startWorld(), async w => {
      // a run that crashed holding the lease: last renewed 2 s ago (by its clock), 1 s duration;
      // this run takes it once it has itself seen the record unchanged for the 1 s
      const ago = (ms: number): string => new Date(Date.now() - ms).toISOString().replace('Z', '000Z')
      w.store.create(w.store.type('coordination.k8s.io', 'leases')!, {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name: LEASE_NAME, namespace: 'kube-system' },
        spec: {
          holderIdentity: 'crashed',
          leaseDurationSeconds: 1,
          acquireTime: ago(60_000),
          renewTime: ago(2000),
          leaseTransitions: 0
        }
      })
      const live = await acquireLease(w.client(), { holder: 'alive', timeoutMs: 60_000 })
      const taken = w.store.get(w.store.type('coordination.k8s.io', 'leases')!, 'kube-system', LEASE_NAME)
      expect(taken.spec).toMatchObject({ holderIdentity: 'alive', leaseTransitions: 1 })
      const err = await acquireLease(w.client(), { holder: 'impatient', timeoutMs: 200 }).catch(e => e)
      expect(err.message).toContain('held by run alive')
      await live.release()
      const taker = await acquireLease(w.client(), { holder: 'next', timeoutMs: 60_000 })
      const lease = w.store.get(w.store.type('coordination.k8s.io', 'leases')!, 'kube-system', LEASE_NAME)
      expect(lease.spec.holderIdentity).toBe('next')
      await taker.release()
    }))
})
