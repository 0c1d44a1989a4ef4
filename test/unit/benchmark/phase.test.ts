// One benchmark phase against an in-memory cluster: server pods first, clients once each server runs
// (with its pod IP), one log read per client split into device sections and parsed into
// measurements (real perftest output from test/fixtures), and every way a pod can fail its devices
// (not created, unschedulable, not started or finished in time, gone, a server that ended at once
// with a refusal — CUDA rejection stops the phase), the concurrency limit, the progress lines, and
// the phase's pods deleted by label whatever happened.
import { jest } from '@jest/globals'
import type { KubeObject } from '../../../src/kube/types.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import type { Settings } from '../../../src/settings/settings.js'
import { runPhase, type PhaseContext } from '../../../src/benchmark/phase.js'
import type { PhaseSpec } from '../../../src/benchmark/perftest-pods.js'
import { apiError } from '../../support/memory-cluster.js'
import { memoryKube, unschedulableStatus, type MemoryKube } from '../../support/memory-kube.js'
import {
  BW_196,
  BW_394,
  fixtureText,
  LAT as LAT_OUTPUT,
  perftestLog,
  perftestPair,
  scriptOf
} from '../../support/perftest-pods.js'
import { captureLog } from '../../support/capture-log.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'
import { runLabel } from '../../../src/verify/workspace.js'

const fixture = fixtureText

type Status = Record<string, unknown>
/** What the fake kubelet does with a pod once the phase watches: a status, removal, or nothing. */
type Kubelet = (pod: KubeObject) => Status | 'remove' | undefined

const SERVER_IP = '10.244.1.7'
/** A scheduled pod's status with its one perftest container (ready or not) in `state`. */
const scheduled = (phase: string, ip: string, ready: boolean, state: object): Status => ({
  phase,
  podIP: ip,
  conditions: [{ type: 'PodScheduled', status: 'True' }],
  containerStatuses: [{ name: 'perftest', ready, restartCount: 0, state }]
})
const running = (ip = SERVER_IP): Status =>
  scheduled('Running', ip, true, { running: { startedAt: '2026-01-01T00:00:00Z' } })
const succeeded = (ip = '10.244.2.9'): Status =>
  scheduled('Succeeded', ip, false, { terminated: { exitCode: 0, reason: 'Completed' } })
const UNSCHEDULABLE =
  "0/4 nodes are available: 2 Insufficient rdma/hca_shared_devices_a, 2 node(s) didn't match Pod's node affinity/selector.\npreemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling."
const unschedulable: Status = unschedulableStatus(UNSCHEDULABLE)

const role = (p: KubeObject): string => p.metadata.labels?.['aks-rdma-action/role'] ?? ''
const logOf = perftestLog

type Fake = MemoryKube

/**
 * memory-kube with runPhase's words for its calls, pod creates and log reads taking a turn
 * (maxInFlight); once a watch on them is open, `kubelet` gives each pod its status, and a pod that
 * ended its log (`o.log`, '' without).
 */
function fakeKube(
  kubelet: Kubelet,
  o: {
    log?: (pod: KubeObject) => string
    createError?: (pod: KubeObject) => Error | undefined
    deleteError?: Error
    listError?: Error
  } = {}
): Fake {
  const f = memoryKube({
    slow: true,
    createError: o.createError,
    say: {
      createPod: (ns, body) => `create ${ns}/${body.metadata.name}`,
      deletePods: q =>
        `delete ${q.namespace} -l ${q.labelSelector} grace=${q.gracePeriodSeconds} ${q.propagationPolicy}`,
      podLog: (ns, name, opts) => `log ${ns}/${name} -c ${opts.container} --tail ${opts.tailLines}`,
      watch: (apiVersion, kind, opts) =>
        `watch ${apiVersion} ${kind} ${opts.namespace} -l ${opts.labelSelector}`
    },
    kubelet: pod => {
      const out = kubelet(pod)
      if (out === 'remove' || !out) return out
      const ended = out.phase === 'Succeeded' || out.phase === 'Failed'
      return { status: out, ...(ended ? { log: o.log?.(pod) ?? '' } : {}) }
    }
  })
  if (o.deleteError) f.failAlways.set('deleteCollectionNamespacedPod', o.deleteError)
  if (o.listError) f.failAlways.set('watchList', o.listError)
  return f
}

