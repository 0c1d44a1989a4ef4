// `node dist/cli.js simulate`: starts a world, points the action at it (unless the caller gave
// the inputs), runs the main and post steps as the runner would (once, --runs N in sequence or
// --concurrent N at once), prints each run's result (in a terminal the report as plain text,
// src/report/text.ts; under Actions the job summary's Markdown) and outputs, writes the report with the
// world's request counts and what the post step did, removes each run's runner folder (its
// report is in simulate's own), stops the world and exits non-zero when either step failed (on
// GitHub, a failed post step is a failed job too).
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { renderReportText, type TextReport } from '../src/report/text.js'
import { helmReleaseCounts } from './helm/index.js'
import { runAction, type ActionRun } from './run-action.js'
import { applyMutations, type Mutation } from './setup.js'
import { startWorld, type World } from './world.js'

/**
 * Writes the report (mode 0600): to `given`, the caller's own choice, else to report.json in a new
 * folder of the temporary folder (mkdtemp: a fresh name, mode 0700) created exclusively, so nothing
 * another user planted in a shared /tmp (a link to a file of yours) is followed or overwritten.
 */
export function writeReport(text: string, given?: string): string {
  if (given) {
    writeFileSync(given, text, { mode: 0o600 })
    return given
  }
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'aks-rdma-simulate-')), 'report.json')
  writeFileSync(file, text, { mode: 0o600, flag: 'wx' })
  return file
}

export interface SimulateOptions {
  scenarioFile?: string
  scenarioOverrides?: unknown
  inputs: Record<string, string>
  reportPath?: string
  runs: number
  concurrent: number
  distDir: string
  helmCommand: string[]
  /** The az stand-in's command line; with `auth-type: cli` it is signed in first, as azure/login would. */
  azCommand?: string[]
  /** Results: the job summary, the outputs, the report path (the CLI: stdout). */
  print: (text: string) => void
  /** simulate's own lines (setup, run n of N); default: print. */
  note?: (line: string) => void
  /**
   * Where each action run's raw output goes (main then post step, stdout and stderr as they come);
   * `quiet` for a run whose log is not shown (setup, concurrent runs). Default: print, unless quiet.
   */
  actionLog?: (quiet: boolean) => ActionLogSink
  /** Extra environment of the action's processes. */
  childEnv?: Record<string, string>
  /** Print the job summary, outputs and report path (default true; the CLI's --output json: false). */
  printResults?: boolean
  /**
   * How each run's result is printed: `markdown`, the job summary as the runner got it, and its
   * outputs (default); `text`, the report as plain text in 80 columns (a terminal).
   */
  resultFormat?: 'markdown' | 'text'
  /** Also write the runs' job summaries (Markdown) to this file. */
  summaryPath?: string
  /** Stream the action's own log (default true). */
  streamLog?: boolean
}

