// The field labels each kind supports in field selectors (kubernetes/kubernetes@v1.33: the
// AddFieldLabelConversionFunc registrations of pkg/apis/core/v1/conversion.go, apps/v1,
// batch/v1, events, and the CRD handler's `metadata.name` / `metadata.namespace`, plus a CRD's
// selectableFields). Anything else is the client's error: 400 "field label not supported: …"
// (a custom resource: `"x" is not a known field selector: only "metadata.name", "metadata.namespace"`).
import { parseFieldSelector } from './selectors.js'
import { StoreError, type ResourceType } from './store.js'
import { typeKey } from './store.js'

const META = ['metadata.name', 'metadata.namespace']

const BY_TYPE: Record<string, string[]> = {
  pods: [
    'spec.nodeName',
    'spec.restartPolicy',
    'spec.schedulerName',
    'spec.serviceAccountName',
    'spec.hostNetwork',
    'status.phase',
    'status.podIP',
    'status.podIPs',
    'status.nominatedNodeName'
  ],
  events: [
    'involvedObject.kind',
    'involvedObject.namespace',
    'involvedObject.name',
    'involvedObject.uid',
    'involvedObject.apiVersion',
    'involvedObject.resourceVersion',
    'involvedObject.fieldPath',
    'reason',
    'reportingComponent',
    'source',
    'type'
  ],
  namespaces: ['status.phase'],
  nodes: ['spec.unschedulable'],
  secrets: ['type'],
  services: ['spec.clusterIP', 'spec.type'],
  'replicasets.apps': ['status.replicas'],
  'jobs.batch': ['status.successful'],
  'certificatesigningrequests.certificates.k8s.io': ['spec.signerName']
}

/** Checks every requirement of a field selector names a label `t` supports (400 otherwise). */
export function checkFieldSelector(
  t: ResourceType,
  selector: string | undefined,
  custom: { selectableFields?: string[] } | undefined
): void {
  for (const r of parseFieldSelector(selector)) {
    if (META.includes(r.path)) continue
    if (custom) {
      const extra = custom.selectableFields ?? []
      if (extra.includes(r.path)) continue
      const allowed = [...META, ...extra].map(f => JSON.stringify(f)).join(', ')
      throw new StoreError(400, 'BadRequest', `"${r.path}" is not a known field selector: only ${allowed}`)
    }
    if (!(BY_TYPE[typeKey(t)] ?? []).includes(r.path))
      throw new StoreError(400, 'BadRequest', `field label not supported: ${r.path}`)
  }
}
