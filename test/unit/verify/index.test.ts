// Verification as a whole against a fake client over an in-memory cluster: the read-only checks
// over one read of the cluster, then (outside drift mode) the node probe over the nodes it can
// probe — a NotReady node or one without allocatable rdma/<name> is reported as not probed, never
// asked for — with the probe's limit and log passed on; drift mode reads only and skips the probe.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { afterEach, describe, expect, it, jest } from '@jest/globals'
import type { KubeObject } from '../../../src/kube/types.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import type { Settings } from '../../../src/settings/settings.js'
import { KubeRequestError } from '../../../src/kube/errors.js'
import { PROBE_PERMISSION, runChecks, runVerification } from '../../../src/verify/index.js'
import { parseProbeOutput } from '../../../src/verify/probe-output.js'
import { probeName } from '../../../src/verify/probe.js'
import { readOnlyChecks } from '../../../src/verify/read-only-checks.js'
import { captureLog } from '../../support/capture-log.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'
import { memoryKube, watching } from '../../support/memory-kube.js'
import { probeMessage } from '../../support/probe-message.js'
import { dsPod, terminated } from '../../support/probe-pods.js'

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

/** memory-kube with index.ts's reads, namespace, DaemonSet and pod watch, each call by kind and name. */
const fakeKube = () =>
  memoryKube({
    say: {
      list: (_v, kind) => `list ${kind}`,
      watch: (_v, kind) => `watch ${kind}`,
      createDaemonSet: (_ns, body) => `create DaemonSet/${body.metadata.name}`,
      deleteDaemonSet: q => `delete DaemonSet/${q.name}`
    }
  })

const node = (name: string, o: { ready?: boolean; rdma?: string } = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { 'kubernetes.azure.com/agentpool': 'rdmapool' } },
  status: {
    conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }],
    allocatable: { 'rdma/hca_shared_devices_a': o.rdma ?? '1', 'nvidia.com/gpu': '8' }
  }
})

/** The probe pod of `node`, finished with `message`, as the DaemonSet controller and kubelet leave it. */
const finishedPod = (ds: KubeObject, node: string, message: string): KubeObject =>
  dsPod(ds, node, terminated(0, message))

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

  it('a probe the identity may not start: the read-only checks stand, the probe a warning naming the rights', async () => {
    const f = fakeKube()
    const log = captureLog()
    f.cluster.put(node('n1'))
    const refused =
      'namespaces "aks-rdma-verify" is forbidden: User "reader" cannot patch resource "namespaces" in API group "" in the namespace "aks-rdma-verify"'
    ;(f.kube as { applyManifest: unknown }).applyManifest = async () => {
      throw new KubeRequestError('apply namespace/aks-rdma-verify', 403, refused)
    }
    const v = await runVerification({ settings: settings(), kube: f.kube, mode: 'verify', log })
    expect(v.checks.slice(0, -1)).toEqual(readOnlyChecks(v.state, settings()))
    expect(v.checks.at(-1)).toEqual({
      name: 'node-probe',
      status: 'warn',
      detail: `not run: the identity may not patch namespaces in namespace aks-rdma-verify; ${PROBE_PERMISSION}`
    })
    expect(v.facts).toBeUndefined()
    expect(log.lines).toContain(`warning: node-probe: ${v.checks.at(-1)!.detail}`)
    expect(f.calls.filter(c => /create/.test(c))).toEqual([])
  })

  it('any other failure of the probe propagates', async () => {
    const f = fakeKube()
    f.cluster.put(node('n1'))
    ;(f.kube as { applyManifest: unknown }).applyManifest = async () => {
      throw new KubeRequestError('apply namespace/aks-rdma-verify', 500, 'etcdserver: request timed out')
    }
    await expect(runVerification({ settings: settings(), kube: f.kube, mode: 'verify' })).rejects.toThrow(
      'etcdserver: request timed out'
    )
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
    expect(v.checks.at(-1)).toMatchObject({ name: 'node-probe', status: 'skipped', nodes: [] })
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
