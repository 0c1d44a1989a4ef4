// The action's main step: reads and checks every input before any network call, masks secrets, then
// runs the mode (plan prints; the other modes run the flow). Only orchestrates. Docs: docs/design.md#the-run.
import * as core from '@actions/core'
import { commandSafe, log } from './log/index.js'
import { buildPlan, renderPlanMarkdown, renderPlanText } from './plan/plan.js'
import {
  buildUninstallPlan,
  renderUninstallPlanMarkdown,
  renderUninstallPlanText
} from './plan/uninstall-plan.js'
import { actionInputReader } from './run/inputs.js'
import { setOutput } from './run/outputs.js'
import { InputError, readSettings, type SettingsResult } from './settings/input-helper.js'
import { usesAzure } from './settings/settings.js'
import { EXIT } from './exit-codes.js'

export { EXIT } from './exit-codes.js'

/**
 * What the plan shows for the run's identity (the created-by tag, the Lease holder): a run's id is
 * only known when it runs, and a plan must be the same document every time.
 */
export const PLAN_RUN_ID = '<run-id>'

export interface MainOptions {
  /** CLI only: plan as JSON on stdout. */
  output?: 'text' | 'json'
  /** CLI only: input problems as plain lines, not a failed-step annotation. */
  cli?: boolean
  /** Where results (the plan) go; default stdout, guarded (printPlanned). */
  print?: (text: string) => void
  /** CLI only: the run's nonce, drawn by the local runner that names its folders after it. */
  nonce?: string
}

/**
 * The plan on stdout, where the runner reads workflow commands: it quotes repository files (the
 * values files, the NicClusterPolicy) a pull request may have written, so a line of it that could
 * be taken for a command makes the whole plan a stop-commands block (commandSafe), as every other
 * text the action prints.
 */
export function printPlanned(plan: string, write = (text: string) => void process.stdout.write(text)): void {
  write(commandSafe(plan.endsWith('\n') ? plan.slice(0, -1) : plan) + '\n')
}

export async function runMain(opts: MainOptions = {}): Promise<number> {
  const print = opts.print ?? ((text: string) => printPlanned(text))
  let parsed: SettingsResult
  try {
    parsed = readSettings(actionInputReader, process.env, opts.nonce ? { nonce: opts.nonce } : {})
  } catch (e) {
    if (e instanceof InputError) {
      if (opts.cli) log.error(e.message)
      else core.setFailed(e.message)
      return EXIT.usage
    }
    throw e
  }
  for (const secret of parsed.secrets) log.secret(secret)
  for (const w of parsed.warnings) log.warning(w)
  const { settings } = parsed

  if (settings.mode === 'plan') {
    const plan = planOutput({ ...settings, runId: PLAN_RUN_ID })
    print(opts.output === 'json' ? JSON.stringify(plan.document, null, 2) + '\n' : plan.text)
    if (process.env.GITHUB_STEP_SUMMARY) await core.summary.addRaw(plan.markdown).write()
    setOutput('result', 'success')
    return EXIT.success
  }

  // The first line comes before the Azure SDK and the Kubernetes client are loaded (the flow's
  // chunk, which only the modes that reach Azure and the cluster import).
  log.info(runHeader(settings))
  const { runFlow } = await import('./run/flow.js')
  return runFlow(settings)
}

/** Plan mode's document, text and Markdown: apply's plan, or uninstall's. */
function planOutput(s: SettingsResult['settings']): { document: unknown; text: string; markdown: string } {
  if (s.planMode === 'uninstall') {
    const document = buildUninstallPlan(s)
    return {
      document,
      text: renderUninstallPlanText(document),
      markdown: renderUninstallPlanMarkdown(document)
    }
  }
  const document = buildPlan(s)
  return { document, text: renderPlanText(document), markdown: renderPlanMarkdown(document) }
}

/** The run's first log line: what it is about to do, to what. */
export function runHeader(s: SettingsResult['settings']): string {
  const c = s.cluster
  const context = `context ${c.kubeconfig?.context ?? '(current-context)'} of the given kubeconfig`
  const cluster = !c.kubeconfig
    ? `cluster ${c.resourceGroup}/${c.name}`
    : usesAzure(s)
      ? `cluster ${c.resourceGroup}/${c.name} (through the ${context})`
      : `the cluster of the ${context}, no Azure sign-in`
  // Only apply makes the pool from vm-size and node-count; the other modes find it as it is, and
  // say its live node count once they have read it.
  const pool =
    s.mode === 'apply'
      ? `node pool ${s.nodePool.name} (${s.nodePool.vmSize} × ${s.nodePool.count})`
      : `node pool ${s.nodePool.name}`
  return `aks-rdma-action ${s.mode}: ${cluster}, ${pool}`
}

/** Entry point of `npx @github/local-action . src/main.ts .env` (it imports run and awaits it). */
export async function run(): Promise<void> {
  process.exitCode = await runMain()
}
