// Component 10: the NVIDIA GPU Operator helm release, its GPUDirect values and its readiness.
// Docs: docs/design.md#the-stack-as-a-list-of-components, docs/guide-departures.md, docs/versions.md.
import type { Health } from '../health/types.js'
import { met, missing, missingOrBlocked } from '../health/types.js'
import { allocatableOn, driverUpgradeSettled, named, noPod, stateReady } from '../health/rules.js'
import {
  containerReady,
  containerStatus,
  describeContainer,
  describePod,
  hasContainer,
  isPodReady
} from '../kube/pods.js'
import { isKindNotServed } from '../kube/errors.js'
import type { KubeObject } from '../kube/types.js'
import { LABELS, releaseName } from '../model/types.js'
import { nodeAgentTolerations, taintNote } from '../model/tolerations.js'
import type { DriftItem } from '../drift/item.js'
import type { Settings } from '../settings/settings.js'
import { findRdmaVmSize } from '../settings/vm-sizes.js'
import { deepMerge, isPlainObject } from '../util/merge.js'
import { gpuOperatorDriverValues } from '../model/gpudirect.js'
import { privilegedNamespace } from './shared.js'
import { NVIDIA_HELM_REPO, releasePods } from './shared.js'
import type { ClusterRule } from '../health/types.js'
import type { Desired, DriftExtrasContext, KubeComponent } from './types.js'

export const GPU_OPERATOR_NAMESPACE = 'gpu-operator'
/** What the chart renders: the ClusterPolicy, and the driver DaemonSet's pods with the peermem sidecar. */
export const CLUSTER_POLICY = {
  apiVersion: 'nvidia.com/v1',
  kind: 'ClusterPolicy',
  name: 'cluster-policy'
} as const
export const DRIVER_PODS = { selector: 'app=nvidia-driver-daemonset', peermem: 'nvidia-peermem-ctr' } as const
export const GPU_RESOURCE = 'nvidia.com/gpu'

export function gpuOperatorValues(s: Settings): Record<string, unknown> {
  return deepMerge(
    {
      nfd: { enabled: false },
      daemonsets: { tolerations: nodeAgentTolerations(s) },
      driver: gpuOperatorDriverValues(s.gpudirect, s.stack.useHostMofed),
      migManager: { enabled: false },
      vgpuDeviceManager: { enabled: false },
      vfioManager: { enabled: false },
      sandboxDevicePlugin: { enabled: false }
    },
    s.stack.gpuOperatorValues
  )
}

function desired(s: Settings): Desired & { helm: NonNullable<Desired['helm']> } {
  return {
    title: `NVIDIA GPU Operator ${s.stack.gpuOperatorVersion}`,
    manifests: [privilegedNamespace(GPU_OPERATOR_NAMESPACE)],
    helm: {
      release: 'gpu-operator',
      chart: `${NVIDIA_HELM_REPO.name}/gpu-operator`,
      repo: { ...NVIDIA_HELM_REPO },
      version: s.stack.gpuOperatorVersion,
      namespace: GPU_OPERATOR_NAMESPACE,
      values: gpuOperatorValues(s)
    },
    version: { value: s.stack.gpuOperatorVersion },
    departsFromGuide:
      s.gpudirect === 'dmabuf'
        ? "GPUDirect by DMA-BUF (gpudirect: dmabuf, NVIDIA's recommendation): driver.kernelModuleType=open and no driver.rdma, so no nvidia-peermem (the guide enables driver.rdma with useHostMofed true); the chart version is pinned."
        : "driver.rdma.useHostMofed stays false (the guide sets true, which makes peermem skip waiting for the Network Operator's driver); the chart version is pinned."
  }
}

const PEERMEM = DRIVER_PODS.peermem

/**
 * The chart's driver.upgradePolicy defaults the action leaves in place
 * (NVIDIA/gpu-operator v26.7.0 deployments/gpu-operator/values.yaml).
 */
export const CHART_DRIVER_UPGRADE_POLICY = {
  autoUpgrade: true,
  maxParallelUpgrades: 1,
  maxUnavailable: '25%',
  drain: { enable: false }
} as const

