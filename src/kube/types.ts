// Plain JSON shapes of the Kubernetes objects this action reads (as they come over the wire,
// timestamps as strings), and references to them.

export interface KubeMeta {
  name: string
  namespace?: string
  uid?: string
  resourceVersion?: string
  generation?: number
  creationTimestamp?: string
  labels?: Record<string, string>
  annotations?: Record<string, string>
  ownerReferences?: Array<{
    apiVersion: string
    kind: string
    name: string
    uid: string
    controller?: boolean
  }>
  managedFields?: unknown[]
  [k: string]: unknown
}

export interface KubeObject {
  apiVersion: string
  kind: string
  metadata: KubeMeta
  [k: string]: any
}

export interface KubeRef {
  apiVersion: string
  kind: string
  name: string
  namespace?: string
}

export interface ListOptions {
  namespace?: string
  labelSelector?: string
  fieldSelector?: string
  /** Page size (default 500); the helpers follow `continue` until the end. */
  limit?: number
}

export interface ListResult {
  items: KubeObject[]
  resourceVersion: string
}

export function refOf(o: Pick<KubeObject, 'apiVersion' | 'kind' | 'metadata'>): KubeRef {
  return {
    apiVersion: o.apiVersion,
    kind: o.kind,
    name: o.metadata.name,
    ...(o.metadata.namespace ? { namespace: o.metadata.namespace } : {})
  }
}

export function describeRef(r: KubeRef): string {
  return `${r.kind.toLowerCase()}/${r.name}${r.namespace ? ` -n ${r.namespace}` : ''}`
}

/** A label selector text from a label map: `k=v,k2=v2`. */
export function selectorOf(labels: Record<string, string>): string {
  return Object.entries(labels)
    .map(([k, v]) => `${k}=${v}`)
    .join(',')
}
