// The transport step of the flow over a fake client on an in-memory cluster (the fake and the
// pods' logs as test/unit/transport/runner.test.ts has them: real UCX outputs from
// test/fixtures/ucx): a pass puts the bandwidth into the outputs and the worker snippet (with the
// client node's GPU-NIC map) into the report; a failed verdict fails the step with the runner's
// summary and its fix, and adds each pod's output that was read to the diagnostics, server first.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import type { KubeClient } from '../../../src/kube/client.js'
import { httpStatusOf, KubeRequestError, messageOf } from '../../../src/kube/errors.js'
import type { KubeObject, KubeRef, ListOptions } from '../../../src/kube/types.js'
import { setLogBackend, type Log } from '../../../src/log/index.js'
import { dynamoWorkerSnippet } from '../../../src/model/dynamo-worker.js'
import { emptyReport, type Report } from '../../../src/report/report.js'
import { StepError } from '../../../src/run/steps.js'
import { runTransportStep } from '../../../src/run/transport-step.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import type { Settings } from '../../../src/settings/settings.js'
import { gpuNicMapOf, transportPodName } from '../../../src/transport/pods.js'
import { SECTION_MARK } from '../../../src/transport/script.js'
import type { Verification } from '../../../src/verify/index.js'
import { parseProbeOutput, type NodeFacts } from '../../../src/verify/probe-output.js'
import { captureLog, type CapturedLog } from '../../support/capture-log.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'
import { apiError, labelsMatch, MemoryCluster } from '../../support/memory-cluster.js'
import { probeMessage } from '../../support/probe-message.js'

const NS = 'aks-rdma-verify'
const fixture = (dir: string, name: string) =>
  readFileSync(resolve(process.cwd(), 'test/fixtures', dir, name), 'utf8')

const settings = (over: Partial<Settings['wait']> = {}): Settings => {
  const s = readSettings(
    reader({ ...VALID_APPLY, mode: 'verify', 'transport-check': 'ucx' }),
    { GITHUB_RUN_ID: '77' },
    { nonce: 'n0' }
  ).settings
  return { ...s, wait: { ...s.wait, ...over } }
}

/** One GPU and mlx5_ib0 on one PCI bus (the HB fixture's HDR 200 port). */
const TOPOLOGY = [
  'gpu 0001:00:00.0 0x030200 0 pci0001:00 00000001-0001-0000-3130-444531454238',
  'nic mlx5_ib0 0101:00:00.0 0 pci0101:00 00000101-0101-0000-3130-444531454238'
]
const nodeFacts = (node: string): NodeFacts =>
  parseProbeOutput(
    node,
    probeMessage(fixture('ibstat', '01-ibstat-azure-hb120v3-hdr200-mlx5_ib0.txt'), { topology: TOPOLOGY })
  )
const factsOf = (...nodes: Array<NodeFacts | string>) =>
  new Map(nodes.map(n => (typeof n === 'string' ? nodeFacts(n) : n)).map(f => [f.node, f]))

/** The preflight and ucx_info sections every pod prints first (script.ts PREFLIGHT_SCRIPT). */
const preflight = [
  `${SECTION_MARK} preflight`,
  'uid 1000',
  'memlock unlimited',
  'shm tmpfs 16777216 0 16777216 0% /dev/shm',
  'infiniband rdma_cm umad0 uverbs0',
  'gpus 00000001:00:00.0',
  'net-devices mlx5_ib0:1',
  'port mlx5_ib0 4: ACTIVE|InfiniBand|200 Gb/sec (4X HDR)',
  'peermem 580.126.20',
  'ucx # Library version: 1.19.0',
  `${SECTION_MARK} ucx_info`,
  fixture('ucx', '07-ucx_info-d-mlx5-rc_verbs-ucx7960.txt').trimEnd()
].join('\n')

/** UCX_PROTO_INFO's table of the GET, in the layout of fixture 04 (proto_debug.c). */
const GET_TABLE = [
  '[1767930429.284905] [ucx-client:45:0]   +---------------------------+----------------------------------------------------------------+',
  '[1767930429.284906] [ucx-client:45:0]   | perftest inter-node cfg#1 | remote memory read by ucp_get* into cuda/GPU0 from cuda/dev[0] |',
  '[1767930429.284906] [ucx-client:45:0]   +---------------------------+-------------------+--------------------------------------------+',
  '[1767930429.284906] [ucx-client:45:0]   |                    0..inf | zero-copy         | rc_mlx5/mlx5_ib0:1                         |',
  '[1767930429.284907] [ucx-client:45:0]   +---------------------------+-------------------+--------------------------------------------+'
].join('\n')

