// The transport check's two pods: the Dynamo worker snippet as it is, plus only what a check adds (name,
// labels, node affinity, a deadline, the check's script). Docs: docs/transport-check.md.
import { dynamoWorkerScript, dynamoWorkerSnippet, gpuNicMapValue } from './dynamo-worker.js'
import { UCX_PERFTEST_PORT } from './plan.js'
import type { KubeObject } from '../kube/types.js'
import type { Settings } from '../settings/settings.js'
import type { NodeFacts } from '../verify/probe-output.js'
import { pinToNode } from '../verify/probe.js'
import { runLabel, WORK_LABELS, WORK_NAMESPACE, workLabels } from '../model/work-labels.js'
import { dnsName, runOncePodSpec } from '../verify/workspace.js'
import { clientScript, serverScript } from './script.js'

export const TRANSPORT_COMPONENT = 'dynamo-transport'
export const ROLE_LABEL = 'aks-rdma-action/role'

export type Role = 'server' | 'client'

export function transportLabels(s: Settings): Record<string, string> {
  return workLabels(s.runId, TRANSPORT_COMPONENT)
}

/** The node's GPU→NIC map as the snippet carries it: each GPU with the active IB NIC local to it. */
export function gpuNicMapOf(f: NodeFacts): string {
  const pairs: Array<{ gpuPciAddress: string; device: string }> = []
  for (const n of f.nics) {
    if (n.localGpu === null || !f.activeDevices.includes(n.device)) continue
    const gpu = f.gpus.find(g => g.cudaIndex === n.localGpu)
    if (gpu) pairs.push({ gpuPciAddress: gpu.pciAddress, device: n.device })
  }
  return gpuNicMapValue(pairs)
}

export function transportPodName(s: Settings, role: Role): string {
  return dnsName(['ucx', runLabel(s.runId).slice(-12), role])
}

export interface TransportPodInput {
  settings: Settings
  role: Role
  node: string
  /** The node's GPU→NIC map (gpuNicMapOf). */
  gpuNicMap: string
  /** The client's server. */
  serverIp?: string
  namespace?: string
  deadlineSeconds?: number
}

export function transportPod(i: TransportPodInput): KubeObject {
  const s = i.settings
  const snippet = dynamoWorkerSnippet(s, { gpuNicMap: i.gpuNicMap }) as {
    nodeSelector: Record<string, string>
    tolerations?: unknown[]
    volumes: unknown[]
    containers: Array<Record<string, unknown>>
  }
  if (i.role === 'client' && !i.serverIp) throw new Error('a transport client needs the server pod IP')
  const script = i.role === 'server' ? serverScript() : clientScript(i.serverIp!)
  const container = {
    ...snippet.containers[0],
    args: [dynamoWorkerScript(s, script)],
    ...(i.role === 'server'
      ? { ports: [{ name: 'ucx-perftest', containerPort: UCX_PERFTEST_PORT, protocol: 'TCP' }] }
      : {})
  }
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: transportPodName(s, i.role),
      namespace: i.namespace ?? WORK_NAMESPACE,
      labels: { ...transportLabels(s), [ROLE_LABEL]: i.role, [WORK_LABELS.node]: i.node }
    },
    spec: {
      ...runOncePodSpec(i.deadlineSeconds),
      nodeSelector: snippet.nodeSelector,
      ...(snippet.tolerations ? { tolerations: snippet.tolerations } : {}),
      affinity: pinToNode(i.node),
      volumes: snippet.volumes,
      containers: [container]
    }
  }
}
