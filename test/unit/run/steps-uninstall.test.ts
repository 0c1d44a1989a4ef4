// Uninstall mode's steps after the credentials: a stack removal that fails stops there (its steps
// and diagnostics in the report, a StepError naming the failed part, nothing deleted in Azure, the
// post step told nothing of the Lease). The cluster is a small local HTTP stand-in for the API
// server (local-apiserver.ts) that refuses every request (403 Forbidden, as RBAC would), so reading
// the managed pools (which decides whether anything may be removed) fails at once.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { AzureConnection } from '../../../src/azure/index.js'
import { emptyReport, type Report } from '../../../src/report/report.js'
import { StepError } from '../../../src/run/steps.js'
import { runUninstall } from '../../../src/run/uninstall-step.js'
import { readSettings } from '../../../src/settings/input-helper.js'
import type { Settings } from '../../../src/settings/settings.js'
import type { CapturedLog } from '../../support/capture-log.js'
import { reader, VALID_APPLY } from '../../support/inputs.js'
import { apiFailure, startLocalApiServer, type LocalApiServer } from '../../support/local-apiserver.js'
import { captureLogBackend } from '../../support/step-context.js'

let api: LocalApiServer
let dir: string
let kubeconfig: string
let stateFile: string
let log: CapturedLog
const savedState = process.env.GITHUB_STATE

beforeAll(async () => {
  api = await startLocalApiServer(
    apiFailure(403, 'Forbidden', 'forbidden: User "ci" cannot get this resource')
  )
})
afterAll(() => api.close())
captureLogBackend(l => (log = l))
beforeEach(() => {
  api.requests.length = 0
  dir = mkdtempSync(path.join(tmpdir(), 'steps-uninstall-'))
  kubeconfig = path.join(dir, 'kubeconfig')
  api.writeKubeconfig(kubeconfig)
  stateFile = path.join(dir, 'state')
  writeFileSync(stateFile, '')
  process.env.GITHUB_STATE = stateFile
})
afterEach(() => {
  if (savedState === undefined) delete process.env.GITHUB_STATE
  else process.env.GITHUB_STATE = savedState
  rmSync(dir, { recursive: true, force: true })
})

function settings(inputs: Record<string, string>): Settings {
  return readSettings(reader({ ...VALID_APPLY, mode: 'uninstall', retries: '0', ...inputs })).settings
}

describe('runUninstall', () => {
  it('stops at a failed stack removal: its steps and diagnostics reported, nothing deleted in Azure', async () => {
    const report: Report = emptyReport('uninstall')
    report.diagnostics = [{ step: 'earlier', title: 'kept', text: 'x' }]
    // Azure must not be touched: any use of the clients fails the test.
    const conn = {
      get clients(): never {
        throw new Error('Azure reached')
      }
    } as unknown as AzureConnection
    const e = await runUninstall(settings({ cleanup: 'node-pool' }), conn, kubeconfig, report).catch(
      (x: unknown) => x
    )
    expect(e).toBeInstanceOf(StepError)
    expect((e as StepError).step).toBe('pools')
    expect((e as StepError).message).toBe('the stack was not removed')
    // The pools could not be read: nothing was removed, every part not run.
    expect(report.steps[0]).toMatchObject({ name: 'pools', status: 'failure' })
    expect(report.steps[0].detail).toMatch(
      /^the managed pools could not be read from the ownership record: get configmap\/aks-rdma-action-owned -n kube-system: HTTP 403: forbidden/
    )
    expect(report.steps[0].detail).toMatch(/; nothing removed$/)
    expect(report.steps.slice(1).map(s => s.name)).toContain('probe-leftovers')
    for (const s of report.steps.slice(1))
      expect(s).toMatchObject({ status: 'skipped', detail: 'not run: pools failed' })
    expect(report.steps.some(s => s.name === 'node-pool')).toBe(false)
    expect(report.diagnostics![0]).toEqual({ step: 'earlier', title: 'kept', text: 'x' })
    expect(report.diagnostics!.map(d => d.step)).toEqual(['earlier', 'pools'])
    // Discovery was refused: nothing else was asked.
    expect(api.requests).toEqual(['GET /api/v1'])
    expect(log.lines.filter(l => l.startsWith('info: node pool'))).toEqual([])
    // It took no Lease, so it released none: nothing saved for the post step.
    expect(readFileSync(stateFile, 'utf8')).toBe('')
  })

  it('starts the diagnostics when the report had none', async () => {
    const report: Report = emptyReport('uninstall')
    await expect(runUninstall(settings({}), undefined, kubeconfig, report)).rejects.toBeInstanceOf(StepError)
    expect(report.diagnostics!.map(d => d.step)).toEqual(['pools'])
  })
})