const pairOf = perftestPair
const BW: PhaseSpec = { name: 'bw-r1', test: 'ib_write_bw', round: 1, useCuda: true }
const LAT: PhaseSpec = { name: 'lat-r1', test: 'ib_write_lat', round: 1, useCuda: false }

let s: Settings
let SELECTOR: string
beforeAll(() => {
  s = readSettings(reader({ ...VALID_APPLY, mode: 'verify' }), { GITHUB_RUN_ID: '42' }).settings
  SELECTOR = `app.kubernetes.io/name=aks-rdma-action,app.kubernetes.io/component=rdma-benchmark,aks-rdma-action/run=${runLabel(s.runId)}`
})

function ctx(f: Fake, over: Partial<PhaseContext> = {}): PhaseContext {
  return {
    kube: f.kube,
    settings: s,
    namespace: 'bench',
    timeoutMs: 2000,
    concurrency: 16,
    linkGbps: (_p, d) => (d.index === 0 ? 400 : null),
    ...over
  }
}

/** Servers run, clients finish; client logs per test from `body`. */
const healthy =
  (client: Status = succeeded()): Kubelet =>
  p =>
    role(p) === 'server' ? running() : client

/** perftest fixtures 29 (bandwidth, 394.40 Gb/s), 13 (bandwidth, 196.55 Gb/s), 11 (latency). */
const [BW_29, BW_13, LAT_11] = [BW_394, BW_196, LAT_OUTPUT]

/** One device's measurement between node-a and node-b, with what it measured. */
const measured = (device: string, test: string, over: Record<string, unknown>) => ({
  server: 'node-a',
  client: 'node-b',
  device,
  test,
  ...over
})

