// `node dist/cli.js simulate` (the shipped CLI bundle) tells the truth about the post step: its
// report carries `post: { exitCode, cleanup }`, and when the post step fails to delete what the
// run created the command exits non-zero, as the job would fail on GitHub. Under Actions
// (GITHUB_ACTIONS=true) the job summary it prints on stdout, quoting a crash-looping pod's log
// full of workflow commands, makes the runner carry out none of them. With
// --transport-check ucx on the default world, Dynamo's path passes as gpudirect-rdma with its
// bandwidth in the report and a section in the summary, and a converged re-run writes nothing but
// its own short-lived probe and transport pods. With --collective-check nccl, NCCL takes InfiniBand
// with GPUDirect above both pass marks, sets its outputs and draws its busbw curve in the summary.
import { describe, expect, it, jest } from '@jest/globals'
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { bundlePath } from '../../support/dist.js'
import { runnerCommands } from '../../support/runner-commands.js'

jest.setTimeout(180_000)

/** Runs `node dist/cli.js simulate ...`; its output goes to the test's captured stdout. */
function simulate(
  args: string[],
  extra: Record<string, string> = {}
): Promise<{ code: number; output: string; stdout: string }> {
  const env = {
    ...Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !/^(INPUT|STATE|GITHUB|RUNNER)_/.test(k))
    ),
    ...extra
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundlePath('cli'), 'simulate', ...args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let output = ''
    let stdout = ''
    const take = (b: Buffer): void => {
      output += b.toString()
      process.stdout.write(b)
    }
    child.stdout.on('data', (b: Buffer) => {
      stdout += b.toString()
      take(b)
    })
    child.stderr.on('data', take)
    child.on('error', reject)
    child.on('close', code => resolve({ code: code ?? 1, output, stdout }))
  })
}

function scenarioFile(yaml: string): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'simulate-scenario-')), 'scenario.yaml')
  writeFileSync(file, yaml)
  return file
}

