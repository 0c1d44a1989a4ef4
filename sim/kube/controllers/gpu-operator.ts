// The NVIDIA GPU Operator (v26.3–v26.7 behaviour, the same for what this models), active once ClusterPolicy `cluster-policy` and the
// operator Deployment exist: labels GPU nodes (pci-10de.present) with nvidia.com/gpu.deploy.*,
// renders nvidia-driver-daemonset (with the nvidia-peermem-ctr sidecar only when
// driver.rdma.enabled, USE_HOST_MOFED and the /usr/src host path when useHostMofed), the
// container toolkit, device plugin and operator validator DaemonSets, and reports status.state
// and conditions. Its upgrade controller (driver-upgrade.ts) replaces the driver pods node by node
// when the driver DaemonSet's template changes, as driver.upgradePolicy says.
import type { KubeObject } from '../store.js'
import { ensureOperandServiceAccount } from './operand-accounts.js'
import {
  createIfAbsent,
  isoNow,
  ownerRef,
  setNodeLabels,
  TK,
  typeFromKey,
  type SimContext
} from './context.js'
import type { Reconciler } from './queue.js'
import { DriverUpgrade, type UpgradeScope } from './driver-upgrade.js'
import { kernelModulesOf } from '../hardware.js'

export const CLUSTER_POLICY_NAME = 'cluster-policy'
const GPU_LABELS = [
  'feature.node.kubernetes.io/pci-10de.present',
  'feature.node.kubernetes.io/pci-0302_10de.present',
  'feature.node.kubernetes.io/pci-0300_10de.present'
]
const DEFAULT_TOLERATIONS = [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }]

function dsReady(ds: KubeObject | undefined): boolean {
  const s = ds?.status
  return (
    !!s &&
    (s.desiredNumberScheduled ?? 0) > 0 &&
    s.numberReady === s.desiredNumberScheduled &&
    s.observedGeneration === ds?.metadata.generation
  )
}

function img(c: any, repo: string, image: string, version: string): string {
  return `${c?.repository ?? repo}/${c?.image ?? image}:${c?.version ?? version}`
}

/** The driver DaemonSet's pod spec: the driver container, the peermem sidecar when driver.rdma.enabled. */
function driverPodSpec(spec: any, osLabel: string): any {
  const rdma = spec.driver?.rdma ?? {}
  const useHostMofed = rdma.enabled && rdma.useHostMofed === true
  const driverImage = `${spec.driver?.repository ?? 'nvcr.io/nvidia'}/${spec.driver?.image ?? 'driver'}:${spec.driver?.version ?? '580.126.20'}-ubuntu${osLabel}`
  const containers: any[] = [
    {
      name: 'nvidia-driver-ctr',
      image: driverImage,
      imagePullPolicy: 'IfNotPresent',
      command: ['nvidia-driver'],
      args: ['init'],
      // The operator passes driver.kernelModuleType on as KERNEL_MODULE_TYPE (its default auto).
      env: [{ name: 'KERNEL_MODULE_TYPE', value: String(spec.driver?.kernelModuleType ?? 'auto') }],
      securityContext: { privileged: true, seLinuxOptions: { level: 's0' } },
      startupProbe: {
        exec: { command: ['sh', '/usr/local/bin/nvidia-driver', 'probe'] },
        initialDelaySeconds: 60,
        failureThreshold: 120,
        periodSeconds: 10,
        timeoutSeconds: 60
      }
    }
  ]
  if (rdma.enabled) containers.push(peermemContainer(driverImage, useHostMofed))
  return {
    hostPID: true,
    initContainers: [
      {
        name: 'k8s-driver-manager',
        image: 'nvcr.io/nvidia/cloud-native/k8s-driver-manager:v0.9.1',
        imagePullPolicy: 'IfNotPresent',
        command: ['driver-manager'],
        args: ['uninstall_driver'],
        securityContext: { privileged: true }
      }
    ],
    containers,
    volumes: [
      { name: 'run-nvidia', hostPath: { path: '/run/nvidia', type: 'DirectoryOrCreate' } },
      {
        name: 'run-mellanox-drivers',
        hostPath: { path: '/run/mellanox/drivers', type: 'DirectoryOrCreate' }
      },
      {
        name: 'mlnx-ofed-usr-src',
        hostPath: {
          path: useHostMofed ? '/usr/src' : '/run/mellanox/drivers/usr/src',
          type: 'DirectoryOrCreate'
        }
      }
    ]
  }
}

