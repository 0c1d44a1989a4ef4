// Component 7: the NicClusterPolicy `nic-cluster-policy` (the only name the Network Operator reconciles),
// embedded and pinned; runs the OFED driver on the pools. Docs: docs/design.md, docs/guide-departures.md.
import type { Health } from '../health/types.js'
import { blocked, met, missing, missingOrBlocked, type Finding } from '../health/types.js'
import { driverUpgradeSettled, named, noPod, stateReady } from '../health/rules.js'
import { describePod, isPodReady } from '../kube/pods.js'
import type { KubeObject } from '../kube/types.js'
import { LABELS, objectName, type KubeManifest } from '../model/types.js'
import { GPU_TOLERATION, taintNote } from '../model/tolerations.js'
import { poolRequirement, stackPoolNames, stackPoolTolerations } from '../model/stack-pools.js'
import type { DriftItem } from '../drift/item.js'
import type { Settings } from '../settings/settings.js'
import { isPlainObject } from '../util/merge.js'
import { oneLine, shortValue } from '../util/text.js'
import { NETWORK_OPERATOR_NAMESPACE, NODE_FEATURE_RULE } from './shared.js'
import { podImages, reported } from './shared.js'
import type { DriftExtrasContext, KubeComponent, Removal } from './types.js'

/** The driver pods and DaemonSets the Network Operator renders from the policy (all labelled so). */
const OFED_PODS = { namespace: NETWORK_OPERATOR_NAMESPACE, labelSelector: LABELS.ofedDriverPod } as const
const OFED_CONTAINER = 'mofed-container'
/** The only name the Network Operator reconciles. */
const POLICY_NAME = 'nic-cluster-policy'

/** The DOCA telemetry service NVIDIA pairs with Network Operator v26.4.1 (its hack/release.yaml, unchanged from v26.4.0). */
export const DOCA_TELEMETRY = {
  repository: 'nvcr.io/nvidia/doca',
  image: 'doca_telemetry',
  version: '1.25.5-doca3.4.0-host'
} as const

export function nicClusterPolicySpec(s: Settings): Record<string, unknown> {
  const tolerations = stackPoolTolerations(s)
  return {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [
          {
            matchExpressions: [{ key: LABELS.pci15b3, operator: 'In', values: ['true'] }, poolRequirement(s)]
          }
        ]
      }
    },
    ...(tolerations.length ? { tolerations } : {}),
    ofedDriver: {
      repository: 'nvcr.io/nvidia/mellanox',
      image: 'doca-driver',
      version: s.stack.docaDriverVersion,
      env: [
        { name: 'OFED_BLACKLIST_MODULES_FILE', value: '/host/etc/modprobe.d/blacklist-ofed-modules.conf' }
      ],
      forcePrecompiled: false,
      upgradePolicy: {
        autoUpgrade: true,
        maxParallelUpgrades: 1,
        drain: {
          enable: true,
          force: true,
          // Only the pods the selector names are evicted (the pods that use the RDMA resource carry
          // its label); without one, every pod on the node (ofed-drain-pod-selector).
          ...(s.stack.ofedDrainPodSelector ? { podSelector: s.stack.ofedDrainPodSelector } : {}),
          deleteEmptyDir: true,
          timeoutSeconds: 300
        }
      },
      startupProbe: { initialDelaySeconds: 10, periodSeconds: 20 },
      livenessProbe: { initialDelaySeconds: 30, periodSeconds: 30 },
      readinessProbe: { initialDelaySeconds: 10, periodSeconds: 30 }
    },
    docaTelemetryService: { ...DOCA_TELEMETRY }
  }
}

/** The policy; a nic-cluster-policy file replaces the spec (a whole NicClusterPolicy or just its spec). */
export function nicClusterPolicy(s: Settings): KubeManifest {
  const override = s.stack.nicClusterPolicy
  const spec = override ? (isPlainObject(override.spec) ? override.spec : override) : nicClusterPolicySpec(s)
  return {
    apiVersion: 'mellanox.com/v1alpha1',
    kind: 'NicClusterPolicy',
    metadata: { name: POLICY_NAME },
    spec
  }
}

/**
 * The operator's defaults for the OFED driver's startup probe where the policy leaves a field out: it
 * fills failureThreshold with 120 (NO pkg/state/state_ofed.go, setProbesDefaults), and without any
 * startupProbe uses a 10 s delay and a 10 s period.
 */
export const OFED_STARTUP_PROBE_DEFAULTS = {
  initialDelaySeconds: 10,
  periodSeconds: 10,
  failureThreshold: 120
} as const