/** The GPU driver's upgrade policy in words: the values' driver.upgradePolicy over the chart's defaults. */
export function gpuUpgradePolicyText(values: Record<string, unknown>): string {
  const driver = isPlainObject(values.driver) ? values.driver : {}
  const up = deepMerge(
    CHART_DRIVER_UPGRADE_POLICY as Record<string, unknown>,
    isPlainObject(driver.upgradePolicy) ? driver.upgradePolicy : {}
  )
  if (up.autoUpgrade !== true)
    return 'driver.upgradePolicy.autoUpgrade is not true: the GPU Operator does not replace running driver pods (drain the node and delete its driver pod)'
  const parallel = typeof up.maxParallelUpgrades === 'number' ? up.maxParallelUpgrades : 1
  const drain = isPlainObject(up.drain) && up.drain.enable === true
  return (
    `the GPU Operator replaces the GPU driver node by node when the chart version or driver values change ` +
    `(driver.upgradePolicy: at most ${parallel === 0 ? 'every node' : `${parallel} node${parallel === 1 ? '' : 's'}`} at once ` +
    `and ${String(up.maxUnavailable)} of the nodes unavailable, each cordoned, its GPU pods deleted` +
    `${drain ? ' and drained' : ''} first, uncordoned once its new driver is validated)`
  )
}
const DRIVER_CONTAINER = 'nvidia-driver-ctr'

/**
 * Every driver pod on the pool runs the driver version the ClusterPolicy sets (the chart's default
 * for its version, or the values' driver.version): after a chart upgrade the operator replaces the
 * old ones node by node, and until then the old pods are Ready but not what was asked for.
 */
function driverVersionRule(): ClusterRule {
  return {
    text: `every driver pod on the RDMA nodes runs clusterpolicy/${CLUSTER_POLICY.name} spec.driver.version`,
    check: (snap, pool) => {
      const want = named(snap.policies, CLUSTER_POLICY.name)?.spec?.driver?.version
      if (typeof want !== 'string' || !want) return { ok: true, message: '' }
      const onPool = new Set(pool.map(n => n.metadata.name))
      const pods = (snap.pods ?? []).filter(p => onPool.has(p.spec?.nodeName))
      const image = (p: KubeObject): string =>
        ((p.spec?.containers ?? []) as Array<{ name: string; image?: string }>).find(
          c => c.name === DRIVER_CONTAINER
        )?.image ?? ''
      const old = pods.filter(p => !image(p).includes(`:${want}`))
      if (!old.length) return { ok: true, message: '' }
      return {
        ok: false,
        message: `driver ${want} on ${pods.length - old.length}/${pods.length} pods`,
        problem: `${old.length} driver pod(s) still run another driver than ${want} (${old
          .slice(0, 3)
          .map(p => `${p.metadata.name} on ${p.spec?.nodeName}`)
          .join(', ')}): the GPU Operator replaces them node by node (driver.upgradePolicy)`
      }
    }
  }
}

/** The operands' tolerations as the values give them (a values file may replace them). */
function operandTolerations(s: Settings): unknown[] {
  const ds = gpuOperatorValues(s).daemonsets
  return isPlainObject(ds) && Array.isArray(ds.tolerations) ? ds.tolerations : []
}

