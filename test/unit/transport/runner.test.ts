// The transport check's run against a fake client over an in-memory cluster: the pair of nodes it
// picks, the server pod first and the client (with the server's IP) once the server runs, each
// pod's problem when it did not run (unschedulable, a container stuck, ended, not started in time),
// both logs read (worker container, 20 000 lines) and judged, a log that cannot be read, and the
// cleanup by label before and after, whatever happened. Logs are what the pods' scripts print
// (script.ts) around real UCX outputs from test/fixtures/ucx.
import { afterEach, describe, expect, it, jest } from '@jest/globals'
import { KubeRequestError } from '../../../src/kube/errors.js'
import { dynamoWorkerEnv } from '../../../src/transport/dynamo-worker.js'
import type { Settings } from '../../../src/settings/settings.js'
import { transportPodName } from '../../../src/transport/pods.js'
import { runTransportCheck, transportPair } from '../../../src/transport/runner.js'
import { emptyFacts, type NodeFacts } from '../../../src/verify/probe-output.js'
import { runLabel } from '../../../src/verify/workspace.js'
import { captureLog, type CapturedLog } from '../../support/capture-log.js'
import { apiError } from '../../support/memory-cluster.js'
import { memoryKube, unschedulableStatus, until, type MemoryKube } from '../../support/memory-kube.js'
import { factsOf, hbFacts } from '../../support/probe-facts.js'
import {
  clientLog,
  runningWithIp,
  serverLog,
  setStatus,
  succeeded,
  UCX_NS,
  ucxPods,
  ucxSettings,
  waitingOn
} from '../../support/ucx-pods.js'

const NS = UCX_NS
const settings = ucxSettings
const nodeFacts = hbFacts
/** The client as runner.ts uses it (its words in `calls` are memory-kube's own). */
const fakeKube = () => memoryKube()
const unschedulable = unschedulableStatus('0/2 nodes are available:\n 2 Insufficient nvidia.com/gpu.')
/** Unschedulable for another reason than the pool's GPUs: no busy pool. */
const elsewhere = unschedulableStatus(
  "0/2 nodes are available:\n 2 node(s) didn't match Pod's node affinity/selector."
)
const pulling = (message?: string) => ({
  phase: 'Pending',
  containerStatuses: [
    {
      name: 'worker',
      ready: false,
      state: { waiting: { reason: 'ImagePullBackOff', ...(message ? { message } : {}) } }
    }
  ]
})

const selector = (s: Settings) =>
  `app.kubernetes.io/name=aks-rdma-action,app.kubernetes.io/component=dynamo-transport,aks-rdma-action/run=${runLabel(s.runId)}`

afterEach(() => {
  jest.useRealTimers()
})

/** The kubelet runs the server (with its IP) once it is waited on, then gives the client `status`. */
async function serverThenClient(
  f: MemoryKube,
  server: string,
  client: string,
  status: object
): Promise<void> {
  await waitingOn(f, server)
  setStatus(f, server, runningWithIp)
  await waitingOn(f, client)
  setStatus(f, client, status)
}

/** The check started on n1 and n2 with settings `s` (`prepare` readies the fake first), and its two pods' names. */
function startCheck(
  s = settings(),
  o: { log?: CapturedLog; prepare?: (f: MemoryKube, server: string, client: string) => void } = {}
) {
  const f = fakeKube()
  const server = transportPodName(s, 'server')
  const client = transportPodName(s, 'client')
  o.prepare?.(f, server, client)
  const run = runTransportCheck({
    settings: s,
    kube: f.kube,
    facts: factsOf('n1', 'n2'),
    ...(o.log ? { log: o.log } : {})
  })
  return { f, s, server, client, run }
}

describe('transportPair', () => {
  it('the first two nodes, naturally ordered, with GPUs, an active IB port and no probe error', () => {
    const noGpu = { ...nodeFacts('n0'), gpus: [] }
    const noPort = { ...nodeFacts('n1'), activeDevices: [] }
    const failed = { ...nodeFacts('n3'), error: 'probe exited 1' }
    const pair = transportPair(factsOf(nodeFacts('n10'), noGpu, noPort, failed, 'n2', 'n11'))
    expect(typeof pair).not.toBe('string')
    expect((pair as NodeFacts[]).map(f => f.node)).toEqual(['n2', 'n10'])
    expect((transportPair(factsOf('b', 'a')) as NodeFacts[]).map(f => f.node)).toEqual(['a', 'b'])
  })

  it('says how many it found, and which, when fewer than two', () => {
    expect(transportPair(factsOf('n1', emptyFacts('n2', 'no probe pod')))).toBe(
      'needs two RDMA nodes with GPUs and an active InfiniBand port, found 1 (n1)'
    )
    expect(transportPair(new Map())).toBe(
      'needs two RDMA nodes with GPUs and an active InfiniBand port, found 0'
    )
  })
})

