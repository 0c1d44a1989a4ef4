// Unit-test helper: the ownership record (src/stack/ownership.ts) over a MemoryCluster — the
// ConfigMap calls the record makes (create, replace, delete with a resourceVersion precondition),
// answered by the cluster's store as the API server answers them, and a way to seed it with
// entries for what a test says the action created.
import type { KubeClient } from '../../src/kube/client.js'
import type { KubeObject, KubeRef } from '../../src/kube/types.js'
import {
  HELM_RELEASE_KIND,
  OWNERSHIP_RECORD,
  RECORD_KEY,
  type OwnedEntry
} from '../../src/stack/ownership.js'
import { MemoryCluster } from './memory-cluster.js'

type Body = {
  apiVersion?: string
  kind?: string
  metadata: { name: string; resourceVersion?: string }
  data?: Record<string, string>
}

/**
 * The CoreV1Api ConfigMap calls of the record, answered by the cluster's store; `onCall` hears each
 * write, `sent` each body as the client sent it.
 */
export function memoryConfigMapApi(
  cluster: MemoryCluster,
  onCall: (op: string) => void = () => undefined,
  sent: Body[] = []
) {
  const configMap = (body: Body) => ({ ...body, apiVersion: 'v1', kind: 'ConfigMap' }) as KubeObject
  return {
    async createNamespacedConfigMap({ namespace, body }: { namespace: string; body: Body }) {
      onCall('create record')
      sent.push(body)
      return cluster.create(configMap(body), namespace)
    },
    async replaceNamespacedConfigMap(a: { name: string; namespace: string; body: Body }) {
      onCall('update record')
      sent.push(a.body)
      return cluster.replace(
        configMap({ ...a.body, metadata: { ...a.body.metadata, name: a.name } }),
        a.namespace
      )
    },
    async deleteNamespacedConfigMap(a: {
      name: string
      namespace: string
      body?: { preconditions?: { resourceVersion?: string } }
    }) {
      onCall('delete record')
      cluster.delete('v1', 'ConfigMap', a.name, a.namespace, { preconditions: a.body?.preconditions })
      return { kind: 'Status', status: 'Success' }
    }
  }
}

/**
 * A KubeClient with what the record reads and writes (request, get, the ConfigMap calls) over a new
 * cluster; `calls` hears each write, `beforeReplace` runs before each replace (another writer).
 */
export function memoryRecordClient(beforeReplace: () => void = () => undefined) {
  const cluster = new MemoryCluster()
  const calls: string[] = []
  const sent: Body[] = []
  const api = memoryConfigMapApi(cluster, op => calls.push(op), sent)
  const client = {
    request: (_what: string, fn: () => Promise<unknown>) => fn(),
    get: async (ref: KubeRef) => cluster.get(ref.apiVersion, ref.kind, ref.name, ref.namespace),
    core: {
      ...api,
      replaceNamespacedConfigMap: async (a: Parameters<typeof api.replaceNamespacedConfigMap>[0]) => {
        beforeReplace()
        return api.replaceNamespacedConfigMap(a)
      }
    }
  } as unknown as KubeClient
  return { cluster, calls, sent, client }
}

/** A release as the record names it. */
export interface RecordedRelease {
  release: string
  namespace: string
  chart: string
  firstDeployed: string
}

/** Writes the record naming `owned` (objects with their stored uid, releases with their first deployment). */
export function seedRecord(
  cluster: MemoryCluster,
  owned: Array<KubeObject | RecordedRelease>,
  runId = 'run-0'
): KubeObject {
  const entries: OwnedEntry[] = owned.map(o =>
    'release' in o
      ? {
          ...HELM_RELEASE_KIND,
          namespace: o.namespace,
          name: o.release,
          chart: o.chart,
          firstDeployed: o.firstDeployed,
          runId,
          at: '2026-01-01T00:00:00.000Z',
          state: 'created'
        }
      : {
          apiVersion: o.apiVersion,
          kind: o.kind,
          ...(o.metadata.namespace ? { namespace: o.metadata.namespace } : {}),
          name: o.metadata.name,
          uid: o.metadata.uid,
          runId,
          at: '2026-01-01T00:00:00.000Z',
          state: 'created'
        }
  )
  return cluster.put({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { ...OWNERSHIP_RECORD },
    data: { [RECORD_KEY]: JSON.stringify(entries) }
  })
}

/** The record's entries as stored now (undefined: no record). */
export function recordedEntries(cluster: MemoryCluster): OwnedEntry[] | undefined {
  const cm = cluster.get('v1', 'ConfigMap', OWNERSHIP_RECORD.name, OWNERSHIP_RECORD.namespace)
  return cm ? (JSON.parse(cm.data?.[RECORD_KEY] ?? '[]') as OwnedEntry[]) : undefined
}
