// `plan --mode uninstall`: what uninstall would remove, in its order, from the same list uninstall runs
// (src/components/removal.ts), offline. See docs/day-two.md.
import { OWNERSHIP_RULE, uninstallPlan, type RemovableObject } from '../components/removal.js'
import type { SourceSpec } from '../health/types.js'
import type { Settings } from '../settings/settings.js'

export interface UninstallPlanStep {
  name: string
  title: string
  /** What uninstall runs for this part, in order, as commands a person could run. */
  commands: string[]
  /** What it waits for until none is left. */
  waits: string[]
  note?: string
}

export interface UninstallPlanDocument {
  mode: 'plan'
  planMode: 'uninstall'
  cluster: { resourceGroup: string; name: string; nodePool: string }
  steps: UninstallPlanStep[]
  /** The node pool and cluster: kept, or deleted when the action created them (cleanup). */
  azure: string
  /** What stays: uninstall never removes these. */
  stays: string[]
}

const where = (ns?: string): string => (ns ? ` -n ${ns}` : '')

function deleteCommand(o: RemovableObject): string {
  return `kubectl delete ${o.kind.toLowerCase()} ${o.name}${where(o.namespace)} --wait  # only when ${OWNERSHIP_RULE}`
}

function waitCommand(src: SourceSpec): string {
  return `kubectl wait --for=delete ${src.kind.toLowerCase()}${where(src.namespace)}${src.labelSelector ? ` -l ${src.labelSelector}` : ''}`
}

function azurePlan(s: Settings): string {
  const pool = `node pool ${s.nodePool.name}`
  const cluster = `cluster ${s.cluster.resourceGroup}/${s.cluster.name}`
  if (s.cleanup === 'node-pool')
    return `${pool}: deleted when its aks-rdma-action-created-by tag is a run identity the action wrote (and the one the ownership record holds, when it holds one); ${cluster} stays`
  if (s.cleanup === 'cluster')
    return `${cluster}: deleted when its aks-rdma-action-created-by tag is a run identity the action wrote, with its pools`
  return `${pool} and ${cluster} stay (cleanup: none)`
}

export function buildUninstallPlan(s: Settings): UninstallPlanDocument {
  return {
    mode: 'plan',
    planMode: 'uninstall',
    cluster: { resourceGroup: s.cluster.resourceGroup, name: s.cluster.name, nodePool: s.nodePool.name },
    steps: uninstallPlan(s).map(p => ({
      name: p.name,
      title: p.title,
      commands: [
        ...p.objects.map(deleteCommand),
        ...(p.release
          ? [
              `helm uninstall ${p.release.release} -n ${p.release.namespace} --wait  # only when it runs chart ${p.release.chart} and is recorded with its first deployment (or adopt-releases: true)`
            ]
          : []),
        ...p.namespaces.map(deleteCommand)
      ],
      waits: p.leftovers.map(waitCommand),
      ...(p.note ? { note: p.note } : {})
    })),
    azure: azurePlan(s),
    stays: [
      'the CRDs the charts installed (helm never deletes them; deleting them would delete every custom resource of their kinds)',
      'on the nodes: the memlock drop-ins ib-node-config wrote and the kernel modules it loaded, until the nodes are reimaged (docs/day-two.md says how to remove them)',
      'node labels NFD and the operators set (feature.node.kubernetes.io/*, nvidia.com/*, network.nvidia.com/*)'
    ]
  }
}

/** The uninstall plan as text, in order. */
export function renderUninstallPlanText(plan: UninstallPlanDocument): string {
  const out = [
    `Uninstall plan for ${plan.cluster.resourceGroup}/${plan.cluster.name} (pool ${plan.cluster.nodePool}): removes only what the action created (what kube-system/aks-rdma-action-owned records; a label is never enough), in reverse order, under the Lease`,
    `When other managed pools remain (the record's pools.json; plan reads no cluster): nothing below is removed; pool ${plan.cluster.nodePool} is taken out of the managed pools and the stack is applied again for the others (its driver pods stop and unload their drivers). A pool that is not managed changes nothing. As the last managed pool:`
  ]
  plan.steps.forEach((st, i) => {
    out.push('', `${i + 1}. ${st.name} — ${st.title}`)
    for (const c of st.commands) out.push(`  ${c}`)
    for (const w of st.waits) out.push(`  ${w}`)
    if (st.note) out.push(`  (${st.note})`)
  })
  out.push('', `Azure: ${plan.azure}`, '', 'Stays:')
  for (const x of plan.stays) out.push(`  - ${x}`)
  return out.join('\n') + '\n'
}

/** The uninstall plan as Markdown for the job summary. */
export function renderUninstallPlanMarkdown(plan: UninstallPlanDocument): string {
  return [
    `## aks-rdma-action uninstall plan: ${plan.cluster.resourceGroup}/${plan.cluster.name}`,
    '',
    '```',
    renderUninstallPlanText(plan).replace(/```/g, "'''"),
    '```',
    ''
  ].join('\n')
}
