// plan mode: the whole desired state as a document and its text, with no credentials and no network
// call. See docs/design.md ("Five walks of the same list").
import { stringify } from 'yaml'
import { buildStack } from '../components/index.js'
import { benchmarkPlan, type BenchmarkPlan } from '../benchmark/plan.js'
import { templateCrdsArgv } from '../helm/helm.js'
import { helmRepoAddArgv, helmUpgradeArgv } from './helm-argv.js'
import { transportPlan, type TransportPlan } from '../transport/plan.js'
import { collectivePlan, type CollectivePlan } from '../collective/plan.js'
import { LABELS, type AzureOperation, type KubeManifest, type Readiness } from '../model/types.js'
import { OWNERSHIP_RECORD } from '../stack/ownership.js'
import { POOLS_KEY } from '../stack/pool-record.js'
import type { Settings } from '../settings/settings.js'
import { findRdmaVmSize } from '../settings/vm-sizes.js'
import { verificationChecks, type CheckSpec } from '../verify/read-only-checks.js'

export interface PlanComponent {
  name: string
  kind: string
  title: string
  enabled: boolean
  skipReason?: string
  azure?: AzureOperation[]
  helm?: {
    release: string
    chart: string
    version: string
    namespace: string
    commands: string[][]
    /**
     * An upgrade from another chart version first applies (server-side) and waits Established for
     * the CustomResourceDefinitions this renders: helm never upgrades the CRDs of an installed chart.
     */
    crdsFirst: string[]
    values: Record<string, unknown>
  }
  /** What changing it on a running cluster does beyond writing (a driver rollout, pods replaced). */
  onChange?: string
  /** What apply does when the cluster runs a newer version of it (refuse, or allow-downgrade). */
  downgrade?: string
  manifests?: KubeManifest[]
  readiness: Readiness
  departsFromGuide?: string
}

export interface PlanDocument {
  mode: 'plan'
  cluster: {
    resourceGroup: string
    name: string
    nodePool: string
    vmSize: string
    nodeCount: number
    /** The size's GPUs and InfiniBand NICs with their nominal rate (the benchmark's fallback line rate). */
    hardware: string | null
  }
  /** The pools the cluster-wide objects select, before and after the run (plan reads no cluster: the recorded ones are named, not listed). */
  pools: { before: string; after: string }
  rollout: Settings['wait']['rollout']
  components: PlanComponent[]
  verification: CheckSpec[]
  benchmark: BenchmarkPlan
  transport: TransportPlan
  collective: CollectivePlan
}

export function buildPlan(s: Settings): PlanDocument {
  return {
    mode: 'plan',
    cluster: {
      resourceGroup: s.cluster.resourceGroup,
      name: s.cluster.name,
      nodePool: s.nodePool.name,
      vmSize: s.nodePool.vmSize,
      nodeCount: s.nodePool.count,
      hardware: hardwareOf(s.nodePool.vmSize)
    },
    pools: planPools(s),
    rollout: s.wait.rollout,
    components: buildStack(s).map(c => ({
      name: c.name,
      kind: c.kind,
      title: c.title,
      enabled: c.enabled,
      ...(c.skipReason ? { skipReason: c.skipReason } : {}),
      ...(c.azure ? { azure: c.azure } : {}),
      ...(c.helm
        ? {
            helm: {
              release: c.helm.release,
              chart: c.helm.chart,
              version: c.helm.version,
              namespace: c.helm.namespace,
              commands: [
                ['helm', ...helmRepoAddArgv(c.helm)],
                [
                  'helm',
                  ...helmUpgradeArgv(c.helm, `<values-${c.helm.release}.yaml>`, {
                    timeoutMs: s.wait.stepTimeoutMs
                  })
                ]
              ],
              crdsFirst: ['helm', ...templateCrdsArgv(c.helm, `<values-${c.helm.release}.yaml>`)],
              values: c.helm.values
            }
          }
        : {}),
      ...(c.manifests ? { manifests: c.manifests } : {}),
      readiness: c.readiness,
      ...(c.departsFromGuide ? { departsFromGuide: c.departsFromGuide } : {}),
      ...(c.onChange ? { onChange: c.onChange } : {}),
      ...(c.version ? { downgrade: downgradeText(c, s) } : {})
    })),
    verification: verificationChecks(s),
    benchmark: benchmarkPlan(s),
    transport: transportPlan(s),
    collective: collectivePlan(s)
  }
}