describe('runPhase: a phase that runs', () => {
  it('starts servers, then clients at the server pod IP, measures every device section, and deletes its pods', async () => {
    const f = fakeKube(healthy(), { log: p => logOf(p, i => (i === 0 ? BW_29() : BW_13())) })
    const log = captureLog()
    const progress: string[] = []
    log.progress = (key, m) => progress.push(`${key}: ${m}`)
    const out = await runPhase(ctx(f, { log }), BW, [pairOf('p1', 'node-a', 'node-b', 2, true)])
    expect(out.podsCreated).toBe(2)
    expect(out.cudaUnsupported).toBeUndefined()
    expect(out.measurements).toEqual([
      measured('mlx5_ib0', 'ib_write_bw', {
        cuda: { server: 7, client: 0 },
        linkGbps: 400,
        bwAvgGbps: 394.4,
        bwPeakGbps: 394.58,
        bidirectional: false
      }),
      measured('mlx5_ib1', 'ib_write_bw', {
        cuda: { server: 6, client: 1 },
        linkGbps: null,
        bwAvgGbps: 196.55,
        bwPeakGbps: 196.56,
        bidirectional: false
      })
    ])
    const [server, client] = f.created
    expect(server.metadata.name).toMatch(/-bw-r1-p1-s$/)
    expect(client.metadata.name).toMatch(/-bw-r1-p1-c1$/)
    expect(server.metadata.namespace).toBe('bench')
    // 45 s is below the one-minute floor of the pods' deadline.
    expect(server.spec.activeDeadlineSeconds).toBe(60)
    expect(scriptOf(server)).not.toContain(SERVER_IP)
    expect(scriptOf(client)).toContain(`--use_cuda=0 ${SERVER_IP} >`)
    expect(scriptOf(client)).toContain(`--use_cuda=1 ${SERVER_IP} >`)
    const selector = `${SELECTOR},aks-rdma-action/phase=bw-r1`
    expect(f.calls).toEqual([
      `create bench/${server.metadata.name}`,
      `watch v1 Pod bench -l ${selector}`,
      `create bench/${client.metadata.name}`,
      `watch v1 Pod bench -l ${selector}`,
      `log bench/${client.metadata.name} -c perftest --tail 20000`,
      `delete bench -l ${selector} grace=0 Background`
    ])
    expect(f.cluster.all('v1', 'Pod')).toEqual([])
    expect(f.cluster.openWatches).toBe(0)
    expect(progress).toEqual([
      'benchmark bw-r1 perftest servers started: 0/1 bw-r1 perftest servers started',
      'benchmark bw-r1 perftest servers started: 1/1 bw-r1 perftest servers started',
      // Each wait ends its live line (an empty line) when it is over, before the next starts.
      'benchmark bw-r1 perftest servers started: ',
      'benchmark bw-r1 perftest clients finished: 0/1 bw-r1 perftest clients finished',
      'benchmark bw-r1 perftest clients finished: 1/1 bw-r1 perftest clients finished',
      'benchmark bw-r1 perftest clients finished: '
    ])
    expect(log.warnings).toEqual([])
  })

  it('measures latency from its headline row, from host memory, in the work namespace by default', async () => {
    const f = fakeKube(healthy(), { log: p => logOf(p, () => LAT_11()) })
    const c = ctx(f, { timeoutMs: 45_000 })
    delete c.namespace
    const pair = pairOf('p2', 'node-c', 'node-d', 1, true)
    const out = await runPhase(c, LAT, [pair])
    expect(out.measurements).toEqual([
      {
        server: 'node-c',
        client: 'node-d',
        device: 'mlx5_ib0',
        test: 'ib_write_lat',
        cuda: null,
        linkGbps: 400,
        bwAvgGbps: null,
        bwPeakGbps: null,
        tMinUs: 5.35,
        tTypicalUs: 5.49,
        tAvgUs: 5.5,
        p99Us: 5.74,
        p999Us: 11.78
      }
    ])
    expect(f.created.map(p => p.metadata.namespace)).toEqual(['aks-rdma-verify', 'aks-rdma-verify'])
    expect(f.created[0].spec.activeDeadlineSeconds).toBe(90)
    expect(f.calls[1]).toMatch(/^watch v1 Pod aks-rdma-verify -l .*aks-rdma-action\/phase=lat-r1$/)
    expect(f.calls.at(-1)).toMatch(
      /^delete aks-rdma-verify -l .*,aks-rdma-action\/phase=lat-r1 grace=0 Background$/
    )
    expect(scriptOf(f.created[1])).not.toContain('use_cuda')
  })

  it('a latency section without result rows gives null figures and perftest’s error', async () => {
    const header = LAT_11().split('\n').slice(0, 2).join('\n')
    const f = fakeKube(healthy(), { log: p => logOf(p, () => header) })
    const out = await runPhase(ctx(f), LAT, [pairOf('p1', 'node-a', 'node-b', 1)])
    expect(out.measurements).toEqual([
      measured('mlx5_ib0', 'ib_write_lat', {
        cuda: null,
        linkGbps: 400,
        bwAvgGbps: null,
        bwPeakGbps: null,
        error: 'no-results: perftest printed a results header but no result rows'
      })
    ])
  })

  it('a client section with perftest’s failure becomes an error measurement; a missing section names the device', async () => {
    const refusal = fixture('perftest-refusals/07-ib_write_bw-duplicated-argument-23.04-and-later.txt')
    const f = fakeKube(healthy(), { log: p => logOf(p, i => (i === 0 ? refusal : undefined)) })
    const out = await runPhase(ctx(f), { ...BW, useCuda: false }, [pairOf('p1', 'node-a', 'node-b', 2, true)])
    expect(out.measurements).toEqual([
      measured('mlx5_ib0', 'ib_write_bw', {
        cuda: null,
        linkGbps: 400,
        bwAvgGbps: null,
        bwPeakGbps: null,
        error: 'refused -s: Duplicated argument: -s'
      }),
      measured('mlx5_ib1', 'ib_write_bw', {
        cuda: null,
        bwAvgGbps: null,
        bwPeakGbps: null,
        linkGbps: null,
        error:
          "no output for mlx5_ib1 in the client's log (Succeeded; container perftest terminated: exit 0 (Completed))"
      })
    ])
  })

  it('a bandwidth section without rows has no figures', async () => {
    const header = BW_29().split('\n').slice(0, 2).join('\n')
    const f = fakeKube(healthy(), { log: p => logOf(p, () => header) })
    const out = await runPhase(ctx(f), BW, [pairOf('p1', 'node-a', 'node-b', 1)])
    expect(out.measurements).toEqual([
      expect.objectContaining({
        cuda: null,
        bwAvgGbps: null,
        bwPeakGbps: null,
        error: 'no-results: perftest printed a results header but no result rows'
      })
    ])
  })

  it('keeps the concurrency limit for pod creations and log reads', async () => {
    const pairs = [pairOf('p1', 'n1', 'n2', 1), pairOf('p2', 'n3', 'n4', 1), pairOf('p3', 'n5', 'n6', 1)]
    const one = fakeKube(healthy(), { log: p => logOf(p, () => BW_29()) })
    const out1 = await runPhase(ctx(one, { concurrency: 1 }), BW, pairs)
    expect(one.maxInFlight).toEqual({ create: 1, log: 1 })
    expect(out1.measurements.map(m => [m.server, m.bwAvgGbps])).toEqual([
      ['n1', 394.4],
      ['n3', 394.4],
      ['n5', 394.4]
    ])
    expect(out1.podsCreated).toBe(6)
    const two = fakeKube(healthy(), { log: p => logOf(p, () => BW_29()) })
    await runPhase(ctx(two, { concurrency: 2 }), BW, pairs)
    expect(two.maxInFlight).toEqual({ create: 2, log: 2 })
  })

  it('waits for its own pods only: a settled pod of the phase left from before does not count', async () => {
    let kubelet = 0
    const f = fakeKube(
      p => {
        kubelet++
        return role(p) === 'server' ? running() : succeeded()
      },
      { log: p => logOf(p, () => BW_29()) }
    )
    // A pod of an earlier attempt with the phase's labels that already finished.
    const labels = {
      'app.kubernetes.io/name': 'aks-rdma-action',
      'app.kubernetes.io/component': 'rdma-benchmark',
      'aks-rdma-action/run': runLabel(s.runId),
      'aks-rdma-action/phase': 'bw-r1'
    }
    f.cluster.put({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'old', namespace: 'bench', labels },
      spec: { containers: [{ name: 'perftest' }] },
      status: succeeded()
    })
    const out = await runPhase(ctx(f), BW, [pairOf('p1', 'node-a', 'node-b', 1)])
    expect(kubelet).toBe(2)
    expect(out.measurements).toEqual([
      measured('mlx5_ib0', 'ib_write_bw', {
        cuda: null,
        linkGbps: 400,
        bwAvgGbps: 394.4,
        bwPeakGbps: 394.58,
        bidirectional: false
      })
    ])
    expect(f.cluster.all('v1', 'Pod')).toEqual([])
  })
})