/**
 * How long the OFED driver pod may take to start before its startup probe fails it: initialDelaySeconds
 * + failureThreshold × periodSeconds of the policy this run applies (10 + 120 × 20 s ≈ 40 min for the
 * action's own), time enough to compile the driver on a kernel without a precompiled image.
 */
export function ofedStartupBudgetSeconds(s: Settings): number {
  const ofed = ofedDriverOf(nicClusterPolicy(s))
  const probe = isPlainObject(ofed?.startupProbe) ? ofed.startupProbe : {}
  const field = (k: keyof typeof OFED_STARTUP_PROBE_DEFAULTS): number => {
    const v = probe[k]
    return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : OFED_STARTUP_PROBE_DEFAULTS[k]
  }
  return field('initialDelaySeconds') + field('failureThreshold') * field('periodSeconds')
}

/** The appliedStates that are not ready, e.g. `state-OFED notReady`. */
export function notReadyStates(policy: KubeObject | undefined): string[] {
  const applied: Array<{ name?: string; state?: string; message?: string }> =
    policy?.status?.appliedStates ?? []
  return applied
    .filter(a => a.state !== 'ready' && a.state !== 'ignore')
    .map(a => `${a.name} ${a.state ?? 'unknown'}${a.message ? ` (${oneLine(a.message, 80)})` : ''}`)
}

const noOfedPods = (policy: KubeObject | undefined, ofedPods: KubeObject[]): boolean =>
  ofedPods.length === 0 &&
  ((policy?.status?.appliedStates ?? []) as Array<{ name?: string; state?: string }>).some(
    a => a.name === 'state-OFED' && a.state !== 'ready' && a.state !== 'ignore'
  )

/** The policy's ofedDriver section (absent when a nic-cluster-policy file leaves it out). */
function ofedDriverOf(policy: KubeManifest): Record<string, unknown> | undefined {
  const spec = policy.spec
  return isPlainObject(spec) && isPlainObject(spec.ofedDriver) ? spec.ofedDriver : undefined
}

/** How the operator names the driver image it renders: `<repository>/<image>:<version>-` then OS and arch. */
function driverImagePrefix(ofed: Record<string, unknown>): string {
  return `${ofed.repository}/${ofed.image}:${ofed.version}-`
}

/** The OFED driver container's image in a pod (the operator's container name, else the first). */
function driverImage(pod: KubeObject): string | undefined {
  const containers: Array<{ name: string; image?: string }> = pod.spec?.containers ?? []
  return (containers.find(c => c.name === OFED_CONTAINER) ?? containers[0])?.image
}

/**
 * The node's driver pods run a driver image of another CPU architecture: the Network Operator
 * renders one driver DaemonSet per OS, version and kernel (Mellanox/network-operator
 * pkg/nodeinfo GetNodePools: the architecture is not in the key), with the architecture of the
 * first node it saw, so two pools of different architectures on the same OS and kernel share
 * one. It does not come right by waiting.
 */
export function driverArchFinding(node: KubeObject, onNode: KubeObject[]): Finding {
  const arch = node.metadata.labels?.['kubernetes.io/arch']
  for (const p of onNode) {
    const image = driverImage(p)
    const built = /-(amd64|arm64)$/.exec(image ?? '')?.[1]
    if (arch && built && built !== arch)
      return blocked(
        `OFED driver pod ${p.metadata.name} runs ${image}, built for ${built}, on this ${arch} node: the Network Operator renders one driver DaemonSet per OS and kernel, not per architecture, so pools of two architectures need different OS versions (os-sku Ubuntu2204 for one, Ubuntu2404 for the other)`
      )
  }
  return met()
}

/** The driver's upgrade policy in words (the plan, and why a run waits for the rollout). */
function upgradePolicyText(policy: KubeManifest): string {
  const up = ofedDriverOf(policy)?.upgradePolicy
  if (!isPlainObject(up) || up.autoUpgrade !== true)
    return 'ofedDriver.upgradePolicy.autoUpgrade is not true: the Network Operator does not replace running driver pods (drain the node and delete its driver pod)'
  const drain = isPlainObject(up.drain) ? up.drain : {}
  const parallel = typeof up.maxParallelUpgrades === 'number' ? up.maxParallelUpgrades : 1
  return (
    `the Network Operator replaces the OFED driver node by node (ofedDriver.upgradePolicy: at most ` +
    `${parallel === 0 ? 'every node' : `${parallel} node${parallel === 1 ? '' : 's'}`} at once, each cordoned` +
    `${drain.enable === false ? '' : ' and drained'} first, uncordoned once its new driver is Ready)`
  )
}