/** The nvidia-peermem-ctr sidecar (USE_HOST_MOFED when the host's MOFED is used). */
function peermemContainer(driverImage: string, useHostMofed: boolean): any {
  return {
    name: 'nvidia-peermem-ctr',
    image: driverImage,
    imagePullPolicy: 'IfNotPresent',
    command: ['nvidia-driver'],
    args: ['reload_nvidia_peermem'],
    securityContext: { privileged: true, seLinuxOptions: { level: 's0' } },
    ...(useHostMofed ? { env: [{ name: 'USE_HOST_MOFED', value: 'true' }] } : {}),
    startupProbe: {
      exec: { command: ['sh', '-c', 'nvidia-driver probe_nvidia_peermem'] },
      initialDelaySeconds: 10,
      failureThreshold: 120,
      periodSeconds: 10,
      timeoutSeconds: 10
    },
    livenessProbe: {
      exec: { command: ['sh', '-c', 'nvidia-driver probe_nvidia_peermem'] },
      periodSeconds: 30,
      initialDelaySeconds: 30,
      failureThreshold: 1,
      successThreshold: 1,
      timeoutSeconds: 10
    },
    volumeMounts: [
      { name: 'run-nvidia', mountPath: '/run/nvidia', mountPropagation: 'Bidirectional' },
      {
        name: 'run-mellanox-drivers',
        mountPath: '/run/mellanox/drivers',
        mountPropagation: 'HostToContainer'
      }
    ]
  }
}

function toolkitPodSpec(spec: any): any {
  return {
    containers: [
      {
        name: 'nvidia-container-toolkit-ctr',
        image: img(spec.toolkit, 'nvcr.io/nvidia/k8s', 'container-toolkit', 'v1.19.1'),
        securityContext: { privileged: true }
      }
    ]
  }
}

function devicePluginPodSpec(spec: any): any {
  return {
    containers: [
      {
        name: 'nvidia-device-plugin',
        image: img(spec.devicePlugin, 'nvcr.io/nvidia', 'k8s-device-plugin', 'v0.19.3'),
        securityContext: { privileged: true }
      }
    ]
  }
}

function validatorPodSpec(spec: any): any {
  const validatorImage = img(
    spec.validator,
    'nvcr.io/nvidia/cloud-native',
    'gpu-operator-validator',
    'v26.3.3'
  )
  return {
    initContainers: ['driver-validation', 'toolkit-validation', 'cuda-validation', 'plugin-validation'].map(
      n => ({
        name: n,
        image: validatorImage,
        securityContext: { privileged: true }
      })
    ),
    containers: [
      { name: 'nvidia-operator-validator', image: validatorImage, securityContext: { privileged: true } }
    ]
  }
}

/** The operands, in the order the operator renders them: DaemonSet (= app) name, node selector label, pod spec. */
function operands(
  spec: any,
  driverEnabled: boolean,
  osLabel: string
): Array<{ name: string; selectorLabel: string; podSpec: any }> {
  return [
    ...(driverEnabled
      ? [
          {
            name: 'nvidia-driver-daemonset',
            selectorLabel: 'nvidia.com/gpu.deploy.driver',
            podSpec: driverPodSpec(spec, osLabel)
          }
        ]
      : []),
    {
      name: 'nvidia-container-toolkit-daemonset',
      selectorLabel: 'nvidia.com/gpu.deploy.container-toolkit',
      podSpec: toolkitPodSpec(spec)
    },
    {
      name: 'nvidia-device-plugin-daemonset',
      selectorLabel: 'nvidia.com/gpu.deploy.device-plugin',
      podSpec: devicePluginPodSpec(spec)
    },
    {
      name: 'nvidia-operator-validator',
      selectorLabel: 'nvidia.com/gpu.deploy.operator-validator',
      podSpec: validatorPodSpec(spec)
    }
  ]
}