export interface ActionLogSink {
  write(text: string): void
  end(): void
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

/** `az login --service-principal …` and `az account set` through the world's az stand-in (a child process). */
async function azLogin(world: World, env: Record<string, string>): Promise<void> {
  const az = path.join(world.helmBinDir, 'az')
  const a = world.scenario.azure
  const run = (args: string[]) =>
    new Promise<void>((resolve, reject) =>
      execFile(az, args, { env: { ...process.env, ...env } }, (e, _out, err) =>
        e ? reject(new Error(`az ${args[0]}: ${String(err).trim() || e.message}`)) : resolve()
      )
    )
  await run([
    'login',
    '--service-principal',
    '--username',
    a.clientId,
    '--tenant',
    a.tenantId,
    `--password=${a.clientSecret}`,
    '--output',
    'none'
  ])
  await run(['account', 'set', '--subscription', a.subscriptionId])
}

export async function simulate(o: SimulateOptions): Promise<SimulateResult> {
  const world = await startWorld({
    scenarioFile: o.scenarioFile,
    scenarioOverrides: o.scenarioOverrides,
    helmCommand: o.helmCommand,
    azCommand: o.azCommand
  })
  /** The runner folders (RUNNER_TEMP, the runner's files) of every run, removed at the end. */
  const runFolders: string[] = []
  try {
    const inputs = { ...world.inputs(), ...o.inputs }
    if (inputs['auth-type'] === 'secret' && !inputs['client-secret'])
      inputs['client-secret'] = world.scenario.azure.clientSecret
    const env = world.env()
    // The action gets its kubeconfig from ARM, like in production: no KUBECONFIG from the world.
    delete (env as Record<string, string>).KUBECONFIG
    const note = o.note ?? ((line: string) => o.print(line + '\n'))
    if (inputs['auth-type'] === 'cli') {
      if (!o.azCommand) throw new Error('simulate: auth-type cli needs the az stand-in')
      note('simulate: signing in the az stand-in (az login --service-principal), as azure/login would')
      await azLogin(world, env)
    }
    const sink = (quiet: boolean): ActionLogSink | undefined =>
      o.actionLog ? o.actionLog(quiet) : quiet ? undefined : { write: t => o.print(t), end: () => {} }
    let runCounter = 0
    /** How long each run took, main and post step. */
    const took = new Map<ActionRun, number>()
    const once = async (extra: Record<string, string> = {}, stream = o.streamLog !== false) => {
      const out = sink(!stream)
      const started = Date.now()
      try {
        const run = await runAction({
          distDir: o.distDir,
          inputs: { ...inputs, ...extra },
          env: { ...env, ...o.childEnv },
          runId: `${Date.now()}${++runCounter}`,
          onLog: out ? t => out.write(t) : undefined
        })
        runFolders.push(path.dirname(run.runnerTemp))
        took.set(run, Date.now() - started)
        return run
      } finally {
        out?.end()
      }
    }

    const setup = world.scenario.setup
    if (setup?.apply) {
      note('simulate: setup: running the action in apply mode first (not counted)')
      const pre = await once({ mode: 'apply' }, false)
      if (pre.exitCode !== 0) {
        note(`simulate: setup apply exited ${pre.exitCode}; the end of its log:`)
        // From a line start, through the same rendering (its masks were collected as it ran).
        const tail = pre.log.slice(-4000)
        const out = sink(false)
        out?.write(tail.slice(tail.indexOf('\n') + 1) + '\n')
        out?.end()
      }
    }
    if (setup?.mutate?.length)
      for (const line of applyMutations(world, setup.mutate as unknown as Mutation[]))
        note(`simulate: setup: ${line}`)

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
        if (o.runs > 1) note(`simulate: run ${i + 1} of ${o.runs}`)
        const r = await once()
        runs.push(r)
        entries.push({ ...actionReport(r), sim: simCounts(world, restarts, helm) })
      }
    }

    const printResults = o.printResults !== false
    const report = entries.length === 1 ? entries[0] : { runs: entries }
    // Written first: the outputs' report-path names it (each run's own folder is removed at the end).
    const reportPath = writeReport(JSON.stringify(report, null, 2) + '\n', o.reportPath)
    const outputsOf = (r: ActionRun): Record<string, string> =>
      r.outputs['report-path'] ? { ...r.outputs, 'report-path': reportPath } : r.outputs
    const which = (i: number): string => (runs.length > 1 ? ` (run ${i + 1})` : '')
    if (o.summaryPath)
      writeFileSync(
        o.summaryPath,
        runs.map((r, i) => (runs.length > 1 ? `<!-- run ${i + 1} -->\n${r.summary}` : r.summary)).join('\n'),
        { mode: 0o600 }
      )
    if (printResults && o.resultFormat === 'text')
      for (const [i, r] of runs.entries()) {
        if (runs.length > 1) o.print(`\n===== run ${i + 1} of ${runs.length} =====\n`)
        const entry = { ...(entries[i] as unknown as TextReport), outputs: outputsOf(r) }
        o.print(
          '\n' +
            renderReportText(entry, { totalMs: took.get(r), simTimeScale: world.scenario.kube.timeScale })
        )
      }
    else if (printResults)
      for (const [i, r] of runs.entries()) {
        o.print(`\n===== job summary${which(i)} =====\n${r.summary}\n`)
        o.print(`===== outputs${which(i)} =====\n`)
        for (const [k, v] of Object.entries(outputsOf(r))) o.print(`${k}=${v}\n`)
      }
    if (printResults) {
      if (o.summaryPath) o.print(`\njob summary: ${o.summaryPath}`)
      o.print(`\nreport: ${reportPath}\n`)
    } else note(`simulate: report written to ${reportPath}`)
    for (const [i, r] of runs.entries())
      if (r.postExitCode !== 0)
        note(
          `simulate: the post step${runs.length > 1 ? ` of run ${i + 1}` : ''} failed (exit ${r.postExitCode}); on GitHub the job fails`
        )
    return { exitCode: jobExitCode(runs), report, runs }
  } finally {
    await world.close()
    // Their kubeconfigs (left when a post step failed) and reports: the report above holds the latter.
    for (const dir of runFolders) rmSync(dir, { recursive: true, force: true })
  }
}