/** What the operator gives the driver pods: the policy's tolerations and nvidia.com/gpu. */
function policyTolerations(policy: KubeManifest): unknown[] {
  const spec = policy.spec
  const own = isPlainObject(spec) && Array.isArray(spec.tolerations) ? spec.tolerations : []
  return [...own, GPU_TOLERATION]
}

function health(s: Settings): Health {
  const policy = nicClusterPolicy(s)
  const ofed = ofedDriverOf(policy)
  const tolerations = policyTolerations(policy)
  const pods = { name: 'ofed-pods', apiVersion: 'v1', kind: 'Pod', ...OFED_PODS }
  return {
    summary: `an OFED driver pod (-l ${LABELS.ofedDriverPod}) Ready on every RDMA node, ${LABELS.mofedWait}=false on each, status.state ready`,
    sources: {
      pods,
      policies: { name: 'nicclusterpolicies', apiVersion: policy.apiVersion, kind: policy.kind, custom: true }
    },
    perNode: {
      progress: 'OFED driver ready',
      rules: [
        {
          text: `its OFED driver pods (-n ${pods.namespace} -l ${pods.labelSelector}) all Ready`,
          check: (node, onNode) => {
            if (!onNode.length)
              return node.metadata.labels?.[LABELS.pci15b3] !== 'true'
                ? missing(
                    `${noPod('OFED driver', pods)} — node lacks ${LABELS.pci15b3}=true, so the driver DaemonSet does not select it`
                  )
                : missingOrBlocked(
                    noPod('OFED driver', pods),
                    taintNote(node, tolerations, 'the NicClusterPolicy (spec.tolerations)')
                  )
            // A driver of another architecture never becomes Ready: say so, and stop waiting.
            const arch = driverArchFinding(node, onNode)
            if (!arch.ok) return arch
            const notReady = onNode.find(p => !isPodReady(p))
            if (notReady)
              return missing(`OFED driver pod ${notReady.metadata.name} not Ready (${describePod(notReady)})`)
            return met(`OFED driver pod ${onNode[0].metadata.name} Ready`)
          }
        },
        {
          text: `labelled ${LABELS.mofedWait}=false`,
          check: node => {
            const wait = node.metadata.labels?.[LABELS.mofedWait]
            return wait === 'false' ? met() : missing(`${LABELS.mofedWait}=${wait ?? '<absent>'}`)
          }
        },
        ...(ofed
          ? [
              {
                text: `its OFED driver pods run the policy's driver (${driverImagePrefix(ofed)}…)`,
                check: (_node: KubeObject, onNode: KubeObject[]) => {
                  const old = onNode.find(p => {
                    const image = driverImage(p)
                    return image !== undefined && !image.startsWith(driverImagePrefix(ofed))
                  })
                  return old
                    ? missing(
                        `OFED driver pod ${old.metadata.name} runs ${driverImage(old) ?? 'no image'}, not the policy's ${String(ofed.version)} yet`
                      )
                    : met()
                }
              }
            ]
          : []),
        driverUpgradeSettled('ofed')
      ]
    },
    cluster: [
      stateReady({
        key: 'policies',
        what: `NicClusterPolicy ${policy.metadata.name}`,
        name: policy.metadata.name,
        short: 'policy',
        problem: (o, snap) => {
          const list = notReadyStates(o).join(', ')
          const hint = noOfedPods(o, snap.pods ?? [])
            ? ` — no OFED driver pods at all: is the NodeFeatureRule (pci-15b3.present) missing?`
            : ''
          return `NicClusterPolicy state ${o.status?.state ?? '<none>'}${o.status?.reason ? ` (${oneLine(o.status.reason, 120)})` : ''}${list ? `: ${list}` : ''}${hint}`
        }
      })
    ],
    warnings: []
  }
}

/**
 * The OFED driver DaemonSets and their pods run the policy's driver:
 * `<repository>/<image>:<version>-<os><ver>-<arch>`. Nothing more is said when the policy's
 * ofedDriver already differs (the operator follows it).
 */
