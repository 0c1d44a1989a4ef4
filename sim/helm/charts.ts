// The simulated `nvidia` chart repository: which charts and versions it serves, their metadata and
// their default values (a trimmed copy of the upstream values.yaml of network-operator v26.1.0 –
// v26.4.1 and gpu-operator v26.3.3 / v26.7.0, with per-version image tags; see notes per version).
import type { Values } from './values.js'

export const NVIDIA_REPO_URL = 'https://helm.ngc.nvidia.com/nvidia'

export interface ChartVersion {
  version: string
  appVersion: string
  /** Publication date the simulated index reports. */
  created: string
}

export interface ChartInfo {
  name: string
  description: string
  home: string
  kubeVersion: string
  versions: ChartVersion[]
  defaults(version: string): Values
}

/** gpu-operator component defaults that change between chart versions. */
interface GpuComponentVersions {
  driver: string
  toolkit: string
  devicePlugin: string
}

// v26.3.3 and v26.7.0 are the upstream charts' values (test/fixtures/upstream/gpu-operator-v26.7.0-values.yaml
// for the latter); v25.10.1 is simulated.
const GPU_COMPONENTS: Record<string, GpuComponentVersions> = {
  'v25.10.1': { driver: '580.95.05', toolkit: 'v1.18.1', devicePlugin: 'v0.18.1' },
  'v26.3.3': { driver: '580.126.20', toolkit: 'v1.19.1', devicePlugin: 'v0.19.3' },
  'v26.7.0': { driver: '595.91.07', toolkit: 'v1.20.0', devicePlugin: 'v0.20.0' }
}

const tolerateGpu = { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }
const tolerateControlPlaneEqual = {
  key: 'node-role.kubernetes.io/control-plane',
  operator: 'Equal',
  value: '',
  effect: 'NoSchedule'
}

function networkOperatorDefaults(version: string): Values {
  return {
    nfd: { enabled: true, deployNodeFeatureRules: true },
    upgradeCRDs: true,
    sriovNetworkOperator: { enabled: false },
    maintenanceOperator: { enabled: false },
    'node-feature-discovery': {
      enableNodeFeatureApi: true,
      featureGates: { NodeFeatureAPI: true },
      postDeleteCleanup: false,
      image: {
        repository: 'nvcr.io/nvidia/mellanox/node-feature-discovery',
        tag: `network-operator-${version}`,
        pullPolicy: 'IfNotPresent'
      },
      master: {
        serviceAccount: { name: 'node-feature-discovery', create: true },
        config: { extraLabelNs: ['nvidia.com'] }
      },
      gc: {
        enable: true,
        replicaCount: 1,
        serviceAccount: { name: 'node-feature-discovery', create: false }
      },
      worker: {
        serviceAccount: { name: 'node-feature-discovery', create: false },
        tolerations: [
          { key: 'node-role.kubernetes.io/master', operator: 'Exists', effect: 'NoSchedule' },
          { key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' },
          tolerateGpu
        ],
        config: {
          sources: { pci: { deviceClassWhitelist: ['0300', '0302'], deviceLabelFields: ['vendor'] } }
        }
      }
    },
    operator: {
      resources: { limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '5m', memory: '64Mi' } },
      tolerations: [
        { key: 'node-role.kubernetes.io/master', operator: 'Equal', value: '', effect: 'NoSchedule' },
        tolerateControlPlaneEqual
      ],
      nodeSelector: {},
      repository: 'nvcr.io/nvidia/cloud-native',
      image: 'network-operator',
      nameOverride: '',
      fullnameOverride: '',
      cniBinDirectory: '/opt/cni/bin',
      cniNetworkDirectory: '/etc/cni/net.d',
      useDTK: true,
      admissionController: { enabled: false, useCertManager: true },
      ofedDriver: {
        initContainer: {
          enable: true,
          repository: 'nvcr.io/nvidia/mellanox',
          image: 'network-operator-init-container',
          version: `network-operator-${version}`
        }
      }
    },
    imagePullSecrets: []
  }
}

const image = (repository: string, img: string, version: string, extra: Values = {}): Values => ({
  repository,
  image: img,
  version,
  imagePullPolicy: 'IfNotPresent',
  imagePullSecrets: [],
  env: [],
  resources: {},
  ...extra
})

