// Verification as a whole against a fake client over an in-memory cluster: the read-only checks
// over one read of the cluster, then (outside drift mode) the node probe over the nodes it can
// probe — a NotReady node or one without allocatable rdma/<name> is reported as not probed, never
// asked for — with the probe's limit and log passed on; drift mode reads only and skips the probe.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { afterEach, describe, expect, it, jest } from '@jest/globals'
import type { KubeClient } from '../../../src/kube/client.js'
import { httpStatusOf, KubeRequestError, messageOf } from '../../../src/kube/errors.js'
import type { KubeObject, KubeRef, ListOptions } from '../../../src/kube/types.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import type { Settings } from '../../../src/settings/settings.js'
import { runChecks, runVerification } from '../../../src/verify/index.js'
import { parseProbeOutput } from '../../../src/verify/probe-output.js'
import { pinToNode, probeName } from '../../../src/verify/probe.js'
import { readOnlyChecks } from '../../../src/verify/read-only-checks.js'
import { captureLog } from '../../support/capture-log.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'
import { apiError, MemoryCluster } from '../../support/memory-cluster.js'
import { probeMessage } from '../../support/probe-message.js'

const NS = 'aks-rdma-verify'
const settings = (mode = 'verify'): Settings =>
  readSettings(reader({ ...VALID_APPLY, mode }), { GITHUB_RUN_ID: '5' }, { nonce: 'n0' }).settings
const probeText = () =>
  probeMessage(
    readFileSync(
      resolve(process.cwd(), 'test/fixtures/ibstat', '07-ibstat-a100-8x-ib-hdr200-plus-1-eth-mt4126.txt'),
      'utf8'
    )
  )

interface Fake {
  kube: KubeClient
  cluster: MemoryCluster
  calls: string[]
}

/** A KubeClient over a MemoryCluster with the reads, the namespace, the DaemonSet and the pod watch. */
function fakeKube(): Fake {
  const cluster = new MemoryCluster()
  const calls: string[] = []
  const kube = {
    request: async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
      try {
        return await fn()
      } catch (e) {
        throw new KubeRequestError(what, httpStatusOf(e), messageOf(e), e)
      }
    },
    list: async (apiVersion: string, kind: string, opts: ListOptions = {}) => {
      calls.push(`list ${kind}`)
      return { items: cluster.all(apiVersion, kind, opts), resourceVersion: '1' }
    },
    get: async (ref: KubeRef) => {
      calls.push(`get ${ref.kind}/${ref.name}`)
      return cluster.get(ref.apiVersion, ref.kind, ref.name, ref.namespace)
    },
    applyManifest: async (m: KubeObject) => {
      calls.push(`apply ${m.kind}/${m.metadata.name}`)
      return { created: true, changed: true, object: cluster.put(m) }
    },
    watchSource: (apiVersion: string, kind: string, opts: ListOptions = {}) => {
      calls.push(`watch ${kind}`)
      return cluster.source(apiVersion, kind, opts)
    },
    apps: {
      createNamespacedDaemonSet: async ({ namespace, body }: { namespace: string; body: KubeObject }) => {
        calls.push(`create DaemonSet/${body.metadata.name}`)
        if (cluster.get('apps/v1', 'DaemonSet', body.metadata.name, namespace))
          throw apiError(409, 'AlreadyExists', 'exists')
        return cluster.put(body)
      },
      deleteNamespacedDaemonSet: async ({ name, namespace }: { name: string; namespace: string }) => {
        calls.push(`delete DaemonSet/${name}`)
        if (!cluster.remove('apps/v1', 'DaemonSet', name, namespace))
          throw apiError(404, 'NotFound', 'not found')
        return {}
      }
    }
  } as unknown as KubeClient
  return { kube, cluster, calls }
}

const node = (name: string, o: { ready?: boolean; rdma?: string } = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { 'kubernetes.azure.com/agentpool': 'rdmapool' } },
  status: {
    conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }],
    allocatable: { 'rdma/hca_shared_devices_a': o.rdma ?? '1', 'nvidia.com/gpu': '8' }
  }
})

async function watching(c: MemoryCluster): Promise<void> {
  for (let i = 0; i < 500 && c.openWatches === 0; i++) await new Promise(r => setImmediate(r))
  if (c.openWatches === 0) throw new Error('the probe never opened its watch')
}

