// The perftest pods of one node pair in one phase: a server pod on the server node and a client
// pod on the client node, each with one container per IB device pair (device i on port 18515+i,
// so all NICs run at once and each has its own log). Containers request rdma/<resource>: 1 and,
// for GPUDirect, nvidia.com/gpu: 1 with --use_cuda=0 (the container's one GPU). Pods are pinned
// to their node by required node affinity and kept apart by required pod anti-affinity; the
// client retries the connection every 2 s while its server starts (bounded). Resources and
// tolerations come from the workload snippet users get (model/workload.ts), so every benchmark
// proves that snippet works.
import { benchmarkPlan } from '../model/benchmark-plan.js'
import { poolTolerations, workloadResources } from '../model/workload.js'
import type { KubeObject } from '../kube/types.js'
import type { Settings } from '../settings/settings.js'
import { pinToNode } from '../verify/probe.js'
import { APP_NAME, dnsName, runLabel, WORK_LABELS, WORK_NAMESPACE } from '../verify/workspace.js'
import type { DevicePair } from './pairing.js'

export const BENCHMARK_COMPONENT = 'rdma-benchmark'
export const PHASE_LABEL = 'aks-rdma-action/phase'
export const PAIR_LABEL = 'aks-rdma-action/pair'
export const ROLE_LABEL = 'aks-rdma-action/role'

/** Client connection attempts (2 s apart) before it gives up on its server. */
export const CLIENT_CONNECT_ATTEMPTS = 15

export type PerftestTest = 'ib_write_bw' | 'ib_write_lat'
export type Role = 'server' | 'client'

export interface PairSpec {
  /** Stable id of the pair within the phase, e.g. `p3`. */
  id: string
  server: string
  client: string
  devices: DevicePair[]
}

export interface PhaseSpec {
  /** Label value naming the phase, e.g. `bw-r1` or `bw-r1-host`. */
  name: string
  test: PerftestTest
  round: number
  useCuda: boolean
  /** GPUs a node has (containers beyond it get no GPU and run from host memory); null = unknown. */
  gpusPerNode: number | null
}

export function benchmarkLabels(s: Settings): Record<string, string> {
  return {
    [WORK_LABELS.name]: APP_NAME,
    [WORK_LABELS.component]: BENCHMARK_COMPONENT,
    [WORK_LABELS.run]: runLabel(s.runId)
  }
}

/** The container name of device pair i (`d0`, `d1`, …). */
export function containerName(index: number): string {
  return `d${index}`
}

/** perftest argv of one side: the model's benchmark plan with device, port, CUDA and server IP filled in. */
export function perftestArgv(
  s: Settings,
  test: PerftestTest,
  role: Role,
  device: string,
  port: number,
  cuda: boolean,
  serverIp?: string
): string[] {
  const plan = benchmarkPlan(s).tests.find(t => t.tool === test)
  if (!plan) throw new Error(`no benchmark plan for ${test}`)
  const template = role === 'server' ? plan.serverArgs : plan.clientArgs
  const out: string[] = [test]
  for (const a of template) {
    if (a.startsWith('--use_cuda')) continue
    if (a === '<device>') out.push(device)
    else if (a === '<port>') out.push(String(port))
    else if (a === '<server-pod-ip>') continue
    else out.push(a)
  }
  if (cuda) out.push('--use_cuda=0')
  if (role === 'client') {
    if (!serverIp) throw new Error('a perftest client needs the server pod IP')
    out.push(serverIp)
  }
  return out
}

function shellQuote(a: string): string {
  return /^[A-Za-z0-9_./=:,@%+-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`
}

/** The client's script: run perftest until it connects (the server may still be starting), bounded. */
export function clientScript(argv: string[], attempts = CLIENT_CONNECT_ATTEMPTS): string {
  const cmd = argv.map(shellQuote).join(' ')
  const tries = Array.from({ length: attempts }, (_, k) => k + 1).join(' ')
  return `for attempt in ${tries}; do ${cmd} && exit 0; sleep 2; done; exit 1`
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
  /** Device pairs to run (a retried client may run only some). */
  devices: DevicePair[]
  serverIp?: string
  attempt?: number
  namespace?: string
  /** Upper bound of the pod's life (seconds). */
  deadlineSeconds?: number
}

export function perftestPod(i: PerftestPodInput): KubeObject {
  const s = i.settings
  const node = i.role === 'server' ? i.pair.server : i.pair.client
  const pairLabels = { [PHASE_LABEL]: i.phase.name, [PAIR_LABEL]: i.pair.id }
  const containers = i.devices.map(d => {
    const device = i.role === 'server' ? d.serverDevice : d.clientDevice
    const cuda = i.phase.useCuda && (i.phase.gpusPerNode === null || d.index < i.phase.gpusPerNode)
    const argv = perftestArgv(s, i.phase.test, i.role, device, d.port, cuda, i.serverIp)
    const limits = workloadResources(s, cuda ? 1 : 0)
    return {
      name: containerName(d.index),
      image: s.benchmark.image,
      ...(i.role === 'server' ? { command: argv } : { command: ['sh', '-c', clientScript(argv)] }),
      ...(i.role === 'server'
        ? { ports: [{ name: `perftest-${d.index}`, containerPort: d.port, protocol: 'TCP' }] }
        : {}),
      resources: { requests: limits, limits }
    }
  })
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: podName(s, i.phase, i.pair, i.role, i.attempt ?? 1),
      namespace: i.namespace ?? WORK_NAMESPACE,
      labels: { ...benchmarkLabels(s), ...pairLabels, [ROLE_LABEL]: i.role, [WORK_LABELS.node]: node }
    },
    spec: {
      restartPolicy: 'Never',
      automountServiceAccountToken: false,
      terminationGracePeriodSeconds: 1,
      activeDeadlineSeconds: i.deadlineSeconds ?? 1800,
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
      containers
    }
  }
}
