// The built-in kinds kube-apiserver 1.33 serves beyond the core set of resources.ts: policy,
// autoscaling/v2, networking, storage, discovery, events.k8s.io, admissionregistration,
// certificates, flowcontrol, batch CronJobs and the remaining core kinds, with the names, short
// names, scopes and subresources of kubernetes/kubernetes@v1.33.2 pkg/registry/*/rest/storage_*.go
// (see sim/README.md, "Kubernetes API server", for which have a controller behind them).
import type { ResourceType } from './store.js'

const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']

function t(
  group: string,
  plural: string,
  kind: string,
  namespaced: boolean,
  extra: { shortNames?: string[]; subresources?: string[]; version?: string; verbs?: string[] } = {}
): ResourceType {
  return {
    group,
    version: extra.version ?? 'v1',
    plural,
    singular: kind.toLowerCase(),
    kind,
    namespaced,
    verbs: extra.verbs ?? ALL_VERBS,
    ...(extra.shortNames ? { shortNames: extra.shortNames } : {}),
    ...(extra.subresources ? { subresources: extra.subresources } : {})
  }
}

const STATUS = ['status']

export const SERVED_KINDS: ResourceType[] = [
  // core
  t('', 'persistentvolumes', 'PersistentVolume', false, { shortNames: ['pv'], subresources: STATUS }),
  t('', 'resourcequotas', 'ResourceQuota', true, { shortNames: ['quota'], subresources: STATUS }),
  t('', 'limitranges', 'LimitRange', true, { shortNames: ['limits'] }),
  t('', 'replicationcontrollers', 'ReplicationController', true, {
    shortNames: ['rc'],
    subresources: ['status', 'scale']
  }),
  t('', 'podtemplates', 'PodTemplate', true),
  // policy, autoscaling, batch
  t('policy', 'poddisruptionbudgets', 'PodDisruptionBudget', true, {
    shortNames: ['pdb'],
    subresources: STATUS
  }),
  t('autoscaling', 'horizontalpodautoscalers', 'HorizontalPodAutoscaler', true, {
    version: 'v2',
    shortNames: ['hpa'],
    subresources: STATUS
  }),
  t('batch', 'cronjobs', 'CronJob', true, { shortNames: ['cj'], subresources: STATUS }),
  // networking.k8s.io
  t('networking.k8s.io', 'networkpolicies', 'NetworkPolicy', true, { shortNames: ['netpol'] }),
  t('networking.k8s.io', 'ingresses', 'Ingress', true, { shortNames: ['ing'], subresources: STATUS }),
  t('networking.k8s.io', 'ingressclasses', 'IngressClass', false),
  // storage.k8s.io
  t('storage.k8s.io', 'storageclasses', 'StorageClass', false, { shortNames: ['sc'] }),
  t('storage.k8s.io', 'csidrivers', 'CSIDriver', false),
  t('storage.k8s.io', 'csinodes', 'CSINode', false),
  t('storage.k8s.io', 'csistoragecapacities', 'CSIStorageCapacity', true),
  t('storage.k8s.io', 'volumeattachments', 'VolumeAttachment', false, { subresources: STATUS }),
  // discovery, events
  t('discovery.k8s.io', 'endpointslices', 'EndpointSlice', true),
  t('events.k8s.io', 'events', 'Event', true, { shortNames: ['ev'] }),
  // admissionregistration.k8s.io
  t('admissionregistration.k8s.io', 'mutatingwebhookconfigurations', 'MutatingWebhookConfiguration', false),
  t(
    'admissionregistration.k8s.io',
    'validatingwebhookconfigurations',
    'ValidatingWebhookConfiguration',
    false
  ),
  t('admissionregistration.k8s.io', 'validatingadmissionpolicies', 'ValidatingAdmissionPolicy', false, {
    subresources: STATUS
  }),
  t(
    'admissionregistration.k8s.io',
    'validatingadmissionpolicybindings',
    'ValidatingAdmissionPolicyBinding',
    false
  ),
  // certificates.k8s.io
  t('certificates.k8s.io', 'certificatesigningrequests', 'CertificateSigningRequest', false, {
    shortNames: ['csr'],
    subresources: ['status', 'approval']
  }),
  // flowcontrol.apiserver.k8s.io
  t('flowcontrol.apiserver.k8s.io', 'flowschemas', 'FlowSchema', false, { subresources: STATUS }),
  t('flowcontrol.apiserver.k8s.io', 'prioritylevelconfigurations', 'PriorityLevelConfiguration', false, {
    subresources: STATUS
  }),
  // authentication.k8s.io: answered, never stored
  t('authentication.k8s.io', 'tokenreviews', 'TokenReview', false, { verbs: ['create'] })
]