export class GpuOperator implements Reconciler {
  readonly name = 'gpu-operator'
  constructor(private readonly ctx: SimContext) {
    // Its upgrade controller: the GPU driver replaced node by node (driver.upgradePolicy).
    new DriverUpgrade(ctx, 'gpu', () => this.upgradeScope())
    ctx.cache.onEvent((e, tk) => {
      if (tk === TK.clusterPolicies || tk === TK.nodes || tk === TK.deployments) ctx.queue.add(this, '*')
      else if (
        tk === TK.daemonsets &&
        (e.object.metadata.ownerReferences ?? []).some(r => r.kind === 'ClusterPolicy')
      )
        ctx.queue.add(this, '*')
    })
    ctx.queue.add(this, '*')
  }

  /** The namespace the operator runs in, when its Deployment exists. */
  operatorNamespace(): string | undefined {
    const d = this.ctx.cache
      .list(TK.deployments)
      .find(x => /gpu-operator/.test(x.metadata.name) && !/node-feature-discovery/.test(x.metadata.name))
    return d?.metadata.namespace
  }

  /**
   * The upgrade controller's scope (NVIDIA/gpu-operator v26.7.0 cmd/gpu-operator/main.go: pods
   * using GPUs deleted before the drain, validation by the node's operator-validator pod).
   */
  private upgradeScope(): UpgradeScope | undefined {
    if (!typeFromKey(this.ctx, TK.clusterPolicies)) return undefined
    const ns = this.operatorNamespace()
    const cp = this.ctx.cache.get(TK.clusterPolicies, undefined, CLUSTER_POLICY_NAME)
    if (!ns || !cp) return undefined
    const ds = this.ctx.cache.get(TK.daemonsets, ns, 'nvidia-driver-daemonset')
    return {
      policy: cp.spec?.driver?.upgradePolicy,
      daemonSets: ds ? [ds] : [],
      skipDrainSelector: 'nvidia.com/gpu-driver-upgrade-drain.skip!=true',
      podDeletionResource: 'nvidia.com/gpu',
      validatorSelector: 'app=nvidia-operator-validator'
    }
  }

  reconcile(): void {
    if (!typeFromKey(this.ctx, TK.clusterPolicies)) return
    const ns = this.operatorNamespace()
    if (!ns) return
    for (const cp of this.ctx.cache.list(TK.clusterPolicies)) {
      if (cp.metadata.name !== CLUSTER_POLICY_NAME) {
        this.writeStatus(cp, { state: 'ignored', namespace: ns })
        continue
      }
      this.reconcilePolicy(cp, ns)
    }
  }

  private writeStatus(cp: KubeObject, status: any): void {
    this.ctx.store.mutate(
      typeFromKey(this.ctx, TK.clusterPolicies)!,
      undefined,
      cp.metadata.name,
      o => {
        o.status = status
      },
      { subresource: 'status' }
    )
  }

  private reconcilePolicy(cp: KubeObject, ns: string): void {
    const spec = cp.spec ?? {}
    const driverEnabled = spec.driver?.enabled !== false
    const gpuNodes = this.labelGpuNodes(driverEnabled)
    const osLabel =
      gpuNodes[0]?.metadata.labels?.['feature.node.kubernetes.io/system-os_release.VERSION_ID'] ?? '22.04'
    const tolerations = spec.daemonsets?.tolerations ?? DEFAULT_TOLERATIONS
    const names: string[] = []
    for (const op of operands(spec, driverEnabled, osLabel)) {
      names.push(op.name)
      this.ensureDaemonSet(cp, ns, op.name, op.selectorLabel, tolerations, op.podSpec)
    }
    this.writeStatus(cp, this.policyStatus(cp, ns, gpuNodes.length, names))
  }