/** The probe pod of `node`, finished with `message`, as the DaemonSet controller and kubelet leave it. */
function finishedPod(ds: KubeObject, node: string, message: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${ds.metadata.name}-${node}`,
      namespace: ds.metadata.namespace,
      labels: ds.spec.template.metadata.labels,
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'DaemonSet', name: ds.metadata.name, uid: ds.metadata.uid! }
      ]
    },
    spec: { nodeName: node, affinity: pinToNode(node), containers: [] },
    status: {
      phase: 'Running',
      initContainerStatuses: [{ name: 'probe', state: { terminated: { exitCode: 0, message } } }]
    }
  }
}

afterEach(() => {
  jest.useRealTimers()
})

describe('runVerification', () => {
  it('probes only the nodes it can probe; the others are reported as not probed', async () => {
    const f = fakeKube()
    const s = settings()
    const log = captureLog()
    f.cluster.put(node('n1'))
    f.cluster.put(node('n2', { ready: false }))
    f.cluster.put(node('n3', { rdma: '0' }))
    const run = runVerification({ settings: s, kube: f.kube, mode: 'verify', log })
    await watching(f.cluster)
    const ds = f.cluster.get('apps/v1', 'DaemonSet', probeName(s), NS)!
    expect(
      ds.spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution
        .nodeSelectorTerms[0].matchFields[0].values
    ).toEqual(['n1'])
    f.cluster.put(finishedPod(ds, 'n1', probeText()))
    const v = await run
    expect(v.nodes.map(n => n.metadata.name)).toEqual(['n1', 'n2', 'n3'])
    expect(v.nodes).toBe(v.state.nodes)
    expect([...v.facts!.keys()]).toEqual(['n1'])
    expect(v.facts!.get('n1')).toEqual(parseProbeOutput('n1', probeText()))
    const read = readOnlyChecks(v.state, s)
    expect(v.checks.slice(0, -1)).toEqual(read)
    const probe = v.checks.at(-1)!
    expect(probe.name).toBe('node-probe')
    expect(probe.nodes!.map(n => [n.node, n.detail])).toEqual([
      ['n1', expect.any(String)],
      ['n2', 'not probed: node NotReady'],
      ['n3', 'not probed: no allocatable rdma/hca_shared_devices_a for the probe pod to request']
    ])
    expect(probe.nodes![0].detail).not.toMatch(/not probed|no probe result/)
    expect(log.lines).toContain('info: 1/1 nodes probed')
    expect(f.calls.filter(c => /DaemonSet/.test(c))).toEqual([
      'list DaemonSet',
      'list DaemonSet',
      `create DaemonSet/${probeName(s)}`,
      `delete DaemonSet/${probeName(s)}`
    ])
  })

  it('passes the probe limit on', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] })
    const f = fakeKube()
    f.cluster.put(node('n1'))
    const run = runVerification({
      settings: settings('apply'),
      kube: f.kube,
      mode: 'apply',
      probeTimeoutMs: 4_000
    })
    await watching(f.cluster)
    await jest.advanceTimersByTimeAsync(4_000)
    const v = await run
    expect(v.facts!.get('n1')!.error).toBe('no probe pod on the node within 4s')
    expect(v.checks.at(-1)!.nodes![0].detail).toBe('no probe pod on the node within 4s')
  })

  it('no node to probe: no DaemonSet, the probe check says so', async () => {
    const f = fakeKube()
    const v = await runVerification({ settings: settings(), kube: f.kube, mode: 'verify' })
    expect(v.facts).toEqual(new Map())
    expect(v.checks.at(-1)).toEqual({
      name: 'node-probe',
      status: 'fail',
      detail: 'no RDMA nodes to probe',
      nodes: []
    })
    expect(f.calls.filter(c => !c.startsWith('list'))).toEqual([])
  })

  it('drift mode reads only: the probe is skipped, no facts, nothing created', async () => {
    const f = fakeKube()
    const s = settings('drift')
    f.cluster.put(node('n1'))
    const v = await runVerification({ settings: s, kube: f.kube, mode: 'drift' })
    expect(v.facts).toBeUndefined()
    expect(v.nodes.map(n => n.metadata.name)).toEqual(['n1'])
    expect(v.checks.at(-1)).toEqual({
      name: 'node-probe',
      status: 'skipped',
      detail: 'drift mode only reads state (the probe creates pods)'
    })
    expect(v.checks.slice(0, -1)).toEqual(readOnlyChecks(v.state, s))
    expect(f.calls.every(c => c.startsWith('list '))).toBe(true)
    expect(await runChecks({ settings: s, kube: f.kube, mode: 'drift' })).toEqual(v.checks)
  })
})