/** What apply does with a component the cluster runs at a newer version than the inputs ask for. */
function downgradeText(c: ReturnType<typeof buildStack>[number], s: Settings): string {
  const field = c.version?.field
  const what = field ? `${field.kind} ${field.path.join('.')}` : 'chart version'
  const want = c.version?.value ?? ''
  if (!s.stack.allowDowngrade)
    return `a newer ${what} than ${want} installed: the run is refused before any write (allow-downgrade: false)`
  return (
    `a newer ${what} than ${want} installed: downgraded to ${want} (allow-downgrade: true)` +
    (c.helm ? '; a CRD applied from a newer version of the chart is kept, not replaced' : '')
  )
}

function indent(text: string, by = '    '): string {
  return text
    .trimEnd()
    .split('\n')
    .map(l => by + l)
    .join('\n')
}

/** The transport check's part of the plan text: its pods, what they run, the pass rule. */
function transportLines(t: TransportPlan): string[] {
  if (!t.enabled) return ['Transport check: off (transport-check: none)']
  const requests = Object.entries(t.resources)
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ')
  return [
    `Transport check (${t.check}, image ${t.image}): two worker pods, one per RDMA node, each requesting ${requests}`,
    `  user: ${t.user}`,
    `  /dev/shm: ${t.shm}`,
    `  env: ${t.env.map(e => `${e.name}=${e.value}`).join(' ')}`,
    `  UCX_NET_DEVICES: ${t.netDevices}`,
    '  each pod first checks:',
    ...t.preflight.map(p => `    - ${p}`),
    `  server: ${t.server.join(' ')} (twice: one run per client test)`,
    ...t.client.map(c => `  client: ${c.join(' ')}`),
    `  pass: ${t.passRule}`
  ]
}

/** The collective check's part of the plan text: its pods, objects, commands and the pass rule. */
function collectiveLines(c: CollectivePlan): string[] {
  if (!c.enabled) return ['Collective check: off (collective-check: none)']
  const requests = Object.entries(c.resources)
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ')
  return [
    `Collective check (${c.check}, image ${c.image}): one pod per RDMA node of the benchmark's ${c.scope} scope (root with IPC_LOCK, a memory-backed /dev/shm), each requesting ${requests}`,
    ...c.objects.map(o => `  creates: ${o}`),
    `  env: ${Object.entries(c.env)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}`,
    `  every pod: ${c.intra.join(' ')}`,
    `  pair's worker: then sshd -D -p 2222; pair's launcher: then ${c.inter.join(' ')}`,
    `  pass: ${c.passRule}`
  ]
}

/**
 * The pools before and after, as an offline plan can know them: the managed pools the ownership
 * record lists (it reads no cluster), and those with the run's pool.
 */
export function planPools(s: Settings): { before: string; after: string } {
  const pool = s.nodePool.name
  const recorded = `the managed pools ${OWNERSHIP_RECORD.namespace}/${OWNERSHIP_RECORD.name} records (${POOLS_KEY}; plan reads no cluster, so it cannot list them)`
  return {
    before: recorded,
    after: `${recorded}, and ${pool}: apply adds ${pool} and never removes another; the manifests below are rendered for ${pool} alone, and apply renders ${LABELS.agentPool} In [every managed pool]`
  }
}

/** `4 × B300 GPUs, 4 × 800 Gb/s InfiniBand (ConnectX-8), arm64`, or null for a size outside the table. */
function hardwareOf(vmSize: string): string | null {
  const size = findRdmaVmSize(vmSize)
  if (!size) return null
  const gpus = size.gpus ? `${size.gpus} × ${size.gpuModel} GPUs, ` : ''
  return `${gpus}${size.ibNics} × ${size.linkGbps} Gb/s InfiniBand (${size.nic}), ${size.arch}`
}