  /** Labels the GPU nodes with what to deploy on them; a pre-installed driver is ready at once. */
  private labelGpuNodes(driverEnabled: boolean): KubeObject[] {
    const gpuNodes = this.ctx.cache
      .list(TK.nodes)
      .filter(n => GPU_LABELS.some(l => n.metadata.labels?.[l] === 'true'))
    for (const n of gpuNodes) {
      setNodeLabels(this.ctx, n.metadata.name, {
        'nvidia.com/gpu.present': 'true',
        'nvidia.com/gpu.deploy.driver': driverEnabled ? 'true' : 'pre-installed',
        'nvidia.com/gpu.deploy.container-toolkit': 'true',
        'nvidia.com/gpu.deploy.device-plugin': 'true',
        'nvidia.com/gpu.deploy.operator-validator': 'true'
      })
      // AKS-managed (pre-installed) driver: already loaded on the host.
      if (!driverEnabled && !this.ctx.hardware.get(n.metadata.name)?.gpuDriverReady) {
        this.ctx.hardware.update(n.metadata.name, h => {
          h.gpuDriverReady = true
          // A host driver of the R580 branch, its module type left to the installer's default.
          h.gpuKernelModules = kernelModulesOf('auto', '580.126.20', h)
          h.timeline.gpuDriverReadyAt = h.timeline.gpuDriverReadyAt ?? this.ctx.clock.now()
        })
      }
    }
    return gpuNodes
  }

  /** Creates an operand's DaemonSet (app = its name), or updates its spec when it differs. */
  private ensureDaemonSet(
    cp: KubeObject,
    ns: string,
    name: string,
    selectorLabel: string,
    tolerations: unknown,
    podSpec: any
  ): void {
    const app = name
    const dsT = typeFromKey(this.ctx, TK.daemonsets)!
    const obj: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: {
        name,
        namespace: ns,
        labels: { app, 'app.kubernetes.io/managed-by': 'gpu-operator', 'helm.sh/chart': 'gpu-operator' },
        ownerReferences: [ownerRef(cp)]
      },
      spec: {
        selector: { matchLabels: { app } },
        updateStrategy: { type: name === 'nvidia-driver-daemonset' ? 'OnDelete' : 'RollingUpdate' },
        template: {
          metadata: { labels: { app, 'app.kubernetes.io/managed-by': 'gpu-operator' } },
          spec: {
            priorityClassName: 'system-node-critical',
            tolerations,
            nodeSelector: { [selectorLabel]: 'true' },
            serviceAccountName: app.replace(/-daemonset$/, ''),
            ...podSpec
          }
        }
      }
    }
    ensureOperandServiceAccount(this.ctx, cp, ns, app.replace(/-daemonset$/, ''), {
      'app.kubernetes.io/managed-by': 'gpu-operator'
    })
    const cur = this.ctx.cache.get(TK.daemonsets, ns, name)
    if (!cur) createIfAbsent(this.ctx, dsT, obj)
    else if (JSON.stringify(cur.spec) !== JSON.stringify(obj.spec)) {
      this.ctx.store.mutate(dsT, ns, name, o => {
        o.spec = obj.spec
      })
    }
  }

  /** status.state and the Ready/Error conditions, from the operands' DaemonSets. */
  private policyStatus(cp: KubeObject, ns: string, gpuNodeCount: number, names: string[]): any {
    const notReady = names.filter(n => !dsReady(this.ctx.cache.get(TK.daemonsets, ns, n)))
    const ready = gpuNodeCount > 0 && notReady.length === 0
    const now = isoNow(this.ctx)
    const prev: any[] = cp.status?.conditions ?? []
    const cond = (type: string, status: string, reason: string, message: string) => {
      const p = prev.find(c => c.type === type)
      return {
        type,
        status,
        reason,
        message,
        lastTransitionTime: p && p.status === status ? p.lastTransitionTime : now
      }
    }
    const message =
      gpuNodeCount === 0
        ? 'No GPU node found, watching for new nodes to join the cluster.'
        : `ClusterPolicy is not ready, states not ready: [${notReady.map(n => n.replace(/^nvidia-/, 'state-').replace(/-daemonset$/, '')).join(' ')}]`
    return {
      state: ready ? 'ready' : 'notReady',
      namespace: ns,
      conditions: [
        cond(
          'Ready',
          ready ? 'True' : 'False',
          ready ? 'Reconciled' : 'OperandNotReady',
          ready ? 'ClusterPolicy is ready as all resources have been successfully reconciled' : message
        ),
        cond('Error', 'False', ready ? 'Ready' : 'OperandNotReady', '')
      ]
    }
  }
}