describe('runTransportCheck', () => {
  it('without a pair: failed at once, no request, the worker snippet’s UCX settings', async () => {
    const f = fakeKube()
    const s = settings()
    const out = await runTransportCheck({ settings: s, kube: f.kube, facts: factsOf('n1') })
    const ucxEnv = Object.fromEntries(
      dynamoWorkerEnv(s)
        .filter(e => e.name.startsWith('UCX_'))
        .map(e => [e.name, e.value])
    )
    expect(Object.keys(ucxEnv).length).toBeGreaterThan(0)
    expect(dynamoWorkerEnv(s).some(e => !e.name.startsWith('UCX_'))).toBe(true)
    expect(out).toEqual({
      transport: {
        check: 'ucx',
        mode: 'failed',
        verdict: 'fail',
        reason:
          'the transport check needs two RDMA nodes with GPUs and an active InfiniBand port, found 1 (n1)',
        fix: 'see the verification checks: every RDMA node needs GPUs, an active InfiniBand port and allocatable rdma/<name>',
        image: s.transport.image,
        pairs: [],
        passMarkGbps: null,
        linkGbps: null,
        lanes: [],
        protocol: null,
        gpudirect: null,
        ucxEnv,
        sides: []
      },
      summary:
        'failed: the transport check needs two RDMA nodes with GPUs and an active InfiniBand port, found 1 (n1)',
      logs: {}
    })
    expect(f.calls).toEqual([])
  })

  it('server, then client with its IP; both logs read and judged; pods deleted before and after', async () => {
    const s = settings()
    const log = captureLog()
    const { f, server, client } = ucxPods(s, { server: serverLog, client: clientLog() })
    // A pod a killed earlier attempt of this run left.
    f.cluster.put({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: server,
        namespace: NS,
        labels: {
          'aks-rdma-action/run': runLabel(s.runId),
          'app.kubernetes.io/name': 'aks-rdma-action',
          'app.kubernetes.io/component': 'dynamo-transport'
        }
      }
    })
    const run = runTransportCheck({
      settings: s,
      kube: f.kube,
      facts: factsOf('n-b', 'n-a'),
      log,
      timeoutMs: 45_000
    })
    await until(() => f.cluster.get('v1', 'Pod', server, NS)?.status?.phase === 'Pending', 'server created')
    await waitingOn(f, server)
    const serverPod = f.cluster.get('v1', 'Pod', server, NS)!
    expect(
      serverPod.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]
        .matchFields[0].values
    ).toEqual(['n-a'])
    expect(serverPod.spec.activeDeadlineSeconds).toBe(90)
    expect(f.cluster.get('v1', 'Pod', client, NS)).toBeUndefined()
    // An IP without a running container (none yet, then one without a state), or running without an
    // IP, is not enough to start the client.
    setStatus(f, server, { phase: 'Pending', podIP: '10.244.1.7' })
    await new Promise(r => setImmediate(r))
    setStatus(f, server, { phase: 'Pending', podIP: '10.244.1.7', containerStatuses: [{ name: 'worker' }] })
    await new Promise(r => setImmediate(r))
    setStatus(f, server, { ...runningWithIp, podIP: undefined })
    await new Promise(r => setImmediate(r))
    await new Promise(r => setImmediate(r))
    expect(f.cluster.get('v1', 'Pod', client, NS)).toBeUndefined()
    setStatus(f, server, runningWithIp)
    await waitingOn(f, client)
    const clientPod = f.cluster.get('v1', 'Pod', client, NS)!
    expect(clientPod.metadata.labels?.['aks-rdma-action/role']).toBe('client')
    expect(
      clientPod.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]
        .matchFields[0].values
    ).toEqual(['n-b'])
    expect(clientPod.spec.containers[0].args[0]).toContain('10.244.1.7')
    setStatus(f, client, { ...succeeded, phase: 'Running' })
    await new Promise(r => setImmediate(r))
    setStatus(f, client, succeeded)
    const out = await run
    expect(out.logs).toEqual({ server: serverLog, client: clientLog() })
    expect(out.transport).toMatchObject({
      check: 'ucx',
      mode: 'gpudirect-rdma',
      verdict: 'pass',
      pairs: [{ server: 'n-a', client: 'n-b', bandwidthGbps: 392.11, latencyUs: 1671.35 }],
      linkGbps: 200,
      passMarkGbps: 160,
      lanes: ['rc_mlx5/mlx5_ib0:1'],
      protocol: 'zero-copy'
    })
    expect(out.transport.sides.map(x => [x.role, x.node, x.pod])).toEqual([
      ['server', 'n-a', server],
      ['client', 'n-b', client]
    ])
    expect(out.summary).toBe('gpudirect-rdma at 392.11 Gb/s (≥ 160 Gb/s) between n-a and n-b')
    const sel = selector(s)
    expect(f.calls).toEqual([
      `get Namespace/${NS}`,
      // The namespace it creates is recorded as the action's (pending, then its uid).
      'get ConfigMap/aks-rdma-action-owned',
      `apply Namespace/${NS}`,
      `delete pods -n ${NS} -l ${sel} grace=0 Background`,
      `create pod ${NS}/${server}`,
      `watch Pod -n ${NS} -l ${sel}`,
      `create pod ${NS}/${client}`,
      `watch Pod -n ${NS} -l ${sel}`,
      `logs ${NS}/${client} -c worker --tail 20000`,
      `logs ${NS}/${server} -c worker --tail 20000`,
      `delete pods -n ${NS} -l ${sel} grace=0 Background`
    ])
    expect(f.cluster.all('v1', 'Pod')).toEqual([])
    expect(f.cluster.openWatches).toBe(0)
    expect(log.lines).toEqual([
      `info: transport: ${s.transport.image} worker pods on n-a (server) and n-b (client)`,
      'info: server pod: Pending',
      'info: server pod: Running',
      'info: client pod: Pending',
      'info: client pod: Running; container worker terminated: exit 0 (Completed)',
      'info: client pod: Succeeded; container worker terminated: exit 0 (Completed)'
    ])
    expect(log.warnings).toEqual([])
  })

  /** A run at 800 Gb/s links (pass mark 640, fixture 01 at 392 Gb/s is below), the client's facts and log given. */
  async function belowPass(clientFacts: NodeFacts, log = clientLog()) {
    const f = fakeKube()
    const s = settings()
    const server = transportPodName(s, 'server')
    const client = transportPodName(s, 'client')
    f.logs.set(client, log)
    const run = runTransportCheck({
      settings: s,
      kube: f.kube,
      facts: factsOf(fast('n-a'), { ...clientFacts, node: 'n-b' }),
      namespace: 'ns1'
    })
    await waitingOn(f, server, 'ns1')
    setStatus(f, server, runningWithIp, 'ns1')
    await waitingOn(f, client, 'ns1')
    setStatus(f, client, succeeded, 'ns1')
    const out = await run
    expect(out.logs).toEqual({ server: '', client: log })
    expect(f.calls.filter(c => c.startsWith('delete pods'))).toEqual([
      `delete pods -n ns1 -l ${selector(s)} grace=0 Background`,
      `delete pods -n ns1 -l ${selector(s)} grace=0 Background`
    ])
    return out.transport
  }
  const fast = (node: string): NodeFacts => ({
    ...nodeFacts(node),
    rateGbps: { mlx5_ib0: 800, mlx5_ib4: 800 }
  })
  const onIb4 = (f: NodeFacts): NodeFacts => ({ ...f, nics: f.nics.map(n => ({ ...n, device: 'mlx5_ib4' })) })
  const OFF_LOCAL_FIX =
    'set UCX_NET_DEVICES to the InfiniBand device local to the worker’s GPU (transport-ucx-env: dynamo, the worker snippet’s prelude)'
  const SAME_NIC_FIX =
    'compare with the benchmark’s result for the same NIC (a slow link or NIC shows there too)'

  it('below the pass mark, off the GPU’s NIC: the probe’s link rate and local NIC go into the verdict', async () => {
    const t = await belowPass(onIb4(fast('n-b')))
    expect(t).toMatchObject({ verdict: 'fail', linkGbps: 800, passMarkGbps: 640, fix: OFF_LOCAL_FIX })
    expect(t.reason).toBe(
      "GPU-to-GPU bandwidth 392.11 Gb/s is below the pass mark 640 Gb/s (0.8 × the 800 Gb/s link): UCX used mlx5_ib0, not mlx5_ib4, the NIC local to the client's GPU (UCX_NET_DEVICES=mlx5_ib0:1)"
    )
  })

  it('the GPU found by its nvidia-smi bus id whatever its case', async () => {
    const f = onIb4(fast('n-b'))
    const lettered = { ...f, gpus: f.gpus.map(g => ({ ...g, pciAddress: '000a:00:00.0' })) }
    const log = clientLog().replace('gpus 00000001:00:00.0', 'gpus 0000000a:00:00.0')
    expect((await belowPass(lettered, log)).fix).toBe(OFF_LOCAL_FIX)
  })

  it('no local NIC known (the GPU not in the probe’s map, or no NIC by it): below the pass mark only', async () => {
    const other = clientLog().replace('gpus 00000001:00:00.0', 'gpus 00000002:00:00.0')
    const t = await belowPass(onIb4(fast('n-b')), other)
    expect(t.fix).toBe(SAME_NIC_FIX)
    expect(t.reason).toBe(
      'GPU-to-GPU bandwidth 392.11 Gb/s is below the pass mark 640 Gb/s (0.8 × the 800 Gb/s link)'
    )
    const f = onIb4(fast('n-b'))
    const noNic = { ...f, nics: f.nics.map(n => ({ ...n, localGpu: null })) }
    expect((await belowPass(noNic)).fix).toBe(SAME_NIC_FIX)
  })

  it('the server unschedulable: no client, no log read, the scheduler’s message on one line', async () => {
    const { f, server, run } = startCheck()
    await waitingOn(f, server)
    setStatus(f, server, elsewhere)
    const out = await run
    expect(out.transport.reason).toBe(
      "the server pod on n1 did not run: unschedulable: 0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector."
    )
    expect(out.transport.busy).toBeUndefined()
    expect(out.transport.sides.map(x => [x.pod, x.problem])).toEqual([
      [
        server,
        "unschedulable: 0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector."
      ],
      ['', undefined]
    ])
    expect(out.logs).toEqual({})
    expect(f.calls.filter(c => /^(create|logs)/.test(c))).toEqual([`create pod ${NS}/${server}`])
  })

  it('the server unschedulable for want of GPUs: the pool is busy, what ran, and how to verify it in use', async () => {
    const f = fakeKube()
    const s = settings()
    const server = transportPodName(s, 'server')
    const run = runTransportCheck({
      settings: s,
      kube: f.kube,
      facts: factsOf('n1', 'n2'),
      ran: 'the read-only checks, the node probe and the benchmark ran'
    })
    await waitingOn(f, server)
    setStatus(f, server, unschedulable)
    const out = await run
    expect(out.transport.verdict).toBe('fail')
    expect(out.transport.reason).toMatch(/^the RDMA pool is busy: its nvidia\.com\/gpu held by /)
    expect(out.transport.reason).toContain('the read-only checks, the node probe and the benchmark ran')
    expect(out.transport.busy?.reason).toBe(out.transport.reason)
    expect(out.transport.fix).toMatch(/^set transport-check: none/)
    expect(out.summary).toBe(`failed: ${out.transport.reason}`)
    // The scheduler's own words stay on the side that could not run.
    expect(out.transport.sides[0].problem).toBe(
      'unschedulable: 0/2 nodes are available: 2 Insufficient nvidia.com/gpu.'
    )
  })

  it('the server’s container stuck: its reason and message', async () => {
    const { f, s, server, run } = startCheck()
    await waitingOn(f, server)
    // The sandbox has its IP before the image is pulled: still no client.
    setStatus(f, server, { ...pulling('Back-off pulling image\n "nvcr.io/x"'), podIP: '10.244.1.7' })
    const out = await run
    expect(f.calls.filter(c => c.startsWith('create'))).toEqual([`create pod ${NS}/${server}`])
    expect(out.transport.reason).toBe(
      'the server pod on n1 did not run: container worker is in ImagePullBackOff (Back-off pulling image "nvcr.io/x")'
    )
    expect(out.logs).toEqual({})
    const g = fakeKube()
    const run2 = runTransportCheck({ settings: s, kube: g.kube, facts: factsOf('n1', 'n2') })
    await waitingOn(g, server)
    setStatus(g, server, pulling())
    expect((await run2).transport.reason).toBe(
      'the server pod on n1 did not run: container worker is in ImagePullBackOff'
    )
  })

  it('the server ended before the client could start: the client is not started, the server’s log is read', async () => {
    const s = settings()
    const { f, server } = ucxPods(s, { server: serverLog })
    const run = runTransportCheck({ settings: s, kube: f.kube, facts: factsOf('n1', 'n2') })
    await waitingOn(f, server)
    setStatus(f, server, {
      phase: 'Failed',
      podIP: '10.244.1.7',
      containerStatuses: [{ name: 'worker', state: { terminated: { exitCode: 1, reason: 'Error' } } }]
    })
    const out = await run
    const problem = 'not started: the server pod ended (Failed; container worker terminated: exit 1 (Error))'
    expect(out.transport.sides.map(x => x.problem)).toEqual([undefined, problem])
    expect(out.transport.reason).toBe(`the client pod on n2 did not run: ${problem}`)
    expect(out.logs).toEqual({ server: serverLog })
    expect(f.calls.filter(c => /^(create|logs)/.test(c))).toEqual([
      `create pod ${NS}/${server}`,
      `logs ${NS}/${server} -c worker --tail 20000`
    ])
  })

  it('the client unschedulable: its problem, the server’s log only', async () => {
    const { f, server, client, run } = startCheck()
    f.logs.set(server, serverLog)
    await serverThenClient(f, server, client, elsewhere)
    const out = await run
    expect(out.transport.reason).toBe(
      "the client pod on n2 did not run: unschedulable: 0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector."
    )
    expect(out.logs).toEqual({ server: serverLog })
  })

  it('the client’s container stuck: settled at once, its log not read', async () => {
    const { f, server, client, run } = startCheck()
    await waitingOn(f, server)
    setStatus(f, server, runningWithIp)
    await waitingOn(f, client)
    setStatus(f, client, pulling('no such image'))
    const out = await run
    expect(out.transport.sides[1].problem).toBe('container worker is in ImagePullBackOff (no such image)')
    expect(f.calls.filter(c => c.startsWith('logs'))).toEqual([`logs ${NS}/${server} -c worker --tail 20000`])
  })

  it('a log that cannot be read: a warning, and an empty log', async () => {
    const log = captureLog()
    const { f, server, client, run } = startCheck(settings(), {
      log,
      prepare: (k, server, client) => {
        k.logs.set(client, new KubeRequestError(`logs ${client}`, 500, 'kubelet unreachable'))
        k.logs.set(server, serverLog)
      }
    })
    await serverThenClient(f, server, client, succeeded)
    const out = await run
    expect(out.logs).toEqual({ server: serverLog, client: '' })
    expect(log.warnings).toEqual([
      `transport: could not read the log of pod ${client}: logs ${client}: HTTP 500: kubelet unreachable`
    ])
    expect(out.transport.verdict).toBe('fail')
  })

  it('a log read that throws a non-Error: its text; without a log nothing is said', async () => {
    const log = captureLog()
    const { f, s, server, client, run } = startCheck(settings(), {
      log,
      prepare: k => {
        ;(k.kube as unknown as { podLog: () => Promise<never> }).podLog = async () => {
          throw 'stream reset'
        }
      }
    })
    await serverThenClient(f, server, client, succeeded)
    await run
    expect(log.warnings).toEqual([
      `transport: could not read the log of pod ${client}: stream reset`,
      `transport: could not read the log of pod ${server}: stream reset`
    ])
    const g = fakeKube()
    ;(g.kube as unknown as { podLog: () => Promise<never> }).podLog = async () => {
      throw new Error('x')
    }
    const run2 = runTransportCheck({ settings: s, kube: g.kube, facts: factsOf('n1', 'n2') })
    await waitingOn(g, server)
    setStatus(g, server, runningWithIp)
    await waitingOn(g, client)
    setStatus(g, client, succeeded)
    expect((await run2).logs).toEqual({ server: '', client: '' })
  })

  it('a server that does not start in time: how it was last seen, in the limit’s seconds (the step limit by default)', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] })
    const { f, server, run } = startCheck(settings({ stepTimeoutMs: 31_200 }))
    await waitingOn(f, server)
    expect(f.cluster.get('v1', 'Pod', server, NS)!.spec.activeDeadlineSeconds).toBe(63)
    setStatus(f, server, { ...runningWithIp, podIP: undefined })
    await new Promise(r => setImmediate(r))
    await jest.advanceTimersByTimeAsync(31_199)
    expect(f.calls.filter(c => c.startsWith('create'))).toHaveLength(1)
    await jest.advanceTimersByTimeAsync(1)
    const out = await run
    expect(out.transport.sides[0].problem).toBe('did not start within 31s (Running)')
    expect(out.transport.sides[1].problem).toBeUndefined()
  })

  it('no server pod at the deadline (deleted under it): no pod within the limit', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] })
    const f = fakeKube()
    const s = settings()
    const server = transportPodName(s, 'server')
    const log = captureLog()
    const run = runTransportCheck({
      settings: s,
      kube: f.kube,
      facts: factsOf('n1', 'n2'),
      timeoutMs: 20_000,
      log
    })
    await waitingOn(f, server)
    expect(f.cluster.get('v1', 'Pod', server, NS)!.spec.activeDeadlineSeconds).toBe(60)
    f.cluster.remove('v1', 'Pod', server, NS)
    await new Promise(r => setImmediate(r))
    await jest.advanceTimersByTimeAsync(20_000)
    const out = await run
    expect(out.transport.sides[0].problem).toBe('no pod within 20s')
    expect(log.lines.slice(1)).toEqual(['info: server pod: Pending', 'info: server pod: not created yet'])
    expect(out.logs).toEqual({})
  })

  it('a client that has not ended by the deadline: not started in time, its log not read', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] })
    const f = fakeKube()
    const s = settings()
    const server = transportPodName(s, 'server')
    const client = transportPodName(s, 'client')
    const run = runTransportCheck({
      settings: s,
      kube: f.kube,
      facts: factsOf('n1', 'n2'),
      timeoutMs: 30_000
    })
    await waitingOn(f, server)
    expect(f.cluster.get('v1', 'Pod', server, NS)!.spec.activeDeadlineSeconds).toBe(60)
    setStatus(f, server, runningWithIp)
    await waitingOn(f, client)
    setStatus(f, client, runningWithIp)
    await new Promise(r => setImmediate(r))
    await jest.advanceTimersByTimeAsync(30_000)
    const out = await run
    expect(out.transport.sides[1].problem).toBe('did not start within 30s (Running)')
    expect(f.calls.filter(c => c.startsWith('logs'))).toEqual([
      `logs ${NS}/${client} -c worker --tail 20000`,
      `logs ${NS}/${server} -c worker --tail 20000`
    ])
  })

  it('a watch that fails otherwise fails the check; the pods are still deleted', async () => {
    const f = fakeKube()
    const s = settings()
    f.failNext.set('watchList', apiError(403, 'Forbidden', 'cannot watch pods'))
    await expect(
      runTransportCheck({ settings: s, kube: f.kube, facts: factsOf('n1', 'n2') })
    ).rejects.toThrow('cannot watch pods')
    expect(f.calls.at(-1)).toBe(`delete pods -n ${NS} -l ${selector(s)} grace=0 Background`)
    expect(f.cluster.all('v1', 'Pod')).toEqual([])
  })

  it('a cleanup that fails: a warning with the namespace and selector (the first one is quiet)', async () => {
    const f = fakeKube()
    const s = settings()
    const log = captureLog()
    const server = transportPodName(s, 'server')
    f.failNext.set('deleteCollectionNamespacedPod', apiError(500, 'InternalError', 'etcd down'))
    const run = runTransportCheck({ settings: s, kube: f.kube, facts: factsOf('n1', 'n2'), log })
    await waitingOn(f, server)
    f.failNext.set('deleteCollectionNamespacedPod', apiError(500, 'InternalError', 'cannot delete pods'))
    setStatus(f, server, unschedulable)
    await run
    expect(log.warnings).toEqual([
      `could not delete the transport pods (-n ${NS} -l ${selector(s)}): delete pods -n ${NS} -l ${selector(s)}: HTTP 500: cannot delete pods`
    ])
    const g = fakeKube()
    const run2 = runTransportCheck({ settings: s, kube: g.kube, facts: factsOf('n1', 'n2') })
    await waitingOn(g, server)
    g.failNext.set('deleteCollectionNamespacedPod', apiError(403, 'Forbidden', 'cannot delete pods'))
    setStatus(g, server, unschedulable)
    await expect(run2).resolves.toBeDefined()
  })
})
