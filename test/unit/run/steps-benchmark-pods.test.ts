// The benchmark step of the flow over a fake client on an in-memory cluster whose kubelet runs
// the perftest pods at once with real perftest output from test/fixtures (the fake as
// test/unit/benchmark/runner.test.ts has it): the outputs (bandwidth, latency) and the report's
// benchmark section, a warning per node left out and for GPUDirect unsupported or host-staged
// (never when it is on or off), and a failed verdict failing the step with the runner's summary.
import { readFileSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { ROLE_LABEL, PHASE_LABEL } from '../../../src/benchmark/perftest-pods.js'
import type { KubeClient } from '../../../src/kube/client.js'
import { KubeRequestError, httpStatusOf, messageOf } from '../../../src/kube/errors.js'
import type { KubeObject } from '../../../src/kube/types.js'
import { setLogBackend, type Log } from '../../../src/log/index.js'
import { emptyReport, type Report } from '../../../src/report/report.js'
import { runBenchmarkStep } from '../../../src/run/benchmark-step.js'
import { StepError } from '../../../src/run/steps.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import type { Settings } from '../../../src/settings/settings.js'
import type { Verification } from '../../../src/verify/index.js'
import type { NodeFacts } from '../../../src/verify/probe-output.js'
import { captureLog, type CapturedLog } from '../../support/capture-log.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'
import { apiError, MemoryCluster } from '../../support/memory-cluster.js'

function settings(over: Record<string, string> = {}): Settings {
  return readSettings(reader({ ...VALID_APPLY, mode: 'verify', ...over })).settings
}

type Output = (pod: KubeObject, role: string, phase: string, index: number) => string

const fixtureText = (name: string): string =>
  readFileSync(new URL(`../../fixtures/${name}`, import.meta.url), 'utf8')
const BW_394 = () =>
  fixtureText('perftest/29-ib_write_bw-results-fragment-32M-gbits-ndr-yandex-doc-indented.txt')
const BW_196 = () => fixtureText('perftest/13-ib_write_bw-all-sizes-gbits-results-only-azure-nd96asr_v4.txt')
const LAT = () => fixtureText('perftest/11-ib_read_lat-client-results-only-azure-nd96asr_v4.txt')
const NOCUDA = () =>
  fixtureText('perftest-refusals/05-ib_write_bw-nocuda-unsupported-memory-type-23.07-and-later.txt')

/** Clients print bandwidth (32 MB, 394.40 Gb/s) or latency; servers nothing the phase reads. */
const goodOutput: Output = (_pod, _role, phase) => (phase.startsWith('lat') ? LAT() : BW_394())
/** perftest without CUDA: every --use_cuda server ends at once with its refusal. */
const noCudaOutput: Output = (pod, role, phase, i) =>
  role === 'server' && pod.spec.containers[0].command[2].includes('--use_cuda')
    ? NOCUDA()
    : goodOutput(pod, role, phase, i)

interface BenchFake {
  kube: KubeClient
  cluster: MemoryCluster
  calls: string[]
  created: KubeObject[]
  maxCreatesInFlight: number
}

function benchKube(
  output: Output = goodOutput,
  o: { nodes?: KubeObject[]; deleteError?: Error } = {}
): BenchFake {
  const cluster = new MemoryCluster()
  for (const n of o.nodes ?? []) cluster.put(n)
  const calls: string[] = []
  const created: KubeObject[] = []
  const logs = new Map<string, string>()
  let pending: Array<{ name: string; namespace: string }> = []
  let inFlight = 0
  const fake = { maxCreatesInFlight: 0 }
  const runKubelet = (): void => {
    const now = pending
    pending = []
    for (const { name, namespace } of now) {
      const pod = cluster.get('v1', 'Pod', name, namespace)
      if (!pod) continue
      const role = pod.metadata.labels?.[ROLE_LABEL] ?? ''
      const phase = pod.metadata.labels?.[PHASE_LABEL] ?? ''
      const script: string = pod.spec.containers[0].command[2]
      const sections = [...script.matchAll(/^echo '(.*)'$/gm)].map(m => {
        const index = Number(/ d(\d+) /.exec(m[1])![1])
        return `${m[1]}\n${output(pod, role, phase, index).replace(/\n$/, '')}\nexit=0`
      })
      const ends = role === 'client' || sections.some(t => t.includes('Unsupported memory type'))
      if (ends) logs.set(name, `${sections.join('\n')}\n`)
      const container = ends
        ? { terminated: { exitCode: 0, reason: 'Completed' } }
        : { running: { startedAt: '2026-01-01T00:00:00Z' } }
      cluster.put({
        ...pod,
        status: {
          phase: ends ? 'Succeeded' : 'Running',
          podIP: `10.244.0.${created.findIndex(p => p.metadata.name === name) + 2}`,
          containerStatuses: [{ name: 'perftest', ready: !ends, state: container }]
        }
      })
    }
  }
  const kube = {
    async request<T>(what: string, fn: () => Promise<T>): Promise<T> {
      try {
        return await fn()
      } catch (e) {
        throw new KubeRequestError(what, httpStatusOf(e), messageOf(e), e)
      }
    },
    async get(ref: { apiVersion: string; kind: string; name: string; namespace?: string }) {
      calls.push(`get ${ref.kind} ${ref.name}`)
      return cluster.get(ref.apiVersion, ref.kind, ref.name, ref.namespace)
    },
    async applyManifest(m: KubeObject, opts: { live?: KubeObject | null }) {
      calls.push(`apply ${m.kind} ${m.metadata.name} live=${opts.live === null ? 'null' : 'object'}`)
      const object = cluster.put(m)
      return { created: true, changed: true, object }
    },
    async list(apiVersion: string, kind: string, opts: { labelSelector?: string; limit?: number }) {
      calls.push(`list ${kind} -l ${opts.labelSelector} limit=${opts.limit}`)
      return { items: cluster.all(apiVersion, kind, opts), resourceVersion: '1' }
    },
    core: {
      createNamespacedPod: async ({ namespace, body }: { namespace: string; body: KubeObject }) => {
        inFlight++
        fake.maxCreatesInFlight = Math.max(fake.maxCreatesInFlight, inFlight)
        await new Promise(r => setImmediate(r))
        inFlight--
        const name = body.metadata.name
        calls.push(`create ${body.metadata.labels?.[PHASE_LABEL]} ${body.metadata.labels?.[ROLE_LABEL]}`)
        if (cluster.get('v1', 'Pod', name, namespace))
          throw apiError(409, 'AlreadyExists', `pods "${name}" already exists`)
        created.push(body)
        pending.push({ name, namespace })
        return cluster.put({ ...body, status: { phase: 'Pending' } })
      },
      deleteCollectionNamespacedPod: async (q: { namespace: string; labelSelector: string }) => {
        calls.push(`delete ${q.namespace} -l ${q.labelSelector}`)
        if (o.deleteError) throw o.deleteError
        for (const p of cluster.all('v1', 'Pod', q)) cluster.remove('v1', 'Pod', p.metadata.name, q.namespace)
        return {}
      }
    },
    async podLog(namespace: string, name: string) {
      return cluster.get('v1', 'Pod', name, namespace) ? (logs.get(name) ?? '') : ''
    },
    watchSource(apiVersion: string, kind: string, opts: { namespace?: string; labelSelector?: string }) {
      const src = cluster.source(apiVersion, kind, opts)
      return {
        ...src,
        watch: async (...args: Parameters<typeof src.watch>) => {
          const h = await src.watch(...args)
          setImmediate(runKubelet)
          return h
        }
      }
    }
  }
  return Object.assign(fake, { kube: kube as unknown as KubeClient, cluster, calls, created })
}

/** Probe facts of a node: `n` active 400 Gb/s devices, NIC i with local GPU `local[i]` (default i). */
function nodeFacts(
  node: string,
  n: number,
  o: { local?: Array<number | null>; gpus?: number; peermem?: boolean | null; error?: string } = {}
): NodeFacts {
  const devices = Array.from({ length: n }, (_, i) => `mlx5_ib${i}`)
  return {
    node,
    ibPorts: [],
    activeDevices: devices,
    rateGbps: Object.fromEntries(devices.map(d => [d, 400])),
    memlock: 'unlimited',
    memlockUnlimited: true,
    peermemLoaded: o.peermem === undefined ? true : o.peermem,
    gpus: Array.from({ length: o.gpus ?? 8 }, (_, i) => ({
      pciAddress: `0000:${(i + 16).toString(16)}:00.0`,
      numaNode: 0,
      upstream: [],
      cudaIndex: i
    })) as unknown as NodeFacts['gpus'],
    nics: devices.map((device, i) => {
      const g = o.local ? o.local[i] : i
      return {
        device,
        pciAddress: '',
        numaNode: 0,
        upstream: ['', ''],
        localGpu: g,
        locality: g === null ? null : 'numa'
      }
    }) as unknown as NodeFacts['nics'],
    error: o.error ?? null,
    ibstatError: null
  }
}
const factsOf = (...f: NodeFacts[]) => new Map(f.map(x => [x.node, x]))

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

describe('runBenchmarkStep with pods', () => {
  it('a pass over GPUDirect: bandwidth and latency in the outputs, the report, no warning', async () => {
    const s = settings()
    const f = benchKube()
    const report: Report = emptyReport('verify')
    await runBenchmarkStep(
      s,
      f.kube,
      verification(factsOf(nodeFacts('node-a', 1), nodeFacts('node-b', 1))),
      report
    )
    expect(report.outputs).toEqual({ 'bandwidth-gbps': '394.40', 'latency-us': '5.49' })
    expect(report.steps).toHaveLength(1)
    expect(report.steps[0]).toMatchObject({
      name: 'benchmark',
      status: 'success',
      changed: false,
      detail: '2 measurement(s) over 1 round(s) passed (≥ 0.9 × 400 Gb/s)'
    })
    expect(report.benchmark).toMatchObject({ scope: 'pair', minBandwidthRatio: 0.9, outliers: [] })
    expect(report.benchmark!.pairs).toHaveLength(2)
    expect(log.warnings).toEqual([])
  })

  it('perftest without CUDA: a warning that GPUDirect is unsupported, the step still passes', async () => {
    const s = settings({ 'benchmark-scope': 'fleet' })
    const f = benchKube(noCudaOutput)
    const report: Report = emptyReport('verify')
    await runBenchmarkStep(s, f.kube, verification(factsOf(nodeFacts('n1', 1), nodeFacts('n2', 1))), report)
    expect(log.warnings[0]).toBe(
      `benchmark: GPUDirect unsupported: perftest in ${s.benchmark.image} has no CUDA support (Unsupported memory type); measured from host memory instead — use an image with a CUDA build of perftest for GPUDirect`
    )
    expect(log.warnings).toHaveLength(1)
    expect(report.steps[0]).toMatchObject({
      name: 'benchmark',
      status: 'success',
      detail: '2 measurement(s) over 1 round(s) passed (≥ 0.9 × 400 Gb/s); GPUDirect unsupported by the image'
    })
  })

  it('host-staged and a node left out: a warning for each, in order', async () => {
    const s = settings()
    const f = benchKube()
    const report: Report = emptyReport('verify')
    await runBenchmarkStep(
      s,
      f.kube,
      verification(
        factsOf(
          nodeFacts('a', 1, { peermem: null }),
          nodeFacts('b', 1, { peermem: false }),
          nodeFacts('d', 1, { error: 'probe pod failed' })
        )
      ),
      report
    )
    expect(log.warnings.slice(0, 2)).toEqual([
      'benchmark: d left out: probe pod failed',
      'benchmark: GPUDirect host-staged: nvidia_peermem not loaded on a, b: GPU buffers were staged through host memory'
    ])
  })

  it('benchmark-gpudirect false: no GPUDirect warning', async () => {
    const s = settings({ 'benchmark-gpudirect': 'false' })
    const report: Report = emptyReport('verify')
    await runBenchmarkStep(
      s,
      benchKube().kube,
      verification(factsOf(nodeFacts('a', 1), nodeFacts('b', 1))),
      report
    )
    expect(log.warnings.filter(w => w.includes('GPUDirect'))).toEqual([])
    expect(report.steps[0].status).toBe('success')
  })

  it('a measurement below the line rate fails the step, with the bandwidth still in the outputs', async () => {
    const s = settings()
    const f = benchKube((_p, _r, phase, i) =>
      phase.startsWith('lat') ? LAT() : i === 1 ? BW_196() : BW_394()
    )
    const report: Report = emptyReport('verify')
    const e = (await runBenchmarkStep(
      s,
      f.kube,
      verification(factsOf(nodeFacts('a', 2), nodeFacts('b', 2))),
      report
    ).catch((x: unknown) => x)) as StepError
    expect(e).toBeInstanceOf(StepError)
    expect(e.step).toBe('benchmark')
    expect(e.message).toBe('benchmark: 1 of 4 measurement(s) failed; outliers: a/mlx5_ib1 ↔ b/mlx5_ib1')
    expect(report.outputs['bandwidth-gbps']).toBe('196.55')
    expect(report.benchmark!.outliers).toEqual(['a/mlx5_ib1 ↔ b/mlx5_ib1'])
    expect(report.steps[0]).toMatchObject({ name: 'benchmark', status: 'failure', detail: e.message })
  })
})
