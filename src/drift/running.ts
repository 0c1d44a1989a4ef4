// Drift of what actually runs, which no manifest of ours states directly: the OFED driver
// DaemonSets and pods the Network Operator renders from the NicClusterPolicy (image
// `<repository>/<image>:<version>-…`), the device plugin pods' image, and the GPU Operator's
// ClusterPolicy spec.driver.rdma rendered from the chart values. Each check is skipped when the
// drift it would follow from is already reported (the policy, the DaemonSet, the helm values):
// one cause, one item.
import type { KubeClient } from '../kube/client.js'
import type { KubeObject } from '../kube/types.js'
import { LABELS, type KubeManifest } from '../model/types.js'
import type { DriftItem } from '../report/report.js'
import { shortValue } from './paths.js'

const isMap = (v: unknown): v is Record<string, any> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** Pod images of `container` that differ from `ok`, as "image on N/M pods (node, …)". */
function podImages(
  pods: KubeObject[],
  container: string,
  ok: (image: string) => boolean
): { bad: number; summary: string } | undefined {
  const off = new Map<string, string[]>()
  for (const p of pods) {
    const c = (p.spec?.containers ?? []).find((x: { name: string }) => x.name === container)
    if (!c || ok(c.image)) continue
    off.set(c.image, [...(off.get(c.image) ?? []), p.spec?.nodeName ?? p.metadata.name])
  }
  if (off.size === 0) return undefined
  const bad = [...off.values()].reduce((n, l) => n + l.length, 0)
  const summary = [...off.entries()]
    .map(
      ([img, where]) =>
        `${img} on ${where.length}/${pods.length} pods (${where.slice(0, 3).join(', ')}${where.length > 3 ? ', …' : ''})`
    )
    .join('; ')
  return { bad, summary: shortValue(summary, 200) }
}

const OFED_CONTAINER = 'mofed-container'
const NETWORK_OPERATOR_NAMESPACE = 'network-operator'

/**
 * The OFED driver DaemonSets (-l nvidia.com/ofed-driver) and their pods run the policy's driver:
 * `<repository>/<image>:<version>-<os><ver>-<arch>`. `policyDrifted`: the NicClusterPolicy's
 * ofedDriver already differs (the operator follows it, so nothing more is said).
 */
export async function ofedDriverDrift(
  kube: KubeClient,
  policy: KubeManifest,
  o: { component: string; policyDrifted: boolean }
): Promise<DriftItem[]> {
  const ofed = isMap(policy.spec) && isMap(policy.spec.ofedDriver) ? policy.spec.ofedDriver : undefined
  if (!ofed || o.policyDrifted) return []
  const prefix = `${ofed.repository}/${ofed.image}:${ofed.version}-`
  const ok = (image: string | undefined): boolean => typeof image === 'string' && image.startsWith(prefix)
  const sel = { namespace: NETWORK_OPERATOR_NAMESPACE, labelSelector: LABELS.ofedDriverPod }
  const { items: sets } = await kube.list('apps/v1', 'DaemonSet', sel)
  const out: DriftItem[] = []
  for (const ds of sets) {
    const containers: Array<{ name: string; image: string }> = ds.spec?.template?.spec?.containers ?? []
    const c = containers.find(x => x.name === OFED_CONTAINER) ?? containers[0]
    if (!c || ok(c.image)) continue
    out.push({
      component: o.component,
      field: `daemonset/${ds.metadata.name} spec.template.spec.containers[${c.name}].image`,
      desired: `${prefix}…`,
      actual: shortValue(c.image),
      fixableByApply: false,
      hint: 'the policy is as desired but the Network Operator did not render it: check its logs (kubectl logs -n network-operator deploy/network-operator); a hand edit of the DaemonSet is reverted by the operator'
    })
  }
  if (out.length) return out
  const { items: pods } = await kube.list('v1', 'Pod', sel)
  const off = podImages(pods, OFED_CONTAINER, ok)
  if (off)
    out.push({
      component: o.component,
      field: `pods -l ${LABELS.ofedDriverPod} spec.containers[${OFED_CONTAINER}].image`,
      desired: `${prefix}…`,
      actual: off.summary,
      fixableByApply: false,
      hint: 'the driver DaemonSets update OnDelete: the Network Operator replaces these pods node by node when ofedDriver.upgradePolicy.autoUpgrade is true; otherwise drain the node and delete its driver pod'
    })
  return out
}