/** The plan as text, in order, for the log and `node dist/cli.js plan`. */
export function renderPlanText(plan: PlanDocument): string {
  const out: string[] = []
  out.push(
    `Plan for ${plan.cluster.resourceGroup}/${plan.cluster.name}: pool ${plan.cluster.nodePool} (${plan.cluster.nodeCount} × ${plan.cluster.vmSize}), rollout ${plan.rollout}`,
    `Pools the stack serves: before, ${plan.pools.before}; after, ${plan.pools.after}`
  )
  if (plan.cluster.hardware) out.push(`Each node: ${plan.cluster.hardware}`)
  plan.components.forEach((c, i) => {
    out.push('')
    out.push(`${i + 1}. ${c.name} — ${c.title}${c.enabled ? '' : ` [skipped: ${c.skipReason}]`}`)
    for (const op of c.azure ?? []) {
      out.push(`  ${op.method} ${op.path}?api-version=${op.apiVersion}  (${op.when})`)
      for (const [h, v] of Object.entries(op.headers ?? {})) out.push(`    ${h}: ${v}`)
      if (op.body !== undefined) out.push(indent(JSON.stringify(op.body, null, 2)))
    }
    for (const m of c.manifests ?? []) {
      out.push(
        `  apply --server-side ${m.kind} ${m.metadata.namespace ? m.metadata.namespace + '/' : ''}${m.metadata.name}:`
      )
      out.push(indent(stringify(m)))
    }
    if (c.helm) {
      const [repoAdd, ...rest] = c.helm.commands
      out.push(`  ${repoAdd.join(' ')}`)
      out.push(
        `  upgrading from another chart version, first its CRDs (helm never upgrades them): the CustomResourceDefinitions of`,
        `    ${c.helm.crdsFirst.join(' ')}`,
        `    applied server-side (--force-conflicts), each waited for until Established`
      )
      for (const cmd of rest) out.push(`  ${cmd.join(' ')}`)
      out.push(`  values (${c.helm.release}):`)
      out.push(indent(stringify(c.helm.values)))
    }
    out.push(`  ready when: ${c.readiness.summary}`)
    for (const cond of c.readiness.conditions) out.push(`    - ${cond}`)
    if (c.departsFromGuide) out.push(`  departs from the guide: ${c.departsFromGuide}`)
    if (c.onChange) out.push(`  changed on a running cluster: ${c.onChange}`)
    if (c.downgrade) out.push(`  downgrade: ${c.downgrade}`)
  })
  out.push('')
  out.push('Verification checks:')
  for (const ch of plan.verification)
    out.push(`  - ${ch.name}: ${ch.description}${ch.readOnly ? '' : ' (creates a short-lived DaemonSet)'}`)
  out.push('')
  const b = plan.benchmark
  if (!b.enabled) out.push('Benchmark: off (benchmark: false)')
  else {
    out.push(
      `Benchmark (${b.scope}, image ${b.image}, GPUDirect ${b.gpudirect ? 'on' : 'off'}, requests ${Object.entries(
        b.resources
      )
        .map(([k, v]) => `${k}: ${v}`)
        .join(', ')}):`
    )
    for (const t of b.tests)
      out.push(`  ${t.tool} server: ${t.serverArgs.join(' ')}\n  ${t.tool} client: ${t.clientArgs.join(' ')}`)
    out.push(`  GPU memory: ${b.gpuPlacement}`)
    out.push(`  pass: ${b.passRule}`)
  }
  out.push('')
  out.push(...transportLines(plan.transport))
  out.push('')
  out.push(...collectiveLines(plan.collective))
  return out.join('\n') + '\n'
}

/** The plan as Markdown for the job summary. */
export function renderPlanMarkdown(plan: PlanDocument): string {
  const rows = plan.components.map(
    (c, i) =>
      `| ${i + 1} | \`${c.name}\` | ${c.kind} | ${c.enabled ? 'yes' : `skipped: ${c.skipReason}`} | ${c.readiness.summary.replace(/\|/g, '\\|')} |`
  )
  return [
    `## aks-rdma-action plan: ${plan.cluster.resourceGroup}/${plan.cluster.name}`,
    '',
    `Pool \`${plan.cluster.nodePool}\`: ${plan.cluster.nodeCount} × \`${plan.cluster.vmSize}\`${plan.cluster.hardware ? ` (each ${plan.cluster.hardware})` : ''}, rollout \`${plan.rollout}\`.`,
    '',
    '| # | Component | Kind | Runs | Ready when |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
    '<details><summary>Full plan</summary>',
    '',
    '```',
    renderPlanText(plan).replace(/```/g, "'''"),
    '```',
    '',
    '</details>',
    ''
  ].join('\n')
}
