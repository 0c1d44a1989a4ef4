// CustomResourceDefinitions the simulated charts carry in their crds/ directories (helm installs them
// on first install only, never on upgrade, and skips those already present). Schemas are reduced to
// `type: object` with preserved unknown fields; names, groups, scopes and versions are upstream's.
import type { KubeObj } from './kube-rest.js'

interface CrdSpec {
  group: string
  version: string
  kind: string
  plural: string
  singular: string
  scope: 'Cluster' | 'Namespaced'
  shortNames?: string[]
  status?: boolean
}

function crd(s: CrdSpec): KubeObj {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${s.plural}.${s.group}` },
    spec: {
      group: s.group,
      names: {
        kind: s.kind,
        listKind: `${s.kind}List`,
        plural: s.plural,
        singular: s.singular,
        ...(s.shortNames ? { shortNames: s.shortNames } : {})
      },
      scope: s.scope,
      versions: [
        {
          name: s.version,
          served: true,
          storage: true,
          ...(s.status === false ? {} : { subresources: { status: {} } }),
          additionalPrinterColumns: [
            { jsonPath: '.status.state', name: 'Status', type: 'string' },
            { jsonPath: '.metadata.creationTimestamp', name: 'Age', type: 'date' }
          ],
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } }
        }
      ]
    }
  }
}

const mellanox = (kind: string, plural: string, shortNames?: string[]): KubeObj =>
  crd({
    group: 'mellanox.com',
    version: 'v1alpha1',
    kind,
    plural,
    singular: kind.toLowerCase(),
    scope: 'Cluster',
    shortNames
  })

/** Network Operator's own CRDs (mellanox.com). */
export const NETWORK_OPERATOR_CRDS: KubeObj[] = [
  mellanox('NicClusterPolicy', 'nicclusterpolicies', ['ncp']),
  mellanox('HostDeviceNetwork', 'hostdevicenetworks'),
  mellanox('IPoIBNetwork', 'ipoibnetworks'),
  mellanox('MacvlanNetwork', 'macvlannetworks')
]

/** The node-feature-discovery subchart's CRDs. */
export const NFD_CRDS: KubeObj[] = [
  crd({
    group: 'nfd.k8s-sigs.io',
    version: 'v1alpha1',
    kind: 'NodeFeatureRule',
    plural: 'nodefeaturerules',
    singular: 'nodefeaturerule',
    scope: 'Cluster',
    shortNames: ['nfr'],
    status: false
  }),
  crd({
    group: 'nfd.k8s-sigs.io',
    version: 'v1alpha1',
    kind: 'NodeFeature',
    plural: 'nodefeatures',
    singular: 'nodefeature',
    scope: 'Namespaced',
    status: false
  })
]

/** GPU Operator's CRDs. */
export const GPU_OPERATOR_CRDS: KubeObj[] = [
  crd({
    group: 'nvidia.com',
    version: 'v1',
    kind: 'ClusterPolicy',
    plural: 'clusterpolicies',
    singular: 'clusterpolicy',
    scope: 'Cluster'
  }),
  crd({
    group: 'nvidia.com',
    version: 'v1alpha1',
    kind: 'NVIDIADriver',
    plural: 'nvidiadrivers',
    singular: 'nvidiadriver',
    scope: 'Cluster',
    shortNames: ['nvd', 'nvdriver', 'nvdrivers']
  })
]
