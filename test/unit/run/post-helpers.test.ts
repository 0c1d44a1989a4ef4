// The post step's guards and summary: a path it may touch must really lie inside RUNNER_TEMP
// (links on the way resolved, so none leads outside), and its cleanup table keeps Azure's text as
// text in the job summary.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { insideRunnerTemp, renderCleanupSummary } from '../../../src/run/post.js'

let root: string
let runnerTemp: string
let outside: string
beforeAll(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'post-helpers-')))
  runnerTemp = path.join(root, 'runner-temp')
  outside = path.join(root, 'outside')
  mkdirSync(path.join(runnerTemp, 'sub'), { recursive: true })
  mkdirSync(outside)
  symlinkSync(outside, path.join(runnerTemp, 'escape'))
  symlinkSync(path.join(runnerTemp, 'sub'), path.join(root, 'into-temp'))
})
afterAll(() => rmSync(root, { recursive: true, force: true }))

describe('insideRunnerTemp', () => {
  it('gives the real path of what lies inside RUNNER_TEMP, the last part unresolved', () => {
    expect(insideRunnerTemp(path.join(runnerTemp, 'sub', 'report.json'), runnerTemp)).toBe(
      path.join(runnerTemp, 'sub', 'report.json')
    )
    expect(insideRunnerTemp(path.join(runnerTemp, 'escape'), runnerTemp)).toBe(
      path.join(runnerTemp, 'escape')
    )
    expect(insideRunnerTemp(path.join(root, 'into-temp', 'kubeconfig'), runnerTemp)).toBe(
      path.join(runnerTemp, 'sub', 'kubeconfig')
    )
  })
  it('refuses what a link on the way leads outside, RUNNER_TEMP itself, and what lies beside it', () => {
    expect(insideRunnerTemp(path.join(runnerTemp, 'escape', 'report.json'), runnerTemp)).toBeUndefined()
    expect(
      insideRunnerTemp(path.join(runnerTemp, 'sub', '..', '..', 'outside', 'x'), runnerTemp)
    ).toBeUndefined()
    expect(insideRunnerTemp(runnerTemp, runnerTemp)).toBeUndefined()
    expect(insideRunnerTemp(`${runnerTemp}-other/x`, runnerTemp)).toBeUndefined()
  })
  it('refuses everything without RUNNER_TEMP, or when the folder does not exist', () => {
    expect(insideRunnerTemp(path.join(runnerTemp, 'x'), '')).toBeUndefined()
    expect(insideRunnerTemp(path.join(runnerTemp, 'missing', 'x'), runnerTemp)).toBeUndefined()
    expect(insideRunnerTemp('/x', path.join(root, 'no-such-temp'))).toBeUndefined()
  })
})

describe('renderCleanupSummary', () => {
  it('is nothing when the post step had nothing to clean up', () => {
    expect(renderCleanupSummary({ exitCode: 0, cleanup: [] })).toBe('')
  })
  it('is one row per resource, with its result and why, and says when the step failed', () => {
    const md = renderCleanupSummary({
      exitCode: 1,
      cleanup: [
        { resource: 'node-pool', name: 'rdma', result: 'deleted', reason: 'created by this run' },
        { resource: 'cluster', name: 'rg/aks', result: 'failed', reason: 'HTTP 409 | busy\n::error::x' },
        { resource: 'lease', name: 'kube-system/aks-rdma-action', result: 'kept' },
        { resource: 'temp-files', name: 'RUNNER_TEMP', result: 'skipped', reason: 'none' }
      ] as never
    })
    const lines = md.split('\n')
    expect(lines.slice(0, 4)).toEqual([
      '### Cleanup (post step): failed',
      '',
      '| Resource | Name | Result | Why |',
      '| --- | --- | --- | --- |'
    ])
    expect(lines[4]).toBe('| node-pool | `rdma` | 🗑️ deleted | created by this run |')
    expect(lines[5].startsWith('| cluster | `rg/aks` | ❌ failed | HTTP 409 \\| busy<br>')).toBe(true)
    expect(lines[5]).not.toContain('\n')
    expect(lines[6]).toBe('| lease | `kube-system/aks-rdma-action` | 📌 kept |  |')
    expect(lines[7]).toBe('| temp-files | `RUNNER_TEMP` | ➖ skipped | none |')
    expect(lines).toHaveLength(9)
    expect(
      renderCleanupSummary({
        exitCode: 0,
        cleanup: [{ resource: 'cluster', name: 'c', result: 'kept' }] as never
      })
    ).toMatch(/^### Cleanup \(post step\)\n/)
  })
})