describe('runPhase: servers that do not run', () => {
  it('a server whose perftest refuses --use_cuda stops the phase with perftest’s message, no client started', async () => {
    const nocuda = fixture(
      'perftest-refusals/05-ib_write_bw-nocuda-unsupported-memory-type-23.07-and-later.txt'
    )
    const older = fixture('perftest-refusals/06-ib_write_bw-nocuda-unrecognized-option-before-23.07.txt')
    const f = fakeKube(() => succeeded(), { log: p => logOf(p, i => (i === 0 ? nocuda : older)) })
    const out = await runPhase(ctx(f), BW, [pairOf('p1', 'node-a', 'node-b', 2, true)])
    expect(out).toEqual({ measurements: [], cudaUnsupported: 'Unsupported memory type', podsCreated: 1 })
    expect(f.created.map(role)).toEqual(['server'])
    expect(f.calls.filter(c => c.startsWith('log '))).toEqual([
      `log bench/${f.created[0].metadata.name} -c perftest --tail 20000`
    ])
    expect(f.calls.at(-1)).toMatch(/^delete bench -l .*phase=bw-r1 grace=0 Background$/)
    expect(f.cluster.all('v1', 'Pod')).toEqual([])
  })

  it('without --use_cuda a CUDA refusal is the device’s failure; other refusals and a clean exit too', async () => {
    const nocuda = fixture(
      'perftest-refusals/05-ib_write_bw-nocuda-unsupported-memory-type-23.07-and-later.txt'
    )
    const port = fixture('perftest-refusals/10-ib_write_bw-port-not-an-integer.txt')
    const server = fixture('perftest/04-ib_write_bw-cuda-dmabuf-roce-server-q16-D60.txt')
    const f = fakeKube(() => succeeded(), {
      log: p => logOf(p, i => [nocuda, port, server][i])
    })
    const out = await runPhase(ctx(f), { ...BW, useCuda: false }, [pairOf('p1', 'node-a', 'node-b', 4)])
    expect(out.cudaUnsupported).toBeUndefined()
    expect(out.podsCreated).toBe(1)
    expect(out.measurements.map(m => [m.device, m.error])).toEqual([
      ['mlx5_ib0', 'server refused --use_cuda: Unsupported memory type'],
      ['mlx5_ib1', 'server refused -p: Port argument 18515x should be int'],
      ['mlx5_ib2', 'server exited (Succeeded; container perftest terminated: exit 0 (Completed))'],
      ['mlx5_ib3', 'server no-output: perftest printed nothing']
    ])
    expect(out.measurements[0]).toEqual(
      measured('mlx5_ib0', 'ib_write_bw', {
        cuda: null,
        bwAvgGbps: null,
        bwPeakGbps: null,
        linkGbps: 400,
        error: 'server refused --use_cuda: Unsupported memory type'
      })
    )
  })

  it('a --use_cuda server that ended with results is not a CUDA rejection: it fails its device', async () => {
    const server = fixture('perftest/04-ib_write_bw-cuda-dmabuf-roce-server-q16-D60.txt')
    const f = fakeKube(() => succeeded(), { log: p => logOf(p, () => server) })
    const out = await runPhase(ctx(f), BW, [pairOf('p1', 'node-a', 'node-b', 1, true)])
    expect(out).toEqual({
      measurements: [
        measured('mlx5_ib0', 'ib_write_bw', {
          cuda: { server: 7, client: 0 },
          bwAvgGbps: null,
          bwPeakGbps: null,
          linkGbps: 400,
          error: 'server exited (Succeeded; container perftest terminated: exit 0 (Completed))'
        })
      ],
      podsCreated: 1
    })
  })

  it('a server that cannot be scheduled fails its devices with the scheduler’s message on one line', async () => {
    const f = fakeKube(
      p =>
        role(p) === 'client'
          ? succeeded()
          : p.metadata.labels?.['aks-rdma-action/pair'] === 'p1'
            ? unschedulable
            : running(),
      {
        log: p => logOf(p, () => BW_29())
      }
    )
    const out = await runPhase(ctx(f), BW, [pairOf('p1', 'a', 'b', 2), pairOf('p2', 'c', 'd', 1)])
    const msg = `server pod unschedulable: ${UNSCHEDULABLE.replace('\n', ' ')}`
    expect(out.measurements.map(m => [m.server, m.device, m.error ?? m.bwAvgGbps])).toEqual([
      ['a', 'mlx5_ib0', msg],
      ['a', 'mlx5_ib1', msg],
      ['c', 'mlx5_ib0', 394.4]
    ])
    expect(f.created.map(p => `${p.metadata.labels?.['aks-rdma-action/pair']} ${role(p)}`)).toEqual([
      'p1 server',
      'p2 server',
      'p2 client'
    ])
  })

  it('a server pod that does not start in time fails its devices with what the pod shows', async () => {
    const notRunning: Status[] = [
      { phase: 'Pending' },
      // IP but no container status yet
      { phase: 'Pending', podIP: SERVER_IP },
      // container started but no IP yet
      { ...running(), podIP: undefined },
      {
        phase: 'Pending',
        podIP: SERVER_IP,
        containerStatuses: [
          { name: 'perftest', ready: false, state: { waiting: { reason: 'ContainerCreating' } } }
        ]
      }
    ]
    const f = fakeKube(p => notRunning[Number(p.metadata.labels?.['aks-rdma-action/pair'].slice(1))])
    const pairs = [0, 1, 2, 3].map(i => pairOf(`p${i}`, `s${i}`, `c${i}`, 1))
    const out = await runPhase(ctx(f, { timeoutMs: 30 }), BW, pairs)
    expect(out.measurements.map(m => [m.server, m.error])).toEqual([
      ['s0', 'server pod did not start within 0s (Pending)'],
      ['s1', 'server pod did not start within 0s (Pending)'],
      ['s2', 'server pod did not start within 0s (Running)'],
      ['s3', 'server pod did not start within 0s (Pending; container perftest waiting: ContainerCreating)']
    ])
    expect(f.created.map(role)).toEqual(['server', 'server', 'server', 'server'])
    expect(f.cluster.all('v1', 'Pod')).toEqual([])
  })

  it('a server pod gone before it started is reported without a pod state', async () => {
    const f = fakeKube(() => 'remove')
    const out = await runPhase(ctx(f, { timeoutMs: 20 }), BW, [pairOf('p1', 'a', 'b', 1)])
    expect(out.measurements.map(m => m.error)).toEqual(['server pod did not start within 0s'])
  })

  it('the time limit is given in whole seconds', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] })
    try {
      const f = fakeKube(() => undefined)
      const done = runPhase(ctx(f, { timeoutMs: 45_400 }), BW, [pairOf('p1', 'a', 'b', 1)])
      while (f.cluster.openWatches === 0) await new Promise(r => setImmediate(r))
      expect(f.created[0].spec.activeDeadlineSeconds).toBe(91)
      await jest.advanceTimersByTimeAsync(45_399)
      expect(f.cluster.openWatches).toBe(1)
      await jest.advanceTimersByTimeAsync(1)
      const out = await done
      expect(out.measurements.map(m => m.error)).toEqual(['server pod did not start within 45s (Pending)'])
    } finally {
      jest.useRealTimers()
    }
  })

  it('a pod the API refuses fails its devices with the request’s error; the phase goes on', async () => {
    const f = fakeKube(healthy(), {
      log: p => logOf(p, () => BW_29()),
      createError: p =>
        p.metadata.labels?.['aks-rdma-action/pair'] === 'p1'
          ? apiError(403, 'Forbidden', 'pods is forbidden: exceeded quota: pods,\nrequested: pods=1')
          : undefined
    })
    const out = await runPhase(ctx(f), BW, [pairOf('p1', 'a', 'b', 1), pairOf('p2', 'c', 'd', 1)])
    expect(out.podsCreated).toBe(3)
    expect(out.measurements.map(m => [m.server, m.error ?? m.bwAvgGbps])).toEqual([
      [
        'a',
        expect.stringMatching(
          /^server pod not created: create pod \S+-bw-r1-p1-s -n bench: HTTP 403: pods is forbidden: exceeded quota: pods, requested: pods=1/
        )
      ],
      ['c', 394.4]
    ])
  })

  it('a pod name that already exists is refused with 409', async () => {
    const f = fakeKube(healthy())
    const probe = fakeKube(() => undefined)
    await runPhase(ctx(probe, { timeoutMs: 5 }), BW, [pairOf('p1', 'a', 'b', 1)])
    const name = probe.created[0].metadata.name
    f.cluster.put({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'bench' } })
    const out = await runPhase(ctx(f), BW, [pairOf('p1', 'a', 'b', 1)])
    expect(out.measurements.map(m => m.error)).toEqual([
      `server pod not created: create pod ${name} -n bench: HTTP 409: pods "${name}" already exists`
    ])
    expect(out.podsCreated).toBe(1)
  })
})

