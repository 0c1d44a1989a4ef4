// Rules and sources more than one component uses, built from the rendered manifests (never
// re-typed names or selectors): a workload's pods and the action's own objects of a kind, a
// DaemonSet rolled out, a named object's status.state, an allocatable resource on every node.
import { allocatable } from '../kube/quantity.js'
import { selectorOf, type KubeObject } from '../kube/types.js'
import { blockingTaints, describeTaint } from '../model/tolerations.js'
import { UPGRADE_DRIVERS, upgradeStateBlocking, type UpgradeDriver } from '../model/node-blockers.js'
import { LABELS, type KubeManifest } from '../model/types.js'
import { oneLine } from '../util/text.js'
import { met, missing, type ClusterRule, type NodeRule, type SourceSpec } from './types.js'

/** The pods a workload (DaemonSet, Deployment) of ours runs: its namespace and its selector. */
export function podsOf(workload: KubeManifest): SourceSpec {
  const spec = workload.spec as { selector: { matchLabels: Record<string, string> } }
  return {
    name: `${workload.metadata.name}-pods`,
    apiVersion: 'v1',
    kind: 'Pod',
    ...(workload.metadata.namespace ? { namespace: workload.metadata.namespace } : {}),
    labelSelector: selectorOf(spec.selector.matchLabels)
  }
}

/** The action's own objects of a manifest's kind in its namespace (label aks-rdma-action/managed); rules pick theirs by name. */
export function managedLike(m: KubeManifest): SourceSpec {
  return {
    name: `${m.kind.toLowerCase()}s`,
    apiVersion: m.apiVersion,
    kind: m.kind,
    ...(m.metadata.namespace ? { namespace: m.metadata.namespace } : {}),
    labelSelector: `${LABELS.managed}=true`
  }
}

/** A named object among those observed (e.g. the policy `nic-cluster-policy`). */
export function named(objects: KubeObject[] | undefined, name: string): KubeObject | undefined {
  return (objects ?? []).find(o => o.metadata.name === name)
}

/** `no <what> pod (-n <ns> -l <selector>)`. */
export function noPod(what: string, pods: SourceSpec): string {
  return `no ${what} pod (-n ${pods.namespace} -l ${pods.labelSelector})`
}

/** Whether a DaemonSet's controller has caught up and every scheduled pod is ready (and updated, unless OnDelete). */
export function daemonSetRolledOut(
  ds: KubeObject | undefined,
  expected: number
): { done: boolean; detail: string } {
  if (!ds) return { done: false, detail: 'DaemonSet not found' }
  const st = ds.status ?? {}
  const generation = ds.metadata.generation ?? 0
  if ((st.observedGeneration ?? 0) < generation)
    return { done: false, detail: 'DaemonSet controller has not observed the latest spec' }
  const desired = st.desiredNumberScheduled ?? 0
  const ready = st.numberReady ?? 0
  const onDelete = ds.spec?.updateStrategy?.type === 'OnDelete'
  const updated = onDelete ? desired : (st.updatedNumberScheduled ?? 0)
  const detail = `${ready}/${desired} ready${onDelete ? '' : `, ${updated}/${desired} updated`}`
  return {
    done:
      desired >= expected && ready === desired && updated === desired && (st.numberUnavailable ?? 0) === 0,
    detail
  }
}

/** The DaemonSet `ds` (observed in the source `daemonsets`) rolled out on every RDMA node. */
export function rolledOut(ds: KubeManifest): ClusterRule {
  const where = `daemonset/${ds.metadata.name} -n ${ds.metadata.namespace}`
  return {
    text: `${where}: numberReady == desiredNumberScheduled ≥ RDMA nodes, every pod of the current spec`,
    check: (snap, pool) => {
      const r = daemonSetRolledOut(named(snap.daemonsets, ds.metadata.name), pool.length)
      return {
        ok: r.done,
        message: `daemonset ${r.detail}`,
        ...(r.done ? {} : { problem: `${where}: ${r.detail}` })
      }
    }
  }
}