const RESULTS = fixture('ucx', '01-ucx_perftest-tag_bw-final-ucx10649.txt').trimEnd()
const clientLog = (table = GET_TABLE) =>
  [
    preflight,
    `${SECTION_MARK} bandwidth`,
    table,
    RESULTS,
    'exit=0',
    `${SECTION_MARK} latency`,
    RESULTS,
    'exit=0'
  ].join('\n')
const serverLog = [
  preflight,
  `${SECTION_MARK} server`,
  fixture('ucx', '02-ucx_perftest-cuda-server-box-interleaved-ucx11865.txt').trimEnd(),
  'exit=0'
].join('\n')

interface Fake {
  kube: KubeClient
  cluster: MemoryCluster
  calls: string[]
  /** Each pod's log by name, or the error reading it fails with. */
  logs: Map<string, string | Error>
  failNext: Map<string, unknown>
}

/** A KubeClient over a MemoryCluster with what runner.ts calls; request wraps errors as the real one. */
function fakeKube(): Fake {
  const cluster = new MemoryCluster()
  const calls: string[] = []
  const logs = new Map<string, string | Error>()
  const failNext = new Map<string, unknown>()
  const fail = (name: string) => {
    const e = failNext.get(name)
    if (e !== undefined) {
      failNext.delete(name)
      throw e
    }
  }
  const kube = {
    request: async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
      try {
        return await fn()
      } catch (e) {
        throw new KubeRequestError(what, httpStatusOf(e), messageOf(e), e)
      }
    },
    get: async (ref: KubeRef) => {
      calls.push(`get ${ref.kind}/${ref.name}`)
      return cluster.get(ref.apiVersion, ref.kind, ref.name, ref.namespace)
    },
    applyManifest: async (m: KubeObject) => {
      calls.push(`apply ${m.kind}/${m.metadata.name}`)
      return { created: true, changed: true, object: cluster.put(m) }
    },
    podLog: async (namespace: string, name: string, opts: { container?: string; tailLines?: number }) => {
      calls.push(`logs ${namespace}/${name} -c ${opts.container} --tail ${opts.tailLines}`)
      const l = logs.get(name)
      if (l instanceof Error) throw l
      return l ?? ''
    },
    watchSource: (apiVersion: string, kind: string, opts: ListOptions = {}) => {
      calls.push(`watch ${kind} -n ${opts.namespace} -l ${opts.labelSelector}`)
      const src = cluster.source(apiVersion, kind, opts)
      return {
        ...src,
        list: async () => {
          fail('watchList')
          return src.list()
        }
      }
    },
    core: {
      createNamespacedPod: async ({ namespace, body }: { namespace: string; body: KubeObject }) => {
        calls.push(`create pod ${namespace}/${body.metadata.name}`)
        if (cluster.get('v1', 'Pod', body.metadata.name, namespace))
          throw apiError(409, 'AlreadyExists', `pods "${body.metadata.name}" already exists`)
        return cluster.put({ ...body, status: { phase: 'Pending' } })
      },
      deleteCollectionNamespacedPod: async (o: {
        namespace: string
        labelSelector: string
        gracePeriodSeconds: number
        propagationPolicy: string
      }) => {
        calls.push(
          `delete pods -n ${o.namespace} -l ${o.labelSelector} grace=${o.gracePeriodSeconds} ${o.propagationPolicy}`
        )
        fail('deletePods')
        for (const p of cluster.all('v1', 'Pod', { namespace: o.namespace }))
          if (labelsMatch(p.metadata.labels, o.labelSelector))
            cluster.remove('v1', 'Pod', p.metadata.name, o.namespace)
        return {}
      }
    }
  } as unknown as KubeClient
  return { kube, cluster, calls, logs, failNext }
}

/** A few event-loop turns until `cond` (the module's pod created, its watch open). */
async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500 && !cond(); i++) await new Promise(r => setImmediate(r))
  if (!cond()) throw new Error(`never: ${what}`)
}

/** Until the module waits on pod `name` (created, watched). */
const waitingOn = (f: Fake, name: string, ns = NS) =>
  until(() => !!f.cluster.get('v1', 'Pod', name, ns) && f.cluster.openWatches > 0, `waiting on ${name}`)

/** The pod with a new status, as the kubelet reports it. */
function setStatus(f: Fake, name: string, status: object, ns = NS): void {
  const p = f.cluster.get('v1', 'Pod', name, ns)!
  f.cluster.put({ ...p, status })
}

const runningWithIp = {
  phase: 'Running',
  podIP: '10.244.1.7',
  containerStatuses: [
    { name: 'worker', ready: true, state: { running: { startedAt: '2026-12-02T10:00:00Z' } } }
  ]
}
const succeeded = {
  phase: 'Succeeded',
  podIP: '10.244.2.9',
  containerStatuses: [
    { name: 'worker', ready: false, state: { terminated: { exitCode: 0, reason: 'Completed' } } }
  ]
}