/**
 * The device plugin pods run the DaemonSet's desired image. `daemonSetDrifted`: the DaemonSet
 * itself already differs (or is absent), which says it all.
 */
export async function devicePluginPodsDrift(
  kube: KubeClient,
  daemonSet: KubeManifest,
  o: { component: string; daemonSetDrifted: boolean }
): Promise<DriftItem[]> {
  if (o.daemonSetDrifted) return []
  const spec = daemonSet.spec as {
    selector: { matchLabels: Record<string, string> }
    template: { spec: { containers: Array<{ name: string; image: string }> } }
  }
  const c = spec.template.spec.containers[0]
  const labelSelector = Object.entries(spec.selector.matchLabels)
    .map(([k, v]) => `${k}=${v}`)
    .join(',')
  const { items: pods } = await kube.list('v1', 'Pod', {
    namespace: daemonSet.metadata.namespace,
    labelSelector
  })
  const off = podImages(pods, c.name, image => image === c.image)
  if (!off) return []
  return [
    {
      component: o.component,
      field: `pods -l ${labelSelector} spec.containers[${c.name}].image`,
      desired: c.image,
      actual: off.summary,
      fixableByApply: false,
      hint: `the DaemonSet is as desired but ${off.bad} pod(s) still run another image: check the rollout (kubectl rollout status ds/${daemonSet.metadata.name} -n ${daemonSet.metadata.namespace})`
    }
  ]
}

/**
 * ClusterPolicy `cluster-policy` spec.driver.rdma as the desired chart values render it
 * (enabled, useHostMofed). `coveredValues`: value paths already reported as differing in the
 * release (`driver.rdma.useHostMofed`, or `driver` as a whole), whose ClusterPolicy counterpart
 * follows from them.
 */
export async function clusterPolicyRdmaDrift(
  kube: KubeClient,
  values: Record<string, unknown>,
  o: { component: string; namespace: string; release: string; coveredValues: string[] }
): Promise<DriftItem[]> {
  const rdma = isMap(values.driver) && isMap(values.driver.rdma) ? values.driver.rdma : {}
  const desired = { enabled: rdma.enabled === true, useHostMofed: rdma.useHostMofed === true }
  let policy: KubeObject | undefined
  try {
    policy = await kube.get({ apiVersion: 'nvidia.com/v1', kind: 'ClusterPolicy', name: 'cluster-policy' })
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e)
    if (!/not serve|404|not found|Unrecognized API/i.test(msg)) throw e
  }
  const rerender = `the release is as desired but its ClusterPolicy was changed: helm upgrade ${o.release} -n ${o.namespace} --reuse-values re-renders it (apply does not upgrade an unchanged release)`
  if (!policy)
    return [
      {
        component: o.component,
        field: 'clusterpolicy/cluster-policy',
        desired: 'present',
        actual: 'absent',
        fixableByApply: false,
        hint: rerender
      }
    ]
  const live = isMap(policy.spec?.driver?.rdma) ? policy.spec.driver.rdma : {}
  const out: DriftItem[] = []
  for (const key of ['enabled', 'useHostMofed'] as const) {
    const path = `driver.rdma.${key}`
    if (o.coveredValues.some(c => c === path || path.startsWith(`${c}.`))) continue
    const actual = live[key] === true
    if (actual === desired[key]) continue
    out.push({
      component: o.component,
      field: `clusterpolicy/cluster-policy spec.driver.rdma.${key}`,
      desired: String(desired[key]),
      actual: live[key] === undefined ? '(absent)' : String(live[key]),
      fixableByApply: false,
      hint: `${rerender}; or kubectl patch clusterpolicy cluster-policy --type merge -p '{"spec":{"driver":{"rdma":{"${key}":${desired[key]}}}}}'`
    })
  }
  return out
}
