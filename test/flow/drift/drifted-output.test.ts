// The `drifted` output when drift broke the cluster: after a real apply, the NodeFeatureRule deleted
// behind the action's back (and later the whole stack uninstalled) leaves the cluster failing its
// checks too; drift mode still says `drifted: true` — in the step output, the JSON report and the
// job summary alike — with the result `failure` and exit code 1 (a failure outranks drift).
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { FlowResult } from '../../../src/run/flow.js'
import type { World } from '../../../sim/world.js'
import * as runner from '../../support/runner-env.js'

jest.setTimeout(900_000)

let world: World
let files: { output: string; summary: string }
const flowLog: string[] = []

const flow = (mode: string): Promise<FlowResult> =>
  runner.runFlowAs(
    runner.secretAuthSettings(world, runner.twoNodeRun(mode, { 'step-timeout': '10m' })),
    mode,
    flowLog
  )

/** Drift mode as the runner runs it: the outputs it wrote (GITHUB_OUTPUT), its report file and its summary. */
async function driftRun(): Promise<{
  r: FlowResult
  outputs: Record<string, string>
  reportFile: { result: string; outputs: Record<string, string>; drift: Array<{ field: string }> }
  summary: string
}> {
  const outputAt = readFileSync(files.output, 'utf8').length
  const summaryAt = readFileSync(files.summary, 'utf8').length
  const r = await flow('drift')
  // core.setOutput's file command: `name<<delimiter`, the value, the delimiter.
  const outputs: Record<string, string> = {}
  for (const m of readFileSync(files.output, 'utf8')
    .slice(outputAt)
    .matchAll(/^([\w-]+)<<(\S+)\n([\s\S]*?)\n\2$/gm))
    outputs[m[1]] = m[3]
  return {
    r,
    outputs,
    reportFile: JSON.parse(readFileSync(r.report.outputs['report-path'], 'utf8')),
    summary: readFileSync(files.summary, 'utf8').slice(summaryAt)
  }
}

beforeAll(async () => {
  world = await runner.runnerWorld('drifted-runner')
  const dir = mkdtempSync(path.join(tmpdir(), 'drifted-files-'))
  files = { output: path.join(dir, 'output'), summary: path.join(dir, 'summary.md') }
  writeFileSync(files.output, '')
  writeFileSync(files.summary, '')
  process.env.GITHUB_OUTPUT = files.output
  process.env.GITHUB_STEP_SUMMARY = files.summary
  const r = await flow('apply')
  expect(r.report.steps.filter(x => x.status === 'failure').map(x => `${x.name}: ${x.detail}`)).toEqual([])
  expect(r.exitCode).toBe(0)
})

afterAll(() => runner.leaveWorld(world))

describe('drift that broke the cluster is still drift', () => {
  it('the NodeFeatureRule deleted: drifted true in the output, the report and the summary; exit 1', async () => {
    const rules = world.kube.store.type('nfd.k8s-sigs.io', 'nodefeaturerules')!
    world.kube.store.delete(rules, undefined, 'nfd-network-rule')
    const { r, outputs, reportFile, summary } = await driftRun()
    expect(r.report.drift?.map(d => d.field)).toContain('nodefeaturerule/nfd-network-rule')
    expect(outputs.drifted).toBe('true')
    expect(reportFile.outputs.drifted).toBe('true')
    expect(reportFile.drift.map(d => d.field)).toContain('nodefeaturerule/nfd-network-rule')
    expect(summary).toMatch(/\| `drifted` \| `?true`? \|/)
    expect(summary).toContain('nodefeaturerule/nfd-network-rule')
    // The nodes lose the rule's labels, so checks fail too: the result is failure, drift still reported.
    expect(r.report.result).toBe('failure')
    expect(outputs.result).toBe('failure')
    expect(reportFile.result).toBe('failure')
    expect(r.exitCode).toBe(1)
  })

  it('after uninstall: every component drifted, drifted true, result failure, exit 1', async () => {
    const removed = await flow('uninstall')
    expect(removed.exitCode).toBe(0)
    const { r, outputs, reportFile, summary } = await driftRun()
    expect(r.report.drift!.length).toBeGreaterThan(1)
    expect(r.report.result).toBe('failure')
    expect(r.report.checks.some(c => c.status === 'fail')).toBe(true)
    expect(outputs).toMatchObject({ result: 'failure', drifted: 'true' })
    expect(reportFile).toMatchObject({ result: 'failure', outputs: { drifted: 'true' } })
    expect(summary).toMatch(/\| `drifted` \| `?true`? \|/)
    expect(r.exitCode).toBe(1)
  })
})