let log: CapturedLog
let previous: Log
beforeEach(() => {
  log = captureLog()
  previous = setLogBackend(log)
})
afterEach(() => {
  setLogBackend(previous)
})

const verification = (facts: Map<string, NodeFacts>): Verification => ({
  checks: [],
  state: {} as Verification['state'],
  nodes: [],
  facts
})

describe('runTransportStep with pods', () => {
  it('a pass: the report, the outputs, the worker snippet with the client node’s GPU-NIC map', async () => {
    const f = fakeKube()
    const s = settings()
    const server = transportPodName(s, 'server')
    const client = transportPodName(s, 'client')
    f.logs.set(server, serverLog)
    f.logs.set(client, clientLog())
    const report: Report = emptyReport('verify')
    const facts = factsOf('n-b', 'n-a')
    const run = runTransportStep(s, f.kube, verification(facts), report)
    await waitingOn(f, server)
    setStatus(f, server, runningWithIp)
    await waitingOn(f, client)
    setStatus(f, client, succeeded)
    await run
    const summary = 'gpudirect-rdma at 392.11 Gb/s (≥ 160 Gb/s) between n-a and n-b'
    expect(report.outputs).toEqual({ transport: 'gpudirect-rdma', 'transport-gbps': '392.11' })
    expect(report.steps).toHaveLength(1)
    expect(report.steps[0]).toMatchObject({
      name: 'transport',
      status: 'success',
      changed: false,
      detail: summary
    })
    expect(report.transport).toMatchObject({ verdict: 'pass', mode: 'gpudirect-rdma' })
    const withMap = dynamoWorkerSnippet(s, { gpuNicMap: gpuNicMapOf(facts.get('n-b')!) })
    expect(report.transport!.workerSnippet).toEqual(withMap)
    expect(withMap).not.toEqual(dynamoWorkerSnippet(s, {}))
    expect(report.diagnostics).toBeUndefined()
  })

  it('a failed verdict: the step fails with the summary and the fix; both pods’ output in the diagnostics', async () => {
    const f = fakeKube()
    const s = settings()
    const server = transportPodName(s, 'server')
    const client = transportPodName(s, 'client')
    f.logs.set(server, serverLog)
    f.logs.set(client, clientLog())
    const fast = (node: string) => ({ ...nodeFacts(node), rateGbps: { mlx5_ib0: 800, mlx5_ib4: 800 } })
    const report: Report = emptyReport('verify')
    report.diagnostics = [{ step: 'verify', title: 'earlier', text: 'x' }]
    const run = runTransportStep(s, f.kube, verification(factsOf(fast('n-a'), fast('n-b'))), report).catch(
      (e: unknown) => e
    )
    await waitingOn(f, server)
    setStatus(f, server, runningWithIp)
    await waitingOn(f, client)
    setStatus(f, client, succeeded)
    const e = (await run) as StepError
    expect(e).toBeInstanceOf(StepError)
    const t = report.transport!
    expect(t.verdict).toBe('fail')
    expect(t.fix).toBeTruthy()
    expect(e.step).toBe('transport')
    expect(t.mode).toBe('gpudirect-rdma')
    expect(e.message).toBe(`transport: gpudirect-rdma: ${t.reason}. Fix: ${t.fix}`)
    expect(report.outputs).toEqual({ transport: t.mode, 'transport-gbps': '392.11' })
    expect(t.workerSnippet).toBeUndefined()
    expect(report.diagnostics).toEqual([
      { step: 'verify', title: 'earlier', text: 'x' },
      { step: 'transport', title: 'server pod output', text: serverLog },
      { step: 'transport', title: 'client pod output', text: clientLog() }
    ])
  })

  it('a failed verdict with only the server’s output read: one diagnostic, no bandwidth', async () => {
    const f = fakeKube()
    const s = settings()
    const server = transportPodName(s, 'server')
    f.logs.set(server, serverLog)
    const report: Report = emptyReport('verify')
    const run = runTransportStep(s, f.kube, verification(factsOf('n1', 'n2')), report).catch(
      (e: unknown) => e
    )
    await waitingOn(f, server)
    setStatus(f, server, {
      phase: 'Failed',
      podIP: '10.244.1.7',
      containerStatuses: [{ name: 'worker', state: { terminated: { exitCode: 1, reason: 'Error' } } }]
    })
    const e = (await run) as StepError
    expect(e).toBeInstanceOf(StepError)
    expect(e.message.startsWith(`transport: failed: ${report.transport!.reason}`)).toBe(true)
    expect(report.outputs['transport-gbps']).toBeUndefined()
    expect(report.diagnostics).toEqual([{ step: 'transport', title: 'server pod output', text: serverLog }])
  })
})