/**
 * The object `name` (observed in the source `key`) has status.state `ready`. `what` names it in
 * full (`NicClusterPolicy nic-cluster-policy`), `short` on the progress line (`policy`);
 * `problem` says what is wrong with one that is not ready.
 */
export function stateReady(o: {
  key: string
  what: string
  name: string
  short: string
  problem(object: KubeObject, snapshot: Record<string, KubeObject[]>): string
}): ClusterRule {
  const kind = o.what.split(' ')[0].toLowerCase()
  return {
    text: `${kind}/${o.name} status.state == ready`,
    check: (snap, _pool, ctx) => {
      const error = ctx.unreadable?.[o.key]
      if (error)
        return {
          ok: false,
          message: `${o.short} could not be read`,
          problem: `${o.what} could not be read: ${oneLine(error)}`
        }
      const obj = named(snap[o.key], o.name)
      if (!obj) return { ok: false, message: `${o.short} not found`, problem: `${o.what} not found` }
      const state = obj.status?.state as string | undefined
      const ok = state === 'ready'
      return {
        ok,
        message: `${o.short} state ${state ?? '(none yet)'}`,
        ...(ok ? {} : { problem: o.problem(obj, snap) })
      }
    }
  }
}

/** The node advertises `resource` (allocatable > 0, read as a quantity: `1k` is a thousand). */
export function allocatableOn(resource: string): NodeRule {
  return {
    text: `status.allocatable["${resource}"] > 0`,
    summarize: true,
    check: node => {
      const a = allocatable(node, resource)
      return a.value > 0
        ? met(`allocatable ${resource} = ${a.text}`)
        : missing(`allocatable ${resource} = ${a.text ?? '<absent>'}`)
    }
  }
}

/**
 * The DaemonSet `ds` as it runs (observed in the source `daemonsets`) tolerates every taint of the
 * pool's nodes; otherwise its pods never land there and the step fails at once, naming them.
 */
export function toleratesPool(ds: KubeManifest, what: string): ClusterRule {
  const where = `daemonset/${ds.metadata.name} -n ${ds.metadata.namespace}`
  return {
    text: `${where} tolerates the taints of every RDMA node`,
    check: (snap, pool) => {
      const live = named(snap.daemonsets, ds.metadata.name)
      if (!live) return { ok: true, message: '' }
      const tolerations: unknown[] = live.spec?.template?.spec?.tolerations ?? []
      const off = pool
        .map(n => ({ node: n.metadata.name, taints: blockingTaints(n, tolerations).map(describeTaint) }))
        .filter(x => x.taints.length)
      if (!off.length) return { ok: true, message: '' }
      const taints = [...new Set(off.flatMap(x => x.taints))].join(', ')
      const problem =
        `${where} does not tolerate node taint ${taints} of ${off.length} node(s) (${off.map(x => x.node).join(', ')}): ` +
        `${what} is never scheduled there (add the taint to node-taints so the stack tolerates it)`
      return { ok: false, message: 'taint not tolerated', problem, fail: problem }
    }
  }
}

/**
 * No driver upgrade is going on on the node: its upgrade-state label (set by NVIDIA's upgrade
 * controller for `driver`) is absent or upgrade-done. Any other state is a node the operator has
 * taken out (cordoned, drained) or is bringing back, named with its state and what resolves it;
 * upgrade-failed needs a person.
 */
export function driverUpgradeSettled(driver: UpgradeDriver): NodeRule {
  const d = UPGRADE_DRIVERS[driver]
  return {
    text: `no ${d.what} upgrade in progress (label ${d.label} absent or upgrade-done)`,
    check: node => {
      const b = upgradeStateBlocking(driver, node.metadata.labels?.[d.label] ?? '', node.metadata.name)
      return b ? missing(`${b.message}; fix: ${b.fix}`) : met()
    }
  }
}