function health(s: Settings): Health {
  const tolerations = operandTolerations(s)
  const pods = {
    name: 'driver-pods',
    apiVersion: 'v1',
    kind: 'Pod',
    namespace: desired(s).helm.namespace,
    labelSelector: DRIVER_PODS.selector
  }
  const hostMofedHint = s.stack.useHostMofed
    ? ' (use-host-mofed is true: peermem looks for a host MOFED instead of the Network Operator driver)'
    : ''
  const peermem = s.gpudirect === 'peermem'
  return {
    summary: peermem
      ? `cluster-policy ready; on every RDMA node the driver pod Ready with ${PEERMEM}, and allocatable ${GPU_RESOURCE} > 0`
      : `cluster-policy ready; on every RDMA node the driver pod Ready (open kernel modules: GPUDirect by DMA-BUF), and allocatable ${GPU_RESOURCE} > 0`,
    sources: {
      pods,
      policies: {
        name: 'clusterpolicies',
        apiVersion: CLUSTER_POLICY.apiVersion,
        kind: CLUSTER_POLICY.kind,
        custom: true
      }
    },
    perNode: {
      progress: peermem ? 'GPU driver with nvidia-peermem ready' : 'GPU driver ready',
      rules: [
        {
          text: peermem
            ? `a driver pod (-n ${pods.namespace} -l ${pods.labelSelector}) Ready, its container ${PEERMEM} Ready`
            : `a driver pod (-n ${pods.namespace} -l ${pods.labelSelector}) Ready`,
          check: (node, onNode) => {
            if (!onNode.length)
              return missingOrBlocked(
                noPod('GPU driver', pods),
                taintNote(
                  node,
                  tolerations,
                  'the GPU Operator operands (gpu-operator values daemonsets.tolerations)'
                )
              )
            if (!peermem) {
              const ready = onNode.find(p => isPodReady(p))
              return ready
                ? met('driver pod Ready')
                : missing(`driver pod ${onNode[0].metadata.name} not Ready (${describePod(onNode[0])})`)
            }
            const withPeermem = onNode.filter(p => hasContainer(p, PEERMEM))
            if (!withPeermem.length)
              return missing(`driver pod has no ${PEERMEM} container (driver.rdma.enabled is not true)`)
            const ready = withPeermem.find(p => containerReady(p, PEERMEM))
            if (!ready)
              return missing(
                `${PEERMEM} ${describeContainer(containerStatus(withPeermem[0], PEERMEM))}${hostMofedHint}`
              )
            if (!isPodReady(ready))
              return missing(`driver pod ${ready.metadata.name} not Ready (${describePod(ready)})`)
            return met(`${PEERMEM} Ready`)
          }
        },
        allocatableOn(GPU_RESOURCE),
        driverUpgradeSettled('gpu')
      ]
    },
    cluster: [
      driverVersionRule(),
      stateReady({
        key: 'policies',
        what: `ClusterPolicy ${CLUSTER_POLICY.name}`,
        name: CLUSTER_POLICY.name,
        short: CLUSTER_POLICY.name,
        problem: o => `ClusterPolicy state ${o.status?.state ?? '<none>'}`
      })
    ],
    failFast: (onPool, snap) => {
      // With DMA-BUF nothing asks for nvidia-peermem: a driver pod without the sidecar is expected.
      if (!peermem) return undefined
      // A ClusterPolicy that asks for RDMA makes the operator replace driver pods of an earlier spec
      // (one installed without it, then adopted or upgraded): those are waited for, not failed.
      const policy = (snap.policies ?? []).find(o => o.metadata.name === CLUSTER_POLICY.name)
      if (
        (policy?.spec as { driver?: { rdma?: { enabled?: unknown } } } | undefined)?.driver?.rdma?.enabled ===
        true
      )
        return undefined
      const noPeermem = onPool.find(p => (p.spec?.containers ?? []).length > 0 && !hasContainer(p, PEERMEM))
      return noPeermem
        ? `driver pod ${noPeermem.metadata.name} has no ${PEERMEM} container: the GPU Operator runs without ` +
            'driver.rdma.enabled=true, so nvidia-peermem (GPUDirect RDMA) is never loaded'
        : undefined
    },
    // With useHostMofed the peermem container looks for a MOFED on the host instead of the Network
    // Operator's driver, so a Ready sidecar does not mean the module loaded (the probe checks that).
    warnings:
      peermem && s.stack.useHostMofed
        ? [
            `use-host-mofed is true: ${PEERMEM} builds against a host MOFED, not the Network Operator driver (the node probe shows whether nvidia_peermem loaded)`
          ]
        : []
  }
}

/**
 * ClusterPolicy `cluster-policy` spec.driver.rdma as the desired chart values render it (enabled,
 * useHostMofed) — only when the release is installed with the desired chart; value paths already
 * reported as differing in the release (`driver.rdma.useHostMofed`, or `driver` as a whole) are
 * not repeated.
 */
