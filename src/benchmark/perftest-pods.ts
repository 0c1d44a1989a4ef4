// The server and client pods of one node pair in one phase, one container running a perftest per NIC.
// Resources and tolerations come from the workload snippet (model/workload.ts). See docs/benchmark.md.
import { benchmarkPlan, type PlannedTest } from './plan.js'
import { poolTolerations, workloadResources } from '../model/workload.js'
import type { KubeObject } from '../kube/types.js'
import type { Settings } from '../settings/settings.js'
import { pinToNode } from '../verify/probe.js'
import { runLabel, WORK_LABELS, WORK_NAMESPACE, workLabels } from '../model/work-labels.js'
import { dnsName, runOncePodSpec } from '../verify/workspace.js'
import type { DevicePair } from './pairing.js'

export const BENCHMARK_COMPONENT = 'rdma-benchmark'
export const PHASE_LABEL = 'aks-rdma-action/phase'
export const PAIR_LABEL = 'aks-rdma-action/pair'
export const ROLE_LABEL = 'aks-rdma-action/role'
/** The one container of a benchmark pod. */
export const PERFTEST_CONTAINER = 'perftest'

/** Client connection attempts (2 s apart) before it gives up on its server. */
export const CLIENT_CONNECT_ATTEMPTS = 15

/** The line that starts device i's section of a benchmark container's log. */
export const SECTION_MARK = '@@@ aks-rdma-action perftest'

export type PerftestTest = 'ib_write_bw' | 'ib_write_lat'
export type Role = 'server' | 'client'

/** A device pair of a node pair, with the CUDA devices (NIC-local GPUs) it uses for GPUDirect. */
export interface PairDevice extends DevicePair {
  cuda?: { server: number; client: number }
}

export interface PairSpec {
  /** Stable id of the pair within the phase, e.g. `p3`. */
  id: string
  server: string
  client: string
  devices: PairDevice[]
  /** GPUs each side's container holds (all of its node's) when a device uses GPU memory. */
  gpus: { server: number; client: number }
}

export interface PhaseSpec {
  /** Label value naming the phase, e.g. `bw-r1` or `bw-r1-host`. */
  name: string
  test: PerftestTest
  round: number
  /** GPU memory (--use_cuda) where a device has its NIC-local GPUs; host memory otherwise (always for latency). */
  useCuda: boolean
}

export function benchmarkLabels(s: Settings): Record<string, string> {
  return workLabels(s.runId, BENCHMARK_COMPONENT)
}

/** The CUDA device a side of a device pair uses in this phase, if it uses GPU memory. */
export function cudaOf(phase: PhaseSpec, d: PairDevice, role: Role): number | undefined {
  return phase.useCuda && d.cuda ? d.cuda[role] : undefined
}

/** The test's plan: its argv templates and whether it registers GPU memory. */
export function plannedTest(s: Settings, test: PerftestTest): PlannedTest {
  const plan = benchmarkPlan(s).tests.find(t => t.tool === test)
  if (!plan) throw new Error(`no benchmark plan for ${test}`)
  return plan
}

/**
 * perftest argv of one side: the model's benchmark plan with device, port, CUDA device and server
 * IP filled in. Without a CUDA device the plan's --use_cuda is left out (host memory); a CUDA
 * device for a test the plan measures from host memory is a bug.
 */
export function perftestArgv(
  s: Settings,
  test: PerftestTest,
  role: Role,
  device: string,
  port: number,
  cuda: number | undefined,
  serverIp?: string
): string[] {
  const plan = plannedTest(s, test)
  if (cuda !== undefined && !plan.gpuMemory)
    throw new Error(`${test} measures from host memory, not a CUDA device`)
  const template = role === 'server' ? plan.serverArgs : plan.clientArgs
  const out: string[] = [test]
  for (const a of template) {
    if (a === '--use_cuda_dmabuf') {
      if (cuda !== undefined) out.push(a)
    } else if (a.startsWith('--use_cuda')) {
      if (cuda !== undefined) out.push(`--use_cuda=${cuda}`)
    } else if (a === '<device>') out.push(device)
    else if (a === '<port>') out.push(String(port))
    else if (a === '<server-pod-ip>') {
      if (!serverIp) throw new Error('a perftest client needs the server pod IP')
      out.push(serverIp)
    } else out.push(a)
  }
  return out
}
/** Words that may go into the scripts unquoted (device names, numbers, IPs, flags). */
const SAFE_WORD = /^[A-Za-z0-9_./=:,@%+-]+$/

function word(a: string): string {
  if (!SAFE_WORD.test(a)) throw new Error(`unsafe word in a perftest command: ${JSON.stringify(a)}`)
  return a
}

/** Device i's output file inside the container. */
export function outputFile(index: number): string {
  return `/tmp/aks-rdma-perftest-d${index}.log`
}

export interface SideRun {
  index: number
  device: string
  argv: string[]
}

/**
 * The container's script: every device's perftest at once in the background, each into its own
 * file ending with `exit=<code>` (a client retries until its server answers, bounded), then, once
 * all have ended, each file after its section mark.
 */