describe('runPhase: clients that do not finish', () => {
  it('a client that cannot be scheduled, or is still running at the limit, fails its devices', async () => {
    const f = fakeKube(p =>
      role(p) === 'server'
        ? running()
        : p.metadata.labels?.['aks-rdma-action/pair'] === 'p1'
          ? unschedulable
          : running('10.244.3.3')
    )
    const out = await runPhase(ctx(f, { timeoutMs: 30 }), BW, [
      pairOf('p1', 'a', 'b', 1),
      pairOf('p2', 'c', 'd', 1)
    ])
    expect(out.measurements.map(m => [m.server, m.error])).toEqual([
      ['a', `client pod unschedulable: ${UNSCHEDULABLE.replace('\n', ' ')}`],
      ['c', 'client did not finish within 0s (Running)']
    ])
    expect(f.calls.filter(c => c.startsWith('log '))).toEqual([])
  })

  it('a client that failed is still read: its sections say why', async () => {
    const connect = fixture('perftest-refusals/13-ib_write_bw-two-operands.txt')
    const failed: Status = {
      phase: 'Failed',
      containerStatuses: [
        { name: 'perftest', ready: false, state: { terminated: { exitCode: 1, reason: 'Error' } } }
      ]
    }
    const f = fakeKube(p => (role(p) === 'server' ? running() : failed), {
      log: p => logOf(p, () => connect)
    })
    const out = await runPhase(ctx(f), BW, [pairOf('p1', 'a', 'b', 1)])
    expect(out.measurements.map(m => m.error)).toEqual([
      'refused the server address (one operand only): Invalid Command line. Please check command rerun'
    ])
  })
})

