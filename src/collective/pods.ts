// The collective check's objects: one pod per node of the scope, the pair's ssh key Secret and the
// topology ConfigMap. Names carry the run's tag. What each holds: docs/collective-check.md.
import { generateKeyPairSync } from 'node:crypto'
import type { KubeObject } from '../kube/types.js'
import { LABELS } from '../model/types.js'
import { runLabel, WORK_LABELS, WORK_NAMESPACE, workLabels } from '../model/work-labels.js'
import { poolTolerations, workloadResources } from '../model/workload.js'
import type { Settings } from '../settings/settings.js'
import { pinToNode } from '../verify/probe.js'
import { dnsName, runOncePodSpec } from '../verify/workspace.js'
import { TOPOLOGY_DIR } from './nccl-env.js'
import { intraOnlyScript, launcherScript, workerScript } from './script.js'

export const COLLECTIVE_COMPONENT = 'nccl-collective'
export const ROLE_LABEL = 'aks-rdma-action/role'
export const NCCL_CONTAINER = 'nccl'

/** launcher and worker: the benchmark's pair; node: any other node of the scope (its own test only). */
export type CollectiveRole = 'launcher' | 'worker' | 'node'

export function collectiveLabels(s: Settings): Record<string, string> {
  return workLabels(s.runId, COLLECTIVE_COMPONENT)
}

const tag = (s: Settings) => runLabel(s.runId).slice(-12)

export function collectivePodName(s: Settings, role: CollectiveRole, index: number): string {
  return dnsName(['nccl', tag(s), role, String(index)])
}

export function sshSecretName(s: Settings): string {
  return dnsName(['nccl', tag(s), 'ssh'])
}

export function topologyConfigMapName(s: Settings): string {
  return dnsName(['nccl', tag(s), 'topology'])
}

/** A fresh ECDSA P-256 key pair: the private key (SEC1 PEM) and its OpenSSH public line. */
export function sshKeyPair(comment: string): { privatePem: string; publicLine: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const jwk = publicKey.export({ format: 'jwk' })
  const point = Buffer.concat([
    Buffer.from([4]),
    Buffer.from(jwk.x!, 'base64url'),
    Buffer.from(jwk.y!, 'base64url')
  ])
  const str = (b: Buffer) => {
    const len = Buffer.alloc(4)
    len.writeUInt32BE(b.length)
    return Buffer.concat([len, b])
  }
  const blob = Buffer.concat([
    str(Buffer.from('ecdsa-sha2-nistp256')),
    str(Buffer.from('nistp256')),
    str(point)
  ])
  return {
    privatePem: privateKey.export({ format: 'pem', type: 'sec1' }).toString(),
    publicLine: `ecdsa-sha2-nistp256 ${blob.toString('base64')} ${comment}`
  }
}

export function sshSecret(
  s: Settings,
  keys: { privatePem: string; publicLine: string },
  namespace = WORK_NAMESPACE
): KubeObject {
  const b64 = (t: string) => Buffer.from(t, 'utf8').toString('base64')
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: sshSecretName(s), namespace, labels: collectiveLabels(s) },
    type: 'Opaque',
    data: {
      id_ecdsa: b64(keys.privatePem),
      'id_ecdsa.pub': b64(`${keys.publicLine}\n`),
      authorized_keys: b64(`${keys.publicLine}\n`)
    }
  }
}

export function topologyConfigMap(
  s: Settings,
  file: { name: string; xml: string },
  namespace = WORK_NAMESPACE
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: topologyConfigMapName(s), namespace, labels: collectiveLabels(s) },
    data: { [file.name]: file.xml }
  }
}

export interface CollectivePodInput {
  settings: Settings
  role: CollectiveRole
  index: number
  node: string
  gpus: number
  env: Record<string, string>
  /** The launcher's worker. */
  workerIp?: string
  /** With the topology ConfigMap mounted at TOPOLOGY_DIR. */
  topology: boolean
  namespace?: string
  deadlineSeconds?: number
}

/**
 * Open MPI refuses root without these (its mpirun, and the singleton all_reduce_perf's MPI_Init
 * starts); Azure/aks-rdma-infiniband's MPIJob sets them on its launcher.
 */
const OMPI_ROOT_ENV = [
  { name: 'OMPI_ALLOW_RUN_AS_ROOT', value: '1' },
  { name: 'OMPI_ALLOW_RUN_AS_ROOT_CONFIRM', value: '1' }
]

const SHM = 'dshm'
const SSH = 'ssh'
const TOPO = 'topology'

export function collectivePod(i: CollectivePodInput): KubeObject {
  const s = i.settings
  if (i.role === 'launcher' && !i.workerIp) throw new Error('a collective launcher needs the worker pod IP')
  const envNames = Object.keys(i.env)
  const script =
    i.role === 'launcher'
      ? launcherScript(i.gpus, i.workerIp!, envNames)
      : i.role === 'worker'
        ? workerScript(i.gpus)
        : intraOnlyScript(i.gpus)
  const resources = workloadResources(s, i.gpus)
  const tolerations = poolTolerations(s)
  const pair = i.role !== 'node'
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: collectivePodName(s, i.role, i.index),
      namespace: i.namespace ?? WORK_NAMESPACE,
      labels: { ...collectiveLabels(s), [ROLE_LABEL]: i.role, [WORK_LABELS.node]: i.node }
    },
    spec: {
      ...runOncePodSpec(i.deadlineSeconds),
      nodeSelector: { [LABELS.agentPool]: s.nodePool.name },
      ...(tolerations.length ? { tolerations } : {}),
      affinity: pinToNode(i.node),
      volumes: [
        { name: SHM, emptyDir: { medium: 'Memory' } },
        ...(pair ? [{ name: SSH, secret: { secretName: sshSecretName(s), defaultMode: 0o400 } }] : []),
        ...(i.topology ? [{ name: TOPO, configMap: { name: topologyConfigMapName(s) } }] : [])
      ],
      containers: [
        {
          name: NCCL_CONTAINER,
          image: s.collective.image,
          command: ['bash', '-c'],
          args: [script],
          env: [
            ...Object.entries(i.env).map(([name, value]) => ({ name, value })),
            ...OMPI_ROOT_ENV,
            { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } }
          ],
          securityContext: { capabilities: { add: ['IPC_LOCK'] } },
          resources: { requests: resources, limits: resources },
          volumeMounts: [
            { name: SHM, mountPath: '/dev/shm' },
            ...(pair ? [{ name: SSH, mountPath: '/root/.ssh', readOnly: true }] : []),
            ...(i.topology ? [{ name: TOPO, mountPath: TOPOLOGY_DIR, readOnly: true }] : [])
          ],
          ...(pair && i.role === 'worker'
            ? { ports: [{ name: 'ssh', containerPort: 2222, protocol: 'TCP' }] }
            : {})
        }
      ]
    }
  }
}