function gpuOperatorDefaults(version: string): Values {
  const c = GPU_COMPONENTS[version] ?? GPU_COMPONENTS['v26.7.0']
  return {
    platform: { openshift: false },
    nfd: { enabled: true, nodefeaturerules: false },
    psa: { enabled: false },
    cdi: { enabled: true, nriPluginEnabled: false },
    sandboxWorkloads: { enabled: false, defaultWorkload: 'container', mode: 'kubevirt' },
    hostPaths: { rootFS: '/', driverInstallDir: '/run/nvidia/driver' },
    daemonsets: {
      labels: {},
      annotations: {},
      priorityClassName: 'system-node-critical',
      tolerations: [tolerateGpu],
      updateStrategy: 'RollingUpdate',
      rollingUpdate: { maxUnavailable: '1' }
    },
    validator: {
      repository: 'nvcr.io/nvidia',
      image: 'gpu-operator',
      imagePullPolicy: 'IfNotPresent',
      plugin: { env: [] }
    },
    operator: {
      repository: 'nvcr.io/nvidia',
      image: 'gpu-operator',
      imagePullPolicy: 'IfNotPresent',
      imagePullSecrets: [],
      priorityClassName: 'system-node-critical',
      runtimeClass: 'nvidia',
      use_ocp_driver_toolkit: false,
      cleanupCRD: false,
      upgradeCRD: true,
      tolerations: [tolerateControlPlaneEqual],
      logging: { timeEncoding: 'epoch', level: 'info', develMode: false },
      resources: { limits: { cpu: '500m', memory: '350Mi' }, requests: { cpu: '200m', memory: '100Mi' } }
    },
    mig: { strategy: 'single' },
    driver: {
      enabled: true,
      nvidiaDriverCRD: { enabled: false, deployDefaultCR: true, driverType: 'gpu', nodeSelector: {} },
      kernelModuleType: 'auto',
      usePrecompiled: false,
      ...image('nvcr.io/nvidia', 'driver', c.driver),
      startupProbe: { initialDelaySeconds: 60, periodSeconds: 10, timeoutSeconds: 60, failureThreshold: 120 },
      rdma: { enabled: false, useHostMofed: false },
      upgradePolicy: {
        autoUpgrade: true,
        maxParallelUpgrades: 1,
        maxUnavailable: '25%',
        waitForCompletion: { timeoutSeconds: 0, podSelector: '' },
        gpuPodDeletion: { force: false, timeoutSeconds: 300, deleteEmptyDir: false },
        drain: { enable: false, force: false, podSelector: '', timeoutSeconds: 300, deleteEmptyDir: false }
      },
      manager: {
        repository: 'nvcr.io/nvidia/cloud-native',
        image: 'k8s-driver-manager',
        version: 'v0.11.0',
        imagePullPolicy: 'IfNotPresent',
        env: []
      },
      repoConfig: { configMapName: '' },
      certConfig: { name: '' },
      licensingConfig: { secretName: '', nlsEnabled: true },
      virtualTopology: { config: '' },
      kernelModuleConfig: { name: '' },
      secretEnv: '',
      hostNetwork: false
    },
    toolkit: {
      enabled: true,
      ...image('nvcr.io/nvidia/k8s', 'container-toolkit', c.toolkit),
      installDir: '/usr/local/nvidia',
      hostNetwork: false
    },
    devicePlugin: {
      enabled: true,
      ...image('nvcr.io/nvidia', 'k8s-device-plugin', c.devicePlugin),
      args: [],
      config: { create: false, name: '', default: '', data: {} },
      mps: { root: '/run/nvidia/mps' },
      hostNetwork: false
    },
    dcgm: {
      enabled: false,
      ...image('nvcr.io/nvidia/cloud-native', 'dcgm', '4.5.2-1-ubuntu22.04'),
      hostNetwork: false
    },
    dcgmExporter: {
      enabled: true,
      ...image('nvcr.io/nvidia/k8s', 'dcgm-exporter', '4.5.3-4.8.2-distroless'),
      service: { internalTrafficPolicy: 'Cluster' },
      serviceMonitor: {
        enabled: false,
        interval: '15s',
        honorLabels: false,
        additionalLabels: {},
        relabelings: []
      }
    },
    gfd: {
      enabled: true,
      ...image('nvcr.io/nvidia', 'k8s-device-plugin', c.devicePlugin),
      hostNetwork: false
    },
    migManager: {
      enabled: true,
      ...image('nvcr.io/nvidia/cloud-native', 'k8s-mig-manager', 'v0.14.2'),
      config: { default: 'all-disabled', create: false, name: '', data: {} },
      gpuClientsConfig: { name: '' },
      hostNetwork: false
    },
    nodeStatusExporter: {
      enabled: false,
      repository: 'nvcr.io/nvidia',
      image: 'gpu-operator',
      imagePullPolicy: 'IfNotPresent'
    },
    gds: { enabled: false, ...image('nvcr.io/nvidia/cloud-native', 'nvidia-fs', '2.27.3') },
    gdrcopy: { enabled: false, ...image('nvcr.io/nvidia/cloud-native', 'gdrdrv', 'v2.5.2') },
    vgpuManager: { enabled: false, ...image('', 'vgpu-manager', '') },
    vgpuDeviceManager: {
      enabled: true,
      ...image('nvcr.io/nvidia/cloud-native', 'vgpu-device-manager', 'v0.4.2'),
      config: { name: '', default: 'default' }
    },
    vfioManager: { enabled: true, ...image('nvcr.io/nvidia/cloud-native', 'k8s-driver-manager', 'v0.11.0') },
    kataManager: { enabled: false, config: {} },
    sandboxDevicePlugin: {
      enabled: true,
      ...image('nvcr.io/nvidia', 'kubevirt-gpu-device-plugin', 'v1.5.0')
    },
    ccManager: {
      enabled: true,
      defaultMode: 'on',
      ...image('nvcr.io/nvidia/cloud-native', 'k8s-cc-manager', 'v0.4.0')
    },
    extraObjects: [],
    'node-feature-discovery': {
      priorityClassName: 'system-node-critical',
      image: {
        repository: 'registry.k8s.io/nfd/node-feature-discovery',
        tag: 'v0.18.3',
        pullPolicy: 'IfNotPresent'
      },
      gc: {
        enable: true,
        replicaCount: 1,
        serviceAccount: { name: 'node-feature-discovery', create: false }
      },
      worker: {
        serviceAccount: { name: 'node-feature-discovery', create: false },
        tolerations: [tolerateControlPlaneEqual, tolerateGpu],
        config: {
          sources: {
            pci: {
              deviceClassWhitelist: ['02', '0200', '0207', '0300', '0302'],
              deviceLabelFields: ['vendor']
            }
          }
        }
      },
      master: {
        serviceAccount: { name: 'node-feature-discovery', create: true },
        config: { extraLabelNs: ['nvidia.com'] }
      }
    }
  }
}