describe('runPhase: errors and cleanup', () => {
  it('a watch that cannot list is the phase’s error; the pods are still deleted', async () => {
    const f = fakeKube(healthy(), { listError: new Error('connection refused') })
    await expect(runPhase(ctx(f), BW, [pairOf('p1', 'a', 'b', 1)])).rejects.toThrow('connection refused')
    expect(f.calls.at(-1)).toMatch(/^delete bench -l .*phase=bw-r1 grace=0 Background$/)
    expect(f.cluster.all('v1', 'Pod')).toEqual([])
  })

  it('a failed cleanup without a log is ignored', async () => {
    const f = fakeKube(healthy(), {
      log: p => logOf(p, () => BW_29()),
      deleteError: apiError(500, 'InternalError', 'etcdserver: request timed out')
    })
    const out = await runPhase(ctx(f), BW, [pairOf('p1', 'a', 'b', 1)])
    expect(out.measurements.map(m => m.bwAvgGbps)).toEqual([394.4])
  })

  it('a failed cleanup is a warning, not the phase’s failure', async () => {
    const f = fakeKube(healthy(), {
      log: p => logOf(p, () => BW_29()),
      deleteError: apiError(500, 'InternalError', 'etcdserver: request timed out')
    })
    const log = captureLog()
    const out = await runPhase(ctx(f, { log }), BW, [pairOf('p1', 'a', 'b', 1)])
    expect(out.measurements).toHaveLength(1)
    expect(log.warnings).toEqual([
      expect.stringMatching(
        /^could not delete the bw-r1 perftest pods: delete pods -n bench -l \S+phase=bw-r1: HTTP 500: etcdserver: request timed out$/
      )
    ])
  })
})
