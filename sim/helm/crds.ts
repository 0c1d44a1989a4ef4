// CustomResourceDefinitions the simulated charts carry in their crds/ directories (helm installs them
// on first install only, never on upgrade, and skips those already present). Schemas are reduced to
// `type: object` with preserved unknown fields; names, groups, scopes and versions are upstream's,
// and so is what changes between chart versions: which CRDs a version has (NicNodePolicy from
// network-operator v26.4.0; GPUCluster, ComputeDomain and ComputeDomainClique from gpu-operator
// v26.7.0) and the controller-gen version annotation each version's CRDs carry.
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

function crd(s: CrdSpec, controllerGen?: string): KubeObj {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: {
      name: `${s.plural}.${s.group}`,
      ...(controllerGen ? { annotations: { 'controller-gen.kubebuilder.io/version': controllerGen } } : {})
    },
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

/** `v26.4.0` ≥ [26, 4]. */
function atLeast(version: string, major: number, minor: number): boolean {
  const m = /^v?(\d+)\.(\d+)/.exec(version)
  return !!m && (Number(m[1]) > major || (Number(m[1]) === major && Number(m[2]) >= minor))
}

const mellanox = (kind: string, plural: string, shortNames?: string[]): KubeObj =>
  crd(
    {
      group: 'mellanox.com',
      version: 'v1alpha1',
      kind,
      plural,
      singular: kind.toLowerCase(),
      scope: 'Cluster',
      shortNames
    },
    // Mellanox/network-operator v26.1.0–v26.4.1 deployment/network-operator/crds/*.yaml
    'v0.19.0'
  )

/** Network Operator's own CRDs (mellanox.com), as of v26.1. */
export const NETWORK_OPERATOR_CRDS: KubeObj[] = [
  mellanox('NicClusterPolicy', 'nicclusterpolicies', ['ncp']),
  mellanox('HostDeviceNetwork', 'hostdevicenetworks'),
  mellanox('IPoIBNetwork', 'ipoibnetworks'),
  mellanox('MacvlanNetwork', 'macvlannetworks')
]

/** The Network Operator chart's own CRDs at `version` (NicNodePolicy from v26.4.0). */
export function networkOperatorCrds(version: string): KubeObj[] {
  return atLeast(version, 26, 4)
    ? [...NETWORK_OPERATOR_CRDS, mellanox('NicNodePolicy', 'nicnodepolicies', ['nnp'])]
    : [...NETWORK_OPERATOR_CRDS]
}

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

/** controller-gen's version in the GPU Operator's CRDs (NVIDIA/gpu-operator deployments/gpu-operator/crds). */
function gpuControllerGen(version: string): string {
  return atLeast(version, 26, 7) ? 'v0.21.0' : atLeast(version, 26, 3) ? 'v0.20.1' : 'v0.18.0'
}

/** GPU Operator's CRDs at `version` (GPUCluster and the ComputeDomain kinds from v26.7.0). */
export function gpuOperatorCrds(version: string): KubeObj[] {
  const gen = gpuControllerGen(version)
  const out = [
    crd(
      {
        group: 'nvidia.com',
        version: 'v1',
        kind: 'ClusterPolicy',
        plural: 'clusterpolicies',
        singular: 'clusterpolicy',
        scope: 'Cluster'
      },
      gen
    ),
    crd(
      {
        group: 'nvidia.com',
        version: 'v1alpha1',
        kind: 'NVIDIADriver',
        plural: 'nvidiadrivers',
        singular: 'nvidiadriver',
        scope: 'Cluster',
        shortNames: ['nvd', 'nvdriver', 'nvdrivers']
      },
      gen
    )
  ]
  if (!atLeast(version, 26, 7)) return out
  const resource = (kind: string, plural: string): KubeObj =>
    crd(
      {
        group: 'resource.nvidia.com',
        version: 'v1beta1',
        kind,
        plural,
        singular: kind.toLowerCase(),
        scope: 'Namespaced'
      },
      gen
    )
  return [
    ...out,
    crd(
      {
        group: 'nvidia.com',
        version: 'v1alpha1',
        kind: 'GPUCluster',
        plural: 'gpuclusters',
        singular: 'gpucluster',
        scope: 'Cluster'
      },
      gen
    ),
    resource('ComputeDomain', 'computedomains'),
    resource('ComputeDomainClique', 'computedomaincliques')
  ]
}

/** GPU Operator's CRDs of the versions before v26.7. */
export const GPU_OPERATOR_CRDS: KubeObj[] = gpuOperatorCrds('v26.3.3')