async function ofedDriverDrift(ctx: DriftExtrasContext): Promise<DriftItem[]> {
  const { component } = ctx
  const policy = ctx.desired.manifests?.find(m => m.kind === 'NicClusterPolicy')
  const ofed = policy ? ofedDriverOf(policy) : undefined
  if (!policy || !ofed || reported(ctx.found, objectName(policy), 'spec.ofedDriver')) return []
  const prefix = driverImagePrefix(ofed)
  const ok = (image: string | undefined): boolean => typeof image === 'string' && image.startsWith(prefix)
  const { items: sets } = await ctx.kube.list('apps/v1', 'DaemonSet', OFED_PODS)
  const out: DriftItem[] = []
  for (const ds of sets) {
    const containers: Array<{ name: string; image: string }> = ds.spec?.template?.spec?.containers ?? []
    const c = containers.find(x => x.name === OFED_CONTAINER) ?? containers[0]
    if (!c || ok(c.image)) continue
    out.push({
      component,
      field: `daemonset/${ds.metadata.name} spec.template.spec.containers[${c.name}].image`,
      desired: `${prefix}…`,
      actual: shortValue(c.image),
      fixableByApply: false,
      hint: `the policy is as desired but the Network Operator did not render it: check its logs (kubectl logs -n ${OFED_PODS.namespace} deploy/network-operator); a hand edit of the DaemonSet is reverted by the operator`
    })
  }
  if (out.length) return out
  const { items: pods } = await ctx.kube.list('v1', 'Pod', OFED_PODS)
  const off = podImages(pods, OFED_CONTAINER, ok)
  if (off)
    out.push({
      component,
      field: `pods -l ${LABELS.ofedDriverPod} spec.containers[${OFED_CONTAINER}].image`,
      desired: `${prefix}…`,
      actual: off.summary,
      fixableByApply: false,
      hint: 'the driver DaemonSets update OnDelete: the Network Operator replaces these pods node by node when ofedDriver.upgradePolicy.autoUpgrade is true; otherwise drain the node and delete its driver pod'
    })
  return out
}

/**
 * Removing the policy: the Network Operator deletes the driver DaemonSets it rendered from it
 * (they are owned by the policy) and each driver pod unloads the driver as it stops.
 */
function removal(): Removal {
  return {
    leftovers: [
      { name: 'ofed-daemonsets', apiVersion: 'apps/v1', kind: 'DaemonSet', ...OFED_PODS },
      { name: 'ofed-pods', apiVersion: 'v1', kind: 'Pod', ...OFED_PODS }
    ],
    note: 'the OFED driver DaemonSets are owned by the policy and go with it; each driver pod removes its ready file and mount as it stops and leaves the DOCA driver loaded until the node reboots (RESTORE_DRIVER_ON_POD_TERMINATION is false by default)'
  }
}

/** The driver version the policy sets (a nic-cluster-policy file may set another, or none). */
function driverVersion(s: Settings): string {
  const v = ofedDriverOf(nicClusterPolicy(s))?.version
  return typeof v === 'string' ? v : s.stack.docaDriverVersion
}

export const nicClusterPolicyComponent: KubeComponent = {
  name: 'nic-cluster-policy',
  kind: 'manifests',
  skip: () => undefined,
  desired: s => ({
    title: `NicClusterPolicy ${POLICY_NAME} (DOCA driver ${driverVersion(s)})`,
    manifests: [nicClusterPolicy(s)],
    version: {
      value: driverVersion(s),
      field: { kind: 'NicClusterPolicy', path: ['spec', 'ofedDriver', 'version'] }
    },
    departsFromGuide:
      'Waits on the label nvidia.com/ofed-driver (on every OFED pod) instead of app=mofed-ubuntu22.04-ds, which matches no pod since Network Operator v24.4; the policy is embedded and pinned instead of kubectl apply -k of a moving branch. ' +
      `Its nodeAffinity also requires ${LABELS.agentPool} In [${stackPoolNames(s).join(', ')}] (the managed pools: the driver never lands on another pool) and it tolerates their taints (spec.tolerations).`
  }),
  health,
  placement: { on: 'pool-nodes', after: ['node-feature-rule'] },
  driftExtras: ofedDriverDrift,
  hints: view => {
    const out: string[] = []
    const policy = named(view.snapshot?.policies, POLICY_NAME)
    const ofedPods = view.snapshot?.pods ?? []
    if (ofedPods.length === 0 && (noOfedPods(policy, ofedPods) || !policy?.status))
      out.push(
        `state-OFED is not ready and there is no OFED driver pod: the NodeFeatureRule is missing or matched no node, so nothing labels ` +
          `${LABELS.pci15b3}=true and the Network Operator schedules no driver (check \`kubectl get nodefeaturerule ${NODE_FEATURE_RULE}\` and the node labels).`
      )
    const nr = notReadyStates(policy)
    if (nr.length) out.push(`NicClusterPolicy states not ready: ${nr.join('; ')}.`)
    return out
  },
  check: { name: 'ofed-driver', skip: () => undefined },
  removal,
  rollsDriver: s => upgradePolicyText(nicClusterPolicy(s))
}