export const CHARTS: Record<string, ChartInfo> = {
  'network-operator': {
    name: 'network-operator',
    description: 'Nvidia network operator',
    home: 'https://github.com/Mellanox/network-operator',
    kubeVersion: '>= 1.21.0-0',
    versions: [
      { version: 'v26.4.1', appVersion: 'v26.4.1', created: '2026-07-24T10:00:00Z' },
      { version: 'v26.4.0', appVersion: 'v26.4.0', created: '2026-07-14T10:00:00Z' },
      { version: 'v26.1.1', appVersion: 'v26.1.1', created: '2026-04-08T10:00:00Z' },
      { version: 'v26.1.0', appVersion: 'v26.1.0', created: '2026-02-24T10:00:00Z' },
      { version: 'v25.10.0', appVersion: 'v25.10.0', created: '2025-10-28T10:00:00Z' }
    ],
    defaults: networkOperatorDefaults
  },
  'gpu-operator': {
    name: 'gpu-operator',
    description: 'NVIDIA GPU Operator creates/configures/manages GPUs atop Kubernetes',
    home: 'https://github.com/NVIDIA/gpu-operator',
    kubeVersion: '>= 1.16.0-0',
    versions: [
      { version: 'v26.7.0', appVersion: 'v26.7.0', created: '2026-08-20T10:00:00Z' },
      { version: 'v26.3.3', appVersion: 'v26.3.3', created: '2026-06-23T10:00:00Z' },
      { version: 'v25.10.1', appVersion: 'v25.10.1', created: '2025-12-09T10:00:00Z' }
    ],
    defaults: gpuOperatorDefaults
  }
}

/** Semver-ish ordering of `vX.Y.Z` strings (newest first when used with sort((a,b)=>-cmp)). */
export function compareVersions(a: string, b: string): number {
  const pa = a
    .replace(/^v/, '')
    .split(/[.-]/)
    .map(x => Number(x) || 0)
  const pb = b
    .replace(/^v/, '')
    .split(/[.-]/)
    .map(x => Number(x) || 0)
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0)
    if (d !== 0) return d
  }
  return 0
}