describe('simulate', () => {
  it('reports the post step and exits 0 when both steps succeed', async () => {
    const report = path.join(mkdtempSync(path.join(tmpdir(), 'simulate-report-')), 'report.json')
    const r = await simulate(['--report', report, '--cleanup', 'node-pool', '--benchmark', 'false'])
    expect(r.code).toBe(0)
    const doc = JSON.parse(readFileSync(report, 'utf8'))
    expect(doc.exitCode).toBe(0)
    expect(doc.post.exitCode).toBe(0)
    expect(doc.post.cleanup).toContainEqual({
      resource: 'node-pool',
      name: 'rdmapool',
      result: 'deleted',
      reason: 'was Succeeded'
    })
    // In a terminal the result is plain text: the post step's cleanup is a section of it.
    expect(r.stdout).toContain('\nCleanup (post step)\n  ')
    expect(r.stdout).not.toContain('### ')
  })

  it('exits 1 when the post step fails to delete the pool the run created, and says so', async () => {
    const report = path.join(mkdtempSync(path.join(tmpdir(), 'simulate-report-')), 'report.json')
    const scenario = scenarioFile(
      'azure:\n  faults:\n    - { match: "DELETE */agentPools/*", status: 409 }\n'
    )
    const r = await simulate([
      '--scenario',
      scenario,
      '--report',
      report,
      '--cleanup',
      'node-pool',
      '--benchmark',
      'false'
    ])
    const doc = JSON.parse(readFileSync(report, 'utf8'))
    expect(doc.result).toBe('success') // the main step succeeded…
    expect(doc.exitCode).toBe(0)
    expect(doc.post).toEqual({
      exitCode: 1, // …but the job fails
      cleanup: expect.arrayContaining([
        {
          resource: 'node-pool',
          name: 'rdmapool',
          result: 'failed',
          reason: expect.stringContaining('deleting it failed: HTTP 409 InjectedFault')
        }
      ])
    })
    expect(r.code).toBe(1)
    expect(r.output).toContain('simulate: the post step failed (exit 1); on GitHub the job fails')
    expect(r.stdout).toContain('\nCleanup (post step): failed\n')
  })

  it('under Actions, the job summary on stdout quoting hostile cluster text makes no workflow command', async () => {
    const scenario = scenarioFile(
      [
        'azure:',
        '  feature: { state: Registered }',
        'kube:',
        '  faults:',
        '    - pod: rdma-shared-dp-ds',
        '      kind: CrashLoopBackOff',
        '      log: "starting\\n::warning title=INJECTED-FROM-LOG::owned by a container\\n   ::add-mask::aks-rdmapool\\ndone ##[error]LEGACY-INJECTED\\npanic: boom"',
        ''
      ].join('\n')
    )
    const r = await simulate(['--scenario', scenario, '--benchmark', 'false', '--step-timeout', '3m'], {
      GITHUB_ACTIONS: 'true'
    })
    expect(r.code).toBe(1)
    // The summary quotes the pod's log, line for line ...
    expect(r.stdout).toContain('===== job summary =====')
    expect(r.stdout).toMatch(/^\s+::warning title=INJECTED-FROM-LOG::owned by a container$/m)
    // ... and the runner, reading stdout, carries out none of it.
    const injected = runnerCommands(r.stdout).filter(
      c =>
        /INJECTED/.test(c.properties.title ?? '') ||
        (c.command === 'add-mask' && c.data === 'aks-rdmapool') ||
        /^LEGACY-INJECTED/.test(c.data)
    )
    expect(injected).toEqual([])
  })
  it('--transport-check ucx on the default world: gpudirect-rdma, the bandwidth per pair, the summary section; a re-run leaves nothing', async () => {
    const report = path.join(mkdtempSync(path.join(tmpdir(), 'simulate-report-')), 'report.json')
    const summary = path.join(path.dirname(report), 'summary.md')
    const r = await simulate([
      '--report',
      report,
      '--summary',
      summary,
      '--transport-check',
      'ucx',
      '--runs',
      '2'
    ])
    expect(r.code).toBe(0)
    const { runs } = JSON.parse(readFileSync(report, 'utf8'))
    for (const run of runs) {
      expect(run.result).toBe('success')
      expect(run.transport).toMatchObject({
        mode: 'gpudirect-rdma',
        verdict: 'pass',
        linkGbps: 400,
        passMarkGbps: 320
      })
      expect(run.transport.pairs).toEqual([
        {
          server: expect.any(String),
          client: expect.any(String),
          bandwidthGbps: expect.any(Number),
          latencyUs: expect.any(Number)
        }
      ])
      expect(run.transport.pairs[0].bandwidthGbps).toBeGreaterThan(320)
      expect(run.outputs.transport).toBe('gpudirect-rdma')
      expect(Number(run.outputs['transport-gbps'])).toBe(run.transport.pairs[0].bandwidthGbps)
      expect(run.steps.find((x: { name: string }) => x.name === 'transport')).toMatchObject({
        status: 'success'
      })
    }
    // The converged re-run: the probe DaemonSet (create, delete) and the transport pods (clean-up,
    // server, client, delete) besides the benchmark's pods; no stack object written.
    const second = runs[1].sim.requests.kube.mutatingByResource
    expect(Object.keys(second).sort()).toEqual(['daemonsets', 'pods'])
    expect(second.daemonsets).toBe(2)
    expect(r.stdout).toContain('Transport (Dynamo, UCX): gpudirect-rdma, pass')
    // The Markdown job summaries (the section, the snippet it proved) are in --summary's file.
    const markdown = readFileSync(summary, 'utf8')
    expect(markdown).toContain('### Dynamo transport (UCX)')
    expect(markdown).toContain('The Dynamo worker snippet this check proved')
    expect(r.stdout).toContain(`job summary: ${summary}\nreport: ${report}\n`)
  }, 480_000)

  it('--collective-check nccl on the default world: ib-gdr above both marks, the outputs, the busbw curve in the summary', async () => {
    const report = path.join(mkdtempSync(path.join(tmpdir(), 'simulate-report-')), 'report.json')
    const summary = path.join(path.dirname(report), 'summary.md')
    const r = await simulate(['--report', report, '--summary', summary, '--collective-check', 'nccl'])
    expect(r.code).toBe(0)
    const run = JSON.parse(readFileSync(report, 'utf8'))
    expect(run.result).toBe('success')
    expect(run.collective).toMatchObject({ mode: 'ib-gdr', verdict: 'pass', passMarkGBps: 360 })
    expect(run.collective.busbwGBps).toBeGreaterThan(360)
    expect(run.collective.nodes.length).toBeGreaterThanOrEqual(2)
    for (const n of run.collective.nodes) expect(n).toMatchObject({ verdict: 'pass', passMarkGBps: 460 })
    expect(run.outputs.collective).toBe('ib-gdr')
    expect(run.outputs['nccl-busbw-gbps']).toBe(run.collective.busbwGBps)
    expect(run.steps.find((x: { name: string }) => x.name === 'collective')).toMatchObject({
      status: 'success'
    })
    expect(r.stdout).toContain('Collectives (NCCL all_reduce): ib-gdr, pass')
    const markdown = readFileSync(summary, 'utf8')
    expect(markdown).toContain('### NCCL collectives (all_reduce_perf)')
    expect(markdown).toMatch(/xychart-beta\n {2}title "all_reduce busbw across the pair, GB\/s/)
  }, 480_000)
})