async function clusterPolicyDrift(ctx: DriftExtrasContext): Promise<DriftItem[]> {
  const helm = ctx.desired.helm
  if (!helm || !ctx.release?.status) return []
  if (ctx.found.some(i => i.field === `${releaseName(helm)} chart`)) return []
  const values = helm.values
  const rdma = isPlainObject(values.driver) && isPlainObject(values.driver.rdma) ? values.driver.rdma : {}
  const want = { enabled: rdma.enabled === true, useHostMofed: rdma.useHostMofed === true }
  let policy: KubeObject | undefined
  try {
    policy = await ctx.kube.get({
      apiVersion: CLUSTER_POLICY.apiVersion,
      kind: CLUSTER_POLICY.kind,
      name: CLUSTER_POLICY.name
    })
  } catch (e) {
    if (!isKindNotServed(e)) throw e
  }
  const where = `clusterpolicy/${CLUSTER_POLICY.name}`
  // Runs as printed: the repo is added first (helm skips one already there with the same URL).
  const upgrade = `helm repo add ${helm.repo.name} ${helm.repo.url} && helm upgrade ${helm.release} ${helm.chart} --version ${helm.version} -n ${helm.namespace} --reuse-values`
  const rerender = `the release is as desired but its ClusterPolicy was changed: \`${upgrade}\` re-renders it (apply does not upgrade an unchanged release)`
  if (!policy)
    return [
      {
        component: ctx.component,
        field: where,
        desired: 'present',
        actual: 'absent',
        fixableByApply: false,
        hint: rerender
      }
    ]
  const live = isPlainObject(policy.spec?.driver?.rdma) ? policy.spec.driver.rdma : {}
  const out: DriftItem[] = []
  for (const key of ['enabled', 'useHostMofed'] as const) {
    const path = `driver.rdma.${key}`
    if (ctx.release.valuePaths.some(c => c === path || path.startsWith(`${c}.`))) continue
    if ((live[key] === true) === want[key]) continue
    out.push({
      component: ctx.component,
      field: `${where} spec.driver.rdma.${key}`,
      desired: String(want[key]),
      actual: live[key] === undefined ? '(absent)' : String(live[key]),
      fixableByApply: false,
      hint: `${rerender}; or \`kubectl patch clusterpolicy ${CLUSTER_POLICY.name} --type merge -p '{"spec":{"driver":{"rdma":{"${key}":${want[key]}}}}}'\``
    })
  }
  return out
}

export const gpuOperator: KubeComponent = {
  name: 'gpu-operator',
  kind: 'helm',
  skip: () => undefined,
  desired,
  health,
  placement: { on: 'pool-nodes', after: ['nic-cluster-policy'] },
  driftExtras: clusterPolicyDrift,
  hints: view =>
    [view.states, ...(view.verdict?.nodes ?? []).map(n => n.detail ?? '')].some(t => t.includes(PEERMEM))
      ? [
          `${PEERMEM} waits for the OFED driver (/run/mellanox/drivers/.driver-ready); check the OFED pods (-l ${LABELS.ofedDriverPod}) and keep driver.rdma.useHostMofed false.`
        ]
      : [],
  check: {
    name: 'gpu-operator',
    skip: s => {
      const size = findRdmaVmSize(s.nodePool.vmSize)
      return size && size.gpus === 0 ? `${size.name} has no GPUs` : undefined
    }
  },
  removal: s => {
    const { release, namespace } = desired(s).helm
    const driver = { name: 'driver-pods', apiVersion: 'v1', kind: 'Pod', namespace }
    return {
      leftovers: [
        ...releasePods(release, namespace).leftovers,
        { ...driver, labelSelector: DRIVER_PODS.selector }
      ],
      note: 'the operands are owned by the ClusterPolicy the release removes; each driver pod tries to unload the GPU driver as it stops, and a module still in use ("driver is in use") stays loaded until the node reboots'
    }
  },
  rollsDriver: s => gpuUpgradePolicyText(gpuOperatorValues(s))
}