export function sideScript(role: Role, runs: SideRun[], attempts = CLIENT_CONNECT_ATTEMPTS): string {
  const lines: string[] = []
  for (const r of runs) {
    const cmd = r.argv.map(word).join(' ')
    const f = outputFile(r.index)
    const tries = Array.from({ length: attempts }, (_, k) => k + 1).join(' ')
    const inner =
      role === 'server'
        ? `${cmd} > ${f} 2>&1; echo "exit=$?" >> ${f}`
        : `for attempt in ${tries}; do if ${cmd} > ${f} 2>&1; then echo exit=0 >> ${f}; exit 0; fi; sleep 2; done; echo exit=1 >> ${f}; exit 1`
    lines.push(`sh -c '${inner}' &`)
  }
  lines.push('wait')
  for (const r of runs)
    lines.push(`echo '${SECTION_MARK} d${r.index} ${word(r.device)}'`, `cat ${outputFile(r.index)}`)
  return lines.join('\n')
}

export interface DeviceSection {
  /** The device's perftest output. */
  text: string
  /** Its exit code (the client's after its last attempt); null when the section has none. */
  exitCode: number | null
}

/** Splits a benchmark container's log into its devices' sections (by device pair index). */
export function splitSections(log: string): Map<number, DeviceSection> {
  const out = new Map<number, DeviceSection>()
  let cur: { index: number; lines: string[] } | undefined
  const close = () => {
    if (!cur) return
    const exit = [...cur.lines].reverse().find(l => /^exit=\d+$/.test(l.trim()))
    const lines = cur.lines.filter(l => !/^exit=\d+$/.test(l.trim()))
    while (lines.length && !lines[lines.length - 1].trim()) lines.pop()
    out.set(cur.index, {
      text: lines.join('\n'),
      exitCode: exit ? Number(exit.trim().slice(5)) : null
    })
  }
  for (const line of log.replace(/\r\n?/g, '\n').split('\n')) {
    const m = line.startsWith(SECTION_MARK) ? /^ d(\d+)\b/.exec(line.slice(SECTION_MARK.length)) : null
    if (m) {
      close()
      cur = { index: Number(m[1]), lines: [] }
    } else cur?.lines.push(line)
  }
  close()
  return out
}

function podName(s: Settings, phase: PhaseSpec, pair: PairSpec, role: Role, attempt: number): string {
  return dnsName([
    'perftest',
    runLabel(s.runId).slice(-8),
    phase.name,
    pair.id,
    role === 'server' ? 's' : `c${attempt}`
  ])
}

export interface PerftestPodInput {
  settings: Settings
  phase: PhaseSpec
  pair: PairSpec
  role: Role
  /** Device pairs to run (a client may run only those whose server started). */
  devices: PairDevice[]
  serverIp?: string
  attempt?: number
  namespace?: string
  /** Upper bound of the pod's life (seconds). */
  deadlineSeconds?: number
}

/** Pinned to its node by required node affinity and kept apart from the other side by required pod anti-affinity. */
export function perftestPod(i: PerftestPodInput): KubeObject {
  const s = i.settings
  const node = i.role === 'server' ? i.pair.server : i.pair.client
  const pairLabels = { [PHASE_LABEL]: i.phase.name, [PAIR_LABEL]: i.pair.id }
  const runs: SideRun[] = i.devices.map(d => {
    const device = i.role === 'server' ? d.serverDevice : d.clientDevice
    return {
      index: d.index,
      device,
      argv: perftestArgv(s, i.phase.test, i.role, device, d.port, cudaOf(i.phase, d, i.role), i.serverIp)
    }
  })
  const cuda = i.devices.some(d => cudaOf(i.phase, d, i.role) !== undefined)
  const resources = workloadResources(s, cuda ? i.pair.gpus[i.role] : 0)
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: podName(s, i.phase, i.pair, i.role, i.attempt ?? 1),
      namespace: i.namespace ?? WORK_NAMESPACE,
      labels: { ...benchmarkLabels(s), ...pairLabels, [ROLE_LABEL]: i.role, [WORK_LABELS.node]: node }
    },
    spec: {
      ...runOncePodSpec(i.deadlineSeconds),
      tolerations: poolTolerations(s),
      affinity: {
        ...pinToNode(node),
        podAntiAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            {
              labelSelector: { matchLabels: { ...benchmarkLabels(s), ...pairLabels } },
              topologyKey: 'kubernetes.io/hostname'
            }
          ]
        }
      },
      containers: [
        {
          name: PERFTEST_CONTAINER,
          image: s.benchmark.image,
          command: ['sh', '-c', sideScript(i.role, runs)],
          ...(cuda ? { env: [{ name: 'CUDA_DEVICE_ORDER', value: 'PCI_BUS_ID' }] } : {}),
          ...(i.role === 'server'
            ? {
                ports: i.devices.map(d => ({
                  name: `perftest-${d.index}`,
                  containerPort: d.port,
                  protocol: 'TCP'
                }))
              }
            : {}),
          resources: { requests: resources, limits: resources }
        }
      ]
    }
  }
}
