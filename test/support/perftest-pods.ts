// Unit-test helper: the benchmark's perftest pods as a kubelet runs them, over memory-kube. A pod's
// log is what its script (src/benchmark/perftest-pods.ts) prints: each device's section mark, the
// perftest output, `exit=<code>`; the outputs are real perftest texts from test/fixtures. The
// kubelet of `perftestKube` runs every pod at once: servers run, clients (and a server whose
// perftest refused --use_cuda: `Unsupported memory type`) succeed and leave their log.
import { readFileSync } from 'node:fs'
import { PHASE_LABEL, ROLE_LABEL } from '../../src/benchmark/perftest-pods.js'
import type { PairSpec } from '../../src/benchmark/perftest-pods.js'
import { readSettings } from '../../src/settings/input-helper.js'
import type { Settings } from '../../src/settings/settings.js'
import { reader, VALID_APPLY } from './inputs.js'
import type { KubeObject } from '../../src/kube/types.js'
import { memoryKube, type MemoryKube } from './memory-kube.js'

/** A verify run's settings (what runs the benchmark), with `over` for its inputs. */
export const benchSettings = (over: Record<string, string> = {}): Settings =>
  readSettings(reader({ ...VALID_APPLY, mode: 'verify', ...over })).settings

/** `n` NIC names, mlx5_ib0 on. */
export const nicNames = (n: number): string[] => Array.from({ length: n }, (_, i) => `mlx5_ib${i}`)

/**
 * A pair of 8-GPU nodes with `n` NICs each, NIC i on port 18515+i; with `cuda`, NIC i's local GPU is
 * CUDA device 7 - i on the server and i on the client (any mapping the probe finds).
 */
export const perftestPair = (
  id: string,
  server: string,
  client: string,
  n: number,
  cuda = false
): PairSpec => ({
  id,
  server,
  client,
  devices: nicNames(n).map((d, i) => ({
    index: i,
    serverDevice: d,
    clientDevice: d,
    port: 18515 + i,
    ...(cuda ? { cuda: { server: 7 - i, client: i } } : {})
  })),
  gpus: { server: 8, client: 8 }
})

/** ib_write_lat's argv on mlx5_ib0, port 18515, as the benchmark runs it, up to its last word (the server's address). */
export const writeLatencyArgv = (): string[] => [
  'ib_write_lat',
  '-d',
  'mlx5_ib0',
  '-p',
  '18515',
  '-s',
  '2',
  '-n',
  '1000',
  '-F'
]

export const fixtureText = (name: string): string =>
  readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8')
/** ib_write_bw at 32 MB, 394.40 Gb/s. */
export const BW_394 = () =>
  fixtureText('perftest/29-ib_write_bw-results-fragment-32M-gbits-ndr-yandex-doc-indented.txt')
/** ib_write_bw over all sizes, 196.55 Gb/s at the largest. */
export const BW_196 = () =>
  fixtureText('perftest/13-ib_write_bw-all-sizes-gbits-results-only-azure-nd96asr_v4.txt')
/** ib_read_lat's client results. */
export const LAT = () => fixtureText('perftest/11-ib_read_lat-client-results-only-azure-nd96asr_v4.txt')
/** perftest built without CUDA refusing --use_cuda. */
export const NOCUDA = () =>
  fixtureText('perftest-refusals/05-ib_write_bw-nocuda-unsupported-memory-type-23.07-and-later.txt')

/** The pod's one container's script. */
export const scriptOf = (p: KubeObject): string => p.spec.containers[0].command[2]

/** The container log the pod's script would print: each device's section mark, then `body(index)` (none when undefined). */
export function perftestLog(pod: KubeObject, body: (index: number) => string | undefined, exit = 0): string {
  const out: string[] = []
  for (const m of scriptOf(pod).matchAll(/^echo '(.*)'$/gm)) {
    const index = Number(/ d(\d+) /.exec(m[1])![1])
    const text = body(index)
    if (text === undefined) continue
    out.push(m[1], text.replace(/\n$/, ''), `exit=${exit}`)
  }
  return out.join('\n') + '\n'
}

/** A device's perftest output by the pod, its role and phase labels, and the device index. */
export type Output = (pod: KubeObject, role: string, phase: string, index: number) => string

/** Clients print bandwidth (32 MB, 394.40 Gb/s) or latency; servers nothing the phase reads. */
export const goodOutput: Output = (_pod, _role, phase) => (phase.startsWith('lat') ? LAT() : BW_394())
/** perftest without CUDA: every --use_cuda server ends at once with its refusal. */
export const noCudaOutput: Output = (pod, role, phase, i) =>
  role === 'server' && scriptOf(pod).includes('--use_cuda') ? NOCUDA() : goodOutput(pod, role, phase, i)

/**
 * memory-kube with the runner's words for calls (`get Kind name`, `apply Kind name live=…`,
 * `list Kind -l … limit=…`, `create <phase> <role>`, `delete <ns> -l …`; logs unrecorded), pod
 * creates taking a turn (maxInFlight), `nodes` in the cluster, every pod delete failing with
 * `deleteError`, and a kubelet running each pod with `output`. Pod IPs are
 * 10.244.0.<2 + the pod's place among those created>.
 */
export function perftestKube(
  output: Output = goodOutput,
  o: { nodes?: KubeObject[]; deleteError?: Error } = {}
): MemoryKube {
  const f: MemoryKube = memoryKube({
    objects: o.nodes,
    slow: true,
    say: {
      get: ref => `get ${ref.kind} ${ref.name}`,
      apply: (m, opts) => `apply ${m.kind} ${m.metadata.name} live=${opts.live === null ? 'null' : 'object'}`,
      list: (_v, kind, opts) => `list ${kind} -l ${opts.labelSelector} limit=${opts.limit}`,
      watch: () => undefined,
      createPod: (_ns, body) =>
        `create ${body.metadata.labels?.[PHASE_LABEL]} ${body.metadata.labels?.[ROLE_LABEL]}`,
      deletePods: q => `delete ${q.namespace} -l ${q.labelSelector}`,
      podLog: () => undefined
    },
    kubelet: pod => {
      const role = pod.metadata.labels?.[ROLE_LABEL] ?? ''
      const phase = pod.metadata.labels?.[PHASE_LABEL] ?? ''
      const log = perftestLog(pod, index => output(pod, role, phase, index))
      const ends = role === 'client' || log.includes('Unsupported memory type')
      const container = ends
        ? { terminated: { exitCode: 0, reason: 'Completed' } }
        : { running: { startedAt: '2026-01-01T00:00:00Z' } }
      return {
        ...(ends ? { log } : {}),
        status: {
          phase: ends ? 'Succeeded' : 'Running',
          podIP: `10.244.0.${f.created.findIndex(p => p.metadata.name === pod.metadata.name) + 2}`,
          containerStatuses: [{ name: 'perftest', ready: !ends, state: container }]
        }
      }
    }
  })
  if (o.deleteError) f.failAlways.set('deleteCollectionNamespacedPod', o.deleteError)
  return f
}
