// `node dist/cli.js simulate`: starts a world, points the action at it (unless the caller gave
// the inputs), runs the main and post steps as the runner would (once, --runs N in sequence or
// --concurrent N at once), prints the job summary and outputs, writes the report with the
// world's request counts and what the post step did, stops the world and exits non-zero when
// either step failed (on GitHub, a failed post step is a failed job too).
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { helmReleaseCounts } from './helm/index.js'
import { runAction, type ActionRun } from './run-action.js'
import { applyMutations, type Mutation } from './setup.js'
import { startWorld, type World } from './world.js'

export interface SimulateOptions {
  scenarioFile?: string
  scenarioOverrides?: unknown
  inputs: Record<string, string>
  reportPath?: string
  runs: number
  concurrent: number
  distDir: string
  helmCommand: string[]
  /** Where progress and the action's log go (the CLI: stdout). */
  print: (text: string) => void
  /** Stream the action's own log (default true). */
  streamLog?: boolean
}

export interface SimCounts {
  requests: ReturnType<World['recorder']['counts']>
  kubeletRestarts: Record<string, number>
  helm: { installs: number; upgrades: number }
}

export interface SimulateResult {
  exitCode: number
  report: Record<string, unknown>
  runs: ActionRun[]
}

function simCounts(
  world: World,
  restartsBefore: Record<string, number>,
  helmBefore: { installs: number; upgrades: number }
): SimCounts {
  const restarts: Record<string, number> = {}
  for (const [node, n] of Object.entries(world.kube.kubeletRestarts()))
    restarts[node] = n - (restartsBefore[node] ?? 0)
  const helm = helmNow(world)
  return {
    requests: world.recorder.counts(),
    kubeletRestarts: restarts,
    helm: { installs: helm.installs - helmBefore.installs, upgrades: helm.upgrades - helmBefore.upgrades }
  }
}

function helmNow(world: World): { installs: number; upgrades: number } {
  const type = world.kube.store.type('', 'secrets')!
  return helmReleaseCounts(world.kube.store.list(type, { labelSelector: 'owner=helm' }).items)
}

/** What the post step reported, with its real exit code (it may have failed before writing). */
export interface PostSection {
  exitCode: number
  cleanup: Array<{ resource: string; name: string; result: string; reason?: string }>
}

function actionReport(run: ActionRun): Record<string, unknown> {
  const p = run.outputs['report-path']
  const report: Record<string, unknown> =
    p && existsSync(p)
      ? JSON.parse(readFileSync(p, 'utf8'))
      : {
          result: run.outputs.result ?? (run.exitCode === 0 ? 'success' : 'failure'),
          outputs: run.outputs,
          steps: []
        }
  const written = report.post as Partial<PostSection> | undefined
  const post: PostSection = { exitCode: run.postExitCode, cleanup: written?.cleanup ?? [] }
  return { ...report, exitCode: run.exitCode, post }
}

/** The exit code of a job made of these runs: the worst of every main and post step. */
export function jobExitCode(runs: ActionRun[]): number {
  return runs.reduce((worst, r) => Math.max(worst, r.exitCode, r.postExitCode), 0)
}

export async function simulate(o: SimulateOptions): Promise<SimulateResult> {
  const world = await startWorld({
    scenarioFile: o.scenarioFile,
    scenarioOverrides: o.scenarioOverrides,
    helmCommand: o.helmCommand
  })
  try {
    const inputs = { ...world.inputs(), ...o.inputs }
    if (inputs['auth-type'] === 'secret' && !inputs['client-secret'])
      inputs['client-secret'] = world.scenario.azure.clientSecret
    const env = world.env()
    // The action gets its kubeconfig from ARM, like in production: no KUBECONFIG from the world.
    delete (env as Record<string, string>).KUBECONFIG
    let runCounter = 0
    const once = (extra: Record<string, string> = {}, stream = o.streamLog !== false) =>
      runAction({
        distDir: o.distDir,
        inputs: { ...inputs, ...extra },
        env,
        runId: `${Date.now()}${++runCounter}`,
        onLog: stream ? t => o.print(t) : undefined
      })

    const setup = world.scenario.setup
    if (setup?.apply) {
      o.print('simulate: setup: running the action in apply mode first (not counted)\n')
      const pre = await once({ mode: 'apply' }, false)
      if (pre.exitCode !== 0)
        o.print(`simulate: setup apply exited ${pre.exitCode}\n${pre.log.slice(-4000)}\n`)
    }
    if (setup?.mutate?.length)
      for (const line of applyMutations(world, setup.mutate as unknown as Mutation[]))
        o.print(`simulate: setup: ${line}\n`)

    const runs: ActionRun[] = []
    const entries: Array<Record<string, unknown>> = []
    if (o.concurrent > 1) {
      world.recorder.reset()
      const restarts = world.kube.kubeletRestarts()
      const helm = helmNow(world)
      const all = await Promise.all(Array.from({ length: o.concurrent }, () => once({}, false)))
      const shared = simCounts(world, restarts, helm)
      for (const r of all) {
        runs.push(r)
        entries.push({ ...actionReport(r), sim: { ...shared, shared: true } })
      }
    } else {
      for (let i = 0; i < o.runs; i++) {
        world.recorder.reset()
        const restarts = world.kube.kubeletRestarts()
        const helm = helmNow(world)
        if (o.runs > 1) o.print(`\nsimulate: run ${i + 1} of ${o.runs}\n`)
        const r = await once()
        runs.push(r)
        entries.push({ ...actionReport(r), sim: simCounts(world, restarts, helm) })
      }
    }

    for (const [i, r] of runs.entries()) {
      o.print(`\n===== job summary${runs.length > 1 ? ` (run ${i + 1})` : ''} =====\n${r.summary}\n`)
      o.print(`===== outputs${runs.length > 1 ? ` (run ${i + 1})` : ''} =====\n`)
      for (const [k, v] of Object.entries(r.outputs)) o.print(`${k}=${v}\n`)
    }
    const report = entries.length === 1 ? entries[0] : { runs: entries }
    const reportPath = o.reportPath ?? path.join(tmpdir(), 'aks-rdma-simulate-report.json')
    writeFileSync(reportPath, JSON.stringify(report, null, 2) + '\n')
    o.print(`\nreport: ${reportPath}\n`)
    for (const [i, r] of runs.entries())
      if (r.postExitCode !== 0)
        o.print(
          `simulate: the post step${runs.length > 1 ? ` of run ${i + 1}` : ''} failed (exit ${r.postExitCode}); on GitHub the job fails\n`
        )
    return { exitCode: jobExitCode(runs), report, runs }
  } finally {
    await world.close()
  }
}
