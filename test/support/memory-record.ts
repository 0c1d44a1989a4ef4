// Unit-test helper: the ownership record (src/stack/ownership.ts) over a MemoryCluster — the
// ConfigMap calls the record makes (create: 409 when it exists; replace: 409 unless the
// resourceVersion is the live one; delete with a resourceVersion precondition), and a way to seed
// it with entries for what a test says the action created.
import type { KubeObject } from '../../src/kube/types.js'
import {
  HELM_RELEASE_KIND,
  OWNERSHIP_RECORD,
  RECORD_KEY,
  type OwnedEntry
} from '../../src/stack/ownership.js'
import { apiError, type MemoryCluster } from './memory-cluster.js'

type Body = { metadata: { name: string; resourceVersion?: string }; data?: Record<string, string> }

/** The CoreV1Api ConfigMap calls of the record; `onCall` hears each write. */
export function memoryConfigMapApi(cluster: MemoryCluster, onCall: (op: string) => void = () => undefined) {
  const live = (name: string, namespace: string) => cluster.get('v1', 'ConfigMap', name, namespace)
  return {
    async createNamespacedConfigMap({ namespace, body }: { namespace: string; body: Body }) {
      onCall('create record')
      if (live(body.metadata.name, namespace))
        throw apiError(409, 'AlreadyExists', `configmaps "${body.metadata.name}" already exists`)
      return cluster.put({ ...(body as KubeObject), metadata: { ...body.metadata, namespace } })
    },
    async replaceNamespacedConfigMap({
      name,
      namespace,
      body
    }: {
      name: string
      namespace: string
      body: Body
    }) {
      onCall('update record')
      const l = live(name, namespace)
      if (!l) throw apiError(404, 'NotFound', `configmaps "${name}" not found`)
      if (body.metadata.resourceVersion !== l.metadata.resourceVersion)
        throw apiError(
          409,
          'Conflict',
          'the object has been modified; please apply your changes to the latest version'
        )
      return cluster.put({
        ...(body as KubeObject),
        metadata: { ...l.metadata, ...body.metadata, namespace }
      })
    },
    async deleteNamespacedConfigMap({
      name,
      namespace,
      body
    }: {
      name: string
      namespace: string
      body?: { preconditions?: { resourceVersion?: string } }
    }) {
      onCall('delete record')
      const l = live(name, namespace)
      if (!l) throw apiError(404, 'NotFound', `configmaps "${name}" not found`)
      const rv = body?.preconditions?.resourceVersion
      if (rv && rv !== l.metadata.resourceVersion)
        throw apiError(409, 'Conflict', 'Precondition failed: ResourceVersion')
      cluster.remove('v1', 'ConfigMap', name, namespace)
      return { kind: 'Status', status: 'Success' }
    }
  }
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
